"""A running hall: broker (own or joined), stream reader, view, archive, web page.

Kept apart from the CLI so that tests and the benchmark run exactly what `companion hall`
runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.hall.archive import Archive
from companion.hall.credentials import EventCredentials, tls_context, without_password
from companion.hall.judges import DEFAULT_ROUND_MINUTES, RoundClocks, match_of_row
from companion.hall.loop import LoopThread
from companion.hall.naming import namer_for
from companion.hall.natsd import DEFAULT_PORT, NatsServer
from companion.hall.service import HallService
from companion.hall.table_link import servers_of
from companion.hall.view import HallView
from companion.hall.web import HallState, create_hall_app
from companion.hall.wire import DEFAULT_STREAM, check_name
from companion.record.store import Store
from companion.tournaments.book import TournamentBook

TOURNAMENT_POLL_S = 1.0


class TournamentFeed:
    """The tournament's view for the page, rebuilt only when its steps changed (a result from
    a table, or a step entered with `companion tournament` in another terminal)."""

    def __init__(self, db: Path, tournament_id: int | None) -> None:
        self.book = TournamentBook(db)
        self.tournament_id = tournament_id
        self._lock = threading.Lock()
        self._key: tuple[int, int] | None = None
        self._view: dict[str, Any] | None = None
        self._origins: dict[str, int] = {}

    def current(self) -> dict[str, Any] | None:
        with self._lock:
            tid = self.tournament_id if self.tournament_id is not None else self.book.latest()
            if tid is None:
                return None
            key = (tid, self.book.step_count(tid))
            if key != self._key:
                loaded = self.book.load(tid)
                self._view = loaded.view()
                self._origins = {link.origin: r for (r, _a, _b), link in loaded.links.items()}
                self._key = key
            return self._view

    def round_of(self, table: str, db: str, game: int, players: tuple[str, ...]
                 ) -> int | None:
        """The round a table's game belongs to: the round its result counted for, else the
        round being played when that table's match seats its players."""
        view = self.current()
        with self._lock:
            counted = self._origins.get(f"{table}:{db}:{game}")
        if counted is not None:
            return counted
        match = match_of_row({"table": table, "players": list(players)}, view)
        return int(match["round"]) if match is not None and not match.get("winner") else None

    def changed(self) -> bool:
        with self._lock:
            tid = self.tournament_id if self.tournament_id is not None else self.book.latest()
            if tid is None:
                return False
            return (tid, self.book.step_count(tid)) != self._key

    def close(self) -> None:
        self.book.close()


class Hall:
    """Start with `start(host, port)`; `close()` stops page, reader, archive and broker."""

    def __init__(self, db: Path, nats: str | None = None, stream: str = DEFAULT_STREAM,
                 tournament_id: int | None = None, nats_dir: Path | None = None,
                 nats_port: int = DEFAULT_PORT, nats_host: str = "127.0.0.1",
                 archive: bool = True, heartbeat_s: float = 15.0,
                 tables: tuple[str, ...] = (), pin: str | None = None,
                 tls_cert: Path | None = None, tls_key: Path | None = None,
                 round_minutes: float = DEFAULT_ROUND_MINUTES) -> None:
        self.db = Path(db)
        self.stream = check_name("stream", stream)
        self.nats_url = nats
        if nats is not None:
            servers_of(nats)
        self.broker: NatsServer | None = None
        self.credentials: EventCredentials | None = None
        if nats is None:
            folder = nats_dir or self.db.parent / "nats"
            if (tls_cert is None) != (tls_key is None):
                raise CompanionError("--tls-cert and --tls-key go together")
            self.credentials = EventCredentials.load(folder, self.stream, tables)
            config = self.credentials.write_config(tls_cert, tls_key)
            self.broker = NatsServer(folder, nats_port, nats_host, config=config,
                                     tls=tls_cert is not None)
        # its own broker's certificate, trusted as it is (the hall reaches it on loopback)
        self._tls = tls_context(tls_cert, check_hostname=False) if tls_cert else None
        self.view = HallView(namer_for)
        self.tournament = TournamentFeed(self.db, tournament_id)
        if archive:  # the library's own tables first: a store opens no file of other tables
            Store(self.db).close()
        self.clocks = RoundClocks(round_minutes, self.db if archive else None)
        self.state = HallState(self.view, self.tournament.current, self._status,
                               clocks=self.clocks, rounds=self.tournament.round_of,
                               local_game=self._local_game)
        self.archive = Archive(self.db, self.view, tournament_id,
                               on_tournament=self.state.tournament_changed) if archive else None
        self.loop = LoopThread("hall-nats")
        self.service: HallService | None = None
        self.app = create_hall_app(self.db, self.state, heartbeat_s, pin)
        self.server: Any = None
        self._stop: asyncio.Event | None = None
        self._task: Any = None
        self._poll_stop = threading.Event()
        self._poller = threading.Thread(target=self._poll, name="hall-tournament", daemon=True)

    def _local_game(self, db: str, game: int) -> int | None:
        return self.archive.local_game(db, game) if self.archive is not None else None

    def _status(self) -> dict[str, Any]:
        return {"nats": self.service.status if self.service else "starting",
                "stream": self.stream,
                "url": without_password(self.nats_url) if self.nats_url else None}

    def _poll(self) -> None:
        last = None
        while not self._poll_stop.wait(TOURNAMENT_POLL_S):
            try:
                if self.tournament.changed():
                    self.state.tournament_changed()
                status = self._status()
                if status != last:
                    self.state.bus.publish("status", status)
                    last = status
            except CompanionError:
                continue

    def start(self, host: str = "127.0.0.1", port: int = 8800) -> Hall:
        from companion.server.live_setup import serve_in_thread

        if self.broker is not None:
            try:
                self.broker.start()
            except CompanionError:
                self.close()
                raise
            self.nats_url = self.broker.url
            if self.credentials is not None:
                self.nats_url = self.credentials.hall_url(self.broker.url)
        assert self.nats_url is not None
        sink = self.archive.put if self.archive is not None else None
        self.service = HallService(servers_of(self.nats_url), self.view, self.stream, sink,
                                   self._tls)
        self.loop.start()

        async def make() -> asyncio.Event:
            return asyncio.Event()

        self._stop = self.loop.run(make())
        self._task = self.loop.submit(self.service.run(self._stop))
        try:
            self.server, _ = serve_in_thread(self.app, host, port)
        except OSError as exc:
            self.close()
            raise CompanionError(f"cannot listen on {host}:{port}: {exc}") from None
        self._poller.start()
        return self

    def table_url(self, table: str, host: str | None = None) -> str:
        """The `--hall` address of `table` (own broker only): its user and password, and the
        broker's address as seen from `host` (default: as the hall reaches it)."""
        if self.broker is None or self.credentials is None:
            raise CompanionError("the hall joined a NATS server: its users are made there")
        address = self.broker.url
        if host is not None:
            scheme = "tls" if self.broker.tls else "nats"
            address = f"{scheme}://{host}:{self.broker.port}"
        return self.credentials.table_url(table, address)

    @property
    def port(self) -> int:
        return int(self.server.server_port) if self.server is not None else 0

    def wait_ready(self, timeout: float = 20.0) -> bool:
        """Until the stream reader is subscribed."""
        if self.service is None:
            return False
        service = self.service

        async def ready() -> None:
            await service.ready.wait()

        try:
            self.loop.run(asyncio.wait_for(ready(), timeout), timeout + 1)
        except Exception:  # not ready in time
            return False
        return True

    def close(self) -> None:
        self._poll_stop.set()
        if self.server is not None:
            self.server.shutdown()
            self.server = None
        if self._stop is not None:
            self.loop.call(self._stop.set)
            with contextlib.suppress(Exception):  # stopping anyway
                self._task.result(5.0)
        self.loop.stop()
        if self.archive is not None:
            self.archive.close()
        self.tournament.close()
        self.clocks.close()
        self.state.bus.close()
        if self.broker is not None:
            self.broker.stop()
