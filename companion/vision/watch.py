"""`companion watch SOURCE [SOURCE ...] --game G`: the live pipeline without the page.

Reads a camera index, a video file, an image folder or a stream through the same pipeline as
`companion serve`, prints every settled table (a JSON line each with `--json`, for scripts and
benchmarks), tells on stderr when the camera's health changes (mat not found, mirrored picture,
black or frozen frames), and exits at the end of a file or folder. Nothing is recorded.

Several sources are several cameras on one table (two laptops with mirror clips, one at each
long edge): each runs its own eye (its own mat fit and mirror detection), and their settled
readings are fused in mat coordinates into one table (`companion.vision.multicam`). A camera
whose source ends or fails leaves the others running; stderr says which half of the mat is
then not watched.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from companion.games import GAMES
from companion.markers.dice_sets import DICE_MODE_HELP, DICE_MODES
from companion.snapshot import TableSnapshot
from companion.vision.heap import freeze_loaded_objects
from companion.vision.multicam import (
    CameraView,
    CornerAnchors,
    FusedTable,
    fuse,
    zone_centres,
)

GAME_IDS = list(GAMES)


def format_snapshot(snap: TableSnapshot) -> str:
    """One settled table in a few readable lines."""
    lines = [f"#{snap.seq} at {snap.time_s:.2f} s: {len(snap.cards)} card(s), "
             f"{len(snap.dice)} die/dice, {len(snap.tokens)} token(s)"]
    for c in sorted(snap.cards, key=lambda c: (c.zone, c.uid)):
        extra = "".join([", face down" if not c.face_up else "", ", tapped" if c.tapped else "",
                         f", on {c.on}" if c.on else ""])
        lines.append(f"  {c.uid:18} {c.zone}{extra}")
    for d in sorted(snap.dice, key=lambda d: d.die):
        on = f", on {d.on}" if d.on else ""
        rolls = f", rolled {d.rolls}x" if d.rolls else ""
        lines.append(f"  die {d.die:14} {d.value} in {d.zone}{on}{rolls}")
    for t in snap.tokens:
        lines.append(f"  token {t.token:12} {t.zone}" + (f", on {t.on}" if t.on else ""))
    if snap.unknown_markers:
        lines.append("  unknown markers: " + ", ".join(snap.unknown_markers))
    return "\n".join(lines)


def watch_source(source: Any, pipeline: Any, as_json: bool, seconds: float | None = None,
                 echo: Any = click.echo) -> tuple[int, int]:
    """Run `pipeline` over `source` until it ends (or `seconds` pass); (frames, snapshots)."""
    frames = snapshots = 0
    said: tuple[str, ...] = ()
    deadline = None if seconds is None else time.monotonic() + seconds
    freeze_loaded_objects()
    try:
        while deadline is None or time.monotonic() < deadline:
            frame = source.read()
            if frame is None:
                if getattr(source, "state", None) == "retrying":
                    time.sleep(0.2)
                    continue
                break
            frames += 1
            update = pipeline.process(frame)
            messages = tuple(update.stats.messages)
            if messages != said:
                said = messages
                for message in messages or ("Camera OK: the mat is in view.",):
                    echo(f"[frame {frame.index}] {message}", err=True)
            if update.snapshot is not None:
                snapshots += 1
                echo(update.snapshot.to_json() if as_json else format_snapshot(update.snapshot))
    finally:
        source.close()
    return frames, snapshots


BUSY_FOR_LONG = 90
"""Rounds (about 3 s at 30 fps) after which a camera that sees a hand or motion all along no
longer holds the fused table back."""


@dataclass
class Eye:
    """One camera of a table: its source, its own pipeline, and its latest settled reading."""

    name: str
    source: Any
    pipeline: Any
    anchors: CornerAnchors
    snapshot: TableSnapshot | None = None
    live: bool = True
    busy_rounds: int = 0
    said: tuple[str, ...] = ()
    frames: int = 0

    def view(self) -> CameraView:
        geometry = self.pipeline.geometry
        clarity = None if geometry is None else geometry.px_per_mm
        return CameraView(self.name, self.snapshot if geometry is not None else None,
                          clarity, self.live, self.anchors.points())


def format_fused(fused: FusedTable) -> str:
    """A fused table: the table, then what was left out and what is not watched."""
    lines = [format_snapshot(fused.snapshot)]
    for u in fused.unsure:
        said = "; ".join(f"{camera} reads {what}" for camera, what in u.readings)
        lines.append(f"  not sure ({u.why}): {said}")
    if (note := fused.note()) is not None:
        lines.append(f"  {note}")
    return "\n".join(lines)


def watch_sources(eyes: list[Eye], game: str, layout: Any, as_json: bool,
                  seconds: float | None = None, echo: Any = click.echo) -> tuple[int, int]:
    """Run every camera's eye a frame at a time, in turn, until every source has ended (or
    `seconds` pass), and print the fused table each time it changes while no camera sees a
    hand or motion; (frames, fused tables printed)."""
    zones = zone_centres(layout)
    printed = 0
    seq = 0
    shown: FusedTable | None = None
    pending = False
    time_s = 0.0
    deadline = None if seconds is None else time.monotonic() + seconds
    freeze_loaded_objects()
    try:
        while any(e.live for e in eyes) and (deadline is None or time.monotonic() < deadline):
            waiting = True
            for eye in (e for e in eyes if e.live):
                try:
                    frame = eye.source.read()
                    if frame is None and getattr(eye.source, "state", None) == "retrying":
                        continue
                    update = None if frame is None else eye.pipeline.process(frame)
                except Exception as exc:  # a failing camera leaves the others running
                    _drop(eye, f"failed ({exc})", echo)
                    pending = True
                    continue
                if frame is None or update is None:
                    _drop(eye, "ended", echo)
                    pending = True
                    continue
                waiting = False
                eye.frames += 1
                eye.anchors.see(update.detections)
                time_s = max(time_s, frame.time_s)
                messages = tuple(update.stats.messages)
                if messages != eye.said:
                    eye.said = messages
                    for message in messages or ("Camera OK: the mat is in view.",):
                        echo(f"[{eye.name} frame {frame.index}] {message}", err=True)
                busy = bool(update.stats.hand)
                eye.busy_rounds = eye.busy_rounds + 1 if busy else 0
                if update.snapshot is not None:
                    eye.snapshot = update.snapshot
                    pending = True
            if waiting and any(e.live for e in eyes):
                time.sleep(0.2)  # only reconnecting cameras: wait for one to come back
            quiet = all(e.busy_rounds == 0 or e.busy_rounds > BUSY_FOR_LONG
                        for e in eyes if e.live)
            if pending and quiet and any(e.live for e in eyes):
                pending = False
                fused = fuse([e.view() for e in eyes], game, zones, float(layout.height_mm),
                             seq + 1, time_s)
                if shown is None or not _same(fused, shown):
                    seq += 1
                    shown = fused
                    printed += 1
                    echo(fused.snapshot.to_json() if as_json else format_fused(fused))
                    if as_json and (note := fused.note()) is not None:
                        echo(note, err=True)
    finally:
        for eye in eyes:
            eye.source.close()
    return sum(e.frames for e in eyes), printed


def _same(a: FusedTable, b: FusedTable) -> bool:
    return (a.snapshot.same_table(b.snapshot) and a.unwatched_halves == b.unwatched_halves
            and a.dropped == b.dropped)


def _drop(eye: Eye, how: str, echo: Any) -> None:
    eye.live = False
    echo(f"[{eye.name}] source {how}: the other cameras go on.", err=True)


def open_frames(source: str, fps: float | None, encoded: bool = False) -> Any:
    """`encoded`: a Motion-JPEG file or camera gives its frames undecoded (`open_source`;
    for a pipeline with the motion gate on)."""
    from companion.vision.sources import ImageFolderSource, ReconnectingSource, open_source

    path = Path(source).expanduser()
    if path.is_dir():
        return ImageFolderSource(path, fps=fps or 1.0)
    if path.is_file():
        return open_source(str(path), encoded)
    first = [open_source(source, encoded)]  # a camera or stream: fail now if it cannot open

    def reopen() -> Any:
        return first.pop() if first else open_source(source, encoded)

    return ReconnectingSource(reopen)


@click.command()
@click.argument("sources", nargs=-1, required=True, metavar="SOURCE [SOURCE ...]")
@click.option("--game", type=click.Choice(GAME_IDS), required=True, help="The mat in view.")
@click.option("--mirror/--no-mirror", default=None,
              help="The picture is (not) mirrored, e.g. by a laptop's mirror clip "
                   "[default: found from the mat's corner markers; a wrong choice is "
                   "overruled by them, and the page says so].")
@click.option("--json", "as_json", is_flag=True, help="One JSON line per settled table.")
@click.option("--fps", type=float, default=None,
              help="Image folders: pictures per second of table time [default: 1].")
@click.option("--seconds", type=float, default=None,
              help="Stop after this long (a camera runs until Ctrl-C otherwise).")
@click.option("--counters", type=click.IntRange(0, 6), default=0, show_default=True,
              help="Counter dice per player on the table (pN.c1..).")
@click.option("--dice", "dice_mode", type=click.Choice(DICE_MODES), default=None,
              help=DICE_MODE_HELP)
def watch(sources: tuple[str, ...], game: str, mirror: bool | None, as_json: bool,
          fps: float | None, seconds: float | None, counters: int, dice_mode: str | None
          ) -> None:
    """Watch SOURCE (camera index, video file, image folder or stream URL) headless: print
    each settled table; ends with the file or folder. Several SOURCEs are several cameras
    on one table (e.g. two laptops, one at each long edge): their readings are fused."""
    from companion.cardsets import load_cardset
    from companion.games import game_dice
    from companion.layouts import load_layout
    from companion.markers.dice_sets import dice_mode as dice_mode_named
    from companion.vision.pipeline import build_pipeline

    layout = load_layout(game)
    cardset = load_cardset(game)

    def eye() -> Any:
        return build_pipeline(layout, game, cardset, mirror=mirror,
                              dice=game_dice(game, counters),
                              dice_mode=dice_mode_named(dice_mode))

    opened: list[Any] = []
    try:
        for source in sources:
            opened.append(open_frames(source, fps))
    except BaseException:
        for frames in opened:
            frames.close()
        raise
    try:
        if len(sources) == 1:
            count, settled = watch_source(opened[0], eye(), as_json, seconds)
        else:
            eyes = [Eye(f"camera {k + 1}", frames, eye(), CornerAnchors(layout))
                    for k, frames in enumerate(opened)]
            for k, source in enumerate(sources):
                click.echo(f"camera {k + 1}: {source}", err=True)
            count, settled = watch_sources(eyes, game, layout, as_json, seconds)
    except KeyboardInterrupt:
        return
    click.echo(f"{count} frames, {settled} settled table(s)", err=True)
