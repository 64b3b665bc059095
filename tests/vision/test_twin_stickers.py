"""Cards with two stickers on a face, one at each end, the second turned round.

The oracle for where the stickers lie is written here from the printed instructions (each
symbol's centre 24 mm from the card's centre along its length, the far one turned 180
degrees), not taken from the code under test; the rendered scenes' oracle is the simulator's
truth (where it laid each card)."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.benchmarks import vision as bv
from companion.layouts import load_layout
from companion.markers.payload import FrontPayload, decode
from companion.sim.presets import camera_kind
from companion.sim.source import SnapshotPlayer
from companion.vision.commands import scan_image
from companion.vision.detect import Detection
from companion.vision.geometry import MatGeometry
from companion.vision.pipeline import build_pipeline, layout_game_code
from companion.vision.sources import Frame
from companion.vision.tracker import FrameObservation, Sighting, Tracker, TrackerSettings
from companion.vision.twin_stickers import card_centre_below, shows_twin_pair, sticker_below_mm
from tests.vision.test_geometry import LAYOUT, camera_homography, corner_detections, project

FROM_CENTRE_MM = 24.0  # the printed instructions: symbol centre to card centre


def sticker_at(h: np.ndarray, x: float, y: float, angle_deg: float, text: str = "10001011",
               side: float = 25.0) -> Detection:
    """A front sticker whose symbol is centred at (x, y) mm, its top edge turned `angle_deg`."""
    a = math.radians(angle_deg)
    along = np.array([math.cos(a), math.sin(a)]) * side / 2
    down = np.array([-math.sin(a), math.cos(a)]) * side / 2
    c = np.array([x, y])
    quad = np.array([c - along - down, c + along - down, c + along + down, c - along + down])
    return Detection("front", text, project(h, quad), 1.0, "bigcell")


def twin_stickers(h: np.ndarray, x: float, y: float, angle_deg: float, text: str = "10001011"
                  ) -> tuple[Detection, Detection]:
    """A card centred at (x, y) whose top edge is turned `angle_deg`: its upright sticker
    towards its top edge, its turned one towards its bottom edge."""
    a = math.radians(angle_deg)
    towards_top = np.array([math.sin(a), -math.cos(a)])  # mat y grows downwards
    top = np.array([x, y]) + FROM_CENTRE_MM * towards_top
    bottom = np.array([x, y]) - FROM_CENTRE_MM * towards_top
    return (sticker_at(h, *top, angle_deg, text), sticker_at(h, *bottom, angle_deg + 180, text))


@settings(max_examples=40, deadline=None)
@given(x=st.floats(120, 480), y=st.floats(100, 300), angle=st.floats(0, 360),
       tilt=st.floats(0, 40))
def test_either_sticker_places_the_card_at_its_centre(x: float, y: float, angle: float,
                                                      tilt: float) -> None:
    h = camera_homography(tilt, yaw_deg=6)
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    for det in twin_stickers(h, x, y, angle):
        place = geometry.place(det, sticker_below_mm(det, twin=True))
        assert place.x_mm == pytest.approx(x, abs=0.5)
        assert place.y_mm == pytest.approx(y, abs=0.5)
        assert place.zone == LAYOUT.zone_at(x, y) or min(
            abs(x - 300), abs(y - 200)) < 1  # on a zone border half a millimetre decides


def test_a_sticker_on_a_one_sticker_table_is_its_cards_centre() -> None:
    h = camera_homography(20)
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    det = sticker_at(h, 400, 300, 30)
    assert sticker_below_mm(det, twin=False) == 0.0
    place = geometry.place(det, sticker_below_mm(det, twin=False))
    assert (place.x_mm, place.y_mm) == pytest.approx((400, 300), abs=0.5)
    corner = corner_detections(h)[0]  # a corner marker is never a card's sticker
    assert sticker_below_mm(corner, twin=True) == 0.0


@pytest.mark.parametrize("angle", [0.0, 37.0, 90.0, 200.0])
def test_a_cards_two_stickers_tell_a_twin_table(angle: float) -> None:
    h = camera_homography(25, yaw_deg=-4)
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    a, b = twin_stickers(h, 300, 220, angle)
    others = [sticker_at(h, 150, 120, 0, "10002027"), sticker_at(h, 450, 300, 90, "10003035")]
    assert shows_twin_pair([a, *others, b], geometry)
    assert not shows_twin_pair([a, *others], geometry)


def test_what_is_not_one_cards_two_stickers_tells_nothing() -> None:
    h = camera_homography(25)
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    a, _ = twin_stickers(h, 300, 220, 0)
    # the same payload twice, both upright: not how the two are stuck
    upright = sticker_at(h, 300, 220 + FROM_CENTRE_MM, 0)
    assert not shows_twin_pair([a, upright], geometry)
    # turned round but too far apart (another card's sticker printed twice by mistake)
    far = sticker_at(h, 300, 220 + FROM_CENTRE_MM + 30, 180)
    assert not shows_twin_pair([a, far], geometry)
    # two cards' stickers where one card's two would lie
    other = sticker_at(h, 300, 220 + FROM_CENTRE_MM, 180, "10002027")
    assert not shows_twin_pair([a, other], geometry)


def _settled(seed: int, twin: bool) -> tuple[object, object, object]:
    layout = load_layout(bv.GAME)
    piles = [z.id for z in layout.zones.values() if z.kind == "pile"]
    preset = "overhead-webcam-1080p"
    truth = bv.still_table(layout, seed)
    renderer = bv.make_renderer(layout, preset, camera_kind(preset).poses[0], seed, "aruco",
                                symbology=bv.DEFAULT_SYMBOLOGY, twin_stickers=twin)
    player = SnapshotPlayer(renderer, [truth], bv.GAME_CODE, bv.number_of, bv.Timing(), False,
                            seed, piles)
    pipeline = build_pipeline(layout, bv.GAME, bv.Numbers())
    last = None
    for index in range(bv.STILL_FRAMES):
        frame = renderer.render(player.scene(0), (), index)
        last = pipeline.process(Frame(frame.image, index, index / 30)).snapshot or last
    return truth, last, pipeline


@pytest.mark.parametrize("twin", [True, False])
def test_a_rendered_table_places_its_cards_at_their_centres(twin: bool) -> None:
    truth, last, pipeline = _settled(1000, twin)
    assert last is not None
    assert pipeline.twin_stickers is twin  # learnt from the picture, never told
    real = {c.uid: c for c in truth.cards}
    settled = {c.uid: c for c in last.cards}
    assert set(settled) <= set(real)  # nothing that is not there
    slots = [u for u in settled if not real[u].zone.endswith(("lager", "hell"))]
    assert len(slots) >= 8
    for uid in slots:
        got, want = settled[uid], real[uid]
        assert got.zone == want.zone
        # a one-sticker card's read is its centre; a twin card's, 24 mm off were it not placed
        assert math.hypot(got.x_mm - want.x_mm, got.y_mm - want.y_mm) < 6.0


def test_scan_places_a_photos_two_sticker_cards_at_their_centres(tmp_path: Path) -> None:
    """`companion scan` on one rendered photo of a Trick or Beat table whose cards carry two
    stickers: it says so, and every card sticker it reads lies in its card's zone, at the
    card's centre as the simulator laid it."""
    game = "trick-or-beat"
    layout = load_layout(game)
    truth = bv.spread_table(layout, game, 1000)
    preset = "overhead-webcam-1080p"
    renderer = bv.make_renderer(layout, preset, camera_kind(preset).poses[0], 1000, "aruco",
                                symbology=bv.DEFAULT_SYMBOLOGY, twin_stickers=True)
    piles = [z.id for z in layout.zones.values() if z.kind == "pile"]
    player = SnapshotPlayer(renderer, [truth], layout_game_code(layout), bv.number_of,
                            bv.Timing(), False, 1000, piles)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), renderer.render(player.scene(0), (), 0).image)
    report = scan_image(photo, game, "zxing")
    assert report["twin_stickers"] is True
    where = {c.uid: c for c in truth.cards}
    cards = [m for m in report["markers"] if m["kind"] == "front"]
    assert len(cards) >= 10
    for marker in cards:
        card = where[uid_of(marker["text"])]
        assert marker["mat"]["zone"] == card.zone
        if layout.zones[card.zone].kind != "pile":  # a pile's height shifts its top card
            assert math.hypot(marker["mat"]["x_mm"] - card.x_mm,
                              marker["mat"]["y_mm"] - card.y_mm) < 6.0


def uid_of(payload: str) -> str:
    """The bench's card uid ("S<number>#<copy>") of a front sticker's payload."""
    meaning = decode(payload)
    assert isinstance(meaning, FrontPayload)
    return f"S{meaning.number}#{meaning.copy}"


@settings(max_examples=40, deadline=None)
@given(x=st.floats(120, 480), y=st.floats(100, 300), angle=st.floats(0, 360))
def test_a_card_placed_at_a_sticker_moves_to_its_centre(x: float, y: float, angle: float
                                                        ) -> None:
    """Cards the tracker placed at a sticker's centre before the table was known to carry two
    stickers go to their card's centre, from the place and turn it kept for them."""
    h = camera_homography(15)
    geometry = MatGeometry.fit(corner_detections(h), LAYOUT)
    tracker = Tracker("trick-or-beat", TrackerSettings(appear_s=0.0, min_reads=1))
    sightings = []
    for k, det in enumerate(twin_stickers(h, x, y, angle)):
        at = geometry.place(det)  # as placed before: the sticker's own centre
        sightings.append(Sighting(f"C{k}#1", "card", at.x_mm, at.y_mm, at.zone, at.angle_deg))
    tracker.update(FrameObservation(0.0, sightings))
    tracker.move_cards(lambda px, py, a: (*card_centre_below(px, py, a), "moved"))
    for k in range(2):
        moved = tracker.current().card(f"C{k}#1")
        assert moved is not None and moved.zone == "moved"
        assert (moved.x_mm, moved.y_mm) == pytest.approx((x, y), abs=0.5)
