"""Creature Crush: crush cards laid face down, paid and flipped (rulebook, "CRUSH Karten").

"Um sie verdeckt legen zu können, müssen ihre Kosten bezahlt werden ... Nur die vorausgesetzte
Anzahl an Würfeln muss verbrannt werden." These positions were left unpinned by the tests
before (the mutation sample's survivors in creature_crush.rules).
"""

from __future__ import annotations

from typing import Any

from companion.engine.api import Move
from companion.engine.game import Game
from tests.games.test_creature_crush_rules import codes, hand_card, position, roll

GLUTREGEN = "CC-082"  # crush card, cost 2, no flip condition


def joined_late_with_a_face_down_glutregen() -> Game:
    """The referee joins in p1's Kampfphase; a Glutregen already lies face down in p1.C1."""
    setup: dict[str, Any] = {"turn": 3, "active": "p1", "phase": "kampf",
                             "table": {"p1.C1": [GLUTREGEN]}, "face_down": [f"{GLUTREGEN}#1"],
                             "hands": {"p1": 4, "p2": 4}}
    return Game.new("creature-crush", ("Ada", "Bo"), None, "p1", 1, setup)


def test_a_crush_card_laid_before_the_referee_joined_is_not_accused_of_its_payment() -> None:
    g = joined_late_with_a_face_down_glutregen()
    flip = Move("flip", "p1", (f"{GLUTREGEN}#1",), to="p1.C1")
    assert codes(g.check(flip)) == []  # its dice were burned unseen: nothing to compare
    assert g.view("table")["extra"]["crush_dice_paid"] == {}


def test_a_flip_without_a_place_finds_the_face_down_card_in_any_c_place() -> None:
    g = joined_late_with_a_face_down_glutregen()
    assert codes(g.check(Move("flip", "p1", (f"{GLUTREGEN}#1",)))) == []


def test_an_unseen_card_is_laid_face_down_into_c_for_burned_dice() -> None:
    g = position(p2_B1=["CC-028"])
    roll(g, 4, 2, 6)
    g.push(Move("burn", "p1", options=(("dice", "p1.w1=4"),)))
    assert codes(g.check(Move("set-crush", "p1", ("?",), to="p1.C1"))) == []


def test_a_named_crush_card_takes_only_its_cost_from_the_burned_dice() -> None:
    g = position(p2_B1=["CC-028"])
    roll(g, 4, 2, 6)
    regen = hand_card(g, "p1", GLUTREGEN)
    g.push(Move("burn", "p1", options=(("dice", "p1.w1=4,p1.w2=2,p1.w3=6"),)))
    assert codes(g.push(Move("set-crush", "p1", (regen,), to="p1.C1"))) == []
    extra = g.view("p2")["extra"]
    assert extra["crush_dice_paid"] == {"p1.C1": 2}
    assert len(extra["burned_unassigned"]["p1"]) == 1  # the third die is still free


def test_a_crush_card_laid_before_its_dice_are_burned_is_owed_until_they_are() -> None:
    g = position(p2_B1=["CC-028"])
    roll(g, 4, 2, 6)
    regen = hand_card(g, "p1", GLUTREGEN)
    assert codes(g.push(Move("set-crush", "p1", (regen,), to="p1.C1"))) == []
    unpaid = g.view("table")["extra"]["unpaid"]
    assert [(o["player"], o["cost"]) for o in unpaid] == [("p1", 2)]
    ending = [v for v in g.check(Move("next-phase", "p1")) if v.code == "cc.unpaid"]
    assert ending and "2 dice" in ending[0].message("en")
    g.push(Move("burn", "p1", options=(("dice", "p1.w1=4,p1.w2=2"),)))
    assert g.view("table")["extra"]["unpaid"] == []
    assert codes(g.check(Move("next-phase", "p1"))) == []
