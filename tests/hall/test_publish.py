"""Tables to hall through a real nats-server: order, resume, de-duplication, a cut line, a
restarted hall. The oracle is each table's own SQLite file: every event exactly once."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

from companion.hall.loop import LoopThread
from companion.hall.natsd import NatsServer
from companion.hall.netcut import CutRelay
from companion.hall.service import HallService
from companion.hall.view import HallView
from companion.hall.wire import NOTHING, TableMessage
from tests.hall.conftest import wait_until
from tests.hall.helpers import Table, stream_messages


class Hall:
    """A hall reader with everything it applied, for counting."""

    def __init__(self, loop: LoopThread, url: str) -> None:
        self.loop = loop
        self.view = HallView()
        self.got: list[TableMessage] = []
        self.service = HallService(url, self.view, sink=self.got.append)

        async def make() -> asyncio.Event:
            return asyncio.Event()

        self.stop_event = loop.run(make())
        self.task = loop.submit(self.service.run(self.stop_event))

    def events(self, table: str) -> list[int]:
        return [m.place.seq for m in self.got if m.table == table and m.type == "event"]

    def seq(self, table: str) -> int:
        row = self.view.table(table)
        return int(row["seq"]) if row else -1

    def stop(self) -> None:
        self.loop.call(self.stop_event.set)
        self.task.result(15)


def exactly_once(hall: Hall, table: Table) -> None:
    got = hall.events(table.name)
    doubled = [s for s, n in Counter(got).items() if n > 1]
    assert not doubled, f"{table.name}: events twice in the hall: {doubled}"
    assert got == table.seqs(), f"{table.name}: hall {got} != table {table.seqs()}"


def test_a_table_resumes_where_the_stream_ends(nats_server: NatsServer, loop: LoopThread,
                                               tmp_path: Path) -> None:
    table = Table(tmp_path, "t1", loop, nats_server.url)
    hall = Hall(loop, nats_server.url)
    for n in range(5):
        table.move(n)
    publisher = table.start()
    wait_until(lambda: hall.seq("t1") == 5, what="the first five events")
    table.stop()
    for n in range(5, 12):  # the table plays on while its publisher is gone (a restart)
        table.move(n)
    assert hall.seq("t1") == 5
    again = table.start()
    wait_until(lambda: hall.seq("t1") == 12, what="the rest after a restart")
    assert again.stats.duplicates == 0 and again.stats.published == 7  # only what was missing
    assert publisher.stats.published == 6  # header + five
    assert loop.run(stream_messages(nats_server.url)) == 1 + 12
    exactly_once(hall, table)
    hall.stop()
    table.close()


def test_a_message_sent_twice_is_stored_once(nats_server: NatsServer, loop: LoopThread,
                                             tmp_path: Path) -> None:
    table = Table(tmp_path, "t1", loop, nats_server.url)
    for n in range(4):
        table.move(n)
    publisher = table.start()
    hall = Hall(loop, nats_server.url)
    wait_until(lambda: hall.seq("t1") == 4, what="four events")
    table.stop()
    publisher.high = NOTHING  # as if every ack had been lost: send it all again

    async def resend() -> int:
        import nats

        publisher.nc = await nats.connect(nats_server.url)
        publisher._js = publisher.nc.jetstream()
        sent = await publisher.publish_pending()
        await publisher.nc.close()
        return sent

    assert loop.run(resend()) == 5
    assert publisher.stats.duplicates == 5  # JetStream knew every Nats-Msg-Id
    assert loop.run(stream_messages(nats_server.url)) == 5
    assert hall.view.counts()["duplicates"] == 0
    exactly_once(hall, table)
    hall.stop()
    table.close()


def test_a_cut_line_loses_and_doubles_nothing(nats_server: NatsServer, loop: LoopThread,
                                              tmp_path: Path) -> None:
    relay = loop.run(CutRelay("127.0.0.1", nats_server.port).start())
    cut_table = Table(tmp_path, "cut", loop, relay.url)
    other = Table(tmp_path, "other", loop, nats_server.url)
    hall = Hall(loop, nats_server.url)
    cut_table.start()
    other.start()
    for n in range(10):
        cut_table.move(n)
        other.move(n)
    wait_until(lambda: hall.seq("cut") == 10 and hall.seq("other") == 10, what="both tables")
    loop.run(relay.cut())
    assert cut_table.publisher is not None
    wait_until(lambda: cut_table.publisher is not None
               and cut_table.publisher.stats.status == "offline", what="the table to notice")
    for n in range(10, 40):  # play goes on at both tables
        cut_table.move(n)
        other.move(n)
    wait_until(lambda: hall.seq("other") == 40, what="the other table during the cut")
    assert hall.seq("cut") == 10  # nothing crossed the cut line
    loop.run(relay.restore())
    wait_until(lambda: hall.seq("cut") == 40, what="the cut table to catch up")
    exactly_once(hall, cut_table)
    exactly_once(hall, other)
    assert hall.view.counts()["duplicates"] == 0
    assert loop.run(stream_messages(nats_server.url)) == 2 * (1 + 40)
    hall.stop()
    cut_table.close()
    other.close()
    loop.run(relay.close())


def test_a_restarted_hall_rebuilds_its_view_from_the_stream(
        nats_server: NatsServer, loop: LoopThread, tmp_path: Path) -> None:
    tables = [Table(tmp_path, f"t{i}", loop, nats_server.url) for i in range(3)]
    hall = Hall(loop, nats_server.url)
    for t in tables:
        t.start()
    for n in range(8):
        for i, t in enumerate(tables):
            if n < 6 + i:
                t.move(n)
    tables[1].store.append(tables[1].game, "violation", "automatic", {
        "code": "ch.x", "message_en": "x", "message_de": "x", "rule": "r", "move_seq": 7})
    tables[1].rings += 1
    wait_until(lambda: [hall.seq(t.name) for t in tables] == [6, 8, 8], what="all tables")
    before = hall.view.snapshot()
    hall.stop()
    for t in tables:  # the tables play on while the hall is down
        t.move(99)
    late = Hall(loop, nats_server.url)
    wait_until(lambda: [late.seq(t.name) for t in tables] == [7, 9, 9], what="the rebuild")

    def comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k not in ("heard", "messages")} for r in rows]

    after = {r["table"]: r for r in late.view.snapshot()}
    assert after["t1"]["alert"] and next(r["table"] for r in late.view.snapshot()) == "t1"
    for row in comparable(before):
        rebuilt = comparable([after[row["table"]]])[0]
        assert rebuilt["seq"] == row["seq"] + 1 and rebuilt["last_move"]["text_en"] == "move 99"
        assert {**rebuilt, "seq": 0, "commit": 0, "last_move": 0, "turn": 0, "scores": 0} == \
            {**row, "seq": 0, "commit": 0, "last_move": 0, "turn": 0, "scores": 0}
    for t in tables:
        exactly_once(late, t)
        t.close()
    late.stop()


def test_an_outcome_without_a_new_event_still_reaches_the_hall(
        nats_server: NatsServer, loop: LoopThread, tmp_path: Path) -> None:
    table = Table(tmp_path, "t1", loop, nats_server.url)
    hall = Hall(loop, nats_server.url)
    table.start()
    table.move(1)
    wait_until(lambda: hall.seq("t1") == 1, what="the move")
    table.store.finish(table.game, {"winner": "p2", "reason": "conceded"})  # no event, no ring
    wait_until(lambda: (hall.view.table("t1") or {}).get("outcome") is not None,
               what="the outcome by the slow poll")
    row = hall.view.table("t1")
    assert row is not None and row["outcome"]["winner"] == "p2"
    finishes = [m for m in hall.got if m.type == "finish"]
    assert [m.place.seq for m in finishes] == [1]
    hall.stop()
    table.close()


def test_the_outcome_never_runs_ahead_of_the_moves_it_depends_on(
        nats_server: NatsServer, loop: LoopThread, tmp_path: Path) -> None:
    """The session appends a game's last move, then marks the game finished. If that happens
    while the publisher is between reading events and reading the outcome, the finish must
    still come after the last move in the stream (a result read from fewer moves is wrong)."""
    table = Table(tmp_path, "t1", loop, nats_server.url)
    hall = Hall(loop, nats_server.url)
    table.move(1)
    real_events = table.outbox.events
    calls = {"n": 0}

    def events_then_the_game_ends(game_id: int, after: int) -> list[Any]:
        found = real_events(game_id, after)
        calls["n"] += 1
        if calls["n"] == 1:  # the session records the winning move and finishes meanwhile
            table.move(2)
            table.store.finish(table.game, {"winner": "p1", "reason": "bench-full"})
        return found

    table.outbox.events = events_then_the_game_ends  # type: ignore[method-assign]
    table.start()
    wait_until(lambda: any(m.type == "finish" for m in hall.got), what="the finish")
    order = [(m.type, m.place.seq) for m in hall.got]
    finish_at = order.index(("finish", 2))
    assert ("event", 2) in order[:finish_at], order
    hall.stop()
    table.close()
