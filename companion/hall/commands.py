"""`companion hall`: the referees' page of every table at an event."""

from __future__ import annotations

import time
from pathlib import Path

import click

from companion.hall.natsd import DEFAULT_PORT


@click.command()
@click.option("--nats", default=None, metavar="nats://HOST:4222",
              help="Join this NATS server or cluster (with JetStream). Default: start a local "
                   "nats-server on port 4222 with its data under the companion home.")
@click.option("--stream", default="companion", show_default=True,
              help="The event's JetStream stream (tables use the same with --stream).")
@click.option("--port", type=int, default=8800, show_default=True,
              help="Port of the hall page (0 picks a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address of the hall page (0.0.0.0: every referee's device on the LAN).")
@click.option("--nats-port", type=int, default=DEFAULT_PORT, show_default=True,
              help="Port of the local nats-server (without --nats).")
@click.option("--nats-host", default="0.0.0.0", show_default=True,
              help="Address the local nats-server listens on (tables connect to it).")
@click.option("--tournament", "tournament_id", type=int, default=None,
              help="Tournament shown and fed with results (default: the latest).")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The hall's library: tournament and copies of every table's games "
                   "(default ~/.companion/games.db).")
@click.option("--duration", type=float, default=None,
              help="Stop after this many seconds (default: until Ctrl-C).")
def hall(nats: str | None, stream: str, port: int, host: str, nats_port: int, nats_host: str,
         tournament_id: int | None, db: Path | None, duration: float | None) -> None:
    """Every table of the event on one page: game, players, turn, phase, score; open violations
    and questions first; the tournament's pairings and standings."""
    from companion.hall.runtime import Hall
    from companion.hall.table_link import lan_address
    from companion.server.live_setup import default_db

    library = db or default_db()
    running = Hall(library, nats, stream, tournament_id, nats_dir=library.parent / "nats",
                   nats_port=nats_port, nats_host=nats_host).start(host, port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"Hall: http://{shown}:{running.port}/hall/")
    if running.broker is not None:
        where = lan_address("nats://192.0.2.1:4222") if nats_host == "0.0.0.0" else nats_host
        click.echo(f"  nats-server with JetStream on port {running.broker.port} "
                   f"(data in {running.broker.store_dir})")
        click.echo(f"  at each table: companion serve ... --hall nats://{where}:"
                   f"{running.broker.port} --table NAME")
    else:
        click.echo(f"  joined {nats} (stream {stream})")
    click.echo(f"  library: {library}")
    deadline = None if duration is None else time.monotonic() + duration
    try:
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.2)
    except KeyboardInterrupt:
        click.echo("stopping")
    finally:
        running.close()
