"""Copies of a replayed game every so many events, so that a replay starts near its change.

An undo, a redo or a log cut back after a failed write rebuilds the game by replaying the log
(issue 34: 3 s at 10,000 events). What a replay makes of the log's first `at` events depends
only on those events and on which of them are taken back, so a copy of the game taken there
stays right as long as neither changed: a replay starts from the newest such copy and applies
only the events after it. The copies themselves are opaque here (the session's referee and
model); this module only knows when one is due and which still hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.record.store import Event

CHECKPOINT_EVERY = 100
"""Events between two copies: a replay redoes at most about this many (a copy costs memory
in proportion to the game so far, see docs/benchmarks.md)."""

S = TypeVar("S")


@dataclass(frozen=True)
class Checkpoint(Generic[S]):
    """The game after the log's first `at` events, `undone` the inputs taken back then."""

    at: int
    last: Event
    """The log's event number `at` (1-based) then: a log cut back and written again has
    other event objects at the same places."""
    undone: frozenset[int]
    state: S


class Checkpoints(Generic[S]):
    """The copies of one game, oldest first; `every` events apart (0: none are kept)."""

    def __init__(self, every: int = CHECKPOINT_EVERY) -> None:
        self.every = every
        self._kept: list[Checkpoint[S]] = []

    def __len__(self) -> int:
        return len(self._kept)

    def due(self, at: int) -> bool:
        """Whether a copy of the game after the log's first `at` events should be kept."""
        newest = self._kept[-1].at if self._kept else 0
        return self.every > 0 and at > 0 and at - newest >= self.every

    def add(self, events: Sequence[Event], at: int, undone: frozenset[int], state: S) -> None:
        """Keep `state`, the game after `events[:at]` with `undone` taken back."""
        while self._kept and self._kept[-1].at >= at:
            self._kept.pop()
        self._kept.append(Checkpoint(at, events[at - 1], undone, state))

    def find(self, events: Sequence[Event], undone: frozenset[int]) -> Checkpoint[S] | None:
        """The newest copy that holds for `events` with `undone` taken back (a log as it
        would read with a draft on it), keeping them all."""
        return next((point for point in reversed(self._kept)
                     if self._holds(point, events, undone)), None)

    def start(self, events: Sequence[Event], undone: frozenset[int]) -> Checkpoint[S] | None:
        """The newest copy a replay of `events` with `undone` taken back may start from;
        newer copies that no longer hold (an input before their end was taken back or put
        back, the log was cut back) are dropped. None: replay from the start."""
        while self._kept:
            newest = self._kept[-1]
            if self._holds(newest, events, undone):
                return newest
            self._kept.pop()
        return None

    @staticmethod
    def _holds(point: Checkpoint[S], events: Sequence[Event], undone: frozenset[int]) -> bool:
        if point.at > len(events) or events[point.at - 1] is not point.last:
            return False
        return all(seq > point.last.seq for seq in point.undone ^ undone)
