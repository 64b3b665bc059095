"""Where the simulated camera stands, and how its picture degrades.

A pinhole camera looks at the centre of the mat from `tilt_deg` off vertical. Unless a distance is
given, it stands as close as it can while still seeing the whole mat with a small margin: that is
how a person sets up a camera with `companion calibrate`. The mat plane maps to the image by one
homography, so a frame is rendered top-down in mat millimetres and warped once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

RESOLUTIONS: dict[str, tuple[int, int]] = {"720p": (1280, 720), "1080p": (1920, 1080)}


@dataclass(frozen=True)
class CameraProfile:
    """Resolution, pose and lens of the simulated camera."""

    width_px: int = 1920
    height_px: int = 1080
    tilt_deg: float = 30.0
    hfov_deg: float = 65.0
    distance_mm: float | None = None  # camera to mat centre; None = closest that sees the mat
    margin: float = 0.03  # share of the image kept free around the mat when fitting

    @classmethod
    def named(
        cls, resolution: str, tilt_deg: float = 30.0, hfov_deg: float = 65.0
    ) -> CameraProfile:
        width, height = RESOLUTIONS[resolution]
        return cls(width_px=width, height_px=height, tilt_deg=tilt_deg, hfov_deg=hfov_deg)


@dataclass(frozen=True)
class Degradation:
    """What a real camera adds to the ideal picture."""

    blur_sigma_px: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int = 95
    vignette: float = 0.0  # brightness lost in the far corners (0..1)
    gradient: float = 0.0  # brightness difference across the frame (0..1)
    gain: float = 1.0

    @classmethod
    def clean(cls) -> Degradation:
        return cls()

    @classmethod
    def webcam(cls) -> Degradation:
        """A typical USB webcam under room light: soft focus, grain, strong JPEG, falloff."""
        return cls(
            blur_sigma_px=0.85, noise_sigma=5.0, jpeg_quality=80, vignette=0.3, gradient=0.15,
            gain=0.92,
        )

    @classmethod
    def named(cls, name: str) -> Degradation:
        if name == "clean":
            return cls.clean()
        if name == "webcam":
            return cls.webcam()
        raise ValueError(f"unknown image quality {name!r}; choose clean or webcam")


def _focal_px(profile: CameraProfile) -> float:
    return (profile.width_px / 2) / math.tan(math.radians(profile.hfov_deg) / 2)


def _homography_at(profile: CameraProfile, width_mm: float, height_mm: float, distance: float
                   ) -> np.ndarray:
    tilt = math.radians(profile.tilt_deg)
    target = np.array([width_mm / 2, height_mm / 2, 0.0])
    centre = target + distance * np.array([0.0, math.sin(tilt), math.cos(tilt)])
    forward = (target - centre) / np.linalg.norm(target - centre)
    x_axis = np.array([1.0, 0.0, 0.0])
    y_world = np.array([0.0, 1.0, 0.0])
    y_axis = y_world - forward * float(y_world @ forward)
    y_axis /= np.linalg.norm(y_axis)
    rotation = np.stack([x_axis, y_axis, forward])
    f = _focal_px(profile)
    k = np.array([[f, 0, profile.width_px / 2], [0, f, profile.height_px / 2], [0, 0, 1]])
    h = k @ np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ centre])
    return h / h[2, 2]


def _project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    ones = np.ones((points.shape[0], 1))
    p = np.hstack([points, ones]) @ h.T
    return p[:, :2] / p[:, 2:3]


def _fits(profile: CameraProfile, h: np.ndarray, width_mm: float, height_mm: float) -> bool:
    corners = np.array([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]], float)
    pts = _project(h, corners)
    mx = profile.margin * profile.width_px
    my = profile.margin * profile.height_px
    return bool(
        (pts[:, 0] >= mx).all() and (pts[:, 0] <= profile.width_px - mx).all()
        and (pts[:, 1] >= my).all() and (pts[:, 1] <= profile.height_px - my).all()
    )


def fitted_distance(profile: CameraProfile, width_mm: float, height_mm: float) -> float:
    """The closest camera distance (mm, to the mat centre) that still shows the whole mat."""
    lo, hi = 50.0, 20_000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if _fits(profile, _homography_at(profile, width_mm, height_mm, mid), width_mm, height_mm):
            hi = mid
        else:
            lo = mid
    return hi


def mat_to_image(profile: CameraProfile, width_mm: float, height_mm: float) -> np.ndarray:
    """Homography from mat millimetres (x right, y towards player 1) to image pixels."""
    distance = profile.distance_mm or fitted_distance(profile, width_mm, height_mm)
    return _homography_at(profile, width_mm, height_mm, distance)


def camera_height_mm(profile: CameraProfile, width_mm: float, height_mm: float) -> float:
    distance = profile.distance_mm or fitted_distance(profile, width_mm, height_mm)
    return distance * math.cos(math.radians(profile.tilt_deg))


def project(h: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    """Apply a homography to an (n, 2) array of points."""
    return _project(h, np.asarray(points_mm, dtype=float).reshape(-1, 2))
