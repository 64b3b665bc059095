"""Is this frame worth reading? Black and frozen pictures, told apart from a quiet table.

A black picture (lens covered, camera off, lights out) would make every card "vanish"; a frozen
one (a driver that repeats its last frame, a stalled stream) would hide every change. Neither
may reach the tracker: the pipeline holds the last table and says why, in plain words, in its
health data. A picture that is merely dark is read, with a warning, since stickers still read
in dim light until the noise of the camera's gain drowns them.

The checks run on the pipeline's 1/8-size cue image, so they cost nothing next to decoding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from companion.vision.fastops import channel_max

InputState = Literal["ok", "dark", "black", "frozen"]

BLACK_MEAN = 14.0  # grey levels: a covered lens or a camera that sends no picture
BLACK_SPREAD = 10.0  # ... and hardly any structure (98th minus 2nd percentile)
DARK_MEAN = 45.0  # a room too dark for the stickers' modules to stand out from the gain noise
FROZEN_S = 2.0  # identical pictures for this long ...
FROZEN_FRAMES = 30  # ... and this many frames (a slow image folder is not a frozen camera)

MESSAGES: dict[InputState, str] = {
    "ok": "",
    "dark": "The picture is dark: switch on a lamp over the table; stickers read less well in "
            "dim light.",
    "black": "The picture is black: is the lens covered, the camera switched off, or the room "
             "dark? Nothing is recorded until the table is visible again.",
    "frozen": "The picture has not changed at all for a while: the camera seems frozen (a real "
              "camera always shows some noise). Nothing is recorded until it moves again; "
              "unplug and replug it if this stays.",
}


@dataclass(frozen=True)
class InputVerdict:
    state: InputState
    usable: bool  # whether anything may be recorded from this frame

    @property
    def message(self) -> str:
        return MESSAGES[self.state]


def _spread(grey: np.ndarray) -> float:
    """98th minus 2nd percentile (only asked of dark pictures: it costs a millisecond)."""
    lo, hi = np.percentile(grey, (2, 98))
    return float(hi - lo)


class FrameCheck:
    """Remembers the last picture; `check` gives each new one its verdict."""

    def __init__(self, frozen_s: float = FROZEN_S, frozen_frames: int = FROZEN_FRAMES) -> None:
        self.frozen_s = frozen_s
        self.frozen_frames = frozen_frames
        self._last: np.ndarray | None = None
        self._same_since: float | None = None
        self._same_count = 0

    def check(self, small: np.ndarray, time_s: float, frames: int = 1) -> InputVerdict:
        """`small` is the cue image (any size, grey or colour) of the frame taken at `time_s`;
        `frames`: the camera frames this look stands for (itself and those the motion gate did
        not look at since the last look), counted towards `frozen_frames`."""
        grey = channel_max(small)
        mean = float(grey.mean())
        if self._last is not None and self._last.shape == small.shape and np.array_equal(
                self._last, small):
            self._same_count += frames
            if self._same_since is None:
                self._same_since = time_s
        else:
            self._same_count = 0
            self._same_since = None
        self._last = small.copy()
        if mean < BLACK_MEAN and _spread(grey) < BLACK_SPREAD:
            return InputVerdict("black", False)
        if (self._same_since is not None and self._same_count >= self.frozen_frames
                and time_s - self._same_since >= self.frozen_s):
            return InputVerdict("frozen", False)
        if mean < DARK_MEAN:
            return InputVerdict("dark", True)
        return InputVerdict("ok", True)
