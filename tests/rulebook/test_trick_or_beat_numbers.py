"""Trick or Beat: each number of the rulebook, below, at and above its threshold.

The numbers are read from the rulebook (rules/trick-or-beat.de.txt), not from the code:

- "Auf jeder Lane können maximal 2 Wesen liegen. Das Limit lässt sich mit dem Trickstapel auf
  bis zu 5 erhöhen." Trickstapel 1: 3 Wesen, 2: 4 Wesen, 3: 5 Wesen.
- Trickstapel 4: "+2 Angriffstärke auf jeden Angriff"; 5: "+2 Überlebenspunkte gegen jeden
  Angriff"; 6: "Dein Gegner kann nicht mehr durch Trick gewinnen"; 7: "Du gewinnst durch Trick".
- "Wenn die gesamte Angriffstärke mindestens so groß ist wie die Überlebenspunkte des Zieles,
  lege das Ziel auf den Ablagestapel."
- Erster Zug: "-3 Angriffstärke auf jeden Angriff in diesem Zug".
- Redraw: "Wenn du weniger als 3 Wesen gezogen hast, darfst du ... genauso viele neue Karten
  ziehen."
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.api import Move
from companion.engine.game import Game


def creature(cid: str, attack: int, survival: int) -> dict[str, Any]:
    return {"id": cid, "name": cid, "type": "creature", "attack": attack, "survival": survival,
            "faction": "Gehirn"}


CARDS = [creature(f"A{a}", a, 9) for a in range(1, 10)] + [
    creature(f"S{s}", 1, s) for s in range(1, 10)] + [
    {"id": "TT", "name": "Taktik", "type": "tactic", "category": "other"}]
FILL = [f"TT#{n}" for n in range(1, 40)]


def position(phase: str = "main", turn: int = 3, hands: dict[str, int] | None = None,
             deck: tuple[str, ...] = (), **zones: Any) -> Game:
    """A mid-game position of p1's turn: zones as `p1_active=[...]`, trick piles as counts;
    `deck`: cards in the shared pile besides filler tactics."""
    table = {k.replace("_", "."): v for k, v in zones.items()}
    setup = {"turn": turn, "active": "p1", "phase": phase, "table": table,
             "hands": hands or {"p1": 2, "p2": 2}}
    return Game.new("trick-or-beat", ("Ada", "Bo"), {"shared": [*deck, *FILL]}, "p1", 1, setup,
                    CARDS)


def blocking(game: Game, move: Move) -> list[str]:
    return [v.code for v in game.check(move) if v.blocking]


def attack(game: Game, attacker: str, target: str) -> bool:
    """Whether p1's attack defeated the target (it went to the discard pile)."""
    assert blocking(game, Move("attack", "p1", (attacker,), target=target)) == []
    game.push(Move("attack", "p1", (attacker,), target=target))
    return game.state.where[target] == "shared.discard"


# lane limit: (cards on p1's trick pile, creatures already on the lane, one more may join)
LANE = [(0, 1, True), (0, 2, False), (1, 2, True), (1, 3, False), (2, 3, True), (2, 4, False),
        (3, 4, True), (3, 5, False), (4, 4, True), (4, 5, False)]


@pytest.mark.parametrize(("trick", "on_lane", "may"), LANE)
def test_lane_limit_two_raised_by_the_trick_pile_up_to_five(trick: int, on_lane: int,
                                                             may: bool) -> None:
    lane = [f"A{i + 1}#1" for i in range(on_lane)]
    g = position(p1_passive=lane, p1_trick=trick, p2_active=["S9#1"], deck=("A9#1",))
    assert g.state.resolve("A9#1", "p1.hand")
    found = blocking(g, Move("summon", "p1", ("A9#1",), to="p1.passive"))
    assert (found == []) == may, found


@pytest.mark.parametrize(("trick", "bonus"), [(3, False), (4, True), (5, True)])
def test_attack_bonus_from_four_trick_cards(trick: int, bonus: bool) -> None:
    g = position(p1_active=["A4#1"], p1_trick=trick, p2_active=["S6#1", "S9#1"])
    assert attack(g, "A4#1", "S6#1") == bonus  # 4 (+2) against 6


@pytest.mark.parametrize(("trick", "bonus"), [(4, False), (5, True), (6, True)])
def test_survival_bonus_from_five_trick_cards(trick: int, bonus: bool) -> None:
    g = position(p1_active=["A5#1"], p2_trick=trick, p2_active=["S4#1", "S9#1"])
    assert attack(g, "A5#1", "S4#1") == (not bonus)  # 5 against 4 (+2)


@pytest.mark.parametrize(("attack_value", "defeated"), [(4, False), (5, True), (6, True)])
def test_defeated_when_attack_reaches_survival(attack_value: int, defeated: bool) -> None:
    g = position(p1_active=[f"A{attack_value}#1"], p2_active=["S5#1", "S9#1"])
    assert attack(g, f"A{attack_value}#1", "S5#1") == defeated


@pytest.mark.parametrize(("attack_value", "defeated"), [(4, False), (5, True), (6, True)])
def test_first_turn_attacks_lose_three(attack_value: int, defeated: bool) -> None:
    g = position(turn=1, p1_active=[f"A{attack_value}#1"], p2_active=["S2#1", "S9#1"])
    g.state.flags["first_turn"] = True
    assert attack(g, f"A{attack_value}#1", "S2#1") == defeated  # 4-3 < 2 <= 5-3


@pytest.mark.parametrize(("before", "wins"), [(5, False), (6, True)])
def test_the_seventh_trick_card_wins(before: int, wins: bool) -> None:
    g = position(phase="end", p1_trick=before)
    assert blocking(g, Move("trick", "p1", ("?",))) == []
    g.push(Move("trick", "p1", ("?",)))
    outcome = g.outcome()
    assert (outcome is not None and outcome.winner == "p1" and outcome.reason == "trick") == wins


@pytest.mark.parametrize(("blocker", "blocked"), [(5, False), (6, True), (7, True)])
def test_six_trick_cards_block_the_opponents_trick_win(blocker: int, blocked: bool) -> None:
    g = position(phase="end", p1_trick=6, p2_trick=blocker)
    g.push(Move("trick", "p1", ("?",)))
    assert (g.outcome() is None) == blocked


@pytest.mark.parametrize(("creatures", "may"), [(2, True), (3, False)])
def test_redraw_shown_with_fewer_than_three_creatures(creatures: int, may: bool) -> None:
    hand = [f"A{i + 1}#1" for i in range(creatures)] + [
        f"TT#{n}" for n in range(1, 16 - creatures)]
    deck = [u for u in FILL if u not in hand] + [f"A{i}#1" for i in range(creatures + 1, 10)]
    g = Game.new("trick-or-beat", ("Ada", "Bo"), {"shared": hand + deck}, "p1", 1, None, CARDS)
    g.push(Move("deal", "p1", value=15))
    for uid in hand:
        assert g.state.resolve(uid, "p1.hand")
    found = blocking(g, Move("redraw", "p1", tuple(hand), value="show"))
    assert (found == []) == may, found
