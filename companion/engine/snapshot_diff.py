"""`SnapshotDiff`: what changed between two settled snapshots, as rulesets read it.

A value type of its own module, below both the interpreter (which computes it) and the
`Ruleset` interface (whose `explain` reads it), so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.snapshot import SeenCard, SeenDie, SeenToken


@dataclass(frozen=True)
class SnapshotDiff:
    """What changed between two settled snapshots (positions ignored)."""

    appeared: tuple[SeenCard, ...] = ()
    vanished: tuple[SeenCard, ...] = ()
    moved: tuple[tuple[SeenCard, SeenCard], ...] = ()
    flipped: tuple[SeenCard, ...] = ()
    tapped: tuple[SeenCard, ...] = ()
    untapped: tuple[SeenCard, ...] = ()
    laid_on: tuple[SeenCard, ...] = ()
    dice: tuple[tuple[SeenDie | None, SeenDie | None], ...] = ()
    covered: tuple[SeenCard, ...] = ()
    uncovered: tuple[SeenCard, ...] = ()
    tokens: tuple[tuple[SeenToken | None, SeenToken | None], ...] = ()
    """(before, after) of each token that appeared, vanished or now lies elsewhere (another
    zone or another card, `on`); None where it was not seen."""
    visible: frozenset[str] = frozenset()
    """Every card uid the camera sees after the change (cards not in it are covered, in a
    pile below its top, or off the table)."""

    @property
    def empty(self) -> bool:
        return not any(
            (self.appeared, self.vanished, self.moved, self.flipped, self.tapped,
             self.untapped, self.laid_on, self.dice, self.covered, self.uncovered,
             self.tokens)
        )
