"""The main line of a recorded game: moves in order, with corrections applied.

A correction event names the event it replaces (`target`) and optionally what really happened
(`replacement`, a move payload). The log keeps both; the main line shows only the correction.
Violations and decisions hang on the move they belong to, so replay shows them in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.record.store import Event, decisions_of, undone_inputs

LINE_KINDS = ("move", "phase")
TOGGLE_KINDS = ("undo", "redo", "decision", "answer", "revision")
"""Events that take steps off the line or put them back (`off`, `on`): a late answer, or a
revision in hindsight, takes the steps assumed for its question off."""


@dataclass
class LineEntry:
    """One step of the main line and what was said about it."""

    event: Event
    move: dict[str, Any]
    corrected_from: Event | None = None
    violations: list[Event] = field(default_factory=list)
    decisions: dict[int, str] = field(default_factory=dict)
    position: float = 0.0
    """Where the step stands in the game: its own number, or just after the event it was
    recorded in place of (a step taken off, or the question whose answer it is)."""

    @property
    def seq(self) -> int:
        return self.event.seq

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.event.kind,
            "source": self.event.source,
            "time": self.event.time,
            "move": self.move,
            "corrected_from": self.corrected_from.seq if self.corrected_from else None,
            "violations": [
                {**v.payload, "seq": v.seq, "decision": self.decisions.get(v.seq)}
                for v in self.violations
            ],
        }


def main_line(events: Sequence[Event]) -> list[LineEntry]:
    """Moves and phase changes in order, as the log's own undo, redo and decisions left them.

    A step goes off the line when an `undo`, a "corrected" `decision` or a late `answer`
    lists it in `off`, and back (in its old place) when a `redo` or a changed decision lists
    it in `on`. A step recorded `in_place_of` another stands right after it (the answer's
    reading where the assumed one stood). Older recordings use `correction` events: a
    replacement stands in for its target, no replacement removes it.

    An input that undo took back (and a redo did not put back) counts as never made: it and
    everything derived from it are left out, and undo and redo themselves toggle nothing
    (their `off`/`on` say what changed for a reader of one event). So the line is the one a
    replay of the inputs still in force makes, whatever order decisions, undos and redos
    came in (a decision's own `off`/`on` were taken against exactly those inputs: undo and
    redo only ever take the newest ones).
    """
    undone = undone_inputs(events)
    if undone:
        events = [e for e in events if e.seq not in undone and _int(
            e.payload.get("input")) not in undone]
    entries: dict[float, LineEntry] = {}
    on: dict[float, bool] = {}
    where: dict[int, float] = {}  # event seq -> the line position it holds
    placed: dict[int, int] = {}  # an anchor event -> how many steps stand in its place
    decisions = decisions_of(events)
    for e in events:
        if e.kind in LINE_KINDS:
            anchor = _int(e.payload.get("in_place_of"))
            pos: float = e.seq
            if anchor > 0:  # right after that event: a step on the line, or a question
                placed[anchor] = placed.get(anchor, 0) + 1
                pos = where.get(anchor, anchor) + placed[anchor] / 1_000_000
            entries[pos] = LineEntry(event=e, move=dict(e.payload), position=pos)
            on[pos] = True
            where[e.seq] = pos
        elif e.kind == "correction":
            target = where.get(_int(e.payload.get("target")))
            if target is None or not on.get(target):
                continue
            replacement = e.payload.get("replacement")
            if isinstance(replacement, dict) and replacement:
                entries[target] = LineEntry(event=e, move=dict(replacement),
                                            corrected_from=entries[target].event,
                                            position=target)
                where[e.seq] = target
            else:
                on[target] = False
        elif e.kind in TOGGLE_KINDS:
            if e.kind in ("undo", "redo") and isinstance(e.payload.get("inputs"), list):
                continue  # counted above: what it took back or put back is left out or in
            for flag, key in ((False, "off"), (True, "on")):
                for seq in _ints(e.payload.get(key)):
                    toggled = where.get(seq)
                    if toggled is not None:
                        on[toggled] = flag
        elif e.kind == "violation":
            owner = where.get(_int(e.payload.get("move_seq")))
            if owner is not None:
                entries[owner].violations.append(e)
    gone = cleared_violations(events)
    for entry in entries.values():
        entry.violations = [v for v in entry.violations if v.seq not in gone]
    line = [entries[pos] for pos in sorted(entries) if on[pos]]
    for entry in line:
        entry.decisions = decisions
    return line


def cleared_violations(events: Sequence[Event]) -> set[int]:
    """Violations that a later answer or a revision in hindsight showed no longer hold (the
    step was legal once the earlier reading was replaced); undone inputs' revisions left out."""
    undone = undone_inputs(events)
    gone: set[int] = set()
    for e in events:
        if e.kind == "revision" and _int(e.payload.get("input")) not in undone:
            gone.update(_ints(e.payload.get("cleared")))
    return gone


def _int(value: Any) -> int:
    if value is None or type(value) is int:  # the usual cases, without a try (every step)
        return -1 if value is None else value
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _ints(value: Any) -> list[int]:
    return [_int(v) for v in value] if isinstance(value, list) else []


def describe(payload: dict[str, Any], lang: str = "en") -> str:
    """The plain-words text of a move or event payload, in `lang` when it has one."""
    for key in (f"text_{lang}", f"message_{lang}", "text_en", "message_en", "text"):
        if payload.get(key):
            return str(payload[key])
    if "move" in payload:
        return str(payload["move"])
    return ", ".join(f"{k}={v}" for k, v in sorted(payload.items()))
