"""Creature Crush: the rulebook's numbers below, at and above each threshold, and effects that
last only as long as the turn they happen in.

Read from rules/creature-crush.de.txt:
- Startphase: "Würfle 3 Startwürfel"; "Der Spieler, welcher das Spiel eröffnet, darf in seinem
  ersten Zug nur 2 Startwürfel werfen"; a triple brings a fourth die, a four of a kind a fifth;
  "nicht mehr als 5 Startwürfel pro Spielzug".
- "Besitzt eine Creature mehr Schadens- als Lebenspunkte oder fällt ihr Leben genau auf 0, dann
  wird sie zerstört."
- Crush cards: "Die Kosten reichen von X (beliebig) bis maximal 4 Würfeln ... Dabei spielt die
  Augenzahl der Würfel keine Rolle. Nur die vorausgesetzte Anzahl an Würfeln muss verbrannt
  werden."
- Taktikphase: "Verbrenne für jede Creature, die du verschieben möchtest, einen Würfel. Zwei
  Verbündete können ihre Plätze tauschen, wenn du dafür 2 Würfel verbrennst."
"""

from __future__ import annotations

import pytest

from companion.engine.api import Move
from companion.engine.game import Game
from companion.games.creature_crush import effects as fx
from tests.games.test_creature_crush_rules import (
    P1_CAMP,
    P2_CAMP,
    codes,
    hand_card,
    position,
    roll,
)


def dice_option(player: str, *values: int) -> tuple[tuple[str, str], ...]:
    return (("dice", ",".join(f"{player}.w{i + 1}={v}" for i, v in enumerate(values))),)


def roll_codes(g: Game, *values: int) -> list[str]:
    g.push(Move("draw", g.active, value=1))
    return codes(g.check(Move("roll", g.active, options=dice_option(g.active, *values))))


@pytest.mark.parametrize(("values", "legal"), [
    ((2, 5), False), ((2, 5, 1), True), ((2, 5, 1, 3), False),
    ((4, 4, 4), False), ((4, 4, 4, 2), True), ((4, 4, 4, 2, 6), False),
    ((4, 4, 4, 4), False), ((4, 4, 4, 4, 1), True),
])
def test_three_start_dice_a_fourth_for_a_triple_a_fifth_for_four_of_a_kind(
        values: tuple[int, ...], legal: bool) -> None:
    found = roll_codes(position(), *values)
    assert (found == []) == legal, found


@pytest.mark.parametrize(("values", "legal"), [((3,), False), ((3, 5), True), ((3, 5, 1), False)])
def test_the_opening_player_rolls_two_in_the_first_turn(values: tuple[int, ...],
                                                        legal: bool) -> None:
    found = roll_codes(position(turn=1), *values)
    assert (found == []) == legal, found


@pytest.mark.parametrize(("dice", "legal"), [(1, False), (2, True)])
def test_a_crush_card_costs_its_number_of_dice_whatever_they_show(dice: int,
                                                                   legal: bool) -> None:
    g = position()
    roll(g, 6, 1, 3)
    regen = hand_card(g, "p1", "CC-082")  # Glutregen: cost 2 (dice)
    burn = ",".join(f"p1.w{i + 1}={v}" for i, v in enumerate((6, 1)[:dice]))
    g.push(Move("burn", "p1", options=(("dice", burn),)))
    g.push(Move("set-crush", "p1", ("?",), to="p1.C1"))
    found = codes(g.check(Move("flip", "p1", (regen,), to="p1.C1")))
    assert (found == []) == legal, found


@pytest.mark.parametrize(("attack", "destroyed"), [(2, False), (3, True), (4, True)])
def test_a_creature_is_destroyed_when_its_damage_reaches_its_life(attack: int,
                                                                  destroyed: bool) -> None:
    cards = [{"id": "TA", "name": "Angreifer", "type": "creature", "cost": 1, "attack": attack,
              "life": 9},
             {"id": "TL", "name": "Ziel", "type": "creature", "cost": 1, "attack": 0, "life": 3}]
    setup = {"turn": 3, "active": "p1", "phase": "start", "hands": {"p1": 4, "p2": 4},
             "table": {"p1.B2": ["TA"], "p2.B2": ["TL"]}}
    g = Game.new("creature-crush", ("Ada", "Bo"), {"p1": P1_CAMP, "p2": P2_CAMP}, "p1", 1,
                 setup, cards)
    roll(g, 1, 2, 3)
    hit = Move("attack", "p1", ("TA#1",), target="TL#1", options=(("dice", "p1.w1=1"),))
    assert codes(g.push(hit)) == []
    assert (g.state.where["TL#1"] == "p2.hell") == destroyed


def test_an_effect_not_carried_out_lapses_with_the_turn() -> None:
    """Glutregen lets 2 damage be laid on an enemy now; once the turn is over, laying those
    2 damage is no longer explained by anything."""
    g = position(p2_B1=["CC-028"])
    roll(g, 4, 2, 6)
    regen = hand_card(g, "p1", "CC-082")
    g.push(Move("burn", "p1", options=(("dice", "p1.w1=4,p1.w2=2"),)))
    g.push(Move("set-crush", "p1", ("?",), to="p1.C1"))
    g.push(Move("flip", "p1", (regen,), to="p1.C1"))
    mark = Move("mark", "p2", ("CC-028#1",), value=2, options=(("dice", "p1.r1=2"),))
    assert codes(g.check(mark)) == []  # the effect explains it during the turn
    assert fx.permits(g.state)
    g.push(Move("next-phase", "p1"))
    g.push(Move("pass", "p1"))
    assert g.active == "p2"
    assert "cc.damage-mismatch" in codes(g.check(mark))


@pytest.mark.parametrize(("count", "legal"), [(1, False), (2, True), (3, False)])
def test_an_effect_with_two_dice_asks_for_a_roll_of_exactly_two(count: int,
                                                                legal: bool) -> None:
    """Glossar, Mit „X“ Würfeln: "verlangen nach einem Würfelwurf mit X Würfeln"; Moorfieber:
    "Zerstöre einen Feind mit 2 Würfeln"."""
    g = position(p1_C1=["CC-091"], p2_B2=["CC-028"])
    g.state.face_down.add("CC-091#1")
    g.state.public.discard("CC-091#1")
    roll(g, 4, 1, 3)
    g.push(Move("flip", "p1", ("CC-091#1",), to="p1.C1"))
    values = ",".join(f"p1.w{4 + i}={v}" for i, v in enumerate((2, 6, 5)[:count]))
    found = codes(g.check(Move("roll", "p1", options=(("dice", values),))))
    assert (found == []) == legal, found


@pytest.mark.parametrize(("cards", "legal"), [(2, True), (3, False)])
def test_two_cards_from_the_hell_and_not_a_third(cards: int, legal: bool) -> None:
    """Letzter Funke: "Ziehe 2 Karten aus deiner Hölle." """
    g = position(p1_C1=["CC-090"], p1_B2=["CC-046"], p1_hell=["CC-026", "CC-031", "CC-036"],
                 camps={"p1": [], "p2": []}, hands={"p1": 0, "p2": 0})
    g.state.face_down.add("CC-090#1")
    g.state.public.discard("CC-090#1")
    g.push(Move("flip", "p1", ("CC-090#1",), to="p1.C1"))  # its condition holds: any time
    taken = [codes(g.push(Move("to-hand", "p1", (u,))))
             for u in ("CC-026#1", "CC-031#1", "CC-036#1")[:cards]]
    assert (taken[-1] == []) == legal, taken


def test_a_roll_for_an_effect_lapses_with_the_turn() -> None:
    """Moorfieber's dice, rolled and not used, choose nothing once the turn is over."""
    g = position(p1_C1=["CC-091"], p2_B2=["CC-028"])
    g.state.face_down.add("CC-091#1")
    g.state.public.discard("CC-091#1")
    roll(g, 4, 1, 3)
    g.push(Move("flip", "p1", ("CC-091#1",), to="p1.C1"))
    g.push(Move("roll", "p1", options=(("dice", "p1.w4=2,p1.w5=2"),)))
    destroy = Move("to-hell", "p2", ("CC-028#1",), to="p2.hell")  # Glutschnapper, cost 4
    assert codes(g.check(destroy)) == []
    g.push(Move("next-phase", "p1"))
    g.push(Move("pass", "p1"))
    assert codes(g.check(destroy)) == ["cc.not-destroyed"]
