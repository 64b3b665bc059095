"""The hall's reader: one ordered JetStream consumer over the whole stream, from its start.

Why from the start every time: the stream is the hall's memory. A hall that starts late, or
is killed and restarted, reads every table's messages again and ends with the same picture;
the archive skips what it already copied. The ordered consumer (flow control, heartbeats,
re-created from the last delivered sequence after a gap) is NATS's own machinery.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from companion.hall.credentials import HALL_INBOX
from companion.hall.publisher import _sleep_or_stop, connect_options, ensure_stream
from companion.hall.view import UNREADABLE, HallView
from companion.hall.wire import DEFAULT_STREAM, TableMessage, WireError, check_name, decode

log = logging.getLogger(__name__)


class HallService:
    """Reads `<stream>.>` into a `HallView`; each applied message also goes to `sink`."""

    def __init__(self, servers: str | list[str], view: HallView, stream: str = DEFAULT_STREAM,
                 sink: Callable[[TableMessage], None] | None = None, tls: Any = None) -> None:
        self.servers = servers
        self.tls = tls
        self.view = view
        self.stream = check_name("stream", stream)
        self.sink = sink
        self.rejected = 0
        self.status = "starting"
        self.last_error = ""
        self.ready = asyncio.Event()
        self.nc: Any = None

    async def _on_message(self, msg: Any) -> None:
        try:
            message = decode(msg.data)
        except WireError as exc:
            self.rejected += 1
            log.warning("hall: rejected a message on %s: %s", msg.subject, exc)
            tokens = str(msg.subject).split(".")
            self.view.refuse(UNREADABLE, tokens[1] if len(tokens) == 3 else str(msg.subject),
                             None, str(exc)[:200],
                             "keine lesbare Nachricht eines Tisches (Einzelheiten im Log der "
                             "Halle)")
            return
        seq, stamp = 0, None
        with contextlib.suppress(Exception):  # metadata is informative only
            seq = int(msg.metadata.sequence.stream)
            stamp = msg.metadata.timestamp.timestamp()  # when the broker stored it
        if self.view.apply(message, seq, msg.subject, stamp) is not None \
                and self.sink is not None:
            self.sink(message)

    async def run(self, stop: asyncio.Event) -> None:
        import nats
        from nats.js.api import DeliverPolicy

        async def disconnected() -> None:
            self.status = "offline"

        async def reconnected() -> None:
            self.status = "online"

        async def error(exc: Exception) -> None:
            self.last_error = str(exc) or type(exc).__name__

        while not stop.is_set():
            try:
                self.nc = await nats.connect(self.servers, disconnected_cb=disconnected,
                                             reconnected_cb=reconnected, error_cb=error,
                                             **connect_options("hall", HALL_INBOX, self.tls))
                js = self.nc.jetstream(timeout=5.0)
                await ensure_stream(js, self.stream, update=True)
                await js.subscribe(f"{self.stream}.>", cb=self._on_message,
                                   ordered_consumer=True, deliver_policy=DeliverPolicy.ALL,
                                   idle_heartbeat=2.0, pending_msgs_limit=1_000_000,
                                   pending_bytes_limit=1024 * 1024 * 1024)
                break
            except Exception as exc:  # broker not up yet: retry
                self.last_error = f"{type(exc).__name__}: {exc}"
                self.status = "offline"
                if self.nc is not None:
                    with contextlib.suppress(Exception):
                        await self.nc.close()
                await _sleep_or_stop(stop, 1.0)
        if stop.is_set():
            return
        self.status = "online"
        self.ready.set()
        try:
            await stop.wait()
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.nc.close(), 2.0)
            self.status = "stopped"
