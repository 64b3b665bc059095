"""Event bus between the live session and the browsers (server-sent events).

Why a bounded ring buffer: a browser that reconnects with `Last-Event-ID` gets exactly what it
missed while the buffer still holds it; one that was away too long gets a fresh full state
instead. Memory stays flat however long the game runs.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

DEFAULT_CAPACITY = 512


@dataclass(frozen=True)
class BusMessage:
    id: int
    event: str
    data: str

    def sse(self) -> str:
        lines = "".join(f"data: {line}\n" for line in self.data.split("\n"))
        return f"id: {self.id}\nevent: {self.event}\n{lines}\n"


class EventBus:
    """Publish numbered messages; subscribers wait for ids beyond the last one they saw."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._buffer: deque[BusMessage] = deque(maxlen=capacity)
        self._cond = threading.Condition()
        self._last_id = 0
        self._closed = False

    @property
    def last_id(self) -> int:
        with self._cond:
            return self._last_id

    def publish(self, event: str, data: Any) -> int:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        with self._cond:
            self._last_id += 1
            self._buffer.append(BusMessage(self._last_id, event, text))
            self._cond.notify_all()
            return self._last_id

    def continue_after(self, last_id: int) -> None:
        """Number on above `last_id` and forget what was sent: a new game on the same page
        (the demo's "play again") whose browsers resume from an old bus's ids get a full
        state instead of messages they never saw."""
        with self._cond:
            self._buffer.clear()
            self._last_id = max(self._last_id, last_id) + 1

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed

    def since(self, last_id: int) -> list[BusMessage] | None:
        """Messages after `last_id`, or None when some of them already left the buffer."""
        with self._cond:
            return self._since(last_id)

    def _since(self, last_id: int) -> list[BusMessage] | None:
        if last_id > self._last_id:
            return None  # an id from before a restart: this bus never sent it
        if last_id == self._last_id:
            return []
        oldest = self._buffer[0].id if self._buffer else self._last_id + 1
        if last_id + 1 < oldest:
            return None
        return [m for m in self._buffer if m.id > last_id]

    def wait(self, last_id: int, timeout: float) -> list[BusMessage] | None:
        """Block until something newer than `last_id` exists (or timeout: empty list)."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or self._last_id > last_id, timeout)
            return self._since(last_id)


def sse_stream(
    bus: EventBus,
    last_id: int | None,
    snapshot: Callable[[], dict[str, Any]],
    heartbeat_s: float = 15.0,
    max_messages: int | None = None,
) -> Iterator[str]:
    """The text of an SSE response: a full state first (unless resuming), then every message.

    `snapshot()` returns the current full state; it is sent as event `state` whenever the
    client is new or missed more than the ring buffer holds. Comments keep proxies awake.
    """
    sent = 0
    yield "retry: 1000\n\n"
    if last_id is None or bus.since(last_id) is None:
        cursor = bus.last_id
        yield BusMessage(cursor, "state", json.dumps(snapshot(), ensure_ascii=False)).sse()
        sent += 1
    else:
        cursor = last_id
    while not bus.closed and (max_messages is None or sent < max_messages):
        batch = bus.wait(cursor, heartbeat_s)
        if batch is None:
            cursor = bus.last_id
            yield BusMessage(cursor, "state", json.dumps(snapshot(), ensure_ascii=False)).sse()
            sent += 1
            continue
        if not batch:
            yield ": heartbeat\n\n"
            continue
        for message in batch:
            yield message.sse()
            cursor = message.id
            sent += 1
            if max_messages is not None and sent >= max_messages:
                return
