"""Creature Crush rules, one rulebook rule per test, on small positions of the sample cards.

Columns face each other as p1.X1-p2.X3, p1.X2-p2.X2, p1.X3-p2.X1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.engine.api import GameOverError, Move, MoveFormatError, blocking
from companion.engine.game import Game
from companion.engine.state import hand_zone
from companion.games.creature_crush import effects as fx
from companion.referee.script import referee_script

SCRIPTS = Path(__file__).parents[2] / "companion/sim/scripts/creature-crush"

P1_CAMP = ["CC-001", "CC-006", "CC-011", "CC-021", "CC-041", "CC-051", "CC-056", "CC-061",
           "CC-066", "CC-071", "CC-076", "CC-081", "CC-082", "CC-083", "CC-084", "CC-017"]
P2_CAMP = ["CC-003", "CC-008", "CC-018", "CC-023", "CC-033", "CC-038", "CC-043", "CC-048",
           "CC-053", "CC-058", "CC-063", "CC-068", "CC-073", "CC-078", "CC-085", "CC-086"]


def position(phase: str = "start", active: str = "p1", turn: int = 3,
             hands: dict[str, int] | None = None, camps: dict[str, list[str]] | None = None,
             **table: list[str]) -> Game:
    """A mid-game position: `table` maps zones (with '_' for '.') to card uids."""
    zones = {k.replace("_", "."): v for k, v in table.items()}
    setup = {"turn": turn, "active": active, "phase": phase, "table": zones,
             "hands": hands if hands is not None else {"p1": 4, "p2": 4}}
    decks = camps if camps is not None else {"p1": P1_CAMP, "p2": P2_CAMP}
    return Game.new("creature-crush", ("Ada", "Bo"), decks, "p1", 1, setup)


def codes(violations: list[Any]) -> list[str]:
    return [v.code for v in violations if v.blocking]


def roll(g: Game, *values: int, player: str | None = None) -> None:
    """Draw and roll in the start phase, then go to the Kampfphase."""
    p = player or g.active
    dice = ",".join(f"{p}.w{i + 1}={v}" for i, v in enumerate(values))
    assert codes(g.push(Move("draw", p, value=1))) == []
    assert codes(g.push(Move("roll", p, options=(("dice", dice),)))) == []
    assert codes(g.push(Move("next-phase", p))) == []


def dice(*names: str, **values: int) -> tuple[tuple[str, str], ...]:
    return (("dice", ",".join(f"{n}={values[n.replace('.', '_')]}" for n in names)),)


def hand_card(g: Game, player: str, card_id: str) -> str:
    """Make the (hidden) hand of `player` hold a copy of `card_id`, as the camera would show."""
    uid = next(u for u in g.state.where if u.startswith(card_id + "#"))
    assert g.state.resolve(uid, hand_zone(player))
    return uid


# ----------------------------------------------------------------------------- setup


def test_new_game_uses_the_two_sample_camps_and_opens_with_four_cards() -> None:
    g = Game.new("creature-crush", ("Ada", "Bo"), seed=3)
    assert g.phase == "opening"
    assert g.state.count("p1.lager") == 20 and g.state.count("p2.lager") == 20
    assert codes(g.check(Move("draw", "p1", value=3))) == ["cc.opening-draw"]
    g.push(Move("draw", "p1", value=4))
    assert g.phase == "opening"
    g.push(Move("draw", "p2", value=4))
    assert (g.phase, g.active, g.state.turn) == ("start", "p1", 1)
    assert g.state.count(hand_zone("p1")) == 4


def test_camp_of_twenty_unique_cards() -> None:
    g = Game.new("creature-crush", ("Ada", "Bo"),
                 {"p1": P1_CAMP, "p2": [*P2_CAMP, "CC-003", "CC-088", "CC-087", "CC-013"]})
    assert codes(g.check(Move("draw", "p1", value=4))) == ["cc.lager-size"]
    assert codes(g.check(Move("draw", "p2", value=4))) == ["cc.lager-unique"]


# ----------------------------------------------------------------------------- start dice


@pytest.mark.parametrize(("values", "legal"), [
    ((1, 2, 3), True), ((1, 2), False), ((4, 4, 4), False), ((4, 4, 4, 1), True),
    ((4, 4, 4, 4), False), ((4, 4, 4, 4, 2), True), ((4, 4, 1, 4), False),
    ((1, 2, 3, 4), False),
])
def test_start_dice_count(values: tuple[int, ...], legal: bool) -> None:
    g = position()
    text = ",".join(f"p1.w{i + 1}={v}" for i, v in enumerate(values))
    found = codes(g.check(Move("roll", "p1", options=(("dice", text),))))
    assert (found == []) is legal, found


def test_opening_player_rolls_two_in_the_first_turn_and_effects_add_up_to_five() -> None:
    g = position(turn=1)
    assert g.ruleset.expected_dice(g.state, [3, 3, 3])[0] == 2  # type: ignore[attr-defined]
    g = position()
    g.state.flags["turn_extra"] = 4
    assert g.ruleset.expected_dice(g.state, [1, 2, 3])[0] == 5  # type: ignore[attr-defined]


def test_start_phase_needs_draw_and_roll_and_rolls_once() -> None:
    g = position()
    assert set(codes(g.check(Move("next-phase", "p1")))) == {"cc.must-draw", "cc.must-roll"}
    roll(g, 2, 5, 6)
    assert codes(g.check(Move("roll", "p1", options=(("dice", "p1.w1=3"),)))) == [
        "cc.roll-once"]
    assert codes(g.check(Move("draw", "p1", value=1))) == ["cc.draw-phase"]


# ----------------------------------------------------------------------------- summoning


def test_summon_to_b_and_to_a_only_beside_an_occupied_b_place() -> None:
    g = position(p1_B2=["CC-046"])
    roll(g, 2, 5, 1)
    uid = hand_card(g, "p1", "CC-006")
    opt = dice("p1.w1", p1_w1=2)
    assert codes(g.check(Move("summon", "p1", (uid,), to="p1.B1", options=opt))) == []
    assert codes(g.check(Move("summon", "p1", (uid,), to="p1.A2", options=opt))) == []
    assert codes(g.check(Move("summon", "p1", (uid,), to="p1.A1", options=opt))) == [
        "cc.a-needs-b"]
    assert codes(g.check(Move("summon", "p1", (uid,), to="p1.B2", options=opt))) == [
        "cc.place-taken"]
    assert codes(g.check(Move("summon", "p1", (uid,), to="p2.B1", options=opt))) == [
        "cc.bad-place"]


def test_costs_are_paid_with_exact_sums_of_burned_dice() -> None:
    g = position()
    roll(g, 2, 5, 1)
    uid = hand_card(g, "p1", "CC-041")  # Gluthydra, cost 6
    ok = Move("summon", "p1", (uid,), to="p1.B1", options=(("dice", "p1.w2=5,p1.w3=1"),))
    assert codes(g.check(ok)) == []
    wrong = Move("summon", "p1", (uid,), to="p1.B1", options=(("dice", "p1.w1=2,p1.w2=5"),))
    assert codes(g.check(wrong)) == ["cc.wrong-payment"]
    g.push(Move("burn", "p1", options=(("dice", "p1.w1=2"),)))
    later = Move("summon", "p1", (uid,), to="p1.B1")
    assert codes(g.check(later)) == []  # the 2 may pay for something else; 5 + 1 still can
    g.push(Move("burn", "p1", options=(("dice", "p1.w2=5"),)))
    assert codes(g.check(later)) == ["cc.wrong-payment"]  # 2 + 5 burned: no way to 6


def payable(values: list[int]) -> set[int]:
    """Every cost the dice pay exactly, one die or several added (rulebook, Kampfphase), by
    walking the dice one at a time: a cost is reachable with or without each die."""
    reach = {0}
    for v in values:
        reach |= {r + v for r in reach}
    return reach - {0}


def test_the_rulebooks_worked_payment_examples() -> None:
    # "Deine drei Startwürfel zeigen 2, 4 und 5 ... (7, 9 oder 11) ... (6, 5, 4 oder 2)"
    assert payable([2, 4, 5]) == {2, 4, 5, 6, 7, 9, 11}
    # "eine 6, 4 und eine 3 ... Kosten 3, 4, 6, 7, 9, 10 oder 13"
    assert payable([6, 4, 3]) == {3, 4, 6, 7, 9, 10, 13}


@given(values=st.lists(st.integers(1, 6), min_size=3, max_size=3), cost=st.integers(1, 12))
@settings(max_examples=40, deadline=None)
def test_a_creature_is_summoned_exactly_when_the_dice_pay_its_cost(values: list[int],
                                                                  cost: int) -> None:
    assume(len(set(values)) > 1)  # a triple brings a fourth die (tested on its own)
    card = {"id": "TX-1", "name": "Testling", "type": "creature", "cost": cost, "attack": 1,
            "life": 1}
    setup = {"turn": 3, "active": "p1", "phase": "start", "hands": {"p1": 4, "p2": 4}}
    g = Game.new("creature-crush", ("Ada", "Bo"), {"p1": ["TX-1", *P1_CAMP], "p2": P2_CAMP},
                 "p1", 1, setup, [card])
    uid = hand_card(g, "p1", "TX-1")
    roll(g, *values)
    found = codes(g.check(Move("summon", "p1", (uid,), to="p1.B1")))
    assert (found == []) == (cost in payable(values)), found
    assert found in ([], ["cc.cannot-pay"])


def test_summon_only_in_own_kampfphase() -> None:
    g = position()
    uid = hand_card(g, "p1", "CC-006")
    assert "cc.wrong-phase" in codes(g.check(Move("summon", "p1", (uid,), to="p1.B1")))
    roll(g, 2, 3, 4)
    other = hand_card(g, "p2", "CC-008")
    assert "cc.not-your-turn" in codes(g.check(Move("summon", "p2", (other,), to="p2.B1")))


# ----------------------------------------------------------------------------- attacks


def attack_position() -> Game:
    g = position(p1_A1=["CC-026"], p1_B1=["CC-046"], p1_B3=["CC-016"], p1_A3=["CC-036"],
                 p2_B3=["CC-013"], p2_A2=["CC-023"], p2_B2=["CC-008"])
    roll(g, 4, 6, 3)
    return g


def test_who_may_attack_whom() -> None:
    g = attack_position()
    four = dice("p1.w1", p1_w1=4)
    six = dice("p1.w2", p1_w2=6)
    three = dice("p1.w3", p1_w3=3)
    check = g.check
    assert codes(check(Move("attack", "p1", ("CC-026#1",), target="CC-013#1",
                            options=four))) == []
    assert codes(check(Move("attack", "p1", ("CC-026#1",), target="p2", options=four))) == [
        "cc.direct-blocked"]
    assert codes(check(Move("attack", "p1", ("CC-046#1",), target="CC-013#1",
                            options=six))) == []
    assert codes(check(Move("attack", "p1", ("CC-016#1",), target="p2", options=three))) == [
        "cc.direct-from-b"]
    assert codes(check(Move("attack", "p1", ("CC-016#1",), target="CC-023#1",
                            options=three))) == ["cc.bad-target"]
    five = Move("attack", "p1", ("CC-036#1",), target="p2")
    assert codes(check(five)) == ["cc.cannot-pay"]  # Kieselkauz costs 5: 4, 6, 3 cannot


def test_zero_attack_never_attacks() -> None:
    g = position(p1_B2=["CC-011"], p2_B2=["CC-008"])
    roll(g, 2, 1, 1)
    found = codes(g.check(Move("attack", "p1", ("CC-011#1",), target="CC-008#1",
                               options=dice("p1.w1", p1_w1=2))))
    assert found == ["cc.zero-attack"]


def test_damage_destroys_at_life_and_nachtragend_hits_back() -> None:
    g = attack_position()
    g.push(Move("attack", "p1", ("CC-046#1",), target="CC-013#1",
                options=dice("p1.w2", p1_w2=6)))
    assert g.ruleset.expect_value(g.state, "damage") == {"CC-013#1": 3, "CC-046#1": 3}
    assert codes(g.push(Move("attack", "p1", ("CC-026#1",), target="CC-013#1",
                             options=dice("p1.w1", p1_w1=4)))) == []
    assert g.state.where["CC-013#1"] == "p2.hell"
    assert g.state.where["CC-026#1"] == "p1.A1"  # 3 block damage on life 4
    assert g.ruleset.expect_value(g.state, "damage")["CC-026#1"] == 3


def test_one_action_per_creature_and_munter() -> None:
    g = attack_position()
    g.push(Move("attack", "p1", ("CC-026#1",), target="CC-013#1",
                options=dice("p1.w1", p1_w1=4)))
    again = Move("attack", "p1", ("CC-026#1",), target="CC-013#1")
    assert "cc.acted" in codes(g.check(again))
    g = position(p2_B1=["CC-003"])
    roll(g, 2, 2, 5)
    munter = hand_card(g, "p1", "CC-007") if "CC-007#1" in g.state.where else None
    assert munter is None  # not in these camps: use an inline position below
    g = position(p2_B1=["CC-003"], camps={"p1": [*P1_CAMP, "CC-007", "CC-014"],
                                          "p2": P2_CAMP})
    roll(g, 2, 3, 2)
    kiesel = hand_card(g, "p1", "CC-007")
    g.push(Move("summon", "p1", (kiesel,), to="p1.B3", options=dice("p1.w1", p1_w1=2)))
    assert codes(g.check(Move("attack", "p1", (kiesel,), target="CC-003#1",
                              options=dice("p1.w3", p1_w3=2)))) == []
    hydra = hand_card(g, "p1", "CC-014")
    g.push(Move("summon", "p1", (hydra,), to="p1.B2", options=dice("p1.w2", p1_w2=3)))
    assert "cc.acted" in codes(g.check(Move("attack", "p1", (hydra,), target="p2")))


def test_direct_attack_destroys_the_top_camp_card_then_hand_crush_enemy() -> None:
    g = position(p1_A1=["CC-036"], p1_A3=["CC-031"], p1_B1=["CC-046"], p1_B2=["CC-026"],
                 p2_B2=["CC-008"], p2_C1=["CC-087"], hands={"p1": 4, "p2": 1},
                 camps={"p1": P1_CAMP, "p2": ["CC-003"]})
    roll(g, 5, 5, 4)
    assert g.state.count("p2.lager") == 0
    g.push(Move("attack", "p1", ("CC-036#1",), target="p2", options=dice("p1.w1", p1_w1=5)))
    assert g.state.count(hand_zone("p2")) == 0 and g.state.count("p2.hell") == 1
    g.push(Move("attack", "p1", ("CC-031#1",), target="p2", options=dice("p1.w2", p1_w2=5)))
    assert g.state.where["CC-087#1"] == "p2.hell"
    g.state.turn += 1  # a later turn: the enemy is the last thing left
    g.state.reset_counters("turn")
    g.state.flags["dice"]["p1"] = {"p1.w1": 5}
    g.push(Move("attack", "p1", ("CC-036#1",), target="p2", options=dice("p1.w1", p1_w1=5)))
    assert g.state.where["CC-008#1"] == "p2.hell"
    assert g.outcome() is not None and g.outcome().winner == "p1"  # type: ignore[union-attr]


def test_an_enemy_destroyed_by_a_direct_attack_triggers_its_holle_effect() -> None:
    """Hölle: "Aktiviert sich, wenn die Karte von deinem Feld in die Hölle gelegt wird"; a
    direct attack on a player without camp, hand and crush cards destroys a random enemy
    ("Zerstören: ... die Karte in die Hölle zu legen"), which goes from the field to hell."""
    g = position(p1_A1=["CC-002"], p2_B1=["CC-010"], p2_B2=["CC-048"], hands={"p1": 0, "p2": 0},
                 camps={"p1": ["CC-001"], "p2": []})
    roll(g, 1, 3, 5)
    assert codes(g.push(Move("attack", "p1", ("CC-002#1",), target="p2",
                             options=dice("p1.w1", p1_w1=1)))) == []
    gone = [u for u in ("CC-010#1", "CC-048#1") if g.state.where[u] == "p2.hell"]
    assert len(gone) == 1
    effect = fx.card_effect(g.state.facts(gone[0]))
    assert effect is not None
    assert [(x["do"], x["player"]) for x in fx.permits(g.state)
            if x.get("source") == gone[0]] == [(effect["do"], "p2")]


# ----------------------------------------------------------------------------- Taktikphase


def test_moves_swaps_and_trage() -> None:
    g = position(p1_A1=["CC-001"], p1_B1=["CC-046"], p1_B2=["CC-006"])
    roll(g, 2, 2, 5)
    g.push(Move("next-phase", "p1"))
    assert g.phase == "taktik"
    one = dice("p1.w1", p1_w1=2)
    assert codes(g.check(Move("move", "p1", ("CC-046#1",), to="p1.B2", options=one))) == [
        "cc.move-taken"]
    assert codes(g.push(Move("move", "p1", ("CC-001#1",), to="p1.A2", options=one))) == []
    assert g.ruleset.expect_value(g.state, "damage") == {"CC-001#1": 1}  # Träge
    swap = Move("swap", "p1", ("CC-046#1", "CC-006#1"),
                options=(("dice", "p1.w2=2,p1.w3=5"),))
    assert codes(g.push(swap)) == []
    assert g.state.where["CC-046#1"] == "p1.B2" and g.state.where["CC-006#1"] == "p1.B1"
    short = Move("swap", "p1", ("CC-046#1", "CC-001#1"), options=(("dice", ""),))
    assert "cc.wrong-count" in codes(g.check(short))


def test_unused_start_dice_burn_at_the_end_of_the_turn() -> None:
    g = position()
    roll(g, 2, 2, 5)
    g.push(Move("pass", "p1"))
    assert g.state.flags["dice"]["p1"] == {}
    assert codes(g.check(Move("burn", "p1", options=(("dice", "p1.w3=5"),)))) == [
        "cc.die-unavailable"]


# ----------------------------------------------------------------------------- crush cards


def test_crush_cards_face_down_for_dice_and_checked_when_flipped() -> None:
    g = position(p2_B1=["CC-028"])
    roll(g, 4, 2, 6)
    regen = hand_card(g, "p1", "CC-082")  # Glutregen, cost 2, no condition
    g.push(Move("burn", "p1", options=(("dice", "p1.w1=4"),)))
    g.push(Move("set-crush", "p1", ("?",), to="p1.C1"))
    assert g.state.where[regen] != "p1.C1" or regen in g.state.face_down
    down = g.state.cards_in("p1.C1")[0]
    flip = Move("flip", "p1", (regen,), to="p1.C1")
    assert codes(g.check(flip)) == ["cc.crush-cost"]  # one die for a cost of two
    g.push(flip)
    assert g.state.where[regen] == "p1.hell" and down in g.state.where
    permits = fx.permits(g.state)
    assert permits and permits[-1]["do"] == "damage" and permits[-1]["n"] == 2
    mark = Move("mark", "p2", ("CC-028#1",), value=2, options=(("dice", "p1.r1=2"),))
    assert codes(g.push(mark)) == []
    assert fx.permits(g.state) == []


def test_flip_timing_without_and_with_condition() -> None:
    g = position(p1_C1=["CC-089"], p1_C2=["CC-083"], phase="start", active="p2")
    for uid in ("CC-089#1", "CC-083#1"):
        g.state.face_down.add(uid)
        g.state.public.discard(uid)
    assert codes(g.check(Move("flip", "p1", ("CC-089#1",), to="p1.C1"))) == ["cc.flip-phase"]
    assert codes(g.check(Move("flip", "p1", ("CC-083#1",), to="p1.C2"))) == []


def test_effect_chain_resolves_newest_first() -> None:
    g = position()
    fx.grant(g.state, "p1", "a", {"do": "damage", "n": 2, "side": "any"})
    fx.grant(g.state, "p1", "b", {"do": "damage", "n": 2, "side": "any"})
    found = fx.find(g.state, lambda x: x["do"] == "damage")
    assert found is not None and found["source"] == "b"


def test_compiled_card_effects_become_permit_records() -> None:
    """The state's permit records of compiled effects (texts: tests/games/test_card_effects)."""
    catalog = position().state.catalog
    assert fx.card_effect(catalog.card("CC-017")) == {"do": "draw", "n": 1}
    assert fx.card_effect(catalog.card("CC-090")) == {"do": "hell-to-hand", "n": 2}
    assert fx.card_effect(catalog.card("CC-099")) == {
        "do": "damage-each", "n": 1, "side": "enemy", "row": "A"}
    assert fx.trigger(catalog.card("CC-017")) == "Aktion"
    assert fx.card_effect(catalog.card("CC-001")) is None


# ----------------------------------------------------------------------------- ending


def test_draw_by_agreement_and_stalemate() -> None:
    g = position()
    g.push(Move("agree-draw", "p1"))
    assert g.outcome() is None
    assert codes(g.check(Move("agree-draw", "p1"))) == ["cc.no-draw-offer"]
    g.push(Move("agree-draw", "p2"))
    assert g.outcome() is not None and g.outcome().winner is None  # type: ignore[union-attr]
    assert codes(g.push(Move("concede", "p1"))) == ["game.over"]  # after the draw: nothing
    assert g.outcome().winner is None  # type: ignore[union-attr]
    with pytest.raises(GameOverError):  # "end turn" leads nowhere now
        g.push(Move("pass", "p1"))
    stale = position(p1_B1=["CC-011"], p2_B1=["CC-008"], hands={"p1": 0, "p2": 0},
                     camps={"p1": [], "p2": []})
    stale.push(Move("declare", "p1", value="nothing left"))
    assert stale.outcome() is not None and stale.outcome().reason == "stalemate"  # type: ignore[union-attr]


def test_views_show_damage_and_dice_but_not_face_down_cards() -> None:
    g = position(p2_B1=["CC-028"])
    roll(g, 4, 2, 6)
    regen = hand_card(g, "p1", "CC-082")
    g.push(Move("set-crush", "p1", (regen,), to="p1.C1",
                options=(("dice", "p1.w1=4,p1.w2=2"),)))
    for observer in ("table", "p2"):
        view = g.view(observer)
        assert regen not in str(view)
        assert view["extra"]["crush_dice_paid"] == {"p1.C1": 2}
        assert view["extra"]["start_dice"]["p1"] == {"p1.w3": 6}


def test_illegal_moves_change_nothing_they_cannot() -> None:
    g = position()
    total = g.state.total_cards()
    for bad in g.ruleset.illegal_examples(g.state):
        if bad.kind not in g.ruleset.known_kinds:  # no move of this game: refused
            with pytest.raises(MoveFormatError):
                g.push(bad, "camera")
            continue
        assert blocking(g.push(bad, "camera"))
    assert g.ruleset.invariant_errors(g.state, total) == []


# ----------------------------------------------------------------------------- issue 31


def test_a_creature_moved_or_summoned_into_the_c_zone_is_in_the_wrong_place() -> None:
    """"Die C-Zone ist den Crushkarten vorbehalten"; creatures move "auf andere freie Plätze,
    innerhalb deiner Spielfeldseite ... die Zonen zu übertreten" (A and B). A creature put in
    the own C zone breaks exactly that rule, with its own code, and no crush card rule."""
    g = position(p1_B2=["CC-006"])
    roll(g, 3, 1, 5)
    hydra = hand_card(g, "p1", "CC-041")  # Gluthydra, cost 6: 1 + 5 pays it
    summon = Move("summon", "p1", (hydra,), to="p1.C1", options=dice("p1.w2", "p1.w3",
                                                                   p1_w2=1, p1_w3=5))
    assert codes(g.check(summon)) == ["cc.creature-in-c"]
    g.push(Move("next-phase", "p1"))
    one = dice("p1.w2", p1_w2=1)
    assert codes(g.check(Move("move", "p1", ("CC-006#1",), to="p1.C2", options=one))) == [
        "cc.creature-in-c"]
    assert codes(g.check(Move("move", "p1", ("CC-006#1",), to="p2.C2", options=one))) == [
        "cc.bad-place"]  # the enemy's side is no place of one's own at all
    assert codes(g.check(Move("move", "p1", ("CC-006#1",), to="p1.A2", options=one))) == []


@pytest.mark.parametrize("camera_only", [False, True])
def test_the_camera_reads_a_creature_laid_into_c_as_a_creature_in_the_wrong_place(
        camera_only: bool) -> None:
    """The table change "Nebelkauz from B2 to C2" is that creature's move, not a crush card
    laid face up from the hand (four crush-card codes before issue 31)."""
    report = referee_script(str(SCRIPTS / "rules-c-zone.yaml"), camera_only)
    into_c = next(s for s in report.steps if any(e.move.to == "p1.C2" for e in s.moves))
    assert [(e.move.kind, [v.code for v in e.violations]) for e in into_c.moves
            if e.violations] == [("move", ["cc.creature-in-c"])]
    assert report.failures == []


def dice_target_position(target_cost: int) -> Game:
    """Ada's Moorfieber ("Zerstöre einen Feind mit 2 Würfeln") face down in C1, paid in an
    earlier turn; Bo's only enemy a made-up creature of `target_cost`; Ada in her Kampfphase."""
    card = {"id": "TX-1", "name": "Testling", "type": "creature", "cost": target_cost,
            "attack": 1, "life": 9}
    setup = {"turn": 3, "active": "p1", "phase": "start", "hands": {"p1": 4, "p2": 4},
             "table": {"p1.C1": ["CC-091"], "p2.B1": ["TX-1"]}}
    g = Game.new("creature-crush", ("Ada", "Bo"), {"p1": P1_CAMP, "p2": P2_CAMP}, "p1", 1,
                 setup, [card])
    g.state.face_down.add("CC-091#1")
    g.state.public.discard("CC-091#1")
    roll(g, 4, 1, 3)
    assert codes(g.push(Move("flip", "p1", ("CC-091#1",), to="p1.C1"))) == []
    return g


EFFECT_DICE = (("dice", "p1.w4=2,p1.w5=6"),)
DESTROY = Move("to-hell", "p2", ("TX-1#1",), to="p2.hell")


@pytest.mark.parametrize("cost", range(1, 13))
def test_a_target_chosen_with_two_dice_costs_what_the_dice_show(cost: int) -> None:
    """Glossar, Mit „X“ Würfeln: "Du hast eine 2 und eine 6 geworfen, dann musst du eine
    Feldkarte mit Kartenkosten 2, 6 oder 8 zerstören" (the rulebook's own example)."""
    g = dice_target_position(cost)
    assert codes(g.push(Move("roll", "p1", options=EFFECT_DICE))) == []
    found = codes(g.push(DESTROY))
    assert found == ([] if cost in (2, 6, 8) else ["cc.dice-target"])
    assert g.state.where["TX-1#1"] == "p2.hell"  # the table's destruction is followed


def test_the_effect_roll_comes_first_asks_for_its_count_and_gives_no_start_dice() -> None:
    """"verlangen nach einem Würfelwurf mit X Würfeln ... Würfle also 2 Würfel und wähle dann
    ein Ziel aus": without the roll no target is chosen; a roll of 3 dice is no roll of 2; the
    effect's dice pay for nothing (they are not start dice, "Die Würfel")."""
    g = dice_target_position(8)
    assert codes(g.check(DESTROY)) == ["cc.dice-unrolled"]
    three = (("dice", "p1.w4=2,p1.w5=3,p1.w6=3"),)  # 2 + 3 + 3 would show 8
    assert codes(g.push(Move("roll", "p1", options=three))) == [
        "cc.effect-dice"]  # three dice are no roll of two: they are rolled again
    assert codes(g.check(DESTROY)) == ["cc.dice-unrolled"]
    start_dice = dict(g.state.flags["dice"]["p1"])
    g.push(Move("roll", "p1", options=EFFECT_DICE))
    assert g.state.flags["dice"]["p1"] == start_dice
    assert codes(g.check(Move("roll", "p1", options=EFFECT_DICE))) == ["cc.roll-once"]
    (permit,) = fx.permits(g.state)
    assert "costing 2, 6 or 8" in fx.describe(permit, "en")  # the page says the choice
    assert "Kosten 2, 6 oder 8" in fx.describe(permit, "de")
    assert codes(g.push(DESTROY)) == []
    assert fx.permits(g.state) == []  # one Moorfieber destroys one enemy


def test_a_trap_destroys_the_summoned_enemy_only_when_its_one_die_shows_the_cost() -> None:
    """Frostfalle ("Zerstöre diesen Feind mit 1 Würfel"), sprung in Bo's turn: Ada rolls one
    die in Bo's turn; Nebelkauz (cost 2) is destroyed on a 2, not on a 3."""
    for value, expected in ((2, []), (3, ["cc.dice-target"])):
        g = position(p1_C1=["CC-087"], p2_B2=["CC-006"], active="p2", phase="kampf")
        g.state.face_down.add("CC-087#1")
        g.state.public.discard("CC-087#1")
        assert codes(g.push(Move("flip", "p1", ("CC-087#1",), to="p1.C1"))) == []
        one = (("dice", f"p1.w1={value}"),)
        assert codes(g.push(Move("roll", "p1", options=one))) == []  # not Ada's turn: allowed
        assert codes(g.push(Move("to-hell", "p2", ("CC-006#1",), to="p2.hell"))) == expected
