"""How good the picture itself is: focus, light, noise and glare, measured on the mat.

The mat's corner markers are the one thing every frame shows with known ink and paper: a
black square border on a white margin. Their edges give the picture's blur (the width of a
black-to-white step), their paper and ink give the light and the contrast, and the paper's
grain gives the noise. Glare is a patch of saturated pixels (a lamp reflected in a glossy
sleeve) large enough to hide a sticker.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

PROFILE_PX = 7  # samples each side of an edge
SATURATED = 250
GLARE_MIN_PX = 40  # a saturated patch smaller than this hides no sticker


@dataclass(frozen=True)
class PictureQuality:
    """`blur_px`: Gaussian sigma of the picture's blur in pixels (0.5 is a sharp webcam);
    `paper`, `ink`: grey levels of the corner markers' white and black; `noise`: grey-level
    standard deviation of the paper's grain. None where no corner marker could be measured."""

    blur_px: float | None
    paper: float | None
    ink: float | None
    noise: float | None

    @property
    def contrast(self) -> float | None:
        if self.paper is None or self.ink is None:
            return None
        return self.paper - self.ink


def _edge_profiles(gray: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """Grey profiles across the four outer edges of a marker, from inside (ink) to outside."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    out = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        edge = b - a
        length = float(np.linalg.norm(edge))
        if length < 12:
            continue
        along = edge / length
        normal = np.array([-along[1], along[0]])
        if float((a + b) / 2 @ normal - centre @ normal) < 0:
            normal = -normal  # pointing out of the marker
        for frac in (0.3, 0.5, 0.7):
            p = a + edge * frac
            steps = np.arange(-PROFILE_PX, PROFILE_PX + 1, 0.5)
            pts = p[None, :] + steps[:, None] * normal[None, :]
            xs = pts[:, 0].astype(np.float32).reshape(1, -1)
            ys = pts[:, 1].astype(np.float32).reshape(1, -1)
            if (xs.min() < 0 or ys.min() < 0 or xs.max() >= gray.shape[1] - 1
                    or ys.max() >= gray.shape[0] - 1):
                continue
            out.append(cv2.remap(gray, xs, ys, cv2.INTER_LINEAR).ravel().astype(np.float64))
    return out


def picture_quality(gray: np.ndarray, corner_quads: Sequence[np.ndarray]) -> PictureQuality:
    """Blur, light and noise measured on the corner markers' outer edges."""
    sigmas, papers, inks = [], [], []
    for quad in corner_quads:
        for profile in _edge_profiles(gray, quad):
            ink = float(np.median(profile[:5]))
            paper = float(np.median(profile[-5:]))
            contrast = paper - ink
            if contrast < 20:
                continue
            smooth = np.convolve(profile, np.ones(3) / 3, mode="valid")
            slope = float(np.diff(smooth).max()) / 0.5  # grey levels per pixel
            if slope <= 0:
                continue
            sigma = contrast / (slope * math.sqrt(2 * math.pi))
            # a perfectly sharp edge still spreads over a pixel (sampling): about 0.45 px
            sigmas.append(math.sqrt(max(sigma**2 - 0.45**2, 0.0)))
            papers.append(paper)
            inks.append(ink)
    if not sigmas:
        return PictureQuality(None, None, None, noise_sigma(gray))
    return PictureQuality(float(np.median(sigmas)), float(np.median(papers)),
                          float(np.median(inks)), noise_sigma(gray))


def noise_sigma(gray: np.ndarray) -> float:
    """Grey-level noise of the picture (Immerkaer's fast estimate: a Laplacian difference
    that cancels smooth shading, averaged over the frame)."""
    kernel = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
    response = cv2.filter2D(gray.astype(np.float32), -1, kernel)[1:-1, 1:-1]
    return float(math.sqrt(math.pi / 2) * np.abs(response).mean() / 6.0)


def glare_spots(image: np.ndarray, min_px: int = GLARE_MIN_PX) -> list[np.ndarray]:
    """Centres (x, y px) of saturated patches big enough to hide part of a sticker.

    A lamp's reflection is a solid blot; white paper that merely clips (a sticker's margin
    around its symbol, printed white between modules) is a ring or a lattice with the ink
    inside it, and is not glare."""
    # every channel at or above SATURATED: OpenCV's range test takes 3 ms on a 1080p frame,
    # numpy's min over the channel axis 40 ms (on a still table it ran on every re-read)
    channels = 1 if image.ndim == 2 else image.shape[2]
    saturated = cv2.inRange(image, (SATURATED,) * channels, (255,) * channels)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(saturated,
                                                                      connectivity=8)
    out = []
    for i in range(1, count):
        area = int(stats[i, cv2.CC_STAT_AREA])
        if area < min_px:
            continue
        x, y, w, h = (int(v) for v in stats[i, :4])
        blob = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = sum(cv2.contourArea(c) for c in contours) + 0.5 * cv2.arcLength(
            contours[0], True) if contours else area
        if filled > 1.35 * area:
            continue  # a ring or lattice of white paper around ink: a sticker, not glare
        out.append(np.asarray(centroids[i]))
    return out
