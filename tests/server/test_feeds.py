"""Feeds: a camera that drops out keeps the game and shows "reconnecting"; camera images."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np
from flask.testing import FlaskClient

from companion.server.feeds import FeedRunner, FrameFeed, SnapshotFeed
from companion.server.security import needs_pin, new_pin
from companion.server.session import LiveSession
from tests.server.fakes import table


@dataclass
class Frame:
    image: Any
    index: int
    time_s: float


class FlakySource:
    """Frames, then a dropout (None while "retrying"), then frames again, then the end."""

    def __init__(self, plan: list[str]) -> None:
        self.plan = plan
        self.state = "connected"
        self.last_error = ""
        self.seen: list[str] = []

    def read(self) -> Frame | None:
        if not self.plan:
            self.state = "closed"
            return None
        step = self.plan.pop(0)
        self.state = "retrying" if step == "drop" else "connected"
        self.last_error = "USB unplugged" if step == "drop" else ""
        if step == "drop":
            return None
        return Frame(np.zeros((48, 64, 3), np.uint8), len(self.plan), 0.0)

    def close(self) -> None:
        self.state = "closed"


class ScriptedPipeline:
    """Emits the given snapshot at frame n (a stand-in for detection and tracking)."""

    def __init__(self, at: dict[int, Any], statuses: list[str]) -> None:
        self.at = at
        self.count = 0
        self.statuses = statuses

    def process(self, frame: Any) -> Any:
        self.count += 1
        stats = SimpleNamespace(fps=30.0, markers_seen=5, cards_seen=1, calibration_ok=True,
                                frame_ms=4.0)
        return SimpleNamespace(snapshot=self.at.get(self.count), stats=stats, detections=())


def test_dropout_keeps_the_game_and_reports_reconnecting(session: LiveSession) -> None:
    statuses: list[str] = []
    original = session.camera

    def spy(status: str, **kw: Any) -> None:
        statuses.append(status)
        original(status, **kw)

    session.camera = spy  # type: ignore[method-assign,assignment]
    source = FlakySource(["f", "f", "drop", "drop", "f", "f"])
    pipeline = ScriptedPipeline({1: table(), 4: table(("T1#1", "p1.A1"))}, statuses)
    FrameFeed(source, pipeline).run(session, threading.Event())
    changes = [s for i, s in enumerate(statuses) if i == 0 or s != statuses[i - 1]]
    assert changes == ["ok", "reconnecting", "ok", "stopped"]
    assert session.state()["table"]["cards"][0]["uid"] == "T1#1"
    camera_events = [e.payload["status"] for e in session.store.events(session.game_id)
                     if e.kind == "camera"]
    assert camera_events[:3] == ["ok", "reconnecting", "ok"]
    assert camera_events[-1] == "stopped"
    assert session.latest_frame() is not None  # a JPEG with overlays for the camera view


def test_snapshot_feed_runs_in_a_thread(session: LiveSession) -> None:
    runner = FeedRunner(SnapshotFeed([table(), table(("T1#1", "p1.A1"))]), session).start()
    runner.join(5)
    assert not runner.alive and runner.error is None
    assert [e.kind for e in session.store.events(session.game_id)][-2:] == ["move", "camera"]


def test_camera_image_endpoints(client: FlaskClient, session: LiveSession) -> None:
    assert client.get("/calibration/frame.jpg").status_code == 503
    session.camera("ok", frame_jpeg=b"\xff\xd8fake-jpeg\xff\xd9")
    res = client.get("/calibration/frame.jpg")
    assert res.status_code == 200 and res.data.startswith(b"\xff\xd8")
    assert client.get("/calibration/").status_code == 200
    stream = client.get("/calibration/stream.mjpg", buffered=False)
    parts = iter(stream.response)
    assert next(parts) == b"--frame\r\n"
    first = next(parts)
    assert b"Content-Type: image/jpeg" in first and b"fake-jpeg" in first
    assert first.endswith(b"\r\n--frame\r\n")  # complete as soon as it arrives
    stream.close()


def test_pin_only_off_localhost() -> None:
    assert not needs_pin("127.0.0.1") and not needs_pin("localhost")
    assert needs_pin("0.0.0.0") and needs_pin("192.168.1.20")
    pin = new_pin()
    assert len(pin) == 6 and pin.isdigit()


def test_keyframes_are_large_enough_to_read(session: LiveSession) -> None:
    """A 1080p camera's keyframe is kept 960 px wide: card names stay readable in review."""
    import cv2

    class HighRes(FlakySource):
        def read(self) -> Any:
            frame = super().read()
            return None if frame is None else Frame(
                np.full((1080, 1920, 3), 80, np.uint8), frame.index, frame.time_s)

    pipeline = ScriptedPipeline({1: table(), 2: table(("T1#1", "p1.A1"))}, [])
    FrameFeed(HighRes(["f", "f", "f"]), pipeline).run(session, threading.Event())
    seqs = session.store.keyframe_seqs(session.game_id)
    assert seqs
    jpeg = session.store.keyframe(session.game_id, seqs[0])
    assert jpeg is not None
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[1] >= 960
