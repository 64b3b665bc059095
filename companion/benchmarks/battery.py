"""`companion bench battery`: what the eye costs on a still table, and what the motion gate saves.

Two videos from the simulator (the 1080p overhead webcam over the 40-place bench mat, Motion-JPEG
like a webcam's, 30 fps): a still table for `--seconds`, and the same table where, after a still
spell, a hand lays one more card in the middle of the mat. Each plays in real time (a frame
handed over when its time has come, as a camera gives them) through the video source and the
vision pipeline, with the page's preview pictures made as the live feed makes them, three ways:

- `every frame`: the pipeline as before the gate (every frame decoded and read in full);
- `gate`: the motion gate on, frames decoded as they come;
- `gate + jpeg`: the motion gate on, frames kept as JPEG and decoded only when read in full
  (what `companion serve` and `join` do with a Motion-JPEG video file, and with a webcam that
  gives Motion-JPEG through OpenCV's V4L2 reader: `CameraSource(encoded=True)`);
- `gate + jpeg, re-read 4 s`: the same with the still table re-read half as often.

CPU: the process's processor time (`time.process_time`, every thread) over the video's
duration, which is the playback's wall time when it keeps pace (on a shared machine it lags:
`wall_s` says by how much, and processor time is what a laptop's battery pays); start-up
(imports, pipeline, opening the file) left out; also from the third second on, when the first
look at the table is over. Laid card: frames from the first frame
whose truth shows the new card's sticker to the first frame whose markers include it ("read")
and to the first settled table that holds it, and whether the gate had been skipping just
before the hand came (else the figure says nothing about the gate).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import click
import cv2

from companion.benchmarks.vision import (
    GAME,
    GAME_CODE,
    MODULES,
    BenchMat,
    Numbers,
    bench_mat,
    number_of,
    scenario_snapshots,
)
from companion.server.feeds import (
    FRAME_JPEG_EVERY_S,
    FRAME_JPEG_STILL_EVERY_S,
    PREVIEW_WIDTH,
    overlay_jpeg,
    picture_of,
)
from companion.sim.presets import DEFAULT_PRESET, make_renderer
from companion.sim.source import SnapshotPlayer, Timing
from companion.snapshot import SeenCard, TableSnapshot
from companion.vision.motion_gate import EVERY_FRAME, GateSettings
from companion.vision.pipeline import build_pipeline
from companion.vision.sources import VideoFileSource

FPS = 30.0
CARDS = 20
NEW_CARD = "S99#1"
MJPEG_QUALITY = 90
WARM_S = 2.0  # the first look at a table (mat fit, first full passes) ends before this
MODES: dict[str, tuple[GateSettings, bool]] = {
    "every frame": (EVERY_FRAME, False),
    "gate": (GateSettings(), False),
    "gate + jpeg": (GateSettings(), True),
    "gate + jpeg, re-read 4 s": (GateSettings(reread_s=4.0), True),
}


@dataclass(frozen=True)
class Video:
    path: Path
    frames: int
    card_visible: int | None  # first frame whose truth shows the new card's sticker
    hand_from: int | None  # first frame with a hand in the picture
    card_text: str | None  # the new card's sticker as the simulator printed it


@dataclass(frozen=True)
class Playback:
    video: str
    mode: str
    frames: int
    wall_s: float
    cpu_pct: float
    cpu_pct_warm: float  # from WARM_S on
    read_frames: int
    skipped_frames: int
    decoded_frames: int
    card_read_after: int | None = None  # frames from the card's sticker shown to its first read
    card_settled_after: int | None = None  # ... to the first settled table holding it
    skipping_before_hand: bool | None = None


def tables(mat: BenchMat, seed: int) -> tuple[TableSnapshot, TableSnapshot]:
    """The still table, and the same with one more card in the free zone nearest the middle."""
    start = scenario_snapshots(mat, CARDS, 0, seed)[0]
    used = {c.zone for c in start.cards}
    free = [z for z in mat.zones.values() if z.id not in used]
    mx, my = mat.width_mm / 2, mat.height_mm / 2
    zone = min(free, key=lambda z: (z.x_mm + z.w_mm / 2 - mx) ** 2
               + (z.y_mm + z.h_mm / 2 - my) ** 2)
    x, y = zone.x_mm + zone.w_mm / 2, zone.y_mm + zone.h_mm / 2
    laid = TableSnapshot(GAME, cards=(*start.cards, SeenCard(NEW_CARD, zone.id, True, False,
                                                             None, x, y, 0.0)),
                         dice=start.dice)
    return start, laid


def render(path: Path, mat: BenchMat, snaps: list[TableSnapshot], timing: Timing,
           frames: int, seed: int) -> Video:
    """The snapshots played with hands (`SnapshotPlayer`), held still to `frames` frames."""
    renderer = make_renderer(mat, DEFAULT_PRESET, None, seed)
    player = SnapshotPlayer(renderer, snaps, GAME_CODE, number_of, timing, True, seed)
    plan = list(player.plan())
    plan += [(plan[-1][0], [], True, 0.0)] * max(0, frames - len(plan))
    writer: Any = None
    card_visible = hand_from = None
    card_text = None
    try:
        for index, (shown, hands, _settled, _done) in enumerate(plan[:frames]):
            rendered = renderer.render(player.scene(shown), hands, index)
            if writer is None:
                h, w = rendered.image.shape[:2]
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), FPS,
                                         (w, h))
                writer.set(cv2.VIDEOWRITER_PROP_QUALITY, MJPEG_QUALITY)
            writer.write(rendered.image)
            if hand_from is None and hands:
                hand_from = index
            for m in rendered.truth.markers:
                if card_visible is None and m.key == NEW_CARD and m.visible:
                    card_visible, card_text = index, m.text
    finally:
        if writer is not None:
            writer.release()
    return Video(path, min(frames, len(plan)), card_visible, hand_from, card_text)


def play(video: Video, name: str, mat: BenchMat, mode: str) -> Playback:
    """The video in real time through the source, the pipeline and the preview pictures."""
    gate, encoded = MODES[mode]
    source = VideoFileSource(video.path, encoded=encoded)
    pipeline = build_pipeline(mat, GAME, Numbers(), gate=gate)
    read_at = settled_at = None
    reads = skips = decoded = 0
    skipping_before_hand = None
    last_preview = -1e9
    warm: tuple[float, float] | None = None
    wall0, cpu0 = time.perf_counter(), time.process_time()
    index = 0
    while True:
        wait = wall0 + index / FPS - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        if warm is None and index >= WARM_S * FPS:
            warm = time.perf_counter(), time.process_time()
        frame = source.read()
        if frame is None:
            break
        update = pipeline.process(frame)
        read = update.stats.read
        reads, skips = reads + read, skips + (not read)
        now = time.perf_counter()
        if update.snapshot is not None or now - last_preview >= (
                FRAME_JPEG_EVERY_S if read else FRAME_JPEG_STILL_EVERY_S):
            last_preview = now
            overlay_jpeg(picture_of(frame, pipeline, update), pipeline, update, PREVIEW_WIDTH)
        decoded += bool(getattr(frame, "decoded", True))
        if video.hand_from is not None and index == video.hand_from - 1:
            skipping_before_hand = not read
        if video.card_visible is not None and index >= video.card_visible:
            if read_at is None and any(d.text == video.card_text for d in update.detections):
                read_at = index
            if settled_at is None and update.snapshot is not None and any(
                    c.uid == NEW_CARD for c in update.snapshot.cards):
                settled_at = index
        index += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    source.close()
    warm_cpu = cpu - (warm[1] - cpu0) if warm else cpu
    seen = video.card_visible
    # over the video's own time: the wall time when the playback keeps pace, and still the
    # figure a laptop would see when a shared machine makes it lag
    duration = index / FPS
    warm_duration = max(duration - WARM_S, 1e-6)
    return Playback(name, mode, index, round(wall, 2), round(100 * cpu / duration, 1),
                    round(100 * warm_cpu / warm_duration, 1), reads, skips, decoded,
                    None if read_at is None or seen is None else read_at - seen,
                    None if settled_at is None or seen is None else settled_at - seen,
                    skipping_before_hand)


def run_battery(seconds: float, still_s: float, seed: int, folder: Path,
                still_only: bool = False) -> list[Playback]:
    mat = bench_mat(25.0, MODULES["microqr"])
    start, laid = tables(mat, seed)
    frames = round(seconds * FPS)
    still = render(folder / "still.avi", mat, [start], Timing(FPS, start_s=seconds), frames,
                   seed)
    moving = None if still_only else render(
        folder / "card-laid.avi", mat, [start, laid],
        Timing(FPS, start_s=still_s, settle_s=seconds), frames, seed)
    out = []
    for mode in MODES:
        out.append(play(still, "still", mat, mode))
        if moving is not None:
            out.append(play(moving, "card laid", mat, mode))
    return out


def format_rows(rows: list[Playback]) -> str:
    lines = ["| video | mode | CPU % of one core | from 2 s on | wall s | frames read / "
             "skipped | decoded | card read after | settled after | gate skipping before the "
             "hand |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        def frames(n: int | None) -> str:
            return "-" if n is None else f"{n} frames"
        before = "-" if r.skipping_before_hand is None else (
            "yes" if r.skipping_before_hand else "no")
        lines.append(f"| {r.video} | {r.mode} | {r.cpu_pct:.1f} | {r.cpu_pct_warm:.1f} | "
                     f"{r.wall_s:.1f} | "
                     f"{r.read_frames} / {r.skipped_frames} | {r.decoded_frames} | "
                     f"{frames(r.card_read_after) if r.video != 'still' else '-'} | "
                     f"{frames(r.card_settled_after) if r.video != 'still' else '-'} | "
                     f"{before} |")
    return "\n".join(lines)


@click.command("battery")
@click.option("--seconds", type=float, default=10.0, show_default=True,
              help="Length of each video.")
@click.option("--still", "still_s", type=float, default=5.0, show_default=True,
              help="Still spell before the hand comes to lay the card.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the rendered videos in this folder.")
@click.option("--still-only", is_flag=True, help="Only the still video (a long one, say).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per playback.")
def bench_battery(seconds: float, still_s: float, seed: int, keep: Path | None,
                  still_only: bool, as_json: bool) -> None:
    """CPU on a still table and frames to read a laid card, with and without the motion
    gate (real-time playback of 1080p Motion-JPEG videos from the simulator)."""
    import json

    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        rows = run_battery(seconds, still_s, seed, folder, still_only)
    if as_json:
        for row in rows:
            click.echo(json.dumps(asdict(row)))
        return
    click.echo(format_rows(rows))
