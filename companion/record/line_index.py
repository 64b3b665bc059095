"""The main line and what hangs on it, kept up to date as events are appended.

`main_line`, `decisions_of`, `cleared_violations` and `undone_inputs` read the whole log: called
on every input of a live game, an input cost more the longer the game (issue 34). `LineIndex`
folds each appended event into the same values once, so reading them costs what one event
costs. An undo or redo changes which inputs count at all: then (and after the log was cut back)
the index is rebuilt from the log, which those inputs pay anyway (the session replays the game).
The from-scratch functions stay the definition; tests compare the two.
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.record.replay import LINE_KINDS, TOGGLE_KINDS, LineEntry, _int, _ints
from companion.record.store import Event, undone_inputs


@dataclass
class _Step:
    """One position of the line: the event standing there now, with every violation that
    was attached to it (cleared ones are left out when the line is read)."""

    event: Event
    move: dict[str, object]
    corrected_from: Event | None = None
    violations: list[Event] = field(default_factory=list)
    on: bool = True


class LineIndex:
    """Undone inputs, the main line, decisions, cleared and standing violations of one log."""

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self.rebuild(events)

    def rebuild(self, events: Sequence[Event]) -> None:
        """Start again from `events` (a resumed game, an undo or redo, a log cut back)."""
        self.undone: frozenset[int] = frozenset(undone_inputs(events))
        self.decisions: dict[int, str] = {}
        """The latest decision per violation seq of the inputs in force."""
        self.cleared: set[int] = set()
        """Violations a revision of an input in force showed no longer hold."""
        self._steps: dict[float, _Step] = {}
        self._positions: list[float] = []  # the steps' positions, sorted
        self._where: dict[int, float] = {}
        self._placed: dict[int, int] = {}
        self._violations: dict[int, Event] = {}  # the inputs in force's, in log order
        self._length = 0
        for event in events:
            self._fold(event)

    def __len__(self) -> int:
        """How many events of the log the index has seen."""
        return self._length

    def append(self, event: Event, events: Sequence[Event]) -> None:
        """`event` was appended to `events` (the whole log, `event` last)."""
        if event.kind in ("undo", "redo") and isinstance(event.payload.get("inputs"), list):
            self.rebuild(events)  # which inputs count changed: read again from the log
            return
        self._fold(event)

    def on_line(self, seq: int) -> bool:
        """Whether the step recorded as event `seq` is on the main line now."""
        pos = self._where.get(seq)
        if pos is None:
            return False
        step = self._steps[pos]
        return step.on and step.event.seq == seq

    def line(self) -> list[LineEntry]:
        """The main line, as `main_line` of the whole log reads it."""
        return self._entries([p for p in self._positions if self._steps[p].on])

    def tail(self, count: int) -> list[LineEntry]:
        """The last `count` steps of the main line, without reading the rest."""
        found: list[float] = []
        for pos in reversed(self._positions):
            if len(found) >= count:
                break
            if self._steps[pos].on:
                found.append(pos)
        return self._entries(found[::-1])

    def line_seqs(self) -> frozenset[int]:
        return frozenset(s.event.seq for s in self._steps.values() if s.on)

    def standing(self, newest: int) -> tuple[list[Event], int]:
        """The newest `newest` violations that still stand (of inputs in force, not cleared),
        oldest first, and how many stand in all."""
        shown: list[Event] = []
        for seq in reversed(self._violations):
            if len(shown) >= newest:
                break
            if seq not in self.cleared:
                shown.append(self._violations[seq])
        total = len(self._violations) - sum(1 for s in self.cleared if s in self._violations)
        return shown[::-1], total

    def _entries(self, positions: list[float]) -> list[LineEntry]:
        decisions = dict(self.decisions)
        out = []
        for pos in positions:
            step = self._steps[pos]
            out.append(LineEntry(
                event=step.event, move=step.move, corrected_from=step.corrected_from,
                violations=[v for v in step.violations if v.seq not in self.cleared],
                decisions=decisions, position=pos))
        return out

    def _fold(self, e: Event) -> None:
        """One event, exactly as `main_line` (and `decisions_of`, `cleared_violations`) take
        it in their pass over the log."""
        self._length += 1
        owner = _int(e.payload.get("input"))
        if e.seq in self.undone or owner in self.undone:
            return
        kind = e.kind
        if kind in LINE_KINDS:
            anchor = _int(e.payload.get("in_place_of"))
            pos: float = e.seq
            if anchor > 0:
                self._placed[anchor] = self._placed.get(anchor, 0) + 1
                pos = self._where.get(anchor, anchor) + self._placed[anchor] / 1_000_000
            if pos not in self._steps:
                bisect.insort(self._positions, pos)
            self._steps[pos] = _Step(event=e, move=dict(e.payload))
            self._where[e.seq] = pos
        elif kind == "correction":
            target = self._where.get(_int(e.payload.get("target")))
            if target is None or not self._steps[target].on:
                return
            replacement = e.payload.get("replacement")
            if isinstance(replacement, dict) and replacement:
                old = self._steps[target]
                self._steps[target] = _Step(event=e, move=dict(replacement),
                                            corrected_from=old.event)
                self._where[e.seq] = target
            else:
                self._steps[target].on = False
        elif kind in TOGGLE_KINDS:
            if kind == "decision" and "violation" in e.payload:
                with contextlib.suppress(TypeError, ValueError):  # as `decisions_of`
                    self.decisions[int(e.payload["violation"])] = str(e.payload["decision"])
            if kind == "revision":
                self.cleared.update(_ints(e.payload.get("cleared")))
            if kind in ("undo", "redo") and isinstance(e.payload.get("inputs"), list):
                return
            for flag, key in ((False, "off"), (True, "on")):
                for seq in _ints(e.payload.get(key)):
                    toggled = self._where.get(seq)
                    if toggled is not None:
                        self._steps[toggled].on = flag
        elif kind == "violation":
            self._violations[e.seq] = e
            at = self._where.get(_int(e.payload.get("move_seq")))
            if at is not None:
                self._steps[at].violations.append(e)

