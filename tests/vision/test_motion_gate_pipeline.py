"""The motion gate in the pipeline, on the simulator's camera: a still table is mostly skipped
(its frames, kept as JPEG, never decoded whole), and a card laid after the still spell is in
the settled table within two frames of when every frame is read (the simulator's truth says
which card; the gate-off pipeline says how fast "as before" is)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from companion.benchmarks.battery import NEW_CARD, tables
from companion.benchmarks.vision import (
    GAME,
    GAME_CODE,
    MODULES,
    Numbers,
    bench_mat,
    number_of,
)
from companion.sim.presets import make_renderer
from companion.sim.source import SnapshotPlayer, Timing
from companion.vision.motion_gate import EVERY_FRAME, GateSettings
from companion.vision.pipeline import build_pipeline
from companion.vision.sources import EncodedFrame

PRESET = "overhead-webcam-720p"
DT = 1 / 30
STILL = 30  # frames of the still spell
LAID = 11  # frames after the card is laid (it settles on the 8th or 9th)
SHOTS = 2  # renders of each table, cycled (each with its own sensor noise)


@pytest.fixture(scope="module")
def video() -> tuple[list[bytes], int]:
    """JPEG frames: the still table, then the same with one more card; and the frame index
    where the new card appears."""
    mat = bench_mat(25.0, MODULES["microqr"])
    start, laid = tables(mat, seed=1)
    renderer = make_renderer(mat, PRESET, None, 1)
    player = SnapshotPlayer(renderer, [start, laid], GAME_CODE, number_of, Timing(), True, 1)
    shots: dict[int, list[bytes]] = {}
    for shown in (0, 1):
        shots[shown] = []
        for k in range(SHOTS):
            rendered = renderer.render(player.scene(shown), [], 10 * shown + k)
            if shown == 1:
                assert any(m.key == NEW_CARD and m.visible for m in rendered.truth.markers)
            ok, jpeg = cv2.imencode(".jpg", rendered.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            assert ok
            shots[shown].append(jpeg.tobytes())
    frames = [shots[0][i % SHOTS] for i in range(STILL)] + \
        [shots[1][i % SHOTS] for i in range(LAID)]
    return frames, STILL


QUICK = GateSettings(quiet_s=0.2)  # skipping starts sooner: a shorter clip shows it


def run(frames: list[bytes], gate: GateSettings) -> tuple[list[tuple[Any, EncodedFrame]], Any]:
    """Each frame's update (and the frame), and the pipeline as the clip left it."""
    mat = bench_mat(25.0, MODULES["microqr"])
    pipeline = build_pipeline(mat, GAME, Numbers(), gate=gate)
    out = []
    for i, jpeg in enumerate(frames):
        frame = EncodedFrame(index=i, time_s=i * DT, jpeg=np.frombuffer(jpeg, np.uint8))
        out.append((pipeline.process(frame), frame))
    return out, pipeline


@pytest.fixture(scope="module")
def gated(video: tuple[list[bytes], int]) -> tuple[list[tuple[Any, EncodedFrame]], Any]:
    """The clip through a gated pipeline (read by both tests: the second goes on with it)."""
    return run(video[0], QUICK)


def first_with_new_card(updates: list[tuple[Any, EncodedFrame]]) -> int | None:
    for i, (update, _) in enumerate(updates):
        if update.snapshot is not None and any(c.uid == NEW_CARD
                                               for c in update.snapshot.cards):
            return i
    return None


def test_a_card_laid_after_a_still_spell_settles_as_fast_as_before(
        video: tuple[list[bytes], int], gated: tuple[list[Any], Any]) -> None:
    frames, laid_at = video
    updates = gated[0]
    every, _ = run(frames, EVERY_FRAME)
    skipped = [not u.stats.read for u, _ in updates[:laid_at]]
    assert sum(skipped) >= laid_at // 3  # the still spell was mostly skipped ...
    assert skipped[laid_at - 5:] != [False] * 5  # ... up to the card
    assert all(not f.decoded for (u, f) in updates if not u.stats.read)  # never decoded
    assert updates[laid_at][0].stats.read and updates[laid_at][0].stats.gate == "motion"
    settled_every = first_with_new_card(every)
    assert settled_every is not None and settled_every >= laid_at
    settled_gated = first_with_new_card(updates)
    # the readers' schedules (ArUco passes every other frame while settling, searches) fall
    # on other frames after a still spell: a frame or two either way, never more
    assert settled_gated is not None and settled_gated <= settled_every + 2


def test_a_frozen_or_black_picture_is_still_reported_while_the_gate_skips(
        video: tuple[list[bytes], int], gated: tuple[list[Any], Any]) -> None:
    frames, _ = video
    _, pipeline = gated
    clock = len(frames)

    def feed(jpeg: bytes) -> Any:
        nonlocal clock
        frame = EncodedFrame(index=clock, time_s=clock * DT, jpeg=np.frombuffer(jpeg, np.uint8))
        clock += 1
        return pipeline.process(frame)

    last = frames[-1]
    still = [feed(last if k % 2 else frames[-2]) for k in range(12)]  # the table, settled
    assert not still[-1].stats.read  # the gate skips it
    # the camera freezes: the very same picture again and again (a real one always has noise)
    frozen = [feed(last) for _ in range(75)]
    states = [u.stats.input for u in frozen]
    assert "frozen" in states and states.index("frozen") <= 2.2 / DT
    assert not frozen[-1].stats.recording and frozen[-1].stats.messages
    ok, black = cv2.imencode(".jpg", np.zeros((720, 1280, 3), np.uint8))
    assert ok
    dark = feed(black.tobytes())
    assert dark.stats.input == "black" and not dark.stats.recording
