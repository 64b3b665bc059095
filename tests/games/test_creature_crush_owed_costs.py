"""Creature Crush: a creature summoned before its dice are burned is owed, and the dice burned
for it must make its cost exactly (rulebook, "Die Würfel": "mit Würfeln, die genau die Kosten
ergeben"). Hand-worked: Gluthydra costs 6; the rolled 2, 5 and 1 make it as 5 + 1, not 2 + 5.
"""

from __future__ import annotations

from companion.engine.api import Move
from tests.games.test_creature_crush_rules import codes, hand_card, position, roll


def test_dice_burned_for_an_owed_creature_must_make_its_cost_exactly() -> None:
    g = position()
    roll(g, 2, 5, 1)
    hydra = hand_card(g, "p1", "CC-041")  # Gluthydra, cost 6
    assert codes(g.push(Move("summon", "p1", (hydra,), to="p1.B1"))) == []
    assert [o["cost"] for o in g.view("table")["extra"]["unpaid"]] == [6]
    wrong = Move("burn", "p1", options=(("dice", "p1.w1=2,p1.w2=5"),))
    assert codes(g.check(wrong)) == ["cc.wrong-payment"]
    right = Move("burn", "p1", options=(("dice", "p1.w2=5,p1.w3=1"),))
    assert codes(g.check(right)) == []
