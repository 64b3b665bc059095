"""How a real camera turns the light on the table into a JPEG: the image-formation chain.

`Look` is a degradation preset: the range each physical effect takes for one kind of camera
(figures and their sources in docs/simulator.md). `Look.sample(seed)` picks one concrete
`Conditions` (one evening at one table: where the lamp hangs, how dark the room is, how well
the lens is focused). `develop` applies, in the order a camera does: lens blur and defocus ->
scene light (lamp falloff, vignetting) and glare -> sensor (exposure, shot and read noise,
auto gain) -> ISP (black level lift, white balance, sharpening) -> clipping. JPEG is the
renderer's last step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.sim.temporal import Temporal

Range = tuple[float, float]
LAMPS: tuple[tuple[float, Range], ...] = (
    (0.4, (0.0, 0.05)),  # a good LED lamp (constant-current driver)
    (0.3, (0.05, 0.12)),  # incandescent or halogen: the filament cools a little each half-cycle
    (0.3, (0.15, 0.4)),  # compact fluorescent, or an LED lamp with a cheap driver
)
"""(share of tables, percent flicker / 100) of the lamp over the table (IEEE 1789-2015; US DOE
CALiPER measurements of retail lamps)."""
ANTI_FLICKER = (0.5, 0.15)
"""Share of cameras whose exposure follows the mains' half-period (no bands), and of cameras
set for the other mains (50 Hz setting under 60 Hz light, or the reverse); the rest expose
freely (anti-flicker off, or shorter than a half-period in bright light)."""
STEADY = Temporal()  # a perfectly steady camera and lamp
MAINS_50HZ_SHARE = 0.7  # tables on 50 Hz mains (Europe, most of the world) rather than 60 Hz


@dataclass(frozen=True)
class Conditions:
    """One concrete set of values for every effect (what a single scene is rendered with)."""

    lens_blur_px: float = 0.0  # Gaussian sigma of the lens at best focus, picture centre
    corner_softness: float = 0.0  # the lens blur grows by this share towards the corners (x r^2)
    lateral_ca: float = 0.0  # red magnified, blue shrunk by this share against green
    coc_px: float = 0.0  # defocus blur diameter (px) for an object at half the focus distance
    focus_ratio: float = 1.0  # focus distance / distance to the mat centre
    exposure: float = 1.0  # light on the table relative to a bright room (auto gain = 1/exposure)
    read_noise: float = 0.0  # sensor read noise, grey levels at gain 1
    shot_noise: float = 0.0  # photon noise variance per grey level at gain 1
    jpeg_quality: int = 95
    sharpen: float = 0.0  # unsharp-mask amount of the camera's ISP
    wb_gains: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R after imperfect auto WB
    vignette: float = 0.0  # brightness lost at the picture's corners
    lamp: tuple[float, float, float] | None = None  # lamp position, mat mm (z up)
    lamp_share: float = 0.0  # share of the table's light that comes from the lamp
    glare_peak: float = 0.0  # the lamp mirrored in a sleeve, in units of white paper
    gloss_deg: float = 1.5  # blur (sigma) of the mirrored directions by the sleeve's roughness
    lamp_radius_mm: float = 50.0  # radius of the lamp's bright part (bulb or shade)
    env_reflect: float = 0.0  # brightness of the room mirrored in sleeves (veil), x white
    curl_mm: float = 0.0  # largest card curl (rise of the edges over the centre)
    exposure_ms: float = 16.0  # shutter time, for motion blur
    black_lift: float = 0.0  # grey levels the ISP lifts black by in low light
    contrast: float = 1.0
    auto_exposure: bool = True  # the camera scales the picture towards a mean grey
    temporal: Temporal = STEADY  # what changes between frames of a still scene


@dataclass(frozen=True)
class Look:
    """The range of every effect for one kind of camera and room (sampled per scene)."""

    name: str
    lens_blur_px: Range = (0.0, 0.0)
    corner_softness: Range = (0.0, 0.0)
    lateral_ca: Range = (0.0, 0.0)
    coc_px: Range = (0.0, 0.0)
    focus_ratio: Range = (1.0, 1.0)
    exposure: Range = (1.0, 1.0)
    read_noise: Range = (0.0, 0.0)
    shot_noise: Range = (0.0, 0.0)
    jpeg_quality: tuple[int, int] = (95, 95)
    sharpen: Range = (0.0, 0.0)
    wb_error: float = 0.0  # largest error of auto white balance, per colour channel
    vignette: Range = (0.0, 0.0)
    lamp_height_mm: Range = (900.0, 1400.0)
    lamp_spread_mm: float = 400.0  # lamp lies within this of the mat centre, horizontally
    lamp_share: Range = (0.0, 0.0)
    glare_peak: Range = (0.0, 0.0)
    gloss_deg: Range = (1.0, 2.5)
    lamp_radius_mm: Range = (30.0, 100.0)
    env_reflect: Range = (0.0, 0.0)
    curl_mm: Range = (0.0, 0.0)
    low_light_share: float = 0.0  # share of scenes shot in a dim room
    auto_exposure: bool = True
    # frame to frame (companion.sim.temporal): flicker needs a lamp (lamp_share > 0)
    flicker: bool = False
    readout_ms: Range = (25.0, 30.0)
    ae_jitter: Range = (0.0, 0.0)
    wb_jitter: Range = (0.0, 0.0)
    af_breathing: Range = (0.0, 0.0)
    af_hunt_rate_hz: Range = (0.0, 0.0)
    touch_rate_hz: Range = (0.0, 0.0)
    tremble_mrad: Range = (0.0, 0.0)
    tremble_hz: Range = (6.0, 6.0)
    tremble_damping: Range = (0.05, 0.05)
    jpeg_jitter: int = 0

    def sample(self, seed: int, centre: tuple[float, float] = (300.0, 200.0)) -> Conditions:
        rng = np.random.default_rng([seed, 4242])

        def pick(r: Range) -> float:
            return float(rng.uniform(r[0], r[1])) if r[1] > r[0] else float(r[0])

        exposure = pick(self.exposure)
        if rng.random() < self.low_light_share:
            exposure = min(exposure, float(rng.uniform(0.15, 0.3)))
        gain = 1 / max(exposure, 0.05)
        angle = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(0, self.lamp_spread_mm)
        lamp = (centre[0] + dist * math.cos(angle), centre[1] + dist * math.sin(angle),
                pick(self.lamp_height_mm))
        wb = tuple(float(1 + rng.uniform(-self.wb_error, self.wb_error)) for _ in range(3))
        wb_gains = (wb[0], 1.0, wb[2])  # WB acts on blue and red against green
        lo, hi = self.jpeg_quality
        exposure_ms = min(33.0, 16.0 * gain)
        temporal = self._temporal(seed, exposure_ms)
        return Conditions(
            lens_blur_px=pick(self.lens_blur_px), corner_softness=pick(self.corner_softness),
            lateral_ca=pick(self.lateral_ca), coc_px=pick(self.coc_px),
            focus_ratio=pick(self.focus_ratio), exposure=exposure,
            read_noise=pick(self.read_noise), shot_noise=pick(self.shot_noise),
            jpeg_quality=int(rng.integers(lo, hi + 1)), sharpen=pick(self.sharpen),
            wb_gains=wb_gains, vignette=pick(self.vignette), lamp=lamp,
            lamp_share=pick(self.lamp_share), glare_peak=pick(self.glare_peak),
            gloss_deg=pick(self.gloss_deg), lamp_radius_mm=pick(self.lamp_radius_mm),
            env_reflect=pick(self.env_reflect),
            curl_mm=pick(self.curl_mm), exposure_ms=exposure_ms,
            black_lift=min(40.0, 10.0 * (gain - 1)), contrast=1.0 - min(0.25, 0.06 * (gain - 1)),
            auto_exposure=self.auto_exposure, temporal=temporal,
        )

    def _temporal(self, seed: int, exposure_ms: float) -> Temporal:
        """The scene's frame-to-frame behaviour, from its own random stream (so that adding
        it leaves every other sampled value as it was)."""
        rng = np.random.default_rng([seed, 4343])
        depth = 0.0
        flicker_hz = 100.0 if rng.random() < MAINS_50HZ_SHARE else 120.0
        exposure = exposure_ms
        if self.flicker:
            r = rng.random()
            for share, span in LAMPS:
                if r < share:
                    depth = float(rng.uniform(*span))
                    break
                r -= share
            mode = rng.random()
            if mode < ANTI_FLICKER[0]:  # whole half-periods of this mains: no bands
                half = 1000 / flicker_hz
                exposure = max(1, round(exposure_ms / half)) * half
            elif mode < ANTI_FLICKER[0] + ANTI_FLICKER[1]:  # set for the other mains
                half = 1000 / (220.0 - flicker_hz)
                exposure = max(1, round(exposure_ms / half)) * half
            else:  # free: in bright light the exposure may be much shorter
                exposure = float(rng.uniform(2.0, exposure_ms))

        def take(r: Range) -> float:
            return float(rng.uniform(r[0], r[1])) if r[1] > r[0] else float(r[0])

        return Temporal(
            fps=30.0, flicker_hz=flicker_hz, flicker_depth=depth,
            flicker_exposure_ms=exposure, readout_ms=take(self.readout_ms),
            ae_jitter=take(self.ae_jitter), wb_jitter=take(self.wb_jitter),
            af_breathing=take(self.af_breathing), af_hunt_rate_hz=take(self.af_hunt_rate_hz),
            touch_rate_hz=take(self.touch_rate_hz), tremble_mrad=self.tremble_mrad,
            tremble_hz=take(self.tremble_hz), tremble_damping=take(self.tremble_damping),
            jpeg_jitter=self.jpeg_jitter,
        )


def gain_of(c: Conditions) -> float:
    return 1 / max(c.exposure, 0.05)


class NoiseBank:
    """Unit Gaussian noise, drawn once: each frame takes a randomly shifted window of one of a
    few frames, so consecutive frames get independent-looking noise at no cost."""

    PAD = 24
    SCALE = 16  # stored as int16 units of 1/16 sigma

    def __init__(self, height: int, width: int, seed: int, frames: int = 3,
                 channels: int = 1) -> None:
        rng = np.random.default_rng([seed, 77])
        shape = (height + self.PAD, width + self.PAD) + ((channels,) if channels > 1 else ())
        self.height, self.width = height, width
        self.frames = [np.rint(rng.standard_normal(shape, np.float32) * self.SCALE)
                       .astype(np.int16) for _ in range(frames)]

    def window(self, rng: np.random.Generator) -> np.ndarray:
        k = int(rng.integers(len(self.frames)))
        dy, dx = (int(v) for v in rng.integers(0, self.PAD, 2))
        return self.frames[k][dy:dy + self.height, dx:dx + self.width]

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        """A float unit-sigma noise frame (for the reference `develop`)."""
        return np.asarray(self.window(rng), np.float32) / self.SCALE

    @staticmethod
    def sigma_map(sigma: np.ndarray) -> np.ndarray:
        """Per-pixel sigma (grey levels) in the units `add_noise` multiplies with."""
        return np.clip(np.rint(sigma * NoiseBank.SCALE), 0, 32767).astype(np.int16)

    def add_noise(self, image: np.ndarray, sigma16: np.ndarray,
                  rng: np.random.Generator) -> np.ndarray:
        """image + sigma x unit noise, saturated to bytes (about 3 ms at 1080p)."""
        noise = cv2.multiply(self.window(rng), sigma16, scale=1 / (self.SCALE * self.SCALE),
                             dtype=cv2.CV_16S)
        return np.asarray(cv2.add(image, noise, dtype=cv2.CV_8U))


def defocus(image: np.ndarray, sigma_lo: float, sigma_hi: float,
            weight_hi: np.ndarray | None) -> np.ndarray:
    """Blur by a sigma that varies over the picture (depth of field), as a blend of two."""
    def blur(s: float) -> np.ndarray:
        return image if s < 0.2 else cv2.GaussianBlur(image, (0, 0), s)

    lo = blur(sigma_lo)
    if weight_hi is None or sigma_hi - sigma_lo < 0.15:
        return lo
    hi = blur(sigma_hi)
    w_hi = weight_hi
    w_lo = 1 - w_hi
    return np.asarray(cv2.blendLinear(lo, hi, w_lo, w_hi))


def isp(radiance: np.ndarray, c: Conditions) -> np.ndarray:
    """The ISP's linear part on float radiance: black level lift, contrast, white balance."""
    b, g, r = c.wb_gains
    k = c.contrast
    m = np.array([[b * k, 0, 0, c.black_lift * b], [0, g * k, 0, c.black_lift * g],
                  [0, 0, r * k, c.black_lift * r]], np.float32)
    return np.asarray(cv2.transform(np.ascontiguousarray(radiance, np.float32), m))


def to_bytes(v: np.ndarray) -> np.ndarray:
    return np.clip(v, 0, 255).astype(np.uint8)


def noise_sigma(radiance: np.ndarray, c: Conditions) -> np.ndarray | None:
    """Per-pixel noise sigma in output grey levels: photon noise (variance proportional to the
    signal) and read noise, both multiplied by the auto gain, then by the ISP's contrast. A dim
    room (gain 4) is four times as grainy as a bright one for the same picture brightness."""
    if c.read_noise <= 0 and c.shot_noise <= 0:
        return None
    gain = gain_of(c)
    signal = np.clip(radiance, 0, 255)
    var = signal * (gain * c.shot_noise) + gain * gain * c.read_noise ** 2
    return np.asarray(np.sqrt(var) * c.contrast, np.float32)


def finish(image: np.ndarray, c: Conditions) -> np.ndarray:
    """The ISP's sharpening (unsharp mask), after the noise: it sharpens the grain too."""
    if c.sharpen <= 0:
        return image
    soft = cv2.GaussianBlur(image, (0, 0), 1.2)
    return np.asarray(cv2.addWeighted(image, 1 + c.sharpen, soft, -c.sharpen, 0))


def develop(radiance: np.ndarray, c: Conditions, noise: np.ndarray | None) -> np.ndarray:
    """Sensor and ISP in one go (reference path): float BGR radiance -> uint8."""
    sigma = noise_sigma(radiance, c)
    v = isp(radiance, c)
    if noise is not None and sigma is not None:
        v = v + noise * sigma
    return finish(to_bytes(v), c)


def mosaic(image: np.ndarray) -> np.ndarray:
    """The colour filter array: what each photosite of a Bayer sensor sees (B G / G R)."""
    h, w = image.shape[:2]
    out = np.empty((h, w), image.dtype)
    out[0::2, 0::2] = image[0::2, 0::2, 0]
    out[0::2, 1::2] = image[0::2, 1::2, 1]
    out[1::2, 0::2] = image[1::2, 0::2, 1]
    out[1::2, 1::2] = image[1::2, 1::2, 2]
    return out


def demosaic(raw: np.ndarray) -> np.ndarray:
    """Back to three colours per pixel, edge-aware (each pixel measured one colour only):
    luminance resolution drops and sharp black-white module edges get colour fringes."""
    return np.asarray(cv2.cvtColor(raw, cv2.COLOR_BayerRG2BGR_EA))


def line_kernel(dx: float, dy: float) -> np.ndarray | None:
    """Motion blur kernel for a shift of (dx, dy) px during the exposure."""
    length = math.hypot(dx, dy)
    if length < 1.0:
        return None
    size = math.ceil(length) | 1
    k = np.zeros((size, size), np.float32)
    c = size // 2
    steps = max(2, int(length * 2))
    for i in range(steps + 1):
        t = i / steps - 0.5
        x, y = round(c + dx * t), round(c + dy * t)
        if 0 <= x < size and 0 <= y < size:
            k[y, x] = 1
    return np.asarray(k / k.sum())


def jpeg_round_trip(image: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
