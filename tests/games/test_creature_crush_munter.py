"""Munter, from the rulebook (issue 31: a planted mutant that gave Munter its extra action in
every turn survived the suite).

"Jede CREATURE ... darf pro Spielzug nur eine der folgenden Aktionen ausführen: Angreifen,
beschworen werden (= das Feld betreten) oder sie kann verschoben werden."
"Munter: Die Creature kann im selben Zug eine weitere Aktion ausführen (Angreifen oder
Verschieben), in der sie beschworen wurde."

So a Munter creature summoned this turn has two actions (being summoned, and one attack or
move); in every later turn, and when it lay on the field before the turn, it has one.
Kieselschnapper (CC-007) is Munter, cost 2, attack 2; Nebelraupe (CC-038, life 6) lies in Bo's
B1, opposite Ada's column 3.
"""

from __future__ import annotations

from typing import Any

from companion.engine.api import Move
from companion.engine.game import Game
from companion.engine.state import hand_zone

P1_CAMP = ["CC-001", "CC-006", "CC-011", "CC-021", "CC-041", "CC-051", "CC-007"]
P2_CAMP = ["CC-003", "CC-008", "CC-018", "CC-023", "CC-033", "CC-043"]
SCHNAPPER, RAUPE = "CC-007#1", "CC-038#1"


def position(**table: list[str]) -> Game:
    """Ada's turn 3 in the start phase; `table` maps zones ('_' for '.') to cards."""
    setup = {"turn": 3, "active": "p1", "phase": "start", "hands": {"p1": 3, "p2": 3},
             "table": {"p2.B1": ["CC-038"], **{k.replace("_", "."): v
                                               for k, v in table.items()}}}
    return Game.new("creature-crush", ("Ada", "Bo"), {"p1": P1_CAMP, "p2": P2_CAMP}, "p1",
                    1, setup)


def codes(violations: list[Any]) -> list[str]:
    return [v.code for v in violations if v.blocking]


def start(g: Game, *values: int) -> None:
    """The active player draws, rolls these start dice and goes to the Kampfphase."""
    p = g.active
    dice = ",".join(f"{p}.w{i + 1}={v}" for i, v in enumerate(values))
    assert codes(g.push(Move("draw", p, value=1))) == []
    assert codes(g.push(Move("roll", p, options=(("dice", dice),)))) == []
    assert codes(g.push(Move("next-phase", p))) == []


def paid(die: str, value: int) -> tuple[tuple[str, str], ...]:
    return (("dice", f"{die}={value}"),)


def attack(die: str) -> Move:
    return Move("attack", "p1", (SCHNAPPER,), target=RAUPE, options=paid(die, 2))


def summon_schnapper(g: Game) -> None:
    assert g.state.resolve(SCHNAPPER, hand_zone("p1"))  # the camera saw it come from the hand
    assert codes(g.push(Move("summon", "p1", (SCHNAPPER,), to="p1.B3",
                             options=paid("p1.w1", 2)))) == []


def next_own_turn(g: Game, *values: int) -> None:
    """Ada ends her turn, Bo plays a turn without acting, Ada begins her next one."""
    while g.active == "p1":
        assert codes(g.push(Move("pass", "p1"))) == []
    start(g, 1, 3, 5)
    while g.active == "p2":
        assert codes(g.push(Move("pass", "p2"))) == []
    start(g, *values)


def test_a_munter_creature_acts_again_in_the_turn_it_was_summoned() -> None:
    g = position()
    start(g, 2, 2, 2, 2, 1)  # a triple gives a fourth die, a quad a fifth
    summon_schnapper(g)
    assert codes(g.push(attack("p1.w2"))) == []  # its "weitere Aktion"
    assert codes(g.check(attack("p1.w3"))) == ["cc.acted"]  # only one more


def test_a_munter_creature_has_one_action_in_a_later_turn() -> None:
    """Summoned in turn 3, attacking in turn 5: once, as every creature."""
    g = position()
    start(g, 2, 2, 4)
    summon_schnapper(g)
    assert codes(g.push(attack("p1.w2"))) == []
    next_own_turn(g, 2, 2, 4)
    assert g.state.turn == 5
    assert codes(g.push(attack("p1.w1"))) == []
    assert codes(g.check(attack("p1.w2"))) == ["cc.acted"]
    assert g.ruleset.expect_value(g.state, "damage") == {RAUPE: 4}


def test_a_munter_creature_already_on_the_field_attacks_or_moves_once() -> None:
    """It lay on the field before the turn: it was not summoned in it."""
    g = position(p1_B3=["CC-007"])
    start(g, 2, 2, 4)
    assert codes(g.push(attack("p1.w1"))) == []
    assert codes(g.check(attack("p1.w2"))) == ["cc.acted"]
    assert codes(g.push(Move("next-phase", "p1"))) == []
    move = Move("move", "p1", (SCHNAPPER,), to="p1.B2", options=paid("p1.w2", 2))
    assert codes(g.check(move)) == ["cc.acted"]  # "Angreifen oder Verschieben": not both


def test_a_creature_without_munter_has_one_action_in_its_summoning_turn() -> None:
    """The contrast: Nebelkauz (CC-006, cost 2, attack 1) is summoned and has used its
    action."""
    g = position()
    start(g, 2, 2, 4)
    kauz = "CC-006#1"
    assert g.state.resolve(kauz, hand_zone("p1"))
    assert codes(g.push(Move("summon", "p1", (kauz,), to="p1.B3",
                             options=paid("p1.w1", 2)))) == []
    assert codes(g.check(Move("attack", "p1", (kauz,), target=RAUPE,
                              options=paid("p1.w2", 2)))) == ["cc.acted"]
