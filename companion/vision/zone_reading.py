"""Stickers read where the card zones say a card may lie: the live pipeline's and `scan`'s.

A big-cell sticker whose closed dark square a die, the lamp's reflection or the next card's edge
broke is not found as a square; in a card zone where no sticker was read, the zone search
(`sticker_search`) finds its frame on the mat's plane (in an area, every place that looks like
one apart from the stickers read there), and the big-cell reader decides, hard and then softly,
with the soft reading's rules (`read_soft_quad`) and only for payloads that can lie on this
table (`table_payloads`). The live pipeline does this once the table is at rest; `companion
scan` on a photo with its mat located.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from companion.markers.payload import BackPayload, PayloadError, decode
from companion.vision.decoders.bigcell import Allowed
from companion.vision.detect import (
    Detection,
    big_cell_detections,
    centre_in,
    found_place_detection,
)
from companion.vision.geometry import MatGeometry
from companion.vision.sticker_search import Zone, search_area, search_zone

SEARCH_KINDS = ("slot", "pile")  # one card's place: its best places are read until one reads
AREA_KIND = "area"  # several cards anywhere: every sticker-like place in it is read
SEARCH_SCALES = (1.0, 0.95, 1.05, 1.1)  # sizes of the found square tried in turn: the lens's
# distortion and a pile's height change the sticker's size against the mat's plane
SOFT_AGREE = 2  # of the sizes: a sticker read softly only counts where this many read it alike


def table_payloads(game_code: int) -> Allowed:
    """The sticker payloads that can lie on a table of this game: its fronts, any back."""

    def allowed(text: str) -> bool:
        try:
            meaning = decode(text)
        except PayloadError:
            return False
        return isinstance(meaning, BackPayload) or meaning.game_code == game_code

    return allowed


def read_unread_zones(gray: np.ndarray, geometry: MatGeometry, layout: Any,
                      read: Sequence[Detection], allowed: Allowed,
                      still_mean: np.ndarray | None = None) -> list[Detection]:
    """Stickers found and read in the card zones (slots and piles) where none of `read` lies,
    and in the areas apart from those of `read`. `still_mean`: the mean of the still frames
    (the pipeline's `FrameFusion`), a second picture a soft reading may be confirmed in."""
    stickers = [d for d in read if d.kind in ("front", "back")]
    centres = (geometry.to_mat(np.array([d.centre for d in stickers]))
               if stickers else np.zeros((0, 2)))
    symbol = float(layout.sticker_mm)
    card = max(float(getattr(layout, "card_w_mm", 63.0)),
               float(getattr(layout, "card_h_mm", 88.0)))
    found_cards: list[Detection] = []

    def fresh(reading: Detection) -> bool:  # not a sticker read already (its other look)
        return not any(centre_in(reading.corners, d) for d in [*stickers, *found_cards])

    areas = []
    for zone in getattr(layout, "zones", {}).values():
        kind = getattr(zone, "kind", "")
        x, y, w, h = (float(zone.x_mm), float(zone.y_mm), float(zone.w_mm), float(zone.h_mm))
        if kind == AREA_KIND or (kind in SEARCH_KINDS and max(w, h) > 1.5 * card):
            areas.append(Zone(x, y, w, h))  # several cards' place
            continue
        if kind not in SEARCH_KINDS:
            continue
        if any(x <= cx < x + w and y <= cy < y + h for cx, cy in centres):
            continue
        for _, corners in search_zone(gray, geometry.homography, Zone(x, y, w, h), symbol):
            reading = read_place(gray, geometry, corners, allowed, still_mean)
            if reading is not None:  # one card's place: the first place read is its sticker
                if fresh(reading):
                    found_cards.append(reading)
                break
    taken = [(float(cx), float(cy)) for cx, cy in centres]
    for area in areas:  # several cards' place: every place found is read
        for _, corners in search_area(gray, geometry.homography, area, symbol, taken):
            reading = read_place(gray, geometry, corners, allowed, still_mean)
            if reading is not None and fresh(reading):
                found_cards.append(reading)
    return found_cards


def read_place(gray: np.ndarray, geometry: MatGeometry, corners_mm: np.ndarray,
               allowed: Allowed, still_mean: np.ndarray | None = None) -> Detection | None:
    """The sticker whose symbol the search put at `corners_mm`, read at a few sizes: a hard
    reading at any size, else a soft reading that is confirmed (`soft_agreement`): the same
    payload at `SOFT_AGREE` sizes, or in `still_mean` too (the still frames' mean)."""
    centre = corners_mm.mean(axis=0)
    quads = [geometry.to_image(centre + (corners_mm - centre) * scale)
             for scale in SEARCH_SCALES]
    for quad in quads:  # hard: the code's distance (7) speaks for itself
        cards = big_cell_detections(gray, [quad])
        if cards:
            return cards[0]
    softly = _soft_readings(gray, quads, allowed)
    texts = {r.text for r in softly if r is not None}
    also = []
    if len(texts) == 1 and still_mean is not None and still_mean.shape == gray.shape:
        also = [r for r in _soft_readings(still_mean, quads, allowed, hard_too=True)
                if r is not None]
    return soft_agreement(softly, also)


def _soft_readings(gray: np.ndarray, quads: Sequence[np.ndarray], allowed: Allowed,
                   hard_too: bool = False) -> list[Detection | None]:
    """Per quad: the outline's hypotheses read (hard, then softly), else the quad as the
    symbol's frame (even where a reflection lightens one side of the border)."""
    out = []
    for quad in quads:
        cards = big_cell_detections(gray, [quad], allowed=allowed)
        out.append(cards[0] if cards else found_place_detection(gray, quad, allowed))
        if hard_too and out[-1] is not None:
            break
    return out


def soft_agreement(readings: Sequence[Detection | None],
                   confirmations: Sequence[Detection] = ()) -> Detection | None:
    """The soft reading the search's sizes agree on, or None: one payload only, read at
    `SOFT_AGREE` sizes, or at one and in a second picture (`confirmations`: the readings of
    the still frames' mean) as well.

    Why: a sticker the search finds is one whose square something broke (a die, the next card,
    the lamp's reflection), so part of what the reader sees may not be the sticker. A die's
    top over half a laptop's far sticker read softly as another card of the game at one size
    of the search's square, in the live frame only (the sizes beside it were refused, the
    still frames' mean read nothing there; bench seed 1005, 30 cm,
    docs/lab/2026-11-28-wrong-id-1005.md): one reading of one picture at one size rests on
    that picture's noise and on where the fit put the square, not on the sticker."""
    read = [r for r in readings if r is not None]
    if not read or len({r.text for r in read}) != 1:
        return None
    if len(read) >= SOFT_AGREE or any(c.text == read[0].text for c in confirmations):
        return read[0]
    return None
