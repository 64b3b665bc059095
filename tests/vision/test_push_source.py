"""The push source (a phone's frames): latest frame wins, a stop in sending is a drop-out,
frames again reconnect; JPEG bodies are checked before any pixel is decoded."""

from __future__ import annotations

import struct
import threading

import cv2
import numpy as np
import pytest

from companion.vision.push_source import FrameRejected, PushSource, decode_jpeg, jpeg_size
from companion.vision.sources import FrameSource


def picture(value: int, w: int = 160, h: int = 120) -> np.ndarray:
    return np.full((h, w, 3), value, dtype=np.uint8)


def jpeg(image: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", image)
    assert ok
    return bytes(buf)


def test_it_is_a_frame_source_that_waits_for_the_first_frame() -> None:
    source = PushSource(wait_s=0.01)
    assert isinstance(source, FrameSource)
    assert source.state == "retrying" and "waiting" in (source.last_error or "")
    assert source.read() is None  # nothing yet: the feed shows "reconnecting", never ends


def test_latest_frame_wins_and_the_backlog_is_dropped() -> None:
    source = PushSource(wait_s=0.01)
    for value in (10, 20, 30):
        source.push(picture(value))
    frame = source.read()
    assert frame is not None and int(frame.image[0, 0, 0]) == 30 and frame.index == 0
    assert source.stats().received == 3 and source.stats().dropped == 2
    source.push(picture(40))
    second = source.read()
    assert second is not None and second.index == 1 and int(second.image[0, 0, 0]) == 40
    assert second.time_s >= frame.time_s
    assert source.state == "connected"


def test_read_waits_for_a_frame_pushed_from_another_thread() -> None:
    source = PushSource(stall_after_s=5.0)
    source.push(picture(1))
    assert source.read() is not None
    pusher = threading.Timer(0.05, lambda: source.push(picture(2)))
    pusher.start()
    frame = source.read()  # connected: waits for the next frame instead of returning None
    pusher.join()
    assert frame is not None and int(frame.image[0, 0, 0]) == 2


def test_a_phone_that_stops_sending_is_a_dropped_camera_and_comes_back() -> None:
    states: list[str] = []
    source = PushSource(stall_after_s=0.1, wait_s=0.02, on_state=states.append)
    source.push(picture(1))
    assert source.read() is not None
    assert source.read() is None  # nothing for longer than the stall limit
    assert source.state == "retrying" and "no picture" in (source.last_error or "")
    source.push(picture(2))
    frame = source.read()
    assert frame is not None and source.state == "connected" and frame.index == 1
    assert states == ["connected", "retrying", "connected"]


def test_close_ends_reading_and_ignores_later_frames() -> None:
    source = PushSource(wait_s=0.01)
    source.push(picture(1))
    source.close()
    source.push(picture(2))
    assert source.read() is None and source.state == "closed"


def test_the_feed_runs_it_like_a_camera() -> None:
    """FrameFeed: "reconnecting" while no phone sends, frames read once one does."""
    from companion.server.feeds import FrameFeed

    class Pipeline:
        def process(self, frame: object) -> object:
            from types import SimpleNamespace

            stats = SimpleNamespace(fps=1.0, markers_seen=0, calibration_ok=False,
                                    cards_seen=0, frame_ms=1.0)
            return SimpleNamespace(stats=stats, snapshot=None, detections=(), image=None)

    class Session:
        def __init__(self) -> None:
            self.statuses: list[str] = []
            self.health = SimpleNamespace(calibrated=False)
            self.second_look_s = 0.0

        def camera(self, status: str, **_: object) -> None:
            self.statuses.append(status)

        def camera_time(self, _t: float) -> None: ...

        def flush(self) -> None: ...

    from types import SimpleNamespace

    source = PushSource(stall_after_s=0.2, wait_s=0.02)
    feed = FrameFeed(source, Pipeline())
    session = Session()
    stop = threading.Event()
    thread = threading.Thread(target=feed.run, args=(session, stop))
    thread.start()
    try:
        for _ in range(500):
            if "reconnecting" in session.statuses:
                break
            stop.wait(0.01)
        source.push(picture(5))
        for _ in range(500):
            if feed.frames:
                break
            stop.wait(0.01)
    finally:
        stop.set()
        thread.join(5)
    assert session.statuses[0] == "reconnecting" and "ok" in session.statuses
    assert feed.frames == 1 and session.statuses[-1] == "stopped"


def test_a_jpeg_is_decoded_and_its_size_read_from_the_header() -> None:
    data = jpeg(picture(90, 320, 200))
    assert jpeg_size(data) == (320, 200)
    image = decode_jpeg(data)
    assert image.shape == (200, 320, 3)


@pytest.mark.parametrize("data, said", [
    (b"", "not a JPEG"),
    (b"\x89PNG\r\n\x1a\n" + b"0" * 100, "not a JPEG"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "broken JPEG"),
    (b"\xff\xd8\xff\xe0\x00\x01", "broken JPEG"),
    (b"\xff\xd8\xffjunkjunkjunk", "broken JPEG"),
])
def test_what_is_no_jpeg_is_said_plainly(data: bytes, said: str) -> None:
    with pytest.raises(FrameRejected, match=said):
        decode_jpeg(data)


def test_a_huge_declared_size_is_refused_before_decoding() -> None:
    data = bytearray(jpeg(picture(90, 320, 200)))
    pos = data.find(b"\xff\xc0")
    data[pos + 5:pos + 9] = struct.pack(">HH", 60000, 60000)
    with pytest.raises(FrameRejected, match="60000x60000"):
        decode_jpeg(bytes(data))
    with pytest.raises(FrameRejected, match="16x16"):
        decode_jpeg(jpeg(picture(1, 16, 16)))


def test_a_cut_off_jpeg_is_broken_not_a_crash() -> None:
    data = jpeg(np.random.default_rng(1).integers(0, 255, (240, 320, 3), dtype=np.uint8))
    with pytest.raises(FrameRejected, match="broken JPEG"):
        decode_jpeg(data[: len(data) // 3])


def test_one_device_at_a_time_and_a_quiet_one_gives_way() -> None:
    from companion.vision.push_source import SourceBusy

    source = PushSource(stall_after_s=0.1, wait_s=0.01)
    source.push(picture(1), sender="192.168.1.20")
    with pytest.raises(SourceBusy, match=r"192\.168\.1\.20"):
        source.push_jpeg(jpeg(picture(2)), sender="192.168.1.21")
    source.push(picture(3), sender="192.168.1.20")
    assert source.stats().received == 2
    threading.Event().wait(0.15)  # the first went quiet past the stall limit
    source.push_jpeg(jpeg(picture(4)), sender="192.168.1.21")
    assert source.sender == "192.168.1.21"
