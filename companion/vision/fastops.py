"""Whole-picture operations done the fast way, with the same results as the plain way.

The cue images and checks run on every frame, so their few milliseconds count against the
30 frames a second of a 1080p camera (`companion bench vision`). Measured on one core of the
2-core development machine, 1080p colour: OpenCV's area resize to 1/8 takes 4.6 ms, three
halvings with bilinear interpolation 1.3 ms, and give the same 8 x 8 pixel means (a bilinear
halving samples between four pixels: their mean) up to rounding (each halving rounds to
whole grey levels: at most 1.5 levels off);
numpy's `max(axis=2)` over a small colour picture takes 1.2 ms, OpenCV's per-channel maximum
0.05 ms.
"""

from __future__ import annotations

import cv2
import numpy as np


def shrink(image: np.ndarray, factor: int) -> np.ndarray:
    """`image` reduced `factor` times in each direction, each pixel the mean of a
    `factor` x `factor` block (as `cv2.INTER_AREA` gives)."""
    h, w = image.shape[:2]
    steps = factor.bit_length() - 1
    if factor > 1 and factor == 1 << steps and w % factor == 0 and h % factor == 0:
        out = image
        for _ in range(steps):
            out = cv2.resize(out, (out.shape[1] // 2, out.shape[0] // 2),
                             interpolation=cv2.INTER_LINEAR)
        return np.asarray(out)
    return np.asarray(cv2.resize(image, (w // factor, h // factor),
                                 interpolation=cv2.INTER_AREA))


def channel_max(image: np.ndarray) -> np.ndarray:
    """The largest of a colour picture's channels at each pixel (a grey picture as it is)."""
    if image.ndim == 2:
        return image
    out = image[:, :, 0]
    for c in range(1, image.shape[2]):
        out = cv2.max(out, image[:, :, c])
    return np.asarray(out)
