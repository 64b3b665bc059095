"""A fault tells the players what it is about: the card already on the place, the zone to
look at, the hand size it would lead to (hand-worked positions; the rulebooks' numbers)."""

from __future__ import annotations

from companion.engine.api import Move
from companion.engine.game import Game
from tests.games.test_creature_crush_rules import dice, position, roll

MLP = "my-little-pony-ccg"


def test_a_move_onto_a_taken_place_names_the_place_and_the_card_on_it() -> None:
    g = position(p1_B1=["CC-046"], p1_B2=["CC-006"])
    roll(g, 2, 2, 5)
    g.push(Move("next-phase", "p1"))
    taken = [v for v in g.check(Move("move", "p1", ("CC-046#1",), to="p1.B2",
                                     options=dice("p1.w1", p1_w1=2))) if v.code == "cc.move-taken"]
    assert taken and taken[0].zones == ("p1.B2",)
    assert "CC-006#1" in taken[0].message("en") and "CC-006#1" in taken[0].message("de")


def test_a_second_roll_points_at_the_players_dice() -> None:
    g = position()
    roll(g, 2, 5, 6)
    again = [v for v in g.check(Move("roll", "p1", options=(("dice", "p1.w1=3"),)))
             if v.code == "cc.roll-once"]
    assert again and again[0].zones == ("p1.dice",)


def test_a_seventh_opening_card_says_the_hand_would_have_seven() -> None:
    """"Ziehe 6 Karten" (My Little Pony, Spielaufbau): a seventh makes seven."""
    g = Game.new(MLP, seed=4)
    g.push(Move("draw", "p1"))
    fault = [v for v in g.check(Move("draw", "p1")) if v.code == "mlp.setup-hand"]
    assert fault and "would have 7" in fault[0].message("en")
    assert "hätte 7" in fault[0].message("de")
