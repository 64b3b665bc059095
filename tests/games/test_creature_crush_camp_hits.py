"""Creature Crush: the top camp card goes to hell only after a direct attack (rulebook, "Greift
eine Creature einen Spieler direkt an, dann wird dessen oberste Lagerkarte zerstört").
"""

from __future__ import annotations

from companion.engine.api import Move
from tests.games.test_creature_crush_rules import codes, dice, position, roll


def test_a_camp_card_goes_to_hell_only_after_a_direct_attack() -> None:
    g = position(p1_A1=["CC-036"])
    roll(g, 5, 5, 4)
    settle = Move("settle", "p2", value="lager")
    assert codes(g.check(settle)) == ["cc.unexplained"]
    g.push(Move("attack", "p1", ("CC-036#1",), target="p2", options=dice("p1.w1", p1_w1=5)))
    assert codes(g.check(settle)) == []
