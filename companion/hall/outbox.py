"""The table's own SQLite file as the hall's outbox.

Why no separate queue: the game library already holds every event, committed before the page
shows it. The publisher only needs to know which games go to which hall table (a small table
of its own in the same file) and a stable id of this file (so two laptops' game #1 never
collide in the stream); what the hall lacks it learns from the stream itself.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from typing import Any

from companion.record.store import Event, Store

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hall_outbox_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hall_outbox_games (
    game_id INTEGER NOT NULL,
    table_name TEXT NOT NULL,
    page_url TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, table_name)
);
"""


class Outbox:
    """Read-only view of a game library for publishing, plus which games are the hall's."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._conn = sqlite3.connect(str(store.path), check_same_thread=False,
                                     isolation_level=None, timeout=30.0)
        self._conn.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._games: dict[str, list[tuple[int, str]]] = {}
        self.db_id = self._db_id()

    def _db_id(self) -> str:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            row = self._conn.execute(
                "SELECT value FROM hall_outbox_meta WHERE key = 'db_id'").fetchone()
            if row is None:
                value = uuid.uuid4().hex[:16]
                self._conn.execute("INSERT INTO hall_outbox_meta (key, value) VALUES "
                                   "('db_id', ?)", (value,))
            else:
                value = str(row[0])
            self._conn.execute("COMMIT")
        return value

    def id_for(self, table: str) -> str:
        """The recording id this library publishes under as hall table `table`: the library's
        id for the first table it was published as, a new one for any other. The hall binds a
        recording to the table that sent it first (another table's messages under that id are
        refused), so a laptop moved to another table starts a recording of its own there."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                meta = dict(self._conn.execute(
                    "SELECT key, value FROM hall_outbox_meta").fetchall())
                first = meta.get("db_table")
                if first is None:  # a file from before: its earliest hall table, else this one
                    row = self._conn.execute(
                        "SELECT table_name FROM hall_outbox_games ORDER BY game_id"
                        " LIMIT 1").fetchone()
                    first = str(row[0]) if row else table
                    self._conn.execute("INSERT INTO hall_outbox_meta (key, value) VALUES "
                                       "('db_table', ?)", (first,))
                if table == first:
                    value = self.db_id
                else:
                    key = f"db_id:{table}"
                    value = meta.get(key) or uuid.uuid4().hex[:16]
                    self._conn.execute("INSERT OR IGNORE INTO hall_outbox_meta (key, value)"
                                       " VALUES (?, ?)", (key, value))
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        return str(value)

    def register(self, game_id: int, table: str, page_url: str = "") -> None:
        """Game `game_id` of this library is played at hall table `table`."""
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO hall_outbox_games (game_id, table_name, page_url)"
                " VALUES (?, ?, ?)", (game_id, table, page_url))
            self._games.pop(table, None)

    def games(self, table: str) -> list[tuple[int, str]]:
        """(game id, page url) of this table's games, oldest first (registrations go through
        this object, so the list is read from the file once and kept)."""
        with self._lock:
            if table not in self._games:
                rows = self._conn.execute(
                    "SELECT game_id, page_url FROM hall_outbox_games WHERE table_name = ?"
                    " ORDER BY game_id", (table,)).fetchall()
                self._games[table] = [(int(g), str(u)) for g, u in rows]
            return list(self._games[table])

    def told(self, table: str, game_id: int) -> bool:
        """Whether the last finish message this library published for game `game_id` at hall
        table `table` held a result (kept here so that a restarted table still publishes the
        game's reopening)."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM hall_outbox_meta WHERE key = ?",
                                     (f"told:{table}:{game_id}",)).fetchone()
        return row is not None and str(row[0]) == "1"

    def set_told(self, table: str, game_id: int, told: bool) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO hall_outbox_meta (key, value) VALUES"
                               " (?, ?)", (f"told:{table}:{game_id}", "1" if told else "0"))

    def header(self, game_id: int, page_url: str) -> dict[str, Any]:
        from companion.record.redact import public_header

        # deck lists in draw order stay on the table's machine (only their sizes travel)
        return {**public_header(self.store.game(game_id).to_dict()), "url": page_url}

    def events(self, game_id: int, after: int) -> list[Event]:
        return self.store.events(game_id, after)

    def outcome(self, game_id: int) -> Any:
        return self.store.game(game_id).outcome

    def close(self) -> None:
        with self._lock:
            self._conn.close()
