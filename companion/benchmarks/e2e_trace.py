"""A refereed video's trace against the script's truth: what each settled table got wrong.

Why: a false or missing violation, or a wrong final state, has one of a few causes (the eye
misread the table, the rules mis-explained a right table, nobody declared, nobody answered,
the table settled at the wrong moment). The trace puts each settled table beside the true
table of the step its frame shows, and each violation beside the step that raised it, so the
cause can be read off (docs/lab/2026-11-28-e2e.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.server.video_report import VideoReport
from companion.snapshot import TableSnapshot


def _cards(snap: TableSnapshot) -> dict[str, tuple[str, bool, bool, str | None]]:
    return {c.uid: (c.zone, c.face_up, c.tapped, c.on) for c in snap.cards}


def _dice(snap: TableSnapshot) -> dict[str, tuple[int, str, str | None, bool]]:
    return {d.die: (d.value, d.zone, d.on, d.unread) for d in snap.dice}


def _tokens(snap: TableSnapshot) -> dict[str, tuple[str, str | None]]:
    return {t.token: (t.zone, t.on) for t in snap.tokens}


def table_differences(seen: TableSnapshot, truth: TableSnapshot) -> list[str]:
    """Each item the camera's table has other than the true visible table, as a phrase:
    `missing card X (zone)`, `extra card X (zone)`, `card X zone a (b)`, `die d value 3 (5)`,
    `die d unread True (False)` (seen, its face not read again since a hand was over it)."""
    out: list[str] = []
    for kind, got, want in (("card", _cards(seen), _cards(truth)),
                            ("die", _dice(seen), _dice(truth)),
                            ("token", _tokens(seen), _tokens(truth))):
        out += _compare(kind, got, want)
    return out


def _compare(kind: str, got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    names = {"card": ("zone", "face_up", "tapped", "on"), "die": ("value", "zone", "on", "unread"),
             "token": ("zone", "on")}[kind]
    out = [f"missing {kind} {k} ({want[k][names.index('zone')]})"
           for k in sorted(want.keys() - got.keys())]
    out += [f"extra {kind} {k} ({got[k][names.index('zone')]})"
            for k in sorted(got.keys() - want.keys())]
    for k in sorted(got.keys() & want.keys()):
        out += [f"{kind} {k} {name} {g} ({w})" for name, g, w in zip(names, got[k], want[k],
                                                                      strict=True) if g != w]
    return out


def same_as_steps(seen: TableSnapshot, truths: Sequence[TableSnapshot]) -> list[int]:
    """The script steps (from 1; 0: before the first) whose true table the camera's is."""
    return [i for i, t in enumerate(truths) if seen.same_table(t)]


def trace_lines(report: VideoReport, truths: Sequence[TableSnapshot]) -> Iterable[str]:
    """The report as a diagnosis trace, one line per settled table and violation."""
    yield f"frames {report.frames}, settled tables {report.snapshots}, person {report.person}"
    yield f"shown {report.violations}; named {report.expected}"
    yield f"extra {report.extra}; missing {report.missing}"
    if report.final is not None and report.truth is not None:
        yield f"final shown {report.final.brief()}; truth {report.truth.brief()}"
    yield f"final wrong: {report.final_wrong or 'no'}"
    yield f"questions asked {report.questions}, unanswered {report.unanswered}"
    yield "named by the script (step: code):"
    for step, code in report.named:
        yield f"  step {step}: {code}"
    yield "shown on the page (step of the input: code [source]):"
    for shown in report.shown:
        yield f"  step {shown.step}: {shown.code} [{shown.source}]"
    yield "questions (step whose table raised it: text [answered or open]):"
    for asked in report.asked:
        yield f"  step {asked.step}: {asked.text} [{'answered' if asked.answered else 'open'}]"
    yield "the page's log (step of the input: event [source] text):"
    for step, said in report.log:
        yield f"  step {step}: {said}"
    yield "settled tables (frame, step shown; differences from that step's true table):"
    for s in report.settled:
        truth = truths[s.step] if 0 <= s.step < len(truths) else None
        diffs = table_differences(s.snapshot, truth) if truth is not None else ["no truth"]
        same = same_as_steps(s.snapshot, truths)
        note = "exact" if not diffs else "; ".join(diffs)
        also = f" [= true table after step(s) {same}]" if same and diffs else ""
        yield f"  frame {s.frame} step {s.step} seq {s.snapshot.seq}: {note}{also}"
