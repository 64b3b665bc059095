"""`companion join`: a camera on another device sends its settled readings (never video) to a
served table, which fuses them (companion/vision/join.py, companion/server/cameras.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.layouts import load_layout
from companion.server.session import LiveSession
from companion.snapshot import SeenCard, TableSnapshot
from companion.vision.join import JoinRefused, Sender, reading_payload, run_join
from companion.vision.multicam import CornerAnchors, RemoteCameras
from tests.camera_fakes import near
from tests.server.conftest import LAN, make_app

GAME = "creature-crush"
PIN = "424242"



def transport(client: FlaskClient) -> Any:
    def send(method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        res = client.open(path, method=method, json=body, headers=headers)
        return res.status_code, res.get_json()

    return send


@pytest.fixture
def served(session: LiveSession) -> tuple[Flask, list[Any], list[float]]:
    app = make_app(session, pin=PIN)
    fused: list[Any] = []
    now = [100.0]
    app.config["CAMERA_FUSED"] = fused.append
    app.extensions["companion.cameras"] = RemoteCameras(GAME, load_layout(GAME),
                                                        lambda: now[0])
    return app, fused, now


def lan(app: Flask) -> FlaskClient:
    client = app.test_client()
    client.environ_base.update(LAN)
    return client


def card(uid: str, zone: str, y: float) -> SeenCard:
    return SeenCard(uid, zone, x_mm=230.0, y_mm=y)


def test_two_joined_laptops_are_fused_and_one_that_goes_quiet_leaves_its_half(served) -> None:
    app, fused, now = served
    layout = load_layout(GAME)
    anchors = CornerAnchors(layout)
    p1 = Sender(transport(lan(app)), PIN, "Ada's laptop")
    p2 = Sender(transport(lan(app)), PIN, "Bo's laptop")
    assert p1.game() == GAME
    said: list[str] = []
    assert p1.send(TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),)), near(400),
                   anchors, layout, lambda text, err=False: said.append(text))
    assert p2.send(TableSnapshot(GAME, cards=(card("CC-004#1", "p2.C3", 42),)), near(0),
                   anchors, layout, lambda text, err=False: None)
    assert {c.uid for c in fused[-1].snapshot.cards} == {"CC-001#1", "CC-004#1"}
    assert not fused[-1].unwatched_halves
    assert said == ["[Ada's laptop] sending to the table: it sees with 1 camera(s), "
                    "player 2's half not watched"]
    now[0] += 10  # Bo's laptop is not heard from again
    p1.send(TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),)), near(400), anchors,
            layout, lambda text, err=False: None)
    assert [c.uid for c in fused[-1].snapshot.cards] == ["CC-001#1"]
    status = app.test_client().get("/api/cameras").get_json()
    assert status["unwatched"] == ["player 2's half"]
    assert [(c["camera"], c["live"]) for c in status["cameras"]] == [
        ("Ada's laptop", True), ("Bo's laptop", False)]


def test_only_readings_are_sent_never_a_picture() -> None:
    layout = load_layout(GAME)
    snap = TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),))
    payload = reading_payload("cam", snap, near(400), CornerAnchors(layout), layout)
    assert set(payload) == {"camera", "snapshot", "clarity", "anchors"}
    assert TableSnapshot.from_dict(payload["snapshot"]) == snap
    assert len(payload["clarity"]) == 9 and len(payload["clarity"][0]) == 13  # 50 mm grid
    lost = reading_payload("cam", snap, None, CornerAnchors(layout), layout)
    assert lost["snapshot"] is None and lost["clarity"] is None  # no mat: nothing to say


def test_a_wrong_pin_or_another_game_is_refused(served) -> None:
    app, fused, _ = served
    layout = load_layout(GAME)
    wrong = Sender(transport(lan(app)), "111111", "cam")
    with pytest.raises(JoinRefused, match="PIN"):
        wrong.send(None, near(400), CornerAnchors(layout), layout)
    other = Sender(transport(lan(app)), PIN, "cam")
    with pytest.raises(JoinRefused, match="this table plays creature-crush"):
        other.send(TableSnapshot("trick-or-beat"), near(400), CornerAnchors(layout), layout)
    assert fused == []


@pytest.mark.parametrize("body, said", [
    ({"snapshot": None}, "name the camera"),
    ({"camera": "c", "clarity": [[1, "x"]]}, "clarity must be rows of numbers"),
    ({"camera": "c", "anchors": [[1, 2, 3]]}, "anchors must be"),
    ({"camera": "c", "snapshot": {"game": GAME, "cards": [{"uid": "a", "zone": "z",
                                                           "x_mm": "far"}]}},
     "places and confidences must be numbers"),
    ({"camera": "c", "snapshot": {"game": GAME, "cards": [{"uid": "a"}]}}, "not a table"),
])
def test_bad_readings_are_refused_plainly(served, body: dict[str, Any], said: str) -> None:
    app, fused, _ = served
    res = lan(app).post("/api/cameras/readings", json=body, headers={"X-Companion-PIN": PIN})
    assert res.status_code == 400 and said in res.get_json()["error"]
    assert fused == []


def test_the_joined_eye_sends_each_new_table_and_a_heartbeat() -> None:
    """Frames through a stand-in pipeline: a settled table is sent at once, a still table
    again every 2 s of the sender's clock, and nothing while the mat is not found."""
    layout = load_layout(GAME)
    clock = [0.0]
    posted: list[dict[str, Any]] = []

    def send(method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        posted.append(body)
        return 200, {"live": ["cam"], "unwatched": []}

    table = TableSnapshot(GAME, cards=(card("CC-001#1", "p1.C1", 358),))
    updates = [SimpleNamespace(snapshot=table if k == 1 else None, detections=())
               for k in range(8)]
    frames = iter(range(8))
    source = SimpleNamespace(read=lambda: next(frames, None), close=lambda: None)
    def process(frame: int) -> Any:
        clock[0] += 0.5  # 2 frames a second
        return updates[frame]

    pipeline = SimpleNamespace(geometry=near(400), process=process)
    sender = Sender(send, PIN, "cam", clock=lambda: clock[0])
    assert run_join(source, pipeline, layout, sender, echo=lambda *a, **k: None) == 8
    # frame 0: the first reading (no table yet), frame 1: the new table, then every 2 s
    assert [p["snapshot"] is not None for p in posted] == [False, True, True]
    assert sender.sent == 3
