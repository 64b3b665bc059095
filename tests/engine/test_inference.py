"""Phase and turn inference: nobody presses "next phase", and a press never counts twice.

Each case is a small table script (the physical truth) turned into what a camera sees; the
expected outcome comes from the rulebooks: a summon belongs to the Kampfphase, the start
phase ends only after the draw and the roll, a second draw is a second draw.
"""

from __future__ import annotations

import random
import textwrap
from dataclasses import fields
from typing import Any

import pytest

from companion.engine.api import GameOverError, LogEntry, Move
from companion.engine.game import Game
from companion.engine.inference import Inference
from companion.engine.interpreter import Interpreter, Observation
from companion.engine.state import GameState
from companion.games import RULESETS
from companion.referee.script import config_from_script
from companion.sim.script import parse_script
from companion.sim.table_state import snapshots

CC_HEAD = """\
game: creature-crush
players: [Ada, Bo]
first: p1
seed: 23
decks:
  p1: [CC-001, CC-006, CC-026, CC-046, CC-031, CC-016, CC-036, CC-083, CC-082, CC-051]
  p2: [CC-003, CC-008, CC-013, CC-023, CC-028, CC-087, CC-033, CC-038, CC-043, CC-048]
setup:
  turn: 3
  active: p1
  phase: start
  hands: {p1: 5, p2: 4}
steps:
"""
TOB_HEAD = """\
game: trick-or-beat
players: [Ada, Bo]
first: p1
seed: 23
decks:
  shared: [TOB-036, TOB-003, TOB-038, TOB-009, TOB-010, TOB-011, TOB-013, TOB-015, TOB-017,
           TOB-018, TOB-020, TOB-022]
setup:
  turn: 2
  active: p1
  phase: supply
  table:
    p1.active: [TOB-012]
    p2.active: [TOB-014]
  hands: {p1: 4, p2: 4}
steps:
"""


class Table:
    """A game followed from a script's snapshots, one step at a time."""

    def __init__(self, head: str, steps: str) -> None:
        self.script = parse_script(head + textwrap.indent(textwrap.dedent(steps), "  "), "t")
        self.shots = snapshots(self.script)
        self.game = Game(config_from_script(self.script))
        self.interp = Interpreter(self.game, self.shots[0])
        self.next = 1

    def see(self, hints: dict[str, Any] | None = None) -> Observation:
        seen = self.interp.observe(self.shots[self.next], "camera", hints)
        self.next += 1
        return seen

    def where(self) -> tuple[int, str, str]:
        return self.game.state.turn, self.game.active, self.game.phase


def kinds(seen: Observation) -> list[tuple[str, str]]:
    return [(e.source, e.move.kind) for e in seen.entries]


SUMMON_AFTER_START = """\
- draw: {p1: 1}
  dice: {p1.w1: 1, p1.w2: 2, p1.w3: 4}
- place: {CC-026: p1.B2}
  burn: [p1.w3]
- place: {CC-006: p1.B3}
  burn: [p1.w2]
"""


def test_a_summon_after_the_start_duties_ends_the_start_phase() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START)
    assert all(e.legal for e in table.see().entries)
    seen = table.see()
    assert ("automatic", "next-phase") in kinds(seen) and ("camera", "summon") in kinds(seen)
    assert all(e.legal for e in seen.entries) and table.game.phase == "kampf"
    inferred = next(e for e in seen.entries if e.source == "automatic")
    assert "Start" in inferred.reason_en and "summons CC-026#1" in inferred.reason_en
    assert "Startphase" in inferred.reason_de and "beschwört" in inferred.reason_de


def test_before_the_roll_the_start_phase_cannot_have_ended() -> None:
    table = Table(CC_HEAD, "- draw: {p1: 1}\n- place: {CC-026: p1.B2}\n")
    table.see()
    seen = table.see()
    assert [e.source for e in seen.entries] == ["camera"]
    assert {v.code for v in seen.violations} >= {"cc.wrong-phase"}
    assert table.game.phase == "start"


def test_a_second_draw_stays_a_second_draw() -> None:
    table = Table(CC_HEAD, "- draw: {p1: 1}\n  dice: {p1.w1: 1, p1.w2: 2, p1.w3: 4}\n"
                           "- draw: {p1: 1}\n")
    table.see()
    seen = table.see()
    assert kinds(seen) == [("camera", "draw")]
    assert [v.code for v in seen.violations] == ["cc.draw-once"]


def test_summoning_in_the_opponents_turn_stays_illegal() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START + "- place: {CC-003: p2.B1}\n")
    for _ in range(3):
        table.see()
    seen = table.see()
    assert [e.source for e in seen.entries] == ["camera"]
    assert "cc.not-your-turn" in {v.code for v in seen.violations}
    assert table.game.active == "p1"


def test_the_other_players_draw_ends_the_turn() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START + "- draw: {p2: 1}\n"
                                                "  dice: {p2.w1: 3, p2.w2: 4, p2.w3: 1}\n")
    for _ in range(3):
        table.see()
    seen = table.see()
    assert all(e.legal for e in seen.entries)
    assert table.where() == (4, "p2", "start")
    ends = [e for e in seen.entries if e.source == "automatic"]
    assert [e.move.player for e in ends] == ["p1", "p1"]  # Kampf- and Taktikphase


def test_a_press_after_the_inferred_end_changes_nothing() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START)
    table.see()
    table.see()
    assert table.game.phase == "kampf"
    log = len(table.game.log)
    late = table.interp.person(Move("next-phase", "p1"))  # the player presses late
    assert late.absorbed and late.entries == () and len(table.game.log) == log
    assert table.game.phase == "kampf"
    again = table.interp.person(Move("next-phase", "p1"))  # a second press is a new end
    assert not again.absorbed and table.game.phase == "taktik"


def test_a_press_naming_the_phase_shown_is_a_real_end() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START)
    table.see()
    table.see()
    seen = table.interp.person(Move("next-phase", "p1", options=(("from", "kampf"),)))
    assert not seen.absorbed and table.game.phase == "taktik"


def test_end_turn_pressed_early_runs_the_phases_left() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START)
    table.see()
    table.see()
    seen = table.interp.person(Move("pass", "p1"))
    assert kinds(seen) == [("automatic", "next-phase"), ("person", "pass")]
    assert table.where() == (4, "p2", "start")


def test_the_other_players_press_begins_their_turn() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START)
    for _ in range(3):
        table.see()
    seen = table.interp.person(Move("pass", "p2"))  # Bo ends his turn without playing
    assert [e.source for e in seen.entries] == ["automatic", "automatic", "person"]
    assert {v.code for v in seen.violations} == {"cc.must-draw", "cc.must-roll"}


def test_a_card_from_the_shared_pile_after_a_bare_turn_is_asked() -> None:
    table = Table(TOB_HEAD, "- draw: {p1: 1}\n- draw: {p2: 1}\n")
    assert all(e.legal for e in table.see().entries)
    seen = table.see()  # Ada drew again, or ended her turn and Bo drew
    assert seen.question is not None and len(seen.question.choices) == 2
    first, second = seen.question.choices
    assert [m.kind for m in first.moves] == ["draw"]
    assert [m.kind for m in second.moves][-1] == "draw" and second.moves[-1].player == "p2"
    answered = table.interp.answer(1)
    assert all(e.legal for e in answered.entries) and table.game.active == "p2"
    assert [e.source for e in answered.entries][:-1] == ["automatic"] * 4


def test_presses_after_the_end_are_refused_not_logged() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START)
    table.interp.person(Move("concede", "p2"))
    log = len(table.game.log)
    for press in (Move("next-phase", "p1"), Move("pass", "p1")):
        with pytest.raises(GameOverError):
            table.interp.person(press)
    assert len(table.game.log) == log


def test_reasons_and_sources_survive_record_and_replay() -> None:
    table = Table(CC_HEAD, SUMMON_AFTER_START)
    table.see()
    table.see()
    record = table.game.record()
    again = Game.replay(record)
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in table.game.log]
    entry = next(e for e in table.game.log if e.source == "automatic")
    assert LogEntry.from_dict(entry.to_dict()).reason_de == entry.reason_de != ""


def test_the_same_inputs_give_the_same_game() -> None:
    """The interpreter remembers nothing the inputs in order do not rebuild."""
    def run() -> list[dict[str, Any]]:
        table = Table(CC_HEAD, SUMMON_AFTER_START + "- draw: {p2: 1}\n"
                                                    "  dice: {p2.w1: 3, p2.w2: 4, p2.w3: 1}\n")
        table.see()
        table.see()
        table.interp.person(Move("next-phase", "p1"))
        table.see()
        table.see()
        return [e.to_dict() for e in table.game.log]

    assert run() == run()


@pytest.mark.parametrize("game_id", sorted(RULESETS))
def test_declared_phase_moves_agree_with_the_rules(game_id: str) -> None:
    """A phase's `moves` lets the search skip it: every move the rules allow in random
    games must be declared for the phase it is legal in (or in no phase at all)."""
    inference = Inference(Game.new(game_id).ruleset)
    for seed in range(6):
        game = Game.new(game_id, seed=seed)
        rng = random.Random(seed)
        for _ in range(250):
            legal = game.legal_moves
            if not legal:
                break
            for move in legal:
                if move.kind in inference.declared:
                    assert move.kind in inference.phase_moves[game.phase], (game.phase, move)
            game.push(rng.choice(legal), "automatic")


def test_a_cloned_state_shares_nothing_that_changes() -> None:
    game = Game.new("creature-crush", seed=2)
    rng = random.Random(2)
    for _ in range(40):
        game.push(rng.choice(game.legal_moves), "automatic")
    state = game.state
    copy = state.clone()
    for f in fields(GameState):
        assert getattr(copy, f.name) == getattr(state, f.name) or f.name == "rng", f.name
        value = getattr(state, f.name)
        if isinstance(value, dict | list | set) and f.name != "catalog":
            assert getattr(copy, f.name) is not value, f.name
    assert copy.catalog is state.catalog
    assert copy.rng.random() == state.rng.random()
    move = next(m for m in game.legal_moves if m.kind not in ("concede",))
    game.ruleset.apply(copy, move)
    assert game.state.zones == state.zones and state is game.state
