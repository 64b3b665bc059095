"""The lamp's reflection on the mat: where a card lies whose sticker nobody can read.

A glossy sleeve under a lamp mirrors the lamp: a solid patch of clipped-white pixels,
centimetres across, over whatever is printed beneath. A sticker under it is unreadable (the
pixels hold no ink at all), but the patch itself says a card lies there: the mat's cloth does
not mirror. So the eye reports such a patch as an unreadable place, with its zone, rather
than as nothing; the referee then knows a card it cannot identify lies in that zone, and the
page names it and says what to do.

`GlareWatch` looks on still frames only, twice a second (a connected-components pass over a
1080p frame costs a few milliseconds), and changes what it reports only when two looks in a
row agree, so a reflection at the edge of clipping does not make the table flicker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.snapshot import Unreadable
from companion.vision.image_quality import GLARE_MIN_PX, glare_spots

if TYPE_CHECKING:
    from companion.layouts import MatLayout
    from companion.vision.detect import Detection
    from companion.vision.geometry import MatGeometry

GLARE_MM2 = 120.0  # a lamp's reflection is centimetres across; a white marker cell is not
LOOK_EVERY_S = 0.5  # camera time between two looks on a still table
NEAR_STICKER = 2.5  # a read sticker within this many sticker sides names the card under it


@dataclass(frozen=True)
class Glare:
    """One reflection on the mat: its zone, and the sticker read beside it if one was."""

    zone: str | None
    card: str | None  # the sticker text under it, when one was read next to it
    x_mm: float
    y_mm: float


def glare_on_mat(image: np.ndarray, geometry: MatGeometry, layout: MatLayout,
                 detections: Sequence[Detection]) -> list[Glare]:
    """Saturated patches on the mat, with the zone and (when one reads beside it) the card.
    A patch on a sticker that read anyway did no harm and is left out."""
    out: list[Glare] = []
    cards = [d for d in detections if d.kind in ("front", "back")]
    px_per_mm = geometry.px_per_mm(layout.width_mm / 2, layout.height_mm / 2)
    read = [d.corners.astype(np.float32).reshape(-1, 1, 2) for d in detections]
    for centre in glare_spots(image, max(GLARE_MIN_PX, int(GLARE_MM2 * px_per_mm**2))):
        point = (float(centre[0]), float(centre[1]))
        if any(cv2.pointPolygonTest(q, point, False) >= 0 for q in read):
            continue  # white of a marker that read: no harm done
        x, y = (float(v) for v in geometry.to_mat(np.array([centre], dtype=float))[0])
        if not (0 <= x <= layout.width_mm and 0 <= y <= layout.height_mm):
            continue
        zone = layout.zone_at(x, y)
        zone_id = None if zone is None else str(getattr(zone, "id", zone))
        near = [d for d in cards
                if float(np.linalg.norm(d.centre - centre)) < NEAR_STICKER * d.side_px]
        card = min(near, key=lambda d: float(np.linalg.norm(d.centre - centre))).text \
            if near else None
        if not any(g.zone == zone_id and g.card == card for g in out):
            out.append(Glare(zone_id, card, round(x, 1), round(y, 1)))
    return out


class GlareWatch:
    """What the eye reports as unreadable under the lamp's reflection, steadied over looks."""

    def __init__(self, every_s: float = LOOK_EVERY_S) -> None:
        self.every_s = every_s
        self._last_look: float | None = None
        self._candidate: tuple[str, ...] | None = None
        self._reported: tuple[Unreadable, ...] = ()
        self._reported_zones: tuple[str, ...] = ()

    @property
    def reported(self) -> tuple[Unreadable, ...]:
        return self._reported

    def due(self, time_s: float, still: bool) -> bool:
        return still and (self._last_look is None or time_s - self._last_look >= self.every_s)

    def look(self, time_s: float, image: np.ndarray, geometry: MatGeometry,
             layout: MatLayout, detections: Sequence[Detection]) -> tuple[Unreadable, ...]:
        """One look at a still frame; returns what is reported after it."""
        return self.report(time_s, glare_on_mat(image, geometry, layout, detections))

    def report(self, time_s: float, found: Sequence[Glare]) -> tuple[Unreadable, ...]:
        """What is reported after a look that found `found`."""
        self._last_look = time_s
        spots = [Unreadable(zone=g.zone, x_mm=g.x_mm, y_mm=g.y_mm, cause="glare")
                 for g in found if g.zone is not None]
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
        self._last_look, self._candidate = None, None
        self._reported, self._reported_zones = (), ()
