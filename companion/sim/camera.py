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


# ----- the physical camera (sim v2) ---------------------------------------------------------


@dataclass(frozen=True)
class Rig:
    """A real camera in mat coordinates: pinhole, barrel distortion, optionally mirrored.

    World coordinates are mat millimetres with z up from the table (x right, y towards player
    1, as the layouts use). The camera stands at `position` and looks at `target`; `roll_deg`
    turns the picture about the optical axis. `k1`, `k2` are the Brown radial distortion
    coefficients on normalised image coordinates (negative k1: barrel, as webcams and laptop
    cameras show). `mirror` flips the picture left-right, as a laptop's mirror clip does.
    """

    width_px: int
    height_px: int
    hfov_deg: float
    position: tuple[float, float, float]
    target: tuple[float, float, float]
    roll_deg: float = 0.0
    k1: float = 0.0
    k2: float = 0.0
    mirror: bool = False

    @property
    def focal_px(self) -> float:
        return (self.width_px / 2) / math.tan(math.radians(self.hfov_deg) / 2)

    @property
    def intrinsics(self) -> np.ndarray:
        f = self.focal_px
        return np.array([[f, 0, self.width_px / 2], [0, f, self.height_px / 2], [0, 0, 1.0]])

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.position, float)

    @property
    def rotation(self) -> np.ndarray:
        """Rows: the camera's right, down and forward axes in world coordinates."""
        forward = np.asarray(self.target, float) - self.centre
        forward /= np.linalg.norm(forward)
        right = np.cross(np.array([0.0, 0.0, 1.0]), forward)
        if np.linalg.norm(right) < 1e-9:  # looking straight down: right is +x
            right = np.array([1.0, 0.0, 0.0])
        right /= np.linalg.norm(right)
        down = np.cross(right, forward)
        a = math.radians(self.roll_deg)
        r2 = math.cos(a) * right + math.sin(a) * down
        d2 = -math.sin(a) * right + math.cos(a) * down
        return np.stack([r2, d2, forward])

    @property
    def tilt_deg(self) -> float:
        """Angle of the optical axis from vertical."""
        forward = self.rotation[2]
        return math.degrees(math.acos(max(-1.0, min(1.0, -float(forward[2])))))

    def ideal_pixels(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(n, 2) undistorted, unmirrored pixels of (n, 3) world points, and their depth."""
        pts = np.asarray(points, float).reshape(-1, 3)
        cam = (pts - self.centre) @ self.rotation.T
        depth = cam[:, 2]
        safe = np.where(np.abs(depth) < 1e-9, 1e-9, depth)
        f = self.focal_px
        uv = np.column_stack([cam[:, 0] / safe * f + self.width_px / 2,
                              cam[:, 1] / safe * f + self.height_px / 2])
        return uv, depth

    def distort(self, uv: np.ndarray) -> np.ndarray:
        """Ideal pixels -> pixels through the lens's radial distortion."""
        if self.k1 == 0 and self.k2 == 0:
            return np.asarray(uv, float)
        f = self.focal_px
        c = np.array([self.width_px / 2, self.height_px / 2])
        n = (np.asarray(uv, float) - c) / f
        r2 = (n ** 2).sum(axis=1, keepdims=True)
        return np.asarray(n * (1 + self.k1 * r2 + self.k2 * r2 ** 2) * f + c)

    def undistort(self, uv: np.ndarray, iterations: int = 8) -> np.ndarray:
        """Pixels -> ideal pixels (inverse of `distort`, by fixed-point iteration)."""
        if self.k1 == 0 and self.k2 == 0:
            return np.asarray(uv, float)
        f = self.focal_px
        c = np.array([self.width_px / 2, self.height_px / 2])
        d = (np.asarray(uv, float) - c) / f
        n = d.copy()
        for _ in range(iterations):
            r2 = (n ** 2).sum(axis=-1, keepdims=True)
            n = d / (1 + self.k1 * r2 + self.k2 * r2 ** 2)
        return np.asarray(n * f + c)

    def mirror_x(self, uv: np.ndarray) -> np.ndarray:
        if not self.mirror:
            return np.asarray(uv, float)
        out = np.array(uv, float, copy=True)
        out[..., 0] = (self.width_px - 1) - out[..., 0]
        return out

    def project(self, points: np.ndarray) -> np.ndarray:
        """(n, 3) world points (mat mm, z up) -> (n, 2) pixels of the picture as delivered."""
        uv, _ = self.ideal_pixels(points)
        return self.mirror_x(self.distort(uv))

    def ground_homography(self, z_mm: float = 0.0) -> np.ndarray:
        """Ideal-pixel homography of the plane at height z (mat mm -> undistorted pixels)."""
        r = self.rotation
        t = -r @ self.centre
        h = self.intrinsics @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z_mm + t])
        return np.asarray(h / h[2, 2])

    def to_ground(self, points: np.ndarray) -> np.ndarray:
        """(n, 3) world points -> (n, 2) mat points that the camera sees in the same pixel.

        Anything above the table is drawn on the table plane where its line of sight meets
        the plane: that is how the renderer gets parallax and occlusion right with one warp.
        """
        pts = np.asarray(points, float).reshape(-1, 3)
        c = self.centre
        scale = c[2] / np.maximum(c[2] - pts[:, 2], 1e-6)
        return np.asarray(c[:2] + (pts[:, :2] - c[:2]) * scale[:, None])

    def view_angle_deg(self, x_mm: float, y_mm: float) -> float:
        """Angle between the line of sight to a table point and the vertical."""
        c = self.centre
        horizontal = math.hypot(x_mm - c[0], y_mm - c[1])
        return math.degrees(math.atan2(horizontal, c[2]))

    def moved(self, dx_mm: float = 0.0, dy_mm: float = 0.0, dz_mm: float = 0.0,
              pan_deg: float = 0.0, tilt_deg: float = 0.0, roll_deg: float = 0.0) -> Rig:
        """The same camera knocked: shifted, and turned about its own centre."""
        from dataclasses import replace

        c = self.centre + np.array([dx_mm, dy_mm, dz_mm])
        r = self.rotation
        forward = r[2].copy()
        a, b = math.radians(pan_deg), math.radians(tilt_deg)
        forward = forward * math.cos(a) + r[0] * math.sin(a)
        forward = forward * math.cos(b) - r[1] * math.sin(b)
        target = c + forward * float(np.linalg.norm(np.asarray(self.target) - self.centre))
        return replace(self, position=(float(c[0]), float(c[1]), float(c[2])),
                       target=(float(target[0]), float(target[1]), float(target[2])),
                       roll_deg=self.roll_deg + roll_deg)


def turned_rig(rig: Rig, degrees: float, centre: tuple[float, float]) -> Rig:
    """The same camera carried round the table: its position and aim turned `degrees` about
    the vertical through `centre` (mat mm). 180 puts a laptop at player 1's edge at player 2's,
    looking back across the same mat."""
    from dataclasses import replace

    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)

    def turn(p: tuple[float, float, float]) -> tuple[float, float, float]:
        dx, dy = p[0] - centre[0], p[1] - centre[1]
        return (centre[0] + dx * cos - dy * sin, centre[1] + dx * sin + dy * cos, p[2])

    return replace(rig, position=turn(rig.position), target=turn(rig.target))


def overhead_rig(width_px: int, height_px: int, hfov_deg: float, height_mm: float,
                 tilt_deg: float, target: tuple[float, float], k1: float = 0.0,
                 k2: float = 0.0, mirror: bool = False, from_side: float = 1.0) -> Rig:
    """A camera `height_mm` above the table, aimed at `target` from `tilt_deg` off vertical,
    standing on player 1's side (`from_side` 1) or player 2's (-1)."""
    t = math.radians(tilt_deg)
    back = height_mm * math.tan(t) * from_side
    position = (target[0], target[1] + back, height_mm)
    return Rig(width_px, height_px, hfov_deg, position, (target[0], target[1], 0.0), 0.0, k1,
               k2, mirror)


def edge_rig(width_px: int, height_px: int, hfov_deg: float, height_mm: float,
             edge_y_mm: float, behind_mm: float, target: tuple[float, float],
             k1: float = 0.0, k2: float = 0.0, mirror: bool = False,
             aim_down_deg: float | None = None) -> Rig:
    """A camera standing `behind_mm` beyond the table edge at y = `edge_y_mm` (a laptop's).

    It looks at `target` on the table, or `aim_down_deg` below horizontal when given (a
    laptop's screen camera without a mirror looks across the table, not down onto it).
    """
    position = (target[0], edge_y_mm + behind_mm, height_mm)
    if aim_down_deg is None:
        aim = (target[0], target[1], 0.0)
    else:
        a = math.radians(aim_down_deg)
        aim = (target[0], position[1] - 1000 * math.cos(a), height_mm - 1000 * math.sin(a))
    return Rig(width_px, height_px, hfov_deg, position, aim, 0.0, k1, k2, mirror)
