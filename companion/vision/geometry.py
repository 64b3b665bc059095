"""From image pixels to mat millimetres: the homography fitted on the mat's corner markers.

Each corner marker gives four known points (its own corners), but one marker alone is a few
centimetres wide: a fit on it extrapolates its small errors across the whole mat (a held-out
test put half the cards in the wrong zone, errors up to 136 mm). So a fit needs at least
`MIN_CORNERS` (two) corner markers. Hands cover corners all the time, so the last good fit is
kept while fewer are visible, and replaced only when two or more visible corners disagree with
it by more than a few millimetres (the camera was bumped) or when more corner markers come into
view than the fit used.

The same homography, with a focal length estimated from it (or guessed from the camera
profile's field of view when the camera looks nearly straight down), gives the camera's pose:
its tilt from vertical and the pixels per sticker module in every zone (the two things that
decide whether stickers read, DESIGN.md physical limits), and the mapping of a plane above the
mat, such as the top faces of the dice 16 mm up.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import yaml

from companion import safeio
from companion.errors import CompanionError, DataFileError
from companion.vision.detect import Detection, quad_side
from companion.vision.lens import RadialLens, estimate_lens

DEFAULT_REFIT_MM = 4.0
TAP_TOLERANCE_DEG = 30.0
MICRO_QR_M2_MODULES = 13
DEFAULT_HFOV_DEG = 70.0  # typical USB webcam; used when no camera profile says otherwise
MIN_CORNERS = 2
MIN_TILT_FOR_FOCAL_DEG = 12.0  # below this the homography says little about the focal length


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


def below(x_mm: float, y_mm: float, angle_deg: float, distance_mm: float
          ) -> tuple[float, float]:
    """The point `distance_mm` below (x, y) in the frame of a marker there whose top edge is
    turned `angle_deg` on the mat (mat y grows downwards: an upright marker's up is -y)."""
    a = math.radians(angle_deg)
    return x_mm - distance_mm * math.sin(a), y_mm + distance_mm * math.cos(a)


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


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N x 2) through a 3 x 3 homography."""
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
        lens: RadialLens | None = None,
        lens_homography: np.ndarray | None = None,
    ) -> None:
        self.layout = layout
        self.homography = homography  # image px -> mat mm (a plain homography: the warps')
        # the lens's bend, when the corner markers show one (`companion.vision.lens`), and the
        # homography of the undistorted pixels: what places things on the mat (`to_mat`)
        self.lens = lens if lens_homography is not None else None
        self.lens_homography = lens_homography
        self.markers_used = markers_used
        self.marker_ids: frozenset[int] = frozenset()  # the corner markers the fit stands on
        self.refit_mm = refit_mm
        self.refits = 0
        self.camera_moved = False  # the last re-fit was the camera moving, not more corners

    # --- fitting ---------------------------------------------------------------------------

    @staticmethod
    def _pairs(
        detections: Iterable[Detection], layout: LayoutLike
    ) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
        """Image and mat points (four per marker) of this mat's corner markers, and their
        ids in the same order. An id read in two places (a misread marker) is no evidence of
        where that corner is: both are left out."""
        specs = {int(c.marker_id): c for c in layout.corners}
        found: dict[int, list[np.ndarray]] = {}
        for det in detections:
            if det.marker_id is None or det.marker_id not in specs:
                continue
            quad = np.asarray(det.corners, dtype=np.float64).reshape(4, 2)
            same = found.setdefault(det.marker_id, [])
            if not any(np.linalg.norm(q.mean(axis=0) - quad.mean(axis=0)) < 0.5 * quad_side(q)
                       for q in same):
                same.append(quad)
        usable = {m: quads[0] for m, quads in found.items() if len(quads) == 1}
        if not usable:
            return np.empty((0, 2)), np.empty((0, 2)), ()
        ids = tuple(sorted(usable))
        image_pts = [usable[m] for m in ids]
        mat_pts = [corner_marker_points(specs[m]) for m in ids]
        return np.vstack(image_pts), np.vstack(mat_pts), ids

    @classmethod
    def fit(
        cls,
        corner_detections: Iterable[Detection],
        layout: LayoutLike,
        refit_mm: float = DEFAULT_REFIT_MM,
        image_size: tuple[int, int] | None = None,
    ) -> MatGeometry:
        """Fit on the visible corner markers of `layout` (others are ignored); with the
        picture's `image_size` (width, height), also the lens's bend when all four show it."""
        image_pts, mat_pts, used = cls._pairs(corner_detections, layout)
        count = len(used)
        ids = ", ".join(str(c.marker_id) for c in layout.corners)
        if count == 0:
            raise GeometryError(f"no mat corner marker visible (this mat's ids: {ids})")
        if count < MIN_CORNERS:
            raise GeometryError(
                f"only one mat corner marker visible (this mat's ids: {ids}): the mat is "
                f"located from at least {MIN_CORNERS}, since one marker alone misplaces cards "
                "far from it"
            )
        geometry = cls(layout, _checked_homography(image_pts, mat_pts), count, refit_mm)
        geometry.marker_ids = frozenset(used)
        geometry._fit_lens(image_pts, mat_pts, image_size)
        return geometry

    def _fit_lens(self, image_pts: np.ndarray, mat_pts: np.ndarray,
                  image_size: tuple[int, int] | None) -> None:
        self.lens = self.lens_homography = None
        if image_size is None:
            return
        lens = estimate_lens(image_pts, mat_pts, self.markers_used, image_size)
        if lens is not None:
            self.lens, self.lens_homography = lens, _homography(lens.undistort(image_pts),
                                                                mat_pts)

    def disagreement_mm(self, detections: Iterable[Detection]) -> float | None:
        """Mean distance in mm between visible corner markers and where the fit puts them."""
        image_pts, mat_pts, ids = self._pairs(detections, self.layout)
        if not ids:
            return None
        error = np.linalg.norm(self.to_mat_true(image_pts) - mat_pts, axis=1)
        return float(error.mean())

    def update(self, detections: Sequence[Detection],
               image_size: tuple[int, int] | None = None) -> bool:
        """Follow the camera from one frame's detections; True when the fit was replaced.

        Hidden corners keep the last fit; with at least `MIN_CORNERS` visible, a disagreement
        over `refit_mm` (bumped camera) or more visible corner markers than the fit used
        triggers a re-fit. A single visible corner never moves the fit. `camera_moved` says
        whether the corners the old fit stood on disagreed with it: corners newly in view lie
        where a fit on fewer markers only extrapolated (30-40 mm off at a laptop's near edge),
        which is no sign of the camera moving.
        """
        image_pts, mat_pts, ids = self._pairs(detections, self.layout)
        count = len(ids)
        if count < MIN_CORNERS:
            return False
        per_point = np.linalg.norm(self.to_mat_true(image_pts) - mat_pts, axis=1)
        error = float(per_point.mean())
        if error <= self.refit_mm and count <= self.markers_used:
            return False
        known = np.repeat([m in self.marker_ids for m in ids], 4)
        moved = float(per_point[known].mean()) if known.any() else error
        try:
            self.homography = _checked_homography(image_pts, mat_pts)
        except GeometryError:
            return False  # the visible corners contradict each other: keep the last fit
        self.markers_used = count
        self.marker_ids = frozenset(ids)
        self._fit_lens(image_pts, mat_pts, image_size)
        self.refits += 1
        self.camera_moved = moved > self.refit_mm
        return True

    # --- mapping ---------------------------------------------------------------------------

    def to_mat(self, points_px: np.ndarray) -> np.ndarray:
        """Image pixels (N x 2) -> mat millimetres (N x 2) by the plain homography: the frame
        the readers' searches and warps share (`homography`)."""
        return apply_homography(self.homography, points_px)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Mat millimetres (N x 2) -> image pixels (N x 2) by the plain homography."""
        return apply_homography(np.linalg.inv(self.homography), points_mm)

    def to_mat_true(self, points_px: np.ndarray) -> np.ndarray:
        """Image pixels (N x 2) -> mat millimetres (N x 2) through the lens when its bend is
        known: where things really lie (`place`). Only placing goes through it: the readers
        mix `to_mat` with the plain homography's own numbers (a sticker's expected size), and
        on the bench the lens there lost a third of the stickers read."""
        if self.lens is not None and self.lens_homography is not None:
            return apply_homography(self.lens_homography, self.lens.undistort(points_px))
        return self.to_mat(points_px)

    def place(self, detection: Detection, below_mm: float = 0.0) -> Placement:
        """Centre, rotation and zone of a detected marker on the mat; with `below_mm`, of the
        point that far below the marker's centre in its own frame (a card's centre, seen
        from one of its twin stickers: `companion.vision.twin_stickers`)."""
        mat = self.to_mat_true(detection.corners)
        centre = mat.mean(axis=0)
        top = (mat[1] - mat[0]) + (mat[2] - mat[3])
        angle = math.degrees(math.atan2(top[1], top[0])) % 360.0
        x, y = below(float(centre[0]), float(centre[1]), angle, below_mm)
        return Placement(x, y, angle, _zone_id(self.layout.zone_at(x, y)))

    # --- camera quality --------------------------------------------------------------------

    def px_per_mm(self, x_mm: float, y_mm: float) -> float:
        """Pixels per mat millimetre at a point, in the most foreshortened direction."""
        mat_to_image = np.linalg.inv(self.homography)
        step = 0.5
        pts = np.array(
            [[x_mm, y_mm], [x_mm + step, y_mm], [x_mm, y_mm + step]], dtype=np.float64
        )
        img = apply_homography(mat_to_image, pts)
        jacobian = np.column_stack([(img[1] - img[0]) / step, (img[2] - img[0]) / step])
        return float(np.linalg.svd(jacobian, compute_uv=False).min())

    def px_per_module(
        self, x_mm: float, y_mm: float, sticker_mm: float, modules: int = MICRO_QR_M2_MODULES
    ) -> float:
        """Expected pixels per module of a sticker whose symbol is `sticker_mm` wide."""
        return self.px_per_mm(x_mm, y_mm) * sticker_mm / modules

    def tilt_deg(self, image_size: tuple[int, int], camera: CameraProfile | None = None) -> float:
        """Angle between the camera's optical axis and the mat's normal (0 = straight down).

        Decomposes mat -> image = K [r1 r2 t]; K from `camera` when given, else estimated
        (see `pose`).
        """
        return self.pose(image_size, camera).tilt_deg

    def pose(self, image_size: tuple[int, int], camera: CameraProfile | None = None
             ) -> CameraPose:
        """The camera's pose over the mat. With `camera` its field of view gives the focal
        length; without, the focal length is estimated from the homography itself when the
        camera is tilted enough for that to be well-conditioned, else the default profile's."""
        width = image_size[0]
        mat_to_image = np.linalg.inv(self.homography)
        estimated = False
        if camera is not None:
            focal = camera.focal_px(width)
        else:
            guess = estimate_focal_px(mat_to_image, image_size)
            fallback = default_camera_profile().focal_px(width)
            if guess is not None:
                trial = _decompose(mat_to_image, guess, image_size)
                estimated = trial.tilt_deg >= MIN_TILT_FOR_FOCAL_DEG
            focal = guess if estimated and guess is not None else fallback
        pose = _decompose(mat_to_image, focal, image_size)
        return replace(pose, focal_estimated=estimated)

    def plane_homography(self, height_mm: float, image_size: tuple[int, int],
                         camera: CameraProfile | None = None) -> np.ndarray:
        """Image px -> mat mm of the plane `height_mm` above the mat (e.g. dice tops)."""
        return self.pose(image_size, camera).plane_homography(
            np.linalg.inv(self.homography), height_mm)

    def orientation(self) -> str:
        """"upright" when the mat's x axis runs left to right in the picture, else
        "upside-down" (the camera stands on player 2's side, or the picture is turned)."""
        centre = np.array([[300.0, 200.0], [310.0, 200.0]])
        img = self.to_image(centre)
        return "upright" if img[1, 0] >= img[0, 0] else "upside-down"


@dataclass(frozen=True)
class CameraPose:
    """Where the camera is over the mat, from the homography and a focal length.

    `rotation` holds the mat's axes in camera coordinates (columns), `centre_mm` the camera's
    position in mat coordinates, its third value the height above the mat (positive), and
    `up` the sign of the mat's z axis towards the camera.
    """

    focal_px: float
    k: np.ndarray
    rotation: np.ndarray
    scale: float  # mat_to_image = scale * K [r1 r2 t]
    up: float
    centre_mm: np.ndarray
    tilt_deg: float
    focal_estimated: bool = False

    def plane_homography(self, mat_to_image: np.ndarray, height_mm: float) -> np.ndarray:
        """Image px -> mat mm of the plane `height_mm` above the mat."""
        r3 = self.rotation[:, 2]
        lifted = np.array(mat_to_image, dtype=np.float64, copy=True)
        lifted[:, 2] += self.scale * self.up * height_mm * (self.k @ r3)
        return np.asarray(np.linalg.inv(lifted))

    def towards_camera(self, x_mm: float, y_mm: float) -> np.ndarray:
        """Unit vector on the mat from (x, y) towards the point below the camera."""
        d = self.centre_mm[:2] - np.array([x_mm, y_mm])
        n = float(np.linalg.norm(d))
        return np.array([0.0, 0.0]) if n < 1e-9 else d / n

    def view_angle_deg(self, x_mm: float, y_mm: float) -> float:
        """Angle from vertical of the line of sight to the mat point (x, y)."""
        d = float(np.linalg.norm(self.centre_mm[:2] - np.array([x_mm, y_mm])))
        return math.degrees(math.atan2(d, float(self.centre_mm[2])))


def _decompose(mat_to_image: np.ndarray, focal: float, image_size: tuple[int, int]
               ) -> CameraPose:
    width, height = image_size
    k = np.array([[focal, 0, width / 2.0], [0, focal, height / 2.0], [0, 0, 1.0]])
    m = np.linalg.inv(k) @ mat_to_image
    lam = 2.0 / float(np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = lam * m[:, 0], lam * m[:, 1], lam * m[:, 2]
    if t[2] < 0:  # the mat lies in front of the camera
        r1, r2, t, lam = -r1, -r2, -t, -lam
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rotation = u @ vt
    centre = -rotation.T @ t
    up = 1.0 if centre[2] >= 0 else -1.0
    normal = rotation[:, 2]
    tilt = math.degrees(math.acos(min(1.0, abs(float(normal[2])))))
    centre_mm = np.array([centre[0], centre[1], abs(centre[2])])
    return CameraPose(focal, k, rotation, 1.0 / lam, up, centre_mm, tilt)


def estimate_focal_px(mat_to_image: np.ndarray, image_size: tuple[int, int]) -> float | None:
    """Focal length (px) from one plane's homography, principal point at the image centre.

    The columns h1, h2 of K^-1 H are a rotation's first two columns scaled alike: orthogonal
    and of equal length. Both constraints are linear in 1/f^2 (Zhang's calibration with one
    view); None when they do not give a sensible lens (camera nearly straight down).
    """
    width, height = image_size
    shift = np.array([[1.0, 0, -width / 2.0], [0, 1.0, -height / 2.0], [0, 0, 1.0]])
    g = shift @ mat_to_image
    g = g / np.linalg.norm(g[:, :2])
    h1, h2 = g[:, 0], g[:, 1]
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    if float(a @ a) < 1e-18:
        return None
    inv_f2 = -float(a @ b) / float(a @ a)
    if inv_f2 <= 0:
        return None
    focal = 1.0 / math.sqrt(inv_f2)
    hfov = 2 * math.degrees(math.atan(width / 2.0 / focal))
    return focal if 20.0 <= hfov <= 140.0 else None


MAX_FIT_ERROR_MM = 8.0  # barrel distortion of a wide laptop lens alone leaves up to ~4 mm


def _checked_homography(image_pts: np.ndarray, mat_pts: np.ndarray) -> np.ndarray:
    """The fit, unless the corner markers disagree with it by more than a few millimetres
    (one of them misread as another corner's id; a swap puts them centimetres apart): no mat
    is better than a wrong one."""
    h = _homography(image_pts, mat_pts)
    error = float(np.linalg.norm(apply_homography(h, image_pts) - mat_pts, axis=1).max())
    if error > MAX_FIT_ERROR_MM:
        raise GeometryError(
            f"the mat's corner markers disagree by {error:.0f} mm (a misread marker?)")
    return h


def _homography(image_pts: np.ndarray, mat_pts: np.ndarray) -> np.ndarray:
    h, _ = cv2.findHomography(image_pts, mat_pts, 0)
    if h is None:
        raise GeometryError("corner markers are degenerate (all on one line?)")
    return np.asarray(h, dtype=np.float64)
