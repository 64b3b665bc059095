"""Value stickers on dice: the code's distances, reading them (black and inverted), grouping
faces into dice, the table's sticker kind, and naming.

Truth comes from `scene3d` (an independent 3D table drawing the printed cells) or from the
code's own definition checked by brute force here."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from companion.markers.value_faces import (
    VALUE_CODES,
    ValueFace,
    ValueFaceError,
    printed_cells,
    value_cells,
)
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import DICE_ARUCO, interpret_aruco
from companion.vision.geometry import MatGeometry
from companion.vision.value_dice import (
    ValueDice,
    ValueFaceReader,
    ValueTemplates,
    value_face_of,
)

from .scene3d import Camera, Die, Scene, render


def _turns_and_mirrors(cells: np.ndarray) -> list[np.ndarray]:
    return [np.rot90(c, k) for c in (cells, np.fliplr(cells)) for k in range(4)]


def test_every_two_values_differ_in_three_cells_in_every_turn_and_mirror_image() -> None:
    data = {v: np.array(c, bool) for v, c in VALUE_CODES.items()}
    assert sorted(data) == [1, 2, 3, 4, 5, 6]
    for a, b in itertools.combinations(sorted(data), 2):
        assert min(int((data[a] != t).sum()) for t in _turns_and_mirrors(data[b])) >= 3, (a, b)
    for v, cells in data.items():  # its own turns: the turn that reads is never in doubt
        assert min(int((cells != np.rot90(cells, k)).sum()) for k in (1, 2, 3)) >= 3, v


def test_a_red_die_sticker_is_the_white_one_inverted() -> None:
    for value in VALUE_CODES:
        white, white_inked = printed_cells(ValueFace(value, "w"))
        red, red_inked = printed_cells(ValueFace(value, "r"))
        assert not white_inked and red_inked
        assert white[0].all() and white[:, 0].all()  # the black border
        assert (red == ~white).all()
    with pytest.raises(ValueFaceError):
        ValueFace(7, "w")
    with pytest.raises(ValueFaceError):
        ValueFace(3, "c")  # counter dice keep ArUco stickers
    with pytest.raises(ValueFaceError):
        value_cells(0)


def _sticker_picture(face: ValueFace, cell_px: float, turn: int, seed: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The sticker on its die drawn at `cell_px` px per cell, turned, blurred and noisy; and
    the marker's corners (its printed top-left first, clockwise)."""
    big = 40
    cells, inked = printed_cells(face)
    body = 70 if face.kind == "r" else 235  # a red die's body is dark in grey
    img = np.full((big * 11, big * 11), body, np.uint8)
    img[2 * big:9 * big, 2 * big:9 * big] = 20 if inked else 240  # the 14 mm sticker
    marker = cv2.resize(np.where(cells, 20, 240).astype(np.uint8), (6 * big, 6 * big),
                        interpolation=cv2.INTER_NEAREST)  # 12 mm on the 14 mm sticker
    side = marker.shape[0]
    off = (img.shape[0] - side) // 2
    img[off:off + side, off:off + side] = marker
    img = np.ascontiguousarray(np.rot90(img, turn))
    scale = cell_px * 5 / side
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(seed)
    small = cv2.GaussianBlur(small.astype(np.float32), (0, 0), 0.6)
    small = np.clip(small + rng.normal(0, 3, small.shape), 0, 255).astype(np.uint8)
    n = img.shape[0]
    corners = np.array([[off, off], [off + side, off], [off + side, off + side],
                        [off, off + side]], np.float64)
    for _ in range(turn):  # np.rot90 turns anticlockwise: (x, y) -> (y, n - x)
        corners = np.stack([corners[:, 1], n - corners[:, 0]], axis=1)
    return small, corners * scale


@pytest.mark.parametrize("kind", ["w", "r"])
@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_every_sticker_reads_as_its_value_and_colour(kind: str, turn: int) -> None:
    reader = ValueFaceReader(DICE_ARUCO)
    for value in VALUE_CODES:
        face = ValueFace(value, kind)
        image, corners = _sticker_picture(face, 5.0, turn, seed=value)
        found, _ = reader.read(image)
        assert [value_face_of(d) for d in found] == [face], (value, kind, turn)
        assert np.abs(found[0].corners.mean(axis=0) - corners.mean(axis=0)).max() < 2.0


@pytest.mark.parametrize("kind", ["w", "r"])
def test_the_closed_set_matches_a_sticker_opencv_cannot_decode(kind: str) -> None:
    templates = ValueTemplates()
    for value in VALUE_CODES:
        for turn in range(4):
            face = ValueFace(value, kind)
            image, corners = _sticker_picture(face, 2.6, turn, seed=10 * value + turn)
            match = templates.match(image, corners)
            assert match is not None and match[0] == face, (value, turn)
            # the corners come back from the sticker's printed top-left, whichever turn
            assert np.abs(match[1] - corners).max() < 1.0
    blank = np.full((60, 60), 200, np.uint8)
    assert templates.match(blank, np.array([[10, 10], [50, 10], [50, 50], [10, 50]])) is None


def test_the_closed_set_would_take_many_aruco_die_faces_for_value_stickers() -> None:
    """Why a table's sticker kind is named (`--dice values`), never guessed from what reads:
    a third of ArUco die faces share enough with some value sticker's 5 x 5 cells to match
    it clearly (measured with the tables' auto-detection tried: 2-10 wrong dice on ArUco
    tables at 720p and on flat dice)."""
    from companion.games import game_dice
    from companion.markers.payload import die_face_id
    from companion.markers.render import aruco_modules

    templates = ValueTemplates()
    square = np.array([[0, 0], [60, 0], [60, 60], [0, 60]], np.float64)
    matched = sum(
        templates.match(cv2.resize(np.where(aruco_modules(die_face_id(die, value)), 20,
                                            240).astype(np.uint8), (60, 60),
                                   interpolation=cv2.INTER_NEAREST), square) is not None
        for die in game_dice("creature-crush") for value in range(1, 7))
    assert 20 <= matched <= 60  # of 120


def _value_scene(tilt: float, dice: list[Die]) -> tuple[list, MatGeometry, np.ndarray,
                                                         Camera]:
    camera = Camera(tilt_deg=tilt, dist_mm=700)
    scene = Scene()
    scene.dice = dice
    image = render(scene, camera, seed=5)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners = [interpret_aruco(i, c) for i, c in ArucoReader().read(gray)]
    geometry = MatGeometry.fit(corners, scene.layout)
    faces, _ = ValueFaceReader(DICE_ARUCO).read(gray)
    return faces, geometry, gray, camera


def _tops(faces: list, geometry: MatGeometry, gray: np.ndarray
          ) -> list[tuple[str, int, float, float]]:
    judge = ValueDice(["p1.w1", "p1.w2", "p1.r1", "p2.w1"], lambda x, y: None, 400.0)
    return sorted((kind, t.value, round(t.x_mm), round(t.y_mm))
                  for kind, t in judge.tops(faces, geometry, (1920, 1080), (600, 400),
                                            (), gray))


@pytest.mark.parametrize("tilt", [20.0, 30.0])
def test_two_touching_dice_keep_both_tops_and_side_faces_give_no_value(tilt: float) -> None:
    """Two white dice side by side along the line of sight, a third turned: each top is
    read, no side face is, whichever lies in front."""
    dice = [Die("p1.w1", 5, 300, 200, yaw_deg=0, side_values=(1, 3), values=True),
            Die("p1.w2", 4, 300, 184, yaw_deg=0, side_values=(1, 2), values=True),
            Die("p1.r1", 2, 340, 190, yaw_deg=25, side_values=(1, 3), values=True)]
    faces, geometry, gray, _ = _value_scene(tilt, dice)
    values = {value_face_of(f) for f in faces}
    assert ValueFace(5, "w") in values and ValueFace(2, "r") in values
    tops = _tops(faces, geometry, gray)
    assert [(k, v) for k, v, _, _ in tops] == [("r", 2), ("w", 4), ("w", 5)]
    for kind, value, x, y in tops:
        die = next(d for d in dice if d.value == value and d.name.split(".")[1][0] == kind)
        assert abs(x - die.x_mm) <= 3 and abs(y - die.y_mm) <= 3


def test_names_follow_colour_and_side_and_stay_with_a_die_that_stays() -> None:
    dice = [Die("p1.w1", 6, 300, 300, yaw_deg=5, values=True),
            Die("p1.w2", 3, 340, 300, yaw_deg=40, values=True),
            Die("p1.r1", 2, 380, 300, yaw_deg=20, values=True)]
    faces, geometry, gray, _ = _value_scene(25.0, dice)
    names = ValueDice(["p1.w1", "p1.w2", "p1.r1", "p2.w1", "p2.r1"],
                      lambda x, y: None, 400.0)
    tops = names.tops(faces, geometry, (1920, 1080), (600, 400), (), gray)
    first = {n: (t.value, round(t.x_mm)) for n, t in names.name(tops, 1.0)}
    assert sorted(first) == ["p1.r1", "p1.w1", "p1.w2"]  # the bottom half is player 1's
    assert first["p1.r1"] == (2, 380)
    again = {n: (t.value, round(t.x_mm)) for n, t in names.name(tops, 2.0)}
    assert again == first
    # a name read from an ArUco sticker on the table is not given again
    taken = {n for n, _ in names.name(tops, 3.0, taken={"p1.w1"})}
    assert "p1.w1" not in taken


@pytest.mark.parametrize("mode", ["values", "stickers"])
def test_a_table_of_value_dice_settles_their_values_only_when_told(mode: str) -> None:
    """Creature Crush's still table with value-sticker dice on the realistic simulator
    (overhead 1080p): read as `--dice values` the dice settle with their values (paired with
    the real dice by colour, side and place); read as ArUco die stickers, no die at all."""
    from companion.benchmarks import vision as bv
    from companion.benchmarks.dice_match import pair_dice
    from companion.layouts import load_layout
    from companion.sim.presets import camera_kind, make_renderer
    from companion.sim.source import scene_from_snapshot
    from companion.vision.pipeline import build_pipeline
    from companion.vision.sources import Frame

    layout = load_layout("creature-crush")
    truth = bv.still_table(layout, 1003)
    preset = "overhead-webcam-1080p"
    renderer = make_renderer(layout, preset, camera_kind(preset).poses[0], 1003, "values")
    piles = [z.id for z in layout.zones.values() if z.kind == "pile"]
    scene = scene_from_snapshot(truth, bv.GAME_CODE, bv.number_of, piles, stacks=True,
                                seed=1003)
    pipeline = build_pipeline(layout, "creature-crush", bv.Numbers(), dice_mode=mode)
    last = None
    for index in range(14):
        update = pipeline.process(Frame(renderer.render(scene, (), index).image, index,
                                        index / 30))
        last = update.snapshot or last
    assert last is not None
    if mode == "stickers":
        assert last.dice == ()
        return
    seen = [(d.die, d.x_mm, d.y_mm) for d in last.dice]
    pairs = pair_dice(seen, [(d.die, d.x_mm, d.y_mm) for d in truth.dice])
    real = {d.die: d.value for d in truth.dice}
    assert len(pairs) == len(seen)  # every die reported is a real one of its colour and side
    assert all(real[pairs[i]] == last.dice[i].value for i in pairs)
    assert len(pairs) >= 0.9 * len(truth.dice)


@pytest.mark.parametrize("dice", [None, ["p1.w1", "p1.r1", "p1.c1"]])
def test_value_dice_are_never_matched_as_aruco_faces(dice: list[str] | None) -> None:
    """With value stickers on the white and red dice, the only ArUco faces on the table are
    the counters': the retry's and the magnifier's closed sets hold those and nothing else (a
    value die's ArUco face, which is printed nowhere, could only be matched wrongly)."""
    from companion.layouts import load_layout
    from companion.markers.payload import decode_aruco
    from companion.vision.pipeline import build_pipeline

    layout = load_layout("creature-crush")
    pipeline = build_pipeline(layout, "creature-crush", None, dice=dice, dice_mode="values")
    aruco_dice = pipeline.top_faces.allowed or frozenset()
    assert pipeline.dice_retry is not None
    for templates in (pipeline.dice_retry.templates, pipeline.magnifier and
                      pipeline.magnifier.templates):
        if templates:
            assert {decode_aruco(int(i)).die for i in templates._ids} <= aruco_dice
