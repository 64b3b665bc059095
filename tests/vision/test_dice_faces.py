"""Dice: the top face only, never a side face's value, never a face set no die can show, and
die faces at the pixel limit matched against the game's closed set of faces.

Truth comes from `scene3d` (an independent 3D table) or from the printed marker images."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.markers.payload import die_face_id
from companion.markers.render import aruco_image, aruco_modules
from companion.vision.cell_match import cell_inkiness, turned_patterns
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import Detection, interpret_aruco
from companion.vision.dice import TopFaceFilter, possible_face_set, square_error
from companion.vision.dice_retry import FaceTemplates
from companion.vision.geometry import MatGeometry

from .scene3d import Camera, Die, Scene, render


def _read(scene: Scene, camera: Camera) -> tuple[list[Detection], MatGeometry, np.ndarray]:
    image = render(scene, camera, seed=3)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    dets = [interpret_aruco(i, c) for i, c in ArucoReader().read(gray)]
    return dets, MatGeometry.fit(dets, scene.layout), gray


def _side_face(camera: Camera, die: str, value: int, x: float, y: float) -> Detection:
    """The detection ArUco would give for the side face of a 16 mm die at (x, y) that looks
    straight at the camera: its 12 mm marker between 2 and 14 mm above the table, projected
    with the camera (z into the table), corners clockwise in the picture."""
    c = camera.centre
    u = np.array([c[0] - x, c[1] - y])
    u /= np.linalg.norm(u)  # towards the camera, on the mat
    across = np.array([u[1], -u[0]])
    face = np.array([x, y]) + 8.0 * u
    pts = [(*(face + s * 6.0 * across), -z) for s, z in ((-1, 14), (1, 14), (1, 2), (-1, 2))]
    quad = camera.project(np.array(pts, float))
    x_, y_ = quad[:, 0], quad[:, 1]
    if float(np.dot(x_, np.roll(y_, -1)) - np.dot(y_, np.roll(x_, -1))) < 0:
        quad = quad[::-1]
    return interpret_aruco(die_face_id(die, value), quad)


@pytest.mark.parametrize("tilt", [30.0, 40.0, 45.0])
def test_a_die_showing_3_with_a_side_face_in_view_reads_3(tilt: float) -> None:
    camera = Camera(tilt_deg=tilt, dist_mm=700)
    scene = Scene()
    scene.dice = [Die("p1.w1", 3, 300, 200, yaw_deg=0, side_values=(1, 2))]
    dets, geometry, gray = _read(scene, camera)
    assert {d.aruco.value for d in dets if d.aruco is not None and d.aruco.kind == "die"} == {3}
    side = _side_face(camera, "p1.w1", 2, 300, 200)
    tops, dropped = TopFaceFilter().judge([*dets, side], geometry, (1920, 1080), (600, 400),
                                          (), gray)
    assert [(t.die, t.value) for t in tops] == [("p1.w1", 3)]
    assert [v.detection for v in dropped] == [side]


@pytest.mark.parametrize("tilt", [40.0, 45.0, 50.0])
def test_a_side_face_alone_is_never_the_value(tilt: float) -> None:
    """The top washed out by a lamp's reflection: only a side face decodes. Near 45 degrees a
    side face looking at the camera maps to a near-square in the dice-top plane; it must
    still not be taken for the top."""
    camera = Camera(tilt_deg=tilt, dist_mm=700)
    scene = Scene()
    scene.dice = [Die("p1.w1", 6, 300, 200, yaw_deg=0, side_values=(2, 4), glare=True)]
    dets, geometry, gray = _read(scene, camera)
    assert not [d for d in dets if d.aruco is not None and d.aruco.kind == "die"]
    side = _side_face(camera, "p1.w1", 2, 300, 200)
    judge = TopFaceFilter()
    tops, dropped = judge.judge([*dets, side], geometry, (1920, 1080), (600, 400), (), gray)
    assert tops == [] and [v.reason for v in dropped] == ["unsure"]
    if tilt == 45.0:  # it passes the square test: only the look around it tells
        plane = judge._lifted(geometry, (1920, 1080))
        quad = cv2.perspectiveTransform(side.corners.reshape(-1, 1, 2), plane).reshape(4, 2)
        assert square_error(quad, 12.0)[0] < 0.18 and square_error(quad, 12.0)[1] < 9.0


def _face(die: str, value: int, x: float, y: float, side: float = 30.0) -> Detection:
    quad = np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], float)
    return interpret_aruco(die_face_id(die, value), quad)


def test_a_face_set_no_real_die_shows_is_refused() -> None:
    assert possible_face_set([3]) and possible_face_set([1, 2, 3]) and possible_face_set([6, 5])
    assert not possible_face_set([3, 4])  # opposite faces are never seen together
    assert not possible_face_set([1, 2, 3, 5])  # at most three faces show
    scene = Scene()
    scene.dice = [Die("p1.w1", 3, 300, 200, yaw_deg=10, side_values=(1, 2))]
    dets, geometry, _ = _read(scene, Camera(tilt_deg=30.0, dist_mm=700))
    top = next(d for d in dets if d.aruco is not None and d.aruco.value == 3)
    c = top.corners.mean(axis=0)
    ghost = _face("p1.w1", 4, float(c[0]) - 15, float(c[1]) + 25)  # 3's opposite, beside it
    tops, dropped = TopFaceFilter().judge([*dets, ghost], geometry, (1920, 1080), (600, 400))
    assert tops == []
    assert "impossible" in {v.reason for v in dropped}


def test_a_face_with_an_unread_die_face_beyond_it_is_a_side_face() -> None:
    """At 45 degrees (where a side face can look square); no picture given, so only the
    squares around the face decide."""
    scene = Scene()
    scene.dice = [Die("p1.w1", 3, 300, 200, yaw_deg=0, side_values=(1, 2))]
    dets, geometry, _ = _read(scene, Camera(tilt_deg=45.0, dist_mm=700))
    top = next(d for d in dets if d.aruco is not None and d.aruco.value == 3)
    alone = [d for d in dets if d.aruco is None or d.aruco.kind != "die" or d is top]
    assert [t.value for t in TopFaceFilter().judge(alone, geometry, (1920, 1080),
                                                   (600, 400))[0]] == [3]
    # an unread square 16 mm beyond it, away from the camera: where its top would be
    judge = TopFaceFilter()
    plane = judge._lifted(geometry, (1920, 1080))
    quad_mm = cv2.perspectiveTransform(top.corners.reshape(-1, 1, 2), plane).reshape(4, 2)
    away = quad_mm.mean(axis=0) - Camera(tilt_deg=45.0, dist_mm=700).centre[:2]
    away /= np.linalg.norm(away)

    def square_at(offset_mm: float) -> np.ndarray:
        moved = (quad_mm + offset_mm * away).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(moved, np.linalg.inv(plane)).reshape(4, 2)

    tops, dropped = judge.judge(alone, geometry, (1920, 1080), (600, 400), [square_at(16.0)])
    assert tops == [] and [v.reason for v in dropped if v.detection is top] == ["side"]
    # the same square towards the camera (where its own side face is) changes nothing
    assert [t.value for t in judge.judge(alone, geometry, (1920, 1080), (600, 400),
                                         [square_at(-16.0)])[0]] == [3]
    # a square beyond it but not where a side face's top lies (a neighbouring die's face,
    # 6 mm to one side): no side face
    across = np.array([away[1], -away[0]])
    beside = cv2.perspectiveTransform((quad_mm + 14.0 * away + 6.0 * across).reshape(-1, 1, 2),
                                      np.linalg.inv(plane)).reshape(4, 2)
    assert [t.value for t in judge.judge(alone, geometry, (1920, 1080), (600, 400),
                                         [beside])[0]] == [3]


def _small_marker(marker_id: int, cell_px: float, turn: int, seed: int, blur_px: float = 0.8
                  ) -> tuple[np.ndarray, np.ndarray]:
    """A marker 6 cells wide drawn at `cell_px` px per cell on white, turned by `turn`
    quarter turns, blurred (`blur_px`) and noisy; and its four corners (the marker's own
    top-left first, clockwise)."""
    big = 40
    img = np.full((big * 10, big * 10), 235, np.uint8)
    marker = np.rot90(aruco_image(marker_id, 6 * big), turn)
    img[2 * big:8 * big, 2 * big:8 * big] = marker
    scale = cell_px / big
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(seed)
    noisy = cv2.GaussianBlur(small.astype(np.float32), (0, 0), blur_px)
    noisy += np.asarray(rng.normal(0, 4.0, noisy.shape), np.float32)
    corners = np.array([[2, 2], [8, 2], [8, 8], [2, 8]], float) * big * scale
    return np.clip(noisy, 0, 255).astype(np.uint8), np.roll(corners, turn, axis=0)


@pytest.mark.parametrize("turn", range(4))
def test_closed_set_matching_reads_a_small_face_with_its_turn(turn: int) -> None:
    dice = ["p1.w1", "p1.w2", "p2.r1"]
    templates = FaceTemplates(dice)
    marker_id = die_face_id("p1.w2", 5)
    image, corners = _small_marker(marker_id, 3.0, turn, seed=turn)
    # the square as a finder gives it: any corner first, either way round
    for quad in (corners, np.roll(corners, 1, axis=0), corners[::-1]):
        match = templates.match(image, quad)
        assert match is not None and match[0] == marker_id
        assert np.allclose(match[1], corners)  # top-left first, clockwise: as ArUco says


DICE_SET = ["p1.w1", "p1.w2", "p1.w3", "p1.r1", "p1.r2", "p2.w1", "p2.w2", "p2.r1"]


@pytest.mark.parametrize("value", range(1, 7))
def test_a_blurred_face_at_the_720p_limit_is_matched(value: int) -> None:
    """2.4 px a cell through a 1.1 px blur (a 720p webcam's die top at 53 cm): the cells the
    camera sees are those the marker shows through that blur, and the templates made for it
    name the face, in every turn, where the printed cells alone correlate less."""
    templates = FaceTemplates(DICE_SET)
    for die in ("p1.w3", "p2.r1"):
        marker_id = die_face_id(die, value)
        for turn in range(4):
            image, edges = _small_marker(marker_id, 2.4, turn, seed=value + turn,
                                         blur_px=1.1)
            corners = edges - 0.5  # pixel centres: a fifth of a cell counts at this size
            match = templates.match(image, corners)
            assert match is not None and match[0] == marker_id, (die, turn)
            assert np.allclose(match[1], corners)


def test_templates_blurred_as_the_picture_fit_it_better_than_the_printed_cells() -> None:
    """The blurred cell means the templates assume, against cells measured on a marker drawn
    (from its printed image) and blurred here: at 0.45 cells of blur they correlate more
    closely than the printed cells do."""
    marker_id = die_face_id("p1.w2", 4)
    cells = aruco_modules(marker_id)
    printed, blurred = turned_patterns(cells, 0.0)[0], turned_patterns(cells, 0.45)[0]
    image, corners = _small_marker(marker_id, 8.0, 0, seed=1, blur_px=0.45 * 8.0)
    seen = cell_inkiness(image, corners, 6)
    assert seen is not None
    assert float(seen @ blurred) > 0.98
    assert float(seen @ blurred) > float(seen @ printed) + 0.03


def test_closed_set_matching_names_no_die_outside_the_set() -> None:
    templates = FaceTemplates(["p1.w1", "p1.w2"])
    for value in range(1, 7):
        image, corners = _small_marker(die_face_id("p2.w3", value), 3.0, 0, seed=value)
        match = templates.match(image, corners)
        assert match is None or math.isnan(match[0])  # never another die's face
    blank = np.full((80, 80), 128, np.uint8)
    square = np.array([[20, 20], [60, 20], [60, 60], [20, 60]], float)
    assert templates.match(blank, square) is None


@pytest.mark.parametrize("turn", range(4))
def test_a_face_decoded_as_a_lookalike_is_refused(turn: int) -> None:
    """OpenCV corrects wrong bits: a blurred die showing 1 (marker 0) was decoded as another
    die's 1 (marker 150). The cells say which of the two it is."""
    templates = FaceTemplates(["p1.w1", "p2.r2", "p1.w2"])
    image, corners = _small_marker(die_face_id("p1.w1", 1), 3.0, turn, seed=turn)
    assert templates.agrees(image, interpret_aruco(die_face_id("p1.w1", 1), corners))
    assert not templates.agrees(image, interpret_aruco(die_face_id("p2.r2", 1), corners))
    # not in the set
    assert templates.agrees(image, interpret_aruco(die_face_id("p2.w3", 4), corners))
    blank = np.full((80, 80), 128, np.uint8)
    square = np.array([[20, 20], [60, 20], [60, 60], [20, 60]], float)
    assert templates.agrees(blank, interpret_aruco(die_face_id("p1.w1", 1), square))  # no evidence


@pytest.mark.parametrize("other_at, read", [(16.0, True), (30.0, False), (None, False)])
def test_a_face_with_another_die_read_where_its_top_would_be_is_a_top(
        monkeypatch: pytest.MonkeyPatch, other_at: float | None, read: bool) -> None:
    """At 45 degrees a face read alone needs its own side face dark in front of it and less
    dark beyond it. Dice lie close together: another die behind a top makes that place dark
    too. When a face of that other die was read right where this face's top would be, were
    it a side face, this face cannot be a side face (two dice never overlap); farther away, or
    with nothing read there, the darkness beyond still refuses it."""
    scene = Scene()
    scene.dice = [Die("p1.w1", 3, 300, 200, yaw_deg=0, side_values=(1, 2))]
    camera = Camera(tilt_deg=45.0, dist_mm=700)
    dets, geometry, gray = _read(scene, camera)
    top = next(d for d in dets if d.aruco is not None and d.aruco.value == 3)
    alone = [d for d in dets if d.aruco is None or d.aruco.kind != "die" or d is top]
    judge = TopFaceFilter()
    plane = judge._lifted(geometry, (1920, 1080))
    quad_mm = cv2.perspectiveTransform(top.corners.reshape(-1, 1, 2), plane).reshape(4, 2)
    away = quad_mm.mean(axis=0) - camera.centre[:2]
    away /= np.linalg.norm(away)
    # both places as dark as a marker: the side face in front, the other die beyond
    monkeypatch.setattr(judge, "darkness_beyond", lambda *args, **kwargs: 1.0)
    others = []
    if other_at is not None:
        moved = (quad_mm + other_at * away).reshape(-1, 1, 2)
        corners = cv2.perspectiveTransform(moved, np.linalg.inv(plane)).reshape(4, 2)
        others = [interpret_aruco(die_face_id("p1.w2", 5), corners)]
    tops, dropped = judge.judge([*alone, *others], geometry, (1920, 1080), (600, 400), (),
                                gray)
    assert (("p1.w1", 3) in [(t.die, t.value) for t in tops]) == read
    if not read:
        assert [v.reason for v in dropped if v.detection is top] == ["unsure"]


def test_the_eye_looks_for_the_dice_the_printer_makes() -> None:
    """The eye's die and marker sizes (it lies below the printer, so it keeps its own) are the
    printed ones: a die sticker printed at another size would be judged at the wrong height
    and refused by every shape test."""
    from companion.printing import sizes
    from companion.vision import die_geometry

    assert die_geometry.DIE_MM == sizes.DIE_MM
    assert die_geometry.MARKER_MM == sizes.DIE_MARKER_MM
