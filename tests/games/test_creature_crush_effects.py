"""Creature Crush: one scenario for each effect word of the cardset's cards and each keyword.

Each scenario lays a crush card face down, flips it when its rulebook timing allows, and then
makes the table change the card's German sentence asks for (the oracle: the sentence, read by
a person); the same change without the effect, or beyond what it says, breaks a rule. Played
in the rules-*.yaml scripts as well: Glutregen, Kieselhagel, Schlammloch, Nebelschleier,
Seelentausch, Würfelsturm, Umsturz, Rankengriff and the keywords Aktion, Falle, Hölle,
Munter; in test_creature_crush_rules: Träge, Nachtragend, Munter, Hölle and the "mit X
Würfeln" destroy effects (also rules-dice-target.yaml).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.api import Move
from companion.engine.game import Game
from companion.engine.state import hand_zone
from companion.referee.script import referee_script
from tests.games.test_creature_crush_rules import codes, dice, hand_card, position, roll

SCRIPTS = Path(__file__).parents[2] / "companion/sim/scripts/creature-crush"


def lay_down(g: Game, uid: str) -> None:
    """`uid` lies face down where the position put it (laid and paid in an earlier turn)."""
    g.state.face_down.add(uid)
    g.state.public.discard(uid)


def flip(g: Game, player: str, uid: str, target: str | None = None) -> list[str]:
    return codes(g.push(Move("flip", player, (uid,), to=g.state.where[uid], target=target)))


def red(g: Game, player: str, die: str, value: int, on: str) -> list[str]:
    """A red die showing `value` laid on `on` (the damage the players mark)."""
    return codes(g.push(Move("mark", player, (on,), value=value,
                             options=(("dice", f"{die}={value}"),))))


def test_pilzsporen_damages_each_enemy_in_the_a_zone_and_none_in_b() -> None:
    """Pilzsporen: "Jeder Feind in der A-Zone erleidet 1 Schaden." """
    g = position(p1_C1=["CC-099"], p2_A1=["CC-023"], p2_B1=["CC-003"], p2_B2=["CC-028"])
    lay_down(g, "CC-099#1")
    roll(g, 2, 3, 4)
    assert flip(g, "p1", "CC-099#1") == []
    assert red(g, "p1", "p1.r1", 1, "CC-023#1") == []  # Flammraupe in A1
    assert red(g, "p1", "p1.r2", 1, "CC-028#1") == ["cc.damage-mismatch"]  # B2: no enemy in A
    assert g.ruleset.expect_value(g.state, "damage") == {"CC-023#1": 1, "CC-028#1": 1}


def test_donnergroll_puts_three_damage_on_any_target_even_an_ally() -> None:
    """Donnergroll: "Du hast 7 oder mehr Handkarten: Verursache 3 Schaden an einem beliebigen
    Ziel." The condition is the players' to check; the target may be an own creature."""
    g = position(p1_C1=["CC-100"], p1_B2=["CC-046"], p2_B2=["CC-028"], hands={"p1": 7, "p2": 4})
    lay_down(g, "CC-100#1")
    roll(g, 2, 3, 4)
    assert flip(g, "p1", "CC-100#1") == []
    assert red(g, "p1", "p1.r1", 3, "CC-046#1") == []  # Schattenechse, Ada's own
    assert red(g, "p1", "p1.r2", 3, "CC-028#1") == ["cc.damage-mismatch"]  # one target only


def test_dornenwall_hits_the_attacker_of_an_ally_in_b_with_three() -> None:
    """Dornenwall: "Ein Feind greift einen Verbündeten in der B-Zone an: Der Angreifer erleidet
    3 Schaden." Flipped in the attacker's turn (a card with a condition may be)."""
    g = position(p1_C1=["CC-084"], p1_B2=["CC-046"], p2_B2=["CC-013"], p2_B1=["CC-003"],
                 active="p2")
    lay_down(g, "CC-084#1")
    roll(g, 3, 1, 5)
    assert codes(g.push(Move("attack", "p2", ("CC-013#1",), target="CC-046#1",
                             options=dice("p2.w1", p2_w1=3)))) == []
    assert red(g, "p2", "p2.r1", 3, "CC-046#1") == []  # the attack's own 3 damage
    assert flip(g, "p1", "CC-084#1") == []
    assert red(g, "p1", "p1.r1", 3, "CC-003#1") == ["cc.damage-mismatch"]  # no attacker
    assert red(g, "p1", "p1.r2", 3, "CC-013#1") == []  # Flammhydra, the attacker
    assert g.state.where["CC-084#1"] == "p1.hell"


def test_froststarre_damages_the_enemy_that_was_moved() -> None:
    """Froststarre: "Ein Feind wird verschoben: Dieser Feind erleidet 2 Schaden." """
    g = position(p1_C1=["CC-097"], p2_B1=["CC-028"], p2_B2=["CC-023"], active="p2")
    lay_down(g, "CC-097#1")
    roll(g, 3, 1, 5)
    g.push(Move("next-phase", "p2"))
    assert codes(g.push(Move("move", "p2", ("CC-028#1",), to="p2.A1",
                             options=dice("p2.w2", p2_w2=1)))) == []
    assert flip(g, "p1", "CC-097#1") == []
    assert red(g, "p1", "p1.r1", 2, "CC-023#1") == ["cc.damage-mismatch"]  # it did not move
    assert red(g, "p1", "p1.r2", 2, "CC-028#1") == []  # Glutschnapper, moved


def test_glutschild_prevents_the_damage_an_ally_takes() -> None:
    """Glutschild: "Ein Verbündeter erleidet Schaden: Verhindere diesen Schaden." The red dice
    come off again; the damage is gone as if never dealt."""
    g = position(p1_C1=["CC-095"], p1_B2=["CC-046"], p2_B2=["CC-013"], active="p2")
    lay_down(g, "CC-095#1")
    roll(g, 3, 1, 5)
    g.push(Move("attack", "p2", ("CC-013#1",), target="CC-046#1",
                options=dice("p2.w1", p2_w1=3)))
    assert red(g, "p2", "p2.r1", 3, "CC-046#1") == []
    assert flip(g, "p1", "CC-095#1") == []
    assert g.ruleset.expect_value(g.state, "damage")["CC-046#1"] == 0
    taken_off = Move("mark", "p1", ("CC-046#1",), value=0, options=(("gone", "p2.r1"),))
    assert codes(g.push(taken_off)) == []


def test_echsenlist_swaps_two_allies_without_dice_even_in_the_kampfphase() -> None:
    """Echsenlist (cost X): "Tausche die Plätze zweier Verbündeter." Without it a swap is a
    Taktikphase move for 2 dice."""
    g = position(p1_C1=["CC-098"], p1_B1=["CC-046"], p1_B2=["CC-006"])
    lay_down(g, "CC-098#1")
    roll(g, 2, 3, 4)
    swap = Move("swap", "p1", ("CC-046#1", "CC-006#1"))
    assert "cc.wrong-phase" in codes(g.check(swap))
    assert flip(g, "p1", "CC-098#1") == []
    assert codes(g.push(swap)) == []
    assert (g.state.where["CC-046#1"], g.state.where["CC-006#1"]) == ("p1.B2", "p1.B1")
    assert g.state.flags["dice"]["p1"] == {"p1.w1": 2, "p1.w2": 3, "p1.w3": 4}
    assert "cc.wrong-phase" in codes(g.check(swap))  # one swap


def test_wildwuchs_takes_one_card_from_the_camp() -> None:
    """Wildwuchs: "Durchsuche dein Lager nach einer Creature mit Kosten 3 oder weniger" (and
    "Mische das Lager jedes Mal, wenn eine Kartensuche durchgeführt wurde"): one card from the
    camp to the hand in the Kampfphase, not two."""
    g = position(p1_C1=["CC-096"])
    lay_down(g, "CC-096#1")
    roll(g, 2, 3, 4)
    hand = g.state.count(hand_zone("p1"))
    assert codes(g.check(Move("draw", "p1", value=1))) == ["cc.draw-phase"]
    assert flip(g, "p1", "CC-096#1") == []
    assert codes(g.push(Move("draw", "p1", value=1))) == []
    assert g.state.count(hand_zone("p1")) == hand + 1
    assert codes(g.check(Move("draw", "p1", value=1))) == ["cc.draw-phase"]


def test_letzter_funke_takes_two_cards_from_the_own_hell() -> None:
    """Letzter Funke: "Du hast keine Karten mehr im Lager: Ziehe 2 Karten aus deiner Hölle."
    Two cards, each a table change of its own; a third is not allowed."""
    g = position(p1_C1=["CC-090"], p1_B2=["CC-046"], p1_hell=["CC-026", "CC-031", "CC-036"],
                 camps={"p1": [], "p2": []}, hands={"p1": 0, "p2": 0})
    lay_down(g, "CC-090#1")
    g.push(Move("roll", "p1", options=(("dice", "p1.w1=2,p1.w2=3,p1.w3=4"),)))
    g.push(Move("next-phase", "p1"))  # an empty camp: nothing to draw
    take = [Move("to-hand", "p1", (u,)) for u in ("CC-026#1", "CC-031#1", "CC-036#1")]
    assert codes(g.check(take[0])) == ["cc.unexplained"]
    assert flip(g, "p1", "CC-090#1") == []
    assert codes(g.push(take[0])) == []
    assert codes(g.push(take[1])) == []
    assert codes(g.push(take[2])) == ["cc.unexplained"]


def test_heilquelle_heals_up_to_three_damage_of_an_ally_not_of_an_enemy() -> None:
    """Heilquelle: "Heile 3 Schaden an einem Verbündeten." """
    g = position(p1_C1=["CC-092"], p1_B2=["CC-046"], p2_B2=["CC-028"])
    lay_down(g, "CC-092#1")
    g.state.flags["damage"].update({"CC-046#1": 3, "CC-028#1": 1})
    g.state.flags["red"].update({"p1.r1": ["CC-046#1", 3], "p2.r1": ["CC-028#1", 1]})
    roll(g, 2, 3, 4)
    assert flip(g, "p1", "CC-092#1") == []
    enemy = Move("mark", "p2", ("CC-028#1",), value=0, options=(("gone", "p2.r1"),))
    assert codes(g.check(enemy)) == ["cc.damage-mismatch"]
    assert codes(g.push(Move("mark", "p1", ("CC-046#1",), value=0,
                             options=(("gone", "p1.r1"),)))) == []
    assert g.ruleset.expect_value(g.state, "damage")["CC-046#1"] == 0


@pytest.mark.parametrize("camera_only", [False, True])
def test_the_camera_sees_each_card_taken_from_the_open_hell(camera_only: bool) -> None:
    """The same with the camera: the hell is open ("können jederzeit von allen Spielern
    eingesehen werden"), so a card taken off its top shows the card beneath, which the rules
    hold there: the top went to the hand, it was not covered."""
    report = referee_script(str(SCRIPTS / "rules-hell-to-hand.yaml"), camera_only)
    taken = [(e.move.kind, e.move.cards, [v.code for v in e.violations])
             for s in report.steps for e in s.moves if e.move.kind == "to-hand"]
    assert taken == [("to-hand", ("CC-026#1",), []), ("to-hand", ("CC-031#1",), []),
                     ("to-hand", ("CC-036#1",), ["cc.unexplained"])]
    assert report.failures == []


def test_wuerfelsturm_gives_one_more_start_die_in_the_next_turn_only() -> None:
    """Würfelsturm: "Erhalte Startwürfel +1 für deinen nächsten Zug" ("Startwürfel + „X“:
    Erhalte für den nächsten Zug X zusätzliche Startwürfel")."""
    g = position(p1_C1=["CC-081"])
    lay_down(g, "CC-081#1")
    roll(g, 2, 3, 4)
    assert flip(g, "p1", "CC-081#1") == []
    for _ in range(2):  # Ada's turn ends, Bo's turn passes
        g.push(Move("next-phase", g.active))
        g.push(Move("pass", g.active))
        if g.active == "p2":
            roll(g, 1, 2, 3)
    assert g.active == "p1"
    rules: Any = g.ruleset
    assert rules.expected_dice(g.state, [1, 2, 3])[0] == 4
    roll(g, 1, 2, 3, 5)
    for _ in range(2):
        g.push(Move("next-phase", g.active))
        g.push(Move("pass", g.active))
        if g.active == "p2":
            roll(g, 1, 2, 3)
    assert rules.expected_dice(g.state, [1, 2, 3])[0] == 3  # one next turn, not every turn


def test_rankengriff_keeps_the_chosen_enemy_from_attacking_in_its_next_turn() -> None:
    """Rankengriff: "Ein Feind kann in seinem nächsten Zug nicht angreifen." """
    g = position(p1_C1=["CC-089"], p1_B2=["CC-046"], p1_B3=["CC-006"], p2_B2=["CC-013"],
                 p2_B1=["CC-028"])
    lay_down(g, "CC-089#1")
    roll(g, 2, 3, 4)
    assert flip(g, "p1", "CC-089#1", target="CC-013#1") == []
    g.push(Move("next-phase", "p1"))
    g.push(Move("pass", "p1"))
    roll(g, 3, 4, 6)
    held = Move("attack", "p2", ("CC-013#1",), target="CC-046#1",
                options=dice("p2.w1", p2_w1=3))
    assert codes(g.check(held)) == ["cc.attack-blocked"]
    free = Move("attack", "p2", ("CC-028#1",), target="CC-006#1",
                options=dice("p2.w2", p2_w2=4))  # Glutschnapper was not chosen
    assert codes(g.check(free)) == []


def test_umsturz_takes_over_an_enemy_costing_five_or_less_only() -> None:
    """Umsturz: "Übernimm die Kontrolle über einen Feind mit Kosten 5 oder weniger." """
    g = position(p1_C1=["CC-093"], p1_B2=["CC-046"], p2_B1=["CC-036"], p2_B3=["CC-039"])
    lay_down(g, "CC-093#1")
    roll(g, 2, 3, 4)
    assert flip(g, "p1", "CC-093#1") == []
    six = Move("control", "p1", ("CC-039#1",), to="p1.B1")  # Schattenhydra, cost 6
    assert codes(g.check(six)) == ["cc.unexplained"]
    assert codes(g.push(Move("control", "p1", ("CC-036#1",), to="p1.B1"))) == []  # cost 5
    assert g.state.where["CC-036#1"] == "p1.B1"


# ----------------------------------------------------------------------------- keywords


def test_aktion_fires_when_summoned_from_the_hand_not_when_revived_from_hell() -> None:
    """Aktion: "Der Effekt wird dann ausgelöst, wenn die Creature von deiner Hand, während
    deinem Zug, auf das Feld beschworen wird." Flammkauz: "Aktion: ziehe 1 Karte." Summoned
    from the hand it draws one card; brought back from hell (Seelentausch) it draws none."""
    g = position()
    roll(g, 3, 1, 5)
    kauz = hand_card(g, "p1", "CC-017")
    assert codes(g.push(Move("summon", "p1", (kauz,), to="p1.B2",
                             options=dice("p1.w1", p1_w1=3)))) == []
    assert codes(g.push(Move("draw", "p1", value=1))) == []
    assert codes(g.check(Move("draw", "p1", value=1))) == ["cc.draw-phase"]
    g = position(p1_C1=["CC-085"], p1_hell=["CC-017"])
    lay_down(g, "CC-085#1")
    roll(g, 3, 1, 5)
    assert flip(g, "p1", "CC-085#1") == []
    assert codes(g.push(Move("revive", "p1", ("CC-017#1",), to="p1.B2"))) == []
    assert codes(g.check(Move("draw", "p1", value=1))) == ["cc.draw-phase"]


def test_falle_fires_when_the_card_goes_from_camp_into_its_owners_hell() -> None:
    """Falle: "Aktiviert sich, wenn deine Karte im gegnerischen Lager oder deiner Hand, in deine
    Hölle gelegt wird." Schattenschnapper (Falle: beschwöre diese Creature aus deiner Hölle)
    on top of Bo's camp, destroyed by a direct attack, may come back to his field."""
    g = position(p1_A1=["CC-036"], camps={"p1": ["CC-001"], "p2": ["CC-018", "CC-003"]},
                 hands={"p1": 0, "p2": 0})
    g.state.zones["p2.lager"] = ["CC-003#1", "CC-018#1"]  # Schattenschnapper on top
    roll(g, 5, 1, 2)
    assert codes(g.push(Move("attack", "p1", ("CC-036#1",), target="p2",
                             options=dice("p1.w1", p1_w1=5)))) == []
    revive = Move("revive", "p2", ("CC-018#1",), to="p2.B1")
    assert codes(g.check(revive)) == ["cc.unexplained"]  # nobody saw it in hell yet
    assert codes(g.push(Move("settle", "p2", ("CC-018#1",), value="hell"))) == []
    assert codes(g.push(revive)) == []
    assert g.state.where["CC-018#1"] == "p2.B1"
