"""`companion hall`: the referees' page of every table at an event."""

from __future__ import annotations

import time
from pathlib import Path

import click

from companion.hall.natsd import DEFAULT_PORT


@click.command()
@click.option("--nats", default=None, metavar="nats://USER:PASSWORD@HOST:4222",
              help="Join this NATS server or cluster (with JetStream; its users and "
                   "permissions are its own). Default: start a local nats-server on port 4222 "
                   "with its data and the event's credentials under the companion home.")
@click.option("--stream", default="companion", show_default=True,
              help="The event's JetStream stream (tables use the same with --stream).")
@click.option("--port", type=int, default=8800, show_default=True,
              help="Port of the hall page (0 picks a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address of the hall page (0.0.0.0: every referee's device on the LAN).")
@click.option("--nats-port", type=int, default=DEFAULT_PORT, show_default=True,
              help="Port of the local nats-server (without --nats).")
@click.option("--nats-host", default="127.0.0.1", show_default=True,
              help="Address the local nats-server listens on: this laptop only by default; "
                   "the hall laptop's LAN address (or 0.0.0.0) so that the tables reach it.")
@click.option("--tables", "table_names", default=None, metavar="NAME,NAME,...",
              help="The event's tables; each gets its own NATS user (default: the "
                   "tournament's tables, else table-1 ... table-4). Kept with the broker's "
                   "data: a hall started again prints the same addresses.")
@click.option("--tls-cert", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="Serve NATS over TLS with this certificate (PEM); tables "
                                 "then use tls://... and must trust it.")
@click.option("--tls-key", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="The certificate's private key (PEM).")
@click.option("--no-qr", is_flag=True, help="Print the tables' addresses without QR codes.")
@click.option("--tournament", "tournament_id", type=int, default=None,
              help="Tournament shown and fed with results (default: the latest).")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The hall's library: tournament and copies of every table's games "
                   "(default ~/.companion/games.db).")
@click.option("--round-minutes", type=click.FloatRange(min=1), default=50.0,
              show_default=True,
              help="Length of a round: each table's clock starts when its match starts and "
                   "shows the time left on the hall page and the judges' view.")
@click.option("--duration", type=float, default=None,
              help="Stop after this many seconds (default: until Ctrl-C).")
def hall(nats: str | None, stream: str, port: int, host: str, nats_port: int, nats_host: str,
         table_names: str | None, tls_cert: Path | None, tls_key: Path | None, no_qr: bool,
         tournament_id: int | None, db: Path | None, round_minutes: float,
         duration: float | None) -> None:
    """Every table of the event on one page: game, players, turn, phase, score; open violations
    and questions first; the tournament's pairings and standings. With its own nats-server,
    every table gets its own NATS user, allowed to publish only as that table."""
    from companion.hall.credentials import without_password
    from companion.hall.runtime import Hall
    from companion.hall.table_link import lan_address
    from companion.server.commands import print_addresses, qr_text
    from companion.server.live_setup import default_db
    from companion.server.security import needs_pin, new_pin

    library = db or default_db()
    tables = event_tables(library, tournament_id, table_names)
    pin = new_pin() if needs_pin(host) else None
    running = Hall(library, nats, stream, tournament_id, nats_dir=library.parent / "nats",
                   nats_port=nats_port, nats_host=nats_host, tables=tables, pin=pin,
                   tls_cert=tls_cert, tls_key=tls_key,
                   round_minutes=round_minutes).start(host, port)
    local = print_addresses(host, running.port, pin, "Hall")
    click.echo(f"  referees: {local}hall/   recorded games: {local}review/"
               + ("   (changes from other devices need the PIN)" if pin else ""))
    click.echo(f"  judges' phone view: {local}hall/judge   (rounds of "
               f"{round_minutes:g} minutes, --round-minutes)")
    if running.broker is not None:
        where = lan_address("nats://192.0.2.1:4222") if nats_host in ("0.0.0.0", "::") \
            else nats_host
        click.echo(f"  nats-server with JetStream on {nats_host}:{running.broker.port} "
                   f"(data and credentials in {running.broker.store_dir})")
        if nats_host in ("127.0.0.1", "localhost", "::1"):
            click.echo("  (tables on other machines cannot reach it: give --nats-host "
                       "with this laptop's LAN address, or 0.0.0.0)")
        click.echo("  each table passes its own address (keep them secret: the password "
                   "lets a device publish as that table):")
        for table in tables:
            url = running.table_url(table, where)
            click.echo(f"  {table}: companion serve ... --hall {url}")
            if not no_qr:
                click.echo(qr_text(url), nl=False)
    else:
        click.echo(f"  joined {without_password(nats or '')} (stream {stream})")
    click.echo(f"  library: {library}")
    deadline = None if duration is None else time.monotonic() + duration
    try:
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.2)
    except KeyboardInterrupt:
        click.echo("stopping")
    finally:
        running.close()


def event_tables(library: Path, tournament_id: int | None, names: str | None
                 ) -> tuple[str, ...]:
    """--tables, else the tournament's tables (if the library holds one), else four."""
    from companion.hall.wire import check_name

    if names:
        return tuple(check_name("table", n.strip()) for n in names.split(",") if n.strip())
    if library.exists():
        from companion.tournaments.book import TournamentBook, table_names

        with TournamentBook(library) as book:
            tid = tournament_id if tournament_id is not None else book.latest()
            if tid is not None:
                settings = book.load(tid).settings
                return tuple(table_names(settings, (len(settings.players) + 1) // 2))
    return tuple(f"table-{n}" for n in range(1, 5))
