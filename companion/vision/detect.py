"""The detector: every marker in one grayscale frame, in image coordinates.

Card stickers (Micro QR, optionally QR) go to one decoder backend; ArUco markers (dice, mat
corners, tokens) to OpenCV's ArucoDetector. Each symbol is interpreted with
`companion.markers.payload`: our card fronts and backs, our ArUco ids, or kind "unknown"
(a stray code on the table is reported, never taken for a card).

Markers the caller saw in the previous frame but not in this one can be given as `hints`: the
detector retries 2x-upscaled crops around them, once with the default binarizer and once with a
global histogram, which recovers the small or unevenly lit stickers a full-frame pass misses
(DESIGN.md: 90 % -> 100 % for 25 mm Micro QR at 1080p).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.markers.bigcell import CELLS as BIGCELL_CELLS
from companion.markers.payload import (
    ArucoMeaning,
    BackPayload,
    FrontPayload,
    PayloadError,
    decode,
    decode_aruco,
)
from companion.vision.decoders import BACKENDS, RawSymbol, ReadOptions
from companion.vision.decoders.aruco import ArucoOptions, ArucoReader
from companion.vision.decoders.bigcell import (
    Allowed,
    BigCellRead,
    read_found_quad,
    read_quads,
)
from companion.vision.decoders.square_memory import SquareMemory
from companion.vision.finders import FinderCandidate

Kind = Literal["front", "back", "aruco", "unknown"]
ARUCO_CELLS = 6  # 4x4 data cells plus a one-cell border
CROP_SCALE = 2.0
CROP_MARGIN = 0.75  # of the hinted quad's size, on every side
MIN_CROP_MARGIN_PX = 12
GOOD_PX_PER_MODULE = 3.0  # DESIGN.md: QR-family symbols read reliably from ~2.4-3 px/module
CROP_CONFIDENCE = 0.9
STILL_ARUCO = ArucoOptions(min_perimeter_rate=0.02)
"""Still pictures (scan, calibrate, deck registration): one 7 px threshold window (wider ones
frame a white sticker on a grey table with a dark halo, which hides the symbol inside) and
markers down to 2 % of the picture's width around."""
DICE_ARUCO = ArucoOptions(min_perimeter_rate=0.02, thresh_win_min=5, thresh_win_max=13,
                          thresh_win_step=8, pixels_per_cell=8, cell_margin=0.3)
"""The live pipeline's ArUco reading, and a second pass over still pictures for ArUco markers
only (the mat's corners, dice). Two threshold windows (on the easy simulator's 1080p frames
with the camera at 69 cm this read 94 % of 12 mm die faces per frame where the reader's
default three windows read 72 %), and markers down to 2 % of the picture's width around (about
10 px a side): on the realistic simulator at 68 cm and 40 degrees the far side's dice are
13-17 px wide, and the default 3 % missed 21 of 40 dice where 2 % misses 5 (at no cost at 53 cm
or 720p). In still pictures the 7 px window alone missed the mat's corner markers on 7 of 12
frames of a 720p webcam looking straight down and of a laptop without a mirror (realistic
simulator), where this pass found them on all 12: `scan` and `calibrate` then said the mat was
not in view though the pipeline saw it. Its squares are not read as big-cell symbols there:
with the wider window a symbol turned 23 degrees at 6 px a cell was no longer found."""
SQUARE_MODULE_PX = 8.0  # crops around sticker-like squares are magnified to about this


class DetectorConfigError(CompanionError):
    """A detector asked for a backend or symbology that does not exist."""


@dataclass(frozen=True, eq=False)
class Detection:
    """One marker found in a frame.

    `corners` is 4x2 float pixels in the marker's own printed order (top-left, top-right,
    bottom-right, bottom-left), so the direction corners[0] -> corners[1] gives its rotation.
    `text` is the decoded payload (for ArUco "aruco:<id>"). `payload` is set for card stickers,
    `aruco` and `marker_id` for ArUco markers of ours; everything else is kind "unknown".
    `raw` holds the symbol's payload bytes as decoded (for comparing binary payloads).
    """

    kind: Kind
    text: str
    corners: np.ndarray
    confidence: float
    decoder: str
    marker_id: int | None = None
    payload: FrontPayload | BackPayload | None = None
    aruco: ArucoMeaning | None = None
    raw: bytes = field(default=b"", repr=False)

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.corners.mean(axis=0))

    @property
    def side_px(self) -> float:
        """Mean edge length of the marker's quad in pixels."""
        return quad_side(self.corners)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind,
            "text": self.text,
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners],
            "confidence": round(self.confidence, 3),
            "decoder": self.decoder,
        }
        if self.marker_id is not None:
            out["marker_id"] = self.marker_id
        return out


def _confidence(side_px: float, modules: int) -> float:
    """How far the symbol is above the pixel-per-module limit where reads get unreliable."""
    if modules <= 0:
        return 1.0
    px_per_module = side_px / modules
    return float(np.clip(px_per_module / GOOD_PX_PER_MODULE, 0.5, 1.0))


def _interpret_symbol(symbol: RawSymbol) -> Detection:
    corners = symbol.corners
    side = quad_side(corners)
    confidence = _confidence(side, symbol.modules)
    try:
        payload = decode(symbol.text)
    except PayloadError:
        return Detection(
            "unknown", symbol.text, corners, confidence * 0.5, symbol.decoder, raw=symbol.raw
        )
    kind: Kind = "front" if isinstance(payload, FrontPayload) else "back"
    return Detection(
        kind, symbol.text, corners, confidence, symbol.decoder, payload=payload, raw=symbol.raw
    )


def big_cell_detections(gray: np.ndarray, squares: Sequence[np.ndarray],
                        mirrored_too: bool = False,
                        side_px: tuple[float, float] | None = None,
                        allowed: Allowed | None = None,
                        memory: SquareMemory | None = None) -> list[Detection]:
    """Card stickers of the big-cell code among dark squares (ArUco candidates); `allowed`
    (the payloads of this table) lets squares that do not read cleanly be read softly;
    `memory` reuses the readings of squares unchanged since an earlier pass."""
    return [_big_cell_detection(read)
            for read in read_quads(gray, squares, mirrored_too, side_px, allowed, memory)]


def found_place_detection(gray: np.ndarray, quad: np.ndarray, allowed: Allowed
                          ) -> Detection | None:
    """The card sticker whose symbol border the zone search put at `quad` (`read_found_quad`),
    read hard or softly, or None."""
    read = read_found_quad(gray, quad, False, allowed)
    return None if read is None else _big_cell_detection(read)


def _big_cell_detection(read: BigCellRead) -> Detection:
    """A big-cell reading as a Detection, less confident by a tenth per corrected cell."""
    det = _interpret_symbol(RawSymbol(read.text, read.corners, "bigcell", "bigcell",
                                      BIGCELL_CELLS))
    return replace(det, confidence=det.confidence * (1.0 - 0.1 * read.corrections))


def interpret_aruco(marker_id: int, corners: np.ndarray) -> Detection:
    """A Detection for an ArUco id read elsewhere (e.g. a pipeline that schedules ArUco)."""
    side = quad_side(corners)
    confidence = _confidence(side, ARUCO_CELLS)
    text = f"aruco:{marker_id}"
    try:
        meaning = decode_aruco(marker_id)
    except PayloadError:
        return Detection("unknown", text, corners, confidence * 0.5, "aruco", marker_id=marker_id)
    return Detection("aruco", text, corners, confidence, "aruco", marker_id=marker_id,
                     aruco=meaning)


_interpret_aruco = interpret_aruco  # the name companion.vision.pipeline first imported


def quad_side(quad: np.ndarray) -> float:
    """Mean edge length of a 4 x 2 quad, in its own units."""
    # (the next corner by slicing: np.roll's own overhead was most of this hot helper's time)
    following = np.concatenate((quad[1:], quad[:1]))
    return float(np.linalg.norm(following - quad, axis=1).mean())


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    contour = quad.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def centre_in(quad: np.ndarray, det: Detection) -> bool:
    """The quad's centre lies inside the detection's corners."""
    return _inside(np.asarray(quad, np.float64).reshape(4, 2).mean(axis=0), det.corners)


def _crop_box(quad: np.ndarray, shape: tuple[int, ...], share: float = CROP_MARGIN
              ) -> tuple[int, int, int, int] | None:
    lo = quad.min(axis=0)
    hi = quad.max(axis=0)
    margin = max(float((hi - lo).max()) * share, MIN_CROP_MARGIN_PX) if share > 0 else 0.0
    height, width = shape[:2]
    x0 = max(int(np.floor(lo[0] - margin)), 0)
    y0 = max(int(np.floor(lo[1] - margin)), 0)
    x1 = min(int(np.ceil(hi[0] + margin)), width)
    y1 = min(int(np.ceil(hi[1] + margin)), height)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    return x0, y0, x1, y1


Reader = Callable[[np.ndarray, ReadOptions], list[RawSymbol]]


class Detector:
    """Finds card stickers and ArUco markers in grayscale frames.

    backend: "zxing" (default; the only one reading Micro QR), "pyzbar" or "opencv" (QR only).
    read_qr: also look for plain QR codes (foreign codes, measurements); Micro QR is always on
    for zxing. aruco: also run the ArUco detector, and read big-cell card symbols among its
    candidate squares. crop_retry: use hints (see module docstring). allowed: the payloads
    that can lie on this table (`zone_reading.table_payloads`): squares whose big-cell symbol
    does not read cleanly are then read softly (errors and erasures) as well.
    """

    def __init__(
        self,
        backend: str = "zxing",
        crop_retry: bool = True,
        read_qr: bool = False,
        aruco: bool = True,
        aruco_options: ArucoOptions | None = None,
        mirrored_too: bool = True,
        allowed: Allowed | None = None,
    ) -> None:
        if backend not in BACKENDS:
            raise DetectorConfigError(
                f"unknown decoder backend {backend!r}; choose one of {', '.join(BACKENDS)}"
            )
        self.backend = backend
        self.crop_retry = crop_retry
        self.options = ReadOptions(
            micro_qr=backend == "zxing",
            qr=read_qr or backend != "zxing",
            report_failures=crop_retry,
        )
        module = importlib.import_module(f"companion.vision.decoders.{backend}")
        self._read: Reader = module.read
        self._aruco = ArucoReader(aruco_options or STILL_ARUCO) if aruco else None
        self._aruco_wide = ArucoReader(DICE_ARUCO) if aruco and aruco_options is None else None
        self.mirrored_too = mirrored_too  # big-cell symbols seen in a mirror (scan, decks)
        self.allowed = allowed  # payloads that may lie here: big-cell squares read softly too

    def detect(self, gray: np.ndarray, hints: Sequence[np.ndarray] = ()) -> list[Detection]:
        """All markers in `gray`; `hints` are last-frame quads (4x2 px) of markers now missing."""
        gray = _as_gray(gray)
        symbols = self._read(gray, self.options)
        found = [_interpret_symbol(s) for s in symbols if s.valid]
        if self.crop_retry:
            # Symbols located but not decoded are retried like hints: that is where the
            # default binarizer's misses are (DESIGN.md).
            failed = [s.corners for s in symbols if not s.valid]
            for quad in [*failed, *hints]:
                found.extend(self._retry_crop(gray, np.asarray(quad, float).reshape(4, 2), found))
        if self._aruco is not None:
            decoded = list(found)
            exclude = [d.corners for d in decoded]
            ids, squares = self._aruco.read_all(gray, exclude)
            if self._aruco_wide is not None:
                wide, _ = self._aruco_wide.read_all(gray, exclude)
                ids += [(m, c) for m, c in wide if not any(
                    m == m2 and float(np.linalg.norm(c.mean(axis=0) - c2.mean(axis=0)))
                    < quad_side(c) / 2 for m2, c2 in ids)]
            cards = big_cell_detections(gray, [c for _, c in ids] + squares, self.mirrored_too,
                                        allowed=self.allowed)
            found.extend(cards)
            for marker_id, corners in ids:
                centre = corners.mean(axis=0)
                # ArUco candidates inside a decoded symbol are its finder patterns (or the
                # big-cell symbol itself), not dice.
                if any(_inside(centre, d.corners) for d in [*decoded, *cards]):
                    continue
                found.append(interpret_aruco(marker_id, corners))
        return found

    def retry_quads(
        self, gray: np.ndarray, quads: Sequence[np.ndarray], known: Sequence[Detection]
    ) -> list[Detection]:
        """2x crops around the given quads (e.g. last-frame places of missing stickers)."""
        found: list[Detection] = []
        for quad in quads:
            found.extend(self._retry_crop(gray, np.asarray(quad, float).reshape(4, 2),
                                          [*known, *found]))
        return found

    def retry_squares(
        self, gray: np.ndarray, squares: Sequence[FinderCandidate], known: Sequence[Detection]
    ) -> list[Detection]:
        """Magnified crops around sticker-like squares that no decoded symbol explains.

        Each crop is scaled so that a module is about `SQUARE_MODULE_PX` wide (2-4x), then read
        with zxing's default binarizer and, failing that, its global histogram.
        """
        found: list[Detection] = []
        for square in squares:
            if any(_inside(square.centre, d.corners) for d in [*known, *found]):
                continue
            scale = float(np.clip(SQUARE_MODULE_PX / max(square.module_px, 0.5), 2.0, 4.0))
            found.extend(self._retry_crop(gray, square.crop_quad(), [*known, *found],
                                          scale=scale, margin=0.0))
        return found

    def _retry_crop(
        self, gray: np.ndarray, quad: np.ndarray, known: Sequence[Detection],
        scale: float = CROP_SCALE, margin: float = CROP_MARGIN,
    ) -> list[Detection]:
        box = _crop_box(quad, gray.shape, margin)
        if box is None:
            return []
        centre = quad.mean(axis=0)
        if any(_inside(centre, d.corners) for d in known):
            return []
        x0, y0, x1, y1 = box
        crop = cv2.resize(gray[y0:y1, x0:x1], None, fx=scale, fy=scale,
                          interpolation=cv2.INTER_CUBIC)
        first = replace(self.options, report_failures=False)
        passes = [first]
        if self.backend == "zxing":
            passes.append(replace(first, global_histogram=True))
        for options in passes:
            symbols = [s for s in self._read(crop, options) if s.valid]
            if not symbols:
                continue
            offset = np.array([x0, y0], dtype=np.float64)
            out = []
            for symbol in symbols:
                corners = symbol.corners / scale + offset
                if any(_inside(corners.mean(axis=0), d.corners) for d in known):
                    continue
                det = _interpret_symbol(replace(symbol, corners=corners))
                out.append(replace(det, confidence=det.confidence * CROP_CONFIDENCE))
            return out
        return []


def _as_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        image = cv2.cvtColor(image, code)
    if image.dtype != np.uint8:
        raise DetectorConfigError(f"frames must be 8-bit images, not {image.dtype}")
    return np.ascontiguousarray(image)


def mat_corner_count(detections: Sequence[Detection], corner_ids: set[int] | None = None) -> int:
    """Distinct mat corner markers among `detections` (of one mat when ids are given)."""
    return len({d.marker_id for d in detections if d.aruco is not None
                and d.aruco.kind == "corner"
                and (corner_ids is None or d.marker_id in corner_ids)})


def detect_oriented(
    detector: Detector,
    gray: np.ndarray,
    mirror: bool | None,
    corner_ids: set[int] | None = None,
) -> tuple[np.ndarray, list[Detection], bool]:
    """Detect in `gray` as it is, mirrored back (`mirror` True), or (None) whichever shows the
    mat: ArUco corner markers do not read in a mirror image, so a picture whose corners read
    only when flipped is mirrored (a mirror clip). Returns (picture read, detections, mirrored).
    """
    gray = _as_gray(gray)
    if mirror:
        flipped = np.ascontiguousarray(cv2.flip(gray, 1))
        return flipped, detector.detect(flipped), True
    found = detector.detect(gray)
    if mirror is False or mat_corner_count(found, corner_ids) >= 2:
        return gray, found, False
    flipped = np.ascontiguousarray(cv2.flip(gray, 1))
    again = detector.detect(flipped)
    if mat_corner_count(again, corner_ids) >= 2 and mat_corner_count(
            again, corner_ids) > mat_corner_count(found, corner_ids):
        return flipped, again, True
    return gray, found, False
