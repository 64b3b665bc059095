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
from companion.games import game_ids
from companion.markers.dice_sets import DICE_MODE_HELP, DICE_MODES
from companion.server.security import needs_pin, new_pin

RECONNECT_MAX_S = 2.0
"""A dropped camera is tried again at least every 2 s while the game runs."""
GAME_IDS = tuple(game_ids())


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


def lan_address() -> str | None:
    """This machine's address on the local network (the one a tablet would use), or None.
    No packet is sent: connecting a UDP socket only picks the outgoing interface."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            addr = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if addr.startswith("127.") or addr == "0.0.0.0" else addr


def qr_text(url: str) -> str:
    """A QR code of `url` drawn with block characters, for a tablet's camera."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()


def addresses(host: str, port: int) -> tuple[str, str | None]:
    """(the address for this laptop's browser, the address for other devices or None)."""
    wildcard = host in ("0.0.0.0", "::", "")
    local = f"http://127.0.0.1:{port}/" if wildcard or host in ("localhost", "127.0.0.1") \
        else f"http://{host}:{port}/"
    if wildcard:
        lan = lan_address()
        return local, (f"http://{lan}:{port}/" if lan else None)
    if host in ("127.0.0.1", "localhost", "::1"):
        return local, None
    return local, f"http://{host}:{port}/"


def print_addresses(host: str, port: int, pin: str | None, what: str = "Table companion"
                    ) -> str:
    """Say where the page is: this laptop, and for a tablet the LAN address with a QR code."""
    local, lan = addresses(host, port)
    click.echo(f"{what}: {local}")
    if lan:
        click.echo(f"  on a tablet or phone in the same network: {lan}")
        click.echo(qr_text(lan), nl=False)
        if pin:
            click.echo(f"  PIN for actions from other devices: {pin} "
                       "(this laptop's own browser needs none)")
    elif host in ("127.0.0.1", "localhost", "::1"):
        click.echo("  (only this laptop can open it; --host 0.0.0.0 lets a tablet join)")
    return local


def hall_options(fn: Any) -> Any:
    """--hall / --table / --stream: publish this table's events to a hall (NATS JetStream)."""
    fn = click.option("--stream", default="companion", show_default=True,
                      help="The event's JetStream stream (same as the hall's).")(fn)
    fn = click.option("--table", default=None,
                      help="This table's name at the hall (letters, digits, - and _; "
                           "default: the user in the --hall address).")(fn)
    fn = click.option("--hall", default=None, metavar="nats://TABLE:PASSWORD@HOST:4222",
                      help="Publish this table's events to the hall's NATS server (the "
                           "address the hall printed for this table).")(fn)
    fn = click.option("--hall-cert", type=click.Path(dir_okay=False, exists=True,
                                                     path_type=Path), default=None,
                      help="The hall's TLS certificate (or its CA), for a tls:// hall whose "
                           "certificate this machine does not trust already.")(fn)
    return fn


def _check_hall(hall: str | None, table: str | None, stream: str) -> str | None:
    """The table's name at the hall: --table, or the user in the hall's address (the hall
    prints `nats://TABLE:PASSWORD@HOST:PORT` per table; its credentials publish only as it)."""
    if hall is not None:
        from companion.hall.credentials import user_of

        user = user_of(hall)
        if table is None:
            table = user
        elif user is not None and user != table:
            raise click.UsageError(f"--table {table} but the --hall address is table {user}'s:"
                                   " use the address the hall printed for this table")
    if (hall is None) != (table is None):
        raise click.UsageError("--hall and --table go together")
    if hall is not None and table is not None:
        from companion.hall.table_link import check_nats_url
        from companion.hall.wire import check_name

        check_nats_url(hall)
        check_name("table", table)
        check_name("stream", stream)
    return table


def _run(live: Any, host: str, port: int, open_browser: bool, duration: float | None,
         pin: str | None, hall: str | None = None, table: str | None = None,
         stream: str = "companion", hall_cert: Path | None = None, https: Any = None) -> None:
    """Serve until Ctrl-C (or `duration`), then stop feed and server in order; `https`: a
    `phone_setup.HttpsPlan`, the same app served over HTTPS too."""
    from companion.server.live_setup import serve_in_thread

    try:
        server, _thread = serve_in_thread(live.app, host, port)
    except OSError as exc:
        live.close()
        raise CompanionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    url = print_addresses(host, server.server_port, pin)
    secure = None
    if https is not None:
        from companion.server.phone_setup import start_https

        try:
            secure = start_https(live.app, host, https)
        except CompanionError:
            server.shutdown()
            live.close()
            raise
    click.echo(f"  table view for the players: {url}?view=table   "
               f"recorded games: {url}review/   camera: {url}calibration/")
    click.echo(f"  recording to {live.store.path} (game #{live.session.game_id}"
               + (f", resumed at event #{live.session.resumed_at})"
                  if live.session.resumed_at else ")"))
    link = None
    if hall is not None and table is not None:
        from companion.hall.table_link import link_live, page_url_for

        link = link_live(live, hall, table, page_url_for(host, server.server_port, hall), stream,
                         hall_cert)
        from companion.hall.credentials import without_password

        click.echo(f"  hall: publishing as table {table} to {without_password(hall)} "
                   f"(stream {stream}); "
                   f"overlay for OBS: {url}overlay")
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
        if link is not None:
            live.runner.stop()
            live.session.close()
            link.close()
        live.close()
        server.shutdown()
        if secure is not None:
            secure.shutdown()
    if live.runner.error is not None:
        raise CompanionError(f"the camera feed stopped: {live.runner.error}")


@click.command()
@click.option("--game", type=click.Choice(GAME_IDS), default=None,
              help="Which game to play (default: Trick or Beat).")
@click.option("--script", "script", default=None, metavar="NAME|FILE",
              help="Any bundled table script (e.g. creature-crush/rules-attack) or a script "
                   "file; --list-scripts names them all.")
@click.option("--list-scripts", is_flag=True, help="List the bundled table scripts and stop.")
@click.option("--speed", type=float, default=1.0, show_default=True,
              help="Times real time (2 = twice as fast).")
@click.option("--port", type=int, default=8765, show_default=True, help="0 picks a free port.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets a tablet join (actions from other "
                   "devices then need a PIN).")
@click.option("--no-browser", is_flag=True, help="Do not try to open a browser.")
@click.option("--duration", type=float, default=None,
              help="Stop after this many seconds (default: run until Ctrl-C).")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Game library to record into (default ~/.companion/games.db).")
@click.option("--fps", type=float, default=10.0, show_default=True,
              help="Simulated camera frames per second.")
@click.option("--resume", is_flag=True,
              help="Go on with the last unfinished run of this demo (after a restart or a"
                   " crash) instead of starting a new one.")
@hall_options
def demo(game: str | None, script: str | None, list_scripts: bool, speed: float, port: int,
         host: str, no_browser: bool, duration: float | None, db: Path | None,
         fps: float, resume: bool, hall: str | None, table: str | None, stream: str,
         hall_cert: Path | None) -> None:
    """Play a bundled table script through camera frames, vision, rules and the page."""
    from companion.server.demo_tools import bundled_scripts, find_script, play_again, script_game
    from companion.server.live_setup import DEFAULT_DEMO_GAME, build_demo, check_port, default_db

    if list_scripts:
        for name in bundled_scripts():
            click.echo(name)
        return
    path = find_script(script) if script else None
    if path is not None:
        found = script_game(path)
        if game is not None and game != found:
            raise click.BadParameter(f"the script is a {found} game, not {game}",
                                     param_hint="--game")
        game = found
    check_port(host, port)
    table = _check_hall(hall, table, stream)
    pin = new_pin() if needs_pin(host) else None
    chosen, library = game or DEFAULT_DEMO_GAME, db or default_db()

    def build(resume: bool = False) -> Any:
        return build_demo(chosen, speed, library, fps=fps, script_path=path,
                          app_config={"PIN": pin} if pin else None, resume=resume)

    live = build(resume)
    if hall is None:  # a hall follows one game of one store: no second game on this table
        live.app.config["DEMO_AGAIN"] = lambda: play_again(live, build)
    click.echo(f"Demo: {live.extra['script'].parent.name}/{live.extra['script'].stem} "
               f"at {speed:g}x" + ("" if hall else " (the page offers \"play again\" when it "
                                   "ends)"))
    _run(live, host, port, not no_browser, duration, pin, hall, table, stream, hall_cert)


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--port", type=int, default=8765, show_default=True, help="0 picks a free port.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets a tablet join (changes from other "
                   "devices then need a PIN).")
@click.option("--no-browser", is_flag=True, help="Do not try to open a browser.")
def review(db: Path | None, port: int, host: str, no_browser: bool) -> None:
    """Browse the recorded games in DB (default ~/.companion/games.db); starts no game."""
    from companion.record.store import open_existing
    from companion.server.app import create_app
    from companion.server.live_setup import check_port, default_db, serve_in_thread

    path = db or default_db()
    open_existing(path).close()  # a missing library is an error, never a new empty file
    read_only = not _writable(path)
    check_port(host, port)
    pin = new_pin() if needs_pin(host) else None
    app = create_app({"DATABASE": path, "SESSION": None, "PIN": pin, "READ_ONLY": read_only})
    try:
        server, _thread = serve_in_thread(app, host, port)
    except OSError as exc:
        raise CompanionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    url = print_addresses(host, server.server_port, pin, "Recorded games")
    shown = "   (read-only: names, notes and results cannot be changed)" if read_only else ""
    click.echo(f"  library: {path}{shown}   (Ctrl-C stops)")
    if not no_browser and _browser_available():
        threading.Thread(target=webbrowser.open, args=(url + "review/",), daemon=True).start()
    try:
        while True:
            time.sleep(0.5)
    except KeyboardInterrupt:
        click.echo("stopping")
    finally:
        server.shutdown()
        app.extensions["companion.store"].close()


def _writable(path: Path) -> bool:
    """Whether the library can be written here; one on read-only media (a CD, a locked SD
    card, a share mounted read-only) is still shown, read-only."""
    from companion.record.store import RecordError, Store

    try:
        Store(path).close()
    except RecordError:
        return False
    return True


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
@click.option("--phone", is_flag=True,
              help="The camera is a phone's browser, nothing to install: the phone opens the "
                   "page the terminal names (a QR code) over HTTPS and sends its rear camera's "
                   "picture; the table waits for it. Implies --https and, without --host, "
                   "listens on the network (0.0.0.0).")
@click.option("--https", "https", is_flag=True,
              help="Also serve the pages over HTTPS on --https-port, with a certificate the "
                   "companion makes itself (kept in ~/.companion/tls; the terminal prints its "
                   "SHA-256 fingerprint to check when the browser asks to accept it).")
@click.option("--https-port", type=int, default=None,
              help="Port of the HTTPS pages [default: --port + 1].")
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
@click.option("--resume", is_flag=True,
              help="Go on with the last unfinished game of --game in the library (after a"
                   " restart or a crash): its recorded players and decks are used.")
@hall_options
@click.option("--mirror/--no-mirror", default=None,
              help="The picture is (not) mirrored, e.g. by a laptop's mirror clip "
                   "[default: found from the mat's corner markers; a wrong choice is "
                   "overruled by them, and the page says so].")
@click.option("--dice", "dice_mode", type=click.Choice(DICE_MODES), default=None,
              help=DICE_MODE_HELP)
@click.option("--motion-gate/--every-frame", "motion_gate", default=True, show_default=True,
              help="Read a still table's frames only when something moved (and every 2 s "
                   "anyway), to spare the laptop's battery; --every-frame reads them all.")
def serve(camera: int | None, video: str | None, url: str | None, phone: bool, https: bool,
          https_port: int | None, game: str,
          decks: tuple[str, ...], players: str, port: int, host: str, no_browser: bool,
          db: Path | None, resume: bool, hall: str | None, table: str | None,
          stream: str, hall_cert: Path | None = None, mirror: bool | None = None,
          dice_mode: str | None = None, motion_gate: bool = True) -> None:
    """Watch a real table: camera, video file, stream or a phone, refereed live on the page."""
    from companion.cardsets import load_cardset
    from companion.engine.api import GameConfig
    from companion.layouts import load_layout
    from companion.server.feeds import FrameFeed
    from companion.server.live_setup import build_live, default_db
    from companion.vision.pipeline import build_pipeline
    from companion.vision.sources import ReconnectingSource, open_source

    given = [s for s in (camera, video, url) if s is not None]
    if len(given) != (0 if phone else 1):
        raise click.UsageError("give exactly one of --camera N, --video FILE, --url URL, "
                               "--phone")
    from companion.server.live_setup import check_port

    if phone and click.get_current_context().get_parameter_source("host") == \
            click.core.ParameterSource.DEFAULT:
        host = "0.0.0.0"  # the phone is another device of the network
    check_port(host, port)
    table = _check_hall(hall, table, stream)
    from companion.server.phone_setup import plan_https

    secure = plan_https(host, port, https_port, phone, lan_address()) if (https or phone) \
        else None
    spec: str | int = given[0] if given else 0
    names = [n.strip() for n in players.split(",")]
    if len(names) != 2 or not all(names):
        raise click.BadParameter("two names, comma separated", param_hint="--players")
    config = GameConfig(game=game, players=(names[0], names[1]), decks=_parse_decks(decks, game))
    layout = load_layout(game)
    # a video file ends; a camera or stream that drops out is reopened (game state kept)
    if phone:  # frames pushed by the phone's page (companion.server.phone)
        from companion.vision.push_source import PushSource

        source: Any = PushSource()
    else:
        source = open_source(spec, encoded=motion_gate) if video else ReconnectingSource(
            lambda: open_source(spec, encoded=motion_gate), max_backoff_s=RECONNECT_MAX_S)
    from companion.markers.dice_sets import dice_mode as dice_mode_named
    from companion.vision.motion_gate import EVERY_FRAME, GateSettings

    pipeline = build_pipeline(layout, game, load_cardset(game), mirror=mirror,
                              dice_mode=dice_mode_named(dice_mode),
                              gate=GateSettings() if motion_gate else EVERY_FRAME)
    pin = new_pin() if needs_pin(host) else None
    live = build_live(config, FrameFeed(source, pipeline), db or default_db(),
                      f"{names[0]} – {names[1]}", pin=pin, resume=resume,
                      app_config={"PHONE_SOURCE": source} if phone else None)
    _run(live, host, port, not no_browser, None, pin, hall, table, stream, hall_cert,
         https=secure)
