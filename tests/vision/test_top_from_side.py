"""A die read only by a side face: its top looked for where it must lie.

Truth comes from `scene3d` (an independent 3D table and pinhole camera): where a die's top
marker projects, and which value it shows."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.markers.payload import die_face_id
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import DICE_ARUCO, Detection, interpret_aruco
from companion.vision.dice import TopFaceFilter
from companion.vision.dice_retry import FaceTemplates
from companion.vision.geometry import CameraPose, MatGeometry
from companion.vision.top_from_side import predicted_top, read_top, top_beyond, top_values

from .scene3d import Camera, Die, Scene, render

DICE = ["p1.w1", "p1.w2", "p1.r1", "p2.w1"]


def _table(die: Die, tilt: float = 40.0, dist: float = 700.0
           ) -> tuple[Camera, np.ndarray, list[Detection], MatGeometry]:
    camera = Camera(tilt_deg=tilt, dist_mm=dist)
    scene = Scene()
    scene.dice = [die]
    gray = cv2.cvtColor(render(scene, camera, seed=5), cv2.COLOR_BGR2GRAY)
    dets = [interpret_aruco(i, c) for i, c in ArucoReader(DICE_ARUCO).read(gray)]
    return camera, gray, dets, MatGeometry.fit(dets, scene.layout)


def _top_marker_px(camera: Camera, die: Die) -> np.ndarray:
    a = math.radians(die.yaw_deg)
    u = np.array([math.cos(a), math.sin(a)])
    v = np.array([-math.sin(a), math.cos(a)])
    centre = np.array([die.x_mm, die.y_mm])
    pts = [(*(centre + 6.0 * (su * u + sv * v)), -16.0)
           for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return camera.project(np.array(pts, float))


def _side(camera: Camera, die: Die) -> Detection:
    """The detection ArUco gives for the die's side face that looks at the camera (the -v
    face, as `scene3d` lays the faces out): its 12 mm marker 2-14 mm above the table,
    projected with the camera, corners clockwise in the picture."""
    assert die.side_values is not None
    a = math.radians(die.yaw_deg)
    u = np.array([math.cos(a), math.sin(a)])
    v = np.array([-math.sin(a), math.cos(a)])
    face = np.array([die.x_mm, die.y_mm]) - 8.0 * v
    pts = [(*(face + s * 6.0 * u), -z) for s, z in ((-1, 14), (1, 14), (1, 2), (-1, 2))]
    quad = camera.project(np.array(pts, float))
    x, y = quad[:, 0], quad[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) < 0:
        quad = quad[::-1]
    return interpret_aruco(die_face_id(die.name, 7 - die.side_values[1]), quad)


def _pose_and_plane(geometry: MatGeometry) -> tuple[CameraPose, np.ndarray]:
    pose = TopFaceFilter().camera_pose(geometry, (1920, 1080))
    return pose, np.linalg.inv(geometry.homography)


@pytest.mark.parametrize("yaw", [0.0, 20.0, -35.0])
@pytest.mark.parametrize("tilt", [30.0, 45.0])
def test_the_top_is_predicted_where_it_projects(yaw: float, tilt: float) -> None:
    die = Die("p1.w2", 4, 320, 230, yaw_deg=yaw, side_values=(2, 1))
    camera, _, _, geometry = _table(die, tilt)
    pose, mat_to_image = _pose_and_plane(geometry)
    predicted = predicted_top(_side(camera, die).corners, pose, mat_to_image)
    assert predicted is not None
    truth = _top_marker_px(camera, die)
    # the same square: every true corner has a predicted corner within 2 px
    for corner in truth:
        assert float(np.min(np.linalg.norm(predicted - corner, axis=1))) < 2.0


@pytest.mark.parametrize("value, sides", [(4, (2, 1)), (6, (2, 4)), (1, (3, 5))])
def test_the_top_is_matched_among_the_values_it_can_show(value: int,
                                                          sides: tuple[int, int]) -> None:
    die = Die("p1.w2", value, 320, 230, yaw_deg=12.0, side_values=sides)
    camera, gray, _, geometry = _table(die)
    pose, mat_to_image = _pose_and_plane(geometry)
    side = _side(camera, die)
    assert side.aruco is not None and side.aruco.value is not None
    templates = FaceTemplates(DICE)
    found = top_beyond(gray, side, pose, mat_to_image, templates,
                       top_values({side.aruco.value}))
    assert found is not None and found.aruco is not None
    assert (found.aruco.die, found.aruco.value) == ("p1.w2", value)
    # the true value ruled out (as if read as a side face): nothing, never another value
    others = [v for v in range(1, 7) if v != value]
    assert top_beyond(gray, side, pose, mat_to_image, templates, others) is None


def test_a_washed_out_top_gives_no_value() -> None:
    die = Die("p1.w2", 4, 320, 230, yaw_deg=12.0, side_values=(2, 1), glare=True)
    camera, gray, _, geometry = _table(die)
    pose, mat_to_image = _pose_and_plane(geometry)
    side = _side(camera, die)
    assert top_beyond(gray, side, pose, mat_to_image, FaceTemplates(DICE),
                      range(1, 7)) is None


def test_a_top_read_as_if_a_side_face_finds_nothing_beyond() -> None:
    """A top taken for a side face: beyond it lies the table, where no face matches."""
    die = Die("p1.w2", 4, 320, 230, yaw_deg=12.0, side_values=(2, 1))
    _, gray, dets, geometry = _table(die)
    pose, mat_to_image = _pose_and_plane(geometry)
    top = next(d for d in dets if d.aruco is not None and d.aruco.value == 4)
    assert top_beyond(gray, top, pose, mat_to_image, FaceTemplates(DICE),
                      range(1, 7)) is None


def test_the_values_a_top_can_show() -> None:
    assert top_values({2}) == [1, 3, 4, 6]
    assert top_values({2, 3}) == [1, 6]
    assert top_values(set()) == [1, 2, 3, 4, 5, 6]


def test_a_top_refused_for_what_lies_beyond_is_the_top_its_side_face_predicts() -> None:
    die = Die("p1.w2", 4, 320, 230, yaw_deg=12.0, side_values=(2, 1))
    camera, _, dets, geometry = _table(die)
    pose, mat_to_image = _pose_and_plane(geometry)
    side = _side(camera, die)
    top = next(d for d in dets if d.aruco is not None and d.aruco.die == "p1.w2")
    assert read_top(side, [top], pose, mat_to_image) is top
    # the same face a die's width away, or a value no top shows beside this side face: no
    moved = interpret_aruco(top.marker_id or 0, top.corners + np.array([0.0, -25.0]))
    assert read_top(side, [moved], pose, mat_to_image) is None
    assert side.aruco is not None and side.aruco.value is not None
    opposite = interpret_aruco(die_face_id("p1.w2", 7 - side.aruco.value), top.corners)
    assert read_top(side, [opposite], pose, mat_to_image) is None
