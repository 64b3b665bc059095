"""The shared rule helpers (companion.engine.rule_helpers) on a hand-built position.

Expected results are read off the position as built here (which card lies where, what was
seen), not computed the helpers' way.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.api import Move, Violation
from companion.engine.cards import CardFacts, Catalog
from companion.engine.rule_helpers import (
    RuleChecks,
    attached_to,
    move_with_attached,
    release_attached,
    take_from_hand,
)
from companion.engine.state import GameState


def violate(code: str, cards: tuple[str, ...] = (), zones: tuple[str, ...] = (),
            **values: Any) -> Violation:
    """A stand-in for a game's catalog: the code and the values it was given, as text."""
    text = ",".join(f"{k}={values[k]}" for k in sorted(values))
    return Violation(code=code, message_en=text, message_de=text, rule="r", cards=cards,
                     zones=zones)


CHECKS = RuleChecks(violate, not_in_hand="t.not-in-hand", hand_empty="t.hand-empty",
                    wrong_phase="t.wrong-phase", not_your_turn="t.not-your-turn")


def position(p1_hand: tuple[str, ...] = ("A#1", "B#1"), seen: tuple[str, ...] = ()) -> GameState:
    """p1 holds `p1_hand` (hidden), the deck holds C#1 and D#1 (hidden), E#1 and F#1 lie
    face up on p1's table; `seen` cards are known where they are."""
    catalog = Catalog(CardFacts(c, c, "unit") for c in "ABCDEFG")
    state = GameState(game="toy", catalog=catalog, phase="main", active="p1")
    for zone in ("p1.hand", "p2.hand", "p1.deck"):
        state.add_zone(zone, hidden=True)
    state.add_zone("p1.table")
    state.add_zone("p1.discard")
    for uid in p1_hand:
        state.register(uid, "p1.hand", "p1")
    for uid in ("C#1", "D#1"):
        state.register(uid, "p1.deck", "p1")
    for uid in ("E#1", "F#1"):
        state.register(uid, "p1.table", "p1")
        state.public.add(uid)
    state.register("G#1", "p2.hand", "p2")
    state.public.update(seen)
    return state


def codes(found: list[Violation]) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.code, v.cards) for v in found]


def test_a_card_in_hand_or_unseen_elsewhere_may_come_from_hand() -> None:
    state = position()
    # A#1 is in the hand; C#1 lies unseen in the deck and could be what the hand holds
    assert CHECKS.from_hand(state, "p1", ("A#1", "C#1")) == []


def test_a_card_seen_elsewhere_cannot_come_from_hand() -> None:
    state = position(seen=("C#1",))
    assert codes(CHECKS.from_hand(state, "p1", ("E#1", "C#1", "Z#9"))) == [
        ("t.not-in-hand", ("E#1",)), ("t.not-in-hand", ("C#1",)), ("t.not-in-hand", ("Z#9",))]


def test_owned_refuses_the_opponents_card() -> None:
    state = position()
    assert CHECKS.from_hand(state, "p1", ("G#1",)) == []  # unseen: could be anywhere
    assert codes(CHECKS.from_hand(state, "p1", ("G#1",), owned=True)) == [
        ("t.not-in-hand", ("G#1",))]


@pytest.mark.parametrize(("hand", "expected"), [
    (("A#1",), []), ((), [("t.hand-empty", ())])])
def test_an_unseen_card_needs_a_card_in_hand(hand: tuple[str, ...],
                                             expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert codes(CHECKS.from_hand(position(hand), "p1", ("?",))) == expected


def test_without_a_hand_empty_code_the_unseen_card_is_named() -> None:
    checks = RuleChecks(violate, not_in_hand="t.not-in-hand")
    assert codes(checks.from_hand(position(()), "p1", ("?",))) == [("t.not-in-hand", ("?",))]


def test_phase_and_turn() -> None:
    state = position()
    move = Move("summon", "p2", ("G#1",))
    assert CHECKS.in_phase(state, move, "end", "main") == []
    assert [v.message_en for v in CHECKS.in_phase(state, move, "end")] == [
        "action=summon,phase=main"]
    assert [v.message_en for v in CHECKS.own_turn(state, move)] == [
        "action=summon,active=p1,player=p2"]
    assert CHECKS.own_turn(state, Move("summon", "p1")) == []


def test_take_from_hand_believes_the_named_card_there() -> None:
    state = position()
    assert take_from_hand(state, "p1", "C#1") == "C#1"
    assert state.where["C#1"] == "p1.hand"
    assert state.count("p1.hand") == 2 and state.count("p1.deck") == 2  # swapped, not moved
    assert take_from_hand(state, "p1", "?") in {"A#1", "B#1", "C#1"}
    assert take_from_hand(position(()), "p1", "?") is None


def test_attached_cards_follow_and_leave_with_their_holder() -> None:
    state = position()
    state.attached["F#1"] = "E#1"
    assert attached_to(state, "E#1") == ["F#1"]
    state.add_zone("p1.other")
    move_with_attached(state, "E#1", "p1.other")
    assert state.cards_in("p1.other") == ["E#1", "F#1"]
    release_attached(state, "E#1", lambda item: "p1.discard")
    assert state.cards_in("p1.discard") == ["F#1"] and state.attached == {}
    assert state.where["E#1"] == "p1.other"  # the holder itself is the caller's to move


def test_a_moves_card_is_its_first_or_unseen() -> None:
    assert Move("summon", "p1", ("A#1", "B#1")).card == "A#1"
    assert Move("draw", "p1").card == "?"


def test_count_in_adds_the_zones_up() -> None:
    state = position()  # 2 in hand, 2 in the deck, 2 on the table
    assert state.count_in(("p1.hand", "p1.table")) == 4
    assert state.count_in(("p1.deck", "nowhere")) == 2
