"""The lens's bend from the mat's four corner markers: a laptop's near edge placed to about a
millimetre instead of 8-10 mm. Oracle: the simulator's lens model (tests/vision/laptop_view.py),
which puts every mat point in the picture exactly."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.sim.camera import Rig
from companion.vision.corner_search import CornerSearch
from companion.vision.detect import Detection, interpret_aruco
from companion.vision.geometry import MatGeometry
from companion.vision.lens import RadialLens
from tests.vision.laptop_view import LAYOUT, corners_read, laptop, photograph, truth_quad

SIZE = (1280, 720)
GRID = np.array([[x, y] for x in np.linspace(20, 580, 8) for y in np.linspace(20, 390, 6)])


def exact_corners(rig: Rig, ids: tuple[int, ...] = (232, 233, 234, 235),
                  noise_px: float = 0.3, seed: int = 0) -> list[Detection]:
    """The corner markers where the lens draws them, read with `noise_px` of jitter."""
    rng = np.random.default_rng(seed)
    return [interpret_aruco(m, truth_quad(rig, m) + rng.normal(0, noise_px, (4, 2)))
            for m in ids]


def worst_mm(geometry: MatGeometry, rig: Rig) -> float:
    seen = rig.project(np.column_stack([GRID, np.zeros(len(GRID))]))
    return float(np.linalg.norm(geometry.to_mat_true(seen) - GRID, axis=1).max())


@pytest.mark.parametrize(("height", "behind"), [(280, 200), (300, 220)])
def test_four_corners_and_the_lens_place_the_whole_mat_within_two_millimetres(
        height: float, behind: float) -> None:
    rig = laptop(height, behind)
    plain = MatGeometry.fit(exact_corners(rig), LAYOUT)
    bent = MatGeometry.fit(exact_corners(rig), LAYOUT, image_size=SIZE)
    assert bent.lens is not None and bent.lens.k < 0  # barrel
    assert worst_mm(plain, rig) > 6
    assert worst_mm(bent, rig) < 2


def test_a_sticker_at_the_near_edge_is_placed_in_its_slot() -> None:
    """Player 1's C2 card (centre 300, 358): the plain four-marker homography puts it 8 mm
    towards the camera; placed through the lens, within 2 mm, in its own slot."""
    rig = laptop()
    bent = MatGeometry.fit(exact_corners(rig), LAYOUT, image_size=SIZE)
    half = 12.5
    quad_mm = np.array([[300 - half, 358 - half], [300 + half, 358 - half],
                        [300 + half, 358 + half], [300 - half, 358 + half]])
    quad_px = rig.project(np.column_stack([quad_mm, np.zeros(4)]))
    sticker = Detection("front", "10001011", quad_px, 1.0, "zxing")
    placed = bent.place(sticker)
    assert abs(placed.x_mm - 300) < 2 and abs(placed.y_mm - 358) < 2
    assert placed.zone == "p1.C2"
    assert np.linalg.norm(bent.to_mat(quad_px).mean(axis=0) - [300, 358]) > 5  # the plain one


def test_from_the_picture_itself_corner_search_and_lens_place_the_near_edge() -> None:
    """The whole path on a drawn picture: far corners read, near ones found at the soft
    sides, the bend estimated; player 1's C row (y 358) within 2 mm."""
    rig = laptop()
    picture = photograph(rig)
    far = corners_read(picture)
    two = MatGeometry.fit(far, LAYOUT, image_size=SIZE)
    assert two.lens is None  # two markers say nothing about a bend
    four = MatGeometry.fit([*far, *CornerSearch(LAYOUT).search(picture, two, far)], LAYOUT,
                           image_size=SIZE)
    row = np.array([[x, 358.0] for x in np.linspace(200, 400, 5)])
    seen = rig.project(np.column_stack([row, np.zeros(len(row))]))
    assert np.linalg.norm(four.to_mat_true(seen) - row, axis=1).max() < 2


def test_a_straight_lens_gets_no_bend() -> None:
    rig = replace(laptop(), k1=0.0, k2=0.0)
    geometry = MatGeometry.fit(exact_corners(rig), LAYOUT, image_size=SIZE)
    assert geometry.lens is None
    assert worst_mm(geometry, rig) < 1.5


def test_three_corners_get_no_bend() -> None:
    rig = laptop()
    assert MatGeometry.fit(exact_corners(rig, (232, 233, 234)), LAYOUT,
                           image_size=SIZE).lens is None


def test_undistort_undoes_distort() -> None:
    lens = RadialLens(-0.07, (640.0, 360.0), 640.0)
    pts = np.array([[0.0, 0.0], [1279.0, 719.0], [640.0, 360.0], [100.0, 600.0]])
    assert np.abs(lens.undistort(lens.distort(pts)) - pts).max() < 0.01
