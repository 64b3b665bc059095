"""A table publishes its recording to the hall's JetStream stream, and catches up after drops.

The loop: ask the stream for the last message of this table's subject (where the hall's copy
ends), publish everything after it in order, each with its place as `Nats-Msg-Id`, then wait
for the session's bus to ring (or a slow poll). Any publish that fails (network down, broker
restarting) just sends the loop back to asking the stream: play never waits for the hall, and
the table's SQLite file keeps everything until it is in the stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from companion.hall.credentials import table_inbox
from companion.hall.outbox import Outbox
from companion.hall.wire import (
    DEFAULT_STREAM,
    EVENT,
    FINISH,
    HEADER,
    MSG_ID_HEADER,
    NOTHING,
    PARTS,
    Place,
    check_name,
    decode,
    encode,
    table_subject,
)

log = logging.getLogger(__name__)

PUBLISH_TIMEOUT_S = 3.0
DUPLICATE_WINDOW_S = 15 * 60.0
"""JetStream forgets message ids after this; the stream-based resume covers longer outages."""


async def ensure_stream(js: Any, stream: str, update: bool = False) -> Any:
    """Create the event's stream if nobody has yet (tables and hall may come up in any order);
    returns its info. New streams allow direct gets (a table reads the last message of its own
    subject through a request whose subject names it, which the broker's permissions can limit
    to the table's own subjects) and refuse deleting or purging messages. `update` (the hall):
    turn direct gets on in a stream made before."""
    from nats.js.api import StorageType, StreamConfig
    from nats.js.errors import BadRequestError, NotFoundError

    try:
        info = await js.stream_info(stream)
    except NotFoundError:
        pass
    else:
        if update and not info.config.allow_direct:
            with contextlib.suppress(Exception):  # an old broker: tables fall back
                info = await js.update_stream(replace(info.config, allow_direct=True))
        return info
    config = StreamConfig(name=stream, subjects=[f"{stream}.>"], storage=StorageType.FILE,
                          duplicate_window=DUPLICATE_WINDOW_S, allow_direct=True,
                          deny_delete=True, deny_purge=True)
    try:
        return await js.add_stream(config)
    except BadRequestError:
        return await js.stream_info(stream)  # created meanwhile by another table or the hall


def connect_options(name: str, inbox_prefix: str = "_INBOX", tls: Any = None
                    ) -> dict[str, Any]:
    """Reconnect for ever, quickly: a table must come back by itself after a network drop.
    `inbox_prefix`: where replies come (the broker lets each user read only its own);
    `tls`: an `ssl.SSLContext` for a broker with TLS."""
    options = {"name": name, "allow_reconnect": True, "max_reconnect_attempts": -1,
               "reconnect_time_wait": 0.5, "connect_timeout": 2, "ping_interval": 5,
               "max_outstanding_pings": 2, "inbox_prefix": inbox_prefix}
    if tls is not None:
        options["tls"] = tls
    return options


@dataclass
class PublisherStats:
    published: int = 0
    duplicates: int = 0
    syncs: int = 0
    failures: int = 0
    status: str = "starting"
    last_error: str = ""


class TablePublisher:
    """Publishes one table's games from its outbox to `<stream>.<table>.<db>`."""

    def __init__(self, outbox: Outbox, table: str, servers: str | list[str],
                 stream: str = DEFAULT_STREAM, doorbell: Callable[[], int] | None = None,
                 poll_s: float = 0.5, tick_s: float = 0.01, tls: Any = None) -> None:
        self.outbox = outbox
        self.tls = tls
        self.table = check_name("table", table)
        self.stream = check_name("stream", stream)
        self.servers = servers
        self.db = outbox.id_for(table)
        self.subject = table_subject(stream, table, self.db)
        self.doorbell = doorbell
        self.poll_s = poll_s
        self.tick_s = tick_s
        self.high = NOTHING
        self.told: dict[int, bool] = {}
        """Game id -> whether the stream's last finish message of it holds a result (so a
        game reopened at the table, by an undo past its end, is published as reopened); read
        from the outbox, which keeps it over restarts, and from the stream's last message."""
        self.stats = PublisherStats()
        self.nc: Any = None
        self._js: Any = None
        self._need_sync = True
        self._next_full = 0.0
        self._wake = asyncio.Event()

    # --- connection --------------------------------------------------------------------------

    async def _connect(self, stop: asyncio.Event) -> bool:
        import nats

        async def disconnected() -> None:
            self.stats.status = "offline"
            self._need_sync = True

        async def reconnected() -> None:
            self.stats.status = "online"
            self._need_sync = True
            self._wake.set()

        async def error(exc: Exception) -> None:
            self.stats.last_error = str(exc) or type(exc).__name__

        while not stop.is_set():
            try:
                self.nc = await nats.connect(
                    self.servers, disconnected_cb=disconnected, reconnected_cb=reconnected,
                    error_cb=error,
                    **connect_options(f"table {self.table}", table_inbox(self.table),
                                      self.tls))
                self._js = self.nc.jetstream(timeout=PUBLISH_TIMEOUT_S)
                self.stats.status = "online"
                return True
            except Exception as exc:  # any failure: retry, play goes on
                self.stats.status = "offline"
                self.stats.last_error = str(exc) or type(exc).__name__
                await _sleep_or_stop(stop, 1.0)
        return False

    # --- publishing --------------------------------------------------------------------------

    async def sync(self) -> Place:
        """Where the stream's copy of this table ends (the last message on its subject)."""
        from nats.js.errors import NotFoundError

        info = await ensure_stream(self._js, self.stream)
        try:  # direct: the only read a table's credentials allow, and only of its own subject
            raw = await self._js.get_last_msg(self.stream, self.subject,
                                              direct=bool(info.config.allow_direct))
        except NotFoundError:
            self.high = NOTHING
        else:
            last = decode(raw.data or b"")
            self.high = last.place
            if last.type == FINISH:
                self.told[last.place.game] = last.body.get("outcome") is not None
        self._need_sync = False
        self.stats.syncs += 1
        return self.high

    async def _send(self, type_: str, place: Place, body: dict[str, Any]) -> None:
        data = encode(type_, self.table, self.db, place, body, time.time())
        ack = await self._js.publish(
            self.subject, data, stream=self.stream,
            headers={MSG_ID_HEADER: f"{self.db}.{place.msg_id}"})
        if getattr(ack, "duplicate", False):
            self.stats.duplicates += 1
        self.stats.published += 1
        self.high = place
        if type_ == FINISH:
            self.told[place.game] = body.get("outcome") is not None
            self.outbox.set_told(self.table, place.game, self.told[place.game])

    async def publish_pending(self, full: bool = True) -> int:
        """Everything after the high-water mark, in order; returns how many were sent.

        A game's outcome is always read *before* its events: the session records the moves
        that end a game before it marks the game finished, so the events read afterwards hold
        every move the outcome depends on, and the finish message (placed after them) never
        carries a result the hall cannot see the moves of. It is looked up on a `full` round
        (the slow poll) or after events went out, not on every ring of the bell."""
        sent = 0
        for game_id, url in self.outbox.games(self.table):
            if game_id < self.high.game:
                continue
            head = Place(game_id, 0, PARTS[HEADER])
            if head > self.high:
                await self._send(HEADER, head, self.outbox.header(game_id, url))
                sent += 1
            after = self.high.seq if self.high.game == game_id else 0
            outcome = self.outbox.outcome(game_id) if full else None
            last, count = await self._send_events(game_id, after)
            if not full and count:  # events went out: the outcome, then events again
                outcome = self.outbox.outcome(game_id)
                last, more = await self._send_events(game_id, last)
                count += more
            sent += count
            finish = Place(game_id, last, PARTS[FINISH])
            looked = full or count > 0  # else `outcome` was not read this round
            if game_id not in self.told:
                self.told[game_id] = self.outbox.told(self.table, game_id)
            reopened = looked and outcome is None and self.told[game_id]
            if (outcome is not None or reopened) and finish > self.high:
                # a reopened game's finish carries no outcome: the hall withdraws its result
                await self._send(FINISH, finish, {"outcome": outcome, "after": last})
                sent += 1
        return sent

    async def _send_events(self, game_id: int, after: int) -> tuple[int, int]:
        """Publish the game's events after `after`: (last seq sent or `after`, how many)."""
        last, count = after, 0
        for event in self.outbox.events(game_id, after):
            await self._send(EVENT, Place(game_id, event.seq, PARTS[EVENT]), event.to_dict())
            last, count = event.seq, count + 1
        return last, count

    async def _wait_for_change(self, stop: asyncio.Event) -> None:
        """Until `wake()`, a ring of the doorbell, the slow poll, or `stop`."""
        ring = self.doorbell() if self.doorbell else 0
        deadline = time.monotonic() + self.poll_s
        while not stop.is_set() and not self._wake.is_set():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            pause = min(self.tick_s, remaining) if self.doorbell else remaining
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)
            if self.doorbell and self.doorbell() != ring:
                return

    def wake(self) -> None:
        """Publish now (thread-safe through the loop: `loop.call_soon_threadsafe(p.wake)`)."""
        self._wake.set()

    async def step(self) -> int:
        """One round: resync when needed, then publish what is pending."""
        full = self._need_sync or time.monotonic() >= self._next_full
        if self._need_sync:
            await self.sync()
        if full:
            self._next_full = time.monotonic() + self.poll_s
        return await self.publish_pending(full)

    async def run(self, stop: asyncio.Event, flush_s: float = 3.0) -> None:
        """Publish until `stop` is set; then try `flush_s` seconds to get the rest out."""
        if not await self._connect(stop):
            return
        try:
            while not stop.is_set():
                if not self.nc.is_connected:
                    await _sleep_or_stop(stop, 0.05)
                    continue
                self._wake.clear()
                try:
                    await self.step()
                except Exception as exc:  # network or broker trouble: resync
                    self._fail(exc)
                    await _sleep_or_stop(stop, 0.2)
                    continue
                await self._wait_for_change(stop)
            self._next_full = 0.0  # the last round looks at everything (a game closed now)
            if self.nc.is_connected:
                try:
                    await asyncio.wait_for(self.step(), flush_s)
                except Exception as exc:  # the rest stays in the outbox
                    self._fail(exc)
        finally:
            with contextlib.suppress(Exception):  # closing a dead connection
                await asyncio.wait_for(self.nc.close(), 2.0)
            self.stats.status = "stopped"

    def _fail(self, exc: Exception) -> None:
        self._need_sync = True
        self.stats.failures += 1
        self.stats.last_error = f"{type(exc).__name__}: {exc}"
        log.info("table %s: publishing paused (%s)", self.table, self.stats.last_error)


async def _sleep_or_stop(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
