"""Has a card's sticker place changed since the card was last read?

The decoder misses stickers now and then (noise, a hand's shadow), and a player puts a die or a
token on a card, often on its sticker. Neither removes the card. The pipeline keeps a small
picture of each card's sticker place from the frame it was last read in (`PlaceLook`) and
compares the place now:
- `same_place`: it looks the same (normalised correlation of a 12 x 12 picture): only the
  decoder missed it;
- `small_thing_on`: it looks the same but for one compact part (a die or a token lying on it):
  the rest of the sticker's pattern is still exactly where it was. A card taken away shows the
  mat there (the whole pattern changes), another card laid in its place a few millimetres off
  shifts the whole pattern, and another card slid over it covers a band, not a compact spot.

Measured on the laptop with a mirror clip (`companion bench vision`, dice put on after the
cards): a die on a card's sticker changed 7-21 % of its place and left the rest correlated at
0.88-0.99, while the whole place's correlation fell to 0.64-0.84 (below `SAME_PLACE_NCC`).
Rendered on the laptop (both poses) and the 1080p webcam at 53 cm, 4 tables each: a card taken
away (72 cases) or moved by 3.6 mm (72) was never held; another card laid in exactly the same
place, to the millimetre and the degree, was in 3 of 72 (the tracker drops the old card as soon
as the new one's sticker reads: only a new card whose sticker never reads could leave the old
one standing).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PATCH_PX = 12
SAME_PLACE_NCC = 0.85
COVER_PX = 16  # the place's picture for `small_thing_on`
COVER_MIN_LEVEL = 20.0  # grey levels a pixel must change by (or 4 times the median change)
NOISE_SPECK_PX = 2  # changed pixels apart from the rest this few are the sensor's noise
COVER_MAX_SHARE = 0.35  # a die covers at most this much of the place ...
COVER_MIN_SHARE = 0.02  # ... and at least this much (less is noise) ...
COVER_BLOB_SHARE = 0.8  # ... in one piece: the largest connected part holds this much of it
COVER_EDGE_PX = 2  # ... reaching the place's edge with this many pixels
COVER_REST_NCC = 0.85  # ... and the rest of the place correlates with before this well
MIN_TEXTURE = 8.0  # grey levels of spread a place needs (flat: no sticker there)


@dataclass(frozen=True)
class PlaceLook:
    """A sticker place's picture: normalised (for `same_place`) and in grey levels."""

    normalised: np.ndarray  # PATCH_PX x PATCH_PX, mean 0, norm 1
    grey: np.ndarray  # COVER_PX x COVER_PX, float32


def _crop(gray: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    lo = np.floor(quad.min(axis=0)).astype(int)
    hi = np.ceil(quad.max(axis=0)).astype(int)
    x0, y0 = max(int(lo[0]), 0), max(int(lo[1]), 0)
    x1, y1 = min(int(hi[0]), gray.shape[1]), min(int(hi[1]), gray.shape[0])
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    return gray[y0:y1, x0:x1]


def look_at(gray: np.ndarray, quad: np.ndarray) -> PlaceLook | None:
    """The place of a marker whose corners are `quad`; None where it is off the picture or
    flat (no sticker there)."""
    return _look(_crop(gray, quad))


class PlacePicture:
    """A sticker place's pixels kept from the frame it was seen in, its `PlaceLook` made
    only when asked: the pipeline keeps every known card's place each frame, but compares
    one only when its sticker did not read (making every look cost 2 ms a frame in the timed
    40-card 1080p sequence; keeping the pixels costs a copy of the sticker's box)."""

    __slots__ = ("_crop", "_look", "_made")

    def __init__(self, gray: np.ndarray, quad: np.ndarray) -> None:
        crop = _crop(gray, quad)
        self._crop = None if crop is None else crop.copy()
        self._look: PlaceLook | None = None
        self._made = False

    def look(self) -> PlaceLook | None:
        """`look_at` of the place in the frame it was kept from."""
        if not self._made:
            self._look, self._made = _look(self._crop), True
            self._crop = None
        return self._look


def _look(crop: np.ndarray | None) -> PlaceLook | None:
    if crop is None:
        return None
    patch = cv2.resize(crop, (PATCH_PX, PATCH_PX), interpolation=cv2.INTER_AREA)
    patch = patch.astype(np.float32)
    patch -= patch.mean()
    norm = float(np.linalg.norm(patch))
    if norm < PATCH_PX * MIN_TEXTURE:
        return None
    grey = cv2.resize(crop, (COVER_PX, COVER_PX), interpolation=cv2.INTER_AREA)
    return PlaceLook(np.asarray(patch / norm), grey.astype(np.float32))


def same_place(before: PlaceLook | None, now: PlaceLook | None) -> bool:
    """The place looks as it did: only the decoder missed the sticker."""
    return (before is not None and now is not None
            and float((before.normalised * now.normalised).sum()) >= SAME_PLACE_NCC)


def small_thing_on(before: PlaceLook | None, now: PlaceLook | None) -> bool:
    """The place looks as it did but for one compact part: a die or a token lies on the
    sticker. (Light that changed evenly is taken out first: the median change.)"""
    if before is None or now is None:
        return False
    change = now.grey - before.grey
    change -= float(np.median(change))
    level = max(COVER_MIN_LEVEL, 4.0 * float(np.median(np.abs(change))))
    changed = np.abs(change) > level
    # one piece, allowing gaps of a pixel (a die's white faces over the sticker's paper do
    # not change every pixel they cover); specks of a pixel or two apart from it are noise
    joined = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    if count < 2:
        return False
    sizes = np.bincount(labels[changed], minlength=count)
    changed &= sizes[labels] > NOISE_SPECK_PX
    share = float(changed.mean())
    if not COVER_MIN_SHARE <= share <= COVER_MAX_SHARE:
        return False
    blob = int(sizes.argmax())
    if int(sizes[blob]) < COVER_BLOB_SHARE * int(changed.sum()):
        return False
    # ... reaching over the place's edge: a die or token lies on the card beside or over the
    # sticker's edge (one covering its middle hides too much of it), while another sticker
    # laid exactly in its place changes only its inside (both borders are black)
    edge = np.zeros_like(changed)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    if int((changed & edge & (labels == blob)).sum()) < COVER_EDGE_PX:
        return False
    rest = ~changed
    a, b = before.grey[rest], now.grey[rest]
    if float(a.std()) < MIN_TEXTURE / 2 or float(b.std()) < MIN_TEXTURE / 2:
        return False
    return float(np.corrcoef(a, b)[0, 1]) >= COVER_REST_NCC

