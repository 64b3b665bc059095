"""Done-when of the hall: four tables of a Challengers! tournament round, each a real live
session on the rules engine recording into its own SQLite file and publishing with the same
link `serve --hall` uses, against one hall (broker, reader, archive, web page); the standings
on the hall page follow the tables' results."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path
from typing import Any

from companion.engine.game import Game
from companion.games.challengers.tournament import Match
from companion.hall.natsd import NatsServer
from companion.hall.runtime import Hall
from companion.hall.table_link import HallLink
from companion.record.store import Store
from companion.server.bus import EventBus
from companion.server.engine_referee import EngineReferee
from companion.server.gamedata import card_lookup, layout_dict
from companion.server.live_setup import header_for
from companion.server.session import LiveSession
from companion.tournaments.book import Settings, TournamentBook
from tests.hall.conftest import wait_until

PLAYERS = ("Ada", "Bo", "Cy", "Di", "Ed", "Fe", "Gu", "Hu")
TABLES = ("north", "south", "east", "west")


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


class TableSide:
    """One table: its own library, a live session on the engine, the hall link."""

    def __init__(self, tmp: Path, name: str, config: Any, url: str) -> None:
        self.store = Store(tmp / f"{name}.db")
        self.session = LiveSession(EngineReferee(config), self.store, EventBus(),
                                   header_for(config, f"tournament at {name}"),
                                   layout_dict("challengers"), card_lookup("challengers"))
        bus = self.session.bus
        self.link = HallLink(self.store, name, url, doorbell=lambda: bus.last_id)
        self.link.follow(self.session.game_id, f"http://{name}.local:8765/")
        self.link.start()

    def play(self, seed: int) -> Game:
        """Random legal moves, as a person would enter them on the page, to the end."""
        rng = random.Random(seed)
        engine: Game = self.session.referee.engine  # type: ignore[attr-defined]
        while engine.outcome() is None:
            self.session.person_moves((rng.choice(engine.legal_moves),))
            engine = self.session.referee.engine  # type: ignore[attr-defined]
        return engine

    def close(self) -> None:
        self.session.close()
        self.link.close()
        self.session.bus.close()
        self.store.close()


def deck_phase(book: TournamentBook, tid: int) -> None:
    for name in PLAYERS:
        _, offer = book.act(tid, "draw", {"name": name})
        t = book.load(tid).tournament
        owed = t.removals_owed(offer[:1])
        book.act(tid, "choose", {"name": name, "keep": offer[:1],
                                 "remove": (t.seats[name].deck + offer[:1])[:owed]})
    book.act(tid, "end-deck-phase")


def test_four_tables_play_a_round_and_the_hall_keeps_the_standings(
        nats_server: NatsServer, tmp_path: Path) -> None:
    hall_db = tmp_path / "hall.db"
    with TournamentBook(hall_db) as book:
        tid = book.create(Settings(players=PLAYERS, seed=21, tables=TABLES), "Hall cup")
        deck_phase(book, tid)
        loaded = book.load(tid)
    matches: dict[str, Match] = {loaded.table_of(m): m for m in loaded.tournament.matches}
    assert sorted(matches) == sorted(TABLES)
    hall = Hall(hall_db, nats_server.url, heartbeat_s=0.5).start("127.0.0.1", 0)
    base = f"http://127.0.0.1:{hall.port}"
    tables: dict[str, TableSide] = {}
    engines: dict[str, Game] = {}
    try:
        assert hall.wait_ready()
        page = get(base + "/hall/api/state")
        assert page["tournament"]["stage"] == "match" and page["tables"] == []
        for i, (name, match) in enumerate(sorted(matches.items())):
            config = loaded.tournament.match_config(match)
            tables[name] = TableSide(tmp_path, name, config, nats_server.url)
            engines[name] = tables[name].play(seed=100 + i)
        for side in tables.values():  # each table's game ends; its link sends the rest
            side.close()

        def results_in() -> bool:
            view = get(base + "/hall/api/state")["tournament"]
            return all(m["winner"] for m in view["matches"])

        wait_until(results_in, what="all four results in the tournament")
        state = get(base + "/hall/api/state")
        # the oracle: each table's own engine and recording
        wins: dict[str, int] = dict.fromkeys(PLAYERS, 0)
        tokens: dict[str, int] = dict.fromkeys(PLAYERS, 0)
        rows = {r["table"]: r for r in state["tables"]}
        assert sorted(rows) == sorted(TABLES)
        with Store(hall_db) as archive:
            for name, match in matches.items():
                engine = engines[name]
                outcome = engine.outcome()
                assert outcome is not None and outcome.winner in ("p1", "p2")
                winner = match.name(outcome.winner)
                wins[winner] += 1
                for seat, score in engine.scores().items():
                    tokens[match.name(seat)] += score.value
                row = rows[name]
                assert row["players"] == [match.a, match.b]
                assert row["outcome"]["winner"] == outcome.winner
                with Store(tmp_path / f"{name}.db") as own:
                    own_events = own.events(1)
                assert row["seq"] == own_events[-1].seq
                m = next(x for x in state["tournament"]["matches"] if x["table"] == name)
                assert m["winner"] == winner
                link = m["link"]
                assert link["table"] == name and link["game_id"] is not None
                copied = archive.events(int(link["game_id"]))
                assert [(e.seq, e.kind, e.payload) for e in copied] == \
                    [(e.seq, e.kind, e.payload) for e in own_events]
                assert archive.game(int(link["game_id"])).outcome == outcome.to_dict()
        standings = {s["name"]: s for s in state["tournament"]["standings"]}
        assert {n: s["trophies"] for n, s in standings.items()} == wins
        assert {n: s["fan_tokens"] for n, s in standings.items()} == tokens
        assert all(s["fans"] is None for s in standings.values())  # hidden until the final
        # the round ends at the desk; the hall page shows round 2 by itself
        with TournamentBook(hall_db) as book:
            book.act(tid, "end-match-phase")
        wait_until(lambda: get(base + "/hall/api/state")["tournament"]["round"] == 2,
                   what="round 2 on the hall page")
        assert hall.archive is not None and hall.archive.errors == []
    finally:
        for side in tables.values():
            if side.link.loop.loop.is_running():
                side.close()
        hall.close()
