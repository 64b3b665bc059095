"""The motion gate: whether a frame is read in full, or skipped because nothing moved.

On a still table the readers (sticker decoding, ArUco, dice, the placer's patches) find what
they found a moment ago, at 40-50 % of one core for a 1080p camera at 30 fps. The gate compares
a small copy of each frame with the last frame read in full and lets the full reading run only
when something changed, or on a slow schedule (`reread_s`) so that a change too small for the
gate is still caught. It never decides alone that the table has settled: after any change it
keeps every frame read until the pipeline says the table is settled and has stayed so for
`quiet_s` (the tracker confirms a card over several reads; skipping earlier would cost them).

The comparison is on the cue copy (1/8 of the frame) halved once more, per colour channel (as
the motion cue: a dark hand over a green mat has nearly the mat's grey), after matching each
channel's mean to the reference's (a camera's auto-exposure and white balance drift move the
whole picture together; a card or a hand changes a part of it). At 1/16 size each gate pixel is
the mean of 256 sensor pixels, so sensor noise of a few grey levels averages out far below
`level`; a card laid or an arm reaching in changes dozens of them by far more.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from companion.vision.fastops import channel_max

Reason = Literal["off", "settling", "motion", "schedule", "still"]

GATE_LEVEL = 14.0
"""Grey levels a gate pixel must differ from the reference, exposure matched, to count as
changed (sensor noise at 1/16 size is well under one level; JPEG blocks a few)."""
GATE_MIN_PIXELS = 3
"""Changed gate pixels that make a change: a die (16 mm) covers about four at 1080p over a
60 cm mat; a card, dozens."""
CLIPPED = 250.0  # grey levels from which a channel is taken as clipped (saturated)
REREAD_S = 2.0
REREAD_FRAMES = 3
"""Frames read in a row on the slow schedule: the card reader's full pass, its search of the
unread zones on the next frame, and one more, as the tracker confirms a find on two reads (one
frame alone would show a full pass and nothing else)."""
QUIET_S = 1.0


class GateSettingsError(ValueError):
    """Motion gate settings that cannot work (negative times, a level of zero)."""


@dataclass(frozen=True)
class GateSettings:
    """`enabled`: False reads every frame (benchmarks that need them all). `level`,
    `min_pixels`: what counts as a change. `reread_s`, `reread_frames`: a still table is read
    in full this often anyway, this many frames in a row. `quiet_s`: after a change, every
    frame is read until the table has been settled this long."""

    enabled: bool = True
    level: float = GATE_LEVEL
    min_pixels: int = GATE_MIN_PIXELS
    reread_s: float = REREAD_S
    reread_frames: int = REREAD_FRAMES
    quiet_s: float = QUIET_S

    def __post_init__(self) -> None:
        if self.level <= 0 or self.min_pixels < 1:
            raise GateSettingsError(f"the gate needs a level > 0 and min_pixels >= 1, not "
                                    f"{self.level} and {self.min_pixels}")
        if self.reread_s <= 0 or self.quiet_s < 0 or self.reread_frames < 1:
            raise GateSettingsError(f"the gate needs reread_s > 0, reread_frames >= 1 and "
                                    f"quiet_s >= 0, not {self.reread_s}, "
                                    f"{self.reread_frames} and {self.quiet_s}")


EVERY_FRAME = GateSettings(enabled=False)


@dataclass(frozen=True)
class GateDecision:
    """`thorough`: the first frame of a scheduled re-read, on which the readers look at the
    whole picture (what a still table may have changed unseen is anywhere)."""

    read: bool
    reason: Reason
    changed_pixels: int = 0
    thorough: bool = False


def gate_image(small: np.ndarray) -> np.ndarray:
    """The gate's copy of a cue image: halved once more, as float32 (colour or grey)."""
    h, w = small.shape[:2]
    half = cv2.resize(small, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    return np.asarray(half, np.float32)


def changed_pixels(image: np.ndarray, reference: np.ndarray, level: float) -> int:
    """Gate pixels of `image` that differ from `reference` by more than `level`, after each
    channel's mean is matched to the reference's (exposure and white-balance drift)."""
    if image.shape != reference.shape:
        return image.size  # another picture size: everything changed
    axes = (0, 1)
    mean_now = np.asarray(image.mean(axis=axes), np.float32)
    mean_ref = np.asarray(reference.mean(axis=axes), np.float32)
    gain = mean_ref / np.maximum(mean_now, 1.0)
    diff = cv2.absdiff(image * gain, reference)
    # where the brighter exposure clips, the picture cannot follow the gain: a pixel clipped
    # now that the reference, at this exposure, would clip too is no change
    clipped = (image >= CLIPPED) & (reference >= CLIPPED * gain)
    diff[clipped] = 0.0
    return int(np.count_nonzero(channel_max(diff) > level))


class MotionGate:
    """Decides per frame (`decide`) and learns from every full read (`was_read`)."""

    def __init__(self, settings: GateSettings | None = None) -> None:
        self.settings = settings or GateSettings()
        self.reference: np.ndarray | None = None
        self.last_read_s = -math.inf
        self.quiet_since: float | None = None
        self.burst_left = 0  # frames of the scheduled re-read still to read
        self.reads = 0
        self.skips = 0

    def decide(self, small: np.ndarray, time_s: float) -> GateDecision:
        """Whether the frame whose cue image is `small` must be read in full."""
        s = self.settings
        if not s.enabled:
            return self._read("off")
        if self.reference is None or self.quiet_since is None \
                or time_s - self.quiet_since < s.quiet_s:
            return self._read("settling")
        changed = changed_pixels(gate_image(small), self.reference, s.level)
        if changed >= s.min_pixels:
            self.quiet_since = None  # a change: every frame is read until it has settled
            self.burst_left = 0
            return self._read("motion", changed)
        if self.burst_left > 0:
            self.burst_left -= 1
            return self._read("schedule", changed)
        if time_s - self.last_read_s >= s.reread_s:
            self.burst_left = s.reread_frames - 1
            return self._read("schedule", changed, thorough=True)
        self.skips += 1
        return GateDecision(False, "still", changed)

    def was_read(self, small: np.ndarray, time_s: float, settled: bool) -> None:
        """A frame was read in full; `settled`: the pipeline found the table settled on it
        (mat located, no motion, no hand, the tracker's table confirmed)."""
        if not self.settings.enabled:
            return
        self.reference = gate_image(small)
        self.last_read_s = time_s
        if not settled:
            self.quiet_since = None
        elif self.quiet_since is None:
            self.quiet_since = time_s

    def forget(self) -> None:
        """The picture no longer shows the table where it did (camera moved, turned)."""
        self.reference = None
        self.quiet_since = None
        self.burst_left = 0

    def _read(self, reason: Reason, changed: int = 0, thorough: bool = False) -> GateDecision:
        self.reads += 1
        return GateDecision(True, reason, changed, thorough)
