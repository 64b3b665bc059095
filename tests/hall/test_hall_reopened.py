"""A counted game reopened at its table: the table publishes the reopening, the hall takes the
result back (the tournament's trophy and fans come off, the judges read "reopened its game:
result withdrawn"), and when the game ends again the hall counts it once more, with the winner
the table's engine names now. One game is one result throughout (counted by game identity).

A real nats-server on loopback, the hall's own runtime (reader, archive, page) and one table
running a live session on the rules engine with the link `serve --hall` uses. The oracles are
the table's own engine (who won, each time) and the tournament's rules (one trophy per
counted match).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from companion.games.challengers.tournament import Match
from companion.hall.natsd import NatsServer
from companion.hall.runtime import Hall
from companion.tournaments.book import Settings, TournamentBook
from tests.hall.conftest import wait_until
from tests.hall.helpers import deck_phase
from tests.hall.test_hall_tournament import TableSide, get

PLAYERS = ("Ada", "Bo")
TABLE = "t3"


def tournament_match(state: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in state["tournament"]["matches"] if m["table"] == TABLE)


def trophies(state: dict[str, Any]) -> dict[str, int]:
    return {s["name"]: s["trophies"] for s in state["tournament"]["standings"]}


def row(state: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in state["tables"] if r["table"] == TABLE)


def test_a_reopened_game_is_withdrawn_and_counted_once_when_it_ends_again(
        nats_server: NatsServer, tmp_path: Path) -> None:
    hall_db = tmp_path / "hall.db"
    with TournamentBook(hall_db) as book:
        tid = book.create(Settings(players=PLAYERS, seed=5, tables=(TABLE,)), "Reopen cup")
        deck_phase(book, tid, PLAYERS)
        match: Match = book.load(tid).tournament.matches[0]
        config = book.load(tid).tournament.match_config(match)
    hall = Hall(hall_db, nats_server.url, heartbeat_s=0.5).start("127.0.0.1", 0)
    state_url = f"http://127.0.0.1:{hall.port}/hall/api/state"
    side = TableSide(tmp_path, TABLE, config, nats_server.url)
    try:
        assert hall.wait_ready()
        engine = side.play(seed=7)
        first = match.name(engine.outcome().winner)  # type: ignore[union-attr]
        wait_until(lambda: tournament_match(get(state_url))["winner"] == first,
                   what="the first result counted")
        assert sum(trophies(get(state_url)).values()) == 1

        # undo past the end: the table's game is open again
        session = side.session
        while session.state()["outcome"] is not None:
            session.undo()
        wait_until(lambda: tournament_match(get(state_url))["winner"] is None,
                   what="the result withdrawn")
        state = get(state_url)
        assert sum(trophies(state).values()) == 0
        assert tournament_match(state)["link"] is None
        assert row(state)["outcome"] is None
        assert row(state)["notice"].startswith("reopened its game: result withdrawn")
        assert row(state)["notice_de"].startswith(
            "hat seine Partie wieder geöffnet: Ergebnis zurückgenommen")
        # the judges read the phase in their language too (the recording has English)
        game = session.referee.engine  # type: ignore[attr-defined]
        assert row(state)["phase"] == game.phase
        assert row(state)["phase_name_de"] == game.ruleset.flow.phase(game.phase).name.get("de")

        # play on to another end: counted again, once, with the winner the engine names now
        rng = random.Random(11)
        engine = session.referee.engine  # type: ignore[attr-defined]
        while engine.outcome() is None:
            session.person_moves((rng.choice(engine.legal_moves),))
            engine = session.referee.engine  # type: ignore[attr-defined]
        again = match.name(engine.outcome().winner)
        wait_until(lambda: tournament_match(get(state_url))["winner"] == again
                   and row(get(state_url))["outcome"] is not None,
                   what="the result counted again")
        state = get(state_url)
        assert trophies(state) == {p: int(p == again) for p in PLAYERS}
        assert row(state)["outcome"]["winner"] == engine.outcome().winner
        with TournamentBook(hall_db) as book:
            loaded = book.load(tid)
            assert len(loaded.links) == 1
            assert loaded.tournament.results == {match: again}
        assert hall.archive is not None and hall.archive.errors == []
    finally:
        side.close()
        hall.close()


def test_a_decision_that_changes_the_winner_moves_the_counted_result(tmp_path: Path) -> None:
    """The stream's messages of one table, straight into the hall's view and archive: the
    game ends (Ada wins), then a referee's decision after the end makes Bo the winner; the
    tournament then holds Bo's win, once, and the same message again changes nothing."""
    from companion.hall.archive import Archive
    from companion.hall.view import HallView
    from companion.hall.wire import EVENT, FINISH, HEADER, PARTS, Place, TableMessage

    hall_db = tmp_path / "hall.db"
    with TournamentBook(hall_db) as book:
        tid = book.create(Settings(players=PLAYERS, seed=5, tables=(TABLE,)), "Decision cup")
        deck_phase(book, tid, PLAYERS)
        match: Match = book.load(tid).tournament.matches[0]
    view = HallView()
    archive = Archive(hall_db, view, tid)

    def send(type_: str, seq: int, body: dict[str, Any]) -> None:
        message = TableMessage(type_, TABLE, "db1", Place(1, seq, PARTS[type_]), body, 0.0)
        if view.apply(message) is not None:
            archive.put(message)
        assert archive.wait_idle()

    def event(seq: int, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"seq": seq, "time": 1.0 + seq, "kind": kind, "source": "person",
                "payload": payload}

    try:
        send(HEADER, 0, {"game": "challengers", "players": [match.a, match.b],
                         "title": "final table"})
        send(EVENT, 1, event(1, "move", {"text_en": "Ada wins", "legal": True,
                                         "state": {"scores": {"p1": 2, "p2": 1}}}))
        send(FINISH, 1, {"outcome": {"winner": "p1", "reason_en": "Ada wins"}, "after": 1})
        with TournamentBook(hall_db) as book:
            assert book.load(tid).tournament.results == {match: match.a}
        send(EVENT, 2, event(2, "decision", {"violation": 1, "decision": "corrected"}))
        changed = {"outcome": {"winner": "p2", "reason_en": "Bo wins"}, "after": 2}
        send(FINISH, 2, changed)
        send(FINISH, 2, changed)  # the same message again: refused as a replay
        with TournamentBook(hall_db) as book:
            loaded = book.load(tid)
        assert loaded.tournament.results == {match: match.b}
        assert len(loaded.links) == 1
        assert [len(loaded.tournament.seats[p].trophies) for p in (match.a, match.b)] == [0, 1]
        shown = view.table(TABLE)
        assert shown is not None and shown["notice"].startswith("changed its result")
        assert shown["notice_de"].startswith("hat sein Ergebnis geändert")
        assert archive.errors == []
    finally:
        archive.close()


def test_a_table_remembers_over_a_restart_that_the_hall_holds_a_result(tmp_path: Path) -> None:
    """Whether the hall was told a game's result is kept in the table's own file, so that a
    table restarted after an undo past the end still publishes the reopening."""
    from companion.hall.outbox import Outbox
    from companion.record.store import GameHeader, Store

    with Store(tmp_path / "t.db") as store:
        game = store.start_game(GameHeader(game="challengers", players=PLAYERS))
        outbox = Outbox(store)
        assert outbox.told(TABLE, game) is False
        outbox.set_told(TABLE, game, True)
        outbox.close()
        again = Outbox(store)  # the table started again on the same file
        assert again.told(TABLE, game) is True
        assert again.told("another-table", game) is False
        again.set_told(TABLE, game, False)
        assert again.told(TABLE, game) is False
        again.close()
