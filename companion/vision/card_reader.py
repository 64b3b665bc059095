"""The card reader: every marker a frame shows, read on a schedule that fits a frame's budget.

Card stickers every frame (Micro QR, with crop retries around the cards known to lie there;
rarely on a table of big-cell stickers), ArUco (dice, tokens, corners and big-cell card
symbols) on a schedule, because it costs most; on a still table, sticker-like squares no
reading explains are read again magnified, and card zones without a sticker read are searched.
The dice reader is handed the pass's leftovers and finds the die faces the pass missed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.vision.decoders.aruco import ArucoReader
from companion.vision.decoders.square_memory import SquareMemory
from companion.vision.detect import (
    Detection,
    Detector,
    big_cell_detections,
    centre_in,
    interpret_aruco,
)
from companion.vision.dice_reading import FUSED_MIN_FRAMES, Box, DiceReader
from companion.vision.finders import FinderCandidate, finder_candidates
from companion.vision.fusion import FrameFusion
from companion.vision.geometry import MatGeometry
from companion.vision.mat_fit import mat_box
from companion.vision.placer import Placer, apart
from companion.vision.places import PlaceLook, look_at, same_place
from companion.vision.table_cues import SMALL, TableCues
from companion.vision.zone_reading import read_unread_zones, table_payloads

SEARCH_AT = 6  # still frames after which card zones without a sticker read are searched
STICKER_SCALES = (0.75, 1.6)  # a square's side over a symbol's side at its place, read as
# a card sticker: the symbol (measured 0.96-1.05 on the timed sequence, lens and piles
# included) up to its sticker outline with the label strip (1.32-1.41)


@dataclass(frozen=True)
class ArucoSchedule:
    """When ArUco (dice, tokens, corners) runs, since it costs most of a frame's budget.

    A full-frame pass at the start and every `full_every` frames; in between only the regions
    where something moved since the last pass: every `settling_every` frames while the table
    is settling, every `moving_every` frames while hands move. Markers outside those regions
    keep their last reading, since nothing there has changed. (Every frame while settling
    cost a third of the timed sequence's time; every second frame gave the same recall and
    settled tables, and the first right snapshot no later: `companion bench vision`.)
    """

    full_every: int = 45
    moving_every: int = 4
    settling_s: float = 0.4
    settling_every: int = 2  # frames between passes while settling (the first still frame
    # always has one): readings stand between passes, the tracker sees them every frame
    margin_px: int = 48
    squares_every: int = 3  # frames between searches for sticker-like squares ...
    squares_still_every: int = 15  # ... and on a still table whose known stickers all read
    squares_after_motion_s: float = 1.5
    squares_bigcell_every: int = 90  # ... and when every card read is a big-cell sticker
    microqr_every: int = 15  # frames between looks for Micro QR stickers (zxing, 5 ms a 1080p
    # frame) on a table whose cards all read as big-cell; besides, on every full pass


def nearest_place(places: Sequence[tuple[np.ndarray, PlaceLook | None]], corners: np.ndarray
                  ) -> PlaceLook | None:
    """The picture of the place (of `places`) where the marker with `corners` lies, if any."""
    near = [(d, p) for c, p in places if (d := apart(c, corners)) is not None]
    return min(near, key=lambda dp: dp[0])[1] if near else None


def contains(outer: Box, inner: Box) -> bool:
    return (outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])


class CardReader:
    """Reads a frame's markers. `standing`: the ArUco pass's readings (and what the zone
    search, the dice retry and the magnifier added), kept between passes where nothing
    changed; `looked`: the boxes the last pass looked at (None: the whole picture)."""

    def __init__(self, layout: Any, detector: Detector, aruco: ArucoReader | None,
                 schedule: ArucoSchedule, game_code: int, squares: bool, cues: TableCues,
                 placer: Placer, dice: DiceReader, fusion: FrameFusion) -> None:
        self.layout = layout
        self.detector = detector
        self.aruco = aruco
        self.schedule = schedule
        self.squares = squares
        self.cues = cues
        self.placer = placer
        self.dice = dice
        self.fusion = fusion
        self.on_table = table_payloads(game_code)  # this game's fronts, any back
        self.square_memory = SquareMemory()  # big-cell readings of unchanged squares
        self.standing: list[Detection] = []
        self.search_due = True  # card zones without a sticker read are to be searched
        # big-cell reads' places: per payload, each place's centre (px) and picture (a twin
        # card's two stickers are two places of one payload)
        self.read_patches: dict[str, list[tuple[np.ndarray, PlaceLook | None]]] = {}
        self.last_full = -(10**9)
        self.looked: list[Box] | None = None
        self._side_key: tuple[float, ...] | None = None
        self._side_range: tuple[float, float] | None = None

    def forget(self) -> None:
        """The camera moved: the readings standing are pixels of the old view."""
        self.standing = []
        self.last_full = -(10**9)
        self.square_memory.clear()

    def look_everywhere(self) -> None:
        """Make the next frame's ArUco pass a full one (then the zone search follows), as the
        motion gate's scheduled re-read of a still table asks."""
        self.last_full = -(10**9)

    def read(self, gray: np.ndarray, time_s: float, frame_no: int,
             geometry: MatGeometry | None) -> tuple[list[Detection], bool]:
        """Every marker read (this frame's and those standing), and whether ArUco ran."""
        still_frames = self.cues.still_frames
        self.dice.begin_frame()
        hints = self.placer.hints()
        mode = self.aruco_mode(time_s, frame_no, geometry)
        dets = (self.detector.detect(gray, hints=hints)
                if self.microqr_due(mode, hints, frame_no) else [])
        self.fusion.add(gray, still_frames > 0)
        if mode is not None:
            self.marker_pass(gray, mode, frame_no, geometry, dets)
        elif self.search_due and still_frames >= SEARCH_AT:
            # after a full pass, which forgets what the last search read, and whenever the
            # table has come to rest again
            self.search_zones(gray, dets, geometry)
            self.search_due = False
        if still_frames == 0:
            self.search_due = True
        self.dice.remember_squares(geometry)
        self.dice.find_faces(gray, dets, self.standing, geometry, self.fusion, still_frames)
        if self.squares and geometry is not None and \
                self.squares_due(time_s, frame_no, dets, hints):
            dets += self.read_squares(gray, geometry, [*dets, *self.standing], hints)
        if time_s - self.cues.last_any_motion_s > self.schedule.settling_s:
            self.cues.dirty[:] = False
        return dets + self.standing, mode is not None

    def marker_pass(self, gray: np.ndarray, mode: str, frame_no: int,
                    geometry: MatGeometry | None, dets: list[Detection]) -> None:
        """ArUco over the whole picture or the boxes due: markers, big-cell card symbols
        among its unrecognised squares, and the value stickers."""
        ids, squares = self.read_aruco(gray, mode, frame_no)
        # the soft reading (`read_soft_quad`) costs a few milliseconds a square: on full
        # passes only (the zone search looks again where a card is missing, at rest)
        self.square_memory.begin_pass()
        cards = big_cell_detections(gray, self.sticker_sized([c for _, c in ids] + squares,
                                                             geometry),
                                    side_px=self.symbol_side_px(geometry),
                                    allowed=self.on_table if mode == "full" else None,
                                    memory=self.square_memory)
        cards = [c for c in cards if not any(centre_in(c.corners, d) for d in dets)]
        kept = {d.text for d in self.standing}
        cards = [c for c in cards if c.text not in kept]
        self.remember(gray, cards)
        self.standing.extend(cards)
        symbols = [d.corners.astype(np.float32).reshape(-1, 1, 2) for d in [*dets, *cards]
                   if d.kind in ("front", "back")]
        self.dice.pass_done(squares, symbols, self.looked, mode == "full")
        for marker_id, corners in ids:
            centre = corners.mean(axis=0)
            # ArUco candidates inside a decoded sticker are its finder patterns (or the
            # big-cell symbol itself), not dice.
            if any(cv2.pointPolygonTest(c, (float(centre[0]), float(centre[1])), False) >= 0
                   for c in symbols):
                continue
            self.standing.append(interpret_aruco(marker_id, corners))
        self.standing.extend(
            v for v in self.dice.value_found
            if not any(cv2.pointPolygonTest(c, (float(v.centre[0]), float(v.centre[1])),
                                            False) >= 0 for c in symbols))
        self.search_due = self.search_due or mode == "full"

    def aruco_mode(self, time_s: float, frame_no: int, geometry: MatGeometry | None
                   ) -> str | None:
        """"full", "regions" or None for this frame."""
        if self.aruco is None:
            return None
        s = self.schedule
        if geometry is None or frame_no - self.last_full >= s.full_every:
            return "full"
        if not self.cues.dirty.any():
            return None
        still_frames = self.cues.still_frames
        moving = still_frames == 0
        if moving:
            return "regions" if frame_no % s.moving_every == 0 else None
        if time_s - self.cues.last_any_motion_s <= s.settling_s:
            return "regions" if still_frames % s.settling_every == 1 else None
        return None

    def regions(self, shape: tuple[int, ...]) -> list[Box]:
        count, _, stats, _ = cv2.connectedComponentsWithStats(self.cues.dirty.astype(np.uint8),
                                                              connectivity=8)
        h, w = shape[:2]
        m = self.schedule.margin_px
        boxes = []
        for i in range(1, count):
            x, y, bw, bh = (int(v) for v in stats[i, :4])
            x0, y0 = max(x * SMALL - m, 0), max(y * SMALL - m, 0)
            x1, y1 = min((x + bw) * SMALL + m, w), min((y + bh) * SMALL + m, h)
            if x1 - x0 >= 16 and y1 - y0 >= 16:
                boxes.append((x0, y0, x1, y1))
        return boxes

    def marker_boxes(self, shape: tuple[int, ...]) -> list[Box]:
        """Around every die and token read before: a die turned in place barely registers as
        motion on the 1/8-size cue image, so its place is always looked at again."""
        h, w = shape[:2]
        m = self.schedule.margin_px
        boxes = []
        for det in self.standing:
            if det.aruco is None or det.aruco.kind == "corner":
                continue
            lo, hi = det.corners.min(axis=0), det.corners.max(axis=0)
            boxes.append((max(int(lo[0]) - m, 0), max(int(lo[1]) - m, 0),
                          min(int(hi[0]) + m, w), min(int(hi[1]) + m, h)))
        return boxes + self.dice.boxes_to_look(shape, m)

    def read_aruco(self, gray: np.ndarray, mode: str, frame_no: int
                   ) -> tuple[list[tuple[int, np.ndarray]], list[np.ndarray]]:
        """ArUco ids and the unrecognised dark squares (big-cell card symbols among them)."""
        assert self.aruco is not None
        if mode == "full":
            self.last_full = frame_no
            self.standing = []
            self.looked = None
            self.dice.read_values(gray, None)
            return self.aruco.read_all(gray)
        regions = self.regions(gray.shape)
        boxes = regions + [b for b in self.marker_boxes(gray.shape)
                           if not any(contains(r, b) for r in regions)]
        self.looked = boxes
        found: list[tuple[int, np.ndarray]] = []
        squares: list[np.ndarray] = []
        for x0, y0, x1, y1 in boxes:
            ids, rejected = self.aruco.read_all(np.ascontiguousarray(gray[y0:y1, x0:x1]),
                                                frame_px=max(gray.shape[:2]))
            offset = np.array([x0, y0], dtype=np.float64)
            squares.extend(q + offset for q in rejected)
            for marker_id, corners in ids:
                corners = corners + offset
                centre = corners.mean(axis=0)
                if not any(m == marker_id and np.linalg.norm(c.mean(axis=0) - centre) < 8
                           for m, c in found):  # boxes overlap: one reading per marker
                    found.append((marker_id, corners))
        self.dice.read_values(gray, boxes)

        def inside(det: Detection) -> bool:
            cx, cy = det.centre
            return any(x0 <= cx < x1 and y0 <= cy < y1 for x0, y0, x1, y1 in boxes)

        self.standing = [d for d in self.standing
                         if not inside(d) or self.sticker_stays(gray, d)]
        return found, squares

    def sticker_stays(self, gray: np.ndarray, det: Detection) -> bool:
        """A big-cell sticker read before (softly, or by the zone search) in a region looked
        at again: kept while its place looks as it did when read, since a pass over a small
        region does not read everything the full pass or the search did (a card moved or
        covered changes the place, and then it goes)."""
        if det.decoder != "bigcell":
            return False
        before = nearest_place(self.read_patches.get(det.text, []), det.corners)
        return same_place(before, look_at(gray, det.corners))

    def read_squares(self, gray: np.ndarray, geometry: MatGeometry, dets: list[Detection],
                     hints: list[np.ndarray]) -> list[Detection]:
        """Retries at the physical limit: magnified crops around every sticker-like square
        no decoded sticker explains, first in this frame, then in the fused still frames,
        where also the known cards still missing are looked for again."""
        box = mat_box(geometry, self.layout, gray.shape)
        if box is None:
            return []
        x0, y0, x1, y1 = box
        hint_px = geometry.px_per_module(self.layout.width_mm / 2, self.layout.height_mm / 2,
                                         float(self.layout.sticker_mm))
        squares = [
            FinderCandidate(c.centre + np.array([x0, y0], dtype=np.float64), c.module_px)
            for c in finder_candidates(np.ascontiguousarray(gray[y0:y1, x0:x1]), hint_px)
        ]
        found = self.detector.retry_squares(gray, squares, dets)
        fused = self.fusion.fused()
        if fused is None or self.fusion.count < FUSED_MIN_FRAMES:
            return found
        known = [*dets, *found]
        missing = [q for q in hints if not any(centre_in(q, d) for d in known)]
        found += self.detector.retry_quads(fused, missing, known)
        found += self.detector.retry_squares(fused, squares, [*dets, *found])
        return found

    def remember(self, gray: np.ndarray, cards: Sequence[Detection]) -> None:
        for card in cards:
            places = [(c, p) for c, p in self.read_patches.get(card.text, [])
                      if apart(c, card.corners) is None]
            # the other place kept: a twin card's other sticker (two at most)
            self.read_patches[card.text] = [*places[-1:], (card.corners.mean(axis=0),
                                                           look_at(gray, card.corners))]

    def search_zones(self, gray: np.ndarray, dets: Sequence[Detection],
                     geometry: MatGeometry | None) -> None:
        """Once the table is still: in every card zone where no sticker was read, look for a
        sticker whose square a die, a neighbour or the lamp's reflection broke
        (`zone_reading`), and read it with the usual rules."""
        if geometry is None:
            return
        read = [*dets, *self.standing]
        for card in read_unread_zones(gray, geometry, self.layout, read, self.on_table,
                                      self.fusion.fused()):
            self.remember(gray, [card])
            self.standing.append(card)

    def sticker_sized(self, quads: list[np.ndarray], geometry: MatGeometry | None
                      ) -> list[np.ndarray]:
        """The squares the size of a card sticker's symbol or its sticker outline where they
        lie: card art, die faces and tokens give many more squares of other sizes, each of
        which cost the big-cell reader six tries (on the timed sequence 910 of the 1,454
        squares it was given were at most half a symbol's size). The expected size at a place
        is the mat's own scale there (the homography's local area scale), so it holds at any
        tilt."""
        if geometry is None or not quads:
            return quads
        to_image = np.linalg.inv(geometry.homography)
        centres = np.array([np.asarray(q, np.float64).reshape(4, 2).mean(axis=0) for q in quads])
        mat = geometry.to_mat(centres)
        w = to_image[2, 0] * mat[:, 0] + to_image[2, 1] * mat[:, 1] + to_image[2, 2]
        symbol_px2 = (abs(float(np.linalg.det(to_image))) / np.abs(w) ** 3
                      * float(self.layout.sticker_mm) ** 2)
        out = []
        for quad, expected in zip(quads, symbol_px2, strict=True):
            area = abs(float(cv2.contourArea(np.asarray(quad, np.float32).reshape(-1, 1, 2))))
            if STICKER_SCALES[0] <= math.sqrt(area / max(float(expected), 1e-9)) <= \
                    STICKER_SCALES[1]:
                out.append(quad)
        return out

    def symbol_side_px(self, geometry: MatGeometry | None) -> tuple[float, float] | None:
        """Smallest and largest side a card sticker's symbol can have on this mat's picture."""
        if geometry is None:
            return None
        key = tuple(np.round(geometry.homography.ravel(), 9))
        if self._side_key != key:
            w, h = float(self.layout.width_mm), float(self.layout.height_mm)
            sides = [geometry.px_per_mm(x, y) * float(self.layout.sticker_mm)
                     for x in (0.0, w / 2, w) for y in (0.0, h / 2, h)]
            self._side_range = (0.6 * min(sides), 1.25 * max(sides))
            self._side_key = key
        return self._side_range

    def squares_due(self, time_s: float, frame_no: int, dets: list[Detection],
                    hints: list[np.ndarray]) -> bool:
        """Often while the table changes or a known card is missing, now and then on a still
        table whose stickers all read (a card that never read is found there too). Finder
        patterns are Micro QR's: with only big-cell stickers on the table, rarely."""
        s = self.schedule
        if not hints and self.placer.all_big_cell():
            return frame_no % s.squares_bigcell_every == 0
        recent = time_s - self.cues.last_any_motion_s <= s.squares_after_motion_s
        missing = any(not any(centre_in(q, d) for d in dets) for q in hints)
        every = s.squares_every if recent or missing else s.squares_still_every
        return frame_no % every == 0

    def microqr_due(self, mode: str | None, hints: list[np.ndarray], frame_no: int) -> bool:
        """Whether the Micro QR reader runs on this frame: always while the table has Micro
        QR cards (or none yet) or one of them is missing; on a table of big-cell stickers
        only on full passes and every `microqr_every` frames (a Micro QR card laid among them
        is found within half a second)."""
        if hints or mode == "full" or not self.placer.all_big_cell():
            return True
        return frame_no % self.schedule.microqr_every == 0
