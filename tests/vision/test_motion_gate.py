"""The motion gate on synthetic pictures whose changes are known by construction: a still table
with sensor noise and auto-exposure drift (never a change), a card laid, a hand reaching in
from the picture's border (a change, on the first frame that shows it)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.motion_gate import GateSettings, GateSettingsError, MotionGate
from companion.vision.table_cues import small_copy

W, H = 960, 544  # half 1080p: cue copies of 120 x 68, gate pictures of 60 x 34
DT = 1 / 30
CARD = (58, 80)  # a 63 x 88 mm card at about 0.9 px/mm


def table(seed: int = 1) -> np.ndarray:
    """A green mat with printed cards on it (blocks of colour and sticker-like squares)."""
    rng = np.random.default_rng(seed)
    image = np.zeros((H, W, 3), np.float32)
    image[:] = (60, 120, 50)
    for _ in range(12):
        x, y = int(rng.integers(20, W - 80)), int(rng.integers(20, H - 100))
        image[y:y + CARD[1], x:x + CARD[0]] = rng.integers(40, 240, 3)
        image[y + 10:y + 30, x + 10:x + 30] = (20, 20, 20)
    return image


NOISE = np.random.default_rng(0).normal(0.0, 1.0, (6, H, W, 3)).astype(np.float32)


def shot(scene: np.ndarray, rng: np.random.Generator, gain: float = 1.0,
         noise: float = 6.0) -> np.ndarray:
    """One camera frame: the scene at this exposure, with sensor noise (one of six fields of
    independent pixel noise, drawn at random), as 8-bit BGR."""
    frame = cv2.scaleAdd(NOISE[int(rng.integers(len(NOISE)))], noise, scene * gain)
    return np.clip(frame, 0, 255, out=frame).astype(np.uint8)


def settled_gate(scene: np.ndarray, rng: np.random.Generator,
                 settings: GateSettings | None = None) -> tuple[MotionGate, float]:
    """A gate after a full read of `scene` that found the table settled, and a quiet second
    of reads: from here on it may skip."""
    gate = MotionGate(settings or GateSettings())
    t = 0.0
    while True:
        small = small_copy(shot(scene, rng))
        decision = gate.decide(small, t)
        if not decision.read:
            return gate, t
        gate.was_read(small, t, settled=True)
        t += DT


def play(gate: MotionGate, frames: list[np.ndarray], t0: float) -> list[tuple[bool, str]]:
    """Each frame's (read, reason); a read frame is reported back as settled."""
    out = []
    for k, frame in enumerate(frames):
        small = small_copy(frame)
        t = t0 + (k + 1) * DT
        decision = gate.decide(small, t)
        if decision.read:
            gate.was_read(small, t, settled=decision.reason != "motion")
        out.append((decision.read, decision.reason))
    return out


def test_a_still_table_is_skipped_but_for_the_slow_schedule() -> None:
    rng = np.random.default_rng(2)
    scene = table()
    settings = GateSettings()
    gate, t0 = settled_gate(scene, rng, settings)
    seconds = 4.5
    frames = [shot(scene, rng) for _ in range(int(seconds * 30))]
    got = play(gate, frames, t0)
    reads = [reason for read, reason in got if read]
    assert all(reason == "schedule" for reason in reads)
    bursts = seconds / settings.reread_s
    assert len(reads) <= (bursts + 1) * settings.reread_frames
    assert len(reads) >= (bursts - 1) * settings.reread_frames  # the schedule does run


def test_noise_and_auto_exposure_drift_are_no_change() -> None:
    rng = np.random.default_rng(3)
    scene = table()
    gate, t0 = settled_gate(scene, rng)
    # the exposure creeps up 12 % in four seconds (an auto-exposure hunting), with more noise
    frames = [shot(scene, rng, gain=1.0 + 0.12 * k / 120, noise=10.0) for k in range(120)]
    assert all(reason in ("still", "schedule") for _, reason in play(gate, frames, t0))


def test_a_noisy_camera_is_no_change_yet_a_card_laid_still_is() -> None:
    """A cheap camera at high gain in a dim room (60 grey levels of pixel noise): at the fixed
    level its noise alone fires the gate now and then; the level founded on the noise the gate
    measures does not fire, and still sees a card laid on its first frame."""
    scene = table()
    laid = scene.copy()
    laid[200:200 + CARD[1], 450:450 + CARD[0]] = (230, 225, 220)

    def reasons(settings: GateSettings, frames: int, laid_at: int) -> list[str]:
        rng = np.random.default_rng(11)
        gate, t = MotionGate(settings), 0.0
        out: list[str] = []
        while len(out) < frames and "motion" not in out:
            small = small_copy(shot(laid if len(out) == laid_at else scene, rng, noise=60.0))
            decision = gate.decide(small, t)
            if decision.read:
                gate.was_read(small, t, settled=True)
            out.append(decision.reason)
            t += DT
        return out

    # two seconds of a settled table (compared from the first frame on: quiet_s 0)
    assert "motion" in reasons(GateSettings(noise_sigmas=0.0, quiet_s=0.0), 60, -1)
    founded = reasons(GateSettings(quiet_s=0.0), 60, 59)  # the level founded on the noise
    assert "motion" not in founded[:59] and founded[59] == "motion"


def test_a_card_laid_is_read_on_the_frame_that_shows_it() -> None:
    rng = np.random.default_rng(4)
    scene = table()
    gate, t0 = settled_gate(scene, rng)
    laid = scene.copy()
    x, y = W // 2 - CARD[0] // 2, H // 2 - CARD[1] // 2
    laid[y:y + CARD[1], x:x + CARD[0]] = (230, 225, 220)
    laid[y + 10:y + 30, x + 10:x + 30] = (20, 20, 20)
    frames = [shot(scene, rng) for _ in range(20)] + [shot(laid, rng) for _ in range(5)]
    got = play(gate, frames, t0)
    assert [reason for _, reason in got[:20]].count("motion") == 0
    assert got[20] == (True, "motion")
    assert all(read for read, _ in got[20:])  # then every frame, until it has settled


def test_a_hand_reaching_in_is_seen_as_it_comes() -> None:
    rng = np.random.default_rng(5)
    scene = table()
    gate, t0 = settled_gate(scene, rng)
    frames = [shot(scene, rng) for _ in range(10)]
    for k in range(1, 6):  # an arm of a dark sleeve, 60 px wide, coming in from the bottom
        reach = 25 * k
        arm = scene.copy()
        arm[H - reach:, 420:480] = (70, 60, 90)
        frames.append(shot(arm, rng))
    got = play(gate, frames, t0)
    assert "motion" not in [reason for _, reason in got[:10]]
    assert got[10] == (True, "motion")  # 25 px of arm at the border: the first frame


def test_a_die_sized_change_is_enough() -> None:
    """A die rolled onto the mat (16 mm: 44 px at 1080p over a 70 cm picture, 22 px here)
    changes few gate pixels, but enough."""
    rng = np.random.default_rng(6)
    scene = table()
    gate, t0 = settled_gate(scene, rng)
    rolled = scene.copy()
    rolled[300:322, 100:122] = (235, 235, 235)
    got = play(gate, [shot(scene, rng), shot(rolled, rng)], t0)
    assert got[1] == (True, "motion")


def test_a_resting_table_is_looked_at_every_third_frame_and_a_hand_still_seen() -> None:
    rng = np.random.default_rng(8)
    scene = table()
    settings = GateSettings(rest_s=1.0, look_every=3)
    gate, t = settled_gate(scene, rng, settings)
    looked = []
    arm = scene.copy()
    arm[H - 60:, 420:480] = (70, 60, 90)
    seen_at = None
    for k in range(90):  # three seconds, the arm in view from the 80th frame on
        t += DT
        frame = shot(arm if k >= 80 else scene, rng)
        if not gate.looks_at(t):
            looked.append(False)
            continue
        looked.append(True)
        small = small_copy(frame)
        decision = gate.decide(small, t)
        if decision.read:
            gate.was_read(small, t, settled=decision.reason != "motion")
        if decision.reason == "motion" and seen_at is None:
            seen_at = k
    resting = looked[40:80]  # settled for more than a second: every third frame, and the
    # two frames of a scheduled re-read (one falls in these 40 frames, 1.3 s)
    assert 13 <= sum(resting) <= 14 + 2
    assert seen_at is not None and seen_at - 80 <= 2  # the arm: the next frame looked at


@pytest.mark.parametrize("hand", [False, True], ids=["arm-trembles", "hand-came"])
def test_after_a_change_without_a_hand_the_gate_skips_once_settled(hand: bool) -> None:
    """The camera jolts (the picture shifted 6 px for a few frames, as an arm rings when the
    table is bumped) and comes back: nothing was laid, so once the pipeline finds the table
    settled the gate skips at once; had a hand been in view, it reads on for the quiet
    second."""
    rng = np.random.default_rng(9)
    scene = table()
    settings = GateSettings()
    gate, t = settled_gate(scene, rng, settings)
    jolted = np.roll(scene, 6, axis=1)
    frames = [shot(jolted if k % 2 else np.roll(scene, -6, axis=1), rng) for k in range(4)]
    frames += [shot(scene, rng) for _ in range(45)]
    got = []
    for k, frame in enumerate(frames):
        t += DT
        small = small_copy(frame)
        decision = gate.decide(small, t)
        if decision.read:  # the pipeline: moving while jolting, then settled
            gate.was_read(small, t, settled=k >= 4, eventful=hand and k < 4)
        got.append(decision.reason)
    assert got[0] == "motion"
    reads_after = got[5:].count("settling")
    if hand:
        assert reads_after >= settings.quiet_s * 30 - 2  # the quiet second, read in full
    else:
        assert reads_after == 0 and got[5] == "still"  # skipping from the next frame on


def test_a_change_that_stays_is_read_for_the_quiet_second_even_without_a_hand() -> None:
    """A card appears (no hand seen: a cut in a clip, a hand the cues missed): the picture is
    not as before, so the tracker gets its quiet second of reads to confirm it."""
    rng = np.random.default_rng(10)
    scene = table()
    gate, t = settled_gate(scene, rng)
    laid = scene.copy()
    laid[200:200 + CARD[1], 450:450 + CARD[0]] = (230, 225, 220)
    got = []
    for k in range(40):
        t += DT
        small = small_copy(shot(laid, rng))
        decision = gate.decide(small, t)
        if decision.read:
            gate.was_read(small, t, settled=k >= 2, eventful=False)
        got.append(decision.reason)
    assert got[0] == "motion" and got[1:31] == ["settling"] * 30


def test_off_reads_every_frame() -> None:
    rng = np.random.default_rng(7)
    scene = table()
    gate = MotionGate(GateSettings(enabled=False))
    got = play(gate, [shot(scene, rng) for _ in range(40)], 0.0)
    assert got == [(True, "off")] * 40


def test_settings_that_cannot_work_say_so() -> None:
    with pytest.raises(GateSettingsError, match="reread_s > 0"):
        GateSettings(reread_s=0.0)
    with pytest.raises(GateSettingsError, match="level > 0"):
        GateSettings(level=0.0)
    assert issubclass(GateSettingsError, ValueError)
