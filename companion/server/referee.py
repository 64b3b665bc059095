"""What the live session needs from a rules engine, as a small protocol.

The session records and publishes; a `Referee` turns table changes and people's actions into
moves with violations, or a question. `EngineReferee` (companion.server.engine_referee) drives
the real engine; tests may drive the session with any object of this shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.engine.api import Move, Question, Violation
from companion.server.offers import Offers
from companion.snapshot import TableSnapshot


@dataclass(frozen=True)
class Applied:
    """A move the engine took, with the rules it broke (never refused).

    `source` is None when the move is the caller's own (camera, person); an inferred step
    (the engine moved the phase on because the table showed it) says "automatic" and why.
    """

    move: Move
    violations: tuple[Violation, ...] = ()
    state: dict[str, Any] = field(default_factory=dict)
    source: str | None = None
    """Who made the move when not the caller: "automatic" for an end of phase or turn the
    engine inferred from what the camera saw. None: the caller's source."""
    reason_en: str = ""
    reason_de: str = ""
    """Why the engine took an automatic step (empty otherwise)."""


@dataclass(frozen=True)
class Reaction:
    """What one observation or action led to: moves taken, or a question for a person."""

    applied: tuple[Applied, ...] = ()
    question: Question | None = None
    assumed: int = 0
    """The first `assumed` steps are an open question's default reading (play went on)."""


class Referee(Protocol):
    """What the session needs. A referee may also offer hindsight on unanswered questions:
    `fork()` (a fresh referee of the same game), `adopt(other)` (take over a forked game)
    and `disagreement(table)` (face-up cards the game places elsewhere than the camera sees);
    and checkpoints for replays: `checkpoint()` (an independent copy of its game as it stands)
    and `restore(saved)` (play on from such a copy, which stays as it was); the session looks
    for them and does without."""

    game: str
    ruleset_version: str

    def observe(self, before: TableSnapshot | None, after: TableSnapshot) -> Reaction:
        """Interpret the change from `before` to `after` (a settled table)."""
        ...

    def apply(self, moves: tuple[Move, ...], source: str) -> Reaction:
        """Push moves a person chose or declared."""
        ...

    def rebuild(self, moves: list[Move]) -> None:
        """Start over and replay `moves` (after a correction deep in the line)."""
        ...

    def rebuild_around(self, before: list[Move], chosen: tuple[Move, ...], after: list[Move]
                       ) -> tuple[tuple[Applied, ...], tuple[tuple[Violation, ...], ...]]:
        """Start over with `chosen` between `before` and `after` (a late answer's reading in
        place of the assumed one); what `chosen` led to, with its violations there, and the
        violations each move of `after` has now."""
        ...

    def reset(self) -> None:
        """Back to the state before the first observation (the log is replayed from here)."""
        ...

    def status(self, lang: str, visible: frozenset[str] | None = None) -> dict[str, Any]:
        """turn, active, phase, prompt, scores, legal moves and outcome, JSON-ready.

        With `visible` (the card uids face up on the table), legal moves that name any other
        card are only counted: the page must not reveal a hand.
        """
        ...

    def offers(self, visible: frozenset[str] | None = None) -> Offers:
        """Legal moves a referee may enter now; moves naming cards not in `visible` are only
        counted."""
        ...

    def finished(self) -> dict[str, Any] | None:
        """The outcome once the game is over."""
        ...
