"""Places the eye reports on the settled table, changed only when two looks in a row agree.

The glare watch and the card-shape watch look at a still frame now and then; a reflection at
the edge of clipping, or a card at the edge of a zone's middle, would make the table flicker
between looks. What is reported changes when two looks in a row find the same zones (a zone
counted once per place, so a second card in a lane is a change).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.snapshot import Unreadable


class SteadyPlaces:
    """What is reported after each look, steadied over looks."""

    def __init__(self) -> None:
        self._candidate: tuple[str, ...] | None = None
        self._reported: tuple[Unreadable, ...] = ()
        self._reported_zones: tuple[str, ...] = ()

    @property
    def reported(self) -> tuple[Unreadable, ...]:
        return self._reported

    def report(self, spots: Sequence[Unreadable]) -> tuple[Unreadable, ...]:
        """What is reported after a look that found `spots`."""
        zones = tuple(sorted(u.zone for u in spots))
        if zones == self._reported_zones:
            self._candidate = None
            if spots:
                self._reported = tuple(spots)  # the same zones: the newest places
            return self._reported
        if zones == self._candidate:  # two looks in a row agree: report the change
            self._reported, self._reported_zones = tuple(spots), zones
            self._candidate = None
        else:
            self._candidate = zones
        return self._reported

    def forget(self) -> None:
        """The camera moved or the mat was lost: nothing seen before holds."""
        self._candidate, self._reported, self._reported_zones = None, (), ()
