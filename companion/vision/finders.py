"""Sticker-like squares: where a Micro QR's finder pattern is, whether or not it decoded.

A Micro QR has one finder pattern: a dark 7x7-module square ring around a light ring around a
dark 3x3 core. In a binarised frame that is a dark contour holding a light hole holding a dark
blob, with areas in the ratio 49 : 25 : 9. Finding those is cheaper than decoding and works
down to about 1.5 px per module, where zxing's own full-frame pass already misses stickers: the
detector then retries a magnified crop around every such square (`Detector.retry_squares`),
new cards included, not only the ones it read before.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MIN_MODULE_PX = 1.3
MAX_MODULE_PX = 16.0


@dataclass(frozen=True)
class FinderCandidate:
    centre: np.ndarray  # x, y px
    module_px: float

    def crop_quad(self, modules: float = 16.0) -> np.ndarray:
        """An axis-aligned square (4x2 px) holding the whole symbol in any orientation: the
        finder's centre lies 3.5 modules from the symbol's corner, its far corner 13.4 away."""
        half = modules * self.module_px
        x, y = self.centre
        return np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                         [x - half, y + half]], dtype=np.float64)


def _binarise(gray: np.ndarray, module_px_hint: float) -> np.ndarray:
    block = int(max(11, round(module_px_hint * 6)) // 2 * 2 + 1)
    return np.asarray(cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                            cv2.THRESH_BINARY_INV, block, 9))


def finder_candidates(gray: np.ndarray, module_px_hint: float = 3.0,
                      min_module_px: float = MIN_MODULE_PX,
                      max_module_px: float = MAX_MODULE_PX) -> list[FinderCandidate]:
    """Finder-pattern-like nested squares in a grayscale picture."""
    binary = _binarise(gray, module_px_hint)
    contours, hierarchy = cv2.findContours(binary, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    tree = hierarchy[0]
    min_area = (7 * min_module_px) ** 2 * 0.6
    max_area = (7 * max_module_px) ** 2 * 1.5
    out: list[FinderCandidate] = []
    for i, contour in enumerate(contours):
        child = int(tree[i][2])
        if child < 0 or int(tree[child][0]) >= 0:  # exactly one hole
            continue
        core = int(tree[child][2])
        if core < 0 or int(tree[core][0]) >= 0:  # holding exactly one blob
            continue
        outer = cv2.contourArea(contour)
        if not min_area <= outer <= max_area:
            continue
        hole = cv2.contourArea(contours[child])
        inner = cv2.contourArea(contours[core])
        if hole <= 0 or inner <= 0:
            continue
        if not (0.25 <= hole / outer <= 0.75 and 0.12 <= inner / outer <= 0.4):
            continue
        _, _, w, h = cv2.boundingRect(contour)
        if not 0.4 <= w / max(h, 1) <= 2.5:
            continue
        rect = cv2.minAreaRect(contour)
        side = float(np.sqrt(max(rect[1][0] * rect[1][1], 1.0)))
        if outer < 0.55 * side * side:  # not a filled-in square outline
            continue
        m = cv2.moments(contours[core])
        if m["m00"] <= 0:
            continue
        centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
        out.append(FinderCandidate(centre, side / 7.0))
    return out
