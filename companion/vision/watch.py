"""`companion watch SOURCE --game G`: the live pipeline without the page.

Reads a camera index, a video file, an image folder or a stream through the same pipeline as
`companion serve`, prints every settled table (a JSON line each with `--json`, for scripts and
benchmarks), tells on stderr when the camera's health changes (mat not found, mirrored picture,
black or frozen frames), and exits at the end of a file or folder. Nothing is recorded.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from companion.games import GAMES
from companion.markers.dice_sets import DICE_MODE_HELP, DICE_MODES
from companion.snapshot import TableSnapshot
from companion.vision.heap import freeze_loaded_objects

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


@click.command()
@click.argument("source")
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
def watch(source: str, game: str, mirror: bool | None, as_json: bool, fps: float | None,
          seconds: float | None, counters: int, dice_mode: str | None) -> None:
    """Watch SOURCE (camera index, video file, image folder or stream URL) headless: print
    each settled table; ends with the file or folder."""
    from companion.cardsets import load_cardset
    from companion.games import game_dice
    from companion.layouts import load_layout
    from companion.markers.dice_sets import dice_mode as dice_mode_named
    from companion.vision.pipeline import build_pipeline
    from companion.vision.sources import ImageFolderSource, ReconnectingSource, open_source

    path = Path(source).expanduser()
    frames: Any
    if path.is_dir():
        frames = ImageFolderSource(path, fps=fps or 1.0)
    elif path.is_file():
        frames = open_source(str(path))
    else:
        first = [open_source(source)]  # a camera or stream: fail now if it cannot open at all

        def reopen() -> Any:
            return first.pop() if first else open_source(source)

        frames = ReconnectingSource(reopen)
    layout = load_layout(game)
    pipeline = build_pipeline(layout, game, load_cardset(game), mirror=mirror,
                              dice=game_dice(game, counters),
                              dice_mode=dice_mode_named(dice_mode))
    try:
        count, settled = watch_source(frames, pipeline, as_json, seconds)
    except KeyboardInterrupt:
        return
    click.echo(f"{count} frames, {settled} settled table(s)", err=True)
