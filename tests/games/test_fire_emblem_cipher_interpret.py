"""Fire Emblem Cipher: table changes as the camera sees them, read into moves."""

from __future__ import annotations

import textwrap
from pathlib import Path

from companion.engine.api import Move
from companion.engine.game import Game
from companion.engine.interpreter import SnapshotDiff
from companion.referee.script import RefereeReport, StepReport, referee_script
from companion.snapshot import SeenCard

HEAD = """\
game: fire-emblem-cipher
players: [Ada, Bo]
first: p1
seed: 9
decks:
  p1: [B01-004, B01-002, B01-041, B01-043, B01-039]
  p2: [B01-063, B01-065, B01-067, B01-069]
setup:
  turn: 3
  active: p1
  phase: {phase}
  table:
    p1.front: [B01-003, B01-006]
    p1.bonds: [B01-010, B01-018, B01-024, B01-029]
    p2.front: [B01-053, B01-085]
    p2.orbs: [{{card: B01-081, down: true}}]
  hands: {{p1: 2, p2: 0}}
steps:
"""


def referee(tmp_path: Path, phase: str, steps: str) -> RefereeReport:
    path = tmp_path / "fe.yaml"
    path.write_text(HEAD.format(phase=phase) + textwrap.indent(textwrap.dedent(steps), "  "))
    return referee_script(str(path))


def kinds(step: StepReport) -> list[str]:
    return [e.move.kind for e in step.moves]


def test_undeclared_attack_is_read_from_tap_and_supports(tmp_path: Path) -> None:
    report = referee(tmp_path, "action", """\
        - tap: [B01-006]
          place: {B01-041: p1.support, B01-063: p2.support}
          declare: {target: B01-085}
          expect: {legal: true, attack: 60}
        - place: {B01-041: p1.retreat, B01-063: p2.retreat, B01-085: p2.retreat}
          expect: {legal: true, defeated: [B01-085]}
        """)
    assert report.failures == []
    assert kinds(report.steps[0]) == ["attack", "support", "support"]
    assert kinds(report.steps[1]) == ["end-combat"]


def test_two_targets_in_range_raise_a_question(tmp_path: Path) -> None:
    report = referee(tmp_path, "action", """\
        - tap: [B01-006]
          place: {B01-041: p1.support, B01-063: p2.support}
        """)
    assert report.steps[0].question is not None
    assert "B01-053#1" in report.steps[0].question and "B01-085#1" in report.steps[0].question


def test_a_card_laid_on_a_unit_is_a_level_up_or_with_a_draw_a_class_change(
    tmp_path: Path,
) -> None:
    report = referee(tmp_path, "deploy", """\
        - place: {B01-004: p1.front}
          on: {B01-004: B01-006}
          draw: {p1: 1}
          expect: {legal: true, hands: {p1: 2}}
        - place: {B01-002: p1.front}
          on: {B01-002: B01-003}
          expect: {legal: false, violations: [fe.bonds-exceeded]}
        """)
    assert report.failures == []
    assert kinds(report.steps[0]) == ["class-change", "draw"]
    assert kinds(report.steps[1]) == ["level-up"]


def test_level_up_without_a_draw_asks_when_both_readings_are_legal(tmp_path: Path) -> None:
    report = referee(tmp_path, "deploy", """\
        - place: {B01-004: p1.front}
          on: {B01-004: B01-006}
          declare: {choice: 1}
        """)
    step = report.steps[0]
    assert step.question is not None and "class" in step.question
    assert kinds(step) == ["class-change"]


def test_a_moved_unit_is_a_move_and_a_vanished_unit_without_combat_a_violation(
    tmp_path: Path,
) -> None:
    report = referee(tmp_path, "action", """\
        - place: {B01-006: p1.back}
          tap: [B01-006]
          expect: {legal: true}
        - remove: [B01-085]
          expect: {legal: false, violations: [fe.unexplained]}
        """)
    assert report.failures == []
    assert kinds(report.steps[0]) == ["move"]


def test_pile_top_change_after_the_starting_hand_may_be_a_mulligan() -> None:
    game = Game.new("fire-emblem-cipher", ("A", "B"), seed=2)
    for p, lord in (("p1", "B01-003#1"), ("p2", "B01-053#1")):
        game.push(Move("choose-lord", p, (lord,), to=f"{p}.front"))
        game.push(Move("deal", p, value=6))
    diff = SnapshotDiff(vanished=(SeenCard("back:17", "p1.deck", face_up=False),))
    candidates = game.ruleset.explain(game.state, diff, {})
    assert [Move("mulligan", "p1")] in candidates
    assert [m.kind for c in candidates for m in c] == ["mulligan", "deal"]
