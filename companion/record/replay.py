"""The main line of a recorded game: moves in order, with corrections applied.

A correction event names the event it replaces (`target`) and optionally what really happened
(`replacement`, a move payload). The log keeps both; the main line shows only the correction.
Violations and decisions hang on the move they belong to, so replay shows them in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.record.store import Event, decisions_of

LINE_KINDS = ("move", "phase")


@dataclass
class LineEntry:
    """One step of the main line and what was said about it."""

    event: Event
    move: dict[str, Any]
    corrected_from: Event | None = None
    violations: list[Event] = field(default_factory=list)
    decisions: dict[int, str] = field(default_factory=dict)

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
    """Moves and phase changes in order, each correction standing in for its target."""
    entries: list[LineEntry] = []
    by_seq: dict[int, LineEntry] = {}
    decisions = decisions_of(events)
    for e in events:
        if e.kind in LINE_KINDS:
            entry = LineEntry(event=e, move=dict(e.payload))
            entries.append(entry)
            by_seq[e.seq] = entry
        elif e.kind == "correction":
            target = by_seq.get(int(e.payload.get("target", -1)))
            replacement = e.payload.get("replacement")
            if target is None:
                continue
            index = entries.index(target)
            if replacement:
                fixed = LineEntry(event=e, move=dict(replacement), corrected_from=target.event)
                entries[index] = fixed
                by_seq[e.seq] = fixed
            else:
                del entries[index]
            by_seq.pop(target.event.seq, None)
        elif e.kind == "violation":
            owner = by_seq.get(int(e.payload.get("move_seq", -1)))
            if owner is not None:
                owner.violations.append(e)
                owner.decisions = decisions
    for entry in entries:
        entry.decisions = decisions
    return entries


def describe(payload: dict[str, Any], lang: str = "en") -> str:
    """The plain-words text of a move or event payload, in `lang` when it has one."""
    for key in (f"text_{lang}", f"message_{lang}", "text_en", "message_en", "text"):
        if payload.get(key):
            return str(payload[key])
    if "move" in payload:
        return str(payload["move"])
    return ", ".join(f"{k}={v}" for k, v in sorted(payload.items()))
