"""A game's move table (companion.engine.moves) and the shared effect words
(companion.engine.effect_words) on a hand-built position.

The expected results are read off the table and the position as declared here (which kind
lives in which phase, which card lies where), not computed the table's way.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.api import Move, MoveFormatError, Violation
from companion.engine.cards import CardFacts, Catalog
from companion.engine.effect_words import apply_tap, apply_untap, draw_cards
from companion.engine.moves import MoveRule, MoveTable, MoveTableError
from companion.engine.rule_helpers import RuleChecks
from companion.engine.state import GameState


def violate(code: str, cards: tuple[str, ...] = (), zones: tuple[str, ...] = (),
            **values: Any) -> Violation:
    """A stand-in for a game's catalog: the code and the values it was given, as text."""
    text = ",".join(f"{k}={values[k]}" for k in sorted(values))
    return Violation(code=code, message_en=text, message_de=text, rule="r", cards=cards,
                     zones=zones)


CHECKS = RuleChecks(violate, wrong_phase="t.wrong-phase")


class Rules:
    """A game's methods as a table names them: each records that it ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def check_summon(self, state: GameState, move: Move) -> list[Violation]:
        self.ran.append("check summon")
        return []

    def apply_summon(self, state: GameState, move: Move) -> None:
        self.ran.append("apply summon")

    def check_deal(self, state: GameState, move: Move) -> list[Violation]:
        self.ran.append("check deal")
        return []

    def after_setup(self, state: GameState, move: Move) -> list[Violation]:
        return [violate("t.setup-only", action=move.kind)]


TABLE: MoveTable[Rules] = MoveTable(
    MoveRule("summon", Rules.check_summon, Rules.apply_summon,
             "{player} summons {cards}", "{player} beschwört {cards}", phases=("main",)),
    MoveRule("deal", Rules.check_deal, Rules.apply_summon, "{player} is dealt",
             "{player} bekommt", phases=("setup",), off_phase=Rules.after_setup),
    MoveRule("tap", Rules.check_summon, apply_tap, "{player} taps {cards}",
             "{player} tappt {cards}"),
    checks=CHECKS,
)


def position(phase: str = "main") -> GameState:
    """The deck holds C#1 then D#1 (D#1 on top, hidden); E#1 lies face up on p1's table."""
    catalog = Catalog(CardFacts(c, c, "unit") for c in "CDE")
    state = GameState(game="toy", catalog=catalog, phase=phase, active="p1")
    state.add_zone("p1.deck", hidden=True)
    state.add_zone("p1.hand", hidden=True)
    state.add_zone("p1.table")
    for uid in ("C#1", "D#1"):
        state.register(uid, "p1.deck", "p1")
    state.register("E#1", "p1.table", "p1")
    state.public.add("E#1")
    return state


def test_the_table_lists_kinds_and_texts_in_declaration_order() -> None:
    assert TABLE.kinds == ("summon", "deal", "tap")
    assert TABLE.texts["summon"] == ("{player} summons {cards}", "{player} beschwört {cards}")
    assert "deal" in TABLE and "attack" not in TABLE


def test_a_kind_in_its_phase_runs_its_own_check_and_apply() -> None:
    rules = Rules()
    move = Move("summon", "p1", ("E#1",))
    assert TABLE.check(rules, position("main"), move) == []
    TABLE.apply(rules, position("main"), move)
    assert rules.ran == ["check summon", "apply summon"]


def test_a_kind_outside_its_phases_is_the_games_wrong_phase_without_its_check() -> None:
    rules = Rules()
    found = TABLE.check(rules, position("setup"), Move("summon", "p1", ("E#1",)))
    assert [(v.code, v.message_en) for v in found] == [("t.wrong-phase",
                                                        "action=summon,phase=setup")]
    assert rules.ran == []


def test_off_phase_says_what_such_a_move_is_instead() -> None:
    rules = Rules()
    found = TABLE.check(rules, position("main"), Move("deal", "p1"))
    assert [(v.code, v.message_en) for v in found] == [("t.setup-only", "action=deal")]
    assert rules.ran == []


def test_a_kind_the_game_does_not_have_is_a_move_format_error() -> None:
    with pytest.raises(MoveFormatError, match=r"no move 'attack'.*deal, summon, tap"):
        TABLE.check(Rules(), position(), Move("attack", "p1"))
    with pytest.raises(MoveFormatError):
        TABLE.apply(Rules(), position(), Move("attack", "p1"))


@pytest.mark.parametrize(("rules", "problem"), [
    ((MoveRule("a", Rules.check_summon, Rules.apply_summon, "x", "y"),
      MoveRule("a", Rules.check_deal, Rules.apply_summon, "x", "y")), "declared twice"),
    ((MoveRule("a", Rules.check_summon, Rules.apply_summon, "x", " "),), "German"),
    ((MoveRule("a", Rules.check_summon, Rules.apply_summon, "x", "y", phases=("main",)),),
     "no wrong-phase"),
])
def test_a_malformed_table_fails_when_it_is_declared(rules: tuple[MoveRule[Rules], ...],
                                                      problem: str) -> None:
    with pytest.raises(MoveTableError, match=problem):
        MoveTable(*rules)


def test_draw_cards_takes_the_top_cards_until_the_pile_is_empty() -> None:
    state = position()
    assert draw_cards(state, "p1.deck", "p1.hand", 3) == ["D#1", "C#1"]
    assert state.cards_in("p1.deck") == [] and set(state.cards_in("p1.hand")) == {"C#1", "D#1"}
    assert "D#1" not in state.public
    assert draw_cards(state, "p1.deck", "p1.hand", 1) == []


def test_draw_cards_face_up_makes_them_public() -> None:
    state = position()
    assert draw_cards(state, "p1.deck", "p1.table", 1, face_up=True) == ["D#1"]
    assert "D#1" in state.public and state.where["D#1"] == "p1.table"


def test_tap_and_untap_turn_a_card_in_the_game_only() -> None:
    state = position()
    apply_tap(None, state, Move("tap", "p1", ("E#1",)))
    apply_tap(None, state, Move("tap", "p1", ("Z#9",)))
    assert state.tapped == {"E#1"}
    apply_untap(None, state, Move("untap", "p1", ("E#1",)))
    assert state.tapped == set()
