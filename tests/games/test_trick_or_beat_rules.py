"""Trick or Beat rules, one rulebook rule per test, on small made-up positions."""

from __future__ import annotations

from pathlib import Path

from companion.engine.api import Move
from companion.engine.game import Game
from companion.engine.state import hand_zone
from companion.games.trick_or_beat import effects as fx
from companion.referee.script import referee_script
from tests.engine.tob_fixtures import CARDS, DECK, game, position


def codes(violations: list) -> list[str]:
    return [v.code for v in violations if v.blocking]


def test_summon_only_onto_passive_lane() -> None:
    g = position()
    assert codes(g.check(Move("summon", "p1", ("XA#1",), to="p1.passive"))) == []
    bad = codes(g.check(Move("summon", "p1", ("XA#1",), to="p1.active")))
    assert "tob.summon-active" in bad


def test_summon_only_in_main_phase_and_from_hand() -> None:
    g = position(phase="lane", p1_active=["XB#1"])
    assert "tob.wrong-phase" in codes(g.check(Move("summon", "p1", ("XA#1",), to="p1.passive")))
    g = position(p1_active=["XB#1"])
    assert "tob.not-in-hand" in codes(g.check(Move("summon", "p1", ("XB#1",), to="p1.passive")))


def test_lane_capacity_two_raised_by_trick_pile() -> None:
    g = position(p1_passive=["XA#1", "XB#1"])
    assert "tob.lane-full" in codes(g.check(Move("summon", "p1", ("XA#2",), to="p1.passive")))
    g = position(p1_passive=["XA#1", "XB#1"], p1_trick=1)
    assert g.ruleset.expect_value(g.state, "lane_limit") == {"p1": 3, "p2": 2}
    assert codes(g.check(Move("summon", "p1", ("XA#2",), to="p1.passive"))) == []
    g = position(p1_trick=5)
    assert g.ruleset.expect_value(g.state, "lane_limit")["p1"] == 5


def test_attack_sums_attackers_and_defeats_at_survival() -> None:
    g = position(p1_active=["XA#1", "XC#1"], p2_active=["XB#1"])
    # 4 + 3 = 7 >= 5
    assert g.push(Move("attack", "p1", ("XA#1", "XC#1"), target="XB#1")) == []
    assert g.state.where["XB#1"] == "shared.discard"
    assert g.outcome() is not None and g.outcome().reason == "beat"


def test_attack_below_survival_has_no_effect_and_attacker_used_once() -> None:
    g = position(p1_active=["XC#1"], p2_active=["XB#1", "XD#1"])
    assert g.push(Move("attack", "p1", ("XC#1",), target="XB#1")) == []
    assert g.state.where["XB#1"] == "p2.active"
    again = codes(g.check(Move("attack", "p1", ("XC#1",), target="XD#1")))
    assert again == ["tob.attacker-used"]


def test_attacks_only_from_active_lane() -> None:
    g = position(p1_passive=["XA#1"], p2_active=["XD#1"])
    assert "tob.attacker-passive" in codes(g.check(Move("attack", "p1", ("XA#1",),
                                                        target="XD#1")))


def test_passive_creatures_protected_while_active_lane_occupied() -> None:
    g = position(p1_active=["XA#1"], p2_active=["XB#1"], p2_passive=["XD#1"])
    assert codes(g.check(Move("attack", "p1", ("XA#1",), target="XD#1"))) == [
        "tob.target-protected"
    ]
    g = position(p1_active=["XA#1"], p2_passive=["XD#1"])
    assert codes(g.check(Move("attack", "p1", ("XA#1",), target="XD#1"))) == []


def test_first_turn_attack_malus() -> None:
    g = game()
    g.push(Move("deal", "p1", value=15))
    g.push(Move("deal", "p2", value=15))
    g.push(Move("next-phase", "p1"))
    assert (g.phase, g.active, g.state.turn) == ("lane", "p1", 1)
    assert "tob.first-turn-draw" in codes(g.check(Move("draw", "p1")))
    g2 = position(turn=1, p1_active=["XA#1"], p2_active=["XD#1"])
    g2.state.flags["first_turn"] = True
    g2.push(Move("attack", "p1", ("XA#1",), target="XD#1"))  # 4 - 3 = 1 < 2
    assert g2.state.where["XD#1"] == "p2.active"


def test_trick_pile_bonuses() -> None:
    g = position(p1_active=["XB#1"], p2_active=["XA#1", "XD#1"], p1_trick=4)
    g.push(Move("attack", "p1", ("XB#1",), target="XA#1"))  # 2 + 2 >= 3
    assert g.state.where["XA#1"] == "shared.discard"
    g = position(p1_active=["XA#1"], p2_active=["XA#2", "XB#1"], p2_trick=5)
    g.push(Move("attack", "p1", ("XA#1",), target="XA#2"))  # 4 < 3 + 2
    assert g.state.where["XA#2"] == "p2.active"


def test_trick_win_and_block_at_six() -> None:
    g = position(phase="end", p1_trick=6)
    assert g.push(Move("trick", "p1", ("?",))) == []
    outcome = g.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == ("p1", "trick")
    g = position(phase="end", p1_trick=6, p2_trick=6)
    g.push(Move("trick", "p1", ("?",)))
    assert g.outcome() is None
    assert g.scores()["p1"].value == 7


def test_one_trick_card_per_end_phase_never_taken_back() -> None:
    g = position(phase="end")
    assert g.push(Move("trick", "p1", ("?",))) == []
    assert codes(g.check(Move("trick", "p1", ("?",)))) == ["tob.trick-once"]
    assert codes(g.check(Move("untrick", "p1"))) == ["tob.trick-final"]
    g = position(phase="main")
    assert "tob.wrong-phase" in codes(g.check(Move("trick", "p1", ("?",))))


def test_one_supply_card_per_turn_and_face_up_draws() -> None:
    g = position()
    assert g.push(Move("tactic", "p1", ("XS#1",))) == []
    assert g.state.flags["supply_draws"] == 2
    assert codes(g.check(Move("tactic", "p1", ("XS#2",)))) == ["tob.supply-once"]
    hand = g.state.count(hand_zone("p1"))
    assert g.push(Move("supply-draw", "p1", ("XS#3",))) == []  # a supply card: discarded
    assert g.state.where["XS#3"] == "shared.discard"
    assert g.state.flags["supply_draws"] == 2
    assert g.push(Move("supply-draw", "p1", ("XA#3",))) == []
    assert g.state.where["XA#3"] == hand_zone("p1") and "XA#3" in g.state.public
    assert g.state.count(hand_zone("p1")) == hand + 1
    assert g.state.flags["supply_draws"] == 1


def test_equipment_one_per_creature_bonus_and_discarded_with_it() -> None:
    g = position(p1_active=["XB#1"], p2_active=["XA#1"])
    assert g.push(Move("equip", "p1", ("XE#1",), target="XB#1")) == []
    assert codes(g.check(Move("equip", "p1", ("XE#2",), target="XB#1"))) == [
        "tob.equipment-one"
    ]
    assert "tob.equipment-as-tactic" in codes(g.check(Move("tactic", "p1", ("XE#2",))))
    g.push(Move("pass", "p1"))
    g.push(Move("draw", "p2"))
    g.push(Move("next-phase", "p2"))
    g.push(Move("next-phase", "p2"))
    g.push(Move("attack", "p2", ("XA#1",), target="XB#1"))  # 4 < 5 + 2
    assert g.state.where["XB#1"] == "p1.active"
    g = position(p1_active=["XB#1"], p2_active=["XA#1", "XC#1"])
    g.push(Move("equip", "p1", ("XE#1",), target="XB#1"))
    g.push(Move("pass", "p1"))
    g.push(Move("draw", "p2"))
    g.push(Move("next-phase", "p2"))
    g.push(Move("next-phase", "p2"))
    g.push(Move("attack", "p2", ("XA#1", "XC#1"), target="XB#1"))  # 7 >= 7
    assert g.state.where["XB#1"] == "shared.discard"
    assert g.state.where["XE#1"] == "shared.discard"


def test_abilities_by_kind_and_lane() -> None:
    g = position(p1_active=["XC#1"], p1_passive=["XC#2"], p2_active=["XB#1"])
    assert codes(g.check(Move("activate", "p1", ("XC#2",), value=0))) == ["tob.ability-lane"]
    assert g.push(Move("activate", "p1", ("XC#1",), value=0)) == []
    assert codes(g.check(Move("activate", "p1", ("XC#1",), value=0))) == ["tob.ability-once"]
    g.push(Move("attack", "p1", ("XC#1",), target="XB#1"))  # 3 + 2 >= 5
    assert g.state.where["XB#1"] == "shared.discard"


def test_combat_ability_once_per_attack_and_passive_lane_allowed() -> None:
    g = position(p1_active=["XA#1"], p2_active=["XB#1"], p2_passive=["XD#1"])
    ok = Move("attack", "p1", ("XA#1",), target="XB#1", options=(("combat", "XD#1/0"),))
    assert codes(g.check(ok)) == []
    twice = Move("attack", "p1", ("XA#1",), target="XB#1",
                 options=(("combat", "XD#1/0,XD#1/0"),))
    assert codes(g.check(twice)) == ["tob.combat-once"]
    g.push(Move("attack", "p1", ("XA#1",), target="XB#1",
                options=(("combat", "XD#1/0"),)))  # 4 < 5 + 3
    assert g.state.where["XB#1"] == "p2.active"


def test_supply_phase_draw_exactly_one() -> None:
    g = position(phase="supply")
    assert codes(g.check(Move("next-phase", "p1"))) == ["tob.must-draw"]
    assert g.push(Move("draw", "p1")) == []
    assert codes(g.check(Move("draw", "p1"))) == ["tob.draw-once"]
    assert codes(g.check(Move("next-phase", "p1"))) == []
    assert codes(g.check(Move("next-phase", "p2"))) == ["game.not-your-turn"]


def test_draft_deal_keep_discard_and_reveal() -> None:
    g = game()
    assert codes(g.check(Move("deal", "p1", value=16))) == ["tob.deal-too-many"]
    g.push(Move("deal", "p1", value=15))
    g.push(Move("deal", "p2", value=15))
    for uid in list(g.state.cards_in(hand_zone("p1")))[:7]:
        assert g.push(Move("discard", "p1", (uid,))) == []
    extra = g.state.cards_in(hand_zone("p1"))[0]
    assert codes(g.check(Move("discard", "p1", (extra,)))) == ["tob.draft-discard-too-many"]
    creature = next(u for u in g.state.cards_in(hand_zone("p2"))
                    if g.state.facts(u).type == "creature")
    tactic = next(u for u in g.state.cards_in(hand_zone("p2"))
                  if g.state.facts(u).type == "tactic")
    g.push(Move("place-down", "p2", ("?",), to="p2.active", options=(("back", "back:1"),)))
    assert codes(g.check(Move("next-phase", "p1"))) == ["tob.unrevealed"]
    assert codes(g.check(Move("reveal", "p2", (tactic,), options=(("back", "back:1"),)))) == [
        "tob.draft-not-creature"
    ]
    assert g.push(Move("reveal", "p2", (creature,), options=(("back", "back:1"),))) == []
    assert g.state.where[creature] == "p2.active" and creature in g.state.public
    g.push(Move("next-phase", "p1"))
    # the camera cannot count draft discards: cards beyond 8 count as discarded
    assert g.state.count(hand_zone("p1")) == 8
    assert g.state.count(hand_zone("p2")) + 1 == 8


def test_redraw_rules() -> None:
    g = game()
    assert codes(g.check(Move("redraw", "p1", value="fresh"))) == ["tob.redraw-late"]
    g.push(Move("deal", "p1", value=15))
    hand = list(g.state.cards_in(hand_zone("p1")))
    creatures = sum(1 for u in hand if g.state.facts(u).type == "creature")
    shown = codes(g.check(Move("redraw", "p1", tuple(hand), value="show")))
    assert ("tob.redraw-creatures" in shown) == (creatures >= 3)
    assert codes(g.check(Move("redraw", "p1", tuple(hand[:3]), value="show")))
    assert g.push(Move("redraw", "p1", value="fresh")) == []
    assert g.state.count(hand_zone("p1")) == 0
    assert g.push(Move("deal", "p1", value=12)) == []
    assert codes(g.check(Move("deal", "p1"))) == ["tob.deal-too-many"]
    g.push(Move("redraw", "p1", value="fresh"))
    g.push(Move("deal", "p1", value=9))
    assert codes(g.check(Move("redraw", "p1", value="fresh"))) == ["tob.redraw-too-small"]
    assert codes(g.check(Move("redraw", "p1", value="maybe"))) == ["tob.redraw-kind"]


def test_violation_texts_in_both_languages_with_rule() -> None:
    g = position(p1_passive=["XA#1", "XB#1"])
    (v,) = g.check(Move("summon", "p1", ("XA#2",), to="p1.passive"))
    assert v.code == "tob.lane-full" and "p1.passive" in v.message_en
    assert "Wesen" in v.message_de and v.rule == "Trick or Beat rules, Lanes"
    assert v.zones == ("p1.passive",) and v.cards == ("XA#2",)


def test_prompt_in_both_languages() -> None:
    g = position(phase="supply")
    en, de = g.prompt("en"), g.prompt("de")
    assert (en.phase, en.active, en.phase_name, de.phase_name) == (
        "supply", "p1", "Supply phase", "Nachschubphase")
    assert en.must and "Draw" in en.must[0] and "Ziehe" in de.must[0]
    g.push(Move("draw", "p1"))
    assert g.prompt("en").must == ()


def test_effects_destroy_target_and_extra_draw_lifted() -> None:
    g = position(p1_active=["XA#1"], p2_active=["XB#1"])
    own = codes(g.check(Move("tactic", "p1", ("XT#1",), target="XA#1")))
    assert own == ["tob.effect-target"]
    assert g.push(Move("tactic", "p1", ("XT#1",), target="XB#1")) == []
    assert g.state.where["XB#1"] == "shared.discard"
    g = position(p1_active=["XA#1"], p2_active=["XB#1"])
    g.state.flags["lifts"] = {"draw": ["XC#1"]}
    (v,) = g.check(Move("draw", "p1"))
    assert v.code == "tob.extra-draw" and v.lifted_by == "XC#1" and not v.blocking
    g.push(Move("draw", "p1"))
    assert codes(g.check(Move("draw", "p1"))) == ["tob.extra-draw"]


def test_a_tactic_that_destroys_the_last_creature_wins_by_beat() -> None:
    """Rulebook: "Beat: Du hast alle liegenden Wesen deines Gegners besiegt" - not only by an
    attack: a tactic that puts the opponent's last creature on the discard pile defeats it."""
    g = position(p1_active=["XA#1"], p2_active=["XB#1"], p2_passive=["XD#1"])
    assert g.push(Move("tactic", "p1", ("XT#1",), target="XB#1")) == []
    assert g.outcome() is None  # XD#1 still lies on p2's passive lane
    g = position(p1_active=["XA#1"], p2_active=["XB#1"])
    assert g.push(Move("tactic", "p1", ("XT#1",), target="XB#1")) == []
    outcome = g.outcome()
    assert outcome is not None and outcome.reason == "beat" and outcome.winner == "p1"


def test_a_creature_named_twice_attacks_once_and_counts_once() -> None:
    """Rulebook "Angriffe": "Nur Wesen auf der aktiven Lane können ein mal pro Zug angreifen"
    and "Addiere die Angriffstärken aller Angreifer": naming one creature twice does not add its
    strength twice. XA (4) alone does not defeat XB (survival 5); XA named twice is flagged."""
    g = position(p1_active=["XA#1"], p2_active=["XB#1", "XD#1"])
    twice = Move("attack", "p1", ("XA#1", "XA#1"), target="XB#1")
    (v,) = [v for v in g.check(twice) if v.blocking]
    assert v.code == "tob.attacker-twice" and v.cards == ("XA#1",)
    assert v.rule == "Trick or Beat rules, Angriffe" and v.message_de
    g.push(twice)
    assert g.state.where["XB#1"] == "p2.active"
    assert fx.attack_value(g.state, "p1", ["XA#1", "XA#1"], []) == 4


FOX = {"id": "XF", "name": "Fox", "type": "creature", "attack": 1, "survival": 9,
       "faction": "Gehirn",
       "effects": [{"kind": "combat", "lane": "passive", "do": "modify_attack", "amount": 2,
                    "target": "attackers"}]}


def test_combat_abilities_help_only_their_own_players_side() -> None:
    """Rulebook "Fähigkeiten": "Du kannst jede kämpferische Fähigkeit jedes deiner Wesen einmal
    pro Angriff einsetzen": a combat ability raises its own player's attack (Fox, +2 to the
    attackers) or its own player's attacked creature (Dove, +3 survival), never the other
    side's. XA (4) attacks XB (survival 5)."""
    setup = {"turn": 3, "active": "p1", "phase": "main", "hands": {"p1": 4, "p2": 4},
             "table": {"p1.active": ["XA#1"], "p1.passive": ["XD#1", "XF#2"],
                       "p2.active": ["XB#1"], "p2.passive": ["XF#1", "XD#2"]}}
    deck = [*DECK, "XF#1", "XF#2"]

    def attack(picks: str) -> tuple[list[str], Game]:
        g = Game.new("trick-or-beat", ("Ada", "Bo"), {"shared": deck}, "p1", 1, setup,
                     [*CARDS, FOX])
        move = Move("attack", "p1", ("XA#1",), target="XB#1", options=(("combat", picks),))
        found = codes(g.check(move))
        g.push(move)
        return found, g

    found, g = attack("XF#1/0")  # Bo's Fox would raise Ada's attack to 6
    assert found == ["tob.combat-side"] and g.state.where["XB#1"] == "p2.active"
    assert fx.attack_value(g.state, "p1", ["XA#1"], [("XF#1", 0)]) == 4
    found, g = attack("XD#1/0")  # Ada's Dove would raise Bo's defender to 8
    assert found == ["tob.combat-side"]
    assert fx.survival_value(g.state, "XB#1", [("XD#1", 0)]) == 5
    found, g = attack("XF#2/0")  # Ada's own Fox: 4 + 2 >= 5
    assert found == [] and g.state.where["XB#1"] == "shared.discard"
    found, g = attack("XF#2/0,XD#2/0")  # and Bo's own Dove: 6 < 5 + 3
    assert found == [] and g.state.where["XB#1"] == "p2.active"


RAVEN = {"id": "XR", "name": "Raven", "type": "creature", "attack": 1, "survival": 9,
         "faction": "Gehirn",
         "effects": [{"kind": "activatable", "lane": "active", "do": "return_to_hand",
                      "target": "opponent_active"}]}


def test_targeted_effects_are_offered_per_target_and_need_one() -> None:
    """Rulebook "Effekt: Gibt an, was die Karte bewirkt": Trick (XT) reads "destroy an
    opposing creature" and Raven's activatable ability "return an opposing creature on the
    active lane to the hand". Each is offered once per creature it can name; played or
    activated without naming one it does nothing, which is a violation."""
    setup = {"turn": 3, "active": "p1", "phase": "main", "hands": {"p1": 4, "p2": 4},
             "table": {"p1.active": ["XR#1"], "p2.active": ["XB#1"], "p2.passive": ["XD#1"]}}
    g = Game.new("trick-or-beat", ("Ada", "Bo"), {"shared": [*DECK, "XR#1"]}, "p1", 1, setup,
                 [*CARDS, RAVEN])
    assert g.state.resolve("XT#1", hand_zone("p1"))
    g.state.public.add("XT#1")
    tactics = {m.target for m in g.legal_moves if m.kind == "tactic" and m.cards == ("XT#1",)}
    assert tactics == {"XB#1", "XD#1"}
    activations = {m.target for m in g.legal_moves if m.kind == "activate"}
    assert activations == {"XB#1"}
    (v,) = [v for v in g.check(Move("tactic", "p1", ("XT#1",))) if v.blocking]
    assert v.code == "tob.effect-no-target" and v.cards == ("XT#1",)
    assert v.rule == "Trick or Beat rules, Fähigkeiten / Einsatz von Taktikkarten"
    assert codes(g.check(Move("activate", "p1", ("XR#1",), value=0))) == [
        "tob.effect-no-target"]
    assert g.push(Move("activate", "p1", ("XR#1",), value=0, target="XB#1")) == []
    assert g.state.where["XB#1"] == hand_zone("p2")


FEINT = {"id": "XW", "name": "Feint", "type": "tactic", "category": "other",
         "effects": [{"kind": "play", "do": "modify_attack", "amount": 3,
                      "target": "attackers"}]}


def test_a_tactics_attack_bonus_is_used_up_by_one_attack() -> None:
    """Rulebook "Einsatz von Taktikkarten": "Taktikkarten liefern einen einmaligen Effekt";
    Feint reads "Im Angriff: die Angreifer +3 Angriff". The next attack gets +3 (XB 2 + 3 >= 5),
    a later attack of the same turn does not (XB 2 < 3)."""
    setup = {"turn": 3, "active": "p1", "phase": "main", "hands": {"p1": 4, "p2": 4},
             "table": {"p1.active": ["XB#1", "XB#2"], "p2.active": ["XB#3", "XA#2"],
                       "p2.passive": ["XD#1"]}}
    g = Game.new("trick-or-beat", ("Ada", "Bo"), {"shared": [*DECK, "XW#1"]}, "p1", 1, setup,
                 [*CARDS, FEINT])
    assert g.state.resolve("XW#1", hand_zone("p1"))
    assert g.push(Move("tactic", "p1", ("XW#1",))) == []
    assert g.push(Move("attack", "p1", ("XB#1",), target="XB#3")) == []
    assert g.state.where["XB#3"] == "shared.discard"
    assert g.push(Move("attack", "p1", ("XB#2",), target="XA#2")) == []
    assert g.state.flags["last_attack"]["attack"] == 2
    assert g.state.where["XA#2"] == "p2.active"


def test_lane_limit_holds_for_each_settled_arrangement_of_the_lane_phase() -> None:
    """Rulebook "Zugablauf": "Lanephase: Ordne deine liegenden Wesen beliebig auf deinen Lanes
    an", and "Lanes": "Auf jeder Lane können maximal 2 Wesen liegen". A creature moved onto a
    full lane breaks the limit; two full lanes swapping one creature each (seen in one table
    change, option "together") stay at 2 and 2. The phase then ends as usual."""
    g = position(phase="lane", p1_active=["XA#1", "XB#1"], p1_passive=["XC#1", "XD#1"],
                 p2_active=["XA#2"])
    alone = Move("shift", "p1", ("XA#1",), to="p1.passive")
    assert codes(g.check(alone)) == ["tob.lane-full"]
    swap = [("XA#1", "p1.passive"), ("XC#1", "p1.active")]
    told = (fx.together(swap),)
    first = Move("shift", "p1", ("XA#1",), to="p1.passive", options=told)
    second = Move("shift", "p1", ("XC#1",), to="p1.active", options=told)
    assert g.push(first) == [] and g.push(second) == []
    assert g.push(Move("next-phase", "p1")) == [] and g.phase == "main"


def test_a_third_creature_on_a_full_lane_in_the_lane_phase_breaks_the_limit() -> None:
    """"Auf jeder Lane können maximal 2 Wesen liegen": the lane phase's free arrangement does
    not lift it. The move is recorded as seen and the phase still ends (the limit was flagged
    where it was broken), so the main phase's moves are not out of phase."""
    g = position(phase="lane", p1_active=["XA#1", "XB#1"], p1_passive=["XC#1"],
                 p2_active=["XA#2"])
    v = [v for v in g.push(Move("shift", "p1", ("XC#1",), to="p1.active")) if v.blocking]
    assert [x.code for x in v] == ["tob.lane-full"] and "Limit 2" in v[0].message_de
    assert g.state.count("p1.active") == 3
    assert codes(g.check(Move("next-phase", "p1"))) == []


SWAP_SCRIPT = """\
title: swap creatures between two full lanes in the lane phase
game: trick-or-beat
players: [Ada, Bo]
first: p1
seed: 23
decks:
  shared: [TOB-036, TOB-003, TOB-038, TOB-009, TOB-010, TOB-011, TOB-013, TOB-015, TOB-017,
           TOB-018, TOB-019, TOB-021]
setup:
  turn: 3
  active: p1
  phase: lane
  table:
    p1.active: [TOB-012, TOB-014]
    p1.passive: [TOB-029, TOB-040]
    p2.active: [TOB-016]
  hands: {p1: 4, p2: 4}
steps:
  - place: {TOB-012: p1.passive, TOB-029: p1.active}
    note: both lanes full, one pair swapped in one table change
    expect: {legal: true, phase: lane}
  - phase: true
    expect: {legal: true, phase: main}
"""


def test_a_swap_between_full_lanes_seen_at_once_referees_clean(tmp_path: Path) -> None:
    """The same swap as a table script, both creatures moved in one table change (as a camera
    sees it): `companion referee` finds every move legal."""
    path = tmp_path / "swap.yaml"
    path.write_text(SWAP_SCRIPT)
    report = referee_script(str(path))
    assert report.failures == []
