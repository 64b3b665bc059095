"""Reading at the physical limit and judging the picture: sticker-like squares, frame fusion,
blur/light/noise/glare measured on the corner markers, black and frozen frames, top faces of
dice, pip patterns and the names of pip dice."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.markers.payload import encode_front
from companion.markers.render import card_front_image
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import Detection, Detector
from companion.vision.dice import TopFaceFilter, square_error
from companion.vision.finders import finder_candidates
from companion.vision.frame_check import FrameCheck
from companion.vision.fusion import FrameFusion
from companion.vision.geometry import MatGeometry
from companion.vision.image_quality import glare_spots, picture_quality
from companion.vision.pips import (
    PATCH_PX_PER_MM,
    PipDiceNamer,
    PipReading,
    _pip_grid_value,
    _top_face,
)

from .scene3d import Camera, Die, Scene, render


def _stickers(module_px: float, blur: float, noise: float, seed: int = 0
              ) -> tuple[np.ndarray, list[str]]:
    """Micro QR stickers drawn at 4 px per module, shrunk to `module_px`, blurred, noisy."""
    rng = np.random.default_rng(seed)
    payloads = [encode_front(5, n, 1) for n in range(1, 9)]
    canvas = np.full((520, 1040), 140, np.uint8)
    for k, payload in enumerate(payloads):
        img = card_front_image(payload, 4)
        y, x = 40 + 240 * (k // 4), 40 + 250 * (k % 4)
        canvas[y:y + img.shape[0], x:x + img.shape[1]] = img
    scale = module_px / 4
    small = cv2.resize(canvas, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small.astype(np.float32), (0, 0), blur)
    small += rng.normal(0, noise, small.shape).astype(np.float32)
    return np.clip(small, 0, 255).astype(np.uint8), payloads


def test_sticker_like_squares_are_found_where_the_full_frame_pass_gives_up() -> None:
    picture, payloads = _stickers(1.9, 0.7, 3.0)  # 1.9 px per module: at the limit
    finders = finder_candidates(picture, 2.0)
    assert len(finders) >= 4  # found where the symbol itself does not decode
    plain = {d.text for d in Detector(aruco=False, crop_retry=False).detect(picture)}
    detector = Detector(aruco=False)
    first = detector.detect(picture)
    retried = {d.text for d in first + detector.retry_squares(picture, finders, first)}
    assert retried <= set(payloads)  # never a wrong identity
    assert len(retried) > len(plain)


def test_frame_fusion_averages_still_frames_and_restarts_on_motion() -> None:
    rng = np.random.default_rng(1)
    table = np.full((60, 80), 120, np.uint8)
    fusion = FrameFusion(max_frames=8)
    for _ in range(8):
        noisy = np.clip(table + rng.normal(0, 10, table.shape), 0, 255).astype(np.uint8)
        fusion.add(noisy, still=True)
    fused = fusion.fused()
    assert fused is not None and fusion.count == 8
    assert float(np.std(fused.astype(float) - 120)) < 5.0  # ~10 / sqrt(8)
    moved = np.full((60, 80), 30, np.uint8)
    fusion.add(moved, still=False)
    assert fusion.count == 1 and fusion.fused() is None  # no ghost of the old table


def test_frame_fusion_turned_keeps_the_view_mirrored_back() -> None:
    """Found mirrored on the third still frame: the two before it are the same view, turned;
    the third is read again (and added again), so it leaves."""
    rng = np.random.default_rng(2)
    view = rng.integers(0, 255, (20, 30)).astype(np.uint8)
    fusion = FrameFusion()
    for _ in range(3):
        fusion.add(view, still=True)
    fusion.turned()
    assert fusion.count == 2
    fusion.add(view[:, ::-1].copy(), still=True)
    fused = fusion.fused()
    assert fused is not None and np.array_equal(fused, view[:, ::-1])


@pytest.mark.parametrize("blur", [0.6, 1.2, 2.0])
def test_blur_and_light_are_measured_on_the_corner_markers(blur: float) -> None:
    image = render(Scene(), Camera(tilt_deg=20), blur=blur, noise=2.0, jpeg=95, gain=0.6)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    quads = [c for _, c in ArucoReader().read(gray)]
    quality = picture_quality(gray, quads)
    assert quality.blur_px is not None and abs(quality.blur_px - blur) < 0.35 + 0.15 * blur
    assert quality.paper is not None and 130 < quality.paper < 170  # 255 x 0.6
    assert quality.contrast is not None and quality.contrast > 100


def test_glare_is_a_saturated_patch() -> None:
    image = np.full((200, 300, 3), 120, np.uint8)
    cv2.circle(image, (200, 80), 20, (255, 255, 255), -1)
    image[10:13, 10:13] = 255  # a sparkle, not glare
    spots = glare_spots(image)
    assert len(spots) == 1 and np.allclose(spots[0], (200, 80), atol=1.0)


def test_black_frozen_and_dark_pictures() -> None:
    check = FrameCheck(frozen_s=1.0, frozen_frames=10)
    rng = np.random.default_rng(2)
    live = [rng.integers(90, 160, (30, 40, 3), dtype=np.uint8) for _ in range(3)]
    assert check.check(live[0], 0.0).state == "ok"
    black = rng.integers(0, 6, (30, 40, 3), dtype=np.uint8)
    verdict = check.check(black, 0.1)
    assert verdict.state == "black" and not verdict.usable and "black" in verdict.message
    frozen = [check.check(live[1], 0.2 + k / 30) for k in range(40)]
    assert frozen[5].state == "ok"  # identical for a moment is not frozen
    assert frozen[-1].state == "frozen" and not frozen[-1].usable
    assert check.check(live[2], 3.0).state == "ok"
    dim = (live[2] * 0.25).astype(np.uint8)
    assert check.check(dim, 3.1).state == "dark" and check.check(dim, 3.2).usable


def _die_faces(tilt: float) -> tuple[list[Detection], MatGeometry, Scene]:
    from companion.vision.detect import interpret_aruco

    scene = Scene()
    scene.dice = [Die(f"p1.w{k + 1}", 1 + k, 120 + 60 * k, 250, yaw_deg=13 * k)
                  for k in range(5)]
    image = render(scene, Camera(tilt_deg=tilt, dist_mm=700), seed=4)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    dets = [interpret_aruco(i, c) for i, c in ArucoReader().read(gray)]
    return dets, MatGeometry.fit(dets, scene.layout), scene


@pytest.mark.parametrize("tilt", [25.0, 45.0])
def test_top_faces_only_and_where_the_die_really_lies(tilt: float) -> None:
    dets, geometry, scene = _die_faces(tilt)
    faces = [d for d in dets if d.aruco is not None and d.aruco.kind == "die"]
    tops, _ = TopFaceFilter().judge(dets, geometry, (1920, 1080), (600, 400))
    assert {t.die: t.value for t in tops} == {d.name: d.value for d in scene.dice}
    assert len(faces) > len(tops) or tilt < 30  # side faces were seen, and dropped
    for t in tops:
        die = next(d for d in scene.dice if d.name == t.die)
        assert math.hypot(t.x_mm - die.x_mm, t.y_mm - die.y_mm) < 2.5
    only = TopFaceFilter(allowed={"p1.w1"}).judge(dets, geometry, (1920, 1080), (600, 400))
    assert [t.die for t in only[0]] == ["p1.w1"]
    assert {v.reason for v in only[1]} >= {"not-in-game"}


def test_square_error_of_a_square_and_a_stretched_side_face() -> None:
    square = np.array([[0, 0], [12, 0], [12, 12], [0, 12]], float)
    assert square_error(square, 12.0) == pytest.approx((0.0, 0.0), abs=1e-9)
    side = np.array([[0, 0], [12, 0], [12, 20], [0, 20]], float)
    assert square_error(side, 12.0)[0] > 0.5


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("turn", [0.0, 30.0, 90.0])
def test_pip_patterns_read_in_any_turn_and_broken_ones_not(value: int, turn: float) -> None:
    from companion.vision.pips import PATTERNS

    a = math.radians(turn)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = np.array([rot @ (np.array(p) * 4.4) for p in PATTERNS[value]])
    pitch_rot = np.array([[math.cos(-a), -math.sin(-a)], [math.sin(-a), math.cos(-a)]])
    face = np.array([pitch_rot @ p for p in pts])  # back in the face's own axes
    assert _pip_grid_value(face) == value
    if value in (3, 5):  # the centre pip missed: a 2 or a 4 would be wrong, not read instead
        assert _pip_grid_value(face[[i for i, p in enumerate(PATTERNS[value])
                                     if p != (0, 0)]]) in (value - 1, None)
    if value >= 2:
        crooked = face.copy()
        crooked[0] += 2.5
        assert _pip_grid_value(crooked) is None


def test_top_face_from_the_silhouette_of_a_cube() -> None:
    """Mapped to the dice-top plane, a cube's silhouette is its top square swept towards the
    camera (+y here) by the height of its sides; the erosion gives the square back."""
    size = int(48 * PATCH_PX_PER_MM)
    body = np.zeros((size, size), np.uint8)
    side = int(16 * PATCH_PX_PER_MM)
    sweep = int(11 * PATCH_PX_PER_MM)
    x0, y0 = 40, 30
    body[y0:y0 + side + sweep, x0:x0 + side] = 1  # top face plus the camera-facing side
    face = _top_face(body.astype(bool), 11.0)
    assert face is not None
    mask, (fx, fy), _, fill = face
    assert mask.sum() > 0 and fill > 0.9
    assert abs(fx - (x0 + side / 2)) < 2 and abs(fy - (y0 + side / 2)) < 2
    assert _top_face(body.astype(bool), 0.0) is None  # unswept: not a die-sized square


def test_pip_dice_keep_their_names_and_a_thrown_die_takes_its_own() -> None:
    namer = PipDiceNamer(["p1.w1", "p1.w2", "p1.w3", "p2.w1"],
                         lambda x, y: "p1.dice" if y > 200 else "p2.dice", 400.0)

    def read(*dice: tuple[float, float, int]) -> dict[str, tuple[float, int]]:
        got = namer.name([PipReading("w", v, x, y, 0.0, 1.0) for x, y, v in dice], 0.0)
        return {n: (r.x_mm, r.value) for n, r in got}

    first = read((100, 250, 3), (140, 250, 5), (120, 80, 2))
    assert first == {"p1.w1": (100, 3), "p1.w2": (140, 5), "p2.w1": (120, 2)}
    assert read((101, 251, 3), (139, 250, 5)) == {"p1.w1": (101, 3), "p1.w2": (139, 5)}
    # p1.w2 picked up and thrown elsewhere: it keeps its name, not the unused p1.w3
    assert read((101, 251, 3), (60, 330, 1)) == {"p1.w1": (101, 3), "p1.w2": (60, 1)}
