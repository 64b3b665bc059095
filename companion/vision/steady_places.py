"""Places the eye reports on the settled table, changed zone by zone when two looks agree.

The card-shape watch looks at a still frame now and then; a card at the edge of a zone's
middle would make the table flicker between looks. A zone's report (how many places it has)
changes only when two looks in a row find the same number there; a zone that flickers keeps
what it had, and does not hold back the others.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.snapshot import Unreadable


class SteadyPlaces:
    """What is reported after each look, steadied over looks, zone by zone."""

    def __init__(self) -> None:
        self._previous: dict[str, int] | None = None  # places per zone at the last look
        self._reported: dict[str, tuple[Unreadable, ...]] = {}

    @property
    def reported(self) -> tuple[Unreadable, ...]:
        return tuple(u for spots in self._reported.values() for u in spots)

    def report(self, spots: Sequence[Unreadable]) -> tuple[Unreadable, ...]:
        """What is reported after a look that found `spots`."""
        found: dict[str, tuple[Unreadable, ...]] = {}
        for u in spots:
            found[u.zone] = (*found.get(u.zone, ()), u)
        previous = self._previous
        for zone in sorted(set(found) | set(self._reported)):
            now = found.get(zone, ())
            same = len(now) == len(self._reported.get(zone, ()))
            agreed = previous is not None and previous.get(zone, 0) == len(now)
            if now and (same or agreed):
                self._reported[zone] = now  # the newest places
            elif not now and agreed:
                self._reported.pop(zone, None)
        self._previous = {zone: len(places) for zone, places in found.items()}
        return self.reported

    def forget(self) -> None:
        """The camera moved or the mat was lost: nothing seen before holds."""
        self._previous, self._reported = None, {}
