"""What a dark square read as, kept while its pixels stay as they were.

While the table settles, the ArUco pass over the regions where hands moved runs on every frame
(`ArucoSchedule.settling_s`) and hands the big-cell reader the same squares each time: card
art, dice, the stickers themselves. A square that does not read costs up to six warps and
readings (the symbol and its sticker-outline hypotheses), about 1 ms; on the timed 40-card
sequence this was a quarter of the frame time. A reading is a function of the square's corners
and the pixels around it, so where both are as at the last look the last result stands.

"As they were" is judged per cell-sized window, against the picture's own noise: the window
means of the absolute difference must all stay below twice the crop's median difference
(capped at what a sensor's noise can be) plus a margin. A cell that turned from ink to paper
(another card, a die laid on it, a finger) changes its window by the code's contrast (at
least 24 grey levels, `MIN_CONTRAST`, far more on a printed sticker) and is seen; sensor
noise and JPEG shimmer, averaged over a cell, stay far below. Each entry lives for a few
passes; nothing survives a changed picture.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

T = TypeVar("T")

CHANGE_MARGIN = 8.0  # grey levels a cell window may differ beyond twice the noise's median
MAX_NOISE = 10.0  # the median frame-to-frame difference of a still picture, at most (the
# realistic simulator's 1080p webcam: 5-7; a dim room at high gain about twice its sigma 5)
KEEP_PASSES = 3  # an entry not looked at for this many passes is dropped
GROWTH = 0.25  # of the square's side, around it (the sticker outline's hypotheses, the ring)
JITTER_PX = 2.0  # a square's corners found this near the remembered ones: the same square
BUCKET_PX = 16.0  # entries are filed by their centre on a grid this coarse


@dataclass(eq=False)  # entries are told apart by identity
class _Entry:
    bucket: tuple[object, int, int]  # where it is filed (`_bucket`)
    corners: np.ndarray
    box: tuple[int, int, int, int]
    pixels: np.ndarray
    window: int
    result: object
    seen: int


def _box(quad: np.ndarray, shape: tuple[int, ...]) -> tuple[tuple[int, int, int, int], float]:
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    side = float(max(hi - lo))
    grow = side * GROWTH + 2.0
    x0, y0 = max(int(lo[0] - grow), 0), max(int(lo[1] - grow), 0)
    x1 = min(int(np.ceil(hi[0] + grow)), shape[1])
    y1 = min(int(np.ceil(hi[1] + grow)), shape[0])
    return (x0, y0, x1, y1), side


def looks_unchanged(before: np.ndarray, now: np.ndarray, window: int) -> bool:
    """No cell-sized window of `now` differs from `before` by more than noise."""
    if before.shape != now.shape or before.size == 0:
        return False
    diff = cv2.absdiff(before, now)
    # the median difference is the noise while most of the crop is unchanged; where most of
    # it changed, it is the change itself, so it is capped at what a sensor's noise can be
    noise = min(float(np.median(diff)), MAX_NOISE)
    means = cv2.blur(diff.astype(np.float32), (window, window))
    return float(means.max()) <= 2.0 * noise + CHANGE_MARGIN


class SquareMemory:
    """Results per square, reused while its corners stay within `JITTER_PX` (the contour's
    corners move by a pixel or two with noise) and its pixels are unchanged.

    `begin_pass()` once per pass ages the entries; `read(gray, quad, cells, compute)` gives the
    remembered result or computes, remembers and returns a new one. `cells`: how many cells
    the code has along a side (the change test's window is one cell).
    """

    def __init__(self) -> None:
        self._buckets: dict[tuple[object, int, int], list[_Entry]] = {}
        self._pass = 0
        self.hits = 0
        self.misses = 0

    def begin_pass(self) -> None:
        self._pass += 1
        old = self._pass - KEEP_PASSES
        kept = {k: [e for e in v if e.seen > old] for k, v in self._buckets.items()}
        self._buckets = {k: v for k, v in kept.items() if v}

    def clear(self) -> None:
        self._buckets.clear()

    def _drop(self, entry: _Entry) -> None:
        bucket = self._buckets.get(entry.bucket, [])
        bucket[:] = [e for e in bucket if e is not entry]

    @staticmethod
    def _bucket(variant: object, quad: np.ndarray) -> tuple[object, int, int]:
        cx, cy = (round(v / BUCKET_PX) for v in quad.mean(axis=0))
        return variant, cx, cy

    def _near(self, variant: object, quad: np.ndarray) -> _Entry | None:
        _, cx, cy = self._bucket(variant, quad)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for entry in self._buckets.get((variant, cx + dx, cy + dy), ()):
                    if float(np.abs(entry.corners - quad).max()) <= JITTER_PX:
                        return entry
        return None

    def read(self, gray: np.ndarray, quad: np.ndarray, cells: int,
             compute: Callable[[], tuple[T, bool]], variant: object = None) -> T:
        """`compute` gives the result and whether to keep it (a near miss, which noise may
        tip the next time, is not kept); `variant`: anything else the result depends on
        (e.g. which readings are allowed)."""
        q = np.asarray(quad, np.float64).reshape(4, 2)
        entry = self._near(variant, q)
        if entry is not None:
            x0, y0, x1, y1 = entry.box
            if looks_unchanged(entry.pixels, gray[y0:y1, x0:x1], entry.window):
                entry.seen = self._pass
                self.hits += 1
                return entry.result  # type: ignore[return-value]
        self.misses += 1
        result, keep = compute()
        if entry is not None:
            self._drop(entry)
        if not keep:
            return result
        box, side = _box(q, gray.shape)
        x0, y0, x1, y1 = box
        window = max(3, round(side / cells))
        bucket = self._bucket(variant, q)
        fresh = _Entry(bucket, q.copy(), box, gray[y0:y1, x0:x1].copy(), window, result,
                       self._pass)
        self._buckets.setdefault(bucket, []).append(fresh)
        return result
