"""Die faces too small for the ArUco pass, read in magnified tiles of the mat.

Truth comes from `scene3d` (an independent 3D table and pinhole camera): which dice lie where
showing which value, and where their top faces project into the picture."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.markers.payload import die_face_id
from companion.markers.render import aruco_image
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import DICE_ARUCO, Detection, interpret_aruco
from companion.vision.dice_magnifier import MAGNIFY_BELOW_PX, DiceMagnifier
from companion.vision.dice_retry import FaceTemplates
from companion.vision.fusion import FrameFusion
from companion.vision.geometry import MatGeometry

from .scene3d import Camera, Scene, dice_row, render

NAMES = ["p1.w1", "p1.w2", "p1.w3", "p1.r1", "p1.r2", "p1.r3", "p2.w1", "p2.w2"]
VALUES = [1, 2, 3, 4, 5, 6, 2, 5]
MAT = (600.0, 400.0)


def _far_table(dist_mm: float = 1200.0, seed: int = 1
               ) -> tuple[Scene, Camera, np.ndarray, list[Detection], MatGeometry]:
    """Eight dice seen from 1.2 m at 35 degrees: a die face is about 12 px wide, 2 px a cell."""
    camera = Camera(tilt_deg=35.0, dist_mm=dist_mm)
    scene = Scene()
    scene.dice = dice_row(NAMES, VALUES, 200, 250, pitch=28)
    gray = cv2.cvtColor(render(scene, camera, seed=seed), cv2.COLOR_BGR2GRAY)
    dets = [interpret_aruco(i, c) for i, c in ArucoReader(DICE_ARUCO).read(gray)]
    return scene, camera, gray, dets, MatGeometry.fit(dets, scene.layout)


def _faces(dets: list[Detection]) -> set[tuple[str | None, int | None]]:
    return {(d.aruco.die, d.aruco.value) for d in dets
            if d.aruco is not None and d.aruco.kind == "die"}


def _read_all(magnifier: DiceMagnifier, gray: np.ndarray, dets: list[Detection],
              geometry: MatGeometry) -> list[Detection]:
    found: list[Detection] = []
    for _ in range(100):  # until every tile has had its reads
        found += magnifier.read(gray, [*dets, *found], geometry, MAT)
    return found


def _count_tile_reads(magnifier: DiceMagnifier) -> list[int]:
    """A list that grows by one each time the magnifier reads a tile."""
    calls: list[int] = []
    real = magnifier._detector

    class Counting:
        def detectMarkers(self, image: np.ndarray) -> object:
            calls.append(1)
            return real.detectMarkers(image)

    magnifier._detector = Counting()  # type: ignore[assignment]
    return calls


def test_magnified_tiles_read_the_small_tops_the_pass_misses() -> None:
    scene, camera, gray, dets, geometry = _far_table()
    tops = set(zip(NAMES, VALUES, strict=True))
    plain = _faces(dets) & tops
    assert len(plain) <= 5  # the pass itself misses several tops at this size
    found = _read_all(DiceMagnifier(DICE_ARUCO), gray, dets, geometry)
    assert (plain | _faces(found)) >= tops
    for det in found:
        assert det.aruco is not None
        die = next(d for d in scene.dice if d.name == det.aruco.die)
        if det.aruco.value == die.value:  # a top: it lies where the top face projects
            centre = camera.project(np.array([[die.x_mm, die.y_mm, -16.0]]))[0]
            assert np.linalg.norm(det.centre - centre) < 1.0


def test_faces_of_dice_not_in_the_game_are_not_kept() -> None:
    _, _, gray, dets, geometry = _far_table()
    found = _read_all(DiceMagnifier(DICE_ARUCO, dice=["p1.w1", "p1.w2"]), gray, dets,
                      geometry)
    assert {die for die, _ in _faces(found)} <= {"p1.w1", "p1.w2"}


def test_a_face_the_pass_read_is_not_read_twice() -> None:
    _, _, gray, dets, geometry = _far_table()
    found = _read_all(DiceMagnifier(DICE_ARUCO), gray, dets, geometry)
    for det in found:
        assert all(np.linalg.norm(det.centre - other.centre) > 4.0
                   for other in [*dets, *found] if other is not det)


def test_only_where_a_die_face_is_small() -> None:
    _, _, gray, _, far = _far_table()
    _, _, near_gray, _, near = _far_table(dist_mm=550.0)
    far_tiles = DiceMagnifier(DICE_ARUCO).tiles(far, MAT, gray.shape)
    near_tiles = DiceMagnifier(DICE_ARUCO).tiles(near, MAT, near_gray.shape)
    assert far_tiles and near_tiles  # from near, the mat's far edge is small still
    for geometry, tiles in ((far, far_tiles), (near, near_tiles)):
        for x0, y0, x1, y1 in tiles:
            mx, my = geometry.to_mat(np.array([[(x0 + x1) / 2, (y0 + y1) / 2]], float))[0]
            assert 12.0 * geometry.px_per_mm(float(mx), float(my)) < MAGNIFY_BELOW_PX
    # the mat's middle, seen from near, is big enough for the pass
    middle = near.to_image(np.array([[300.0, 200.0]]))[0]
    assert not any(x0 <= middle[0] < x1 and y0 <= middle[1] < y1
                   for x0, y0, x1, y1 in near_tiles)


def test_each_tile_is_read_again_only_where_the_table_changed() -> None:
    _, _, gray, dets, geometry = _far_table()
    magnifier = DiceMagnifier(DICE_ARUCO)
    tiles = magnifier.tiles(geometry, MAT, gray.shape)
    calls = _count_tile_reads(magnifier)
    _read_all(magnifier, gray, dets, geometry)
    assert len(calls) == len(tiles)  # each tile once
    calls.clear()
    _read_all(magnifier, gray, dets, geometry)
    assert calls == []  # nothing changed: nothing read
    x0, y0, _, _ = tiles[0]
    magnifier.changed([(x0 + 2, y0 + 2, x0 + 6, y0 + 6)])  # a small change in one tile
    _read_all(magnifier, gray, dets, geometry)
    assert 1 <= len(calls) <= 4  # that tile and the few overlapping it
    calls.clear()
    magnifier.changed(None)  # the whole picture read again
    _read_all(magnifier, gray, dets, geometry)
    assert len(calls) == len(tiles)  # each tile once


@pytest.mark.parametrize("seed", [2, 4, 6])
def test_tiles_are_read_in_the_still_frames_mean(seed: int) -> None:
    """A dim, noisy room: the mean of still frames reads tops a single frame does not."""
    scene = Scene()
    scene.dice = dice_row(NAMES, VALUES, 200, 250, pitch=28)
    camera = Camera(tilt_deg=35.0, dist_mm=1200.0)
    frames = [cv2.cvtColor(render(scene, camera, seed=seed * 10 + i, noise=26.0),
                           cv2.COLOR_BGR2GRAY) for i in range(8)]
    dets = [interpret_aruco(i, c) for i, c in ArucoReader(DICE_ARUCO).read(frames[0])]
    geometry = MatGeometry.fit(dets, scene.layout)
    fusion = FrameFusion()
    for frame in frames:
        fusion.add(frame, True)
    tops = set(zip(NAMES, VALUES, strict=True))
    live = DiceMagnifier(DICE_ARUCO)
    fused = DiceMagnifier(DICE_ARUCO)
    live_found: list[Detection] = []
    fused_found: list[Detection] = []
    for _ in range(100):
        live_found += live.read(frames[-1], live_found, geometry, MAT)
        fused_found += fused.read(frames[-1], fused_found, geometry, MAT, fusion)
    assert _faces(fused_found) >= tops
    assert len(_faces(live_found) & tops) < len(tops)


def test_blurred_tops_are_matched_against_the_games_faces() -> None:
    """Defocus rounds a small face's outline off: OpenCV finds no marker there, but a dark
    12 mm square at die height whose cells match one of the game's faces clearly is read."""
    scene = Scene()
    scene.dice = dice_row(NAMES, VALUES, 200, 250, pitch=28)
    camera = Camera(tilt_deg=35.0, dist_mm=1000.0)
    gray = cv2.cvtColor(render(scene, camera, seed=1, blur=1.2), cv2.COLOR_BGR2GRAY)
    dets = [interpret_aruco(i, c) for i, c in ArucoReader(DICE_ARUCO).read(gray)]
    geometry = MatGeometry.fit(dets, scene.layout)
    tops = set(zip(NAMES, VALUES, strict=True))
    plain = DiceMagnifier(DICE_ARUCO).read_all(gray, dets, geometry, MAT)
    matched = DiceMagnifier(DICE_ARUCO, templates=FaceTemplates(NAMES)).read_all(
        gray, dets, geometry, MAT)
    assert len(_faces([*dets, *plain]) & tops) <= 4
    assert _faces([*dets, *matched]) >= tops
    for det in matched:
        assert det.aruco is not None
        die = next(d for d in scene.dice if d.name == det.aruco.die)
        assert det.aruco.value != 7 - die.value  # a die never shows its bottom
        if det.aruco.value == die.value:  # a top: where the top face projects
            centre = camera.project(np.array([[die.x_mm, die.y_mm, -16.0]]))[0]
            assert np.linalg.norm(det.centre - centre) < 1.5


def test_no_face_is_matched_where_no_die_lies() -> None:
    scene = Scene()
    camera = Camera(tilt_deg=35.0, dist_mm=1000.0)
    gray = cv2.cvtColor(render(scene, camera, seed=3, blur=1.2), cv2.COLOR_BGR2GRAY)
    dets = [interpret_aruco(i, c) for i, c in ArucoReader(DICE_ARUCO).read(gray)]
    geometry = MatGeometry.fit(dets, scene.layout)
    magnifier = DiceMagnifier(DICE_ARUCO, templates=FaceTemplates(NAMES))
    assert _faces(magnifier.read_all(gray, dets, geometry, MAT)) == set()


def test_tiles_marked_again_wait_their_turn_and_keep_their_faces() -> None:
    """A noisy picture keeps the ArUco pass looking at "changed" boxes on a still table: the
    tiles there are not read again in the same still frames' mean (their faces come back from
    the first read), and every other tile still gets its turn."""
    _, _, gray, dets, geometry = _far_table()
    fusion = FrameFusion()
    for _ in range(8):
        fusion.add(gray, True)
    magnifier = DiceMagnifier(DICE_ARUCO)
    tiles = magnifier.tiles(geometry, MAT, gray.shape)
    calls = _count_tile_reads(magnifier)
    first = tiles[0]
    found: list[Detection] = []
    for _ in range(len(tiles)):  # more than enough frames for every tile once
        magnifier.changed([first])  # the pass looks at the first tile's box every frame
        found = [d for d in found if not (first[0] <= d.centre[0] < first[2]
                                          and first[1] <= d.centre[1] < first[3])]
        found += magnifier.read(gray, [*dets, *found], geometry, MAT, fusion)
    assert len(calls) == len(tiles)  # each tile read once
    everything = _read_all(DiceMagnifier(DICE_ARUCO), gray, dets, geometry)
    assert _faces(found) == _faces(everything)


def test_a_noisy_picture_is_read_over_the_whole_mat() -> None:
    """From near, the mat's middle has faces big enough for the pass; a picture too noisy
    for it has them read in the still frames' mean too, at their own size."""
    _, _, gray, _, near = _far_table(dist_mm=550.0)
    magnifier = DiceMagnifier(DICE_ARUCO)
    small = magnifier.tiles(near, MAT, gray.shape)
    whole = magnifier.tiles(near, MAT, gray.shape, whole=True)
    assert set(small) < set(whole)
    middle = near.to_image(np.array([[300.0, 200.0]]))[0]
    assert any(x0 <= middle[0] < x1 and y0 <= middle[1] < y1 for x0, y0, x1, y1 in whole)


@pytest.mark.parametrize("height_px, kept", [(14, True), (10, True), (7, False), (6, False)])
def test_a_face_too_squashed_to_show_its_cells_is_not_given(height_px: int, kept: bool) -> None:
    """A die face 30 px wide seen so steeply that it is a few px high: OpenCV decodes it in the
    magnified tile even at 1 px a cell across, where a laptop's far face, decoded so, named a
    die not on the table. Under 1.4 px a cell across (8.5 px) no face is given."""
    marker = aruco_image(die_face_id("p1.w1", 3), 60)
    tile = np.full((112, 112), 235, np.uint8)
    tile[40:40 + height_px, 40:70] = cv2.resize(marker, (30, height_px),
                                                interpolation=cv2.INTER_AREA)
    magnified = cv2.resize(tile, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    faces = DiceMagnifier(DICE_ARUCO, ["p1.w1"])._faces(magnified, np.array([100.0, 50.0]),
                                                        MatGeometry(Scene().layout, np.eye(3), 4),
                                                        scale=2.0)
    assert _faces(faces) == ({("p1.w1", 3)} if kept else set())
