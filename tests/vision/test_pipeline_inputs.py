"""The live pipeline on pictures a real table gives: mirrored (a laptop's mirror clip), turned
180 degrees, black, frozen, a mat with too few corners in view, dice as real cubes whose side
faces show other values, hands of any colour. Pictures from the independent `scene3d`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from companion.markers.payload import encode_back, encode_front
from companion.vision.detect import Detection
from companion.vision.pipeline import Pipeline, build_pipeline
from companion.vision.sources import Frame

from .scene3d import Blob, Camera, Die, Scene, Sticker, render

GAME = "creature-crush"
DT = 1 / 30


class Numbers:
    """Card number n is card "C<n>"."""

    @dataclass(frozen=True)
    class _Card:
        id: str
        number: int

    def by_number(self, number: int) -> Any:
        return self._Card(f"C{number}", number)


def table_scene(**kw: Any) -> Scene:
    scene = Scene(**kw)
    zones = scene.layout.zones
    scene.stickers = [
        Sticker(encode_front(5, 1, 1), *zones["p1.A1"].centre),
        Sticker(encode_front(5, 2, 1), *zones["p1.B2"].centre, angle_deg=90),
        Sticker(encode_back(77), *zones["p2.A2"].centre, back=True),
    ]
    return scene


def run(pipeline: Pipeline, frames: list[np.ndarray], t0: float = 0.0) -> list[Any]:
    return [pipeline.process(Frame(img, i, t0 + i * DT)) for i, img in enumerate(frames)]


def last_snapshot(updates: list[Any]) -> Any:
    snaps = [u.snapshot for u in updates if u.snapshot is not None]
    return snaps[-1] if snaps else None


def cards_of(snapshot: Any) -> set[tuple[str, str, bool]]:
    return {(c.uid, c.zone, c.tapped) for c in snapshot.cards}


EXPECTED = {("C1#1", "p1.A1", False), ("C2#1", "p1.B2", True), ("back:77", "p2.A2", False)}


def pipeline(**kw: Any) -> Pipeline:
    scene = Scene()
    return build_pipeline(scene.layout, GAME, Numbers(), **kw)


@pytest.fixture(scope="module")
def still_frames() -> list[np.ndarray]:
    scene = table_scene()
    return [render(scene, Camera(tilt_deg=25), seed=k) for k in range(4)]


def test_an_upright_table_reads(still_frames: list[np.ndarray]) -> None:
    updates = run(pipeline(), still_frames * 3)
    assert cards_of(last_snapshot(updates)) == EXPECTED
    stats = updates[-1].stats
    assert (stats.mat_fit, stats.input, stats.mirrored, stats.orientation) == (
        "ok", "ok", False, "upright")
    assert stats.messages == () and stats.recording


@pytest.mark.parametrize("turn", [False, True])
def test_a_mirrored_picture_is_found_and_turned_back(still_frames: list[np.ndarray],
                                                      turn: bool) -> None:
    """A mirror clip mirrors the picture: corner markers then read only when flipped back.
    Auto mode finds that within a few frames and reads the table right (tapped included)."""
    scene = table_scene()
    frames = [render(scene, Camera(tilt_deg=25), seed=k, mirror=True, turn=turn)
              for k in range(4)]
    p = pipeline()
    updates = run(p, frames * 4)
    assert updates[0].stats.mat_fit == "ok" and updates[0].stats.mirrored  # from frame one
    assert p.mirrored
    assert cards_of(last_snapshot(updates)) == EXPECTED
    stats = updates[-1].stats
    assert stats.mirrored and any("mirrored" in m for m in stats.messages)
    assert stats.orientation == ("upside-down" if turn else "upright")
    assert updates[-1].image is not None
    assert np.array_equal(updates[-1].image[:, ::-1], frames[-1])  # the picture as read


def test_mirror_given_right_or_wrong(still_frames: list[np.ndarray]) -> None:
    scene = table_scene()
    mirrored = [render(scene, Camera(tilt_deg=25), seed=k, mirror=True) for k in range(4)]
    given = run(pipeline(mirror=True), mirrored * 3)
    assert cards_of(last_snapshot(given)) == EXPECTED
    assert not any("mirrored" in m for m in given[-1].stats.messages)  # asked for: no news
    # the option given the wrong way round is overruled by the corner markers, and said so:
    # otherwise the mat would never be found
    refused = run(pipeline(mirror=False), mirrored * 3)
    assert cards_of(last_snapshot(refused)) == EXPECTED
    assert any("started with --no-mirror" in m for m in refused[-1].stats.messages)
    plain = [render(scene, Camera(tilt_deg=25), seed=k) for k in range(4)]
    wrong = run(pipeline(mirror=True), plain * 3)
    assert cards_of(last_snapshot(wrong)) == EXPECTED
    assert any("started with --mirror" in m and "read as it comes" in m
               for m in wrong[-1].stats.messages)


def test_a_picture_turned_180_degrees_reads(still_frames: list[np.ndarray]) -> None:
    scene = table_scene()
    frames = [render(scene, Camera(tilt_deg=25), seed=k, turn=True) for k in range(4)]
    updates = run(pipeline(), frames * 3)
    assert cards_of(last_snapshot(updates)) == EXPECTED
    assert updates[-1].stats.orientation == "upside-down"
    assert any("upside down" in m for m in updates[-1].stats.messages)


def test_black_frames_record_nothing_and_say_so(still_frames: list[np.ndarray]) -> None:
    p = pipeline()
    before = run(p, still_frames * 3)
    assert cards_of(last_snapshot(before)) == EXPECTED
    black = np.zeros_like(still_frames[0]) + np.random.default_rng(1).integers(
        0, 4, still_frames[0].shape, dtype=np.uint8)
    during = run(p, [black] * 20, t0=1.0)
    assert all(u.snapshot is None and not u.stats.recording for u in during)
    assert during[-1].stats.input == "black"
    assert "black" in during[-1].stats.messages[0]
    after = run(p, still_frames * 3, t0=2.0)
    assert all(u.snapshot is None for u in after)  # the table never changed
    assert p.tracker.current().card("C1#1") is not None
    assert after[-1].stats.input == "ok"


def test_a_frozen_camera_records_nothing_and_says_so(still_frames: list[np.ndarray]) -> None:
    p = pipeline()
    run(p, still_frames * 3)
    frozen = run(p, [still_frames[0]] * 70, t0=1.0)
    assert frozen[10].stats.input == "ok"  # a moment of identical frames is no fault
    assert frozen[-1].stats.input == "frozen" and not frozen[-1].stats.recording
    assert any("frozen" in m for m in frozen[-1].stats.messages)


def test_the_mat_needs_two_corners_and_is_held_when_fewer_show() -> None:
    one = table_scene(corners=(2,))
    frames = [render(one, Camera(tilt_deg=25), seed=k) for k in range(3)]
    p = pipeline()
    updates = run(p, frames * 3)
    assert last_snapshot(updates) is None
    assert updates[-1].stats.mat_fit == "none" and updates[-1].stats.corners_seen == 1
    assert any("Only one corner" in m for m in updates[-1].stats.messages)

    p = pipeline()
    two = table_scene(corners=(0, 2))
    updates = run(p, [render(two, Camera(tilt_deg=25), seed=k) for k in range(3)] * 3)
    assert cards_of(last_snapshot(updates)) == EXPECTED
    assert updates[-1].stats.mat_fit == "ok"
    # now a hand covers one of the two: the fit is held (ArUco looks again at its full pass)
    p.schedule = type(p.schedule)(full_every=1)
    held = run(p, [render(one, Camera(tilt_deg=25), seed=k) for k in range(3)] * 2, t0=1.0)
    assert held[-1].stats.mat_fit == "held" and held[-1].stats.recording
    assert any("held" in m for m in held[-1].stats.messages)


def test_a_dim_picture_finds_the_mat_from_its_still_frames_together() -> None:
    """Far, blurred and noisy (a dim room at high gain): no single frame reads two corner
    markers, but the still frames do together (the corners each read and their mean), and the
    mat found fits the camera's own."""
    import cv2

    from companion.vision.decoders.aruco import ArucoReader
    from companion.vision.detect import DICE_ARUCO

    camera = Camera(tilt_deg=25, size=(1280, 720), dist_mm=1500)
    frames = [render(table_scene(), camera, seed=k, noise=40.0, blur=2.0) for k in range(6)]
    reader = ArucoReader(DICE_ARUCO)
    for frame in frames:  # the premise: one frame alone never has the mat
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        assert len({m for m, _ in reader.read(gray) if m >= 232}) < 2
    p = pipeline()
    updates = run(p, frames)
    assert [u.stats.calibration_ok for u in updates][3:] == [True] * 3
    assert p.geometry is not None
    mat = np.array([[0.0, 0.0], [600.0, 0.0], [600.0, 400.0], [0.0, 400.0], [300.0, 200.0]])
    truth = cv2.perspectiveTransform(mat.reshape(-1, 1, 2), camera.mat_homography()).reshape(-1, 2)
    error = np.hypot(*(p.geometry.to_image(mat) - truth).T)
    # the two far corners read are where the camera sees them; the rest is a two-corner fit's
    # (it assumes the camera's angle): the mat's middle within a centimetre
    assert error[:2].max() < 3.0 and error[4] < 15.0


def test_a_corner_read_in_two_places_while_still_is_left_out() -> None:
    """Corner markers read on different frames of one still picture count together, but one
    read in two places (a misread marker) is no evidence of where that corner is."""
    from companion.vision.detect import interpret_aruco

    def corner(marker_id: int, x: float, y: float) -> Detection:
        return interpret_aruco(marker_id, np.array([[x, y], [x + 20, y], [x + 20, y + 20],
                                                     [x, y + 20]], float))

    p = pipeline()
    p._still_frames = 1
    assert [d.marker_id for d in p._still_corners([corner(232, 100, 100)], None)] == [232]
    together = p._still_corners([corner(233, 900, 100)], None)
    assert sorted(int(d.marker_id or 0) for d in together) == [232, 233]
    moved = p._still_corners([corner(232, 400, 300)], None)  # 232 again, elsewhere
    assert [d.marker_id for d in moved] == [233]
    assert [d.marker_id for d in p._still_corners([corner(232, 100, 100)], None)] == [233]
    p._still_frames = 0  # the picture moved: a new still period starts afresh
    assert [d.marker_id for d in p._still_corners([corner(232, 100, 100)], None)] == [232]


@pytest.mark.parametrize("colour", [(40, 40, 40), (60, 90, 150), (150, 190, 230), (30, 140, 40),
                                    (200, 200, 200)])
def test_a_hand_of_any_colour_is_a_hand(still_frames: list[np.ndarray],
                                        colour: tuple[int, int, int]) -> None:
    """Dark and light skin, a green glove, a grey sleeve: the cue is the arm reaching in."""
    p = pipeline()
    run(p, still_frames * 3)
    scene = table_scene()
    scene.blobs = [Blob(((300.0, 560.0), (280.0, 250.0)), bgr=colour)]
    updates = run(p, [render(scene, Camera(tilt_deg=25), seed=k) for k in range(3)], t0=1.0)
    assert all(u.stats.hand for u in updates)


def test_only_top_faces_of_the_games_dice_give_values() -> None:
    """Cubes seen from 40 degrees show side faces of other values; a counter die (not used by
    Creature Crush) lies among them."""
    scene = Scene()
    zones = scene.layout.zones
    x0, y0 = zones["p1.dice"].x_mm + 15, zones["p1.dice"].y_mm + 20
    truth = {"p1.w1": 2, "p1.w2": 5, "p1.w3": 6, "p1.r1": 1}
    scene.dice = [Die(name, value, x0 + 28 * (i % 3), y0 + 32 * (i // 3), yaw_deg=17 * i)
                  for i, (name, value) in enumerate(truth.items())]
    scene.dice.append(Die("p2.c2", 5, x0 + 60, y0 + 40))
    frames = [render(scene, Camera(tilt_deg=40, dist_mm=700), seed=k) for k in range(4)]
    updates = run(pipeline(), frames * 3)
    snap = last_snapshot(updates)
    got = {d.die: d.value for d in snap.dice}
    # every die reported shows its top value, never a side face's; on this dark green mat a
    # die whose side faces do not decode is read only where its own side face shows clearly
    # darker than the mat in front of it (companion.vision.dice: a face read alone at 34-56
    # degrees), so not every die settles here
    assert got.items() <= truth.items() and len(got) >= 2
    for d in snap.dice:
        die = next(x for x in scene.dice if x.name == d.die)
        assert abs(d.x_mm - die.x_mm) < 2.5 and abs(d.y_mm - die.y_mm) < 2.5
        assert d.zone == "p1.dice"
    assert any(u.startswith("aruco:") for u in snap.unknown_markers)  # the stranger is said


@pytest.mark.parametrize("tilt", [10.0, 40.0])
def test_ordinary_pip_dice_read_from_their_top_faces(tilt: float) -> None:
    """White dice with dark pips and red dice with white pips, no stickers: the top face's
    pips give the value (side faces show other values), the side of the mat the owner."""
    scene = Scene()
    zones = scene.layout.zones
    p1x, p1y = zones["p1.dice"].x_mm + 20, zones["p1.dice"].y_mm + 25
    p2x, p2y = zones["p2.dice"].x_mm + 20, zones["p2.dice"].y_mm + 25
    scene.dice = [
        Die("p1.w1", 5, p1x, p1y, yaw_deg=12, pips=True),
        Die("p1.w2", 2, p1x + 30, p1y + 8, yaw_deg=40, pips=True),
        Die("p1.r1", 6, p1x + 60, p1y + 30, yaw_deg=71, pips=True),
        Die("p2.w1", 3, p2x + 10, p2y, yaw_deg=5, pips=True),
    ]
    frames = [render(scene, Camera(tilt_deg=tilt, dist_mm=680), seed=k) for k in range(4)]
    updates = run(pipeline(dice_mode="pips"), frames * 3)
    snap = last_snapshot(updates)
    got = sorted((d.die[:4], d.value, d.zone) for d in snap.dice)
    assert got == [("p1.r", 6, "p1.dice"), ("p1.w", 2, "p1.dice"), ("p1.w", 5, "p1.dice"),
                   ("p2.w", 3, "p2.dice")]
    assert len({d.die for d in snap.dice}) == 4
    for d in snap.dice:
        assert min(math.hypot(d.x_mm - x.x_mm, d.y_mm - x.y_mm) for x in scene.dice) < 2.5


@pytest.mark.parametrize("mode", ["stickers", "pips"])
def test_a_die_thrown_again_is_a_roll_even_to_the_same_value(mode: str) -> None:
    scene = Scene()
    x, y = scene.layout.zones["p1.dice"].centre
    pips = mode == "pips"
    before = [Die("p1.w1", 4, x - 20, y, yaw_deg=10, pips=pips), Die("p1.w2", 1, x + 30, y,
                                                                       pips=pips)]
    after = [Die("p1.w1", 4, x - 5, y + 15, yaw_deg=38, pips=pips), before[1]]
    hand = Blob(((x - 10, 560.0), (x - 10, y)), width_mm=60, bgr=(110, 140, 200))
    camera = Camera(tilt_deg=25)
    p = pipeline(dice_mode=mode)
    scene.dice = before
    first = run(p, [render(scene, camera, seed=k) for k in range(12)])
    d = last_snapshot(first).die("p1.w1")
    assert d is not None and (d.value, d.rolls) == (4, 0)
    name = d.die
    covered = Scene(dice=[before[1]], blobs=[hand])  # the die is up in the hand
    run(p, [render(covered, camera, seed=k) for k in range(8)], t0=1.0)
    scene.dice = after
    again = run(p, [render(scene, camera, seed=k) for k in range(15)], t0=2.0)
    snap = last_snapshot(again)
    thrown = snap.die(name)
    assert thrown is not None and (thrown.value, thrown.rolls) == (4, 1)
    other = next(o for o in snap.dice if o.die != name)
    assert (other.value, other.rolls) == (1, 0)
