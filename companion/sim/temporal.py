"""What changes between frames of a still table, besides the sensor's noise.

A real camera over a table that nobody changes still delivers frames that differ:

- **Lamp flicker with a rolling shutter.** A lamp on mains power pulses at twice the mains
  frequency (100 Hz in Europe, 120 Hz in America) by its percent flicker
  ((max - min) / (max + min): incandescent and halogen about 5-12 %, compact fluorescent and
  LED lamps with cheap drivers 15-40 %, good LED lamps under 5 %; IEEE 1789-2015 and the US DOE
  CALiPER measurements). A webcam's rolling shutter exposes its rows one after another over
  the readout time (about 25-30 ms for a 1080p frame at 30 fps), each row for the exposure
  time t: a row's light is the lamp's averaged over t, so the picture shows horizontal bands
  of amplitude depth x |sinc(f t)|, about 2.5-3 bands over the picture, and since 100 Hz is
  not a multiple of 30 fps they roll from frame to frame (a third of a period per frame).
  Cameras whose anti-flicker setting matches the mains expose for whole half-periods
  (10 or 8.3 ms steps) and show no bands; a camera set for the other mains, or one that
  shortens the exposure below a half-period in bright light, does.
- **Auto exposure and white balance dither.** The camera's control loops keep adjusting in
  small quantised steps: the picture's brightness wanders by about 1-2 % and the blue and red
  gains by about 0.5-1 % from frame to frame (a slow random walk).
- **Autofocus breathing and hunting.** A webcam with contrast-detect continuous autofocus
  (C920 class) keeps probing: its focus wanders by a few per cent, and every 10-40 s on a still
  scene it hunts, sweeping the focus 20-40 % away and back within about half a second. Fixed-
  focus modules (cheap 720p, laptops) do not; a phone's phase-detect autofocus only breathes.
- **A trembling camera arm.** Whenever someone touches the table (lays a card, leans on it)
  the camera's clamp arm or stand rings at its natural frequency (4-10 Hz) and dies out within
  about a second (damping ratio 0.03-0.1): the picture shifts by 0.1-2 mrad of the camera's
  turn (0.15-3 px at 1080p), sometimes smeared within the exposure. Players touch the table
  every few seconds (here on average every 4-15 s) even while no card changes.
- **Compression that differs per frame.** The camera's MJPEG rate control adapts the quality
  to the USB bandwidth: up to 4 steps either side of its mean from frame to frame.

`Temporal` holds one scene's values (sampled with the rest of `Conditions`); `frame_effects`
gives what one frame of that scene gets, deterministically from the seed and the frame index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

Range = tuple[float, float]
TOUCH_HISTORY_S = 4.0  # touches this long before the first frame still ring into it


@dataclass(frozen=True)
class Temporal:
    """One scene's frame-to-frame behaviour (zeros: a perfectly steady camera and lamp)."""

    fps: float = 30.0
    flicker_hz: float = 100.0
    flicker_depth: float = 0.0  # the lamp's percent flicker / 100
    flicker_exposure_ms: float = 10.0  # the exposure the camera chose (bands: |sinc(f t)|)
    readout_ms: float = 28.0  # rolling shutter: first row to last row
    ae_jitter: float = 0.0  # sigma of the exposure's random walk (share of the brightness)
    wb_jitter: float = 0.0  # sigma of the blue and red gains' random walk
    af_breathing: float = 0.0  # sigma of the focus distance's wander (share)
    af_hunt_rate_hz: float = 0.0  # autofocus hunts per second on a still scene
    touch_rate_hz: float = 0.0  # someone touches the table this often
    tremble_mrad: Range = (0.0, 0.0)  # the arm's swing after a touch (log-uniform)
    tremble_hz: float = 6.0
    tremble_damping: float = 0.05
    jpeg_jitter: int = 0

    @property
    def band_amplitude(self) -> float:
        """Relative amplitude of the lamp's bands after the exposure averages the flicker."""
        x = self.flicker_hz * self.flicker_exposure_ms / 1000
        sinc = 1.0 if x == 0 else abs(math.sin(math.pi * x) / (math.pi * x))
        return self.flicker_depth * sinc


@dataclass(frozen=True)
class FrameEffects:
    """What one frame gets on top of the still scene."""

    row_gain: np.ndarray | None  # (height,) multiplier of the light per sensor row, or None
    wb: tuple[float, float]  # extra blue and red gains
    defocus: float  # focus error as a share of the distance (added to the scene's)
    shift_px: tuple[float, float]  # the picture moved by the camera's trembling
    smear_px: tuple[float, float]  # and smeared over the exposure
    jpeg_delta: int


WALK_MEMORY = 64  # frames of a random walk that still count (0.8^64 is 6e-7)


def _walk(seed: int, salt: int, index: int, sigma: float, keep: float = 0.8) -> float:
    """A stationary random walk (AR(1), standard deviation `sigma`) at frame `index`: each
    frame keeps `keep` of the last value and adds a fresh step."""
    if sigma <= 0:
        return 0.0
    first = max(0, index - WALK_MEMORY)
    steps = np.array([_step(seed, salt, k) for k in range(first, index + 1)])
    weights = keep ** np.arange(index - first, -1, -1)
    return float(sigma * math.sqrt(1 - keep ** 2) * (weights * steps).sum())


@lru_cache(maxsize=64)
def _steps_block(seed: int, salt: int, block: int) -> np.ndarray:
    return np.random.default_rng([seed, salt, block, 31]).standard_normal(256)


def _step(seed: int, salt: int, k: int) -> float:
    return float(_steps_block(seed, salt, k // 256)[k % 256])


@lru_cache(maxsize=32)
def _touches(seed: int, rate_hz: float, lo: float, hi: float, until_s: float
             ) -> tuple[tuple[float, float, float, float], ...]:
    """(time s, amplitude mrad, direction rad, phase rad) of every touch from before the first
    frame up to `until_s`: a Poisson process of `rate_hz`."""
    rng = np.random.default_rng([seed, 5150])
    out = []
    t = -TOUCH_HISTORY_S
    while True:
        t += float(rng.exponential(1 / rate_hz))
        if t > until_s:
            break
        amp = math.exp(rng.uniform(math.log(max(lo, 1e-6)), math.log(max(hi, 1e-6))))
        out.append((t, amp, float(rng.uniform(0, 2 * math.pi)),
                    float(rng.uniform(0, 2 * math.pi))))
    return tuple(out)


def ring(amplitude: float, tau: float, hz: float, damping: float, phase: float
         ) -> tuple[float, float]:
    """A damped oscillator `tau` seconds after it was struck: position and velocity of
    A exp(-z w t) sin(w_d t + phase), w = 2 pi hz, w_d = w sqrt(1 - z^2)."""
    w = 2 * math.pi * hz
    wd = w * math.sqrt(1 - damping * damping)
    decay = amplitude * math.exp(-damping * w * tau)
    angle = wd * tau + phase
    return (decay * math.sin(angle),
            decay * (wd * math.cos(angle) - damping * w * math.sin(angle)))


def tremble(temporal: Temporal, seed: int, time_s: float) -> tuple[float, float, float, float]:
    """The camera's turn (x, y in mrad) and its rate (mrad/s) at `time_s`: every touch so far
    rings as a damped oscillation, x(t) = A exp(-z w t) sin(w_d t + phase)."""
    if temporal.touch_rate_hz <= 0 or temporal.tremble_mrad[1] <= 0:
        return 0.0, 0.0, 0.0, 0.0
    horizon = math.ceil(max(time_s, 0.0) / 10 + 1) * 10  # cache per 10 s
    w = 2 * math.pi * temporal.tremble_hz
    z = temporal.tremble_damping
    x = y = vx = vy = 0.0
    for t0, amp, direction, phase in _touches(seed, temporal.touch_rate_hz,
                                              temporal.tremble_mrad[0],
                                              temporal.tremble_mrad[1], float(horizon)):
        tau = time_s - t0
        if tau < 0:
            break
        if math.exp(-z * w * tau) < 1e-3:
            continue
        s, v = ring(amp, tau, temporal.tremble_hz, z, phase)
        x += s * math.cos(direction)
        y += s * math.sin(direction)
        vx += v * math.cos(direction)
        vy += v * math.sin(direction)
    return x, y, vx, vy


def _hunt(temporal: Temporal, seed: int, time_s: float) -> float:
    """Focus error of an autofocus hunt in progress (share of the distance): a sweep out to
    20-40 % and back over 0.3-0.8 s, hunts arriving as a Poisson process."""
    if temporal.af_hunt_rate_hz <= 0:
        return 0.0
    rng = np.random.default_rng([seed, 777])
    t = -2.0
    while True:
        t += float(rng.exponential(1 / temporal.af_hunt_rate_hz))
        depth = float(rng.uniform(0.2, 0.4)) * (1 if rng.random() < 0.5 else -1)
        length = float(rng.uniform(0.3, 0.8))
        if t > time_s:
            return 0.0
        if t <= time_s < t + length:
            return depth * math.sin(math.pi * (time_s - t) / length)


def row_gains(temporal: Temporal, rows: int, time_s: float, lamp_share: float,
              phase: float) -> np.ndarray | None:
    """Per-row light multiplier of one frame: the lamp's share of the light pulses at the
    flicker frequency; row r starts its exposure readout x r / rows after the first."""
    amp = temporal.band_amplitude * lamp_share
    if amp < 1e-4:
        return None
    f = temporal.flicker_hz
    te = temporal.flicker_exposure_ms / 1000
    t_rows = time_s + np.arange(rows) * (temporal.readout_ms / 1000 / rows) + te / 2
    return np.asarray(1 + amp * np.cos(2 * math.pi * f * t_rows + phase), np.float32)


def frame_effects(temporal: Temporal, seed: int, index: int, rows: int, lamp_share: float,
                  focal_px: float) -> FrameEffects:
    """Everything frame `index` of a still scene gets (deterministic from seed and index)."""
    time_s = index / temporal.fps
    phase = 2 * math.pi * (seed * 0.6180339887 % 1.0)
    gains = row_gains(temporal, rows, time_s, lamp_share, phase)
    ae = _walk(seed, 1, index, temporal.ae_jitter)
    if abs(ae) > 1e-4:
        gains = (np.full(rows, 1 + ae, np.float32) if gains is None
                 else np.asarray(gains * (1 + ae), np.float32))
    wb = (1 + _walk(seed, 2, index, temporal.wb_jitter), 1 + _walk(seed, 3, index,
                                                                   temporal.wb_jitter))
    defocus = _walk(seed, 4, index, temporal.af_breathing) + _hunt(temporal, seed, time_s)
    x, y, vx, vy = tremble(temporal, seed, time_s)
    px = focal_px / 1000  # pixels per mrad of the camera's turn
    exposure_s = temporal.flicker_exposure_ms / 1000
    jitter = temporal.jpeg_jitter
    jpeg = 0 if jitter <= 0 else int(np.random.default_rng([seed, index, 99]).integers(
        -jitter, jitter + 1))
    return FrameEffects(gains, wb, defocus, (x * px, y * px),
                        (vx * px * exposure_s, vy * px * exposure_s), jpeg)
