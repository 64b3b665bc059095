"""From image pixels to mat millimetres: the homography fitted on the mat's corner markers.

Each corner marker gives four known points (its own corners), so even one visible marker
determines a fit; two or more make it well-conditioned across the whole mat. Hands cover
corners all the time, so the last good fit is kept while corners are hidden, and replaced only
when visible corners disagree with it by more than a few millimetres (the camera was bumped)
or when more corner markers come into view than the fit used.

The same homography, with a guessed focal length (from the camera profile's field of view),
gives the camera's tilt from vertical and the pixels per sticker module in every zone: the
two things that decide whether stickers read (DESIGN.md, physical limits).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import yaml

from companion import safeio
from companion.errors import CompanionError, DataFileError
from companion.vision.detect import Detection

DEFAULT_REFIT_MM = 4.0
TAP_TOLERANCE_DEG = 30.0
MICRO_QR_M2_MODULES = 13
DEFAULT_HFOV_DEG = 70.0  # typical USB webcam; used when no camera profile says otherwise


class GeometryError(CompanionError):
    """The mat cannot be located (no corner marker of this game's mat is visible)."""


class CornerSpec(Protocol):
    """A corner marker as the mat layout describes it (centre and side in mat mm)."""

    marker_id: int
    x_mm: float
    y_mm: float
    size_mm: float


class LayoutLike(Protocol):
    """What geometry needs from `companion.layouts.MatLayout`."""

    @property
    def corners(self) -> Sequence[Any]: ...

    def zone_at(self, x: float, y: float) -> Any: ...


@dataclass(frozen=True)
class CameraProfile:
    """A camera's field of view, from `calibration/cameras/<name>.yaml` (or the default)."""

    name: str = "default"
    hfov_deg: float = DEFAULT_HFOV_DEG
    resolution: tuple[int, int] = (1920, 1080)

    def focal_px(self, image_width: int) -> float:
        return (image_width / 2.0) / math.tan(math.radians(self.hfov_deg) / 2.0)


def load_camera_profile(path: Path) -> CameraProfile:
    """Read a camera profile YAML: `name`, `hfov_deg`, optional `resolution: [w, h]`."""
    try:
        data = safeio.safe_load(safeio.read_text(path))
    except (safeio.UnsafeInputError, yaml.YAMLError) as exc:
        raise DataFileError(path, f"cannot read camera profile: {exc}") from exc
    if not isinstance(data, dict):
        raise DataFileError(path, "a camera profile is a mapping with hfov_deg")
    hfov = data.get("hfov_deg")
    if not isinstance(hfov, int | float) or not 10 <= hfov <= 170:
        raise DataFileError(path, f"hfov_deg must be a number of degrees 10-170, not {hfov!r}")
    resolution = data.get("resolution", [1920, 1080])
    if (
        not isinstance(resolution, list)
        or len(resolution) != 2
        or not all(isinstance(v, int) and v > 0 for v in resolution)
    ):
        raise DataFileError(path, f"resolution must be [width, height], not {resolution!r}")
    return CameraProfile(str(data.get("name", path.stem)), float(hfov), (resolution[0],
                                                                       resolution[1]))


def default_camera_profile() -> CameraProfile:
    """The first profile in calibration/cameras/, or the built-in webcam guess."""
    from companion.paths import calibration_dir

    try:
        folder = calibration_dir() / "cameras"
    except FileNotFoundError:
        return CameraProfile()
    profiles = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    return load_camera_profile(profiles[0]) if profiles else CameraProfile()


@dataclass(frozen=True)
class Placement:
    """Where a marker lies on the mat: centre in mm, rotation, zone, tapped."""

    x_mm: float
    y_mm: float
    angle_deg: float  # of the marker's top edge in mat coordinates, 0..360
    zone: str | None

    @property
    def tapped(self) -> bool:
        """Turned sideways: the marker's top edge near 90 or 270 degrees."""
        off = min(abs(self.angle_deg - a) for a in (90.0, 270.0))
        return off <= TAP_TOLERANCE_DEG


def corner_marker_points(corner: CornerSpec) -> np.ndarray:
    """The 4 mat-mm corners of a corner marker, in its printed order (TL, TR, BR, BL).

    Corner markers are printed upright on the mat, centred on (x_mm, y_mm).
    """
    half = corner.size_mm / 2.0
    x, y = corner.x_mm, corner.y_mm
    return np.array(
        [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]],
        dtype=np.float64,
    )


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(pts, h).reshape(-1, 2))


def _zone_id(zone: Any) -> str | None:
    if zone is None or isinstance(zone, str):
        return zone
    return str(getattr(zone, "id", zone))


class MatGeometry:
    """The current image -> mat mm mapping for one game's mat, kept across frames."""

    def __init__(
        self,
        layout: LayoutLike,
        homography: np.ndarray,
        markers_used: int,
        refit_mm: float = DEFAULT_REFIT_MM,
    ) -> None:
        self.layout = layout
        self.homography = homography  # image px -> mat mm
        self.markers_used = markers_used
        self.refit_mm = refit_mm
        self.refits = 0

    # --- fitting ---------------------------------------------------------------------------

    @staticmethod
    def _pairs(
        detections: Iterable[Detection], layout: LayoutLike
    ) -> tuple[np.ndarray, np.ndarray, int]:
        specs = {int(c.marker_id): c for c in layout.corners}
        image_pts: list[np.ndarray] = []
        mat_pts: list[np.ndarray] = []
        seen: set[int] = set()
        for det in detections:
            if det.marker_id is None or det.marker_id not in specs or det.marker_id in seen:
                continue
            seen.add(det.marker_id)
            image_pts.append(np.asarray(det.corners, dtype=np.float64).reshape(4, 2))
            mat_pts.append(corner_marker_points(specs[det.marker_id]))
        if not seen:
            return np.empty((0, 2)), np.empty((0, 2)), 0
        return np.vstack(image_pts), np.vstack(mat_pts), len(seen)

    @classmethod
    def fit(
        cls,
        corner_detections: Iterable[Detection],
        layout: LayoutLike,
        refit_mm: float = DEFAULT_REFIT_MM,
    ) -> MatGeometry:
        """Fit on the visible corner markers of `layout` (others are ignored)."""
        image_pts, mat_pts, count = cls._pairs(corner_detections, layout)
        if count == 0:
            ids = ", ".join(str(c.marker_id) for c in layout.corners)
            raise GeometryError(f"no mat corner marker visible (this mat's ids: {ids})")
        return cls(layout, _homography(image_pts, mat_pts), count, refit_mm)

    def disagreement_mm(self, detections: Iterable[Detection]) -> float | None:
        """Mean distance in mm between visible corner markers and where the fit puts them."""
        image_pts, mat_pts, count = self._pairs(detections, self.layout)
        if count == 0:
            return None
        error = np.linalg.norm(_apply(self.homography, image_pts) - mat_pts, axis=1)
        return float(error.mean())

    def update(self, detections: Sequence[Detection]) -> bool:
        """Follow the camera from one frame's detections; True when the fit was replaced.

        Hidden corners keep the last fit; a disagreement over `refit_mm` (bumped camera) or
        more visible corner markers than the fit used triggers a re-fit.
        """
        image_pts, mat_pts, count = self._pairs(detections, self.layout)
        if count == 0:
            return False
        error = float(
            np.linalg.norm(_apply(self.homography, image_pts) - mat_pts, axis=1).mean()
        )
        if error <= self.refit_mm and count <= self.markers_used:
            return False
        if error <= self.refit_mm and count < 2:
            return False
        self.homography = _homography(image_pts, mat_pts)
        self.markers_used = count
        self.refits += 1
        return True

    # --- mapping ---------------------------------------------------------------------------

    def to_mat(self, points_px: np.ndarray) -> np.ndarray:
        """Image pixels (N x 2) -> mat millimetres (N x 2)."""
        return _apply(self.homography, points_px)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Mat millimetres (N x 2) -> image pixels (N x 2)."""
        return _apply(np.linalg.inv(self.homography), points_mm)

    def place(self, detection: Detection) -> Placement:
        """Centre, rotation and zone of a detected marker on the mat."""
        mat = self.to_mat(detection.corners)
        centre = mat.mean(axis=0)
        top = (mat[1] - mat[0]) + (mat[2] - mat[3])
        angle = math.degrees(math.atan2(top[1], top[0])) % 360.0
        x, y = float(centre[0]), float(centre[1])
        return Placement(x, y, angle, _zone_id(self.layout.zone_at(x, y)))

    # --- camera quality --------------------------------------------------------------------

    def px_per_mm(self, x_mm: float, y_mm: float) -> float:
        """Pixels per mat millimetre at a point, in the most foreshortened direction."""
        mat_to_image = np.linalg.inv(self.homography)
        step = 0.5
        pts = np.array(
            [[x_mm, y_mm], [x_mm + step, y_mm], [x_mm, y_mm + step]], dtype=np.float64
        )
        img = _apply(mat_to_image, pts)
        jacobian = np.column_stack([(img[1] - img[0]) / step, (img[2] - img[0]) / step])
        return float(np.linalg.svd(jacobian, compute_uv=False).min())

    def px_per_module(
        self, x_mm: float, y_mm: float, sticker_mm: float, modules: int = MICRO_QR_M2_MODULES
    ) -> float:
        """Expected pixels per module of a sticker whose symbol is `sticker_mm` wide."""
        return self.px_per_mm(x_mm, y_mm) * sticker_mm / modules

    def tilt_deg(self, image_size: tuple[int, int], camera: CameraProfile | None = None) -> float:
        """Angle between the camera's optical axis and the mat's normal (0 = straight down).

        Decomposes mat -> image = K [r1 r2 t] with K guessed from the field of view.
        """
        camera = camera or default_camera_profile()
        width, height = image_size
        focal = camera.focal_px(width)
        k = np.array([[focal, 0, width / 2.0], [0, focal, height / 2.0], [0, 0, 1.0]])
        mat_to_image = np.linalg.inv(self.homography)
        m = np.linalg.inv(k) @ mat_to_image
        r1, r2 = m[:, 0], m[:, 1]
        r1 = r1 / np.linalg.norm(r1)
        r2 = r2 / np.linalg.norm(r2)
        normal = np.cross(r1, r2)
        normal /= np.linalg.norm(normal)
        return float(math.degrees(math.acos(min(1.0, abs(float(normal[2]))))))


def _homography(image_pts: np.ndarray, mat_pts: np.ndarray) -> np.ndarray:
    h, _ = cv2.findHomography(image_pts, mat_pts, 0)
    if h is None:
        raise GeometryError("corner markers are degenerate (all on one line?)")
    return np.asarray(h, dtype=np.float64)
