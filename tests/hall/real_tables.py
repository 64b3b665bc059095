"""Tables that send the hall what real tables send: each game's bundled script played through
a live session (its own game library, recorded as the page records it), published by the
table's `TablePublisher` over a real nats-server on loopback to a real `Hall`.

Used by the hall's one-language sweep: the texts the hall shows then come from the engine and
the session (card ids in the recorded payloads, rules in the rulebooks' words, German beside
English), not from messages a test made up in one language.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from companion.hall.loop import LoopThread
from companion.hall.outbox import Outbox
from companion.hall.publisher import TablePublisher
from companion.record.store import Store
from tests.live_tables import scripted


@dataclass(frozen=True)
class Recorded:
    """One table's game library after its script: the game and the players it seats."""

    name: str
    store: Path
    game: int
    game_kind: str
    players: tuple[str, ...]
    last_seq: int


def record_script(folder: Path, table: str, game: str, script: str = "opening",
                  until: str | None = None) -> Recorded:
    """Play `script` of `game` through a live session into `folder/<table>.db`; with `until`
    (an event kind), the library keeps the game only up to the first such event (a question
    the table has not answered yet, as the hall sees it while the table waits)."""
    played = folder / f"{table}-played.db"
    with scripted(game, played, script) as live:
        while live.step():
            pass
        game_id = live.session.game_id
        players = tuple(live.session.header.players)
    if until is None:
        return Recorded(table, played, game_id, game, players, _last_seq(played, game_id))
    cut = folder / f"{table}.db"
    source, target = Store(played), Store(cut)
    try:
        new_id = target.start_game(replace(source.game(game_id), id=None, finished=None,
                                           outcome=None))
        for event in source.events(game_id):
            target.append(new_id, event.kind, event.source, event.payload)
            if event.kind == until:
                break
        last = target.events(new_id)[-1].seq
    finally:
        source.close()
        target.close()
    return Recorded(table, cut, new_id, game, players, last)


def _last_seq(db: Path, game_id: int) -> int:
    store = Store(db)
    try:
        return store.events(game_id)[-1].seq
    finally:
        store.close()


@contextmanager
def publishing(recorded: list[Recorded], nats_url: str) -> Iterator[list[TablePublisher]]:
    """Every recorded table's publisher running (as `companion serve --hall` runs it) until
    the block ends."""
    loop = LoopThread("real-tables").start()
    stores, outboxes, publishers, tasks = [], [], [], []

    async def make() -> asyncio.Event:
        return asyncio.Event()

    stop = loop.run(make())
    try:
        for table in recorded:
            store = Store(table.store)
            outbox = Outbox(store)
            outbox.register(table.game, table.name, f"http://{table.name}.local:8765/")
            publisher = TablePublisher(outbox, table.name, nats_url)
            stores.append(store)
            outboxes.append(outbox)
            publishers.append(publisher)
            tasks.append(loop.submit(publisher.run(stop)))
        yield publishers
    finally:
        loop.call(stop.set)
        for task in tasks:
            task.result(15)
        loop.stop()
        for outbox in outboxes:
            outbox.close()
        for store in stores:
            store.close()
