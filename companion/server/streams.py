"""Live-stream slots: how many server-sent-event streams each client address holds.

A live stream keeps a worker of the web server (companion.server.httpd) for as long as the
page is open, so one device must not take them all: each address may hold
`STREAMS_PER_CLIENT` (a browser keeps one per open page), the whole server `MAX_STREAMS`
(below the worker pool, so that pages and buttons always find a worker).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.server.httpd import MAX_STREAMS, STREAMS_PER_CLIENT


class StreamSlots:
    """Counts open live streams per client address; `take` refuses beyond the caps."""

    def __init__(self, per_client: int = STREAMS_PER_CLIENT, total: int = MAX_STREAMS) -> None:
        self.per_client = per_client
        self.total = total
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}
        self._count = 0

    def take(self, client: str) -> Callable[[], None] | str:
        """A release function, or why not: "client" (this address holds all it may) or
        "server" (the server holds all it may)."""
        with self._lock:
            held = self._open.get(client, 0)
            if held >= self.per_client:
                return "client"
            if self._count >= self.total:
                return "server"
            self._open[client] = held + 1
            self._count += 1
        released = threading.Event()

        def release() -> None:
            with self._lock:
                if released.is_set():
                    return
                released.set()
                self._count -= 1
                left = self._open.get(client, 0) - 1
                if left > 0:
                    self._open[client] = left
                else:
                    self._open.pop(client, None)

        return release

    def held(self, client: str | None = None) -> int:
        """Open streams of `client`, or of everyone."""
        with self._lock:
            return self._count if client is None else self._open.get(client, 0)
