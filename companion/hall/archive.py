"""The hall's library: a copy of every table's games, and tournament results from them.

Why copy: a match result links the game it came from, and the tournament lives in the hall's
SQLite file; with the games copied into the same file (through the game store's public
methods, event by event, in stream order) the link is a plain game id and the review page of
the hall replays any table's game. Runs on its own thread so the referees' page never waits
for the disk.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.hall.view import CHANGED, REOPENED, HallView
from companion.hall.wire import EVENT, FINISH, HEADER, TableMessage
from companion.record.store import GameHeader, Store
from companion.tournaments.book import GAME as TOURNAMENT_GAME
from companion.tournaments.book import Link, TournamentBook
from companion.tournaments.results import result_of

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hall_games (
    db TEXT NOT NULL,
    game INTEGER NOT NULL,
    table_name TEXT NOT NULL,
    local_game INTEGER NOT NULL,
    PRIMARY KEY (db, game)
);
"""


class Archive:
    """Copies games into the hall's library and records finished tournament matches."""

    def __init__(self, db: Path, view: HallView, tournament_id: int | None = None,
                 on_tournament: Callable[[], None] | None = None) -> None:
        self.db = Path(db)
        self.store = Store(db)
        self.book = TournamentBook(db)
        self.view = view
        self.tournament_id = tournament_id
        self.on_tournament = on_tournament
        self._conn = sqlite3.connect(str(db), check_same_thread=False, isolation_level=None,
                                     timeout=30.0)
        self._conn.executescript(_SCHEMA)
        self._local: dict[tuple[str, int], int] = {
            (str(d), int(g)): int(lg)
            for d, g, lg in self._conn.execute("SELECT db, game, local_game FROM hall_games")
        }
        self._last: dict[int, int] = {}
        self._queue: queue.Queue[TableMessage | None] = queue.Queue()
        self._idle = threading.Event()
        self._idle.set()
        self.written = 0
        self.errors: list[str] = []
        self._thread = threading.Thread(target=self._main, name="hall-archive", daemon=True)
        self._thread.start()

    def put(self, message: TableMessage) -> None:
        self._idle.clear()
        self._queue.put(message)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Until everything handed in so far is written (tests, shutdown)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(30.0)
        self.store.close()
        self.book.close()
        self._conn.close()

    def local_game(self, db: str, game: int) -> int | None:
        return self._local.get((db, game))

    def _main(self) -> None:
        while True:
            message = self._queue.get()
            if message is None:
                self._idle.set()
                return
            try:
                self._handle(message)
            except Exception as exc:  # one bad message must not stop the hall
                text = f"{message.table} {message.place}: {type(exc).__name__}: {exc}"
                self.errors.append(text)
                log.warning("hall archive: %s", text)
            if self._queue.empty():
                self._idle.set()

    def _handle(self, message: TableMessage) -> None:
        key = (message.db, message.place.game)
        if message.type == HEADER:
            if key not in self._local:
                self._start(message)
            return
        local = self._local.get(key)
        if local is None:
            return  # its header was before this hall's stream: nothing to attach it to
        if message.type == EVENT:
            body = message.body
            seq = int(body["seq"])
            last = self._last_seq(local)
            if seq <= last:
                return
            if seq != last + 1:
                log.warning("hall archive: %s game %s jumps from event %s to %s",
                            message.table, message.place.game, last, seq)
            self.store.append(local, str(body["kind"]), str(body["source"]),
                              dict(body["payload"]), at=float(body["time"]))
            self._last[local] = seq
            self.written += 1
        elif message.type == FINISH:
            outcome = message.body.get("outcome")
            if isinstance(outcome, dict):
                self.store.finish(local, outcome)
                self._tournament_result(message, local, outcome)
            elif outcome is None:  # the table reopened its game (undo past the end)
                self.store.unfinish(local)
                self._withdraw(message, local, reopened=True)

    def _start(self, message: TableMessage) -> None:
        h = message.body
        title = f"{message.table}: {h.get('title') or ''}".strip()
        local = self.store.start_game(GameHeader(
            game=str(h.get("game", "")), players=tuple(h.get("players") or ()),
            cardsets=dict(h.get("cardsets") or {}),
            ruleset_version=str(h.get("ruleset_version") or ""), seed=h.get("seed"),
            title=title, started=str(h.get("started") or "")))
        self._conn.execute("INSERT OR REPLACE INTO hall_games (db, game, table_name, local_game)"
                           " VALUES (?, ?, ?, ?)",
                           (message.db, message.place.game, message.table, local))
        self._local[(message.db, message.place.game)] = local
        self._last[local] = 0

    def _last_seq(self, local: int) -> int:
        if local not in self._last:
            events = self.store.events(local)
            self._last[local] = events[-1].seq if events else 0
        return self._last[local]

    def _tournament_result(self, message: TableMessage, local: int, outcome: dict[str, Any]
                           ) -> None:
        header = self.store.game(local)
        if header.game != TOURNAMENT_GAME:
            return
        tid = self.tournament_id if self.tournament_id is not None else self.book.latest()
        if tid is None:
            return
        loaded = self.book.load(tid)
        origin = f"{message.table}:{message.db}:{message.place.game}"
        key = loaded.counted(Link(table=message.table, game_id=local, origin=origin))
        if key is not None:
            counted = next((w for m, w in loaded.tournament.results.items()
                            if (m.round, m.a, m.b) == key), None)
            if counted == _winner_name(header.players, outcome):
                return  # counted before (a restarted hall reads every finish again)
            trophy = self._withdraw(message, local)  # the game now ends another way
            if trophy is False:
                return
            changed = True
        else:
            trophy, changed = None, False
        loaded = self.book.load(tid)
        match = loaded.match_at(message.table)
        if match is None:
            self.view.note(message.table, "finished, but the tournament plays no match at "
                                          "this table now", "beendet, aber das Turnier spielt "
                                          "an diesem Tisch gerade kein Match")
            return
        link = loaded.links.get((match.round, match.a, match.b))
        if link is not None:
            if link.origin != origin:
                where = link.origin.split(":", 1)[0]  # the table, not its recording's id
                self.view.note(message.table, f"{match.a} - {match.b} has a result already "
                                              f"(from {where}); this game was not counted",
                               f"{match.a} - {match.b} hat schon ein Ergebnis "
                               f"(von {where}); diese Partie zählt nicht")
            return
        result = result_of(header.players, outcome, self.store.events(local))
        try:
            self.book.record_result(tid, message.table, result.players,
                                    result.winner_seat or "", result.fans,
                                    Link(table=message.table, game_id=local, origin=origin),
                                    trophy_fans=getattr(trophy, "fans", None))
        except CompanionError as exc:
            self.view.note(message.table, f"not counted for the tournament: {exc}",
                           f"zählt nicht für das Turnier: {exc.message_de or exc}")
            if changed and self.on_tournament is not None:
                self.on_tournament()  # the old result is gone all the same
            return
        if changed:
            self.view.note(message.table, f"{CHANGED[0]}: counted again for round "
                                          f"{match.round}",
                           f"{CHANGED[1]}: neu gezählt für Runde {match.round}")
        else:
            self.view.note(message.table, f"result counted for round {match.round}",
                           f"Ergebnis gezählt für Runde {match.round}")
        if self.on_tournament is not None:
            self.on_tournament()

    def _withdraw(self, message: TableMessage, local: int, reopened: bool = False) -> Any:
        """Take back the tournament result this game counted for: the trophy it gave (None:
        a final's), or False when it counted for nothing or cannot be taken back (then the
        judges read why)."""
        header = self.store.game(local)
        if header.game != TOURNAMENT_GAME:
            return False
        tid = self.tournament_id if self.tournament_id is not None else self.book.latest()
        if tid is None:
            return False
        origin = f"{message.table}:{message.db}:{message.place.game}"
        try:
            taken = self.book.withdraw_result(
                tid, Link(table=message.table, game_id=local, origin=origin))
        except CompanionError as exc:
            self.view.note(message.table, f"changed its game, but its counted result stays: "
                                          f"{exc}", "hat seine Partie geändert, aber ihr "
                                                    f"gezähltes Ergebnis bleibt: "
                                                    f"{exc.message_de or exc}")
            return False
        if taken is None:
            return False
        match, _winner, trophy = taken
        if reopened:
            self.view.note(message.table, f"{REOPENED[0]} (round {match.round}, {match.a} - "
                                          f"{match.b})",
                           f"{REOPENED[1]} (Runde {match.round}, {match.a} - {match.b})")
            if self.on_tournament is not None:
                self.on_tournament()
        return trophy


def _winner_name(players: tuple[str, ...], outcome: dict[str, Any]) -> str | None:
    """The winner's name in `outcome` (seat p1/p2 of `players`), None for none."""
    seat = outcome.get("winner")
    if isinstance(seat, str) and seat in ("p1", "p2") and len(players) >= int(seat[1]):
        return str(players[int(seat[1]) - 1])
    return None
