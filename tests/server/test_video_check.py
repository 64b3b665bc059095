"""The video check's harness itself, without rendering: the report's comparison with the
script's truth, who sits at the page (`--person script|none`), and the bench's table.

Rendering one opening takes ~20 s; these run the live session on the script's true tables
(a perfect eye, `camera truth`) or on hand-written events and tables, in well under a second.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.benchmarks.e2e import (
    HEADERS,
    E2ERow,
    bench_scripts,
    camera_followable,
    markdown_table,
)
from companion.benchmarks.e2e_trace import same_as_steps, table_differences
from companion.server.video_check import NobodyAtThePage, check_video, director_for
from companion.server.video_report import (
    FinalState,
    VideoReport,
    page_log,
    question_counts,
    questions_asked,
    shown_violations,
)
from companion.snapshot import SeenCard, SeenDie, TableSnapshot

SCRIPTS = Path(__file__).resolve().parents[2] / "companion" / "sim" / "scripts"


def _event(seq: int, kind: str, source: str = "automatic", **payload: Any) -> Any:
    return SimpleNamespace(seq=seq, kind=kind, source=source, payload=payload)


def _folder(base: Path, name: str) -> Path:
    (base / name).mkdir()
    return base / name


def _page(turn: int, phase: str, active: str, scores: dict[str, int],
          winner: str | None = None) -> dict[str, Any]:
    """A page state as `LiveSession.state()` gives it (only what the report reads)."""
    return {"status": {"en": {"turn": turn, "phase": phase, "active": active,
                              "scores": [{"player": p, "value": v, "label": "Punkte"}
                                         for p, v in scores.items()]}},
            "outcome": {"winner": winner, "reason": "score"} if winner else None}


def test_the_final_state_is_compared_part_by_part() -> None:
    truth = FinalState.from_step(SimpleNamespace(
        scores={"p1": 3, "p2": 1}, phase="main", turn=4, active="p2", winner=None))
    same = FinalState.from_page(_page(4, "main", "p2", {"p2": 1, "p1": 3}))
    assert same.differences(truth) == []
    wrong = FinalState.from_page(_page(5, "main", "p1", {"p1": 2, "p2": 1}, winner="p1"))
    assert wrong.differences(truth) == [
        "score p1: 2 (3)", "turn: 5 (4)", "active: p1 (p2)", "winner: p1 (None)"]
    assert FinalState.from_page(_page(4, "main", "p2", {"p1": 3})).differences(truth) == [
        "score p2: missing (1)"]


def test_the_report_counts_extra_and_missing_codes_and_a_wrong_final_state() -> None:
    right = FinalState((("p1", 0), ("p2", 0)), "kampf", 4, "p2")
    report = VideoReport(violations=["a", "a", "b"], expected=["a", "c"], frames=10,
                         snapshots=3, final=right, truth=right)
    assert (report.extra, report.missing, report.ok) == (["a", "b"], ["c"], False)
    assert report.final_wrong == []
    late = VideoReport(violations=[], expected=[], frames=1, snapshots=1,
                       final=FinalState(right.scores, "start", 4, "p2"), truth=right)
    assert late.ok and late.final_wrong == ["phase: start (kampf)"]
    assert VideoReport([], [], 0, 0).final_wrong == ["no final state"]


def test_a_question_is_open_unless_an_answer_names_it() -> None:
    events = [_event(1, "observation", "camera", snapshot={"seq": 1}),
              _event(2, "question", input=1, text_en="Which?",
                     choices=[{"label_en": "a draw"}, {"label_en": "a phase; a draw"}]),
              _event(3, "observation", "camera", snapshot={"seq": 2}),
              _event(4, "question", input=3),
              _event(5, "answer", "person", question=4), _event(6, "question", input=3)]
    assert question_counts(events) == (3, 2)
    asked = questions_asked(events, {1: 4, 2: 6})
    assert [(a.step, a.answered) for a in asked] == [(4, False), (6, True), (6, False)]
    assert asked[0].text == "Which? [0] a draw [1] a phase; a draw"


def test_each_violation_is_placed_at_the_step_of_its_input() -> None:
    events = [
        _event(1, "observation", "camera", snapshot={"seq": 7}),   # the table after step 2
        _event(2, "move", input=1), _event(3, "violation", code="x.late", input=1),
        _event(4, "action", "person"),                             # declared at step 3
        _event(5, "violation", code="x.target", input=4),
        _event(6, "observation", "camera", snapshot={"seq": 9}),   # the table after step 3
        _event(7, "question", input=6),
        _event(8, "answer", "person", question=7),
        _event(9, "violation", code="x.answer", input=8),
    ]
    shown = shown_violations(events, {7: 2, 9: 3}, marks=[(3, 3)])
    assert [(s.code, s.step, s.source) for s in shown] == [
        ("x.late", 2, "camera"), ("x.target", 3, "person"), ("x.answer", 3, "person")]
    log = page_log(events, {7: 2, 9: 3}, marks=[(3, 3)])
    assert [step for step, _ in log] == [2, 2, 3, 3, 3, 3, 3]
    assert log[1] == (2, "violation [automatic] x.late")


def test_table_differences_name_each_misread_item() -> None:
    truth = TableSnapshot("g", cards=(SeenCard("A#1", "p1.hand"), SeenCard("B#1", "p1.field")),
                          dice=(SeenDie("p1.r1", 3, "p1.field"),))
    seen = TableSnapshot("g", cards=(SeenCard("B#1", "p1.discard", tapped=True),
                                     SeenCard("C#1", "p2.field")),
                         dice=(SeenDie("p1.r1", 5, "p1.field"),))
    assert table_differences(seen, truth) == [
        "missing card A#1 (p1.hand)", "extra card C#1 (p2.field)",
        "card B#1 zone p1.discard (p1.field)", "card B#1 tapped True (False)",
        "die p1.r1 value 5 (3)"]
    assert table_differences(truth, truth) == []
    assert same_as_steps(truth, [seen, truth, truth]) == [1, 2]
    unread = TableSnapshot("g", cards=truth.cards,
                           dice=(SeenDie("p1.r1", 3, "p1.field", unread=True),))
    assert table_differences(unread, truth) == ["die p1.r1 unread True (False)"]


def test_nobody_at_the_page_is_a_choice_and_does_nothing() -> None:
    nobody = director_for("none", None, None)
    assert isinstance(nobody, NobodyAtThePage)
    nobody.on_frame(SimpleNamespace(step=3))
    nobody.on_end()


def test_with_nobody_at_the_page_a_question_stays_open(tmp_path: Path) -> None:
    """The script's first table change is ambiguous (its step names a `choice`): with the
    script's person the question is answered, with nobody it stays open."""
    path = SCRIPTS / "my-little-pony-ccg" / "rules-end-two-discards.yaml"
    person = check_video(path, "truth", _folder(tmp_path, "script"), person="script")
    nobody = check_video(path, "truth", _folder(tmp_path, "none"), person="none")
    assert person.questions == nobody.questions >= 1
    assert (person.unanswered, nobody.unanswered) == (0, nobody.questions)
    assert all(s.source == "camera" for s in nobody.shown)


def test_with_nobody_at_the_page_an_undeclared_attack_is_judged_on_the_table_alone(
        tmp_path: Path) -> None:
    """Creature Crush's opening declares its attacks' targets; at a perfect eye the script's
    person makes the page show exactly what the script names and end where the engine's
    referee ends. Without the declarations no violation comes from a person."""
    path = SCRIPTS / "creature-crush" / "opening.yaml"
    person = check_video(path, "truth", _folder(tmp_path, "script"), person="script")
    assert person.ok and person.final_wrong == []
    assert [s.step for s in person.shown] == [step for step, _ in person.named]
    assert all(s.snapshot.seq and s.step >= 0 for s in person.settled)
    nobody = check_video(path, "truth", _folder(tmp_path, "none"), person="none")
    assert all(s.source == "camera" for s in nobody.shown)
    assert nobody.snapshots == person.snapshots


def test_a_camera_follows_a_script_unless_a_step_it_sees_needs_a_press() -> None:
    # rules-taktik: a step marked illegal happens in a phase named by `phase: taktik`
    assert not camera_followable(SCRIPTS / "creature-crush" / "rules-taktik.yaml")
    openings = bench_scripts("openings")
    assert {p.parent.name for p in openings} == {
        p.name for p in SCRIPTS.iterdir() if (p / "opening.yaml").is_file()}
    assert all(camera_followable(p) for p in openings)
    every = bench_scripts("all", ["creature-crush"])
    assert SCRIPTS / "creature-crush" / "opening.yaml" in every
    assert SCRIPTS / "creature-crush" / "rules-taktik.yaml" not in every


@pytest.mark.parametrize("final_wrong", [False, True])
def test_the_markdown_table_has_one_row_per_run(final_wrong: bool) -> None:
    right = FinalState((("p1", 1),), "main", 2, "p1")
    shown = FinalState((("p1", 1),), "main", 3, "p1") if final_wrong else right
    report = VideoReport(["a|b"], [], 40, 5, final=shown, truth=right, questions=2,
                         unanswered=1)
    row = E2ERow("game", "opening", "cam", "none", report, 12.3)
    lines = markdown_table([row]).splitlines()
    assert len(lines) == 3 and lines[0].count("|") == len(HEADERS) + 1
    assert lines[2].count("|") == len(HEADERS) + 1  # a "|" in a cell cannot split it
    assert ("turn: 3 (2)" in lines[2]) == final_wrong and "1/2" in lines[2]
