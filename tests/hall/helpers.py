"""A table for the hall tests: its own game library, a game, a publisher on a loop thread."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from companion.hall.loop import LoopThread
from companion.hall.outbox import Outbox
from companion.hall.publisher import TablePublisher
from companion.record.store import Event, GameHeader, Store


class Table:
    """A table that records moves like a live session does and publishes them."""

    def __init__(self, tmp: Path, name: str, loop: LoopThread, url: str,
                 players: tuple[str, str] = ("Ada", "Bo")) -> None:
        self.name = name
        self.loop = loop
        self.store = Store(tmp / f"{name}.db")
        self.game = self.store.start_game(GameHeader(game="challengers", players=players,
                                                     title=f"match at {name}"))
        self.rings = 0
        self.outbox = Outbox(self.store)
        self.outbox.register(self.game, name, f"http://{name}.local:8765/")
        self.url = url
        self.publisher: TablePublisher | None = None
        self._stop: asyncio.Event | None = None
        self._task: Any = None

    def start(self, url: str | None = None, tls: Any = None) -> TablePublisher:
        async def make() -> asyncio.Event:
            return asyncio.Event()

        self._stop = self.loop.run(make())
        self.publisher = TablePublisher(self.outbox, self.name, url or self.url,
                                        doorbell=lambda: self.rings, tls=tls)
        self._task = self.loop.submit(self.publisher.run(self._stop))
        return self.publisher

    def stop(self) -> None:
        if self._stop is not None:
            self.loop.call(self._stop.set)
            self._task.result(15)
            self._stop = None

    def move(self, n: int) -> Event:
        event = self.store.append(self.game, "move", "camera", {
            "text_en": f"move {n}", "text_de": f"Zug {n}", "legal": True,
            "state": {"turn": n, "active": "p1", "phase": "attack", "scores": {"p1": n, "p2": 0}}})
        self.rings += 1
        return event

    def seqs(self) -> list[int]:
        return [e.seq for e in self.store.events(self.game)]

    def close(self) -> None:
        self.stop()
        self.outbox.close()
        self.store.close()


async def stream_messages(url: str, stream: str = "companion") -> int:
    import nats

    nc = await nats.connect(url)
    try:
        info = await nc.jetstream().stream_info(stream)
        return int(info.state.messages)
    finally:
        await nc.close()


def deck_phase(book: Any, tid: int, players: tuple[str, ...], end: bool = True) -> None:
    """Every player keeps the first offered card (paying what it costs); with `end`, the
    matches begin."""
    for name in players:
        _, offer = book.act(tid, "draw", {"name": name})
        t = book.load(tid).tournament
        owed = t.removals_owed(offer[:1])
        book.act(tid, "choose", {"name": name, "keep": offer[:1],
                                 "remove": (t.seats[name].deck + offer[:1])[:owed]})
    if end:
        book.act(tid, "end-deck-phase")
