"""Mat fit: where the mat lies in the picture, from its corner markers, and which way round.

The fit needs two corner markers and is held while fewer are visible; while no mat is found,
corners read on any frame of a still picture (and in those frames' mean) are pooled, and the
mirror image is looked at now and then, since ArUco codes do not read mirrored (a laptop's
mirror clip). Apart from the readers because everything in mat millimetres hangs on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import Detection, interpret_aruco, quad_side
from companion.vision.geometry import MIN_CORNERS, GeometryError, MatGeometry

MIRROR_TRY_EVERY = 3  # frames without a mat between looks at the mirrored picture ...
MIRROR_EAGER_FRAMES = 90  # ... after looking at every one of the first frames without it
MIRROR_TRY_EVERY_GIVEN = 30  # ... and when --mirror or --no-mirror was given (once a second)


class MatLocator:
    """The mat's fit (`geometry`, None until found), the corners in view and the mirror.

    `mirror`: True/False when the picture was said to be mirrored or not, None to find out;
    `mirrored`: whether it is being turned back now. `aruco`: the pipeline's marker reader,
    used for the mirror look (a reader of its own when there is none)."""

    def __init__(self, layout: Any, aruco: ArucoReader | None = None,
                 geometry: MatGeometry | None = None, mirror: bool | None = None) -> None:
        self.layout = layout
        self.aruco = aruco
        self.geometry = geometry
        self.mirror_mode = mirror
        self.mirrored = bool(mirror)
        self._mirror_reader: ArucoReader | None = None
        # the mat's corner markers read since the picture was last still, while no mat is found
        self.corners_still: dict[int, Detection | None] = {}  # None: read in two places
        self.no_mat_frames = 0
        self.corners_seen = 0
        self.image_size: tuple[int, int] | None = None  # the picture's (width, height): with
        # it the fit also estimates the lens's bend (`companion.vision.lens`)

    @cached_property
    def corner_ids(self) -> frozenset[int]:
        """The marker ids of this mat's corners."""
        return frozenset(int(c.marker_id) for c in self.layout.corners)

    def calibrate(self, dets: Sequence[Detection]) -> tuple[int, bool]:
        """Fit or follow the mat: how many of its corner markers are in view, and whether the
        camera was found moved (every pixel-tied memory must then be forgotten)."""
        ids = self.corner_ids
        corners = [d for d in dets if d.aruco is not None and d.aruco.kind == "corner"
                   and d.marker_id in ids]
        seen = len({d.marker_id for d in corners})
        if seen < MIN_CORNERS:
            return seen, False
        if self.geometry is None:
            try:
                self.geometry = MatGeometry.fit(corners, self.layout,
                                                image_size=self.image_size)
            except GeometryError:
                return seen, False
        elif self.geometry.update(corners, self.image_size) and self.geometry.camera_moved:
            return seen, True
        return seen, False

    def corner_reader(self) -> ArucoReader:
        reader = self.aruco or self._mirror_reader
        if reader is None:
            reader = self._mirror_reader = ArucoReader()
        return reader

    def corners_when_flipped(self, gray: np.ndarray) -> int:
        """How many of this mat's corner markers read in the mirror image of `gray`."""
        ids = self.corner_ids
        return len({m for m, _ in self.corner_reader().read(
            np.ascontiguousarray(cv2.flip(gray, 1))) if m in ids})

    def still_corners(self, dets: Sequence[Detection], fused: np.ndarray | None,
                      still_frames: int) -> list[Detection]:
        """While the mat is not found: the mat's corner markers read on any frame since the
        picture was last still, and in those frames' mean (`fused`). In a dim room's noisy
        picture (a laptop's camera at high gain, 28 cm over the table's edge, bench seed 1005)
        each of the two corner markers in view read on one frame in three, both on the same
        frame first on the eighth; the mean of six still frames read both in every window
        tried. A still picture is one camera pose, so corners read on different frames of it
        fit one mat; a corner read in two places (a misread marker) is no evidence of where
        it is, and is left out for the rest of the still period."""
        if still_frames == 0:
            self.corners_still = {}
        ids = self.corner_ids
        read = [d for d in dets if d.aruco is not None and d.aruco.kind == "corner"]
        if fused is not None:
            read += [interpret_aruco(m, corners)
                     for m, corners in self.corner_reader().read(fused) if m in ids]
        for det in read:
            if det.marker_id not in ids:
                continue
            key = int(det.marker_id)
            before = self.corners_still.get(key, det)
            apart = before is None or float(np.linalg.norm(before.centre - det.centre)) > \
                quad_side(det.corners)
            self.corners_still[key] = None if apart else det
        return [d for d in self.corners_still.values() if d is not None]

    def check_mirror(self, gray: np.ndarray, corners_seen: int) -> bool:
        """Corner markers do not read in a mirrored picture (ArUco codes are not
        mirror-symmetric), so when the mat is missing, look at the mirror image now and then;
        if two or more of its corners read there, the picture is mirrored (a mirror clip), or,
        if it is being turned already, it is not. Also when `--mirror` or `--no-mirror` was
        given, only less often: a wrong option would otherwise show no mat at all (the page
        says that the option was overruled). True when the picture was just turned: every
        memory tied to its pixels must then be forgotten."""
        if corners_seen >= MIN_CORNERS:
            self.no_mat_frames = 0
            return False
        self.no_mat_frames += 1
        lost_long = self.geometry is None or self.no_mat_frames >= 3 * 30
        eager = self.mirror_mode is None and self.no_mat_frames <= MIRROR_EAGER_FRAMES
        every = (1 if eager else MIRROR_TRY_EVERY if self.mirror_mode is None
                 else MIRROR_TRY_EVERY_GIVEN)
        if not lost_long or (self.no_mat_frames - 1) % every:
            return False
        if self.corners_when_flipped(gray) >= MIN_CORNERS:
            self.mirrored = not self.mirrored
            return True
        return False

    def restart(self) -> None:
        """The picture was turned: the fit is lost and looked for afresh."""
        self.geometry = None
        self.corners_still = {}
        self.no_mat_frames = 0


def mat_box(geometry: MatGeometry, layout: Any, shape: tuple[int, ...]
            ) -> tuple[int, int, int, int] | None:
    """The picture's box (x0, y0, x1, y1) around the mat; None when under 32 px a side."""
    w, h = float(layout.width_mm), float(layout.height_mm)
    pts = geometry.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    x0, y0 = max(int(lo[0]), 0), max(int(lo[1]), 0)
    x1, y1 = min(int(hi[0]) + 1, shape[1]), min(int(hi[1]) + 1, shape[0])
    return (x0, y0, x1, y1) if x1 - x0 >= 32 and y1 - y0 >= 32 else None
