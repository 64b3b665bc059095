"""The main line and what hangs on it, kept up to date as events are appended.

`main_line`, `decisions_of`, `cleared_violations` and `undone_inputs` read the whole log: called
on every input of a live game, an input cost more the longer the game (issue 34). `LineIndex`
folds each appended event into the same values once, so reading them costs what one event
costs. An undo or redo changes which inputs count at all: every change a fold makes is kept in
a journal, so the index winds back to the first event the undo or redo concerns and folds the
events since again (an undo takes back recent inputs: a few events, at any length of the log).
After the log was cut back, and for a resumed game, the index is rebuilt from the log. The
from-scratch functions stay the definition; tests compare the two.
"""

from __future__ import annotations

import bisect
import contextlib
import math
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.record.replay import LINE_KINDS, TOGGLE_KINDS, LineEntry, _int, _ints
from companion.record.store import Event

_ABSENT = object()


@dataclass
class _Step:
    """One position of the line: the event standing there now, with every violation that
    was attached to it (cleared ones are left out when the line is read)."""

    event: Event
    move: dict[str, object]
    corrected_from: Event | None = None
    violations: list[Event] = field(default_factory=list)
    on: bool = True
    pos: float = 0.0
    """Where on the line it stands (a key of the index's steps)."""


class LineIndex:
    """Undone inputs, the main line, decisions, cleared and standing violations of one log."""

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self.rebuild(events)

    def rebuild(self, events: Sequence[Event]) -> None:
        """Start again from `events` (a resumed game, an undo or redo, a log cut back)."""
        self._taken_back: list[tuple[int, frozenset[int]]] = []
        """(seq of each undo and redo on the log, the inputs taken back after it): what a
        part of the log takes back, without reading that part again."""
        for event in events:
            self._note_taken_back(event)
        self.decisions: dict[int, str] = {}
        """The latest decision per violation seq of the inputs in force."""
        self.cleared: set[int] = set()
        """Violations a revision of an input in force showed no longer hold."""
        self._steps: dict[float, _Step] = {}
        self._positions: list[float] = []  # the steps' positions, sorted
        self._where: dict[int, float] = {}
        self._placed: dict[int, int] = {}
        self._violations: dict[int, Event] = {}  # the inputs in force's, in log order
        self._journal: list[tuple[Any, ...]] = []
        """How to take back each change the folds made, oldest first."""
        self._marks: list[int] = []  # the journal's length before each event's fold
        self._first_owned: dict[int, int] = {}  # input seq -> where its first event is
        self._read_at: list[float] = []
        self._read_moves: list[dict[str, object]] = []
        """The line's positions and moves as last read, and from which position on a step
        changed since (a decision reads the line: thousands of steps, the last few new)."""
        self._changed_from = -math.inf
        self.undone: frozenset[int] = \
            self._taken_back[-1][1] if self._taken_back else frozenset()
        for event in events:
            self._fold(event)

    def __len__(self) -> int:
        """How many events of the log the index has seen."""
        return len(self._marks)

    def append(self, event: Event, events: Sequence[Event]) -> None:
        """`event` was appended to `events` (the whole log, `event` last)."""
        undone = self._undone_after(event)
        self._note_taken_back(event)
        if undone is not None and undone != self.undone:
            self._refold(events, undone)  # which inputs count changed: fold again from there
            return
        self._fold(event)

    def _note_taken_back(self, event: Event) -> None:
        """Keep what the log takes back once `event` (appended) is on it; the index's own
        `undone` follows when its folds catch up."""
        before = self._taken_back[-1][1] if self._taken_back else frozenset()
        after = _taken_back_after(event, before)
        if after is not None:
            self._taken_back.append((event.seq, after))

    def undone_upto(self, seq: int) -> frozenset[int]:
        """The inputs the log's events up to `seq` take back (`undone_inputs` of that part
        of the log), from the undos and redos on it alone."""
        at = bisect.bisect_right(self._taken_back, seq, key=lambda kept: kept[0])
        return self._taken_back[at - 1][1] if at else frozenset()

    def undone_after(self, draft: Event) -> frozenset[int]:
        """The inputs taken back once `draft` is appended to the log."""
        undone = self._undone_after(draft)
        return self.undone if undone is None else undone

    def line_change(self, draft: Event, events: Sequence[Event]) -> tuple[list[int], list[int]]:
        """The steps `draft` (an undo or redo) appended to `events` would take off the main
        line and put back on it, the index staying as it is. Only the steps that the folds
        since the first event it concerns touched can differ: those alone are compared."""
        undone, now = self._undone_after(draft), self.undone
        if undone is None or undone == now:
            return [], []
        drafted = [*events, draft]
        at = self._refold_start(drafted, undone)
        touched = self._touched_since(at)
        self._refold(drafted, undone)
        touched |= self._touched_since(at)
        then = self._seqs_on(touched)
        self._refold(drafted, now)
        self._wind_back(len(events))
        before = self._seqs_on(touched)
        return sorted(before - then), sorted(then - before)

    def _touched_since(self, at: int) -> set[float]:
        """Positions of the steps the folds of the events from the `at`-th on changed."""
        touched: set[float] = set()
        if at >= len(self._marks):
            return touched
        for how, *what in self._journal[self._marks[at]:]:
            if how == "item" and what[0] is self._steps:
                touched.add(what[1])
            elif how in ("on", "violation"):
                touched.add(what[0].pos)
        return touched

    def _seqs_on(self, positions: set[float]) -> set[int]:
        steps = self._steps
        return {steps[p].event.seq for p in positions if p in steps and steps[p].on}

    def _undone_after(self, event: Event) -> frozenset[int] | None:
        """The inputs taken back once `event` is on the log, if it is an undo or redo."""
        return _taken_back_after(event, self.undone)

    def _refold(self, events: Sequence[Event], undone: frozenset[int]) -> None:
        """The index of `events` (the events seen so far and any after them) with `undone`
        taken back: wound back to the first event an input that changed concerns, folded
        again from there."""
        at = self._refold_start(events, undone)
        self._wind_back(at)
        self.undone = undone
        for event in events[at:]:
            self._fold(event)

    def _refold_start(self, events: Sequence[Event], undone: frozenset[int]) -> int:
        """How many events stay folded when `undone` is taken back instead: up to the first
        event an input that changed concerns."""
        changed = self.undone ^ undone
        return min(bisect.bisect_left(events, min(changed), hi=len(self._marks),
                                      key=lambda e: e.seq),
                   *(self._first_owned.get(seq, len(self._marks)) for seq in changed))

    def _wind_back(self, length: int) -> None:
        """Take back the folds of every event after the first `length`."""
        if length >= len(self._marks):
            return
        mark = self._marks[length]
        journal = self._journal
        while len(journal) > mark:
            how, *what = journal.pop()
            if how == "item":
                mapping, key, old = what
                if mapping is self._steps:
                    self._changed(key)
                if old is _ABSENT:
                    del mapping[key]
                else:
                    mapping[key] = old
            elif how == "on":
                what[0].on = what[1]
                self._changed(what[0].pos)
            elif how == "position":
                del self._positions[bisect.bisect_left(self._positions, what[0])]
            elif how == "violation":
                what[0].violations.pop()
            else:  # "cleared"
                self.cleared.difference_update(what[0])
        del self._marks[length:]

    def _set(self, mapping: MutableMapping[Any, Any], key: Any, value: Any) -> None:
        self._journal.append(("item", mapping, key, mapping.get(key, _ABSENT)))
        mapping[key] = value
        if mapping is self._steps:
            self._changed(key)

    def _switch(self, step: _Step, on: bool) -> None:
        self._journal.append(("on", step, step.on))
        step.on = on
        self._changed(step.pos)

    def _changed(self, pos: float) -> None:
        if pos < self._changed_from:
            self._changed_from = pos

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

    def moves_upto(self, length: int, events: Sequence[Event]) -> list[dict[str, object]]:
        """What each step on the line stands for (`LineEntry.move`) as the line was after the
        first `length` of `events` (the index's log) with the inputs taken back now; the
        index stays as it is."""
        if length >= len(self._marks):
            return self._moves_on()
        seen = len(self._marks)
        self._wind_back(length)
        moves = self._moves_on()
        for event in events[length:seen]:
            self._fold(event)
        return moves

    def _moves_on(self) -> list[dict[str, object]]:
        """The moves of the steps on the line now: those before the first step changed since
        the last reading as read then, the rest read again."""
        kept = bisect.bisect_left(self._read_at, self._changed_from)
        steps = self._steps
        again = [step for step in map(steps.__getitem__, self._positions[
            bisect.bisect_left(self._positions, self._changed_from):]) if step.on]
        del self._read_at[kept:], self._read_moves[kept:]
        self._read_at += [step.pos for step in again]
        self._read_moves += [step.move for step in again]
        self._changed_from = math.inf
        return list(self._read_moves)

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
        self._marks.append(len(self._journal))
        owner = _int(e.payload.get("input"))
        if owner not in self._first_owned:
            self._set(self._first_owned, owner, len(self._marks) - 1)
        if e.seq in self.undone or owner in self.undone:
            return
        kind = e.kind
        if kind in LINE_KINDS:
            anchor = _int(e.payload.get("in_place_of"))
            pos: float = e.seq
            if anchor > 0:
                self._set(self._placed, anchor, self._placed.get(anchor, 0) + 1)
                pos = self._where.get(anchor, anchor) + self._placed[anchor] / 1_000_000
            if pos not in self._steps:
                bisect.insort(self._positions, pos)
                self._journal.append(("position", pos))
            self._set(self._steps, pos, _Step(event=e, move=dict(e.payload), pos=pos))
            self._set(self._where, e.seq, pos)
        elif kind == "correction":
            target = self._where.get(_int(e.payload.get("target")))
            if target is None or not self._steps[target].on:
                return
            replacement = e.payload.get("replacement")
            if isinstance(replacement, dict) and replacement:
                old = self._steps[target]
                self._set(self._steps, target, _Step(event=e, move=dict(replacement),
                                                     corrected_from=old.event, pos=target))
                self._set(self._where, e.seq, target)
            else:
                self._switch(self._steps[target], False)
        elif kind in TOGGLE_KINDS:
            if kind == "decision" and "violation" in e.payload:
                with contextlib.suppress(TypeError, ValueError):  # as `decisions_of`
                    self._set(self.decisions, int(e.payload["violation"]),
                              str(e.payload["decision"]))
            if kind == "revision":
                added = set(_ints(e.payload.get("cleared"))) - self.cleared
                self.cleared.update(added)
                self._journal.append(("cleared", added))
            if kind in ("undo", "redo") and isinstance(e.payload.get("inputs"), list):
                return
            for flag, key in ((False, "off"), (True, "on")):
                for seq in _ints(e.payload.get(key)):
                    toggled = self._where.get(seq)
                    if toggled is not None:
                        self._switch(self._steps[toggled], flag)
        elif kind == "violation":
            self._set(self._violations, e.seq, e)
            at = self._where.get(_int(e.payload.get("move_seq")))
            if at is not None:
                self._steps[at].violations.append(e)
                self._journal.append(("violation", self._steps[at]))



def _taken_back_after(event: Event, undone: frozenset[int]) -> frozenset[int] | None:
    """The inputs taken back once `event` follows a log that takes back `undone`, if it is an
    undo or redo (as `undone_inputs` reads them)."""
    seqs = event.payload.get("inputs")
    if event.kind not in ("undo", "redo") or not isinstance(seqs, list):
        return None
    chosen = {s for s in seqs if isinstance(s, int)}
    return undone | chosen if event.kind == "undo" else undone - chosen
