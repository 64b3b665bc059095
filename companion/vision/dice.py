"""Which die faces give a die's value: the top face only, of a die the game uses.

A 16 mm die seen from a tilted camera shows its top face and one or two side faces, and every
face carries a marker; a side face read as the value is a wrong value. The top face is the one
that is a flat square of the marker's size in the plane of the dice tops (16 mm above the mat),
mapped with the mat's homography lifted to that height (`MatGeometry.plane_homography`):
- a side face is vertical: mapped into that plane it stretches along the line of sight and
  lands beside the die, on the camera's side;
- a face that passes the square test is still a side face if another face of the same die lies
  farther from the camera (side faces are always between the top face and the camera);
- from about 35 to 50 degrees off vertical a side face that looks straight at the camera maps to
  a near-square too (a vertical 12 mm marker spans 12 x tan(view) mm of the plane), so a face is
  also a side face when a die-sized dark square that did not decode (an unread marker: the top
  face, glared or at the limit of the pixels) lies 7-21 mm beyond it, away from the camera. On
  the realistic simulator at 68 cm / 40 deg that is where the side faces taken for tops came
  from; a true top has only the table beyond it.
- a die the game does not use, or a face outside the mat, is never a die (a mirrored or
  misread marker, a die from another game on the table): it is reported as an unknown marker.
Mapping the top face at die height also puts the die where it really lies: on the flat mat
homography its top would appear up to a centimetre away from the camera.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detect import Detection
from companion.vision.geometry import CameraProfile, MatGeometry

DIE_HEIGHT_MM = 16.0  # companion.printing.sizes.DIE_MM: the dice the stickers are made for
FACE_MARKER_MM = 12.0  # companion.printing.sizes.DIE_MARKER_MM
SIDE_TOLERANCE = 0.22  # each mapped edge within 22 % of the marker's side
ANGLE_TOLERANCE_DEG = 16.0  # and each corner within 16 degrees of square
SAME_DIE_MM = 30.0  # faces of one die lie within this of each other in the dice-top plane
BEYOND_MM = (7.0, 21.0)  # a side face's top face lies this far beyond it (away from the camera)
BEYOND_ACROSS_MM = 7.0  # ... and at most this far to either side of its line of sight
MAT_MARGIN_MM = 5.0


@dataclass(frozen=True)
class TopFace:
    """A die's top face: which die, its value, and where the die lies on the mat."""

    die: str
    value: int
    x_mm: float
    y_mm: float
    angle_deg: float
    confidence: float
    detection: Detection


@dataclass(frozen=True)
class FaceVerdict:
    detection: Detection
    reason: str  # "side", "shape", "not-in-game", "off-mat", "ambiguous"


def square_error(quad_mm: np.ndarray, side_mm: float) -> tuple[float, float]:
    """(worst relative edge error, worst corner angle error in degrees) of a mapped quad."""
    edges = np.roll(quad_mm, -1, axis=0) - quad_mm
    lengths = np.linalg.norm(edges, axis=1)
    rel = float(np.abs(lengths / side_mm - 1.0).max())
    worst = 0.0
    for i in range(4):
        a, b = -edges[i - 1], edges[i]
        cos = float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-9)
        worst = max(worst, abs(math.degrees(math.acos(max(-1.0, min(1.0, cos)))) - 90.0))
    return rel, worst


class TopFaceFilter:
    """Keeps the top face of every die the game uses; explains every face it drops."""

    def __init__(
        self,
        allowed: Collection[str] | None = None,
        die_height_mm: float = DIE_HEIGHT_MM,
        marker_mm: float = FACE_MARKER_MM,
        camera: CameraProfile | None = None,
    ) -> None:
        self.allowed = None if allowed is None else frozenset(allowed)
        self.die_height_mm = die_height_mm
        self.marker_mm = marker_mm
        self.camera = camera
        self._cache_key: tuple[float, ...] | None = None
        self._plane: np.ndarray | None = None
        self._camera_xy = np.zeros(2)

    def _lifted(self, geometry: MatGeometry, image_size: tuple[int, int]) -> np.ndarray:
        key = (*np.round(geometry.homography.ravel(), 9), *image_size)
        if key != self._cache_key or self._plane is None:
            pose = geometry.pose(image_size, self.camera)
            self._plane = pose.plane_homography(np.linalg.inv(geometry.homography),
                                                self.die_height_mm)
            self._camera_xy = pose.centre_mm[:2].copy()
            self._cache_key = key
        return self._plane

    def judge(
        self,
        detections: Sequence[Detection],
        geometry: MatGeometry,
        image_size: tuple[int, int],
        mat_size: tuple[float, float],
        squares: Sequence[np.ndarray] = (),
    ) -> tuple[list[TopFace], list[FaceVerdict]]:
        """The top faces among `detections` (die faces only are looked at), and why each
        other die face was dropped. `squares`: die-sized dark squares (4x2 px) that did not
        decode."""
        plane = self._lifted(geometry, image_size)
        unread = [cv2.perspectiveTransform(np.asarray(q, np.float64).reshape(-1, 1, 2), plane)
                  .reshape(4, 2).mean(axis=0) for q in squares]
        dropped: list[FaceVerdict] = []
        candidates: list[TopFace] = []
        width, height = mat_size
        for det in detections:
            meaning = det.aruco
            if meaning is None or meaning.kind != "die" or meaning.die is None:
                continue
            if self.allowed is not None and meaning.die not in self.allowed:
                dropped.append(FaceVerdict(det, "not-in-game"))
                continue
            quad = cv2.perspectiveTransform(
                np.asarray(det.corners, np.float64).reshape(-1, 1, 2), plane).reshape(4, 2)
            centre = quad.mean(axis=0)
            x, y = float(centre[0]), float(centre[1])
            if not (-MAT_MARGIN_MM <= x <= width + MAT_MARGIN_MM
                    and -MAT_MARGIN_MM <= y <= height + MAT_MARGIN_MM):
                dropped.append(FaceVerdict(det, "off-mat"))
                continue
            rel, angle = square_error(quad, self.marker_mm)
            if rel > SIDE_TOLERANCE or angle > ANGLE_TOLERANCE_DEG:
                dropped.append(FaceVerdict(det, "shape"))
                continue
            if self._top_beyond(centre, unread):
                dropped.append(FaceVerdict(det, "side"))
                continue
            top = (quad[1] - quad[0]) + (quad[2] - quad[3])
            heading = math.degrees(math.atan2(top[1], top[0])) % 360.0
            quality = 1.0 - 0.5 * max(rel / SIDE_TOLERANCE, angle / ANGLE_TOLERANCE_DEG)
            candidates.append(TopFace(meaning.die, int(meaning.value or 0), x, y, heading,
                                      det.confidence * quality, det))
        tops: list[TopFace] = []
        for die in sorted({c.die for c in candidates}):
            faces = [c for c in candidates if c.die == die]
            best = max(faces, key=self._distance_from_camera)
            if any(math.hypot(f.x_mm - best.x_mm, f.y_mm - best.y_mm) > SAME_DIE_MM
                   for f in faces):
                # one die in two places: a misread or a duplicate sticker; say nothing
                dropped.extend(FaceVerdict(f.detection, "ambiguous") for f in faces)
                continue
            tops.append(best)
            dropped.extend(FaceVerdict(f.detection, "side") for f in faces if f is not best)
        return tops, dropped

    def _top_beyond(self, centre: np.ndarray, unread: Sequence[np.ndarray]) -> bool:
        """Whether an unread die-sized square lies where this face's top face would be, were
        it a side face: beyond it, away from the camera."""
        away = centre - self._camera_xy
        norm = float(np.linalg.norm(away))
        if norm < 1e-6:
            return False
        away /= norm
        for other in unread:
            d = other - centre
            along = float(d @ away)
            across = abs(float(d[0] * away[1] - d[1] * away[0]))
            if BEYOND_MM[0] <= along <= BEYOND_MM[1] and across <= BEYOND_ACROSS_MM:
                return True
        return False

    def _distance_from_camera(self, face: TopFace) -> float:
        return math.hypot(face.x_mm - self._camera_xy[0], face.y_mm - self._camera_xy[1])
