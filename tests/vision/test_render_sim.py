"""The simulated table: deterministic frames whose visible stickers decode, honest truth."""

from __future__ import annotations

import cv2
import numpy as np

from companion.benchmarks.vision import GAME_CODE, bench_mat, number_of, scenario_snapshots
from companion.sim.camera import CameraProfile, Degradation, mat_to_image, project
from companion.sim.hands import Hand
from companion.sim.render import TableRenderer
from companion.sim.source import SnapshotPlayer, Timing, changed_points
from companion.vision.detect import Detector


def _scene(n: int = 10):
    mat = bench_mat()
    snap = scenario_snapshots(mat, n, 0, seed=2)[0]
    renderer = TableRenderer(mat, CameraProfile.named("1080p"), Degradation.webcam(), seed=4)
    player = SnapshotPlayer(renderer, [snap], GAME_CODE, number_of, Timing(), True, 4)
    return renderer, player.scene(0)


def test_camera_sees_the_whole_mat() -> None:
    for tilt in (15, 30, 45):
        profile = CameraProfile.named("720p", tilt)
        pts = project(mat_to_image(profile, 600, 400), np.array([[0, 0], [600, 0], [600, 400],
                                                                 [0, 400]]))
        assert (pts[:, 0] > 0).all() and (pts[:, 0] < 1280).all()
        assert (pts[:, 1] > 0).all() and (pts[:, 1] < 720).all()


def test_rendering_is_deterministic() -> None:
    renderer, scene = _scene()
    hand = [Hand(300, 200, 300, 700)]
    a = renderer.render(scene, hand, frame_index=3)
    b = renderer.render(scene, hand, frame_index=3)
    c = renderer.render(scene, hand, frame_index=4)
    assert np.array_equal(a.image, b.image)
    assert not np.array_equal(a.image, c.image)  # fresh sensor noise per frame


def test_visible_stickers_decode_and_covered_ones_are_marked() -> None:
    renderer, scene = _scene()
    target = scene.cards[4]
    frame = renderer.render(scene, [Hand(target.x_mm, target.y_mm, -300, target.y_mm)])
    truth = {m.text: m for m in frame.truth.markers}
    assert not truth[target.payload].visible
    visible = {m.text for m in frame.truth.markers if m.visible}
    dets = Detector("zxing").detect(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY))
    texts = {d.text for d in dets}
    cards = {m.text for m in frame.truth.markers if m.visible and m.kind == "card"}
    assert len(cards) >= 4
    assert cards <= texts
    assert texts <= {m.text for m in frame.truth.markers}  # nothing read that is not there
    corners = {m.text for m in frame.truth.markers if m.kind == "corner"}
    assert corners & visible <= texts


def test_hand_goes_where_the_table_changes() -> None:
    mat = bench_mat()
    before, after = scenario_snapshots(mat, 10, 1, seed=2)
    points = changed_points(before, after)
    assert points
    changed = {c.uid for c in after.cards} ^ {c.uid for c in before.cards}
    spots = {(c.x_mm, c.y_mm) for c in (*before.cards, *after.cards) if c.uid in changed}
    assert set(points) <= spots
