"""Fire Emblem Cipher rules, one rulebook rule per test, with the rulebook's worked examples."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.api import Move, Violation
from companion.engine.game import Game
from companion.engine.state import hand_zone
from companion.games.fire_emblem_cipher import effects as fx

# Cards of the rulebook's worked examples that the B01 reference set lacks (made up stats
# where the rulebook gives none; the example's numbers where it does).
CARDS: list[dict[str, Any]] = [
    {"id": "FX-IKE", "name": "Ike", "title": "Young Lion", "type": "unit", "cost": 3,
     "attack": 70, "support": 20, "range": [1], "symbols": ["Blue"]},
    {"id": "FX-BYL", "name": "Byleth", "title": "Ashen Demon", "type": "unit", "cost": 3,
     "attack": 70, "support": 20, "range": [1], "symbols": ["Red"]},
    {"id": "FX-VER", "name": "Veronica", "title": "Princess of Embla", "type": "unit", "cost": 2,
     "attack": 40, "support": 30, "range": [1, 2], "symbols": []},
    {"id": "FX-ROY", "name": "Roy", "title": "Young Lion of Pherae", "type": "unit", "cost": 2,
     "attack": 50, "support": 20, "range": [1], "symbols": ["Red"]},
    {"id": "FX-TWO", "name": "Anna", "title": "Two Colours", "type": "unit", "cost": 1,
     "attack": 30, "support": 10, "range": [1], "symbols": ["Red", "Blue"]},
]

MARTH, MARTH2, CAEDA, CAEDA4, CAEDA2 = "B01-003", "B01-002", "B01-006", "B01-004", "B01-005"
ABEL, CAIN, GORDIN, WRYS, TIKI = "B01-010", "B01-008", "B01-014", "B01-015", "B01-047"
CHROM, OWAIN, GEROME = "B01-053", "B01-093", "B01-090"

FILLER = ["B01-031", "B01-033", "B01-037", "B01-040", "B01-042", "B01-044", "B01-045",
          "B01-049"]


def uid(card: str, copy: int = 1) -> str:
    return f"{card}#{copy}"


def position(
    table: dict[str, list[str]],
    phase: str = "deploy",
    active: str = "p1",
    turn: int = 3,
    hands: dict[str, int] | None = None,
    decks: dict[str, list[str]] | None = None,
    face_down: list[str] | None = None,
    tapped: list[str] | None = None,
    on: dict[str, str] | None = None,
    cards: list[dict[str, Any]] | None = None,
) -> Game:
    """A mid-game position. `table` maps zones to card uids (the lord first in each front
    row); decks default to filler cards; hands are drawn from the decks."""
    decks = decks or {}
    full = {
        "p1": [*decks.get("p1", []), *(uid(c, 1) for c in FILLER)],
        "p2": [*decks.get("p2", []), *(uid(c, 2) for c in FILLER)],
    }
    setup: dict[str, Any] = {
        "turn": turn, "active": active, "phase": phase,
        "table": {z: list(reversed(cards)) for z, cards in table.items()},
        "hands": hands or {"p1": 3, "p2": 3},
        "face_down": face_down or [], "tapped": tapped or [], "on": on or {},
    }
    return Game.new("fire-emblem-cipher", ("Ada", "Bo"), full, "p1", 5, setup, cards or CARDS)


def codes(violations: list[Violation]) -> list[str]:
    return [v.code for v in violations if v.blocking]


def deploy(card: str, to: str = "p1.front", player: str = "p1") -> Move:
    return Move("deploy", player, (card,), to=to)


# ----------------------------------------------------------------------------- deployment

def test_deployment_example_1_face_down_bonds_take_the_face_up_symbol() -> None:
    """3 bonds, 2 face down and 1 face up Red: three cost-1 Red units, total cost 3."""
    bonds = [uid("B01-029"), uid("B01-036"), uid(ABEL)]
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": bonds}, face_down=bonds[:2],
                 decks={"p1": [uid(CAEDA), uid(CAIN), uid(GORDIN), uid(WRYS)]},
                 hands={"p1": 4, "p2": 3})
    for card in (CAEDA, CAIN, GORDIN):
        assert g.push(deploy(uid(card), "p1.back")) == []
    assert fx.bonds_left(g.state, "p1") == 0
    assert "fe.bonds-exceeded" in codes(g.check(deploy(uid(WRYS), "p1.back")))


def test_deployment_example_2_all_bonds_face_down() -> None:
    """4 face-down bonds: Roy (a symbol) cannot be deployed, colourless Veronica can."""
    bonds = [uid(c) for c in ("B01-029", "B01-036", "B01-039", "B01-043")]
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": bonds}, face_down=bonds,
                 decks={"p1": [uid("FX-ROY"), uid("FX-VER")]})
    roy = codes(g.check(deploy(uid("FX-ROY"))))
    assert roy == ["fe.symbol-missing"]
    assert g.push(deploy(uid("FX-VER"))) == []
    assert fx.bonds_left(g.state, "p1") == 2


def test_two_symbols_need_both_and_colourless_needs_count_only() -> None:
    bonds = [uid(ABEL), uid(OWAIN)]
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": bonds[:1]},
                 decks={"p1": [uid("FX-TWO")]})
    assert codes(g.check(deploy(uid("FX-TWO")))) == ["fe.symbol-missing"]
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": bonds}, decks={"p1": [uid("FX-TWO")]})
    assert codes(g.check(deploy(uid("FX-TWO")))) == []


@settings(max_examples=40, deadline=None)
@given(up=st.integers(0, 3), down=st.integers(0, 3), cost=st.integers(1, 4))
def test_deploy_legal_iff_cost_fits_bonds_and_symbol_is_face_up(
    up: int, down: int, cost: int
) -> None:
    reds = [uid(c) for c in ("B01-029", "B01-036", "B01-039")][:up]
    downs = [uid(c) for c in ("B01-043", "B01-019", "B01-020")][:down]
    card = {1: CAEDA, 2: CAEDA2, 3: "B01-007", 4: CAEDA4}[cost]
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": reds + downs}, face_down=downs,
                 decks={"p1": [uid(card)]})
    legal = not codes(g.check(deploy(uid(card), "p1.back")))
    assert legal == (cost <= up + down and up > 0)


def test_one_card_per_character_name_on_own_field() -> None:
    g = position({"p1.front": [uid(MARTH), uid(CAEDA)], "p1.bonds": [uid(ABEL), uid(CAIN)],
                  "p2.front": [uid(CHROM)]}, decks={"p1": [uid(CAEDA2)]})
    assert "fe.same-name" in codes(g.check(deploy(uid(CAEDA2), "p1.back")))
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": [uid(ABEL), uid(CAIN)],
                  "p2.front": [uid(CHROM), uid(CAEDA, 3)]}, decks={"p1": [uid(CAEDA2)]})
    assert codes(g.check(deploy(uid(CAEDA2), "p1.back"))) == []


def test_deploy_only_in_deploy_phase_own_turn_own_rows() -> None:
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": [uid(ABEL)]}, phase="action",
                 decks={"p1": [uid(CAEDA)]})
    assert "fe.wrong-phase" in codes(g.check(deploy(uid(CAEDA))))
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": [uid(ABEL)]}, decks={"p1": [uid(CAEDA)]})
    assert "fe.bad-zone" in codes(g.check(deploy(uid(CAEDA), "p2.front")))
    assert "fe.not-in-hand" in codes(g.check(deploy(uid(MARTH), "p1.back")))


# ----------------------------------------------------------------------------- level-up, CC

def test_caeda_class_change_4_3_needs_three_bonds_and_draws_a_bonus_card() -> None:
    bonds = [uid(ABEL), uid(CAIN), uid("B01-029")]
    g = position({"p1.front": [uid(MARTH), uid(CAEDA)], "p1.bonds": bonds},
                 tapped=[uid(CAEDA)], decks={"p1": [uid(CAEDA4)]})
    level = Move("level-up", "p1", (uid(CAEDA4),), target=uid(CAEDA))
    change = Move("class-change", "p1", (uid(CAEDA4),), target=uid(CAEDA))
    assert codes(g.check(level)) == ["fe.bonds-exceeded"]
    hand = g.state.count(hand_zone("p1"))
    assert g.push(change) == []
    assert g.state.attached[uid(CAEDA4)] == uid(CAEDA)
    assert fx.units_of(g.state, "p1") == [uid(MARTH), uid(CAEDA4)]
    assert uid(CAEDA4) in g.state.tapped  # the unit keeps its tapped state
    assert codes(g.check(Move("next-phase", "p1"))) == ["fe.must-draw"]
    assert g.push(Move("draw", "p1")) == []
    assert g.state.count(hand_zone("p1")) == hand  # one card laid, one bonus card drawn
    assert codes(g.check(Move("draw", "p1"))) == ["fe.extra-draw"]


def test_level_up_pays_deploy_cost_and_needs_same_name() -> None:
    g = position({"p1.front": [uid(MARTH), uid(CAEDA)], "p1.bonds": [uid(ABEL), uid(CAIN)]},
                 decks={"p1": [uid(MARTH2)]})
    wrong = Move("level-up", "p1", (uid(MARTH2),), target=uid(CAEDA))
    assert "fe.levelup-name" in codes(g.check(wrong))
    no_cc = Move("class-change", "p1", (uid(MARTH2),), target=uid(MARTH))
    assert "fe.no-class-change" in codes(g.check(no_cc))
    assert g.push(Move("level-up", "p1", (uid(MARTH2),), target=uid(MARTH))) == []
    assert fx.lord_of(g.state, "p1") == uid(MARTH2)  # the lord is the whole stack
    assert fx.bonds_left(g.state, "p1") == 0


# ----------------------------------------------------------------------------- bonds, start

def test_one_bond_per_turn_in_the_bond_phase() -> None:
    g = position({"p1.front": [uid(MARTH)]}, phase="bond", decks={"p1": [uid(ABEL), uid(CAIN)]})
    assert g.push(Move("bond", "p1", (uid(ABEL),), value="up")) == []
    assert codes(g.check(Move("bond", "p1", ("?",), value="down"))) == ["fe.bond-once"]
    g = position({"p1.front": [uid(MARTH)]}, phase="deploy", decks={"p1": [uid(ABEL)]})
    assert codes(g.check(Move("bond", "p1", (uid(ABEL),), value="up"))) == ["fe.wrong-phase"]


def test_turn_start_untaps_draws_and_returns_used_bonds() -> None:
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": [uid(ABEL)], "p2.front": [uid(CHROM)],
                  "p2.bonds": [uid(OWAIN)]}, phase="end", tapped=[uid(OWAIN), uid(CHROM)])
    g.push(Move("pass", "p1"))
    assert g.active == "p2" and g.phase == "start"
    assert g.state.tapped == set()
    assert codes(g.check(Move("next-phase", "p2"))) == ["fe.must-draw"]
    assert g.push(Move("draw", "p2")) == []
    assert codes(g.check(Move("draw", "p2"))) == ["fe.extra-draw"]
    assert g.push(Move("next-phase", "p2")) == [] and g.phase == "bond"


# ----------------------------------------------------------------------------- action

def test_moving_taps_and_tapped_units_neither_move_nor_attack() -> None:
    g = position({"p1.front": [uid(MARTH), uid(CAEDA)], "p2.front": [uid(CHROM)]},
                 phase="action")
    assert g.push(Move("move", "p1", (uid(CAEDA),), to="p1.back")) == []
    assert g.state.where[uid(CAEDA)] == "p1.back" and uid(CAEDA) in g.state.tapped
    assert codes(g.check(Move("move", "p1", (uid(CAEDA),), to="p1.front"))) == ["fe.unit-tapped"]
    attack = Move("attack", "p1", (uid(CAEDA),), target=uid(CHROM))
    assert "fe.unit-tapped" in codes(g.check(attack))
    same = Move("move", "p1", (uid(MARTH),), to="p1.front")
    assert codes(g.check(same)) == ["fe.same-row"]


def test_range_counts_rows_between_attacker_and_target() -> None:
    table = {"p1.front": [uid(MARTH)], "p1.back": [uid(GORDIN), uid(CAEDA), uid(WRYS)],
             "p2.front": [uid(CHROM)], "p2.back": [uid(GEROME)]}
    g = position(table, phase="action")
    assert fx.distance("p1.front", "p2.front") == 1
    assert fx.distance("p1.back", "p2.front") == fx.distance("p1.front", "p2.back") == 2
    assert fx.distance("p1.back", "p2.back") == 3
    ok = Move("attack", "p1", (uid(GORDIN),), target=uid(CHROM))  # bow, range 2
    assert codes(g.check(ok)) == []
    far = Move("attack", "p1", (uid(GORDIN),), target=uid(GEROME))  # distance 3
    assert codes(g.check(far)) == ["fe.out-of-range"]
    sword = Move("attack", "p1", (uid(CAEDA),), target=uid(CHROM))  # range 1 from the back
    assert codes(g.check(sword)) == ["fe.out-of-range"]
    staff = Move("attack", "p1", (uid(WRYS),), target=uid(CHROM))
    assert codes(g.check(staff)) == ["fe.no-range"]
    assert codes(g.check(Move("attack", "p1", (uid(MARTH),), target=uid(CHROM)))) == []


BATTLEFIELD = ("p1.back", "p1.front", "p2.front", "p2.back")
"""The rows from p1's side to p2's: the rulebook's range counts the rows ahead of the attacker
("Gegner 1, 2 oder 3 Reihen vor sich")."""


@settings(max_examples=40, deadline=None)
@given(attacker=st.sampled_from(["front", "back"]), target=st.sampled_from(["front", "back"]),
       reach=st.lists(st.integers(1, 3), min_size=1, max_size=3, unique=True))
def test_an_attack_reaches_the_rows_its_range_names(attacker: str, target: str,
                                                    reach: list[int]) -> None:
    rows_ahead = BATTLEFIELD.index(f"p2.{target}") - BATTLEFIELD.index(f"p1.{attacker}")
    archer = {"id": "FX-RNG", "name": "Schütze", "title": "t", "type": "unit", "cost": 1,
              "attack": 50, "support": 10, "range": sorted(reach), "symbols": ["Red"]}
    table = {"p1.front": [uid(MARTH)], "p2.front": [uid(CHROM)]}
    table.setdefault(f"p1.{attacker}", []).append(uid("FX-RNG"))
    table.setdefault(f"p2.{target}", []).append(uid(GEROME))
    g = position(table, phase="action", cards=[*CARDS, archer])
    found = codes(g.check(Move("attack", "p1", (uid("FX-RNG"),), target=uid(GEROME))))
    assert ("fe.out-of-range" in found) == (rows_ahead not in reach), (rows_ahead, found)


# ----------------------------------------------------------------------------- combat

def _battle(decks: dict[str, list[str]]) -> Game:
    table = {"p1.front": [uid(MARTH), uid("FX-IKE")], "p2.front": [uid(CHROM), uid("FX-BYL")]}
    return position(table, phase="action", decks=decks)


def test_ike_70_and_veronica_30_beat_byleth_70_and_tiki_20() -> None:
    g = _battle(decks={"p1": [uid("FX-VER")], "p2": [uid(TIKI)]})
    assert g.push(Move("attack", "p1", (uid("FX-IKE"),), target=uid("FX-BYL"))) == []
    assert uid("FX-IKE") in g.state.tapped
    assert codes(g.check(Move("end-combat", "p1"))) == ["fe.support-missing"]
    assert g.push(Move("support", "p1", (uid("FX-VER"),))) == []
    assert g.push(Move("support", "p2", (uid(TIKI),))) == []
    assert g.ruleset.expect_value(g.state, "attack") == 100
    assert g.ruleset.expect_value(g.state, "support") == {"p1": 30, "p2": 20}
    assert g.push(Move("end-combat", "p1")) == []
    assert g.state.where[uid("FX-BYL")] == "p2.retreat"
    assert g.state.where[uid("FX-VER")] == "p1.retreat" and g.state.where[uid(TIKI)] == "p2.retreat"
    assert g.ruleset.expect_value(g.state, "defeated") == [uid("FX-BYL")]


def test_support_with_the_same_name_fails_and_retreats_at_once() -> None:
    g = _battle(decks={"p1": [uid("FX-IKE", 2)], "p2": [uid(TIKI)]})
    g.push(Move("attack", "p1", (uid("FX-IKE"),), target=uid("FX-BYL")))
    g.push(Move("support", "p1", (uid("FX-IKE", 2),)))
    assert g.state.where[uid("FX-IKE", 2)] == "p1.retreat"
    g.push(Move("support", "p2", (uid(TIKI),)))
    g.push(Move("end-combat", "p1"))
    assert g.state.where[uid("FX-BYL")] == "p2.front"  # 70 against 90: nothing happens


def test_tie_goes_to_the_attacker() -> None:
    g = _battle(decks={"p1": [uid(TIKI)], "p2": [uid(TIKI, 2)]})
    g.push(Move("attack", "p1", (uid("FX-IKE"),), target=uid("FX-BYL")))
    g.push(Move("support", "p1", (uid(TIKI),)))
    g.push(Move("support", "p2", (uid(TIKI, 2),)))
    g.push(Move("end-combat", "p1"))
    assert g.state.where[uid("FX-BYL")] == "p2.retreat"


def test_critical_hit_doubles_and_evade_cancels() -> None:
    g = _battle(decks={"p1": [uid("FX-VER"), uid("FX-IKE", 2)],
                       "p2": [uid(TIKI), uid("FX-BYL", 2), uid(GEROME)]})
    g.push(Move("attack", "p1", (uid("FX-IKE"),), target=uid("FX-BYL")))
    crit = Move("critical", "p1", (uid("FX-IKE", 2),))
    assert codes(g.check(crit)) == ["fe.support-missing"]
    g.push(Move("support", "p1", (uid("FX-VER"),)))
    g.push(Move("support", "p2", (uid(GEROME),)))
    assert "fe.critical-name" in codes(g.check(Move("critical", "p1", (uid(TIKI),))))
    assert codes(g.check(Move("critical", "p2", (uid("FX-BYL", 2),)))) == [
        "fe.critical-defender"]
    assert g.push(crit) == []
    assert g.ruleset.expect_value(g.state, "attack") == 200
    assert "fe.critical-twice" in codes(g.check(crit))
    assert g.push(Move("evade", "p2", (uid("FX-BYL", 2),))) == []
    assert fx.combat(g.state) is None
    assert g.state.where[uid("FX-BYL")] == "p2.front"
    assert g.state.where[uid("FX-BYL", 2)] == "p2.retreat"


def test_defeated_lord_takes_an_orb_and_loses_with_none_left() -> None:
    table = {"p1.front": [uid(MARTH), uid("FX-IKE")], "p2.front": [uid(CHROM)],
             "p2.orbs": [uid(OWAIN)]}
    g = position(table, phase="action")
    hand = g.state.count(hand_zone("p2"))
    g.push(Move("attack", "p1", (uid("FX-IKE"),), target=uid(CHROM)))
    g.push(Move("support", "p1"))
    g.push(Move("support", "p2"))
    g.state.flags["combat"]["support_power"] = {"p1": 0, "p2": 0}  # supports aside
    g.push(Move("end-combat", "p1"))
    assert g.state.where[uid(CHROM)] == "p2.front"
    assert g.state.count("p2.orbs") == 0 and g.state.count(hand_zone("p2")) == hand + 1
    assert g.push(Move("orb-to-hand", "p2")) == []  # the camera saw the orb go
    assert codes(g.check(Move("orb-to-hand", "p2"))) == ["fe.orb-unexplained"]
    g.push(Move("attack", "p1", (uid(MARTH),), target=uid(CHROM)))
    g.state.flags["combat"]["supports"] = {"p1": None, "p2": None}
    g.push(Move("end-combat", "p1"))
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == "p1" and outcome.reason == "lord"


def test_first_turn_no_draw_and_no_attack() -> None:
    g = Game.new("fire-emblem-cipher", ("A", "B"), seed=3)
    rng = random.Random(3)
    while g.phase == "setup":
        g.push(rng.choice(g.legal_moves))
    assert g.state.turn == 1 and g.active == "p1" and g.phase == "start"
    assert codes(g.check(Move("draw", "p1"))) == ["fe.first-turn-draw"]
    for _ in range(3):
        g.push(Move("next-phase", "p1"))
    assert g.phase == "action"
    lord = fx.lord_of(g.state, "p1")
    target = fx.lord_of(g.state, "p2")
    assert lord and target
    assert "fe.first-turn-attack" in codes(g.check(Move("attack", "p1", (lord,), target=target)))


# ----------------------------------------------------------------------------- preparation

def test_preparation_lord_six_cards_one_mulligan_five_orbs() -> None:
    g = Game.new("fire-emblem-cipher", ("A", "B"), seed=4)
    assert g.phase == "setup"
    assert codes(g.check(Move("deal", "p1", value=6))) == ["fe.setup-order"]
    bad = Move("choose-lord", "p1", (uid(MARTH2),), to="p1.front")
    assert codes(g.check(bad)) == ["fe.lord-cost"]
    back = Move("choose-lord", "p1", (uid(MARTH),), to="p1.back")
    assert codes(g.check(back)) == ["fe.lord-zone"]
    for p, lord in (("p1", MARTH), ("p2", CHROM)):
        assert g.push(Move("choose-lord", p, (uid(lord),), to=f"{p}.front")) == []
        assert codes(g.check(Move("deal", p, value=7))) == ["fe.deal-too-many"]
        assert g.push(Move("deal", p, value=6)) == []
    assert g.push(Move("mulligan", "p1")) == []
    assert codes(g.check(Move("mulligan", "p1"))) == ["fe.mulligan-once"]
    assert g.state.count("p1.hand") == 6
    assert "fe.setup-order" in codes(g.check(Move("reveal-lord", "p1", (uid(MARTH),))))
    for p in ("p1", "p2"):
        assert g.push(Move("orbs", p, value=5)) == []
    assert codes(g.check(Move("mulligan", "p2"))) == ["fe.mulligan-late"]
    g.push(Move("reveal-lord", "p1", (uid(MARTH),)))
    assert g.phase == "setup"
    g.push(Move("reveal-lord", "p2", (uid(CHROM),)))
    assert (g.phase, g.active, g.state.turn) == ("start", "p1", 1)
    assert g.scores()["p1"].value == 5 and g.state.public >= {uid(MARTH), uid(CHROM)}


# ----------------------------------------------------------------------------- forced march

def test_forced_march_for_the_defender_at_once_and_at_turn_start() -> None:
    table = {"p1.front": [uid(MARTH), uid("FX-IKE")], "p1.back": [uid(TIKI)],
             "p2.front": [uid(CHROM, 1), uid(CAEDA)], "p2.back": [uid(GEROME), uid(OWAIN)]}
    g = position(table, phase="action")
    g.state.flags["lord"]["p2"] = uid(GEROME)  # a lord in the back row, for this test
    g.push(Move("attack", "p1", (uid("FX-IKE"),), target=uid(CAEDA)))
    g.state.flags["combat"]["supports"] = {"p1": None, "p2": None}
    g.push(Move("end-combat", "p1"))
    assert fx.units_in(g.state, "p2.front") == [uid(CHROM)]  # not empty yet
    g.state.flags["lord"]["p2"] = uid(GEROME)
    g.push(Move("attack", "p1", (uid(MARTH),), target=uid(CHROM)))
    g.state.flags["combat"]["supports"] = {"p1": None, "p2": None}
    g.push(Move("end-combat", "p1"))
    assert g.state.where[uid(CHROM)] == "p2.retreat"
    assert sorted(fx.units_in(g.state, "p2.front")) == sorted([uid(GEROME), uid(OWAIN)])
    # the active player's own empty front row marches at the start of the opponent's turn
    g2 = position({"p1.front": [uid(MARTH)], "p1.back": [uid(TIKI)], "p2.front": [uid(CHROM)]},
                  phase="action")
    g2.push(Move("move", "p1", (uid(MARTH),), to="p1.back"))
    assert fx.units_in(g2.state, "p1.front") == []
    g2.push(Move("pass", "p1"))
    assert sorted(fx.units_in(g2.state, "p1.front")) == sorted([uid(MARTH), uid(TIKI)])


def test_random_games_never_break_invariants() -> None:
    for seed in (11, 12):
        g = Game.new("fire-emblem-cipher", ("A", "B"), seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            legal = g.legal_moves
            if not legal:
                break
            g.push(rng.choice(legal), "automatic")  # legal by the rulebook: tests/rulebook
            assert g.ruleset.invariant_errors(g.state, g.card_total) == []


def test_a_missing_symbol_is_named_in_the_language_of_the_message() -> None:
    """"Symbol Red" in a German sentence was two languages at once."""
    bonds = [uid(ABEL)]
    g = position({"p1.front": [uid(MARTH)], "p1.bonds": bonds}, decks={"p1": [uid("FX-TWO")]})
    (missing,) = [v for v in g.check(deploy(uid("FX-TWO"))) if v.code == "fe.symbol-missing"]
    english = {"Red", "Blue", "Yellow", "Purple", "Green", "White", "Black", "Brown"}
    assert any(word in missing.message_en for word in english)
    assert not any(f"Symbol {word}" in missing.message_de for word in english), \
        missing.message_de
    assert any(f"Symbol {word}" in missing.message_de
               for word in ("Rot", "Blau", "Gelb", "Lila", "Grün", "Weiß", "Schwarz", "Braun"))


def test_a_support_comes_from_the_deck_not_from_the_field() -> None:
    """Rulebook, "Unterstützung": "Beide Spieler ziehen die oberste Karte ihres Decks und
    platzieren sie in ihrem Unterstützerbereich": Ada's lord, seen on her front row, is no
    support; the deck's card is. (A card in the hand may be: the camera does not see which
    unseen card is where.)"""
    g = _battle(decks={"p1": [uid("FX-VER")], "p2": [uid(TIKI)]})
    g.push(Move("attack", "p1", (uid("FX-IKE"),), target=uid("FX-BYL")))
    assert codes(g.check(Move("support", "p1", (uid(MARTH),)))) == ["fe.unexplained"]
    assert codes(g.check(Move("support", "p1", (uid("FX-VER"),)))) == []
