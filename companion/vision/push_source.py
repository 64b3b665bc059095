"""A frame source that others push frames into: a phone's browser sending JPEGs over the LAN.

`PushSource` has the shape of every source in `companion.vision.sources` (`read()`,
`close()`) and the `state` / `last_error` of a `ReconnectingSource`, so `FrameFeed` runs it
like a camera: while frames come it is "connected"; before the first frame, or when none came
for `stall_after_s`, it is "retrying" (the page says "reconnecting" with the reason), and
frames arriving again make it "connected" without losing the game.

Latest frame wins: the pipeline reads the newest picture; a frame pushed while the one before
was not read yet replaces it (counted in `dropped`), so a slow pipeline never builds a backlog
and never reads a stale table.

`decode_jpeg` turns a request body into a picture, or says in plain words why not
(`FrameRejected`): the size the JPEG declares is checked before any pixel is decoded, so a
small file claiming a huge picture costs nothing.
"""

from __future__ import annotations

import logging
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.vision.sources import Frame, State

log = logging.getLogger(__name__)

STALL_AFTER_S = 3.0
"""A phone that sent nothing for this long counts as dropped out (a still table still gets a
few frames a second, so three seconds is several missed frames)."""
MAX_SIDE = 4096
MIN_SIDE = 64


class FrameRejected(CompanionError):
    """A pushed frame that is not a usable JPEG (the request is answered with 400)."""


class SourceBusy(CompanionError):
    """Another device is the camera right now (the request is answered with 409)."""


@dataclass(frozen=True)
class PushStats:
    received: int
    read: int
    dropped: int
    state: State
    last_frame_age_s: float | None
    width: int
    height: int


def jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a JPEG's frame header, without decoding it; FrameRejected when
    `data` is no JPEG or its header is broken."""
    if len(data) < 4 or data[:3] != b"\xff\xd8\xff":
        raise FrameRejected("not a JPEG picture (it must start with the JPEG signature)")
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise FrameRejected("broken JPEG (a marker was expected)")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2:pos + 4])
        if length < 2:
            raise FrameRejected("broken JPEG (a segment with no length)")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if pos + 9 > len(data):
                break
            height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
            return int(width), int(height)
        if marker == 0xDA:  # the picture data began before any frame header
            break
        pos += 2 + length
    raise FrameRejected("broken JPEG (no frame header with the picture's size)")


def decode_jpeg(data: bytes, max_side: int = MAX_SIDE) -> np.ndarray:
    """The BGR picture of a JPEG body; FrameRejected (a plain reason) for anything else."""
    width, height = jpeg_size(data)
    if not (MIN_SIDE <= width <= max_side and MIN_SIDE <= height <= max_side):
        raise FrameRejected(f"a {width}x{height} picture: each side must be {MIN_SIDE} to "
                            f"{max_side} pixels")
    try:
        image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None or image.shape[:2] != (height, width):
        raise FrameRejected("broken JPEG (the picture could not be decoded)")
    return np.asarray(image)


class PushSource:
    """Frames pushed by another thread (a web request); `read()` hands out the newest.

    `read()` waits up to `wait_s` for a frame not read yet. It returns None only while the
    source is "retrying" (no frame yet, or none for `stall_after_s`) or "closed", never while
    "connected": `FrameFeed` ends on None from a connected source.
    """

    def __init__(
        self,
        description: str = "a phone's camera",
        stall_after_s: float = STALL_AFTER_S,
        wait_s: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
        on_state: Callable[[State], None] | None = None,
    ) -> None:
        self.description = description
        self.stall_after_s = stall_after_s
        self.wait_s = wait_s
        self._clock = clock
        self._on_state = on_state
        self._cond = threading.Condition()
        self._pending: np.ndarray | None = None
        self._pending_at = 0.0
        self._last_push: float | None = None
        self._start = clock()
        self._index = 0
        self.received = 0
        self.dropped = 0
        self.state: State = "retrying"
        self.last_error: str | None = "waiting for a phone to send its camera's picture"
        self._shape: tuple[int, int] = (0, 0)
        self.sender: str | None = None

    def _set_state(self, state: State) -> None:
        if state != self.state:
            self.state = state
            if self._on_state is not None:
                self._on_state(state)

    def claim(self, sender: str | None) -> None:
        """One camera at a time: SourceBusy while another `sender` (a device's address) sent
        within `stall_after_s`; a sender that went quiet that long gives way."""
        if sender is None:
            return
        with self._cond:
            if self.sender not in (None, sender) and not self._stalled(self._clock()):
                raise SourceBusy(
                    f"another device ({self.sender}) is the table's camera right now; stop it "
                    "there first", de=f"ein anderes Gerät ({self.sender}) ist gerade die Kamera "
                    "des Tisches; dort zuerst stoppen")
            self.sender = sender

    def push(self, image: np.ndarray, sender: str | None = None) -> None:
        """The newest picture (BGR or gray uint8); replaces one not read yet."""
        if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
            raise FrameRejected("a frame must be an 8-bit picture")
        self.claim(sender)
        with self._cond:
            if self.state == "closed":
                return
            now = self._clock()
            if self._pending is not None:
                self.dropped += 1
            self._pending, self._pending_at = image, now
            self._last_push = now
            self.received += 1
            self._shape = (int(image.shape[1]), int(image.shape[0]))
            self.last_error = None
            if self.state != "connected":  # said once, as ReconnectingSource says it
                log.warning("%s: pictures arriving (%dx%d)", self.description, *self._shape)
            self._set_state("connected")
            self._cond.notify_all()

    def push_jpeg(self, data: bytes, sender: str | None = None) -> np.ndarray:
        self.claim(sender)  # before decoding: a refused frame costs nothing
        image = decode_jpeg(data)
        self.push(image, sender)
        return image

    def _stalled(self, now: float) -> bool:
        return self._last_push is None or now - self._last_push > self.stall_after_s

    def read(self) -> Frame | None:
        with self._cond:
            deadline = self._clock() + self.wait_s
            while True:
                if self.state == "closed":
                    return None
                if self._pending is not None:
                    image, at = self._pending, self._pending_at
                    self._pending = None
                    frame = Frame(image, self._index, at - self._start)
                    self._index += 1
                    return frame
                now = self._clock()
                if self.state == "connected" and self._stalled(now):
                    age = now - (self._last_push or now)
                    self.last_error = (f"no picture from {self.description} for {age:.0f} s "
                                       "(is its page still open and the screen on?)")
                    log.warning("%s; waiting for it", self.last_error)
                    self._set_state("retrying")
                if self.state != "connected" and now >= deadline:
                    return None
                # connected: wait for the next frame (up to the stall limit); else a short wait
                limit = (self._last_push or now) + self.stall_after_s \
                    if self.state == "connected" else deadline
                self._cond.wait(max(0.001, min(limit - now, self.wait_s)))

    def stats(self) -> PushStats:
        with self._cond:
            now = self._clock()
            return PushStats(
                received=self.received, read=self._index, dropped=self.dropped,
                state=self.state,
                last_frame_age_s=None if self._last_push is None else now - self._last_push,
                width=self._shape[0], height=self._shape[1])

    def close(self) -> None:
        with self._cond:
            self._pending = None
            self._set_state("closed")
            self._cond.notify_all()
