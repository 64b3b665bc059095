"""Challengers! match rules: effects, attacks, bench, takeover, match end, views, random games."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cardsets import load_cardset
from companion.engine.api import Move, blocking
from companion.engine.cards import CardFacts, Catalog
from companion.engine.effects import compile_card, compiler_for
from companion.engine.game import Game
from companion.engine.state import UNKNOWN
from companion.games.challengers import effects as fx
from companion.games.challengers.texts import VIOLATIONS
from companion.referee.script import referee_script

SCRIPTS = Path(__file__).resolve().parents[2] / "companion" / "sim" / "scripts" / "challengers"
PLAIN = ["CH-001", "CH-002", "CH-103", "CH-106", "CH-107", "CH-109"]  # no effects


def new_game(p1: list[str], p2: list[str], first: str = "p1", setup: dict | None = None,
             seed: int = 0) -> Game:
    return Game.new("challengers", ("Ada", "Bo"), decks={"p1": p1, "p2": p2}, first=first,
                    seed=seed, setup=setup)


def reveal(game: Game, player: str, uid: str = UNKNOWN) -> list[str]:
    """Reveal a card of `player`'s deck (the camera names it; "?" takes the believed top)."""
    violations = game.push(Move("reveal", player, (uid,)), "script")
    return [v.code for v in blocking(violations)]


# ----------------------------------------------------------------------------- effects


@pytest.mark.parametrize(("text", "when", "do", "amount"), [
    ("Erhalte 1 Fan.", "reveal", "fans", 1),
    ("Erhalte 2 Fans.", "reveal", "fans", 2),
    ("Lege die oberste Karte deiner Bank auf den Ruhestapel.", "reveal", "rest", 1),
    ("Fahnenverlust: lege eine Karte von deiner Bank auf den Ruhestapel.", "flag-loss", "rest",
     1),
    ("Im Angriff: +1 Stärke für jede weitere aufgedeckte Karte.", "attack", "per-other", 1),
    ("Von der Bank: deine Karten mit gleichem Namen +1 Stärke.", "bench", "same-name", 1),
    ("Von der Bank: +1 Stärke für deine aufgedeckte Karte.", "bench", "revealed", 1),
    ("Im Fahnenbesitz: +2 Stärke.", "flag", "strength", 2),
    ("Ausgewählt: entferne eine Karte aus deinem Deck.", "chosen", "remove-from-deck", 1),
    ("Tausche die Fahne mit dem Mond.", "reveal", "unknown", 0),
])
def test_card_texts_read_as_typed_effects(text: str, when: str, do: str, amount: int) -> None:
    card = CardFacts.from_mapping({"id": "X-1", "name": "X", "type": "recruit", "text": text})
    (effect,) = fx.card_effects(compile_card(card, compiler_for("challengers")))
    assert (effect.when, effect.do, effect.amount) == (when, do, amount)


def test_every_sample_card_text_is_modelled() -> None:
    catalog = Catalog.for_game("challengers")
    unknown = [i for i in catalog.ids()
               for e in fx.card_effects(catalog.card(i)) if e.do == "unknown"]
    assert unknown == []
    assert len(load_cardset("challengers").cards) == len(catalog)


def test_typed_effects_win_over_text() -> None:
    card = CardFacts.from_mapping({
        "id": "X-1", "name": "X", "type": "recruit", "strength": 1, "text": "Erhalte 1 Fan.",
        "effects": [{"when": "flag", "do": "modify", "stat": "strength", "amount": 3,
                     "target": {"side": "self"}}],
    })
    assert fx.card_effects(compile_card(card, compiler_for("challengers"))) == (
        fx.Effect("flag", "strength", 3, ""),)


# ----------------------------------------------------------------------------- one match


def test_opening_attack_bench_takeover() -> None:
    game = new_game(["CH-002#1", "CH-001#1"], ["CH-001#2", "CH-002#2", "CH-001#3"])
    assert game.phase == "open" and game.legal_moves == [Move("reveal", "p1", (UNKNOWN,))]
    assert reveal(game, "p2") == ["ch.not-starter"]
    game.undo()
    assert reveal(game, "p1", "CH-002#1") == []
    flags = game.state.flags
    assert (flags["holder"], flags["flag_card"], game.active, game.phase) == (
        "p1", "CH-002#1", "p2", "attack")
    assert reveal(game, "p2", "CH-001#2") == [] and game.phase == "attack"
    assert reveal(game, "p1") == ["ch.not-attacker"]
    game.undo()
    assert reveal(game, "p2", "CH-002#2") == [] and game.phase == "bench"
    beaten = game.state.flags["flag_card"]
    wrong = Move("bench", "p2", (beaten,), to="p2.bench1")
    assert "ch.not-defending" in [v.code for v in game.check(wrong)]
    stack = next(m for m in game.legal_moves if m.kind == "stack")
    assert stack.cards[0] == game.state.flags["attack"][-1]
    assert game.push(Move("bench", "p1", (beaten,), to="p1.bench1")) == []
    assert game.state.flags["holder"] == "p2" and game.active == "p1"
    assert game.state.flags["flag_card"] == stack.cards[0]
    assert game.phase == "attack" and game.state.turn == 2
    codes = [v.code for v in game.check(Move("bench", "p2", (stack.cards[0],), to="p2.bench1"))]
    assert codes == ["ch.no-bench-now"]
    assert "ch.not-from-deck" in [v.code for v in game.check(Move("reveal", "p1", ("CH-002#1",)))]
    assert reveal(game, "p1", "CH-001#1") == []  # 1 < 2 and the deck is empty
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("p2", "deck-empty")


def test_bench_seat_and_empty_deck_checks() -> None:
    game = new_game(["CH-002#1"], ["CH-109#1"])
    reveal(game, "p1")
    reveal(game, "p2")
    assert game.phase == "bench"
    off_seat = Move("bench", "p1", ("CH-002#1",), to="p1.rest")
    assert [v.code for v in game.check(off_seat)] == ["ch.not-a-seat"]
    empty = new_game([], ["CH-001#1"])
    outcome = empty.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("p2", "deck-empty")
    short = new_game(["CH-002#1"], ["CH-001#1", "CH-001#2"])
    reveal(short, "p1")
    codes = [v.code for v in short.check(Move("reveal", "p1", (UNKNOWN,)))]
    assert codes == ["ch.not-attacker", "ch.deck-empty"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(defender=st.sampled_from(PLAIN), attack=st.lists(st.sampled_from(PLAIN), min_size=1,
                                                         max_size=6))
def test_attack_succeeds_exactly_when_the_sum_reaches_the_defence(
        defender: str, attack: list[str]) -> None:
    p2 = [f"{cid}#{i + 10}" for i, cid in enumerate(attack)]
    game = new_game([f"{defender}#1"], p2)
    reveal(game, "p1")
    catalog = game.state.catalog
    need = catalog.card(defender).number("strength")
    total = 0
    for uid in p2:
        assert game.phase == "attack" and game.outcome() is None
        game.push(Move("reveal", "p2", (uid,)), "script")
        total += catalog.of_uid(uid).number("strength")
        if total >= need:
            assert game.phase == "bench"
            assert game.ruleset.expect_value(game.state, "strength")["p2"] == total
            return
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "p1" and outcome.reason == "deck-empty"


def test_bench_full_loses_and_fahnenverlust_can_save_it() -> None:
    bench = {f"p1.bench{i}": [cid] for i, cid in
             enumerate(["CH-001", "CH-002", "CH-101", "CH-004", "CH-103", "CH-106"], 1)}
    for flag_card, lost in (("CH-107", True), ("CH-114", False)):
        setup = {"active": "p2", "table": {"p1.play": [flag_card], **bench},
                 "on": {"flag": f"{flag_card}#1"}}
        game = new_game(["CH-001#5"], ["CH-314#1", "CH-001#6"], setup=setup)
        assert game.state.flags["holder"] == "p1" and game.phase == "attack"
        reveal(game, "p2")  # Königin (10) beats both
        outcome = game.outcome()
        if lost:
            assert outcome is not None and (outcome.winner, outcome.reason) == ("p2",
                                                                                "bench-full")
        else:
            assert outcome is None and game.phase == "bench"
            assert game.ruleset.pending_rest(game.state, "p1") == 1  # type: ignore[attr-defined]
            early = Move("bench", "p1", ("CH-114#1",), to="p1.bench1")
            assert "ch.rest-first" in [v.code for v in game.check(early)]
            assert game.push(Move("rest", "p1", ("CH-101#1",))) == []
            assert game.push(Move("bench", "p1", ("CH-114#1",), to="p1.bench3")) == []
            assert game.state.flags["holder"] == "p2"


def test_can_bench_counts_names_seats_and_rests() -> None:
    setup = {"active": "p2", "table": {"p1.play": ["CH-002"], "p1.bench1": ["CH-001"],
                                       "p1.bench2": ["CH-103#1", "CH-103#2"]},
             "on": {"flag": "CH-002#1"}}
    game = new_game([], ["CH-001#9"], setup=setup)
    state = game.state
    assert fx.seats_needed(state, "p1", ["CH-002#1"]) == 1
    assert fx.seats_needed(state, "p1", ["CH-001#9"]) == 0
    for seat in fx.seats("p1")[2:]:
        state.zones[seat].append("CH-106#1")  # fill the other seats (same name: one seat each)
    assert not fx.can_bench(state, "p1", ["CH-002#1"], 0)
    assert fx.can_bench(state, "p1", ["CH-002#1"], 1)  # Stadtkind's seat empties
    assert fx.can_bench(state, "p1", ["CH-001#9"], 0)


def test_bench_bonuses_and_flag_bonus() -> None:
    setup = {"active": "p2", "table": {"p1.play": ["CH-110#1"], "p1.bench1": ["CH-110#2"],
                                       "p1.bench2": ["CH-003#1"], "p2.bench1": ["CH-003#2"]},
             "on": {"flag": "CH-110#1"}}
    game = new_game([], ["CH-102#1", "CH-001#1", "CH-001#2"], setup=setup)
    strength = game.ruleset.expect_value(game.state, "strength")
    assert strength == {"p1": 4 + 1 + 1, "p2": 0}
    game.push(Move("reveal", "p2", ("CH-102#1",)))
    game.push(Move("reveal", "p2", ("CH-001#1",)))
    # Bäcker 0 + Stadtkind 1 + Bäcker's +1 for one other card + Laufbursche 1
    assert game.ruleset.expect_value(game.state, "strength")["p2"] == 3
    ghost = new_game(["CH-401#1"], ["CH-001#1"])
    reveal(ghost, "p1")
    assert ghost.ruleset.expect_value(ghost.state, "strength")["p1"] == 3


def test_immediate_fans_and_rest_obligation() -> None:
    setup = {"active": "p2", "table": {"p1.play": ["CH-314"], "p2.bench1": ["CH-001"]},
             "on": {"flag": "CH-314#1"}, "fans": {"p2": 2}, "round": 6}
    game = new_game([], ["CH-113#1", "CH-004#1", "CH-002#1"], setup=setup)
    assert game.ruleset.expect_value(game.state, "round") == 6
    game.push(Move("reveal", "p2", ("CH-113#1",)))
    assert [m.kind for m in game.legal_moves] == ["rest"]
    assert "ch.rest-first" in [v.code for v in game.check(Move("reveal", "p2", (UNKNOWN,)))]
    codes = [v.code for v in game.check(Move("rest", "p2", ("CH-314#1",)))]
    assert codes == ["ch.rest-not-bench"]
    game.push(Move("rest", "p2", ("CH-001#1",)))
    game.push(Move("reveal", "p2", ("CH-004#1",)))
    assert game.scores()["p2"].value == 3



def test_a_rest_effect_on_a_short_bench_does_what_it_can_and_no_more() -> None:
    """ "Effekte werden soweit wie möglich ausgeführt" (Karteneffekte): "Lege die oberste
    Karte deiner Bank auf den Ruhestapel" on an empty bench does nothing, now or later."""
    setup = {"active": "p2", "table": {"p1.play": ["CH-314#1"]}, "on": {"flag": "CH-314#1"}}
    game = new_game(["CH-109#1", "CH-001#1"], ["CH-113#1", "CH-002#1", "CH-001#2"],
                    setup=setup)
    assert reveal(game, "p2", "CH-113#1") == []  # Stadtführerin, Bo's bench is empty
    assert reveal(game, "p2", "CH-002#1") == []  # 8 + 2 reach Königin's 10
    assert game.push(Move("bench", "p1", ("CH-314#1",), to="p1.bench1")) == []
    assert reveal(game, "p1", "CH-109#1") == []  # Polizistin 5 beats Nachbarin 2
    assert blocking(game.push(Move("bench", "p2", ("CH-002#1",), to="p2.bench1"))) == []
    assert blocking(game.push(Move("bench", "p2", ("CH-113#1",), to="p2.bench2"))) == []
    assert game.ruleset.pending_rest(game.state, "p2") == 0  # type: ignore[attr-defined]
    assert [m.kind for m in game.legal_moves] == ["reveal"]
    assert reveal(game, "p2", "CH-001#2") == []
    # Fahnenverlust (Zeitungsjunge) on an empty bench: nothing is owed after the benching
    setup = {"active": "p2", "table": {"p1.play": ["CH-114#1"]}, "on": {"flag": "CH-114#1"}}
    game = new_game(["CH-001#1", "CH-002#1"], ["CH-314#1", "CH-001#2"], setup=setup)
    assert reveal(game, "p2", "CH-314#1") == [] and game.phase == "bench"
    assert game.push(Move("bench", "p1", ("CH-114#1",), to="p1.bench1")) == []
    assert game.ruleset.pending_rest(game.state, "p1") == 0  # type: ignore[attr-defined]
    assert reveal(game, "p1", "CH-001#1") == []

def test_views_hide_decks_and_show_the_flag() -> None:
    game = new_game(["CH-002#1", "CH-001#1"], ["CH-001#2", "CH-002#2"])
    reveal(game, "p1")
    for observer in ("table", "p1", "p2"):
        view = game.view(observer)
        text = json.dumps(view)
        assert "CH-001#1" not in text and "CH-002#2" not in text
        assert view["zones"]["p1.deck"] == {"hidden": True, "count": 1, "seen": []}
        assert view["extra"]["flag"] == {"holder": "p1", "card": "CH-002#1"}
    assert game.prompt("de").phase_name == "Angriff"


def test_default_game_has_start_decks_and_recruits() -> None:
    game = Game.new("challengers", seed=3)
    for p in ("p1", "p2"):
        assert game.state.count(f"{p}.deck") == 14
    uids = [u for p in ("p1", "p2") for u in game.state.cards_in(f"{p}.deck")]
    assert len(set(uids)) == len(uids)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000))
def test_random_matches_end_and_keep_invariants(seed: int) -> None:
    game = Game.new("challengers", seed=seed)
    rng = random.Random(seed)
    for _ in range(600):
        legal = game.legal_moves
        if not legal:
            break
        game.push(rng.choice(legal), "automatic")  # legal by the rulebook: tests/rulebook
        assert game.ruleset.invariant_errors(game.state, game.card_total) == []
    outcome = game.outcome()
    assert outcome is not None and outcome.reason in ("deck-empty", "bench-full")
    assert outcome.reason_de and "Trophäe" in outcome.reason_de


# ----------------------------------------------------------------------------- scripts


def test_rule_scripts_cover_the_violations() -> None:
    codes: set[str] = set()
    legal = illegal = 0
    for path in sorted(SCRIPTS.glob("*.yaml")):
        report = referee_script(str(path))
        assert report.failures == [], path.name
        for step in report.steps:
            legal += step.legal
            illegal += not step.legal
            codes |= {v.code for e in step.moves for v in e.violations}
    assert legal and illegal
    not_in_scripts = {"ch.not-a-seat", "ch.not-defending", "ch.not-from-deck", "ch.deck-empty",
                      "ch.stack-not-own", "ch.attack-unfinished", "ch.rest-not-bench",
                      "ch.bench-unfinished", "ch.open-missing"}
    assert set(VIOLATIONS) - not_in_scripts <= codes


def test_setup_errors_are_clear() -> None:
    from companion.engine.api import SetupError

    table = {"p1.play": ["CH-002#1"]}
    with pytest.raises(SetupError, match="cannot be the attacker"):
        new_game([], ["CH-001#1"], setup={"table": table, "active": "p1"})
    with pytest.raises(SetupError, match="not a Challengers! table zone"):
        new_game([], ["CH-001#1"], setup={"table": {"p1.hand": ["CH-002#1"]}})
    with pytest.raises(SetupError, match="unknown phase"):
        new_game([], ["CH-001#1"], setup={"table": table, "phase": "draft"})
    with pytest.raises(SetupError, match="decks belong to p1 or p2"):
        Game.new("challengers", decks={"p3": ["CH-001#1"]})


def test_prompt_names_strengths_and_owed_rest_cards() -> None:
    setup = {"active": "p2", "table": {"p1.play": ["CH-314#1"], "p2.bench1": ["CH-001#1"]},
             "on": {"flag": "CH-314#1"}}
    game = new_game([], ["CH-113#1", "CH-002#1"], setup=setup)
    game.push(Move("reveal", "p2", ("CH-113#1",)))
    en, de = game.prompt("en"), game.prompt("de")
    assert "attack 8 against defence 10" in en.automatic
    assert "Angriff 8 gegen Verteidigung 10" in de.automatic
    assert en.must[0].startswith("p2 first puts 1 bench card")
