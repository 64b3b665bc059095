"""One dice reader, two strategies: dice read from their face stickers, or from their pips.

The pipeline asks every dice reader the same things: where to look again (the places of dice
read before), what to do with a marker pass's leftovers, which die faces to find besides the
pass (on a still table), and, once the mat is fitted, the sightings of the dice's top faces.

- `StickerDice`: ArUco die stickers (and, with `--dice values`, the white and red dice's value
  stickers): top faces judged from the faces read (`TopFaceFilter`), faces the pass missed
  read again around die-sized squares (`DiceRetry`) and in magnified tiles (`DiceMagnifier`),
  tops inferred from the side faces (`tops_from_sides`).
- `PipDice`: plain pip dice, read where the marker pass just looked, named by place.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

import cv2
import numpy as np

from companion.markers.value_faces import takes_value_stickers
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import Detection
from companion.vision.dice import TopFaceFilter
from companion.vision.dice_magnifier import DiceMagnifier
from companion.vision.dice_retry import DiceRetry, FaceTemplates
from companion.vision.fusion import FrameFusion
from companion.vision.geometry import CameraProfile, MatGeometry
from companion.vision.image_quality import noise_sigma
from companion.vision.mat_fit import mat_box
from companion.vision.pips import DIE_MM, PipDiceNamer, PipDiceReader, PipReading
from companion.vision.placer import zone_of
from companion.vision.top_from_side import tops_from_sides
from companion.vision.tracker import Sighting
from companion.vision.value_dice import ValueDice, ValueFaceReader, value_face_of

Box = tuple[int, int, int, int]
Placed = list[tuple[Sighting, Detection | None]]

FUSED_MIN_FRAMES = 4  # still frames averaged before the fused picture is read
# grey levels of gain noise (Immerkaer's estimate, the picture's middle 256 px) from which die
# faces are read in the still frames' mean over the whole mat: a dim 720p room straight down
# read no die at all in single frames (3.3; 0.6-1.8 in the other 7 scenes, 0.6-1.4 at 1080p)
NOISY_SIGMA = 2.5


def centre_noise(gray: np.ndarray) -> float:
    """The gain noise in the picture's middle (a 256 px square: cheap, and on the mat)."""
    h, w = gray.shape[:2]
    y0, x0 = max(h // 2 - 128, 0), max(w // 2 - 128, 0)
    return noise_sigma(gray[y0:y0 + 256, x0:x0 + 256])


class DiceReader:
    """The interface, and what a strategy that has nothing to do at a step does (nothing).

    `retried`: ids of die faces read this frame outside the marker pass (they are news);
    `value_found`: value stickers read by the last marker pass."""

    dice_retry: DiceRetry | None = None
    magnifier: DiceMagnifier | None = None

    def __init__(self, layout: Any) -> None:
        self.layout = layout
        self.retried: set[int] = set()
        self.value_found: list[Detection] = []

    def mat_size(self) -> tuple[float, float]:
        return float(self.layout.width_mm), float(self.layout.height_mm)

    def zone_id(self, x_mm: float, y_mm: float) -> str | None:
        return zone_of(self.layout, x_mm, y_mm)

    def begin_frame(self) -> None:
        self.retried = set()

    def forget(self) -> None:
        """The camera moved: whatever is tied to the picture's pixels goes."""

    def restart(self) -> None:
        """The picture was turned: the dice read are read afresh."""

    def boxes_to_look(self, shape: tuple[int, ...], margin: int) -> list[Box]:
        """Boxes the marker pass looks at again besides the places that changed."""
        return []

    def read_values(self, gray: np.ndarray, boxes: Sequence[Box] | None) -> None:
        """Value stickers in the marker pass (`boxes`: where it looks; None: everywhere)."""

    def pass_done(self, squares: list[np.ndarray], symbols: list[np.ndarray],
                  looked: list[Box] | None, full: bool) -> None:
        """A marker pass ran: `looked` (None: the whole picture) was looked at again; its
        undecoded `squares` and the card `symbols` read are handed on."""

    def remember_squares(self, geometry: MatGeometry | None) -> None:
        """Hand the last pass's squares on once the mat is fitted."""

    def find_faces(self, gray: np.ndarray, dets: Sequence[Detection], standing: list[Detection],
                   geometry: MatGeometry | None, fusion: FrameFusion, still_frames: int
                   ) -> None:
        """Die faces the pass missed, appended to `standing` (the marker readings that
        stand) and to `retried`."""

    def read(self, dets: Sequence[Detection], geometry: MatGeometry, image: np.ndarray,
             gray: np.ndarray, time_s: float, ran: bool, still_frames: int,
             looked: list[Box] | None) -> tuple[Placed, list[str]]:
        """Sightings of the dice's top faces (with the readings they come from), and the
        texts of die faces no die of this game has."""
        raise NotImplementedError


class StickerDice(DiceReader):
    """Dice read from their ArUco face stickers, and with `values` their value stickers."""

    def __init__(self, layout: Any, top_faces: TopFaceFilter, aruco: ArucoReader | None,
                 value_names: Sequence[str], camera: CameraProfile | None) -> None:
        super().__init__(layout)
        self.top_faces = top_faces
        # the white and red dice's value stickers (counter dice keep ArUco die stickers)
        self.value_reader = (ValueFaceReader(aruco.options) if aruco is not None
                             and value_names else None)
        self.value_dice = (ValueDice(list(value_names), self.zone_id, float(layout.height_mm),
                                     camera) if self.value_reader is not None else None)
        self.value_squares: list[np.ndarray] = []  # ... and the squares it did not decode
        # the ArUco-stickered dice (all, or the counters beside value stickers): the only faces
        # the retry and the magnifier match against templates
        allowed = top_faces.allowed
        self.dice_retry = (DiceRetry(aruco, dice=sorted(allowed) if allowed is not None else None,
                                     values=self.value_reader) if aruco is not None else None)
        self.magnifier = (DiceMagnifier(aruco.options, allowed, templates=FaceTemplates(
                              sorted(allowed)) if allowed else None)
                          if aruco is not None else None)
        # die faces read, by id: (the reading, kept so its id is not reused; whether its cells
        # agree with the face it was decoded as); pruned to the readings still in use
        self._agrees: dict[int, tuple[Detection, bool]] = {}
        self._retry_squares: tuple[list[np.ndarray], list[np.ndarray], list[Box] | None] | None \
            = None
        self.noisy = False  # the picture's gain noise drowns die faces the mean still shows

    def forget(self) -> None:
        if self.dice_retry is not None:
            self.dice_retry.clear()

    def read_values(self, gray: np.ndarray, boxes: Sequence[Box] | None) -> None:
        if boxes is None:
            if self.value_reader is not None:
                self.value_found, self.value_squares = self.value_reader.read(gray)
            return
        self.value_found, self.value_squares = [], []
        if self.value_reader is None:
            return
        for x0, y0, x1, y1 in boxes:
            offset = np.array([x0, y0], dtype=np.float64)
            values, value_squares = self.value_reader.read(gray[y0:y1, x0:x1], offset,
                                                           max(gray.shape[:2]))
            self.value_squares.extend(value_squares)
            self.value_found.extend(
                v for v in values if not any(
                    o.text == v.text and np.linalg.norm(o.centre - v.centre) < 8
                    for o in self.value_found))

    def pass_done(self, squares: list[np.ndarray], symbols: list[np.ndarray],
                  looked: list[Box] | None, full: bool) -> None:
        if self.magnifier is not None:
            self.magnifier.changed(looked)
        if self.dice_retry is not None:
            self._retry_squares = ([*squares, *self.value_squares], symbols,
                                   None if full else looked)

    def remember_squares(self, geometry: MatGeometry | None) -> None:
        """Hand the last ArUco pass's squares to the dice retry once the mat is fitted (the
        first pass runs before it is)."""
        if self.dice_retry is not None and geometry is not None and self._retry_squares:
            squares, symbols, looked = self._retry_squares
            self.dice_retry.remember(squares, symbols, geometry, self.mat_size(), looked)
            self._retry_squares = None

    def find_faces(self, gray: np.ndarray, dets: Sequence[Detection], standing: list[Detection],
                   geometry: MatGeometry | None, fusion: FrameFusion, still_frames: int
                   ) -> None:
        if self.dice_retry is not None and geometry is not None and still_frames > 0:
            # die faces read on a still table where the last pass saw only a die-sized square
            for retried in self.dice_retry.read(gray, standing):
                standing.append(retried)
                self.retried.add(id(retried))
        if self.magnifier is not None and geometry is not None and still_frames > 0:
            if fusion.count == FUSED_MIN_FRAMES:  # once a still period
                self.noisy = centre_noise(gray) >= NOISY_SIGMA
            # die faces too small for the pass, read in magnified tiles of the mat (and in a
            # noisy picture every die face, in the still frames' mean)
            for magnified in self.magnifier.read(gray, [*dets, *standing], geometry,
                                                 self.mat_size(), fusion, whole=self.noisy):
                standing.append(magnified)
                self.retried.add(id(magnified))

    def read(self, dets: Sequence[Detection], geometry: MatGeometry, image: np.ndarray,
             gray: np.ndarray, time_s: float, ran: bool, still_frames: int,
             looked: list[Box] | None) -> tuple[Placed, list[str]]:
        height, width = gray.shape[:2]
        return self.tops(dets, geometry, (width, height), gray, time_s, still_frames)

    def tops(self, dets: Sequence[Detection], geometry: MatGeometry, image_size: tuple[int, int],
             gray: np.ndarray | None = None, time_s: float = 0.0, still_frames: int = 0
             ) -> tuple[Placed, list[str]]:
        """Sightings of the dice's top faces; texts of die faces no die of this game has."""
        size = self.mat_size()
        self.remember_squares(geometry)
        unread = self.dice_retry.open_squares(dets) if self.dice_retry is not None else []
        named = [d for d in dets if value_face_of(d) is None and self.face_agrees(gray, d)]
        current = {id(d) for d in dets}
        self._agrees = {k: v for k, v in self._agrees.items() if k in current}
        tops, dropped = self.top_faces.judge(named, geometry, image_size, size, unread, gray)
        templates = self.dice_retry.templates if self.dice_retry is not None else None
        if gray is not None and templates is not None and still_frames > 0:
            # on a still table (a few milliseconds a die: not while hands move)
            tops = [*tops, *tops_from_sides(gray, named, tops, dropped, self.top_faces,
                                            geometry, image_size, templates)]
        out: Placed = []
        for top in tops:
            out.append((Sighting(top.die, "die", top.x_mm, top.y_mm,
                                 self.zone_id(top.x_mm, top.y_mm), top.angle_deg, False, True,
                                 top.value, top.confidence), top.detection))
        if self.value_dice is not None:
            value_tops = self.value_dice.tops(dets, geometry, image_size, size, unread, gray)
            for name, top in self.value_dice.name(value_tops, time_s, {t.die for t in tops}):
                out.append((Sighting(name, "die", top.x_mm, top.y_mm,
                                     self.zone_id(top.x_mm, top.y_mm), top.angle_deg, False,
                                     True, top.value, top.confidence), top.detection))
        strangers = [v.detection.text for v in dropped if v.reason == "not-in-game"]
        return out, strangers

    def face_agrees(self, gray: np.ndarray | None, det: Detection) -> bool:
        """Whether a die face read looks most like the face it was decoded as, of the game's
        die faces (`FaceTemplates.agrees`); asked once per reading (readings persist from
        frame to frame)."""
        templates = self.dice_retry.templates if self.dice_retry is not None else None
        if gray is None or templates is None:
            return True
        key = id(det)
        if key not in self._agrees:
            self._agrees[key] = (det, templates.agrees(gray, det))
        return self._agrees[key][1]


class PipDice(DiceReader):
    """Pip dice (no stickers): read where the marker pass just looked (the whole mat, or where
    things moved and around the dice read before); elsewhere the last reading stands."""

    def __init__(self, layout: Any, dice: Collection[str] | None,
                 camera: CameraProfile | None) -> None:
        super().__init__(layout)
        self.camera = camera
        self.pips = PipDiceReader(camera=camera)
        self.namer = PipDiceNamer(list(dice or []), self.zone_id, float(layout.height_mm))
        self.readings: list[tuple[PipReading, tuple[float, float]]] = []
        self.sightings: Placed = []

    def restart(self) -> None:
        self.readings = []

    def boxes_to_look(self, shape: tuple[int, ...], margin: int) -> list[Box]:
        """Around every die read before: a die turned in place barely registers as motion."""
        h, w = shape[:2]
        m = margin
        return [(max(int(cx) - 2 * m, 0), max(int(cy) - 2 * m, 0),
                 min(int(cx) + 2 * m, w), min(int(cy) + 2 * m, h))
                for _, (cx, cy) in self.readings]

    def read(self, dets: Sequence[Detection], geometry: MatGeometry, image: np.ndarray,
             gray: np.ndarray, time_s: float, ran: bool, still_frames: int,
             looked: list[Box] | None) -> tuple[Placed, list[str]]:
        if ran and image.ndim == 3:
            self.sightings = self.read_pips(image, geometry, time_s, looked)
        return list(self.sightings), []

    def read_pips(self, image: np.ndarray, geometry: MatGeometry, time_s: float,
                  looked: list[Box] | None) -> Placed:
        mat_size = self.mat_size()
        boxes = looked
        if boxes is None:
            box = mat_box(geometry, self.layout, image.shape)
            boxes = [box] if box is not None else []
            self.readings = []
        else:
            self.readings = [
                (r, c) for r, c in self.readings
                if not any(x0 <= c[0] < x1 and y0 <= c[1] < y1 for x0, y0, x1, y1 in boxes)]
        height, width = image.shape[:2]
        to_image = np.linalg.inv(geometry.plane_homography(DIE_MM, (width, height),
                                                           self.camera))
        for box in boxes:
            for reading in self.pips.read(image, geometry, mat_size, box):
                if any(math.hypot(reading.x_mm - r.x_mm, reading.y_mm - r.y_mm) < 8.0
                       for r, _ in self.readings):
                    continue  # boxes overlap
                c = cv2.perspectiveTransform(
                    np.array([[[reading.x_mm, reading.y_mm]]], np.float64), to_image)[0, 0]
                self.readings.append((reading, (float(c[0]), float(c[1]))))
        out: Placed = []
        for name, r in self.namer.name([r for r, _ in self.readings], time_s):
            out.append((Sighting(name, "die", r.x_mm, r.y_mm, self.zone_id(r.x_mm, r.y_mm),
                                 r.angle_deg, False, True, r.value, r.confidence), None))
        return out


def dice_reader(layout: Any, aruco: ArucoReader | None, dice: Collection[str] | None,
                dice_mode: str, camera: CameraProfile | None
                ) -> tuple[DiceReader, TopFaceFilter]:
    """The strategy for `dice_mode` ("stickers", "values", "pips"), and the top-face filter of
    the dice named by their ArUco stickers (all the game's, or its counters beside value
    stickers; `dice`: the die names the game uses, None: any of ours)."""
    value_names = ([n for n in (dice or ()) if takes_value_stickers(n)]
                   if dice_mode == "values" else [])
    top_faces = TopFaceFilter(None if dice is None else sorted(set(dice) - set(value_names)),
                              camera=camera)
    if dice_mode == "pips":
        return PipDice(layout, dice, camera), top_faces
    return StickerDice(layout, top_faces, aruco, value_names, camera), top_faces
