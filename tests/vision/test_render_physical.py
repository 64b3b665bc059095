"""The realistic simulator against independent oracles: a pinhole model worked out by hand,
OpenCV's own ArUco detector, the die's pose, the mirror, the lamp's mirror point, the palette."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.layouts import load_layout
from companion.markers.payload import die_face_id, encode_front
from companion.markers.render import aruco_dictionary
from companion.sim.camera import Rig, overhead_rig
from companion.sim.cube import CANONICAL, Cube
from companion.sim.hands import MONK_SKIN_TONES_BGR, Hand
from companion.sim.optics import Conditions
from companion.sim.physical import Bump, PhysicalRenderer
from companion.sim.presets import LOOKS, camera_kinds, make_renderer, preset_names
from companion.sim.render import Scene, SceneCard, SceneDie
from companion.sim.source import hand_for

W, H = 1920, 1080
F = (W / 2) / math.tan(math.radians(35))  # 70-degree lens


def _pinhole(point: tuple[float, float, float], cam: tuple[float, float, float], tilt_deg: float
             ) -> tuple[float, float]:
    """By hand: a camera at `cam` turned `tilt_deg` from straight down towards -y (it stands
    on player 1's side), right = +x, image down = (0, cos t, -sin t), forward =
    (0, -sin t, -cos t)."""
    t = math.radians(tilt_deg)
    dx, dy, dz = (p - c for p, c in zip(point, cam, strict=True))
    x = dx
    y = dy * math.cos(t) - dz * math.sin(t)
    z = -dy * math.sin(t) - dz * math.cos(t)
    return W / 2 + F * x / z, H / 2 + F * y / z


def _ideal(layout, rig: Rig, **changes: object) -> PhysicalRenderer:
    conditions = replace(Conditions(auto_exposure=False), **changes)  # type: ignore[arg-type]
    return PhysicalRenderer(layout, rig, LOOKS["ideal"], seed=3, conditions=conditions)


def _aruco(image: np.ndarray) -> dict[int, np.ndarray]:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(aruco_dictionary(), params).detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


@pytest.fixture(scope="module")
def layout():
    return load_layout("creature-crush")


@pytest.mark.parametrize("tilt", [0.0, 25.0, 40.0])
def test_projection_matches_a_pinhole_worked_by_hand(tilt: float) -> None:
    rig = overhead_rig(W, H, 70.0, 600.0, tilt, (300.0, 200.0))
    cam = (300.0, 200.0 + 600.0 * math.tan(math.radians(tilt)), 600.0)
    for point in [(0.0, 0.0, 0.0), (600.0, 400.0, 0.0), (123.0, 321.0, 16.0), (300, 200, 0)]:
        got = rig.project(np.array([point]))[0]
        assert got == pytest.approx(_pinhole(point, cam, tilt), abs=1e-6)


def test_barrel_distortion_pulls_the_edges_in_and_inverts() -> None:
    rig = replace(overhead_rig(W, H, 70.0, 600.0, 20.0, (300.0, 200.0)), k1=-0.1)
    ideal = np.array([[100.0, 80.0], [1800.0, 1000.0], [960.0, 540.0]])
    bent = rig.distort(ideal)
    centre = np.array([W / 2, H / 2])
    # by hand: r^2 of the first point in normalised units, factor 1 + k1 r^2
    n = (ideal[0] - centre) / F
    assert bent[0] == pytest.approx(centre + n * (1 - 0.1 * (n @ n)) * F)
    assert np.linalg.norm(bent[1] - centre) < np.linalg.norm(ideal[1] - centre)
    assert rig.undistort(bent) == pytest.approx(ideal, abs=1e-3)


@pytest.mark.parametrize("tilt,k1", [(0.0, 0.0), (30.0, 0.0), (30.0, -0.08)])
def test_rendered_corner_markers_lie_where_the_pinhole_puts_them(layout, tilt, k1) -> None:
    rig = replace(overhead_rig(W, H, 70.0, 560.0, tilt, (300.0, 200.0)), k1=k1)
    frame = _ideal(layout, rig).render(Scene(), (), 0, jpeg=False)
    found = _aruco(frame.image)
    cam = (300.0, 200.0 + 560.0 * math.tan(math.radians(tilt)), 560.0)
    for corner in layout.corners:
        assert corner.marker_id in found
        s = corner.size_mm / 2
        pts = [(corner.x_mm - s, corner.y_mm - s, 0.0), (corner.x_mm + s, corner.y_mm - s, 0.0),
               (corner.x_mm + s, corner.y_mm + s, 0.0), (corner.x_mm - s, corner.y_mm + s, 0.0)]
        want = np.array([_pinhole(p, cam, tilt) for p in pts])
        if k1:
            c = np.array([W / 2, H / 2])
            n = (want - c) / F
            want = c + n * (1 + k1 * (n ** 2).sum(axis=1, keepdims=True)) * F
        assert found[corner.marker_id] == pytest.approx(want, abs=1.5)


def test_cube_faces_are_a_real_die() -> None:
    normals = {v: np.array(n) for n, v in CANONICAL.items()}
    for v in range(1, 7):
        assert (normals[v] + normals[7 - v] == 0).all()  # opposite faces sum to 7
    for top in range(1, 7):
        cube = Cube(100.0, 100.0, top, yaw_deg=17.0)
        faces = cube.faces()
        assert sorted(f.value for f in faces) == [1, 2, 3, 4, 5, 6]
        assert cube.top_face().value == top
        bottom = next(f for f in faces if f.normal[2] < -0.5)
        assert bottom.value == 7 - top
        assert cube.top_face().centre[2] == pytest.approx(16.0)


@pytest.fixture(scope="module")
def die_renderer(layout) -> PhysicalRenderer:
    """Closer than a real table (42 cm, 35 degrees), so that side faces read too."""
    return _ideal(layout, overhead_rig(W, H, 70.0, 420.0, 35.0, (300.0, 200.0)))


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_the_marker_on_top_of_a_rendered_die_is_its_value(die_renderer, value) -> None:
    """Seen from 35 degrees: the marker nearest the die's top centre (projected by hand, 16 mm
    above the table) carries the top value; side faces show other values of the same die."""
    die = SceneDie("p1.w1", die_face_id("p1.w1", value), 300.0, 200.0, 25.0, "p1.dice")
    r = die_renderer
    frame = r.render(Scene(dice=(die,)), (), 0, jpeg=False)
    found = _aruco(frame.image)
    cam = (300.0, 200.0 + 420.0 * math.tan(math.radians(35)), 420.0)
    top = np.array(_pinhole((300.0, 200.0, 16.0), cam, 35.0))
    ids = {die_face_id("p1.w1", v): v for v in range(1, 7)}
    mine = {i: c for i, c in found.items() if i in ids}
    assert mine, "the die's markers read"
    nearest = min(mine, key=lambda i: np.linalg.norm(mine[i].mean(axis=0) - top))
    assert ids[nearest] == value
    assert np.linalg.norm(mine[nearest].mean(axis=0) - top) < 4
    # the footprint centre on the table is further from the top face's picture than 16 mm of
    # parallax allows to ignore
    foot = np.array(_pinhole((300.0, 200.0, 0.0), cam, 35.0))
    assert np.linalg.norm(foot - top) > 10
    truth = next(m for m in frame.truth.markers if m.kind == "die")
    assert truth.value == value and truth.visible


def test_side_faces_show_from_an_oblique_camera_only(die_renderer) -> None:
    die = SceneDie("p1.w2", die_face_id("p1.w2", 3), 300.0, 200.0, 20.0, "p1.dice")
    steep = die_renderer.rig
    found = _aruco(die_renderer.render(Scene(dice=(die,)), (), 0, jpeg=False).image)
    values = {v for v in range(1, 7) if die_face_id("p1.w2", v) in found}
    assert 3 in values and values - {3}, "an oblique camera reads side faces too"
    assert 4 not in values  # the bottom face never shows
    eye = steep.centre
    visible = {f.value for f in Cube(300, 200, 3, 20.0).visible_faces(eye)}
    assert values <= visible


def test_mirrored_frames_are_the_picture_flipped(layout) -> None:
    rig = overhead_rig(1280, 720, 70.0, 530.0, 30.0, (300.0, 200.0))
    scene = Scene(cards=(SceneCard("a", encode_front(5, 1, 1), True, 300.0, 200.0, 10.0, "p1.A2"),))
    plain = _ideal(layout, rig).render(scene, (), 0, jpeg=False)
    mirrored = _ideal(layout, replace(rig, mirror=True)).render(scene, (), 0, jpeg=False)
    assert np.array_equal(mirrored.image, plain.image[:, ::-1])
    corner_ids = {c.marker_id for c in layout.corners}
    assert corner_ids <= set(_aruco(plain.image))
    assert not corner_ids & set(_aruco(mirrored.image))  # mirrored ArUco markers do not read
    assert corner_ids <= set(_aruco(np.ascontiguousarray(mirrored.image[:, ::-1])))


def test_glare_saturates_where_the_lamp_mirrors_in_a_sleeve(layout) -> None:
    """The highlight of a lamp in a flat glossy card lies where the line from the camera to the
    lamp's mirror image (below the table) crosses the card: worked out by hand."""
    rig = overhead_rig(W, H, 70.0, 560.0, 25.0, (300.0, 200.0))
    cam = np.array([300.0, 200.0 + 560.0 * math.tan(math.radians(25)), 560.0])
    lamp = np.array([250.0, 120.0, 900.0])
    z = 0.55  # a sleeved card's top
    mirror = np.array([lamp[0], lamp[1], 2 * z - lamp[2]])
    t = (cam[2] - z) / (cam[2] - mirror[2])
    spot = cam + (mirror - cam) * t
    card = SceneCard("a", encode_front(5, 1, 1), True, float(spot[0]) + 10,
                     float(spot[1]) + 22, 0.0, "")
    scene = Scene(cards=(card,))
    shiny = _ideal(layout, rig, lamp=tuple(lamp), lamp_share=0.5, glare_peak=3.0,
                   gloss_deg=1.5, lamp_radius_mm=40.0).render(scene, (), 0, jpeg=False)
    matte = _ideal(layout, rig, lamp=tuple(lamp), lamp_share=0.5, glare_peak=0.0).render(
        scene, (), 0, jpeg=False)
    u, v = (round(c) for c in _pinhole(tuple(spot), tuple(cam), 25.0))
    patch = shiny.image[v - 2:v + 3, u - 2:u + 3]
    assert (patch == 255).all(), "saturated at the mirror point"
    assert (matte.image[v - 2:v + 3, u - 2:u + 3] < 250).any()
    # far from the mirror point (other end of the card) the sleeve does not saturate
    fu, fv = (round(c) for c in _pinhole((spot[0] + 10, spot[1] + 60, z), tuple(cam), 25.0))
    assert (shiny.image[fv - 2:fv + 3, fu - 2:fu + 3] < 255).any()


def test_a_hand_of_every_tone_shows_its_own_colour(layout) -> None:
    rig = overhead_rig(W, H, 70.0, 560.0, 0.0, (300.0, 200.0))
    r = _ideal(layout, rig)
    for tone, bgr in enumerate(MONK_SKIN_TONES_BGR):
        hand = Hand(300.0, 200.0, 300.0, 700.0, tone, z_mm=40.0)
        frame = r.render(Scene(), [hand], 0, jpeg=False)
        u, v = (round(c) for c in rig.project(np.array([[300.0, 200.0, 40.0]]))[0])
        got = frame.image[v - 3:v + 4, u - 3:u + 4].reshape(-1, 3).mean(axis=0)
        assert got == pytest.approx(np.array(bgr), abs=4), f"tone {tone}"
        assert frame.truth.hand_in_view


def test_hands_of_a_realistic_script_use_every_tone_and_many_sleeves() -> None:
    hands = [hand_for(7, k, True) for k in range(40)]
    assert {h[0] for h in hands} == set(range(len(MONK_SKIN_TONES_BGR)))
    sleeves = {h[1] for h in hands if h[1] is not None}
    assert len(sleeves) >= 5
    assert any(h[2] is not None for h in hands)  # gloves too
    assert {hand_for(7, k, False)[0] for k in range(10)} <= set(range(5))  # easy: as before


def test_a_covered_sticker_is_not_visible_and_pitch_is_measured(layout) -> None:
    rig = overhead_rig(W, H, 70.0, 530.0, 30.0, (300.0, 200.0))
    cards = (SceneCard("a", encode_front(5, 1, 1), True, 200.0, 200.0, 0.0, "x"),
             SceneCard("b", encode_front(5, 2, 1), True, 400.0, 200.0, 0.0, "y"))
    r = _ideal(layout, rig)
    frame = r.render(Scene(cards=cards), [Hand(200.0, 200.0, 200.0, 700.0, 3)], 0)
    truth = {m.key: m for m in frame.truth.markers}
    assert not truth["a"].visible and truth["b"].visible
    cam = (300.0, 200.0 + 530.0 * math.tan(math.radians(30)), 530.0)
    top = 0.55
    left = np.array(_pinhole((400.0 - 12.5, 200.0, top), cam, 30.0))
    right = np.array(_pinhole((400.0 + 12.5, 200.0, top), cam, 30.0))
    by_hand = np.linalg.norm(right - left) / 16  # the big-cell code: 8 cells of 2 x 2 modules
    assert truth["b"].px_per_module == pytest.approx(by_hand, rel=0.08)


def test_rendering_is_deterministic_by_seed(layout) -> None:
    scene = Scene(cards=(SceneCard("a", encode_front(5, 1, 1), True, 300.0, 200.0, 5.0, "x"),))
    a = make_renderer(layout, "overhead-webcam-1080p", seed=5)
    b = make_renderer(layout, "overhead-webcam-1080p", seed=5)
    c = make_renderer(layout, "overhead-webcam-1080p", seed=6)
    hand = [Hand(250.0, 250.0, 250.0, 700.0, 2, vx_mm_s=500.0)]
    fa, fb = a.render(scene, hand, 4), b.render(scene, hand, 4)
    assert np.array_equal(fa.image, fb.image)
    assert not np.array_equal(fa.image, a.render(scene, hand, 5).image)  # fresh noise
    assert a.conditions != c.conditions  # another evening at another table


def test_a_bumped_camera_moves_once_and_stays(layout) -> None:
    kind = camera_kinds()["overhead-webcam-1080p"]
    rig = kind.rig(layout)
    r = PhysicalRenderer(layout, rig, LOOKS["ideal"], seed=1, bump=Bump(5),
                         conditions=Conditions(auto_exposure=False))
    before = _aruco(r.render(Scene(), (), 4, jpeg=False).image)
    after = [_aruco(r.render(Scene(), (), i, jpeg=False).image) for i in (9, 30)]
    corner = layout.corners[0].marker_id
    shift = np.linalg.norm(after[0][corner].mean(axis=0) - before[corner].mean(axis=0))
    assert shift > 5
    assert after[1][corner] == pytest.approx(after[0][corner], abs=0.5)


def test_presets_cover_the_camera_kinds() -> None:
    names = preset_names()
    for wanted in ("overhead-webcam-1080p", "overhead-webcam-720p", "phone-holder-1080p",
                   "laptop-720p-mirror", "laptop-720p", "easy"):
        assert wanted in names
    mirror = camera_kinds()["laptop-720p-mirror"]
    assert mirror.mirror and (mirror.width_px, mirror.height_px) == (1280, 720)


def test_the_laptop_with_a_mirror_clip_sees_the_mat_at_36_to_65_degrees(layout) -> None:
    rig = camera_kinds()["laptop-720p-mirror"].rig(layout)
    near = rig.view_angle_deg(300.0, layout.height_mm)
    far = rig.view_angle_deg(300.0, 0.0)
    assert 34 <= near <= 38 and 62 <= far <= 66
    assert 280 <= rig.centre[2] <= 320


@pytest.fixture(scope="module")
def pip_renderer(layout) -> PhysicalRenderer:
    rig = overhead_rig(W, H, 70.0, 300.0, 0.0, (300.0, 200.0))
    return PhysicalRenderer(layout, rig, LOOKS["ideal"], seed=2, dice_style="pips",
                            conditions=Conditions(auto_exposure=False))


@pytest.mark.parametrize("die", ["p1.w1", "p1.r1"])
@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_a_pip_die_shows_its_value_on_top(pip_renderer, die, value) -> None:
    """Ordinary dice: count the pips inside the top face, projected by hand (straight down)."""
    r = pip_renderer
    scene = Scene(dice=(SceneDie(die, die_face_id(die, value), 300.0, 200.0, 0.0, "x"),))
    image = r.render(scene, (), 0, jpeg=False).image
    cam = (300.0, 200.0, 300.0)
    half = 6.5  # inside the 16 mm face, clear of the rounded edges
    (u0, v0) = _pinhole((300 - half, 200 - half, 16.0), cam, 0.0)
    (u1, v1) = _pinhole((300 + half, 200 + half, 16.0), cam, 0.0)
    top = cv2.cvtColor(image[round(v0):round(v1), round(u0):round(u1)], cv2.COLOR_BGR2GRAY)
    white_pips = die.split(".")[1].startswith("r")
    mask = (top > 200) if white_pips else (top < 100)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    pips = [s for s in stats[1:] if s[cv2.CC_STAT_AREA] >= 6]
    assert len(pips) == value


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_a_hand_at_a_laptops_lens_renders(layout) -> None:
    """A hand reaching in from the player's edge passes right by a laptop's camera: neither
    the palm's motion blur nor the hand's shadow is projected from at or behind the lens (the
    blur once asked for a kernel of 313,313 px a side, the shadow for coordinates beyond int32)."""
    kind = camera_kinds()["laptop-720p-mirror"]
    r = make_renderer(layout, "laptop-720p-mirror", seed=3)
    pose = kind.poses[0]
    lens = (float(layout.width_mm) / 2, float(layout.height_mm) + float(pose.behind_mm or 0))
    for dz in (-5.0, 0.0):
        hand = Hand(lens[0], lens[1] - 10.0, lens[0], lens[1] + 200.0, 4,
                    z_mm=pose.height_mm + dz, vx_mm_s=1500.0, vy_mm_s=-1500.0)
        frame = r.render(Scene(), [hand], 1)
        assert frame.image.shape[:2] == (kind.height_px, kind.width_px)
