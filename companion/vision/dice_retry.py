"""Die faces at the physical limit: read again, frame after frame, where a die-sized dark square
was found but did not decode.

At 2.6-4 px per cell (720p at 53 cm, 1080p at 68 cm) a die face's read comes and goes from
frame to frame with the sensor noise, the JPEG and the autofocus: on the realistic simulator
at 720p / 53 cm / 30 deg, 40 % of the visible top faces read on one frame but 68 % on at least
one of 8 frames of a still scene (a mean of those 8 frames reads only 46 %: the noise is not
what stops them, the sampling is). The pipeline's full ArUco pass runs once every 45 frames and
a still table gets no other, so a face missed there stayed missed. This keeps the unexplained
squares of the last pass whose size is that of a die face at its place on the mat, and reads a
few small crops around them on each still frame (4 a frame, up to 8 tries a square, about 5 ms
a frame at 1080p on one core) until a die face is read there.

Where ArUco still cannot decode a candidate, it is compared with the closed set of the game's
die faces (`FaceTemplates`: 6 faces of each die the game uses, in 4 turns): the 6 x 6 cell
means against each marker's cells, as printed and as seen through a few blurs. A closed set is
far easier than open decoding, but the 4 x 4 markers are close to each other, so a match
counts only when it correlates >= 0.85 (0.8 before the blurred templates), beats every other
face by >= 0.1, and the same face matched the same candidate on the frame before. (With the
printed cells only, at 720p / 53 cm / 30 deg, 6 scenes: 29 of 84 unread tops matched on single
frames at 0.8 and no wrong die or value in 336 candidate reads; at 0.7 two wrong.)

Value stickers (`companion.vision.value_dice`) are looked for in the same crops, decoded by
their own dictionary or matched against their twelve stickers at the same thresholds.

Nothing here decides a value: every face read goes through `TopFaceFilter` like any other.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from companion.markers.payload import die_face_id
from companion.markers.render import aruco_dictionary, aruco_modules
from companion.vision.cell_match import BLUR_CELLS, cell_inkiness, clockwise, turned_patterns
from companion.vision.decoders.aruco import ArucoReader, _parameters
from companion.vision.detect import Detection, interpret_aruco, quad_side
from companion.vision.die_geometry import MARKER_MM
from companion.vision.geometry import MatGeometry
from companion.vision.value_dice import ValueFaceReader, value_detection

FACE_MARKER_MM = MARKER_MM
SIZE_RANGE = (0.55, 1.6)  # a candidate's side over a die face marker's side at its place
CROP_MARGIN = 0.5  # the crop: the square grown by half its side on every side
PER_FRAME = 4  # crops read per frame (round robin): about 1 ms each at 1080p
MAX_TRIES = 8  # a square that never reads in this many tries is given up (card art)
CROP_PERIMETER_RATE = 0.3  # smallest marker perimeter looked for, of the crop's larger side
MAX_CANDIDATES = 60
MATCH_MIN = 0.85  # correlation of a candidate's cells with a die face's marker, blurred as
# the picture is (`BLUR_CELLS`) ...
MATCH_MARGIN = 0.1  # ... over the best other face, blurred alike
# (templates blurred as `cell_match.BLUR_CELLS`: at true top outlines on 720p pictures, 30
# and 0 degrees, 24 scenes, 374 tops, blurred templates at 0.85 matched 369 tops where the
# printed cells at 0.8 matched 342, no top as another face either way, and 1 of 381 squares
# away from dice as either; blurred at 0.8: 7)
# a square whose corners may be off a little is tried shifted (in steps of `shift_px`), grown
# and turned (`FaceTemplates.fitted`)
FIT_SHIFTS = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))
FIT_SCALES = (0.92, 1.0, 1.08)
FIT_TURNS_DEG = (-5.0, 0.0, 5.0)
FIT_GATE = 0.65  # squares found anywhere: searched once as given or at the middle size they
# correlate this well (with the printed cells, 720p tops that matched in the end: 0.57-0.9 at
# the outline's own size, and the gate was 0.55; with blurred templates, 16 scenes at 720p:
# 0.66 and more, and 0.65 searches 66 of 200 squares that match nothing where 0.55 searched
# 146: the bench's 720p and 1080p dice the same, the timed sequence 2 ms a frame faster)


class FaceTemplates:
    """The markers of every face of the game's dice, in 4 turns, each as the camera sees it
    through each blur of `BLUR_CELLS`, for closed-set matching."""

    def __init__(self, dice: Sequence[str]) -> None:
        markers = [die_face_id(die, value) for die in dice for value in range(1, 7)]
        self._keys = [(marker_id, turn) for marker_id in markers for turn in range(4)]
        # one bank of rows per blur: blur x (marker, turn) x cells
        self._patterns = (np.concatenate([_face_rows(m) for m in markers], axis=1) if markers
                          else np.zeros((len(BLUR_CELLS), 0, 36)))
        self._ids = np.array([k[0] for k in self._keys], int)

    def match(self, gray: np.ndarray, quad: np.ndarray) -> tuple[int, np.ndarray] | None:
        """(marker id, corners from the marker's top-left, clockwise) of the one face the
        square's cells match clearly, or None."""
        best = self.best(gray, quad)
        if best is None or best[2] < MATCH_MIN or best[3] < MATCH_MARGIN:
            return None
        return best[0], best[1]

    def agrees(self, gray: np.ndarray, det: Detection) -> bool:
        """Whether a die face OpenCV decoded looks most like that face of all the game's die
        faces (or the set has no opinion: not a die face, a flat square, a marker outside the
        set). OpenCV corrects a few wrong bits, and two of the game's faces, turned, can lie
        that close: on a laptop's blurred picture a die showing 1 (marker 0) decoded as another
        die's 1 (marker 150), whose cells matched it less well (0.82 against 0.85)."""
        marker_id = det.marker_id
        if (marker_id is None or det.aruco is None or det.aruco.kind != "die"
                or marker_id not in self._ids):
            return True
        found = self.best(gray, det.corners)
        return found is None or found[0] == marker_id

    def fitted(self, gray: np.ndarray, quad: np.ndarray, among: Collection[int] | None = None,
               wanted: Collection[int] | None = None, shift_px: float = 1.0,
               scales: Sequence[float] = FIT_SCALES, gate: float | None = None
               ) -> tuple[int, np.ndarray, float] | None:
        """Like `match`, for a square whose corners are off by a pixel or two (predicted, or
        the outline of a blurred face): tried a little shifted, grown and turned, the best clear
        match kept (of the marker ids `among`, and one of `wanted`); (marker id, corners from
        its top-left, clockwise, correlation) or None."""
        q = np.asarray(quad, np.float64).reshape(4, 2)
        centre = q.mean(axis=0)
        # `gate`: most squares found anywhere are no die face (card art): a first look at the
        # square as given and at the middle size tried spares them the whole search
        if gate is not None:
            middle = scales[len(scales) // 2]
            first = [self.best(gray, (q - centre) * k + centre, among) for k in {1.0, middle}]
            if max((f[2] for f in first if f is not None), default=-1.0) < gate:
                return None
        best: tuple[float, int, np.ndarray] | None = None
        for (dx, dy), scale, turn in itertools.product(FIT_SHIFTS, scales, FIT_TURNS_DEG):
            c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
            rotation = np.array([[c, -s], [s, c]])
            tried = (q - centre) @ rotation.T * scale + centre + shift_px * np.array([dx, dy])
            found = self.best(gray, tried, among)
            if found is None:
                continue
            marker_id, corners, score, lead = found
            if ((wanted is None or marker_id in wanted) and score >= MATCH_MIN
                    and lead >= MATCH_MARGIN and (best is None or score > best[0])):
                best = (score, marker_id, corners)
        return None if best is None else (best[1], best[2], best[0])

    def best(self, gray: np.ndarray, quad: np.ndarray, among: Collection[int] | None = None
             ) -> tuple[int, np.ndarray, float, float] | None:
        """The face the square's cells match best (of the marker ids `among`, or all): (marker
        id, corners from its top-left, clockwise, correlation, lead over the best other face);
        None where the square is flat. The blur is the one whose best face correlates most;
        the lead is measured among faces of that blur."""
        keep = (np.ones(len(self._ids), bool) if among is None
                else np.isin(self._ids, list(among)))
        if not keep.any():
            return None
        q = clockwise(np.asarray(quad, np.float64).reshape(4, 2))
        ink = cell_inkiness(gray, q, 6)
        if ink is None:
            return None
        every = np.where(keep, self._patterns @ ink, -np.inf)  # blur x rows
        scores = every[int(np.argmax(every.max(axis=1)))]
        index = int(np.argmax(scores))
        marker_id, turn = self._keys[index]
        others = scores[keep & (self._ids != marker_id)]
        lead = float(scores[index] - others.max()) if others.size else 1.0
        # the pattern turned `turn` quarter turns anticlockwise matched: the marker's own
        # top-left corner is `turn` corners back along the clockwise quad
        return marker_id, np.roll(q, turn, axis=0), float(scores[index]), lead


@cache
def _face_rows(marker_id: int) -> np.ndarray:
    """One die face's marker as `FaceTemplates` correlates it: blur x turn x cells, for each
    blur of `BLUR_CELLS`. Every pipeline (two per table: the retries' and the magnifier's) and
    every scan asks for the same faces, and blurring them all took 0.2 s a set: made once."""
    cells = aruco_modules(marker_id)
    rows = np.stack([np.stack(turned_patterns(cells, blur)) for blur in BLUR_CELLS])
    rows.setflags(write=False)
    return rows


@dataclass
class _Candidate:
    quad: np.ndarray  # 4x2 px
    tries: int = 0
    matched: object = None  # the face matched on the last try (closed-set matching)


class DiceRetry:
    """Remembers die-sized unexplained squares; reads crops around them each frame."""

    def __init__(self, reader: ArucoReader, per_frame: int = PER_FRAME,
                 dice: Sequence[str] | None = None,
                 values: ValueFaceReader | None = None) -> None:
        self.reader = reader
        self.values = values
        params = _parameters(reader.options)
        params.minMarkerPerimeterRate = CROP_PERIMETER_RATE  # the crops are 3 faces wide
        self._detector = cv2.aruco.ArucoDetector(aruco_dictionary(), params)
        self.templates = FaceTemplates(dice) if dice else None
        self.per_frame = per_frame
        self._candidates: list[_Candidate] = []

    def clear(self) -> None:
        self._candidates = []

    def remember(self, squares: Sequence[np.ndarray], symbols: Sequence[np.ndarray],
                 geometry: MatGeometry, mat_size: tuple[float, float],
                 boxes: Sequence[tuple[int, int, int, int]] | None = None) -> None:
        """The die-sized squares of an ArUco pass (`boxes`: the crops it read, None: the whole
        frame); those inside a decoded card sticker (`symbols`) are its modules, not dice."""
        def inside(quad: np.ndarray) -> bool:
            if boxes is None:
                return True
            cx, cy = quad.mean(axis=0)
            return any(x0 <= cx < x1 and y0 <= cy < y1 for x0, y0, x1, y1 in boxes)

        kept = [c for c in self._candidates if not inside(c.quad)]
        for quad in squares:
            q = np.asarray(quad, np.float64).reshape(4, 2)
            centre = q.mean(axis=0)
            if any(cv2.pointPolygonTest(s.reshape(-1, 1, 2).astype(np.float32),
                                        (float(centre[0]), float(centre[1])), False) >= 0
                   for s in symbols):
                continue
            mat = geometry.to_mat(centre.reshape(1, 2)).reshape(2)
            if not (0 <= mat[0] <= mat_size[0] and 0 <= mat[1] <= mat_size[1]):
                continue
            expected = FACE_MARKER_MM * geometry.px_per_mm(float(mat[0]), float(mat[1]))
            side = quad_side(q)
            if not SIZE_RANGE[0] * expected <= side <= SIZE_RANGE[1] * expected:
                continue
            if any(float(np.linalg.norm(c.quad.mean(axis=0) - centre)) < 0.5 * side
                   for c in kept):
                continue
            kept.append(_Candidate(q))
        self._candidates = kept[-MAX_CANDIDATES:]

    def _unexplained(self, dets: Sequence[Detection]) -> list[_Candidate]:
        """The candidates whose centre no marker read lies near (vectorised: this runs on
        every frame over every candidate and every marker)."""
        if not self._candidates:
            return []
        faces = [d.corners for d in dets if d.aruco is not None]
        if not faces:
            return list(self._candidates)
        centres = np.array([np.asarray(f, np.float64).reshape(4, 2).mean(axis=0)
                            for f in faces])
        cand = np.array([c.quad.mean(axis=0) for c in self._candidates])
        sides = np.array([quad_side(c.quad) for c in self._candidates])
        dist = np.linalg.norm(cand[:, None, :] - centres[None, :, :], axis=2)
        explained = (dist < sides[:, None] / 3).any(axis=1)
        return [c for c, e in zip(self._candidates, explained, strict=True) if not e]

    def open_squares(self, dets: Sequence[Detection]) -> list[np.ndarray]:
        """The candidates no marker read explains: unread die faces (or anything die-sized
        and dark: what lies beyond a face only ever makes it a side face, never a value)."""
        return [c.quad for c in self._unexplained(dets)]

    def read(self, gray: np.ndarray, dets: Sequence[Detection]) -> list[Detection]:
        """Die faces (ArUco die stickers and, for a table of value-sticker dice, value
        stickers) read around the candidates no die face read explains."""
        open_ = [c for c in self._unexplained(dets) if c.tries < MAX_TRIES]
        open_.sort(key=lambda c: c.tries)
        found: list[tuple[int, np.ndarray]] = []
        read_values: list[Detection] = []
        height, width = gray.shape[:2]
        for cand in open_[:self.per_frame]:
            cand.tries += 1
            lo, hi = cand.quad.min(axis=0), cand.quad.max(axis=0)
            grow = CROP_MARGIN * float((hi - lo).max())
            x0, y0 = max(int(lo[0] - grow), 0), max(int(lo[1] - grow), 0)
            x1, y1 = min(int(hi[0] + grow) + 1, width), min(int(hi[1] + grow) + 1, height)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            corners_found, marker_ids, _ = self._detector.detectMarkers(
                np.ascontiguousarray(gray[y0:y1, x0:x1]))
            ids = [] if marker_ids is None else [
                (int(m), np.asarray(c, np.float64).reshape(4, 2))
                for m, c in zip(marker_ids.ravel(), corners_found, strict=True)]
            offset = np.array([x0, y0], np.float64)
            decoded = False
            for marker_id, corners in ids:
                corners = corners + offset
                if _near(cand.quad, corners) and not any(
                        m == marker_id for m, c in found if _near(c, corners)):
                    found.append((marker_id, corners))
                    decoded = True
            if not decoded and self.values is not None:
                read, _ = self.values.read(gray[y0:y1, x0:x1], offset, max(height, width))
                for det in read:
                    if _near(cand.quad, det.corners) and not any(
                            v.text == det.text and _near(v.corners, det.corners)
                            for v in read_values):
                        read_values.append(det)
                        decoded = True
            if decoded:
                continue
            matched: object = None
            if self.templates is not None:
                match = self.templates.match(gray, cand.quad)
                if match is not None:
                    matched = match[0]
                    if matched == cand.matched:
                        found.append(match)  # the same face on two frames running
            if matched is None and self.values is not None:
                value_match = self.values.templates.match(gray, cand.quad)
                if value_match is not None:
                    matched = value_match[0]
                    if matched == cand.matched:
                        read_values.append(value_detection(value_match[0], value_match[1]))
            cand.matched = matched
        return [interpret_aruco(m, c) for m, c in found] + read_values


def _near(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether quads a and b are the same marker: centres within a third of a's side (two
    faces of one die lie a whole side apart)."""
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))) < quad_side(a) / 3
