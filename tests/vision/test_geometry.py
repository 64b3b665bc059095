"""Mat geometry: homography fit on corner markers, keeping it through occlusion, re-fitting a
bumped camera, placing markers in zones, tilt and pixels-per-module estimates."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import DataFileError
from companion.vision.detect import Detection
from companion.vision.geometry import (
    CameraProfile,
    GeometryError,
    MatGeometry,
    corner_marker_points,
    load_camera_profile,
)

MAT_W, MAT_H = 600.0, 400.0
CAMERA = CameraProfile("test", hfov_deg=70.0, resolution=(1920, 1080))


@dataclass(frozen=True)
class FakeCorner:
    marker_id: int
    x_mm: float
    y_mm: float
    size_mm: float


@dataclass(frozen=True)
class FakeLayout:
    corners: tuple[FakeCorner, ...] = (
        FakeCorner(232, 25, 25, 40),
        FakeCorner(233, 575, 25, 40),
        FakeCorner(234, 575, 375, 40),
        FakeCorner(235, 25, 375, 40),
    )

    def zone_at(self, x: float, y: float) -> str | None:
        if not (0 <= x < MAT_W and 0 <= y < MAT_H):
            return None
        return ("p2" if y < MAT_H / 2 else "p1") + (".left" if x < MAT_W / 2 else ".right")


LAYOUT = FakeLayout()


def camera_homography(tilt_deg: float, yaw_deg: float = 0.0, dist_mm: float = 700.0,
                      size: tuple[int, int] = (1920, 1080)) -> np.ndarray:
    """Mat mm -> image px for a pinhole camera `tilt_deg` from vertical, aimed at mat centre.

    Mat frame: x right, y towards p1, z into the table (right-handed); a camera looking
    straight down has the identity rotation.
    """
    w, h = size
    f = CAMERA.focal_px(w)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    t, y = math.radians(tilt_deg), math.radians(yaw_deg)
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    r = rx @ rz
    centre = np.array([MAT_W / 2, MAT_H / 2, 0.0])
    trans = np.array([0, 0, dist_mm]) - r @ centre
    return k @ np.column_stack([r[:, 0], r[:, 1], trans])


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, float).reshape(-1, 1, 2), h).reshape(-1, 2)


def corner_detections(h: np.ndarray, ids: tuple[int, ...] = (232, 233, 234, 235),
                      noise_px: float = 0.0, seed: int = 0) -> list[Detection]:
    rng = np.random.default_rng(seed)
    out = []
    for corner in LAYOUT.corners:
        if corner.marker_id not in ids:
            continue
        quad = project(h, corner_marker_points(corner)) + rng.normal(0, noise_px, (4, 2))
        out.append(Detection("aruco", f"aruco:{corner.marker_id}", quad, 1.0, "aruco",
                             marker_id=corner.marker_id))
    return out


def sticker(h: np.ndarray, x: float, y: float, angle_deg: float, side: float = 25) -> Detection:
    a = math.radians(angle_deg)
    along = np.array([math.cos(a), math.sin(a)]) * side / 2
    down = np.array([-math.sin(a), math.cos(a)]) * side / 2
    c = np.array([x, y])
    quad_mm = np.array([c - along - down, c + along - down, c + along + down, c - along + down])
    return Detection("front", "10001011", project(h, quad_mm), 1.0, "zxing")


@settings(max_examples=25, deadline=None)
@given(
    tilt=st.floats(0, 40), yaw=st.floats(-20, 20), dist=st.floats(550, 900),
    seed=st.integers(0, 1000),
)
def test_round_trip_within_half_a_millimetre(tilt: float, yaw: float, dist: float,
                                             seed: int) -> None:
    h = camera_homography(tilt, yaw, dist)
    geometry = MatGeometry.fit(corner_detections(h, noise_px=0.3, seed=seed), LAYOUT)
    rng = np.random.default_rng(seed)
    mat_pts = rng.uniform([0, 0], [MAT_W, MAT_H], (50, 2))
    back = geometry.to_mat(project(h, mat_pts))
    assert np.abs(back - mat_pts).max() < 0.5
    assert np.abs(geometry.to_image(mat_pts) - project(h, mat_pts)).max() < 1.5


def test_one_marker_is_never_enough_for_a_fit() -> None:
    """One 40 mm marker extrapolated across a 600 mm mat misplaces cards (issue 10)."""
    h = camera_homography(15)
    with pytest.raises(GeometryError, match="only one"):
        MatGeometry.fit(corner_detections(h, ids=(232,)), LAYOUT)
    geometry = MatGeometry.fit(corner_detections(h, ids=(232, 234)), LAYOUT)
    assert geometry.markers_used == 2
    pts = np.array([[100.0, 100.0], [500.0, 300.0]])
    assert np.abs(geometry.to_mat(project(h, pts)) - pts).max() < 0.5


def test_a_single_corner_never_moves_the_fit_even_when_it_disagrees() -> None:
    geometry = MatGeometry.fit(corner_detections(camera_homography(10)), LAYOUT)
    before = geometry.homography.copy()
    bumped = camera_homography(14, yaw_deg=3, dist_mm=720)
    lone = corner_detections(bumped, ids=(233,))
    assert geometry.disagreement_mm(lone) > 5
    assert geometry.update(lone) is False
    assert np.array_equal(geometry.homography, before)


def test_no_corner_marker_is_an_error() -> None:
    strangers = [Detection("aruco", "aruco:3", np.eye(4, 2) * 10, 1.0, "aruco", marker_id=3)]
    with pytest.raises(GeometryError, match="232, 233, 234, 235"):
        MatGeometry.fit(strangers, LAYOUT)


def test_covered_corners_keep_the_last_fit() -> None:
    h = camera_homography(10)
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    before = geometry.homography.copy()
    assert geometry.update([]) is False
    assert geometry.update(corner_detections(h, ids=(234,), noise_px=0.3)) is False
    assert np.array_equal(geometry.homography, before)
    assert geometry.disagreement_mm(corner_detections(h, ids=(233,))) == pytest.approx(0, abs=0.1)


def test_bumped_camera_refits() -> None:
    geometry = MatGeometry.fit(corner_detections(camera_homography(10)), LAYOUT)
    bumped = camera_homography(14, yaw_deg=3, dist_mm=720)
    visible = corner_detections(bumped, ids=(232, 234))
    assert geometry.disagreement_mm(visible) > 5
    assert geometry.update(visible) is True
    assert geometry.refits == 1
    pts = np.array([[300.0, 200.0], [50.0, 350.0], [580.0, 60.0]])
    assert np.abs(geometry.to_mat(project(bumped, pts)) - pts).max() < 0.5
    assert geometry.update(visible) is False  # settled


def test_more_corners_in_view_improve_a_two_marker_fit() -> None:
    h = camera_homography(20)
    geometry = MatGeometry.fit(corner_detections(h, ids=(232, 233), noise_px=0.4), LAYOUT)
    assert geometry.update(corner_detections(h, noise_px=0.4, seed=1)) is True
    assert geometry.markers_used == 4


@pytest.mark.parametrize(
    ("angle", "tapped"), [(0, False), (8, False), (90, True), (180, False), (265, True)]
)
def test_place_gives_position_angle_zone_and_tapped(angle: float, tapped: bool) -> None:
    h = camera_homography(20, yaw_deg=7)
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    placement = geometry.place(sticker(h, 420, 310, angle))
    assert placement.x_mm == pytest.approx(420, abs=0.5)
    assert placement.y_mm == pytest.approx(310, abs=0.5)
    assert abs((placement.angle_deg - angle + 180) % 360 - 180) < 1
    assert placement.zone == "p1.right"
    assert placement.tapped is tapped
    assert geometry.place(sticker(h, 100, 90, 0)).zone == "p2.left"


@pytest.mark.parametrize("tilt", [0.0, 12.0, 25.0, 40.0])
def test_tilt_estimate(tilt: float) -> None:
    h = camera_homography(tilt, yaw_deg=5)
    geometry = MatGeometry.fit(corner_detections(h, noise_px=0.2), LAYOUT)
    assert geometry.tilt_deg((1920, 1080), CAMERA) == pytest.approx(tilt, abs=1.5)


def test_pixels_per_module_straight_down() -> None:
    h = np.diag([3.0, 3.0, 1.0])  # 3 px per mm, no perspective
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    assert geometry.px_per_mm(300, 200) == pytest.approx(3.0, rel=1e-3)
    assert geometry.px_per_module(300, 200, sticker_mm=26) == pytest.approx(6.0, rel=1e-3)


def test_pixels_per_module_shrink_away_from_a_tilted_camera() -> None:
    h = camera_homography(35)
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    near, far = geometry.px_per_mm(300, 390), geometry.px_per_mm(300, 10)
    assert max(near, far) / min(near, far) > 1.1


def test_camera_profile_files(tmp_path: Path) -> None:
    good = tmp_path / "cam.yaml"
    good.write_text("name: desk\nhfov_deg: 78\nresolution: [1280, 720]\n")
    profile = load_camera_profile(good)
    assert profile == CameraProfile("desk", 78.0, (1280, 720))
    assert profile.focal_px(1280) == pytest.approx(640 / math.tan(math.radians(39)))
    bad = tmp_path / "bad.yaml"
    bad.write_text("hfov_deg: wide\n")
    with pytest.raises(DataFileError, match="hfov_deg"):
        load_camera_profile(bad)
    bad.write_text("hfov_deg: 60\nresolution: 1080p\n")
    with pytest.raises(DataFileError, match="resolution"):
        load_camera_profile(bad)


def camera_matrix(tilt_deg: float, yaw_deg: float, dist_mm: float,
                  size: tuple[int, int] = (1920, 1080)) -> np.ndarray:
    """The full 3x4 projection of `camera_homography` (mat z points into the table)."""
    h = camera_homography(tilt_deg, yaw_deg, dist_mm, size)
    w = size[0]
    f = CAMERA.focal_px(w)
    k = np.array([[f, 0, w / 2], [0, f, size[1] / 2], [0, 0, 1]])
    r12t = np.linalg.inv(k) @ h
    r3 = np.cross(r12t[:, 0], r12t[:, 1])
    return k @ np.column_stack([r12t[:, 0], r12t[:, 1], r3, r12t[:, 2]])


@settings(max_examples=20, deadline=None)
@given(tilt=st.floats(15, 55), yaw=st.floats(-30, 30), dist=st.floats(450, 900),
       seed=st.integers(0, 1000))
def test_focal_length_and_plane_above_the_mat_from_the_corners_alone(
        tilt: float, yaw: float, dist: float, seed: int) -> None:
    """A point 16 mm above the mat (a die's top face) maps back to within 1 mm of its place,
    with no camera profile given: the focal length comes from the homography."""
    h = camera_homography(tilt, yaw, dist)
    geometry = MatGeometry.fit(corner_detections(h, noise_px=0.3, seed=seed), LAYOUT)
    pose = geometry.pose((1920, 1080))
    assert pose.focal_estimated
    assert pose.focal_px == pytest.approx(CAMERA.focal_px(1920), rel=0.03)
    assert pose.tilt_deg == pytest.approx(tilt, abs=1.0)
    rng = np.random.default_rng(seed)
    pts = rng.uniform([50, 50], [550, 350], (20, 2))
    p = camera_matrix(tilt, yaw, dist)
    lifted = np.column_stack([pts, np.full(20, -16.0), np.ones(20)]) @ p.T  # z into the table
    image = lifted[:, :2] / lifted[:, 2:]
    on_plane = project(geometry.plane_homography(16.0, (1920, 1080)), image)
    assert np.abs(on_plane - pts).max() < 1.0
    flat = geometry.to_mat(image)  # the same pixels read on the mat are off by the parallax
    assert np.abs(flat - pts).max() > 3.0


def test_a_camera_straight_down_keeps_the_profile_focal_length() -> None:
    geometry = MatGeometry.fit(corner_detections(camera_homography(2, 0, 650)), LAYOUT)
    pose = geometry.pose((1920, 1080))
    assert not pose.focal_estimated
    assert pose.centre_mm[2] == pytest.approx(650, rel=0.05)


def test_orientation_of_the_picture() -> None:
    h = camera_homography(10)
    assert MatGeometry.fit(corner_detections(h), LAYOUT).orientation() == "upright"
    turn = np.array([[-1.0, 0, 1920], [0, -1.0, 1080], [0, 0, 1]])  # the picture turned 180
    upside = MatGeometry.fit(corner_detections(turn @ h), LAYOUT)
    assert upside.orientation() == "upside-down"


def test_a_misread_corner_never_bends_the_mat() -> None:
    """A corner marker read twice (one of them a misread) says nothing; markers that
    contradict each other (a corner read as another corner's id) give no fit at all."""
    h = camera_homography(15)
    good = corner_detections(h)
    twin = Detection("aruco", "aruco:233", good[0].corners + 300.0, 1.0, "aruco",
                     marker_id=233)
    geometry = MatGeometry.fit([*good, twin], LAYOUT)
    assert geometry.markers_used == 3  # 233 left out, the other three fit
    pts = np.array([[100.0, 100.0], [500.0, 300.0]])
    assert np.abs(geometry.to_mat(project(h, pts)) - pts).max() < 0.5
    swapped = [Detection("aruco", "aruco:235", d.corners, 1.0, "aruco", marker_id=235)
               if d.marker_id == 232 else d for d in good if d.marker_id != 235]
    with pytest.raises(GeometryError, match="disagree"):
        MatGeometry.fit(swapped, LAYOUT)
    before = geometry.homography.copy()
    assert geometry.update(swapped) is False
    assert np.array_equal(geometry.homography, before)
