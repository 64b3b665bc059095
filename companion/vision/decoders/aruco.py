"""ArUco 4x4 (DICT_4X4_250) reader for dice faces, mat corners and tokens.

Tuned for speed on 1080p table frames: one adaptive-threshold window (7 px) instead of
OpenCV's three, which reads markers from about 20 px wide (12 mm dice at 1080p are ~30 px) at a
third of the default cost, and no corner refinement unless asked. Decoded stickers can be
blanked out first (`exclude`): their QR modules are most of a table frame's square-ish contours,
so hiding them cuts ArUco time about threefold and removes finder patterns posing as markers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.markers.render import aruco_dictionary


@dataclass(frozen=True)
class ArucoOptions:
    refine_subpix: bool = False
    min_perimeter_rate: float = 0.03  # of the larger image side: ~15 px wide at 1080p
    thresh_win_min: int = 7
    thresh_win_max: int = 7
    thresh_win_step: int = 10
    min_marker_distance_rate: float = 0.125  # OpenCV's: lower, it loses corner markers framed
    # by the mat's white square (measured); a big-cell symbol lost to its sticker's outline is
    # found inside that outline instead (companion.vision.decoders.bigcell)
    pixels_per_cell: int = 4  # OpenCV's: each candidate is unwarped to cells of this many px
    cell_margin: float = 0.13  # OpenCV's: share of a cell's side left out at its edges


def _parameters(options: ArucoOptions) -> cv2.aruco.DetectorParameters:
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMin = options.thresh_win_min
    params.adaptiveThreshWinSizeMax = options.thresh_win_max
    params.adaptiveThreshWinSizeStep = options.thresh_win_step
    params.minMarkerPerimeterRate = options.min_perimeter_rate
    params.minMarkerDistanceRate = options.min_marker_distance_rate
    params.perspectiveRemovePixelPerCell = options.pixels_per_cell
    params.perspectiveRemoveIgnoredMarginPerCell = options.cell_margin
    params.cornerRefinementMethod = (
        cv2.aruco.CORNER_REFINE_SUBPIX if options.refine_subpix else cv2.aruco.CORNER_REFINE_NONE
    )
    return params


class ArucoReader:
    """One configured cv2.aruco.ArucoDetector; `read` gives (id, 4x2 corners) pairs."""

    def __init__(self, options: ArucoOptions | None = None) -> None:
        self.options = options or ArucoOptions()
        self._detector = cv2.aruco.ArucoDetector(aruco_dictionary(), _parameters(self.options))

    def read(
        self, gray: np.ndarray, exclude: Sequence[np.ndarray] = ()
    ) -> list[tuple[int, np.ndarray]]:
        """ArUco ids and corners; `exclude` quads (4x2 px, e.g. decoded stickers) are ignored."""
        return self.read_all(gray, exclude)[0]

    def read_all(
        self, gray: np.ndarray, exclude: Sequence[np.ndarray] = (), frame_px: int | None = None
    ) -> tuple[list[tuple[int, np.ndarray]], list[np.ndarray]]:
        """ArUco ids and corners, and every dark square it found but did not recognise (where
        a big-cell card symbol may be). `frame_px`: the larger side of the whole frame when
        `gray` is a crop of it, so that the smallest marker looked for keeps its size in
        pixels (OpenCV's limit is a share of the picture it is given: on a small crop every
        speck of card art would become a candidate)."""
        if exclude:
            gray = blank_quads(gray, exclude)
        if frame_px is not None and frame_px != max(gray.shape[:2]):
            params = _parameters(self.options)
            rate = self.options.min_perimeter_rate * frame_px / max(gray.shape[:2])
            params.minMarkerPerimeterRate = min(rate, 4.0)
            detector = cv2.aruco.ArucoDetector(aruco_dictionary(), params)
            corners, ids, rejected = detector.detectMarkers(gray)
        else:
            corners, ids, rejected = self._detector.detectMarkers(gray)
        squares = [np.asarray(q, dtype=np.float64).reshape(4, 2) for q in (rejected or ())]
        if ids is None:
            return [], squares
        return [
            (int(marker_id), np.asarray(quad, dtype=np.float64).reshape(4, 2))
            for marker_id, quad in zip(ids.ravel(), corners, strict=True)
        ], squares


EXCLUDE_GROWTH = 1.15  # a sticker quad grown by its quiet zone, not enough to reach a neighbour


def blank_quads(gray: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """A copy of `gray` with each quad (grown slightly about its centre) painted paper-white."""
    out = gray.copy()
    for quad in quads:
        pts = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        centre = pts.mean(axis=0)
        grown = (pts - centre) * EXCLUDE_GROWTH + centre
        cv2.fillConvexPoly(out, np.round(grown).astype(np.int32), 255)
    return out
