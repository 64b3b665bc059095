"""`companion demo` and `companion serve`: watch a table (simulated or real) on a local page."""

from __future__ import annotations

import os
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any

import click

from companion.errors import CompanionError
from companion.server.security import needs_pin, new_pin

GAME_IDS = ("trick-or-beat", "fire-emblem-cipher", "my-little-pony-ccg", "challengers",
            "creature-crush")


def _browser_available() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def _run(live: Any, host: str, port: int, open_browser: bool, duration: float | None,
         pin: str | None) -> None:
    """Serve until Ctrl-C (or `duration`), then stop feed and server in order."""
    from companion.server.live_setup import serve_in_thread

    try:
        server, _thread = serve_in_thread(live.app, host, port)
    except OSError as exc:
        live.close()
        raise CompanionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown_host}:{server.server_port}/"
    click.echo(f"Table companion: {url}")
    click.echo(f"  review recorded games: {url}review/   camera: {url}calibration/")
    click.echo(f"  recording to {live.store.path} (game #{live.session.game_id})")
    if pin:
        click.echo(f"  PIN for actions from other devices: {pin}")
    if open_browser and _browser_available():
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    live.runner.start()
    deadline = None if duration is None else time.monotonic() + duration
    try:
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.2)
    except KeyboardInterrupt:
        click.echo("stopping")
    finally:
        live.close()
        server.shutdown()
    if live.runner.error is not None:
        raise CompanionError(f"the camera feed stopped: {live.runner.error}")


@click.command()
@click.option("--game", type=click.Choice(GAME_IDS), default=None,
              help="Which game to play (default: Trick or Beat).")
@click.option("--speed", type=float, default=1.0, show_default=True,
              help="Times real time (2 = twice as fast).")
@click.option("--port", type=int, default=8765, show_default=True, help="0 picks a free port.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but localhost requires a PIN for actions.")
@click.option("--no-browser", is_flag=True, help="Do not try to open a browser.")
@click.option("--duration", type=float, default=None,
              help="Stop after this many seconds (default: run until Ctrl-C).")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Game library to record into (default ~/.companion/games.db).")
@click.option("--fps", type=float, default=10.0, show_default=True,
              help="Simulated camera frames per second.")
def demo(game: str | None, speed: float, port: int, host: str, no_browser: bool,
         duration: float | None, db: Path | None, fps: float) -> None:
    """Play a bundled table script through camera frames, vision, rules and the page."""
    from companion.server.live_setup import DEFAULT_DEMO_GAME, build_demo, check_port, default_db

    check_port(host, port)
    pin = new_pin() if needs_pin(host) else None
    live = build_demo(game or DEFAULT_DEMO_GAME, speed, db or default_db(), fps=fps)
    if pin:
        live.app.config["PIN"] = pin
    click.echo(f"Demo: {live.extra['script'].name} at {speed:g}x")
    _run(live, host, port, not no_browser, duration, pin)


def _parse_decks(values: tuple[str, ...], game: str) -> dict[str, tuple[str, ...]]:
    from companion.decks.copies import number_copies
    from companion.decks.listfile import read_deck

    owners: list[str] = []
    files = []
    for value in values:
        owner, sep, path = value.partition("=")
        if not sep or owner not in ("p1", "p2") or not path:
            raise click.BadParameter(f"use p1=FILE or p2=FILE, not {value!r}", param_hint="--deck")
        if owner in owners:
            raise click.BadParameter(f"{owner} given twice", param_hint="--deck")
        owners.append(owner)
        files.append(read_deck(Path(path), game))
    numbered = number_copies([f.deck for f in files], [f.copies for f in files])
    return {
        owner: tuple(f"{cid}#{copy}" for cid, copy in cards)
        for owner, cards in zip(owners, numbered, strict=True)
    }


@click.command()
@click.option("--camera", type=int, default=None, help="Webcam index (0 is the first).")
@click.option("--video", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A recorded video file.")
@click.option("--url", default=None, help="An HTTP/RTSP camera stream.")
@click.option("--game", type=click.Choice(GAME_IDS), required=True)
@click.option("--deck", "decks", multiple=True, metavar="p1=FILE",
              help="A player's registered deck list (repeat for p2).")
@click.option("--players", default="Player 1,Player 2", show_default=True,
              help="Names of p1 and p2, comma separated.")
@click.option("--port", type=int, default=8765, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but localhost requires a PIN for actions.")
@click.option("--no-browser", is_flag=True)
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--mirror/--no-mirror", default=None,
              help="The picture is (not) mirrored, e.g. by a laptop's mirror clip "
                   "[default: found from the mat's corner markers].")
def serve(camera: int | None, video: str | None, url: str | None, game: str,
          decks: tuple[str, ...], players: str, port: int, host: str, no_browser: bool,
          db: Path | None, mirror: bool | None = None) -> None:
    """Watch a real table: camera, video file or stream, refereed live on the page."""
    from companion.cardsets import load_cardset
    from companion.engine.api import GameConfig
    from companion.layouts import load_layout
    from companion.server.feeds import FrameFeed
    from companion.server.live_setup import build_live, default_db
    from companion.vision.pipeline import build_pipeline
    from companion.vision.sources import ReconnectingSource, open_source

    given = [s for s in (camera, video, url) if s is not None]
    if len(given) != 1:
        raise click.UsageError("give exactly one of --camera N, --video FILE, --url URL")
    from companion.server.live_setup import check_port

    check_port(host, port)
    spec: str | int = given[0]
    names = [n.strip() for n in players.split(",")]
    if len(names) != 2 or not all(names):
        raise click.BadParameter("two names, comma separated", param_hint="--players")
    config = GameConfig(game=game, players=(names[0], names[1]), decks=_parse_decks(decks, game))
    layout = load_layout(game)
    # a video file ends; a camera or stream that drops out is reopened (game state kept)
    source: Any = open_source(spec) if video else ReconnectingSource(lambda: open_source(spec))
    pipeline = build_pipeline(layout, game, load_cardset(game), mirror=mirror)
    pin = new_pin() if needs_pin(host) else None
    live = build_live(config, FrameFeed(source, pipeline), db or default_db(),
                      f"table: {spec}", pin=pin)
    _run(live, host, port, not no_browser, None, pin)
