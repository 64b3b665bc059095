"""A game is one tournament result, whatever the hall goes through: a hall stopped and
started again in every round of a seven-round tournament reads every table's finished games
from the stream's start each time, and still counts each game once, for its own round."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

from companion.hall.loop import LoopThread
from companion.hall.natsd import NatsServer
from companion.hall.outbox import Outbox
from companion.hall.publisher import TablePublisher
from companion.hall.runtime import Hall
from companion.record.store import GameHeader, Store
from companion.tournaments.book import Settings, TournamentBook
from tests.hall.conftest import wait_until
from tests.hall.helpers import deck_phase

PLAYERS = ("Ada", "Bo")
TABLE = "north"


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def test_a_hall_restarted_in_every_round_counts_each_game_once(
        nats_server: NatsServer, loop: LoopThread, tmp_path: Path) -> None:
    hall_db = tmp_path / "hall.db"
    with TournamentBook(hall_db) as book:
        tid = book.create(Settings(players=PLAYERS, seed=5, tables=(TABLE,)), "Restart cup")
    store = Store(tmp_path / "north.db")  # the table's own library: one game per round
    outbox = Outbox(store)

    async def make() -> asyncio.Event:
        return asyncio.Event()

    stop = loop.run(make())
    publisher = TablePublisher(outbox, TABLE, nats_server.url, poll_s=0.1)
    task = loop.submit(publisher.run(stop))
    games: dict[int, int] = {}  # round -> the table's game id
    winners: dict[int, str] = {}
    hall: Hall | None = None
    try:
        for round_no in range(1, 8):
            with TournamentBook(hall_db) as book:
                deck_phase(book, tid, PLAYERS)
                match = book.load(tid).match_at(TABLE)
            assert match is not None and match.round == round_no
            # the hall is stopped and started again: it reads every earlier round's finished
            # game at this table (same table, same two players) from the stream's start
            if hall is not None:
                hall.close()
            hall = Hall(hall_db, nats_server.url, heartbeat_s=0.5).start("127.0.0.1", 0)
            assert hall.wait_ready()
            base = f"http://127.0.0.1:{hall.port}"
            game = store.start_game(GameHeader(game="challengers", players=(match.a, match.b),
                                               title=f"round {round_no}"))
            outbox.register(game, TABLE, "")
            store.append(game, "move", "camera", {
                "text_en": "a move", "legal": True,
                "state": {"turn": 1, "active": "p1", "phase": "attack",
                          "scores": {"p1": round_no % 3, "p2": 1}}})
            seat = "p1" if round_no % 2 else "p2"
            store.finish(game, {"winner": seat, "reason": "test"})
            games[round_no] = game
            winners[round_no] = match.a if seat == "p1" else match.b

            def counted(n: int = round_no, base: str = base) -> bool:
                view = get(base + "/hall/api/state")["tournament"]
                return any(m["round"] == n and m["winner"] for m in view["matches"])

            wait_until(counted, 30, f"round {round_no}'s result")
            # and once more after the result: the restarted hall must not count anything again
            hall.close()
            hall = Hall(hall_db, nats_server.url, heartbeat_s=0.5).start("127.0.0.1", 0)
            assert hall.wait_ready()
            assert hall.archive is not None
            wait_until(lambda h=hall, n=round_no: h.view.counts()["applied"] >= 3 * n, 30,
                       "the restarted hall read the whole stream")
            assert hall.archive.wait_idle(30)
            with TournamentBook(hall_db) as book:
                if round_no < 7:
                    book.act(tid, "end-match-phase")
        assert hall is not None and hall.archive is not None
        assert hall.archive.errors == []
        with TournamentBook(hall_db) as book:
            results = [s for s in book.steps(tid) if s["action"] == "result"]
            loaded = book.load(tid)
        assert [r["args"]["round"] for r in results] == list(range(1, 8))
        assert [r["args"]["winner"] for r in results] == [winners[n] for n in range(1, 8)]
        origins = {key[0]: link.origin for key, link in loaded.links.items()}
        assert origins == {n: f"{TABLE}:{outbox.db_id}:{games[n]}" for n in range(1, 8)}
        assert len({link.game_id for link in loaded.links.values()}) == 7
    finally:
        loop.call(stop.set)
        task.result(15)
        if hall is not None:
            hall.close()
        outbox.close()
        store.close()


def test_a_hall_killed_in_every_round_counts_each_game_once(
        nats_server: NatsServer, loop: LoopThread, tmp_path: Path) -> None:
    """The real `companion hall` process, killed with SIGKILL in every round just as the
    round's game reaches the stream (counting or not yet), and started again."""
    from tests.hall.test_hall_process import free_port, kill, start_hall, state

    hall_db = tmp_path / "hall.db"
    with TournamentBook(hall_db) as book:
        tid = book.create(Settings(players=PLAYERS, seed=8, tables=(TABLE,)), "Kill cup")
    store = Store(tmp_path / "north.db")
    outbox = Outbox(store)

    async def make() -> asyncio.Event:
        return asyncio.Event()

    stop = loop.run(make())
    task = loop.submit(TablePublisher(outbox, TABLE, nats_server.url, poll_s=0.1).run(stop))
    port = free_port()
    args = ["--nats", nats_server.url, "--port", str(port), "--db", str(hall_db)]
    hall = start_hall(args, tmp_path)
    games: dict[int, int] = {}

    def counted(n: int) -> bool:
        data = state(port)
        return data is not None and data["tournament"] is not None and any(
            m["round"] == n and m["winner"] for m in data["tournament"]["matches"])

    try:
        for round_no in range(1, 8):
            with TournamentBook(hall_db) as book:
                deck_phase(book, tid, PLAYERS)
                match = book.load(tid).match_at(TABLE)
            assert match is not None
            game = store.start_game(GameHeader(game="challengers", players=(match.a, match.b),
                                               title=f"round {round_no}"))
            outbox.register(game, TABLE, "")
            store.append(game, "move", "camera", {"text_en": "m", "legal": True,
                                                  "state": {"scores": {"p1": 1, "p2": 0}}})
            store.finish(game, {"winner": "p1" if round_no % 2 else "p2", "reason": "test"})
            games[round_no] = game
            wait_until(lambda n=round_no: (state(port) or {}).get("counts", {}).get(
                "applied", 0) >= 3 * n, 30, "the round's game at the hall")
            kill(hall)  # whether it counted the result yet or not
            hall = start_hall(args, tmp_path)
            wait_until(lambda n=round_no: counted(n), 60, f"round {round_no}'s result")
            if round_no < 7:
                with TournamentBook(hall_db) as book:
                    book.act(tid, "end-match-phase")
        kill(hall)
        with TournamentBook(hall_db) as book:
            results = [s["args"]["round"] for s in book.steps(tid) if s["action"] == "result"]
            loaded = book.load(tid)
        assert results == list(range(1, 8))
        assert sorted(link.origin for link in loaded.links.values()) == sorted(
            f"{TABLE}:{outbox.db_id}:{games[n]}" for n in range(1, 8))
    finally:
        if hall.poll() is None:
            kill(hall)
        loop.call(stop.set)
        task.result(15)
        outbox.close()
        store.close()
