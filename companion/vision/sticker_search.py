"""Looking for big-cell stickers where a card should be but none was read.

Why: the ArUco detector finds a big-cell symbol only as a closed dark square. A die set on the
card, the lamp's reflection in the sleeve over one corner, or the next card's edge over the
quiet zone breaks that square, though most of the sticker still shows. On the mat's plane the
sticker is a known shape (a 25 mm black frame in a white square, at the card's turn), so it
can be found by correlation with that shape even when part of it is covered or washed out,
and then read as usual (`read_quad`: the hard reading, else the errors-and-erasures one).

Where: inside each card zone (slot or pile) of the layout in which no sticker was read, the
mat's picture is straightened to `COARSE_PX_PER_MM` and correlated with the frame's template
at a few turns; the best places are refined at `FINE_PX_PER_MM` and read in turn until one
reads (`ZONE_PLACES`). In an area, where several cards
lie anywhere (a lane, a home), every sticker-like place apart from the stickers read there is
taken (`search_area`), the best first. A place found this way is only a hypothesis: the
reading decides, with the same rules as everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.markers.bigcell import CELLS

COARSE_PX_PER_MM = 1.5
FINE_PX_PER_MM = 3.0
COARSE_TURNS_DEG = (-9.0, -4.5, 0.0, 4.5, 9.0)
FINE_TURNS_DEG = (-2.0, -1.0, 0.0, 1.0, 2.0)
FINE_REACH_MM = 2.0
MARGIN_MM = 8.0  # around a zone: cards are laid a few millimetres off
MIN_MATCH = 0.3  # normalised correlation with the frame's template, at least (a sticker: 0.5-0.65)
AREA_PLACES = 8  # sticker-like places tried in one area at most, the best first, ...
ZONE_PLACES = 3  # places tried in a slot or pile, the best first, until one reads (the best
# alone missed stickers whose corner the lamp's reflection washed out: a pile's card art gave a
# better frame 4 cm away)
AREA_MIN_MATCH = 0.5  # ... matching at least this well: an area's card art gives many places
# at 0.3-0.5, each costing three readings (stickers in view, whole or under a die: 0.55-0.7)


@dataclass(frozen=True)
class Zone:
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float


@lru_cache(maxsize=64)
def frame_template(symbol_mm: float, px_per_mm: float, turn_deg: float) -> np.ndarray:
    """The sticker's frame as seen on the mat: white quiet zone, black border, and the data
    cells grey (they could be anything), turned by `turn_deg`, float32 in [0, 1]."""
    cell = symbol_mm / CELLS
    outer = symbol_mm + 2 * cell  # the white square: one cell of quiet zone all round
    a = np.radians(turn_deg)
    size = int(np.ceil(outer * (abs(np.cos(a)) + abs(np.sin(a))) * px_per_mm)) | 1
    c = (size - 1) / 2
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    u = ((xx - c) * np.cos(a) + (yy - c) * np.sin(a)) / px_per_mm
    v = (-(xx - c) * np.sin(a) + (yy - c) * np.cos(a)) / px_per_mm
    r = np.maximum(np.abs(u), np.abs(v))
    out = np.full((size, size), 0.5, np.float32)  # outside the sticker: anything
    out[r <= outer / 2] = 1.0
    out[r <= symbol_mm / 2] = 0.0
    out[r <= symbol_mm / 2 - cell] = 0.5
    return out


def _straighten(gray: np.ndarray, to_mat: np.ndarray, box: tuple[float, float, float, float],
                px_per_mm: float) -> np.ndarray:
    """The part of the mat `box` (x0, y0, x1, y1 mm) as a top-down picture."""
    x0, y0, x1, y1 = box
    scale = np.array([[px_per_mm, 0, -x0 * px_per_mm], [0, px_per_mm, -y0 * px_per_mm],
                      [0, 0, 1]])
    size = (round((x1 - x0) * px_per_mm), round((y1 - y0) * px_per_mm))
    return np.asarray(cv2.warpPerspective(gray, scale @ to_mat, size, flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE), np.float32)


def _match_maps(picture: np.ndarray, symbol_mm: float, px_per_mm: float,
                turns: Sequence[float]) -> Iterator[tuple[float, float, np.ndarray]]:
    """(turn, half the template's side in px, correlation map) for each turn whose template
    fits in `picture`; a map's (u, v) is the frame centred at (u + half, v + half) px."""
    for turn in turns:
        t = frame_template(symbol_mm, px_per_mm, round(turn, 2))
        if t.shape[0] > picture.shape[0] or t.shape[1] > picture.shape[1]:
            continue
        yield turn, (t.shape[0] - 1) / 2, cv2.matchTemplate(picture, t, cv2.TM_CCOEFF_NORMED)


def _best(picture: np.ndarray, symbol_mm: float, px_per_mm: float,
          turns: Sequence[float]) -> tuple[float, float, float, float]:
    """(score, x mm, y mm, turn) of the best match of the frame in `picture` (its own mm)."""
    best = (-1.0, 0.0, 0.0, 0.0)
    for turn, half, scores in _match_maps(picture, symbol_mm, px_per_mm, turns):
        _, score, _, at = cv2.minMaxLoc(scores)
        if score > best[0]:
            best = (float(score), (at[0] + half) / px_per_mm, (at[1] + half) / px_per_mm, turn)
    return best


def symbol_corners_mm(x_mm: float, y_mm: float, turn_deg: float, symbol_mm: float
                      ) -> np.ndarray:
    """The symbol's four corners on the mat, clockwise from top-left as the picture shows it."""
    a = np.radians(turn_deg)
    h = symbol_mm / 2
    local = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.asarray(local @ rot.T + np.array([x_mm, y_mm]))


def search_zone(gray: np.ndarray, to_mat: np.ndarray, zone: Zone, symbol_mm: float
                ) -> list[tuple[float, np.ndarray]]:
    """The few most sticker-like places in a slot or pile (one card's place), the best first:
    (match score, symbol corners in mat mm) each, none where nothing there looks like the
    frame of a sticker. The caller reads them in turn until one reads."""
    return search_area(gray, to_mat, zone, symbol_mm, min_match=MIN_MATCH, places=ZONE_PLACES)


def _box(zone: Zone) -> tuple[float, float, float, float]:
    return (zone.x_mm - MARGIN_MM, zone.y_mm - MARGIN_MM, zone.x_mm + zone.w_mm + MARGIN_MM,
            zone.y_mm + zone.h_mm + MARGIN_MM)


def search_area(gray: np.ndarray, to_mat: np.ndarray, zone: Zone, symbol_mm: float,
                taken: Sequence[tuple[float, float]] = (), min_match: float = AREA_MIN_MATCH,
                places: int = AREA_PLACES) -> list[tuple[float, np.ndarray]]:
    """Sticker-like places in an area where several cards may lie, the best first (at most
    `places`, each matching at least `min_match`), each a symbol apart from the others and
    from `taken` (centres in mat mm of stickers read)."""
    box = _box(zone)
    coarse = _straighten(gray, to_mat, box, COARSE_PX_PER_MM)
    apart = symbol_mm * 0.9
    peaks: list[tuple[float, float, float, float]] = []
    for turn, half, scores in _match_maps(coarse, symbol_mm, COARSE_PX_PER_MM,
                                          COARSE_TURNS_DEG):
        local = scores >= cv2.dilate(scores, np.ones((5, 5), np.uint8))
        for v, u in zip(*np.nonzero(local & (scores >= min_match)), strict=True):
            peaks.append((float(scores[v, u]), box[0] + (u + half) / COARSE_PX_PER_MM,
                          box[1] + (v + half) / COARSE_PX_PER_MM, turn))
    chosen: list[tuple[float, float, float, float]] = []
    for peak in sorted(peaks, reverse=True):
        if len(chosen) >= places:
            break
        _, x, y, _ = peak
        if any(np.hypot(x - cx, y - cy) < apart for _, cx, cy, _ in chosen) or any(
                np.hypot(x - tx, y - ty) < apart for tx, ty in taken):
            continue
        chosen.append(peak)
    out = []
    for _, x, y, turn in chosen:
        found = _refine(gray, to_mat, x, y, turn, symbol_mm)
        if found is not None:
            out.append(found)
    return out


def _refine(gray: np.ndarray, to_mat: np.ndarray, cx: float, cy: float, turn: float,
            symbol_mm: float) -> tuple[float, np.ndarray] | None:
    """The coarse place (`cx`, `cy` mm, `turn`) found again at `FINE_PX_PER_MM`."""
    reach = symbol_mm * (1 + 2 / CELLS) * 0.6 + FINE_REACH_MM
    fine_box = (cx - reach, cy - reach, cx + reach, cy + reach)
    fine = _straighten(gray, to_mat, fine_box, FINE_PX_PER_MM)
    score, x, y, dturn = _best(fine, symbol_mm, FINE_PX_PER_MM,
                               [turn + d for d in FINE_TURNS_DEG])
    if score < MIN_MATCH:
        return None
    return score, symbol_corners_mm(fine_box[0] + x, fine_box[1] + y, dturn, symbol_mm)
