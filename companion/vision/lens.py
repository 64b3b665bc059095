"""The lens's barrel distortion, estimated from the mat's own corner markers.

A wide laptop lens bends straight lines: a homography fitted on the four corner markers of a
mat seen from a laptop at its long edge (28 cm high, 20 cm back, 78 degrees wide) misplaces
the middle of the near edge by 8-10 mm, enough to put a card in its neighbour's zone. Every
corner marker gives four known mat points, so four markers give sixteen: one radial term
(about the picture's centre, on coordinates scaled by half the picture's width) and the
homography of the undistorted points fit them together. On the simulator's lens model (k1
-0.12, k2 0.02) that left at most 1.1 mm across the mat instead of 10 mm
(tests/vision/test_lens.py). With fewer than four markers the term is not estimated: two or
three clusters of points say too little about a bend. Only placing things on the mat goes
through it (`MatGeometry.to_mat_true`, `place`); the readers' warps and searches keep the
plain homography they were tuned on.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

LENS_MARKERS = 4  # corner markers needed to estimate the bend
K_RANGE = (-0.4, 0.2)  # radial terms looked at (a fish-eye beyond, a pincushion lens rare)
K_COARSE = 61  # values tried over K_RANGE, then refined around the best
MIN_RMS_MM = 0.8  # a plain homography's fit this good leaves nothing worth a lens term
MIN_GAIN = 0.6  # the lens term is kept only when it leaves at most this share of the misfit


@dataclass(frozen=True)
class RadialLens:
    """One radial term: a picture point at distance r (in half picture widths) from the
    centre lies where the undistorted point at r / (1 + k r_u^2) would be drawn."""

    k: float
    centre: tuple[float, float]
    scale: float  # half the picture's width, px

    def undistort(self, points_px: np.ndarray) -> np.ndarray:
        """Picture pixels -> the pixels a distortion-free lens would give (N x 2)."""
        c = np.asarray(self.centre, np.float64)
        d = (np.asarray(points_px, np.float64).reshape(-1, 2) - c) / self.scale
        n = d.copy()
        for _ in range(10):  # fixed point: n (1 + k |n|^2) = d
            n = d / (1.0 + self.k * (n ** 2).sum(axis=1, keepdims=True))
        return np.asarray(n * self.scale + c)

    def distort(self, points_px: np.ndarray) -> np.ndarray:
        """Distortion-free pixels -> where this lens draws them (N x 2)."""
        c = np.asarray(self.centre, np.float64)
        n = (np.asarray(points_px, np.float64).reshape(-1, 2) - c) / self.scale
        return np.asarray(n * (1.0 + self.k * (n ** 2).sum(axis=1, keepdims=True))
                          * self.scale + c)


def _misfit(image_pts: np.ndarray, mat_pts: np.ndarray) -> tuple[float, np.ndarray | None]:
    h, _ = cv2.findHomography(image_pts, mat_pts, 0)
    if h is None:
        return float("inf"), None
    mapped = cv2.perspectiveTransform(image_pts.reshape(-1, 1, 2), h).reshape(-1, 2)
    return float(np.sqrt(((mapped - mat_pts) ** 2).sum(axis=1).mean())), h


def estimate_lens(image_pts: np.ndarray, mat_pts: np.ndarray, markers: int,
                  image_size: tuple[int, int]) -> RadialLens | None:
    """The radial term that best lets one homography carry the corner markers' points
    (`image_pts` px, `mat_pts` mm, four per marker) onto the mat; None when there are too
    few markers or a plain homography fits them about as well."""
    if markers < LENS_MARKERS:
        return None
    width, height = image_size
    plain, _ = _misfit(image_pts, mat_pts)
    if plain < MIN_RMS_MM:
        return None

    def misfit(k: float) -> float:
        lens = RadialLens(k, (width / 2.0, height / 2.0), width / 2.0)
        return _misfit(lens.undistort(image_pts), mat_pts)[0]

    coarse = np.linspace(*K_RANGE, K_COARSE)
    best = float(min(coarse, key=misfit))
    step = float(coarse[1] - coarse[0])
    fine = np.linspace(best - step, best + step, 21)
    best = float(min(fine, key=misfit))
    if misfit(best) > MIN_GAIN * plain:
        return None
    return RadialLens(best, (width / 2.0, height / 2.0), width / 2.0)
