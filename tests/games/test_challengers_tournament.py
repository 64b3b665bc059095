"""Challengers! tournament: pairings, deck phase, bot, trophies and fans, early win, final."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.game import Game
from companion.errors import CompanionError
from companion.games.challengers.decks import CardPool
from companion.games.challengers.numbers import TROPHY_FANS
from companion.games.challengers.plan import (
    BOT,
    PlanError,
    check_levels,
    pairings,
    seats_for,
)
from companion.games.challengers.tournament import FINAL, Match, Tournament, TournamentError

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Fe", "Gu", "Hu"]


def deck_phase(t: Tournament) -> None:
    """Every player keeps the first offered card (and pays Ausgewählt with its first cards)."""
    for name in t.players:
        offer = t.draw_offer(name)
        keep = offer[:1]
        owed = t.removals_owed(keep)
        t.choose(name, keep, remove=(t.seats[name].deck + keep)[:owed])
    t.end_deck_phase()


def play_round(t: Tournament, winners: dict[str, int] | None = None,
               fans: int | None = None) -> None:
    """Record every match of the round: the seat ranked first in `winners` wins (else `a`)."""
    deck_phase(t)
    rank = winners or {}
    for match in t.matches:
        winner = min((match.a, match.b), key=lambda n: rank.get(n, 99))
        _low, high = TROPHY_FANS[match.round]
        t.record(match, winner, trophy_fans=high if fans is None else fans)
    t.end_match_phase()


# ----------------------------------------------------------------------------- plan


@pytest.mark.parametrize("count", range(1, 9))
def test_pairings_seat_everybody_once_per_round(count: int) -> None:
    seats = seats_for(NAMES[:count])
    assert len(seats) % 2 == 0 and (BOT in seats) == (count % 2 == 1)
    met: Counter[frozenset[str]] = Counter()
    for round_no in range(1, 8):
        pairs = pairings(seats, round_no)
        flat = [s for pair in pairs for s in pair]
        assert sorted(flat) == sorted(seats)
        met.update(frozenset(p) for p in pairs)
    if len(seats) > 2:  # a full cycle meets everybody once
        cycle = Counter(frozenset(p) for r in range(1, len(seats)) for p in pairings(seats, r))
        assert set(cycle.values()) == {1}
        assert len(cycle) == len(seats) * (len(seats) - 1) // 2


def test_plan_rejects_what_the_rules_do_not_allow() -> None:
    for bad in ([], [*NAMES, "Ix"], ["Ada", "Ada"], ["Bot", "Ada"]):
        with pytest.raises(PlanError):
            seats_for(bad)
    with pytest.raises(PlanError):
        check_levels(("B", "B", "B", "C", "C", "C", "C"))
    with pytest.raises(PlanError):
        check_levels(("A", "B"))
    assert issubclass(TournamentError, CompanionError) and issubclass(PlanError, CompanionError)


def test_trophy_fans_per_round() -> None:
    assert TROPHY_FANS == {1: (2, 3), 2: (2, 3), 3: (3, 4), 4: (5, 6), 5: (6, 7), 6: (7, 8),
                           7: (9, 10)}
    t = Tournament(["Ada", "Bo", "Cy", "Di"], seed=1)
    deck_phase(t)
    match = t.matches[0]
    with pytest.raises(TournamentError):
        t.record(match, match.a, trophy_fans=4)
    trophy = t.record(match, match.a)
    assert trophy is not None and trophy.fans in (2, 3) and trophy.round == 1
    with pytest.raises(TournamentError):
        t.record(match, match.b)
    with pytest.raises(TournamentError):
        t.end_match_phase()


# ----------------------------------------------------------------------------- deck phase


def test_deck_phase_offer_redraw_keep_slim() -> None:
    t = Tournament(["Ada", "Bo"], seed=2, sets=["Burg", "Spukhaus", "Freizeitpark",
                                                 "Filmstudio", "Tiefsee"])
    assert "Weltraum" not in t.sets and t.level() == "A"
    with pytest.raises(TournamentError):
        t.end_deck_phase()
    offer = t.draw_offer("Ada")
    assert len(offer) == 5 and len(set(offer)) == 5
    assert all(t.catalog.of_uid(u).get("level") == "A" for u in offer)
    with pytest.raises(TournamentError):
        t.draw_offer("Ada")
    again = t.redraw("Ada", offer[:3])
    assert len(again) == 5 and set(offer[3:]) <= set(again)
    assert not set(offer[:3]) & set(again)
    with pytest.raises(TournamentError):
        t.redraw("Ada", again[:1])
    with pytest.raises(TournamentError):
        t.choose("Ada", again[:3])
    with pytest.raises(TournamentError):
        t.choose("Ada", ["CH-999#1"])
    before = len(t.seats["Ada"].deck)
    deck = t.choose("Ada", again[:2], slim=[t.seats["Ada"].deck[0]])
    assert len(deck) == before + 1 and set(again[:2]) <= set(deck)
    assert len(t.slim("Ada", deck[:1])) == before
    with pytest.raises(TournamentError):
        t.slim("Bo", [])
    with pytest.raises(TournamentError):
        t.draw_offer(BOT)


def test_ausgewaehlt_removes_a_card_from_the_deck() -> None:
    t = Tournament(["Ada", "Bo"], seed=3, sets=["Weltraum", "Burg", "Spukhaus",
                                                "Freizeitpark", "Tiefsee"])
    chosen = [u for u in t.stacks["A"] if t.removals_owed([u])]
    assert chosen, "Weltraum has Ausgewählt cards at level A"
    t.phases["Ada"].offer, t.phases["Ada"].drawn = [chosen[0]], True
    t.stacks["A"].remove(chosen[0])
    with pytest.raises(TournamentError):
        t.choose("Ada", [chosen[0]])
    start = list(t.seats["Ada"].deck)
    deck = t.choose("Ada", [chosen[0]], remove=[start[0]])
    assert len(deck) == len(start) and start[0] not in deck and chosen[0] in deck


def test_copies_are_never_in_two_places() -> None:
    t = Tournament(NAMES[:7], bot_difficulty=5, seed=4)
    uids = [u for s in t.seats.values() for u in s.deck] + [
        u for stack in t.stacks.values() for u in stack]
    assert len(uids) == len(set(uids))


def test_bot_difficulty_replaces_start_cards_by_stronger_ones() -> None:
    weak = CardPool().bot_deck(1, random.Random(0))
    strong = CardPool().bot_deck(5, random.Random(0))
    pool = CardPool()
    assert len(weak) == len(strong) == 6
    assert sum(map(pool.strength, strong)) > sum(map(pool.strength, weak))
    with pytest.raises(PlanError):
        CardPool().bot_deck(6, random.Random(0))


# ----------------------------------------------------------------------------- matches


def test_match_config_plays_with_the_ruleset_and_records_the_outcome() -> None:
    t = Tournament(["Ada", "Bo", "Cy"], seed=5)
    deck_phase(t)
    match = t.match_of("Ada")
    config = t.match_config(match)
    assert config.players == (match.a, match.b) and config.setup == {"round": 1}
    game = Game(config)
    rng = random.Random(5)
    while game.outcome() is None:
        game.push(rng.choice(game.legal_moves), "automatic")
    trophy = t.record_game(match, game, trophy_fans=2)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is not None
    winner = match.name(outcome.winner)
    assert t.results[match] == winner
    if winner == BOT:
        assert t.seats[BOT].trophies == [] and t.seats[BOT].fans == 0  # back to the box
    else:
        assert trophy is not None and t.seats[winner].trophies == [trophy]


def test_higher_round_trophy_starts() -> None:
    t = Tournament(["Ada", "Bo"], seed=6)
    play_round(t, {"Bo": 0}, fans=2)
    assert t.matches[0].starter == "Bo"
    play_round(t, {"Ada": 0}, fans=2)
    assert t.matches[0].starter == "Ada"
    config = t.match_config(t.matches[0])
    assert config.first == t.matches[0].seat("Ada")


# ----------------------------------------------------------------------------- game end


def test_two_players_early_win_with_an_11_fan_lead() -> None:
    t = Tournament(["Ada", "Bo"], seed=7)
    for _ in range(3):  # 3 + 3 + 4 = 10: not yet
        play_round(t, {"Ada": 0})
    assert t.stage == "deck" and t.winner is None
    assert [s.fans for s in t.standings()] == [10, 0]
    play_round(t, {"Ada": 0})
    assert (t.stage, t.winner, t.end_reason) == ("over", "Ada", "lead")


def test_solo_bot_keeps_trophies_and_most_fans_win_after_round_7() -> None:
    t = Tournament(["Ada"], seed=8)
    for who in ["Ada", BOT, "Ada", BOT, "Ada", BOT, "Ada"]:
        play_round(t, {who: 0})
    assert t.stage == "over" and t.round == 7
    fans = {s.name: s.fans for s in t.standings()}
    assert fans == {"Ada": 3 + 4 + 7 + 10, BOT: 3 + 6 + 8}
    assert t.winner == "Ada" and t.end_reason == "fans"


def test_two_players_equal_fans_after_round_7_more_trophies_win() -> None:
    t = Tournament(["Ada", "Bo"], seed=9)
    plan = [("Ada", 2, 0), ("Bo", 2, 0), ("Ada", 3, 0), ("Bo", 5, 0), ("Ada", 6, 0),
            ("Bo", 7, 6), ("Ada", 9, 0)]
    for who, fans, tokens in plan:
        deck_phase(t)
        (match,) = t.matches
        t.record(match, who, {who: tokens}, trophy_fans=fans)
        t.end_match_phase()
    assert [(s.name, s.fans, s.trophies) for s in t.standings()] == [("Ada", 20, 4),
                                                                     ("Bo", 20, 3)]
    assert (t.stage, t.winner, t.end_reason) == ("over", "Ada", "fans")


def test_bot_trophies_go_back_to_the_box_with_three_players() -> None:
    t = Tournament(["Ada", "Bo", "Cy"], seed=10)
    play_round(t, {BOT: 0})
    assert t.seats[BOT].trophies == [] and t.seats[BOT].fans == 0
    assert sum(len(s.trophies) for s in t.seats.values()) == 1


def test_fans_stay_hidden_until_the_final_and_finalists_by_tie_breaks() -> None:
    t = Tournament(["Ada", "Bo", "Cy", "Di"], seed=11)
    order = {"Ada": 0, "Bo": 1, "Cy": 2, "Di": 3}
    for _ in range(7):
        assert all(s.fans is None for s in t.standings())
        play_round(t, order, fans=None)
    assert t.stage == "final-deck" and t.round == FINAL
    assert all(s.fans is not None for s in t.standings())
    ranked = t.ranking()
    assert t.finalists == (ranked[0].name, ranked[1].name)
    assert ranked[0].name == "Ada"
    finalist = t.finalists[1]
    outsider = next(n for n in NAMES[:4] if n not in t.finalists)
    with pytest.raises(TournamentError):
        t.slim(outsider, [])
    t.slim(finalist, t.seats[finalist].deck[:1])
    (final,) = t.end_deck_phase()
    assert final.final and {final.a, final.b} == set(t.finalists)
    t.record(final, final.b)
    assert (t.stage, t.winner, t.end_reason) == ("over", final.b, "final")


def test_standings_show_the_finalists_first_when_lots_decide() -> None:
    from companion.games.challengers.tournament import Trophy

    for seed in range(6):
        t = Tournament(["Ada", "Bo", "Cy", "Di"], seed=seed)
        for _ in range(6):
            play_round(t, {"Di": 0, "Cy": 1})
        deck_phase(t)
        for match in t.matches:
            t.record(match, match.a, trophy_fans=9)
        for seat in t.seats.values():  # a perfect tie: only lots can separate them
            seat.trophies, seat.fan_tokens = [Trophy(7, 10)], 0
        t.end_match_phase()
        assert t.stage == "final-deck" and t.finalists is not None
        assert [s.name for s in t.standings()[:2]] == list(t.finalists)


def test_ranking_tie_breaks_trophies_then_higher_round() -> None:
    t = Tournament(["Ada", "Bo", "Cy"], seed=12)
    from companion.games.challengers.tournament import Trophy

    t.seats["Ada"].trophies = [Trophy(7, 10)]
    t.seats["Bo"].trophies = [Trophy(1, 3), Trophy(2, 3), Trophy(3, 4)]
    t.seats["Cy"].trophies = [Trophy(4, 5), Trophy(1, 2), Trophy(1, 3)]
    assert [s.name for s in t.ranking()] == ["Cy", "Bo", "Ada"]
    t.seats["Ada"].fan_tokens = 1
    assert next(s.name for s in t.ranking()) == "Ada"


@settings(max_examples=10, deadline=None)
@given(count=st.integers(1, 8), seed=st.integers(0, 1000))
def test_whole_tournaments_end_with_a_winner_or_draw(count: int, seed: int) -> None:
    t = Tournament(NAMES[:count], seed=seed, bot_difficulty=1 + seed % 5)
    rng = random.Random(seed)
    for _ in range(7):
        if t.stage == "over":
            break
        deck_phase(t)
        for match in t.matches:
            t.record(match, rng.choice((match.a, match.b)), {match.a: rng.randint(0, 2)})
        t.end_match_phase()
    if t.stage == "final-deck":
        (final,) = t.end_deck_phase()
        t.record(final, final.a)
    assert t.stage == "over"
    assert t.winner in (*NAMES[:count], BOT, None)
    assert t.winner != BOT or count == 1
    assert isinstance(t.view()["standings"], list)


def test_match_helpers() -> None:
    m = Match(3, "Ada", "Bo", "Bo")
    assert (m.seat("Ada"), m.seat("Bo"), m.name("p2"), m.final) == ("p1", "p2", "Bo", False)
    with pytest.raises(TournamentError):
        m.seat("Cy")
    assert list(itertools.islice(iter(TROPHY_FANS), 1)) == [1]


def test_a_withdrawn_result_gives_back_what_it_gave_and_only_while_its_round_runs() -> None:
    """A game reopened at its table: its result comes off (trophy and effect fans) and the
    match can be recorded again, with another winner; once the round is closed, results
    stand (the next round was paired on them)."""
    t = Tournament(["Ada", "Bo", "Cy", "Di"], seed=12)
    deck_phase(t)
    match, other = t.matches
    _low, high = TROPHY_FANS[match.round]
    before = {n: (list(s.trophies), s.fan_tokens) for n, s in t.seats.items()}
    trophy = t.record(match, match.a, {match.a: 2, match.b: 1}, trophy_fans=high)
    assert trophy is not None and t.seats[match.a].trophies == [trophy]
    assert t.withdraw(match) == trophy
    assert {n: (list(s.trophies), s.fan_tokens) for n, s in t.seats.items()} == before
    assert match not in t.results
    with pytest.raises(TournamentError):
        t.withdraw(match)  # nothing counted any more
    t.record(match, match.b, {match.b: 3}, trophy_fans=trophy.fans)
    assert t.seats[match.b].trophies == [trophy] and t.seats[match.b].fan_tokens == 3
    assert t.seats[match.a].trophies == [] and t.seats[match.a].fan_tokens == 0
    t.record(other, other.a, trophy_fans=high)
    t.end_match_phase()
    with pytest.raises(TournamentError):
        t.withdraw(match)  # round 2 is paired: round 1's results stand


def test_a_redraw_discards_only_offered_cards() -> None:
    """The redraw swaps cards of the offer; naming a card of the own deck is refused and does
    not use up the one redraw of the deck phase."""
    t = Tournament(["Ada", "Bo"], seed=2)
    offer = t.draw_offer("Ada")
    with pytest.raises(TournamentError, match="can only redraw offered cards"):
        t.redraw("Ada", [t.seats["Ada"].deck[0]])
    again = t.redraw("Ada", offer[:1])
    assert len(again) == 5 and offer[0] not in again
