"""What changes between frames of a still scene, against independent oracles: the rolling
shutter's bands worked out by hand (period, amplitude, drift), OpenCV's phase correlation for
the trembling camera, image statistics for exposure, white balance and focus."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.layouts import load_layout
from companion.markers.payload import encode_front
from companion.markers.render import aruco_dictionary
from companion.sim.camera import overhead_rig
from companion.sim.optics import ANTI_FLICKER, Conditions
from companion.sim.physical import PhysicalRenderer
from companion.sim.presets import LOOKS
from companion.sim.render import Scene, SceneCard
from companion.sim.temporal import Temporal, ring

W, H = 1920, 1080
LAMP = (300.0, 200.0, 1000.0)


@pytest.fixture(scope="module")
def layout():
    return load_layout("creature-crush")


@pytest.fixture(scope="module")
def rig():
    return overhead_rig(W, H, 70.0, 600.0, 0.0, (300.0, 200.0))


def _renderer(layout, rig, temporal: Temporal, **changes: object) -> PhysicalRenderer:
    conditions = replace(Conditions(auto_exposure=False, lamp=LAMP, lamp_share=0.5,
                                    temporal=temporal), **changes)  # type: ignore[arg-type]
    return PhysicalRenderer(layout, rig, LOOKS["ideal"], seed=8, conditions=conditions)


SCENE = Scene(cards=tuple(
    SceneCard(f"c{k}", encode_front(5, k + 1, 1), True, 150.0 + 100 * (k % 4),
              120.0 + 150 * (k // 4), 4.0 * k, "") for k in range(8)))


def _row_profile(image: np.ndarray, steady: np.ndarray) -> np.ndarray:
    """Per row, the picture's light over the steady picture's (lamp falloff divided out),
    over the mat's middle columns."""
    a = image[:, 600:1300, 1].astype(float)
    b = steady[:, 600:1300, 1].astype(float)
    bright = b > 120
    rows = np.array([a[r][bright[r]].sum() / max(b[r][bright[r]].sum(), 1.0)
                     for r in range(image.shape[0])])
    return rows


def _fit(rows: np.ndarray, period: float) -> tuple[float, float, float]:
    """Least-squares 1 + a cos(2 pi r / P + phi): residual, amplitude, phase."""
    r = np.arange(len(rows), dtype=float)
    keep = np.isfinite(rows) & (rows > 0)
    x = np.column_stack([np.ones(keep.sum()), np.cos(2 * np.pi * r[keep] / period),
                         np.sin(2 * np.pi * r[keep] / period)])
    coef, *_ = np.linalg.lstsq(x, rows[keep], rcond=None)
    resid = float(((x @ coef - rows[keep]) ** 2).sum())
    return resid, float(math.hypot(coef[1], coef[2]) / coef[0]), float(
        math.atan2(-coef[2], coef[1]))


def test_flicker_shows_rolling_bands_of_the_period_and_depth_worked_out_by_hand(layout, rig
                                                                               ) -> None:
    """100 Hz flicker of 30 % depth, half of the light from the lamp, a 2 ms exposure and a
    28 ms readout: bands every 1080 / (100 x 0.028) = 385.7 rows, of amplitude
    0.3 x sinc(100 x 0.002) x 0.5 = 0.140, moving by 100 / 30 = 3 1/3 periods (a third of
    a period) from one frame to the next. Exposing for a whole half-period (10 ms) shows
    none."""
    flicker = Temporal(flicker_hz=100.0, flicker_depth=0.3, flicker_exposure_ms=2.0,
                       readout_ms=28.0)
    steady = _renderer(layout, rig, Temporal()).render(SCENE, (), 0, jpeg=False).image
    r = _renderer(layout, rig, flicker)
    rows0 = _row_profile(r.render(SCENE, (), 0, jpeg=False).image, steady)
    rows1 = _row_profile(r.render(SCENE, (), 1, jpeg=False).image, steady)
    periods = np.arange(300.0, 480.0, 1.0)
    best = min(periods, key=lambda p: _fit(rows0, p)[0])
    assert best == pytest.approx(1080 / (100 * 0.028), abs=10)
    x = math.pi * 100 * 0.002
    _, amp, phase0 = _fit(rows0, 385.7)
    assert amp == pytest.approx(0.3 * math.sin(x) / x * 0.5, abs=0.02)
    _, _, phase1 = _fit(rows1, 385.7)
    drift = (phase1 - phase0) % (2 * math.pi)
    assert drift == pytest.approx(2 * math.pi / 3, abs=0.25)  # 3 1/3 periods per frame
    synced = _renderer(layout, rig, replace(flicker, flicker_exposure_ms=10.0))
    rows = _row_profile(synced.render(SCENE, (), 3, jpeg=False).image, steady)
    assert np.nanstd(rows[200:900]) < 0.004


def _corners(image: np.ndarray, ids: list[int]) -> np.ndarray:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, found, _ = cv2.aruco.ArucoDetector(aruco_dictionary(), params).detectMarkers(gray)
    assert found is not None
    by_id = {int(i): c.reshape(4, 2) for i, c in zip(found.ravel(), corners, strict=True)}
    return np.vstack([by_id[i] for i in ids])


def test_a_trembling_arm_moves_the_picture_as_the_corner_markers_show(layout, rig) -> None:
    """Someone touches the table often: the whole picture shifts from frame to frame by the
    arm's ringing; the mat's corner markers, found by OpenCV with sub-pixel corners, move by
    that much."""
    temporal = Temporal(touch_rate_hz=3.0, tremble_mrad=(1.0, 1.5), tremble_hz=5.0,
                        tremble_damping=0.05)
    r = _renderer(layout, rig, temporal)
    ids = [c.marker_id for c in layout.corners]
    base = _corners(r.render(SCENE, (), 0, jpeg=False).image, ids)
    first = np.array(r.frame_effects(0).shift_px)
    moved = 0
    for k in range(1, 16):
        want = np.array(r.frame_effects(k).shift_px) - first
        got = (_corners(r.render(SCENE, (), k, jpeg=False).image, ids) - base).mean(axis=0)
        assert got == pytest.approx(want, abs=0.15)
        moved += math.hypot(*want) > 0.5
    assert moved >= 3


def test_a_struck_arm_rings_down_as_a_damped_oscillator() -> None:
    """Logarithmic decrement worked out by hand: one damped period later the swing is
    exp(-2 pi z / sqrt(1 - z^2)) of what it was; it starts at rest position for phase 0."""
    hz, z = 6.0, 0.05
    period = 1 / (hz * math.sqrt(1 - z * z))
    assert ring(2.0, 0.0, hz, z, 0.0)[0] == pytest.approx(0.0)
    a, _ = ring(2.0, period / 4, hz, z, 0.0)
    b, _ = ring(2.0, period / 4 + period, hz, z, 0.0)
    assert b / a == pytest.approx(math.exp(-2 * math.pi * z / math.sqrt(1 - z * z)), rel=1e-6)
    # the velocity is the position's derivative (central difference)
    t, dt = 0.137, 1e-6
    v = (ring(2.0, t + dt, hz, z, 0.3)[0] - ring(2.0, t - dt, hz, z, 0.3)[0]) / (2 * dt)
    assert ring(2.0, t, hz, z, 0.3)[1] == pytest.approx(v, rel=1e-5)


def test_exposure_and_white_balance_wander_slowly_by_their_figures(layout, rig) -> None:
    """60 frames: the picture's brightness varies by about the exposure dither (1 %), its
    blue against green by about the white-balance dither (0.6 %), and both are a slow walk
    (neighbouring frames alike), not fresh each frame."""
    r = _renderer(layout, rig, Temporal(ae_jitter=0.01, wb_jitter=0.006))
    means = []
    for k in range(60):
        img = r.render(SCENE, (), k, jpeg=False).image[200:900, 500:1400].astype(float)
        means.append(img.reshape(-1, 3).mean(axis=0))
    m = np.array(means)
    green = m[:, 1] / m[:, 1].mean()
    blue = (m[:, 0] / m[:, 1]) / (m[:, 0] / m[:, 1]).mean()
    assert 0.004 < green.std() < 0.025
    assert 0.002 < blue.std() < 0.015
    lag1 = np.corrcoef(green[:-1], green[1:])[0, 1]
    assert lag1 > 0.4
    steady = _renderer(layout, rig, Temporal())
    a = steady.render(SCENE, (), 0, jpeg=False).image
    assert np.array_equal(a, steady.render(SCENE, (), 7, jpeg=False).image)  # no noise here


def test_autofocus_hunting_softens_the_frames_it_sweeps(layout, rig) -> None:
    """Frames in the middle of a hunt (focus a fifth or more away) are measurably softer
    (variance of the Laplacian) than frames in focus."""
    r = _renderer(layout, rig, Temporal(af_hunt_rate_hz=2.0), coc_px=4.5, lens_blur_px=0.6)
    sharp, soft = [], []
    for k in range(90):
        d = abs(r.frame_effects(k).defocus)
        if 0.02 <= d < 0.2:
            continue
        gray = cv2.cvtColor(r.render(SCENE, (), k, jpeg=False).image, cv2.COLOR_BGR2GRAY)
        value = float(cv2.Laplacian(gray[150:950, 400:1500], cv2.CV_64F).var())
        (soft if d >= 0.2 else sharp).append(value)
    assert sharp and soft
    assert max(soft) < 0.85 * min(sharp)


def test_cameras_whose_exposure_follows_the_mains_show_no_bands() -> None:
    """Over many evenings: a whole number of half-periods gives sinc = 0 (no bands), about
    the anti-flicker share of them; the rest show bands no deeper than the lamp flickers."""
    look = LOOKS["webcam"]
    synced = banded = 0
    for seed in range(400):
        t = look.sample(seed).temporal
        half = 1000 / t.flicker_hz
        if t.flicker_depth == 0:
            continue
        if abs(t.flicker_exposure_ms / half - round(t.flicker_exposure_ms / half)) < 1e-9:
            assert t.band_amplitude < 1e-9
            synced += 1
        else:
            x = math.pi * t.flicker_hz * t.flicker_exposure_ms / 1000
            assert t.band_amplitude == pytest.approx(t.flicker_depth * abs(math.sin(x) / x))
            banded += 1
    assert synced / (synced + banded) == pytest.approx(ANTI_FLICKER[0], abs=0.08)
    ideal = LOOKS["ideal"].sample(1).temporal
    assert ideal.band_amplitude == 0 and ideal.touch_rate_hz == 0 and ideal.ae_jitter == 0
    assert LOOKS["webcam-720p"].sample(1).temporal.af_hunt_rate_hz == 0  # fixed focus


def test_each_frame_is_compressed_at_its_own_quality(layout, rig) -> None:
    """No noise and nothing else changing: frame k is exactly the still picture through
    OpenCV's JPEG at the scene's quality plus that frame's step, so frames differ only where
    their steps differ."""
    r = _renderer(layout, rig, Temporal(jpeg_jitter=4), jpeg_quality=70)
    still = r.render(SCENE, (), 0, jpeg=False).image
    steps = set()
    for k in range(8):
        delta = r.frame_effects(k).jpeg_delta
        assert -4 <= delta <= 4
        steps.add(delta)
        ok, buf = cv2.imencode(".jpg", still, [cv2.IMWRITE_JPEG_QUALITY, 70 + delta])
        assert ok
        want = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert np.array_equal(r.render(SCENE, (), k).image, want)
    assert len(steps) >= 3
