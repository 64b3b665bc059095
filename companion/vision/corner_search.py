"""Corner markers the full picture's pass misses, read where the mat fit says they are.

A laptop camera at a long edge of the mat (28 cm high, 20 cm back, 78 degrees wide) sees the
two corner markers at its own edge at the picture's extreme left and right (x 57 and 1221 of
1280), sheared into thin parallelograms by the low angle and blurred by the lens's soft edge:
the full-frame ArUco pass did not read them in any of 9 bench scenes, so the mat fit stood on
the two far markers only and was stretched 330 mm past them (cards 30-40 mm off, outside their
zones). Warped onto the mat's plane through the fit that the far markers give, the same pixels
show an upright square marker, which the same dictionary reads (8 of 8 tried). Only the
missing corner's own id near where the fit expects it is taken; the refit then checks all
corners agree (`geometry._checked_homography`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from companion.markers.render import aruco_dictionary
from companion.vision.detect import Detection, interpret_aruco
from companion.vision.geometry import MatGeometry

SEARCH_MM = 140.0  # side of the mat square warped around an expected corner: the fit on two
# far markers was up to 40 mm off at the near edge, a marker is 40 mm wide
SEARCH_PX_PER_MM = 3.0  # of the warped view: a 40 mm marker becomes 120 px, 6 px per cell
SEARCH_EVERY = 15  # frames between searches while a corner is missing (half a second at 30 fps)
OUTSIDE_GREY = 128  # what the warped view shows beyond the picture's edge: the picture's edge
# repeated outwards draws dark streaks against the marker's border there, and none read (0 of 4)
BORDER_PX = 1.5  # a marker corner read this near the picture's edge is where the edge cut it
MAX_OFF_MM = 50.0  # a marker read farther than this from where the fit expects it is not taken


def _detector() -> cv2.aruco.ArucoDetector:
    """OpenCV's three threshold windows: the warped view is upsampled and soft, which the
    pipeline's one 7 px window (tuned for sharp 1080p frames) does not binarise cleanly."""
    params = cv2.aruco.DetectorParameters()
    params.minMarkerDistanceRate = 0.05
    return cv2.aruco.ArucoDetector(aruco_dictionary(), params)


class CornerSearch:
    """Looks again, now and then, for the corner markers a mat fit does not stand on."""

    def __init__(self, layout: Any) -> None:
        self.layout = layout
        self.detector = _detector()
        self.frames = 0

    def due(self, geometry: MatGeometry | None, seen: int) -> bool:
        """Whether to look this frame: a fit exists, not every corner is in view, and the last
        look was `SEARCH_EVERY` frames ago (the first look at once)."""
        if geometry is None or seen >= len(self.layout.corners):
            self.frames = 0
            return False
        self.frames += 1
        return (self.frames - 1) % SEARCH_EVERY == 0

    def search(self, gray: np.ndarray, geometry: MatGeometry,
               seen: Sequence[Detection]) -> list[Detection]:
        """The corner markers not in `seen` that read where `geometry` expects them, with
        their corners in `gray`'s pixels."""
        have = {d.marker_id for d in seen}
        found = []
        for corner in self.layout.corners:
            marker_id = int(corner.marker_id)
            if marker_id in have:
                continue
            det = self._look(gray, geometry, marker_id, float(corner.x_mm), float(corner.y_mm))
            if det is not None:
                found.append(det)
        return found

    def _look(self, gray: np.ndarray, geometry: MatGeometry, marker_id: int, x_mm: float,
              y_mm: float) -> Detection | None:
        half = SEARCH_MM / 2.0
        square = np.array([[x_mm - half, y_mm - half], [x_mm + half, y_mm - half],
                           [x_mm + half, y_mm + half], [x_mm - half, y_mm + half]])
        in_image = geometry.to_image(square).astype(np.float32)
        height, width = gray.shape[:2]
        centre = in_image.mean(axis=0)
        if not (0 <= centre[0] < width and 0 <= centre[1] < height):
            return None  # the fit puts it outside the picture
        size = round(SEARCH_MM * SEARCH_PX_PER_MM)
        target = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
        warp = cv2.getPerspectiveTransform(in_image, target)
        view = cv2.warpPerspective(gray, warp, (size, size), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=OUTSIDE_GREY)
        corners, ids, _ = self.detector.detectMarkers(view)
        if ids is None:
            return None
        back = np.linalg.inv(warp)
        for quad, read in zip(corners, ids.ravel(), strict=True):
            if int(read) != marker_id:
                continue
            quad_view = np.asarray(quad, np.float64).reshape(4, 2)
            off = np.linalg.norm(quad_view.mean(axis=0) - size / 2.0) / SEARCH_PX_PER_MM
            if off > MAX_OFF_MM:
                continue
            quad_px = _to_picture(quad_view, back)
            clipped = _at_border(quad_px, width, height)
            if len(clipped) == 1:  # that corner lies beyond the picture: complete the square
                quad_px = _to_picture(_completed(quad_view, clipped[0]), back)
            elif clipped:
                return None  # half a marker is no evidence of where it lies
            return interpret_aruco(marker_id, quad_px)
        return None


def _to_picture(quad_view: np.ndarray, back: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.perspectiveTransform(quad_view.reshape(-1, 1, 2), back).reshape(4, 2),
                      np.float64)


def _at_border(quad_px: np.ndarray, width: int, height: int) -> list[int]:
    """The corners the picture's edge cuts off (the reader puts them on the edge)."""
    x, y = quad_px[:, 0], quad_px[:, 1]
    cut = (x < BORDER_PX) | (y < BORDER_PX) | (x > width - 1 - BORDER_PX) | \
        (y > height - 1 - BORDER_PX)
    return [int(i) for i in np.flatnonzero(cut)]


def _completed(quad_view: np.ndarray, missing: int) -> np.ndarray:
    """The quad with corner `missing` put where the other three make it a parallelogram: in
    the view warped onto the mat the marker is square to within the fit's local error, and a
    laptop's near corner marker reaches 3-4 px beyond the picture's side (the reader gives the
    cut edge instead: 4.8 px off in the test picture, 1.5 px when completed)."""
    out = quad_view.copy()
    before, after, opposite = (missing - 1) % 4, (missing + 1) % 4, (missing + 2) % 4
    out[missing] = quad_view[before] + quad_view[after] - quad_view[opposite]
    return out
