"""Three of the pipeline's stages run alone: the placer, the dice reader and the cues.

The oracle is the independent 3D table (`scene3d`): where a camera of known pose shows a mat
point, what lies where, and which die shows which value. The stages get hand-made inputs (a
mat fit from the camera's own projection, detections at the projected sticker corners) or
the picture the 3D table renders, never the rest of the pipeline.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.markers.payload import (
    FrontPayload,
    decode,
    die_face_id,
    encode_back,
    encode_front,
)
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import DICE_ARUCO, Detection, interpret_aruco
from companion.vision.dice_reading import PipDice, StickerDice, dice_reader
from companion.vision.geometry import MatGeometry
from companion.vision.placer import Placer, occlusion
from companion.vision.table_cues import SMALL
from companion.vision.tracker import Tracker

from .scene3d import Camera, Die, Scene, Sticker, render

GAME = "creature-crush"
GAME_CODE = 5
CAMERA = Camera(tilt_deg=25)


class Numbers:
    """Card number n is card "C<n>"; number 99 is in no cardset."""

    class _Card:
        def __init__(self, number: int) -> None:
            self.id = f"C{number}"

    def by_number(self, number: int) -> object:
        if number == 99:
            raise ValueError("not in the cardset")
        return self._Card(number)


def fit(camera: Camera, scene: Scene) -> MatGeometry:
    """The mat fit the camera's pose gives (picture -> mat mm), not the pipeline's."""
    return MatGeometry(scene.layout, np.linalg.inv(camera.mat_homography()), 4)


def sticker_at(camera: Camera, scene: Scene, text: str, x: float, y: float,
               angle_deg: float = 0.0) -> Detection:
    """The detection a decoder would give for a sticker at (x, y) mm: its projected corners in
    printed order."""
    half = float(scene.layout.sticker_mm) / 2
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    mat = local @ rot.T + np.array([x, y])
    corners = camera.project(np.column_stack([mat, np.zeros(4)]))
    payload = decode(text)
    kind = "front" if isinstance(payload, FrontPayload) else "back"
    return Detection(kind, text, corners, 1.0, "zxing", payload=payload)


def test_the_placer_puts_each_sticker_where_the_camera_shows_it() -> None:
    scene = Scene()
    zones = scene.layout.zones
    (ax, ay), (bx, by), (cx, cy) = (zones[z].centre for z in ("p1.A1", "p1.B2", "p2.A2"))
    dets = [
        sticker_at(CAMERA, scene, encode_front(GAME_CODE, 1, 1), ax, ay),
        sticker_at(CAMERA, scene, encode_front(GAME_CODE, 2, 2), bx, by, angle_deg=90),
        sticker_at(CAMERA, scene, encode_back(77), cx, cy),
        sticker_at(CAMERA, scene, encode_front(GAME_CODE + 1, 3, 1), ax + 150, ay),  # other game
        sticker_at(CAMERA, scene, encode_front(GAME_CODE, 99, 1), ax, ay + 150),  # no such card
        Detection("unknown", "a stray code", np.eye(4, 2) * 10, 1.0, "zxing"),
        interpret_aruco(die_face_id("p1.w1", 3), np.eye(4, 2) * 10),  # the dice reader's
    ]
    placer = Placer(scene.layout, GAME_CODE, Numbers())
    placed, unknown = placer.place(dets, fit(CAMERA, scene), Tracker(GAME))
    got = {s.key: s for s, _ in placed}
    assert set(got) == {"C1#1", "C2#2", "back:77"}
    for key, (x, y), zone, tapped in (("C1#1", (ax, ay), "p1.A1", False),
                                      ("C2#2", (bx, by), "p1.B2", True),
                                      ("back:77", (cx, cy), "p2.A2", False)):
        s = got[key]
        assert math.hypot(s.x_mm - x, s.y_mm - y) < 0.5, key
        assert (s.zone, s.tapped, s.kind) == (zone, tapped, "card")
    assert got["C1#1"].face_up and not got["back:77"].face_up
    assert unknown == [dets[3].text, dets[4].text, "a stray code"]
    assert not placer.twin_stickers


def test_the_placer_hides_what_lies_under_the_hand_and_keeps_unchanged_places() -> None:
    scene = Scene()
    x, y = scene.layout.zones["p1.A1"].centre
    text = encode_front(GAME_CODE, 1, 1)
    scene.stickers = [Sticker(text, x, y)]
    gray = cv2.cvtColor(render(scene, CAMERA, seed=1), cv2.COLOR_BGR2GRAY)
    geometry = fit(CAMERA, scene)
    det = sticker_at(CAMERA, scene, text, x, y)
    # a hand mask (cue image) over the card's place, from the camera's own projection
    u, v = CAMERA.project(np.array([[x, y, 0.0]]))[0] / SMALL
    hand = np.zeros((1080 // SMALL, 1920 // SMALL), bool)
    hand[int(v) - 2:int(v) + 3, int(u) - 2:int(u) + 3] = True
    occluded = occlusion(hand, geometry)
    assert occluded(x, y) and not occluded(x + 150, y)
    assert not occlusion(np.zeros_like(hand), geometry)(x, y)

    placer = Placer(scene.layout, GAME_CODE, Numbers())
    placed, _ = placer.place([det], geometry, Tracker(GAME))
    placer.photograph(placed, gray, occlusion(np.zeros_like(hand), geometry), lambda d: False)
    assert placer.card_keys == {"C1#1"} and placer.hints()
    # not read on a later frame: kept while its place looks the same, not once it is gone
    assert placer.unchanged(gray, set()) == {"C1#1"}
    assert placer.unchanged(gray, {"C1#1"}) == frozenset()
    gone = cv2.cvtColor(render(Scene(), CAMERA, seed=2), cv2.COLOR_BGR2GRAY)
    assert placer.unchanged(gone, set()) == frozenset()
    placer.keep_only(set(), set())
    assert not placer.known_quads and not placer.card_keys


def _dice_scene(pips: bool) -> tuple[Scene, np.ndarray, np.ndarray]:
    scene = Scene()
    x, y = scene.layout.zones["p1.dice"].centre
    scene.dice = [Die("p1.w1", 5, x - 30, y, yaw_deg=12, pips=pips),
                  Die("p1.w2", 2, x + 10, y + 8, yaw_deg=40, pips=pips),
                  Die("p1.r1", 3, x + 45, y - 10, yaw_deg=71, pips=pips)]
    image = render(scene, CAMERA, seed=4)
    return scene, image, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _aruco(gray: np.ndarray) -> list[Detection]:
    return [interpret_aruco(m, c) for m, c in ArucoReader(DICE_ARUCO).read(gray)]


@pytest.mark.parametrize("dice", [None, ["p1.w1", "p1.w2"]])
def test_the_sticker_dice_reader_reads_the_top_faces_of_the_games_dice(
        dice: list[str] | None) -> None:
    scene, image, gray = _dice_scene(pips=False)
    reader, top_faces = dice_reader(scene.layout, ArucoReader(DICE_ARUCO), dice, "stickers",
                                    None)
    assert isinstance(reader, StickerDice) and reader.top_faces is top_faces
    dets = _aruco(gray)
    placed, strangers = reader.read(dets, fit(CAMERA, scene), image, gray, 0.0, True, 0, None)
    truth = {d.name: d for d in scene.dice if dice is None or d.name in dice}
    assert {s.key: s.value for s, _ in placed} == {n: d.value for n, d in truth.items()}
    for s, source in placed:
        d = truth[s.key]
        assert math.hypot(s.x_mm - d.x_mm, s.y_mm - d.y_mm) < 3.0
        assert s.kind == "die" and s.zone == "p1.dice" and source in dets
    # a die of no die this game has: its faces are strangers, never sightings
    assert bool(strangers) == (dice is not None)
    assert all(t.startswith("aruco:") for t in strangers)


def test_the_pip_dice_reader_reads_values_and_places() -> None:
    scene, image, gray = _dice_scene(pips=True)
    reader, _ = dice_reader(scene.layout, None, ["p1.w1", "p1.w2", "p1.r1"], "pips", None)
    assert isinstance(reader, PipDice)
    geometry = fit(CAMERA, scene)
    placed, strangers = reader.read([], geometry, image, gray, 0.0, True, 0, None)
    assert strangers == []
    got = sorted((s.value, round(s.x_mm), round(s.y_mm)) for s, _ in placed)
    assert [v for v, _, _ in got] == sorted(d.value for d in scene.dice)
    for s, source in placed:
        assert source is None
        assert min(math.hypot(s.x_mm - d.x_mm, s.y_mm - d.y_mm) for d in scene.dice) < 2.5
    # between marker passes the last reading stands, and it is looked at again
    again, _ = reader.read([], geometry, image, gray, 0.1, False, 1, None)
    assert [s for s, _ in again] == [s for s, _ in placed]
    assert len(reader.boxes_to_look(gray.shape, 48)) == len(scene.dice)


def test_the_cues_see_an_arm_reaching_in_but_not_a_card_laid_on_the_mat() -> None:
    """The cue stage alone on hand-made cue images: the mat's place in the picture is known,
    so what reaches in from the border is an arm and what lies within the mat is not."""
    from companion.layouts import load_layout
    from companion.vision.table_cues import TableCues

    layout = load_layout(GAME)
    scale = 0.8 * 1920 / float(layout.width_mm)  # px per mm
    ox, oy = 150.0, 100.0
    geometry = MatGeometry(layout, np.array([[1 / scale, 0, -ox / scale],
                                             [0, 1 / scale, -oy / scale], [0, 0, 1]]), 4)
    cues = TableCues(layout, Tracker(GAME).settings.motion_threshold)
    table = np.full((1080 // SMALL, 1920 // SMALL, 3), (60, 80, 110), np.uint8)
    x0, y0 = int(ox / SMALL), int(oy / SMALL)
    x1, y1 = int((ox + scale * float(layout.width_mm)) / SMALL), \
        int((oy + scale * float(layout.height_mm)) / SMALL)
    table[y0:y1, x0:x1] = (70, 110, 60)
    motion, hand = cues.look(table, 0.0, geometry)
    assert motion == 0.0 and not hand.any() and cues.still_frames == 1

    arm = table.copy()
    arm[60:75, 0:100] = (90, 130, 190)  # from the picture's left border onto the mat
    motion, hand = cues.look(arm, 0.1, geometry)
    assert motion > 0 and cues.still_frames == 0 and cues.last_any_motion_s == 0.1
    assert hand[67, 50] and hand[67, 5] and not hand[20, 150]
    assert cues.dirty[67, 50] and not cues.dirty[20, 150]

    card = table.copy()
    card[30:45, 120:130] = (240, 240, 240)  # a card laid within the mat, the arm gone
    motion, hand = cues.look(card, 0.2, geometry)
    assert motion > 0 and not hand.any()
