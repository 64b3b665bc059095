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
  from; a true top has only the table beyond it;
- in that band of view angles a face read alone (no other face of its die read) is taken only
  when it is square to 18 % and 9 degrees (the tops measured there: at most 17 % and 8
  degrees; side faces turned a little from the camera are sheared by 10-48 degrees), a
  marker-dark face shows in front of it (its own side face, towards the camera; a side face
  has the table there) and less dark beyond it (where its top would be, were it a side face;
  `darkness_beyond`). A top that fails is not read on this frame (a miss, never a wrong
  value); seen with one of its side faces (nearer the camera, whatever its shape) it is.
- a die whose faces read could not be seen together on a real die (two opposite faces, which
  sum to 7, one face twice, more than three) gives no value on this frame;
- a die the game does not use, or a face outside the mat, is never a die (a mirrored or
  misread marker, a die from another game on the table): it is reported as an unknown marker.
Mapping the top face at die height also puts the die where it really lies: on the flat mat
homography its top would appear up to a centimetre away from the camera.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import cv2
import numpy as np

from companion.vision.detect import Detection
from companion.vision.die_geometry import DIE_MM, MARKER_MM, predicted_top
from companion.vision.geometry import CameraProfile, MatGeometry

DIE_HEIGHT_MM = DIE_MM  # the dice the stickers are made for (`die_geometry`)
FACE_MARKER_MM = MARKER_MM
SIDE_TOLERANCE = 0.22  # each mapped edge within 22 % of the marker's side
ANGLE_TOLERANCE_DEG = 16.0  # and each corner within 16 degrees of square
SAME_DIE_MM = 30.0  # faces of one die lie within this of each other in the dice-top plane
SIDE_BAND_DEG = (34.0, 56.0)  # lines of sight along which a side face can look square
STRICT_TOLERANCE = 0.18  # there a face read alone must be this square (tops measured <= 0.17
STRICT_ANGLE_DEG = 9.0  # and 8 degrees at 68 cm / 40 deg; side faces mostly 10-48 degrees)
DARK_FRONT = 0.6  # ... its own side face's marker must show in front of it (towards the camera)
DARK_MARGIN = 0.3  # ... darker than what lies beyond it by this much (`darkness_beyond`;
# measured at 68 cm / 40 deg, one frame of 6 scenes: tops in front 1-51, beyond 0-3 (37 of 39
# pass); side faces in front 0-2, beyond 0.8-15, in front minus beyond at most -0.37, none pass)
BEYOND_MM = (7.0, 21.0)  # a side face's top face lies this far beyond it (away from the camera)
OCCUPIED_MM = 7.0  # another die's face read this near where a face's top would be: no side face
BEYOND_ACROSS_MM = 7.0  # ... and at most this far to either side of its line of sight
TOP_AT_MM = 4.0  # ... and this near where a side face's top lies
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


DropReason = Literal["side", "shape", "not-in-game", "off-mat", "ambiguous", "unsure",
                     "impossible"]

DROP_REASONS: dict[str, str] = {
    "side": "a side face (the value is the top face's)",
    "shape": "not a die's top face (a side face or a misread)",
    "not-in-game": "not a die of this game",
    "off-mat": "outside the mat",
    "ambiguous": "one die in two places: not trusted",
    "unsure": ("read alone where a side face can look square, with nothing to tell it from "
               "one: not trusted"),
    "impossible": ("faces no real die shows at once (two opposite, or more than three): "
                   "not trusted"),
}
"""Each reason a face is not taken as a die's value, in words for `companion scan`."""


@dataclass(frozen=True)
class FaceVerdict:
    detection: Detection
    reason: DropReason


def possible_face_set(values: Sequence[int]) -> bool:
    """Whether one die can show these faces at once: at most three, all different, no two
    opposite (opposite faces sum to 7 and are never seen together). Which value is on which
    side depends on how the stickers were put on (the print sheet says only that opposite
    faces sum to 7), so nothing more is checked."""
    if len(values) > 3 or len(set(values)) != len(values):
        return False
    return all(a + b != 7 for i, a in enumerate(values) for b in values[i + 1:])


def square_enough(rel: float, angle_deg: float) -> bool:
    """Whether a face mapped into the dice-top plane passes a top face's square test, from its
    `square_error`."""
    return rel <= SIDE_TOLERANCE and angle_deg <= ANGLE_TOLERANCE_DEG


def _heading_deg(quad_mm: np.ndarray) -> float:
    """Which way a face's marker points in the plane: its top edge's direction, averaged
    with the bottom edge's."""
    top = (quad_mm[1] - quad_mm[0]) + (quad_mm[2] - quad_mm[3])
    return math.degrees(math.atan2(top[1], top[0])) % 360.0


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
        self._pose: Any = None
        self._mat_to_image = np.eye(3)

    def camera_pose(self, geometry: MatGeometry, image_size: tuple[int, int]) -> Any:
        """The camera's pose over the mat (`CameraPose`), as the top test uses it."""
        self._lifted(geometry, image_size)
        return self._pose

    def _lifted(self, geometry: MatGeometry, image_size: tuple[int, int]) -> np.ndarray:
        key = (*np.round(geometry.homography.ravel(), 9), *image_size)
        if key != self._cache_key or self._plane is None:
            pose = geometry.pose(image_size, self.camera)
            self._plane = pose.plane_homography(np.linalg.inv(geometry.homography),
                                                self.die_height_mm)
            self._camera_xy = pose.centre_mm[:2].copy()
            self._pose = pose
            self._mat_to_image = np.linalg.inv(geometry.homography)
            self._cache_key = key
        return self._plane

    def judge(
        self,
        detections: Sequence[Detection],
        geometry: MatGeometry,
        image_size: tuple[int, int],
        mat_size: tuple[float, float],
        squares: Sequence[np.ndarray] = (),
        gray: np.ndarray | None = None,
    ) -> tuple[list[TopFace], list[FaceVerdict]]:
        """The top faces among `detections` (die faces only are looked at), and why each
        other die face was dropped. `squares`: die-sized dark squares (4x2 px) that did not
        decode; `gray`: the picture, to look beyond a face read alone."""
        plane = self._lifted(geometry, image_size)
        unread = (cv2.perspectiveTransform(
            np.concatenate([np.asarray(q, np.float64).reshape(4, 2) for q in squares])
            .reshape(-1, 1, 2), plane).reshape(-1, 4, 2).mean(axis=1) if len(squares)
            else np.zeros((0, 2)))
        dropped: list[FaceVerdict] = []
        candidates: list[TopFace] = []
        shapes: dict[int, tuple[float, float, np.ndarray]] = {}
        decoded: dict[str, list[np.ndarray]] = {}  # every face of a die read, in the plane
        values: dict[str, list[int]] = {}  # ... and its value
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
            decoded.setdefault(meaning.die, []).append(centre)
            values.setdefault(meaning.die, []).append(int(meaning.value or 0))
            rel, angle = square_error(quad, self.marker_mm)
            if not square_enough(rel, angle):
                dropped.append(FaceVerdict(det, "shape"))
                continue
            view = float(self._pose.view_angle_deg(x, y))
            if SIDE_BAND_DEG[0] <= view <= SIDE_BAND_DEG[1] and self._top_beyond(
                    centre, unread, det.corners):
                # only there can a side face pass the square test at all
                dropped.append(FaceVerdict(det, "side"))
                continue
            heading = _heading_deg(quad)
            quality = 1.0 - 0.5 * max(rel / SIDE_TOLERANCE, angle / ANGLE_TOLERANCE_DEG)
            candidates.append(TopFace(meaning.die, int(meaning.value or 0), x, y, heading,
                                      det.confidence * quality, det))
            shapes[id(det)] = (rel, angle, quad)
        tops: list[TopFace] = []
        for die in sorted({c.die for c in candidates}):
            faces = [c for c in candidates if c.die == die]
            if not possible_face_set(sorted(set(values.get(die, [])))):
                # two opposite faces, or more than three: no real die shows that
                dropped.extend(FaceVerdict(f.detection, "impossible") for f in faces)
                continue
            best = max(faces, key=self._distance_from_camera)
            if any(math.hypot(f.x_mm - best.x_mm, f.y_mm - best.y_mm) > SAME_DIE_MM
                   for f in faces):
                # one die in two places: a misread or a duplicate sticker; say nothing
                dropped.extend(FaceVerdict(f.detection, "ambiguous") for f in faces)
                continue
            others = [c for other, centres in decoded.items() if other != die
                      for c in centres]
            if not self._seen_with_side(best, decoded[die]) and not self._alone_ok(
                    best, shapes[id(best.detection)], gray, others):
                dropped.append(FaceVerdict(best.detection, "unsure"))
                continue
            tops.append(best)
            dropped.extend(FaceVerdict(f.detection, "side") for f in faces if f is not best)
        return tops, dropped

    def placed(self, det: Detection, geometry: MatGeometry, image_size: tuple[int, int]
               ) -> TopFace | None:
        """A face known otherwise to be its die's top (`top_from_side`), placed as `judge`
        places a top: its centre and heading in the dice-top plane."""
        meaning = det.aruco
        if meaning is None or meaning.die is None:
            return None
        plane = self._lifted(geometry, image_size)
        quad = cv2.perspectiveTransform(
            np.asarray(det.corners, np.float64).reshape(-1, 1, 2), plane).reshape(4, 2)
        centre = quad.mean(axis=0)
        return TopFace(meaning.die, int(meaning.value or 0), float(centre[0]),
                       float(centre[1]), _heading_deg(quad), det.confidence, det)

    def _top_beyond(self, centre: np.ndarray, unread: np.ndarray,
                    corners_px: np.ndarray) -> bool:
        """Whether an unread die-sized square (centres N x 2 in the plane) lies where this
        face's top face would be, were it a side face: beyond it, away from the camera, and
        (where the face's shape tells) right where a side face's top lies
        (`die_geometry.predicted_top`), not merely near: a neighbouring die's unread face
        beyond a top made that top a side face (the only die the bench lost at 53 cm)."""
        away = centre - self._camera_xy
        norm = float(np.linalg.norm(away))
        if norm < 1e-6 or not len(unread):
            return False
        away = away / norm
        d = unread - centre
        along = d @ away
        across = np.abs(d[:, 0] * away[1] - d[:, 1] * away[0])
        near = (along >= BEYOND_MM[0]) & (along <= BEYOND_MM[1]) & (across <= BEYOND_ACROSS_MM)
        if not near.any():
            return False
        predicted = predicted_top(corners_px, self._pose, self._mat_to_image)
        if predicted is None:
            return True
        assert self._plane is not None
        top = cv2.perspectiveTransform(predicted.reshape(-1, 1, 2), self._plane
                                       ).reshape(4, 2).mean(axis=0)
        return bool(np.any(np.linalg.norm(unread[near] - top, axis=1) <= TOP_AT_MM))

    def _seen_with_side(self, top: TopFace, faces: Sequence[np.ndarray]) -> bool:
        """Whether another face of the same die was read nearer the camera (a side face,
        whatever its shape): then `top`, the farthest, is the top face."""
        far = self._distance_from_camera(top)
        return any(far - math.hypot(c[0] - self._camera_xy[0], c[1] - self._camera_xy[1]) >= 5.0
                   for c in faces)

    def _alone_ok(self, face: TopFace, shape: tuple[float, float, np.ndarray],
                  gray: np.ndarray | None, others: Sequence[np.ndarray] = ()) -> bool:
        """A face read alone, in the band of view angles where a side face can look square:
        square enough, with a marker-dark side face in front of it (towards the camera) and
        less dark beyond it (where its top would be, were it a side face). A side face has
        the table in front of it: refused even when its top is washed out by glare. Where a
        face of another die (`others`, centres in the plane) was read at that place beyond,
        its darkness there is that die's: this face's own top cannot be there, so it is no
        side face, and only the dark side face in front is asked for."""
        view = float(self._pose.view_angle_deg(face.x_mm, face.y_mm))
        if not SIDE_BAND_DEG[0] <= view <= SIDE_BAND_DEG[1]:
            return True
        rel, angle, quad = shape
        if rel > STRICT_TOLERANCE or angle > STRICT_ANGLE_DEG:
            return False
        if gray is None:
            return True
        front = self.darkness_beyond(gray, quad, face.detection.corners, view, towards=1.0)
        if front < DARK_FRONT:
            return False
        if self._top_place_taken(quad.mean(axis=0), view, others):
            return True
        beyond = self.darkness_beyond(gray, quad, face.detection.corners, view)
        return front - beyond >= DARK_MARGIN

    def _top_place_taken(self, centre: np.ndarray, view_deg: float,
                         others: Sequence[np.ndarray]) -> bool:
        """Whether a face of another die was read where this face's top would lie, were it a
        side face (the place `darkness_beyond` looks at). Two dice never lie closer than a
        die's width, so that place would be this die's own top."""
        if not len(others):
            return False
        top = centre + self._to_top_mm(centre, view_deg)
        return bool(np.min(np.linalg.norm(np.asarray(others) - top, axis=1)) <= OCCUPIED_MM)

    def _to_top_mm(self, centre: np.ndarray, view_deg: float) -> np.ndarray:
        """From a face's centre in the plane to where its die's top would lie, were it a side
        face: 8 + 8 tan(view) mm away from the camera."""
        away = centre - self._camera_xy
        away = away / max(float(np.linalg.norm(away)), 1e-6)
        return np.asarray(away * (0.5 * self.die_height_mm
                                  * (1.0 + math.tan(math.radians(min(view_deg, 70.0))))))

    def darkness_beyond(self, gray: np.ndarray, quad_mm: np.ndarray, corners_px: np.ndarray,
                        view_deg: float, towards: float = -1.0) -> float:
        """How much darker than the table beside it the place beyond a face is (where its die's
        top face would be, were it a side face: the mapped quad moved 8 + 8 tan(view) mm away
        from the camera; `towards` = 1: that far towards the camera, where its side face would
        be, were it the top), in units of the face's own marker's darkness against its sticker:
        about 1 for another marker there, about 0 for the bare table or mat whatever its
        colour (the table beside: the same quad 22 mm to either side, the brighter one)."""
        assert self._plane is not None
        centre = quad_mm.mean(axis=0)
        to_top = self._to_top_mm(centre, view_deg)
        across = np.array([to_top[1], -to_top[0]]) / max(float(np.linalg.norm(to_top)), 1e-6)
        shift = -towards * to_top
        inner = (quad_mm - centre) * 0.8 + centre  # the marker, without its border's edge
        to_image = np.linalg.inv(self._plane)
        places = [cv2.perspectiveTransform((inner + shift + k * 22.0 * across).reshape(-1, 1, 2),
                                           to_image).reshape(4, 2) for k in (0, -1, 1)]
        own = np.asarray(corners_px, np.float64).reshape(4, 2)
        allpts = np.concatenate([own, *places])
        lo = np.maximum(np.floor(allpts.min(axis=0)).astype(int) - 4, 0)
        hi = np.minimum(np.ceil(allpts.max(axis=0)).astype(int) + 4,
                        [gray.shape[1], gray.shape[0]])
        if np.any(hi - lo < 4):
            return 0.0
        crop = gray[lo[1]:hi[1], lo[0]:hi[0]].astype(np.float32)

        def mean_in(poly: np.ndarray) -> float | None:
            mask = np.zeros(crop.shape, np.uint8)
            cv2.fillConvexPoly(mask, np.round(poly - lo).astype(np.int32), 1)
            return float(crop[mask > 0].mean()) if mask.any() else None

        own_c = own.mean(axis=0)
        m_face = mean_in((own - own_c) * 0.8 + own_c)
        m_sticker = mean_in((own - own_c) * 1.3 + own_c)  # marker and sticker margin
        means = [mean_in(p) for p in places]
        if m_face is None or m_sticker is None or any(m is None for m in means):
            return 0.0
        beyond, left, right = (float(m) for m in means if m is not None)
        # the sticker's white from the ring between the marker and 1.3 x its size
        ring = (m_sticker * 1.69 - m_face * 0.64) / (1.69 - 0.64)
        return (max(left, right) - beyond) / max(ring - m_face, 1.0)

    def _distance_from_camera(self, face: TopFace) -> float:
        return math.hypot(face.x_mm - self._camera_xy[0], face.y_mm - self._camera_xy[1])
