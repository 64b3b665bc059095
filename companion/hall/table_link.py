"""`serve --hall URL --table NAME` / `demo ...`: the table's side of the hall, in one object.

Starts a loop thread with one `TablePublisher` for the live session's game, rung by the
session's event bus. `close()` (after the session is closed, before the store is) gives the
publisher a few seconds to get the end of the game out; whatever does not make it stays in the
table's SQLite file and goes out the next time this table connects.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from companion.errors import CompanionError
from companion.hall.credentials import tls_context
from companion.hall.loop import LoopThread
from companion.hall.outbox import Outbox
from companion.hall.publisher import TablePublisher
from companion.hall.wire import DEFAULT_STREAM, check_name
from companion.record.store import Store


def check_nats_url(url: str) -> str:
    """nats://HOST:PORT (several separated by commas, for a cluster)."""
    for part in url.split(","):
        parsed = urlparse(part.strip())
        if parsed.scheme not in ("nats", "tls") or not parsed.hostname:
            raise CompanionError(f"--hall/--nats wants nats://HOST:4222, not {part.strip()!r}")
    return url


def servers_of(url: str) -> list[str]:
    return [p.strip() for p in check_nats_url(url).split(",") if p.strip()]


def lan_address(toward: str) -> str:
    """This machine's address as seen on the way to `toward` (no packet is sent)."""
    host = urlparse(servers_of(toward)[0]).hostname or "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((host, 4222))
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def page_url_for(host: str, port: int, hall: str) -> str:
    """The table page's address as the hall's referees can reach it."""
    if host in ("0.0.0.0", "::"):
        host = lan_address(hall)
    return f"http://{host}:{port}/"


class HallLink:
    """One table's publisher running beside the live session."""

    def __init__(self, store: Store, table: str, hall: str, stream: str = DEFAULT_STREAM,
                 doorbell: Callable[[], int] | None = None, trust: Path | None = None) -> None:
        self.table = check_name("table", table)
        self.hall = check_nats_url(hall)
        self.outbox = Outbox(store)
        tls = tls_context(trust) if trust is not None or hall.startswith("tls://") else None
        self.publisher = TablePublisher(self.outbox, table, servers_of(hall), stream,
                                        doorbell=doorbell, tls=tls)
        self.loop = LoopThread(f"hall-{table}")
        self._stop: asyncio.Event | None = None
        self._task: Any = None

    def follow(self, game_id: int, page_url: str = "") -> None:
        """Publish game `game_id` of the table's library (now and after restarts)."""
        self.outbox.register(game_id, self.table, page_url)

    def start(self) -> HallLink:
        self.loop.start()

        async def make() -> asyncio.Event:
            return asyncio.Event()

        self._stop = self.loop.run(make())
        self._task = self.loop.submit(self.publisher.run(self._stop))
        return self

    @property
    def status(self) -> str:
        return self.publisher.stats.status

    def close(self, flush_s: float = 3.0) -> None:
        if self._stop is not None and self._task is not None:
            self.loop.call(self._stop.set)
            self.loop.call(self.publisher.wake)
            with contextlib.suppress(Exception):  # the outbox keeps what did not go out
                self._task.result(flush_s + 5.0)
        self.loop.stop()
        self.outbox.close()


def link_live(live: Any, hall: str, table: str, page_url: str,
              stream: str = DEFAULT_STREAM, trust: Path | None = None) -> HallLink:
    """Publish a `Live` table's game to the hall (the session's bus rings the publisher);
    `trust`: the hall's TLS certificate (or its CA) when the tables do not know it."""
    bus = live.session.bus
    link = HallLink(live.store, table, hall, stream, doorbell=lambda: bus.last_id,
                    trust=trust)
    link.follow(live.session.game_id, page_url)
    return link.start()
