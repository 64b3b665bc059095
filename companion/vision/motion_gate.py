"""The motion gate: whether a frame is read in full, or skipped because nothing moved.

On a still table the readers (sticker decoding, ArUco, dice, the placer's patches) find what
they found a moment ago, at 40-50 % of one core for a 1080p camera at 30 fps. The gate compares
a small copy of each frame with the last frame read in full and lets the full reading run only
when something changed, or on a slow schedule (`reread_s`) so that a change too small for the
gate is still caught. It never decides alone that the table has settled: after any change it
keeps every frame read until the pipeline says the table is settled and has stayed so for
`quiet_s` (the tracker confirms a card over several reads; skipping earlier would cost them).
A change that no hand made and that left the picture as it was before (the camera's arm
trembling after someone bumped the table, its autofocus hunting: the picture moves and comes
back) laid nothing to confirm: the gate skips again as soon as the table is settled.

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

Reason = Literal["off", "settling", "motion", "schedule", "still", "resting"]

GATE_LEVEL = 14.0
"""Grey levels a gate pixel must differ from the reference, exposure matched, to count as
changed, at least (the simulated 1080p webcam in a dim room, gain 6: its gate pixels differ
from frame to frame by 1.8 levels, one sigma; see `NOISE_SIGMAS`)."""
NOISE_SIGMAS = 6.0
"""... and at least this many sigmas of the camera's own noise, measured by the gate on each
frame it compares (the median difference: a hand or a card changes too few pixels to move it):
the sensor's shot and read noise, multiplied by the auto gain in a dim room and averaged over
the 16 x 16 pixels of a gate pixel, with the JPEG's rounding. A cheap camera at high gain has
several times the noise of a good one: at a fixed 14 levels its noise alone would fire the
gate every few seconds (each firing a second of full reads). 6 sigmas: on the bench's still
video the largest of 2.1 million differences was 5.7 sigmas, and a change needs
`GATE_MIN_PIXELS` over the level at once."""
LEVEL_CAP = 30.0  # the noise never raises the level beyond this (a hand on the mat is 40+)
MEDIAN_ABS_SIGMA = 0.6745  # the median of |x| of a normal variable, in sigmas
NOISE_WEIGHT = 0.1  # each frame's share in the running noise estimate, as it falls (it rises
# at once: a level too low fires the gate, and a second of full reads costs more than a
# moment of a level too high, which a hand, 40+ levels, passes anyway)
NOISE_SAMPLE = 2  # the noise is measured on every 2nd gate pixel each way (0.1 ms)
GATE_MIN_PIXELS = 3
"""Changed gate pixels that make a change: a die (16 mm) covers four to seven at 1080p over a
60 cm mat; a card, dozens."""
CLIPPED = 250.0  # grey levels from which a channel is taken as clipped (saturated)
REREAD_S = 2.0
REREAD_FRAMES = 2
"""Frames read in a row on the slow schedule: the tracker confirms a find on two reads."""
THOROUGH_FRAMES = 3
"""... on a thorough re-read: the card reader's full pass, its search of the unread zones on
the next frame, and one more for the tracker's second read (one frame alone would show a full
pass and nothing else)."""
QUIET_S = 1.0
THOROUGH_EVERY = 5
"""Every this many scheduled re-reads (the first after a change, then every 10 s) the readers
look at the whole picture: a full ArUco pass (150 ms at 1080p), then the zone search. The
others read the stickers as on any still frame."""
REST_S = 1.0
LOOK_EVERY = 3
"""On a table settled for `REST_S` (as the gate begins to skip), the gate looks at every
third frame only (the JPEG's small copy costs 2-3 ms, most of it the decoder's Huffman pass,
which no scaling spares): a hand is seen two frames (67 ms at 30 fps) later at most, long
before it has laid anything, and a frozen or black picture still within the same two seconds
(`frame_check` counts the frames not looked at with the look after them)."""


class GateSettingsError(ValueError):
    """Motion gate settings that cannot work (negative times, a level of zero)."""


@dataclass(frozen=True)
class GateSettings:
    """`enabled`: False reads every frame (benchmarks that need them all). `level`,
    `min_pixels`: what counts as a change (`level` raised to `noise_sigmas` of the camera's
    noise as measured, 0: never). `reread_s`, `reread_frames`: a still table is read
    in full this often anyway, this many frames in a row, every `thorough_every`th time with
    a look at the whole picture (`thorough_frames` in a row). `quiet_s`: after a change,
    every frame is read until the table has been settled this long. `rest_s`, `look_every`:
    settled this long, the gate looks at every `look_every`th frame only (1: at every
    frame)."""

    enabled: bool = True
    level: float = GATE_LEVEL
    noise_sigmas: float = NOISE_SIGMAS
    min_pixels: int = GATE_MIN_PIXELS
    reread_s: float = REREAD_S
    reread_frames: int = REREAD_FRAMES
    thorough_every: int = THOROUGH_EVERY
    thorough_frames: int = THOROUGH_FRAMES
    quiet_s: float = QUIET_S
    rest_s: float = REST_S
    look_every: int = LOOK_EVERY

    def __post_init__(self) -> None:
        if self.level <= 0 or self.min_pixels < 1:
            raise GateSettingsError(f"the gate needs a level > 0 and min_pixels >= 1, not "
                                    f"{self.level} and {self.min_pixels}")
        if self.reread_s <= 0 or self.quiet_s < 0 or self.rest_s < 0:
            raise GateSettingsError(f"the gate needs reread_s > 0, quiet_s >= 0 and "
                                    f"rest_s >= 0, not {self.reread_s}, {self.quiet_s} and "
                                    f"{self.rest_s}")
        if min(self.reread_frames, self.thorough_every, self.thorough_frames,
               self.look_every) < 1:
            raise GateSettingsError(f"the gate counts frames from 1: reread_frames "
                                    f"{self.reread_frames}, thorough_every "
                                    f"{self.thorough_every}, thorough_frames "
                                    f"{self.thorough_frames}, look_every {self.look_every}")


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
    diff = difference(image, reference)
    return image.size if diff is None else count_over(diff, level)


def count_over(diff: np.ndarray, level: float) -> int:
    """Gate pixels whose difference (`difference`) exceeds `level` in any channel."""
    return int(np.count_nonzero(channel_max(diff) > level))


def difference(image: np.ndarray, reference: np.ndarray) -> np.ndarray | None:
    """Per channel, how far each gate pixel of `image` lies from `reference`'s, exposure
    matched (None: another picture size, everything changed)."""
    if image.shape != reference.shape:
        return None
    axes = (0, 1)
    mean_now = np.asarray(image.mean(axis=axes), np.float32)
    mean_ref = np.asarray(reference.mean(axis=axes), np.float32)
    gain = mean_ref / np.maximum(mean_now, 1.0)
    diff = cv2.absdiff(image * gain, reference)
    # where the brighter exposure clips, the picture cannot follow the gain: a pixel clipped
    # now that the reference, at this exposure, would clip too is no change
    clipped = (image >= CLIPPED) & (reference >= CLIPPED * gain)
    diff[clipped] = 0.0
    return np.asarray(diff)


class MotionGate:
    """Decides per frame (`decide`) and learns from every full read (`was_read`)."""

    def __init__(self, settings: GateSettings | None = None) -> None:
        self.settings = settings or GateSettings()
        self.reference: np.ndarray | None = None
        self.last_read_s = -math.inf
        self.quiet_since: float | None = None
        self.eventful = True  # since the last change: a hand seen or the table changed
        self.before: np.ndarray | None = None  # the reference from before the last change
        self.burst_left = 0  # frames of the scheduled re-read still to read
        self.rereads = 0  # scheduled re-reads since the last change
        self.noise: float | None = None  # sigma of a gate pixel's difference, as measured
        self.frames = 0
        self.reads = 0
        self.skips = 0

    def looks_at(self, time_s: float) -> bool:
        """Whether the frame at `time_s` is looked at at all (False: a table settled for
        `rest_s`, and not this frame's turn; its picture need not even be decoded small)."""
        s = self.settings
        self.frames += 1
        if (not s.enabled or s.look_every == 1 or self.quiet_since is None
                or time_s - self.quiet_since < s.rest_s or self.burst_left > 0
                or time_s - self.last_read_s >= s.reread_s):
            return True
        if self.frames % s.look_every == 0:
            return True
        self.skips += 1
        return False

    def decide(self, small: np.ndarray, time_s: float) -> GateDecision:
        """Whether the frame whose cue image is `small` must be read in full."""
        s = self.settings
        if not s.enabled:
            return self._read("off")
        if self.reference is None or self.quiet_since is None \
                or time_s - self.quiet_since < s.quiet_s:
            self.burst_left = 0  # every frame is read anyway
            return self._read("settling")
        diff = difference(gate_image(small), self.reference)
        if diff is not None:
            self._measure_noise(diff)
        changed = small.size if diff is None else count_over(diff, self.level)
        if changed >= s.min_pixels:
            self.quiet_since = None  # a change: every frame is read until it has settled
            self.eventful = False
            self.before = self.reference
            self.burst_left = 0
            self.rereads = 0
            return self._read("motion", changed)
        if self.burst_left > 0:
            self.burst_left -= 1
            return self._read("schedule", changed)
        if time_s - self.last_read_s >= s.reread_s:
            self.rereads += 1
            thorough = self.rereads % s.thorough_every == 1 % s.thorough_every
            self.burst_left = (s.thorough_frames if thorough else s.reread_frames) - 1
            return self._read("schedule", changed, thorough=thorough)
        self.skips += 1
        return GateDecision(False, "still", changed)

    def was_read(self, small: np.ndarray, time_s: float, settled: bool,
                 eventful: bool = True) -> None:
        """A frame was read in full; `settled`: the pipeline found the table settled on it
        (mat located, no motion, no hand, the tracker's table confirmed); `eventful`: a hand
        was in view on it, or the settled table changed."""
        s = self.settings
        if not s.enabled:
            return
        self.reference = gate_image(small)
        self.last_read_s = time_s
        self.eventful = self.eventful or eventful
        if not settled:
            self.quiet_since = None
        elif self.quiet_since is None:
            self.quiet_since = time_s
            before, self.before = self.before, None
            if not self.eventful and before is not None and changed_pixels(
                    self.reference, before, self.level) < s.min_pixels:
                self.quiet_since -= s.quiet_s  # nothing laid, nothing to confirm: skip now

    def forget(self) -> None:
        """The picture no longer shows the table where it did (camera moved, turned)."""
        self.reference = None
        self.quiet_since = None
        self.eventful = True
        self.before = None
        self.burst_left = 0
        self.rereads = 0

    @property
    def level(self) -> float:
        """Grey levels that make a gate pixel changed: the settings' level, raised to
        `noise_sigmas` of the camera's noise (at most to `LEVEL_CAP`)."""
        s = self.settings
        if self.noise is None or s.noise_sigmas <= 0:
            return s.level
        return max(s.level, min(LEVEL_CAP, s.noise_sigmas * self.noise))

    def _measure_noise(self, diff: np.ndarray) -> None:
        """The frame's median difference is the camera's noise (what changed on the table is
        far less than half the picture), as sigmas."""
        sigma = float(np.median(diff[::NOISE_SAMPLE, ::NOISE_SAMPLE])) / MEDIAN_ABS_SIGMA
        self.noise = sigma if self.noise is None or sigma > self.noise else (
            (1 - NOISE_WEIGHT) * self.noise + NOISE_WEIGHT * sigma)

    def _read(self, reason: Reason, changed: int = 0, thorough: bool = False) -> GateDecision:
        self.reads += 1
        return GateDecision(True, reason, changed, thorough)
