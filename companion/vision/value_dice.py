"""Dice with value stickers (`companion.markers.value_faces`): reading their faces, and their
top faces' values and places.

A value sticker is an ArUco-style marker (one black border cell, 3 x 3 data cells) of its own
six-marker dictionary, black on white for white dice and inverted for red ones. OpenCV finds
and decodes the black ones in the picture and the inverted ones in its negative (where their
black sticker margin and the red body turn light: on the realistic simulator at 720p /
53 cm / 30 deg this read 77 % of red dice's tops on one frame, OpenCV's own
`detectInvertedMarker` 51 %). The polarity, and with it the die's colour, is read from the
cells themselves: correlated with the value's pattern, a white die's face gives +1, a red
die's -1.

Where OpenCV finds the square but cannot decode it, its 5 x 5 cell means are compared with
the twelve stickers in four turns (`ValueTemplates`), as for ArUco die faces
(`companion.vision.dice_retry`), at the same thresholds.

Value faces carry no die's name. Which faces belong to one die is told by where they lie in
the dice-top plane (`ValueDice._group`), the top face among them by the same rules as for
ArUco dice (`TopFaceFilter`), and the die's name from its colour, the side of the mat and
where it lay before (`PipDiceNamer`, as for pip dice).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

import cv2
import numpy as np

from companion.markers.payload import ArucoMeaning
from companion.markers.value_faces import (
    VALUE_BORDER,
    VALUE_CODES,
    VALUE_GRID,
    ValueFace,
    takes_value_stickers,
    value_cells,
)
from companion.vision.cell_match import BLUR_CELLS, cell_inkiness, clockwise, turned_patterns
from companion.vision.decoders.aruco import ArucoOptions, _parameters
from companion.vision.detect import Detection, quad_side
from companion.vision.dice import (
    DIE_HEIGHT_MM,
    FACE_MARKER_MM,
    SIDE_TOLERANCE,
    FaceVerdict,
    TopFace,
    TopFaceFilter,
    possible_face_set,
    square_enough,
    square_error,
)
from companion.vision.geometry import CameraPose, CameraProfile, MatGeometry
from companion.vision.pips import PipDiceNamer, PipReading

VALUE_PREFIX = "value:"
MATCH_MIN = 0.8  # correlation of a square's cells with a value sticker ...
MATCH_MARGIN = 0.1  # ... over the best other value (either colour)
CONFIRM_MIN = 0.8  # an OpenCV decode's cells with its value's pattern, as for the closed set
BORDER_CELLS_OFF = 1  # border cells (of 16) allowed to look like paper (ink, inverted)
_BORDER = np.ones((VALUE_GRID, VALUE_GRID), bool)
_BORDER[VALUE_BORDER:-VALUE_BORDER, VALUE_BORDER:-VALUE_BORDER] = False
GOOD_PX_PER_CELL = 4.0
SAME_DIE_SLACK_MM = 4.0  # beyond the farthest a side face's marker can map from its top's
TOWARDS_CAMERA_COS = 0.6  # a side face lies between its top and the camera
SHARED_EDGE_DEG = 12.0  # a top and its side face share an edge: some pair of edges parallel
ACROSS_EDGE_DEG = 20.0  # ... and lie across it: the gap square to the shared edge
SQUARE_SLACK_DEG = 2.0


def value_dictionary() -> cv2.aruco.Dictionary:
    """The six value markers as an OpenCV dictionary (id = value - 1), with no bit
    correction: the markers differ in 3 cells, so a corrected cell could be a wrong value."""
    rows = []
    for value in sorted(VALUE_CODES):
        data = value_cells(value)[VALUE_BORDER:-VALUE_BORDER, VALUE_BORDER:-VALUE_BORDER]
        rows.append(cv2.aruco.Dictionary.getByteListFromBits((~data).astype(np.uint8)))
    return cv2.aruco.Dictionary(np.concatenate(rows), VALUE_GRID - 2 * VALUE_BORDER, 0)


def value_detection(face: ValueFace, corners: np.ndarray) -> Detection:
    """A Detection for a value sticker read at `corners` (no die named yet)."""
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    px_per_cell = quad_side(corners) / VALUE_GRID
    confidence = float(np.clip(px_per_cell / GOOD_PX_PER_CELL, 0.5, 1.0))
    return Detection("aruco", f"{VALUE_PREFIX}{face.kind}{face.value}", corners, confidence,
                     "value", aruco=ArucoMeaning("die", value=face.value))


def value_face_of(det: Detection) -> ValueFace | None:
    """The value sticker a Detection stands for, or None for any other marker."""
    if det.decoder != "value" or not det.text.startswith(VALUE_PREFIX):
        return None
    code = det.text[len(VALUE_PREFIX):]
    return ValueFace(int(code[1:]), code[0])


def _bordered(ink: np.ndarray, score: float, value: int, turn: int) -> bool:
    """Whether the cells' border is a marker's: all but `BORDER_CELLS_OFF` of its 16 cells
    nearer the sticker's ink cells than its paper cells (by the means of the data cells
    the value's pattern, in its turn, says are ink and paper; inverted stickers alike)."""
    cells = ink.reshape(VALUE_GRID, VALUE_GRID) * np.sign(score)
    pattern = np.rot90(value_cells(value), turn)
    inner = ~_BORDER
    paper = cells[inner & ~pattern]
    inked = cells[inner & pattern]
    if not paper.size or not inked.size:
        return False
    middle = (float(paper.mean()) + float(inked.mean())) / 2
    return int(np.count_nonzero(cells[_BORDER] <= middle)) <= BORDER_CELLS_OFF


class ValueTemplates:
    """The six value markers in 4 turns, centred and normalised: a square's cells correlate
    with +pattern on a white die's sticker and -pattern on a red die's."""

    def __init__(self) -> None:
        rows = []
        self._keys: list[tuple[int, int]] = []  # (value, quarter turns)
        for value in sorted(VALUE_CODES):
            for turn, row in enumerate(turned_patterns(value_cells(value))):
                rows.append(row)
                self._keys.append((value, turn))
        self._patterns = np.stack(rows)
        self._values = np.array([k[0] for k in self._keys], int)
        # every blur of `BLUR_CELLS`, for `best_score` against die faces matched so
        self._blurred = np.concatenate([
            np.stack([row for value in sorted(VALUE_CODES)
                      for row in turned_patterns(value_cells(value), blur)])
            for blur in BLUR_CELLS])

    @staticmethod
    def cells(gray: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
        """The square's 5 x 5 cell inkiness (mean-free, unit length), or None if flat."""
        return cell_inkiness(gray, quad, VALUE_GRID)

    def best_score(self, ink: np.ndarray) -> float:
        """The best correlation (either polarity) of a square's cell inkiness with any value
        sticker in any turn, through any blur of `BLUR_CELLS` (as die faces are matched)."""
        return float(np.abs(self._blurred @ ink).max())

    def match(self, gray: np.ndarray, quad: np.ndarray
              ) -> tuple[ValueFace, np.ndarray, float] | None:
        """(sticker, corners from its printed top-left, clockwise, score) of the one value
        sticker the square's cells match clearly, or None."""
        q = clockwise(np.asarray(quad, np.float64).reshape(4, 2))
        ink = self.cells(gray, q)
        if ink is None:
            return None
        scores = self._patterns @ ink
        best = int(np.argmax(np.abs(scores)))
        value, turn = self._keys[best]
        score = float(scores[best])
        others = np.abs(scores[self._values != value])
        if abs(score) < MATCH_MIN or float(abs(score) - others.max()) < MATCH_MARGIN:
            return None
        if not _bordered(ink, score, value, turn):
            return None
        face = ValueFace(value, "w" if score > 0 else "r")
        return face, np.roll(q, turn, axis=0), abs(score)

    def confirm(self, gray: np.ndarray, corners: np.ndarray, value: int) -> str | None:
        """The colour ("w" or "r") of a sticker OpenCV decoded as `value` at `corners` (its
        printed top-left first), if its cells agree: they correlate with the value's pattern
        in its decoded turn at least `CONFIRM_MIN` (the sign is the polarity) and beat every
        other value's, in any turn, by `MATCH_MARGIN`. None otherwise: OpenCV's hard
        threshold per cell reads three cells wrong now and then in a dark, noisy picture
        (a 4 read as a 1 at 720p in low light, on every frame), and it lets a third of a
        border's cells be wrong: here at most one may be."""
        ink = self.cells(gray, np.asarray(corners, np.float64).reshape(4, 2))
        if ink is None:
            return None
        scores = self._patterns @ ink
        score = float(scores[self._keys.index((value, 0))])
        others = np.abs(scores[self._values != value])
        if abs(score) < CONFIRM_MIN or abs(score) - float(others.max()) < MATCH_MARGIN:
            return None
        if not _bordered(ink, score, value, 0):
            return None  # no marker's border: a dark patch OpenCV took for one
        return "w" if score > 0 else "r"


class ValueFaceReader:
    """OpenCV's ArUco detector over the value dictionary, inverted markers included."""

    def __init__(self, options: ArucoOptions | None = None) -> None:
        self.options = options or ArucoOptions()
        self.templates = ValueTemplates()
        self._detectors: dict[float, cv2.aruco.ArucoDetector] = {}

    def _detector(self, perimeter_rate: float) -> cv2.aruco.ArucoDetector:
        key = round(perimeter_rate, 4)
        if key not in self._detectors:
            params = _parameters(self.options)
            params.minMarkerPerimeterRate = min(key, 4.0)
            self._detectors[key] = cv2.aruco.ArucoDetector(value_dictionary(), params)
        return self._detectors[key]

    def read(self, gray: np.ndarray, offset: Sequence[float] | np.ndarray = (0.0, 0.0),
             frame_px: int | None = None) -> tuple[list[Detection], list[np.ndarray]]:
        """Value stickers read in `gray` (a crop at `offset` of a frame whose larger side is
        `frame_px`), and the squares OpenCV found but did not decode (frame pixels)."""
        rate = self.options.min_perimeter_rate
        if frame_px is not None and frame_px != max(gray.shape[:2]):
            rate = rate * frame_px / max(gray.shape[:2])
        image = np.ascontiguousarray(gray)
        detector = self._detector(rate)
        corners, ids, rejected = detector.detectMarkers(image)
        # red dice's inverted stickers, read as ordinary markers in the negative picture
        negative, negative_ids, negative_rejected = detector.detectMarkers(255 - image)
        rejected = (*(rejected or ()), *(negative_rejected or ()))
        if negative_ids is not None:
            corners = (*corners, *negative)
            ids = negative_ids if ids is None else np.concatenate([ids, negative_ids])
        shift = np.asarray(offset, np.float64)
        found: list[Detection] = []
        for marker_id, quad in zip(() if ids is None else ids.ravel(), corners or (),
                                   strict=True):
            q = np.asarray(quad, np.float64).reshape(4, 2)
            value = int(marker_id) + 1
            kind = self.templates.confirm(image, q, value)
            if kind is not None:
                found.append(value_detection(ValueFace(value, kind), q + shift))
        squares = [np.asarray(q, np.float64).reshape(4, 2) + shift for q in (rejected or ())]
        return found, squares


def _edge_angles(quad: np.ndarray) -> list[float]:
    edges = np.roll(quad, -1, axis=0) - quad
    return [math.degrees(math.atan2(e[1], e[0])) for e in edges]


def _turn_apart(a_deg: float, b_deg: float) -> float:
    """How far apart two directions are, up to quarter turns (0-45 degrees)."""
    d = (a_deg - b_deg) % 90.0
    return min(d, 90.0 - d)


def _side_can_look_square(centre: np.ndarray, pose: CameraPose) -> bool:
    """Whether a side face seen here can map to a square, as a top does: mapped into the
    dice-top plane its height shrinks or grows by tan(view), so only where that is within
    the square test's tolerance of 1 (38-51 degrees, 2 degrees' slack either side)."""
    view = pose.view_angle_deg(float(centre[0]), float(centre[1]))
    low = math.degrees(math.atan(1.0 - SIDE_TOLERANCE)) - SQUARE_SLACK_DEG
    high = math.degrees(math.atan(1.0 + SIDE_TOLERANCE)) + SQUARE_SLACK_DEG
    return low <= view <= high


class ValueDice:
    """The dice with value stickers on the table: faces grouped into dice, each die's top
    face kept by `TopFaceFilter`'s rules, and the dice named by colour, side and place."""

    def __init__(self, names: Sequence[str], zone_at: Callable[[float, float], str | None],
                 mat_height_mm: float, camera: CameraProfile | None = None) -> None:
        self.names = [n for n in names if takes_value_stickers(n)]
        self.top_faces = TopFaceFilter(None, camera=camera)
        self.namer = PipDiceNamer(self.names, zone_at, mat_height_mm, steady=True)
        self.camera = camera

    def tops(self, dets: Sequence[Detection], geometry: MatGeometry,
             image_size: tuple[int, int], mat_size: tuple[float, float],
             squares: Sequence[np.ndarray] = (), gray: np.ndarray | None = None
             ) -> list[tuple[str, TopFace]]:
        """(colour, top face) of every die whose value stickers read (`dets`: any markers,
        value stickers are picked out), the top face among each die's faces."""
        return self.judge(dets, geometry, image_size, mat_size, squares, gray)[0]

    def judge(self, dets: Sequence[Detection], geometry: MatGeometry,
              image_size: tuple[int, int], mat_size: tuple[float, float],
              squares: Sequence[np.ndarray] = (), gray: np.ndarray | None = None
              ) -> tuple[list[tuple[str, TopFace]], list[FaceVerdict]]:
        """`tops`, and why each other value sticker read gives no value."""
        faces = [(d, f) for d in dets if (f := value_face_of(d)) is not None]
        if not faces:
            return [], []
        plane = geometry.plane_homography(DIE_HEIGHT_MM, image_size, self.camera)
        quads = cv2.perspectiveTransform(
            np.array([d.corners for d, _ in faces], np.float64).reshape(-1, 1, 2),
            plane).reshape(-1, 4, 2)
        square = [square_enough(*square_error(q, FACE_MARKER_MM)) for q in quads]
        pose = geometry.pose(image_size, self.camera)
        group = self._group(faces, quads, square, pose)
        named: list[Detection] = []
        kinds: dict[str, str] = {}
        original: dict[int, Detection] = {}
        for i, (det, face) in enumerate(faces):
            name = f"{face.kind}?{group[i]}"
            kinds[name] = face.kind
            named.append(Detection(det.kind, det.text, det.corners, det.confidence,
                                   det.decoder, aruco=ArucoMeaning("die", die=name,
                                                                   value=face.value)))
            original[id(named[-1])] = det
        tops, dropped = self.top_faces.judge(named, geometry, image_size, mat_size, squares,
                                             gray)
        return ([(kinds[t.die], replace(t, detection=original[id(t.detection)])) for t in tops],
                [FaceVerdict(original[id(v.detection)], v.reason) for v in dropped])

    def _group(self, faces: Sequence[tuple[Detection, ValueFace]], quads: np.ndarray,
               square: Sequence[bool], pose: CameraPose) -> list[int]:
        """Which die each face belongs to (an index per face). Faces that map to a square
        come first, each its own die, unless where a side face can look square too; every
        other face joins the die it can be a side face of whose nearest face is nearest. A
        die never gets two faces no die shows at once (the same value twice, two opposite
        ones, more than three), so no chain of faces joins two dice."""
        members: list[list[int]] = []
        order = sorted(range(len(faces)), key=lambda i: not square[i])
        for i in order:
            best: tuple[float, int] | None = None
            for g, group in enumerate(members):
                values = [faces[j][1].value for j in group] + [faces[i][1].value]
                if not possible_face_set(sorted(values)):
                    continue
                if square[i] and not _side_can_look_square(quads[i].mean(axis=0), pose):
                    break  # a top here: a side face never maps to a square
                for j in group:
                    if self._one_die(faces[i][1], faces[j][1], quads[i], quads[j], pose):
                        dist = float(np.linalg.norm(quads[i].mean(axis=0)
                                                    - quads[j].mean(axis=0)))
                        if best is None or dist < best[0]:
                            best = (dist, g)
            if best is None:
                members.append([i])
            else:
                members[best[1]].append(i)
        out = [0] * len(faces)
        for g, group in enumerate(members):
            for i in group:
                out[i] = g
        return out

    @staticmethod
    def _one_die(a: ValueFace, b: ValueFace, qa: np.ndarray, qb: np.ndarray,
                 pose: CameraPose) -> bool:
        """Whether two faces read can be faces of one die, from their quads in the dice-top
        plane: one colour, two values a die shows at once (different, not opposite), the
        one nearer the camera no farther from the other than a side face's marker maps from
        its top, displaced across an edge they share (a die's faces are square to each
        other; a neighbouring die lies at any turn)."""
        if a.kind != b.kind or a.value == b.value or a.value + b.value == 7:
            return False
        ca, cb = qa.mean(axis=0), qb.mean(axis=0)
        view = pose.view_angle_deg(float(ca[0]), float(ca[1]))
        gap = cb - ca
        dist = float(np.linalg.norm(gap))
        reach = DIE_HEIGHT_MM / 2 * (1 + math.tan(math.radians(min(view, 75.0))))
        if dist > reach + SAME_DIE_SLACK_MM:
            return False
        if dist < 1e-6:
            return True
        cos = abs(float(np.dot(gap / dist, pose.towards_camera(float(ca[0]), float(ca[1])))))
        if cos < TOWARDS_CAMERA_COS:
            return False
        gap_deg = math.degrees(math.atan2(gap[1], gap[0]))
        edges_a, edges_b = _edge_angles(qa), _edge_angles(qb)
        shared = any(_turn_apart(x, y) <= SHARED_EDGE_DEG for x in edges_a for y in edges_b)
        across = any(_turn_apart(gap_deg, x) <= ACROSS_EDGE_DEG for x in (*edges_a, *edges_b))
        return shared and across

    def name(self, tops: Sequence[tuple[str, TopFace]], time_s: float,
             taken: Collection[str] = ()) -> list[tuple[str, TopFace]]:
        """The dice's names (`pN.wK`, `pN.rK`), none of `taken` (dice read by their own
        ArUco stickers on the same table)."""
        if taken:
            self.namer.names = [n for n in self.names if n not in taken]
        else:
            self.namer.names = list(self.names)
        readings = [PipReading(kind, t.value, t.x_mm, t.y_mm, t.angle_deg % 90.0,
                               t.confidence) for kind, t in tops]
        by_reading = {id(r): t for r, (_, t) in zip(readings, tops, strict=True)}
        return [(name, by_reading[id(r)]) for name, r in self.namer.name(readings, time_s)]
