"""Where frames come from: a webcam, a video file, a folder of images, or a network stream.

Every source has the same two-method shape (`read() -> Frame | None`, `close()`), so the
pipeline never knows which one it runs on. `read()` returns None when no frame is available
(end of a file, a camera that dropped out). Live sources are wrapped in `ReconnectingSource`,
which reopens them with backoff and reports its state instead of raising into the pipeline.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.safeio import check_image_file

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mjpeg", ".mjpg")
STREAM_SCHEMES = ("http://", "https://", "rtsp://", "rtsps://", "rtmp://", "udp://", "tcp://")


class SourceError(CompanionError):
    """A frame source that cannot be opened (bad spec, missing file, no such camera)."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One image (BGR or grayscale uint8), its running index and its time in seconds."""

    image: np.ndarray
    index: int
    time_s: float


# ----- frames kept as JPEG ----------------------------------------------------------------------
# Decoding a 1080p JPEG costs 4-6 ms, a sixth of one core at 30 fps before anything is read.
# With the motion gate on, most frames of a still table are only compared with the last one
# read: for them the JPEG decoder's own 1/8 scaling (it keeps each 8 x 8 block's mean, the
# coefficient it has anyway) gives the cue copy for a third of the cost, and the full picture
# is never made. A frame the pipeline reads in full is decoded once, when first asked.

REDUCED_FLAGS = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                 8: cv2.IMREAD_REDUCED_COLOR_8}
JPEG_START = b"\xff\xd8"


class JpegDecodeError(SourceError):
    """A frame's bytes that are not a JPEG picture."""


class EncodedFrame(Frame):
    """A `Frame` whose `image` is decoded from `jpeg` when first asked for (then kept).

    Built like a Frame from a picture too (`dataclasses.replace(frame, image=...)` does, e.g.
    `MirroredSource`): then it is that picture and `jpeg` is None."""

    jpeg: np.ndarray | None

    def __init__(self, image: np.ndarray | None = None, index: int = 0, time_s: float = 0.0,
                 jpeg: np.ndarray | bytes | None = None) -> None:
        if image is None and jpeg is None:
            raise JpegDecodeError("an encoded frame needs its JPEG bytes or its picture")
        data = None if jpeg is None else np.frombuffer(jpeg, np.uint8) \
            if isinstance(jpeg, bytes) else np.asarray(jpeg, np.uint8).ravel()
        if data is not None and bytes(data[:2]) != JPEG_START:
            raise JpegDecodeError(f"frame {index} is not a JPEG picture")
        object.__setattr__(self, "jpeg", data)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "time_s", time_s)
        object.__setattr__(self, "_decoded", image)

    @property
    def image(self) -> np.ndarray:
        decoded: np.ndarray | None = self.__dict__["_decoded"]
        if decoded is None:
            assert self.jpeg is not None
            decoded = _decode(self.jpeg, cv2.IMREAD_COLOR, self.index)
            object.__setattr__(self, "_decoded", decoded)
        return decoded

    @property
    def decoded(self) -> bool:
        """Whether the full picture has been made (tests and the benchmark ask)."""
        return self.__dict__["_decoded"] is not None

    def reduced(self, factor: int) -> np.ndarray | None:
        """The picture at 1/`factor` size straight from the JPEG decoder (None: no JPEG kept,
        or a factor the decoder cannot scale by). From the JPEG even when the full picture
        was made: every cue copy of a clip comes the same way (the frozen-picture check
        compares them exactly)."""
        flag = REDUCED_FLAGS.get(factor)
        if self.jpeg is None or flag is None:
            return None
        return _decode(self.jpeg, flag, self.index)


def _decode(data: np.ndarray, flag: int, index: int) -> np.ndarray:
    image = cv2.imdecode(data, flag)
    if image is None:
        raise JpegDecodeError(f"frame {index}: its JPEG does not decode")
    return np.asarray(image)


def is_jpeg_buffer(data: np.ndarray) -> bool:
    """Whether a capture's frame is a JPEG's bytes (a 1-row or flat uint8 buffer starting
    with the JPEG start marker) rather than a picture."""
    return (data.dtype == np.uint8 and data.size > 2 and (data.ndim == 1 or (
        data.ndim == 2 and data.shape[0] == 1)) and bytes(data.ravel()[:2]) == JPEG_START)


def renumbered(frame: Frame, index: int) -> Frame:
    """`frame` with another index; a frame kept as JPEG stays one (not decoded)."""
    if isinstance(frame, EncodedFrame) and frame.jpeg is not None:
        return EncodedFrame(frame.__dict__["_decoded"], index, frame.time_s, frame.jpeg)
    return Frame(frame.image, index, frame.time_s)


def reduced_copy(frame: Any, factor: int) -> np.ndarray | None:
    """A frame's picture at 1/`factor` size straight from its JPEG, when it is kept as one
    (`EncodedFrame`; None otherwise: the caller shrinks the picture)."""
    reduced = getattr(frame, "reduced", None)
    return reduced(factor) if callable(reduced) else None


@runtime_checkable
class FrameSource(Protocol):
    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


class Capture(Protocol):
    """The part of cv2.VideoCapture the sources use (tests pass fakes)."""

    def isOpened(self) -> bool: ...

    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def get(self, prop: int) -> float: ...

    def release(self) -> None: ...


CaptureFactory = Callable[[], Capture]


class CaptureSource:
    """A source over a cv2.VideoCapture-like object (camera, file or stream).

    Files carry their own clock (frame index / fps); live captures use the wall clock since
    opening.
    """

    def __init__(self, capture: Capture, description: str, file_clock: bool = False,
                 encoded: bool = False) -> None:
        """`encoded`: the capture gives each frame's JPEG bytes (OpenCV's raw stream mode, or
        a camera's Motion-JPEG buffers, set by the caller); such frames come as
        `EncodedFrame`s, decoded when first read, and a frame that comes as a picture anyway
        (a backend that ignores the setting) as it is."""
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"cannot open {description}")
        self.description = description
        self._capture: Capture | None = capture
        self._file_clock = file_clock
        fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self._fps = fps if 0.0 < fps < 1000.0 else 30.0
        self._index = 0
        self._start = time.monotonic()
        self.encoded = encoded

    def read(self) -> Frame | None:
        if self._capture is None:
            return None
        ok, image = self._capture.read()
        if not ok or image is None:
            return None
        index = self._index
        self._index += 1
        stamp = index / self._fps if self._file_clock else time.monotonic() - self._start
        if self.encoded and is_jpeg_buffer(image):
            return EncodedFrame(index=index, time_s=stamp, jpeg=image)
        return Frame(image, index, stamp)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def _open_quietly(target: int | str) -> cv2.VideoCapture:
    """OpenCV's own warnings while opening (backend probing, "can't open camera by index")
    are for its developers, as are FFmpeg's ("Connection refused" on a stream); a capture
    that does not open gets our plain error instead. A user's own OPENCV_FFMPEG_LOGLEVEL wins."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    try:
        return cv2.VideoCapture(target)
    finally:
        cv2.utils.logging.setLogLevel(level)


class CameraSource(CaptureSource):
    """A local webcam by index; asks for 1080p (DESIGN.md: 720p is too coarse for stickers).

    `encoded`: asks the camera for Motion-JPEG (what USB webcams send at 1080p and 30 fps)
    and for its buffers undecoded (`CAP_PROP_CONVERT_RGB` 0, honoured by OpenCV's V4L2
    reader on Linux): frames come as `EncodedFrame`s, and with the motion gate most frames of
    a still table are never decoded whole (OpenCV would otherwise decode each, 4-6 ms at
    1080p). A camera or backend that gives pictures anyway is read as before."""

    def __init__(self, index: int, encoded: bool = False, capture: Capture | None = None
                 ) -> None:
        """`capture`: an opened capture to use instead of opening camera `index` (tests)."""
        opened: Any = capture if capture is not None else _open_quietly(index)
        if encoded:
            opened.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        opened.set(cv2.CAP_PROP_FRAME_WIDTH, 1920)
        opened.set(cv2.CAP_PROP_FRAME_HEIGHT, 1080)
        raw = encoded and _fourcc(opened) == "MJPG" and opened.set(cv2.CAP_PROP_CONVERT_RGB, 0)
        super().__init__(opened, f"camera {index}", encoded=bool(raw))


class VideoFileSource(CaptureSource):
    """A recorded video; its frame times come from the file's frame rate.

    `encoded`: a Motion-JPEG file's frames come as their JPEG bytes (`EncodedFrame`), decoded
    only when read in full (with the motion gate, most frames of a still table never are);
    other codecs are decoded as usual."""

    def __init__(self, path: str | Path, encoded: bool = False) -> None:
        path = Path(path)
        if not path.is_file():
            raise SourceError(f"video file not found: {path}")
        capture = _open_quietly(str(path))
        raw = encoded and _fourcc(capture) == "MJPG" and capture.set(cv2.CAP_PROP_FORMAT, -1)
        super().__init__(capture, f"video file {path}", file_clock=True, encoded=bool(raw))


def _fourcc(capture: Capture) -> str:
    code = int(capture.get(cv2.CAP_PROP_FOURCC))
    return "".join(chr((code >> (8 * k)) & 0xFF) for k in range(4))


class StreamSource(CaptureSource):
    """An HTTP MJPEG or RTSP stream (e.g. a phone camera app) through OpenCV's FFmpeg backend."""

    def __init__(self, url: str) -> None:
        super().__init__(_open_quietly(url), f"stream {url}")


class ImageFolderSource:
    """The images of a folder in name order, one frame each, at a nominal `fps`."""

    def __init__(self, path: str | Path, fps: float = 1.0) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise SourceError(f"image folder not found: {self.path}")
        self._files = sorted(
            p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()
        )
        if not self._files:
            raise SourceError(
                f"no images in {self.path} (looked for {', '.join(IMAGE_SUFFIXES)})"
            )
        self._fps = fps
        self._next = 0
        self._closed = False

    def read(self) -> Frame | None:
        while not self._closed and self._next < len(self._files):
            index = self._next
            self._next += 1
            path = self._files[index]
            check_image_file(path)  # a decompression bomb is refused before decoding
            try:
                image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            except cv2.error as exc:  # OpenCV's own size limit
                raise SourceError(f"cannot read image {path}:"
                                  f" {str(exc).strip().splitlines()[-1]}") from None
            if image is None:
                log.warning("skipping unreadable image %s", path)
                continue
            if image.dtype != np.uint8:
                image = cv2.convertScaleAbs(image, alpha=255.0 / max(float(image.max()), 1.0))
            return Frame(image, index, index / self._fps)
        return None

    def close(self) -> None:
        self._closed = True


def read_image(path: str | Path, gray: bool = True) -> np.ndarray:
    """One still image as uint8 (grayscale by default); Pillow covers formats OpenCV lacks."""
    path = Path(path)
    if not path.is_file():
        raise SourceError(f"image not found: {path}")
    check_image_file(path)
    flag = cv2.IMREAD_GRAYSCALE if gray else cv2.IMREAD_COLOR
    try:
        image = cv2.imread(str(path), flag)
    except cv2.error as exc:  # OpenCV's own size limit, a broken file
        raise SourceError(f"cannot read image {path}: {str(exc).strip().splitlines()[-1]}"
                          ) from None
    if image is not None:
        return np.asarray(image)
    try:
        from PIL import Image

        with Image.open(path) as picture:
            converted = np.asarray(picture.convert("L" if gray else "RGB"))
    except (ImportError, OSError) as exc:
        raise SourceError(f"cannot read image {path}: {exc}") from exc
    return converted if gray else np.asarray(cv2.cvtColor(converted, cv2.COLOR_RGB2BGR))


def open_source(spec: str | int, encoded: bool = False) -> FrameSource:
    """Open a source from a command-line spec.

    An int or digits is a camera index; a URL (http, rtsp, ...) a stream; a folder an image
    folder; a file with a video suffix a video; anything else is an error saying which.
    `encoded`: a Motion-JPEG video file or camera gives its frames undecoded
    (`VideoFileSource`, `CameraSource`).
    """
    if isinstance(spec, int) or (isinstance(spec, str) and re.fullmatch(r"\d{1,2}", spec)):
        return CameraSource(int(spec), encoded)
    if not isinstance(spec, str) or not spec.strip():
        raise SourceError(f"empty or invalid frame source {spec!r}")
    if spec.lower().startswith(STREAM_SCHEMES):
        return StreamSource(spec)
    path = Path(spec).expanduser()
    if path.is_dir():
        return ImageFolderSource(path)
    if path.is_file():
        if path.suffix.lower() in VIDEO_SUFFIXES:
            return VideoFileSource(path, encoded)
        if path.suffix.lower() in IMAGE_SUFFIXES:
            raise SourceError(
                f"{path} is a single image; use its folder as a source, or `companion scan`"
            )
        raise SourceError(
            f"{path}: unknown video type {path.suffix!r} (known: {', '.join(VIDEO_SUFFIXES)})"
        )
    raise SourceError(
        f"frame source {spec!r} is not a camera index, a stream URL, a folder or a video file"
    )


class MirroredSource:
    """Turns every frame of `source` back from a mirror image (a laptop's mirror clip).

    Frames keep their type and fields (`dataclasses.replace`), so a simulator's frames with
    truth attached stay usable.
    """

    def __init__(self, source: FrameSource) -> None:
        self.source = source

    def read(self) -> Frame | None:
        frame = self.source.read()
        if frame is None:
            return None
        return replace(frame, image=np.ascontiguousarray(cv2.flip(frame.image, 1)))

    def close(self) -> None:
        self.source.close()

    def __getattr__(self, name: str) -> object:  # state, last_error of a ReconnectingSource
        if name == "source":
            raise AttributeError(name)
        return getattr(self.source, name)


State = Literal["connected", "retrying", "closed"]


class ReconnectingSource:
    """Keeps a live source alive: a failed read closes it and reopens it with backoff.

    `read()` never raises: while the source is down it returns None and `state` is
    "retrying"; after a successful reopen it is "connected" again. Frame indexes keep counting
    across reconnects, so the pipeline sees one continuous stream.
    """

    def __init__(
        self,
        opener: Callable[[], FrameSource],
        initial_backoff_s: float = 0.5,
        max_backoff_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        on_state: Callable[[State], None] | None = None,
    ) -> None:
        self._opener = opener
        self._initial = initial_backoff_s
        self._max = max_backoff_s
        self._clock = clock
        self._on_state = on_state
        self._source: FrameSource | None = None
        self._backoff = initial_backoff_s
        self._next_try = 0.0
        self._index = 0
        self.state: State = "retrying"
        self.failures = 0
        self.last_error: str | None = None
        self._said: str | None = None  # the failure the terminal was last told about
        self._try_open()

    def _set_state(self, state: State) -> None:
        if state != self.state:
            self.state = state
            if self._on_state is not None:
                self._on_state(state)

    def _try_open(self) -> None:
        try:
            self._source = self._opener()
        except Exception as exc:  # any failure to open is a reason to retry, never to crash
            self._fail(f"{type(exc).__name__}: {exc}")
            return
        self._backoff = self._initial
        self._set_state("connected")

    def _fail(self, reason: str) -> None:
        self.failures += 1
        self.last_error = reason
        # the terminal hears of a failure once, and again only when the reason changes (a
        # missing camera fails the same way every few seconds for as long as it is missing)
        if reason != self._said:
            log.warning("frame source down (%s); retrying quietly until it changes", reason)
            self._said = reason
        else:
            log.debug("frame source still down (%s); retrying in %.1f s", reason, self._backoff)
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # closing a broken capture may fail too
                log.debug("close after failure failed", exc_info=True)
            self._source = None
        self._next_try = self._clock() + self._backoff
        self._backoff = min(self._backoff * 2.0, self._max)
        self._set_state("retrying")

    def read(self) -> Frame | None:
        if self.state == "closed":
            return None
        if self._source is None:
            if self._clock() < self._next_try:
                return None
            self._try_open()
            if self._source is None:
                return None
        try:
            frame = self._source.read()
        except Exception as exc:  # a driver error must not reach the pipeline
            frame = None
            reason = f"{type(exc).__name__}: {exc}"
        else:
            reason = "read returned no frame"
        if frame is None:
            self._fail(reason)
            return None
        if self._said is not None:  # a picture again, not merely an opened device
            log.warning("frame source back after %d failed tries", self.failures)
            self._said = None
        out = renumbered(frame, self._index)
        self._index += 1
        return out

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None
        self._set_state("closed")
