"""Real dice in the simulator, against independent oracles: the lighting worked out by hand
(isotropic sky plus the light the mat reflects), OpenCV's ArUco detector and its pose solver,
lines of sight worked out by hand, and OpenCV's own polygon intersection."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.layouts import load_layout
from companion.markers.payload import die_face_id
from companion.markers.render import aruco_dictionary
from companion.printing.sizes import DIE_MARKER_MM, DIE_STICKER_MM
from companion.sim.camera import Rig, overhead_rig
from companion.sim.cube import Cube
from companion.sim.dice import (
    DIE_SIZE_MM,
    EDGE_RADIUS_MM,
    dice_set,
    edge_normals,
    footprint,
    rolled_positions,
    separate,
    sticker_fit,
)
from companion.sim.optics import Conditions
from companion.sim.physical import MAT_PAPER_BGR, PhysicalRenderer
from companion.sim.presets import LOOKS
from companion.sim.render import Scene, SceneCard, SceneDie

W, H = 1920, 1080


@pytest.fixture(scope="module")
def layout():
    return load_layout("creature-crush")


def _renderer(layout, rig: Rig, seed: int = 3, **changes: object) -> PhysicalRenderer:
    conditions = replace(Conditions(auto_exposure=False), **changes)  # type: ignore[arg-type]
    return PhysicalRenderer(layout, rig, LOOKS["ideal"], seed=seed, conditions=conditions)


def _aruco(image: np.ndarray) -> dict[int, np.ndarray]:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(aruco_dictionary(), params).detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def _face_white(image: np.ndarray, rig: Rig, corners: np.ndarray) -> float:
    """The sticker paper's brightness on a face: the bright end of the grey values inside
    the face's picture, shrunk to stay clear of its edges."""
    centre = corners.mean(axis=0)
    inner = centre + (corners - centre) * 0.8
    pts = np.round(rig.project(inner) * 4).astype(np.int32)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_8, 2)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return float(np.percentile(gray[mask > 0], 95))


def test_side_faces_on_a_white_mat_get_most_of_a_top_faces_light(layout) -> None:
    """Room light only (no lamp): a vertical face sees half the sky and half the mat, so by
    the isotropic-sky model it gets (1 + albedo) / 2 of a flat face's light; the mat's white
    paper reflects about 91 % (its grey level / 255). A model without the mat's light would
    give a half."""
    rig = overhead_rig(W, H, 70.0, 380.0, 38.0, (300.0, 200.0))
    r = _renderer(layout, rig)
    die = SceneDie("p1.w1", die_face_id("p1.w1", 2), 300.0, 200.0, 0.0, "p1.dice")
    image = r.render(Scene(dice=(die,)), (), 0, jpeg=False).image
    size = dice_set(3, "w").size_mm
    cube = Cube(300.0, 200.0, 2, 0.0, size)
    top = cube.top_face()
    side = next(f for f in cube.visible_faces(rig.centre) if abs(f.normal[2]) < 0.1
                and f.normal[1] > 0.9)  # the face turned to the camera (it stands at +y)
    b, g, red = MAT_PAPER_BGR
    albedo = (0.114 * b + 0.587 * g + 0.299 * red) / 255
    ratio = _face_white(image, rig, side.corners) / _face_white(image, rig, top.corners)
    assert ratio == pytest.approx((1 + albedo) / 2, abs=0.04)


def test_rounded_edges_turn_between_the_faces_they_join() -> None:
    """At a face's middle its own normal; at the cube's edge line the bisector of the two
    faces (45 degrees); in a corner the diagonal of three; nowhere a normal turned past the
    neighbour's."""
    n, right, down = np.array([0, 0, 1.0]), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])
    grid = 40
    normals = edge_normals(grid, 16.0, 2.0, n, right, down)
    mid = normals[grid // 2, grid // 2]
    assert mid == pytest.approx(n, abs=1e-9)
    # the last cell's centre lies 7.8 mm out, 1.8 mm into the 2 mm band: 45 x 0.9 degrees
    edge = normals[grid // 2, -1]
    assert math.degrees(math.acos(edge @ n)) == pytest.approx(40.5, abs=0.1)
    assert edge[0] > 0 and abs(edge[1]) < 0.05
    t = math.tan(math.radians(40.5))
    corner = normals[-1, -1]
    assert corner == pytest.approx(np.array([t, t, 1]) / math.sqrt(2 * t * t + 1), abs=1e-6)
    flat = normals[grid // 2, grid // 2 + 12]  # 4.8 mm from the centre: inside the flat part
    assert flat == pytest.approx(n, abs=1e-9)
    assert (normals @ n >= math.cos(math.radians(55)) - 1e-9).all()


def test_a_die_has_no_dark_rim_between_its_top_and_a_side(layout) -> None:
    """Walking in the picture from the top face's centre to the side face's centre across
    their shared edge under room light, the white body never drops far below the darker of
    the two faces (a rounded edge's light lies between the faces' lights)."""
    rig = overhead_rig(W, H, 70.0, 380.0, 38.0, (300.0, 200.0))
    r = _renderer(layout, rig)
    die = SceneDie("p1.w1", die_face_id("p1.w1", 2), 300.0, 200.0, 0.0, "p1.dice")
    image = cv2.cvtColor(r.render(Scene(dice=(die,)), (), 0, jpeg=False).image,
                         cv2.COLOR_BGR2GRAY).astype(float)
    size = dice_set(3, "w").size_mm
    cube = Cube(300.0, 200.0, 2, 0.0, size)
    top = cube.top_face()
    side = next(f for f in cube.visible_faces(rig.centre) if f.normal[1] > 0.9)
    # along the top face's and the side's margins (outside the 12 mm marker, on paper/body)
    x = 300.0 + DIE_MARKER_MM / 2 + (DIE_STICKER_MM - DIE_MARKER_MM) / 4 + 0.6
    path = [np.array([x, 200.0 + t, size]) for t in np.linspace(0, size / 2, 24)]
    path += [np.array([x, 200.0 + size / 2, size - t]) for t in np.linspace(0, size / 2, 24)]
    uv = rig.project(np.array(path))
    values = np.array([image[round(v), round(u)] for u, v in uv])
    top_level = _face_white(image.astype(np.uint8)[..., None].repeat(3, -1), rig, top.corners)
    side_level = _face_white(image.astype(np.uint8)[..., None].repeat(3, -1), rig,
                             side.corners)
    assert values.min() >= 0.85 * min(top_level, side_level)


def test_a_sticker_stuck_off_centre_is_where_the_camera_sees_it(layout) -> None:
    """The top marker's corners as OpenCV finds them lie where the player's sticker (moved and
    turned by its fit) projects through a pinhole camera; the truth's quad agrees."""
    rig = overhead_rig(W, H, 70.0, 300.0, 0.0, (300.0, 200.0))
    seed = 11
    r = _renderer(layout, rig, seed=seed)
    fits = [(v, sticker_fit(seed, "p2.w3", v)) for v in range(1, 7)]
    value, fit = max(fits, key=lambda f: math.hypot(f[1].du_mm, f[1].dv_mm))
    assert math.hypot(fit.du_mm, fit.dv_mm) > 0.2  # a visibly imperfect sticker
    die = SceneDie("p2.w3", die_face_id("p2.w3", value), 300.0, 200.0, 10.0, "p2.dice")
    frame = r.render(Scene(dice=(die,)), (), 0, jpeg=False)
    found = _aruco(frame.image)[die_face_id("p2.w3", value)]
    size = dice_set(seed, "w").size_mm
    top = Cube(300.0, 200.0, value, 10.0, size).top_face()
    u = (top.corners[1] - top.corners[0]) / size
    v = (top.corners[3] - top.corners[0]) / size
    a = math.radians(fit.turn_deg)
    h = DIE_MARKER_MM / 2
    want = []
    for su, sv in ((-h, -h), (h, -h), (h, h), (-h, h)):
        du = su * math.cos(a) - sv * math.sin(a) + fit.du_mm
        dv = su * math.sin(a) + sv * math.cos(a) + fit.dv_mm
        want.append(top.centre + du * u + dv * v)
    expected = rig.project(np.array(want))
    assert found == pytest.approx(expected, abs=1.2)
    centred = rig.project(top.centre + (top.corners - top.centre) * (DIE_MARKER_MM / size))
    assert np.abs(found - centred).max() > 0.5  # and not where a perfect sticker would be


def _ray_hits_box(origin: np.ndarray, target: np.ndarray, lo: np.ndarray, hi: np.ndarray
                  ) -> bool:
    """Slab test: does the segment origin -> target pass through the axis-aligned box?"""
    d = target - origin
    t0, t1 = 0.0, 1.0
    for k in range(3):
        if abs(d[k]) < 1e-12:
            if not lo[k] <= origin[k] <= hi[k]:
                return False
            continue
        a, b = (lo[k] - origin[k]) / d[k], (hi[k] - origin[k]) / d[k]
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    return t0 < t1


def test_a_die_standing_higher_hides_the_top_of_the_die_behind_it(layout) -> None:
    """A die on a pile (30 sleeved cards, 17 mm) in front of a die on the mat: lines of sight
    from the camera to the far die's top marker pass through the near die (worked out with a
    slab test), the truth calls the far top face covered, and OpenCV reads the near die's top
    but not the far one's. Two touching dice on the mat hide no top face."""
    rig = overhead_rig(W, H, 70.0, 530.0, 35.0, (300.0, 200.0))
    r = _renderer(layout, rig, seed=4)
    size_w = dice_set(4, "w").size_mm
    pile = SceneCard("pile", "x", False, 300.0, 240.0, 0.0, "p1.lager", under=29)
    near = SceneDie("p1.w1", die_face_id("p1.w1", 5), 300.0, 203.0 + size_w / 2, 0.0, "a")
    far = SceneDie("p1.w2", die_face_id("p1.w2", 3), 300.0, 203.0 - size_w / 2 - 0.5, 0.0, "b")
    pile = replace(pile, payload=_back_payload())
    frame = r.render(Scene(cards=(pile,), dice=(near, far)), (), 0, jpeg=False)
    truth = {m.key: m for m in frame.truth.markers}
    assert truth["p1.w1"].visible and not truth["p1.w2"].visible
    top = 30 * 0.55
    lo = np.array([near.x_mm - size_w / 2, near.y_mm - size_w / 2, top])
    hi = np.array([near.x_mm + size_w / 2, near.y_mm + size_w / 2, top + size_w])
    h = DIE_MARKER_MM / 2
    far_marker = [np.array([far.x_mm + dx, far.y_mm + dy, size_w]) for dx in (-h, h)
                  for dy in (-h, h)]
    assert any(_ray_hits_box(rig.centre, p, lo, hi) for p in far_marker)
    found = _aruco(frame.image)
    assert die_face_id("p1.w1", 5) in found and die_face_id("p1.w2", 3) not in found
    # the same two dice side by side on the mat: same height, no top face hidden
    flat_near = replace(near, y_mm=far.y_mm + size_w + 0.2)
    frame2 = r.render(Scene(dice=(flat_near, far)), (), 0, jpeg=False)
    truth2 = {m.key: m for m in frame2.truth.markers}
    assert truth2["p1.w1"].visible and truth2["p1.w2"].visible
    assert not any(_ray_hits_box(rig.centre, p, lo - [0, 0, top], hi - [0, 0, top])
                   for p in far_marker)
    found2 = _aruco(frame2.image)
    assert {die_face_id("p1.w1", 5), die_face_id("p1.w2", 3)} <= set(found2)


def _back_payload() -> str:
    from companion.markers.payload import encode_back

    return encode_back(4242)


def test_a_die_across_a_piles_edge_is_cocked_as_the_step_says(layout) -> None:
    """Half on a pile of 8 sleeved cards (4.4 mm), half on the mat: its top marker's plane,
    solved by OpenCV from the marker's corners alone, leans by asin(step / die size) (the die
    rests on the mat at one edge and on the pile at the other)."""
    rig = overhead_rig(W, H, 70.0, 320.0, 20.0, (300.0, 200.0))
    r = _renderer(layout, rig, seed=5)
    size = dice_set(5, "w").size_mm
    card_w = layout.card_w_mm
    pile = SceneCard("pile", _back_payload(), False, 300.0 + card_w / 2, 200.0, 0.0, "p",
                     under=7)
    die = SceneDie("p1.w1", die_face_id("p1.w1", 4), 300.0, 200.0, 0.0, "x")
    frame = r.render(Scene(cards=(pile,), dice=(die,)), (), 0, jpeg=False)
    corners = _aruco(frame.image)[die_face_id("p1.w1", 4)].astype(np.float64)
    h = DIE_MARKER_MM / 2
    obj = np.array([[-h, h, 0], [h, h, 0], [h, -h, 0], [-h, -h, 0]], np.float64)
    ok, rvec, _ = cv2.solvePnP(obj, corners, rig.intrinsics, None,
                               flags=cv2.SOLVEPNP_IPPE_SQUARE)
    assert ok
    normal_cam = cv2.Rodrigues(rvec)[0][:, 2]
    normal = rig.rotation.T @ normal_cam
    normal = normal if normal[2] > 0 else -normal
    tilt = math.degrees(math.acos(normal[2]))
    step = 8 * 0.55
    assert tilt == pytest.approx(math.degrees(math.asin(step / size)), abs=3.0)
    assert normal[0] < 0  # raised on the pile's side (+x), so the top leans towards -x


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5))
def test_rolled_dice_rest_in_their_area_apart_by_a_die_at_least(seed: int, count: int) -> None:
    area = (60.0, 210.0, 125.0, 90.0)
    spots = rolled_positions(area, count, seed=seed)
    assert len(spots) == count
    for x, y in spots:
        assert 60.0 <= x <= 185.0 and 210.0 <= y <= 300.0
    for i in range(count):
        for j in range(i + 1, count):
            d = math.dist(spots[i], spots[j])
            assert d >= 16.0 - 1e-6


def test_rolled_dice_cluster_and_often_touch() -> None:
    """Thrown together from one hand, three dice come to rest near each other: in most rolls
    two of them touch (centres within 16.5 mm), in some all three; spread uniformly over the
    area two would touch far less often."""
    area = (60.0, 210.0, 125.0, 90.0)
    touching = chains = uniform = 0
    rolls = 300
    rng = np.random.default_rng(1)
    for seed in range(rolls):
        spots = rolled_positions(area, 3, seed=seed)
        d = sorted(math.dist(a, b) for k, a in enumerate(spots) for b in spots[k + 1:])
        touching += d[0] < 16.5
        chains += d[1] < 16.5
        pts = rng.uniform([72, 222], [173, 288], (3, 2))
        du = min(math.dist(a, b) for k, a in enumerate(pts) for b in pts[k + 1:])
        uniform += du < 16.5
    assert touching / rolls > 0.5 and chains / rolls > 0.1
    assert uniform / rolls < touching / rolls - 0.2


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 40), st.floats(0, 40), st.floats(0, 90)), min_size=2,
                max_size=4))
def test_separated_dice_never_overlap_and_touch_where_they_were_pushed(dice) -> None:
    """OpenCV's convex intersection: no two footprints share area afterwards; a pushed pair
    overlaps again when moved 0.3 mm back towards each other."""
    spots = [(x, y, yaw, 16.0) for x, y, yaw in dice]
    moved = separate(spots)
    # 0.02 mm smaller: dice that just touch share an edge, on which OpenCV's intersection
    # is unreliable (it reported 256 mm² for two squares touching along a side)
    feet = [footprint(x, y, yaw, 15.98).astype(np.float32)
            for (x, y), (_, _, yaw) in zip(moved, dice, strict=True)]
    for i in range(len(feet)):
        for j in range(i + 1, len(feet)):
            area, _ = cv2.intersectConvexConvex(feet[i], feet[j])
            assert area < 0.05
    original = [footprint(x, y, yaw, 16.0).astype(np.float32) for x, y, yaw in dice]
    first, second = 0, 1
    if cv2.intersectConvexConvex(original[first], original[second])[0] > 1.0 and len(dice) == 2:
        a, b = np.array(moved[first]), np.array(moved[second])
        d = (b - a) / np.linalg.norm(b - a)
        closer_a = footprint(*(a + d * 0.15), dice[first][2], 16.0).astype(np.float32)
        closer_b = footprint(*(b - d * 0.15), dice[second][2], 16.0).astype(np.float32)
        assert cv2.intersectConvexConvex(closer_a, closer_b)[0] > 0


def test_dice_sets_and_sticker_fits_stay_within_their_figures() -> None:
    sizes, edges = [], []
    for seed in range(200):
        for colour in "wr":
            d = dice_set(seed, colour)
            sizes.append(d.size_mm)
            edges.append(d.edge_mm)
            assert DIE_SIZE_MM[0] <= d.size_mm <= DIE_SIZE_MM[1]
            assert EDGE_RADIUS_MM[0] <= d.edge_mm <= EDGE_RADIUS_MM[1]
            assert d.flat_mm < DIE_STICKER_MM  # the sticker always reaches the rounded edge
        for value in range(1, 7):
            f = sticker_fit(seed, "p1.w1", value)
            assert abs(f.du_mm) <= 0.8 and abs(f.dv_mm) <= 0.8 and abs(f.turn_deg) <= 5
            assert all(abs(c) <= 0.3 for c in f.cut_mm)
    assert max(sizes) - min(sizes) > 0.8 and max(edges) - min(edges) > 0.8
    glossy = sum(dice_set(seed, "w").glossy_stickers for seed in range(400)) / 400
    assert 0.15 < glossy < 0.35


def test_glossy_stickers_wash_out_in_the_lamps_mirror_spot_matte_ones_do_not(layout) -> None:
    """A die top placed where the lamp mirrors at the die's height (worked out by hand: the
    lamp's image below the plane z = size, seen from the camera): on a table with glossy
    stickers the sticker there saturates; with matte stickers only the plastic around it
    shines and the sticker keeps its marker."""
    glossy_seed = next(s for s in range(200) if dice_set(s, "w").glossy_stickers)
    matte_seed = next(s for s in range(200) if not dice_set(s, "w").glossy_stickers)
    rig = overhead_rig(W, H, 70.0, 560.0, 25.0, (300.0, 200.0))
    cam = rig.centre
    lamp = np.array([250.0, 120.0, 900.0])
    found = {}
    for name, seed in (("glossy", glossy_seed), ("matte", matte_seed)):
        size = dice_set(seed, "w").size_mm
        mirror = np.array([lamp[0], lamp[1], 2 * size - lamp[2]])
        t = (cam[2] - size) / (cam[2] - mirror[2])
        spot = cam + (mirror - cam) * t
        r = _renderer(layout, rig, seed=seed, lamp=tuple(lamp), lamp_share=0.5,
                      glare_peak=3.0, gloss_deg=1.5, lamp_radius_mm=40.0)
        die = SceneDie("p1.w1", die_face_id("p1.w1", 6), float(spot[0]), float(spot[1]), 0.0,
                       "x")
        image = r.render(Scene(dice=(die,)), (), 0, jpeg=False).image
        u, v = (round(c) for c in rig.project(spot[None, :])[0])
        found[name] = (image[v - 2:v + 3, u - 2:u + 3], _aruco(image))
    assert (found["glossy"][0] == 255).all()
    assert (found["matte"][0] < 250).any()
    assert die_face_id("p1.w1", 6) in found["matte"][1]
    assert die_face_id("p1.w1", 6) not in found["glossy"][1]
