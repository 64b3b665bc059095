"""Frame sources: video files, image folders, spec parsing, and reconnecting after a dropout."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.sources import (
    CaptureSource,
    Frame,
    FrameSource,
    ImageFolderSource,
    ReconnectingSource,
    SourceError,
    VideoFileSource,
    open_source,
)


def _frame(value: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    image = np.zeros((size[1], size[0], 3), np.uint8)
    image[:, :] = (value, 255 - value, 128)
    return image


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened()
    for k in range(5):
        writer.write(_frame(40 * k))
    writer.release()
    return path


def test_video_file_frames_and_clock(video: Path) -> None:
    source = open_source(str(video))
    assert isinstance(source, VideoFileSource)
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    source.close()
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.time_s for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert frames[0].image.shape == (48, 64, 3)
    assert abs(int(frames[3].image[10, 10, 0]) - 120) < 12  # MJPEG is lossy
    assert source.read() is None  # closed stays closed


def test_image_folder_in_name_order_skipping_other_files(tmp_path: Path) -> None:
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), _frame(value))
    (tmp_path / "notes.txt").write_text("not an image")
    (tmp_path / "broken.png").write_bytes(b"not a png")
    source = open_source(str(tmp_path))
    assert isinstance(source, ImageFolderSource)
    values = []
    while (frame := source.read()) is not None:
        values.append(int(frame.image[0, 0, 0]))
        assert frame.time_s == frame.index
    assert values[:2] == [10, 20] and abs(values[2] - 30) < 4  # broken.png skipped


def test_bad_specs_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="not a camera index"):
        open_source(str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match="no images"):
        open_source(str(tmp_path / "empty"))
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(SourceError, match="unknown video type"):
        open_source(str(tmp_path / "notes.txt"))
    cv2.imwrite(str(tmp_path / "one.png"), _frame(1))
    with pytest.raises(SourceError, match="single image"):
        open_source(str(tmp_path / "one.png"))
    (tmp_path / "junk.mp4").write_bytes(b"not a video")
    with pytest.raises(SourceError, match="cannot open"):
        open_source(str(tmp_path / "junk.mp4"))
    with pytest.raises(SourceError, match="empty"):
        open_source("  ")


class FakeCapture:
    """A capture that serves `frames` reads, then fails (a camera unplugged)."""

    def __init__(self, frames: int, opened: bool = True) -> None:
        self.left = frames
        self.opened = opened
        self.released = False

    def isOpened(self) -> bool:
        return self.opened

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, _frame(self.left)

    def get(self, prop: int) -> float:
        return 0.0

    def release(self) -> None:
        self.released = True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_capture_source_refuses_an_unopened_capture() -> None:
    capture = FakeCapture(3, opened=False)
    with pytest.raises(SourceError, match="cannot open fake"):
        CaptureSource(capture, "fake")
    assert capture.released


def test_reconnect_after_dropout_with_backoff() -> None:
    # opens: 1st gives 2 frames then drops; 2nd and 3rd attempts fail; 4th gives 3 frames.
    plan: list[int | None] = [2, None, None, 3]
    captures: list[FakeCapture] = []
    states: list[str] = []

    def opener() -> FrameSource:
        frames = plan.pop(0)
        if frames is None:
            raise SourceError("camera 0 not found")
        captures.append(FakeCapture(frames))
        return CaptureSource(captures[-1], "fake camera")

    clock = Clock()
    source = ReconnectingSource(opener, initial_backoff_s=1.0, max_backoff_s=3.0, clock=clock,
                                on_state=states.append)
    assert source.state == "connected"
    got: list[Frame | None] = [source.read(), source.read(), source.read()]
    assert [f.index for f in got[:2] if f is not None] == [0, 1]
    assert got[2] is None and source.state == "retrying"
    assert captures[0].released
    assert source.read() is None  # inside the 1 s backoff: no attempt
    clock.now += 1.0
    assert source.read() is None  # attempt 2 fails, backoff doubles to 2 s
    assert "not found" in (source.last_error or "")
    clock.now += 1.9
    assert source.read() is None and len(plan) == 2  # still waiting
    clock.now += 0.2
    assert source.read() is None  # attempt 3 fails, backoff capped at 3 s
    clock.now += 3.0
    frame = source.read()  # attempt 4 succeeds
    assert frame is not None and frame.index == 2  # indexes continue across reconnects
    assert source.state == "connected"
    assert states == ["connected", "retrying", "connected"]
    assert source.failures == 3
    source.close()
    assert source.state == "closed" and source.read() is None
    assert captures[-1].released


def test_reconnect_never_raises_from_a_crashing_read() -> None:
    class Exploding:
        def read(self) -> Frame | None:
            raise RuntimeError("driver crashed")

        def close(self) -> None:
            raise RuntimeError("and cannot close")

    clock = Clock()
    source = ReconnectingSource(Exploding, clock=clock)
    assert source.read() is None
    assert source.state == "retrying" and "driver crashed" in (source.last_error or "")


def test_first_open_failure_is_retried_not_raised() -> None:
    calls = []

    def opener() -> FrameSource:
        calls.append(1)
        raise SourceError("no such camera")

    clock = Clock()
    source = ReconnectingSource(opener, initial_backoff_s=0.5, clock=clock)
    assert source.state == "retrying" and source.read() is None
    clock.now += 0.5
    source.read()
    assert len(calls) == 2


def test_a_missing_camera_is_said_once_and_again_only_when_it_changes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`serve --camera 5` with no camera 5: the terminal says so once, not every retry; a new
    reason is said again, and so is the camera coming back."""
    reasons = ["no such camera"] * 6 + ["camera busy"] * 3
    images = iter([_frame(10)])

    class Opened:
        def read(self) -> Frame | None:
            image = next(images, None)
            return None if image is None else Frame(image, 0, 0.0)

        def close(self) -> None:
            pass

    def opener() -> FrameSource:
        if reasons:
            raise SourceError(reasons.pop(0))
        return Opened()  # type: ignore[return-value]

    clock = Clock()
    caplog.set_level("DEBUG", logger="companion.vision.sources")
    source = ReconnectingSource(opener, initial_backoff_s=0.5, max_backoff_s=2.0, clock=clock)
    frames = []
    for _ in range(40):
        clock.now += 2.0
        frame = source.read()
        if frame is not None:
            frames.append(frame)
    said = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(frames) == 1 and source.failures > 20
    assert said[0].startswith("frame source down (SourceError: no such camera)")
    assert said[1].startswith("frame source down (SourceError: camera busy)")
    assert said[2] == "frame source back after 9 failed tries"
    # the one frame read, then every read fails (the device opens, gives nothing): said once
    assert said[3].startswith("frame source down (read returned no frame)")
    assert len(said) == 4, said
