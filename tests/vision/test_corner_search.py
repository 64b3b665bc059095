"""Corner markers at a laptop picture's soft sides, read on a view warped onto the mat.

The oracle is a picture drawn through the simulator's lens model and the mat positions of the
corner markers the layout prints (tests/vision/laptop_view.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.vision.corner_search import CornerSearch
from companion.vision.geometry import MatGeometry
from tests.vision.laptop_view import (
    FAR,
    LAYOUT,
    NEAR,
    corners_read,
    laptop,
    photograph,
    truth_quad,
)


@pytest.fixture(scope="module")
def picture() -> np.ndarray:
    return photograph(laptop())


def test_the_full_picture_reads_only_the_far_corners(picture: np.ndarray) -> None:
    """The situation the search is for (bench: 9 of 9 scenes at this pose)."""
    assert sorted(int(d.marker_id or 0) for d in corners_read(picture)) == list(FAR)


def test_the_near_corners_read_where_the_lens_puts_them(picture: np.ndarray) -> None:
    far = corners_read(picture)
    found = CornerSearch(LAYOUT).search(picture, MatGeometry.fit(far, LAYOUT), far)
    assert sorted(int(d.marker_id or 0) for d in found) == list(NEAR)
    rig = laptop()
    for det in found:
        assert det.marker_id is not None
        off = np.linalg.norm(det.corners - truth_quad(rig, det.marker_id), axis=1)
        assert off.max() < 2.0, (det.marker_id, off)


def test_a_fit_on_all_four_places_the_near_edge_closer_to_the_truth(picture: np.ndarray
                                                                  ) -> None:
    """The near edge's cards (player 1's C row, y 358) placed from the two far markers alone
    land 16-17 mm off in this picture (30-40 mm in the bench's); from all four, the lens's
    barrel distortion alone is left (8 mm at the row's middle)."""
    rig = laptop()
    far = corners_read(picture)
    two = MatGeometry.fit(far, LAYOUT)
    four = MatGeometry.fit([*far, *CornerSearch(LAYOUT).search(picture, two, far)], LAYOUT)
    row = np.array([[230.0, 358.0], [300.0, 358.0], [370.0, 358.0]])
    seen = rig.project(np.column_stack([row, np.zeros(len(row))]))
    error_two = np.linalg.norm(two.to_mat(seen) - row, axis=1).max()
    error_four = np.linalg.norm(four.to_mat(seen) - row, axis=1).max()
    assert error_two > 15
    assert error_four < 9


def test_more_corners_are_not_a_moved_camera(picture: np.ndarray) -> None:
    """A fit that gains the near corners is re-fitted without being taken for a knock (which
    would make the pipeline forget everything it holds in pixels)."""
    far = corners_read(picture)
    geometry = MatGeometry.fit(far, LAYOUT)
    more = [*far, *CornerSearch(LAYOUT).search(picture, geometry, far)]
    assert geometry.update(more) is True
    assert geometry.markers_used == 4 and geometry.camera_moved is False


def test_a_moved_camera_is_still_a_moved_camera_when_corners_come_into_view(
        picture: np.ndarray) -> None:
    rig = laptop()
    far = corners_read(picture)
    geometry = MatGeometry.fit(far, LAYOUT)
    knocked = replace(rig, position=(rig.position[0] + 30, rig.position[1], rig.position[2]))
    after = photograph(knocked)
    seen = corners_read(after)
    assert geometry.update([*seen, *CornerSearch(LAYOUT).search(after, geometry, seen)])
    assert geometry.camera_moved is True


def test_a_corner_outside_the_picture_is_not_looked_for(picture: np.ndarray) -> None:
    """A fit that puts a corner beyond the picture gives nothing (and costs no warp)."""
    far = corners_read(picture)
    geometry = MatGeometry.fit(far, LAYOUT)
    shifted = MatGeometry(LAYOUT, geometry.homography @ np.array(
        [[1, 0, -2000.0], [0, 1, 0], [0, 0, 1]]), 2)
    assert CornerSearch(LAYOUT).search(picture, shifted, far) == []
