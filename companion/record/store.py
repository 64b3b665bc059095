"""The game library: one SQLite file, plain tables, committed event by event.

Why plain tables with JSON as text: the file opens as is in `sqlite3` and Datasette. Why a
commit per event: a killed process must lose nothing the page has already shown. Events are
append-only, enforced by triggers in the file itself, so no tool can rewrite history; a
correction is a new event that replaces a move on the main line (see `companion.record.replay`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from companion.errors import CompanionError
from companion.snapshot import TableSnapshot

EVENT_KINDS = (
    "move",
    "violation",
    "decision",
    "correction",
    "question",
    "phase",
    "camera",
    "note",
)
EVENT_SOURCES = ("camera", "person", "automatic")
DECISIONS = ("stands", "corrected")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    cardsets TEXT NOT NULL,
    ruleset_version TEXT NOT NULL,
    seed INTEGER,
    started TEXT NOT NULL,
    finished TEXT,
    outcome TEXT,
    title TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    time REAL NOT NULL,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    payload TEXT NOT NULL,
    UNIQUE (game_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    snapshot TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS keyframes (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
"""


class RecordError(CompanionError):
    """A recording that cannot be opened or an event that cannot be stored."""


class GameNotFoundError(RecordError):
    """A game id that is not in the library."""


@dataclass(frozen=True)
class GameHeader:
    """What a recorded game is: needed to replay it with the same rules and cards."""

    game: str
    players: tuple[str, ...]
    cardsets: Mapping[str, Any] = field(default_factory=dict)
    ruleset_version: str = ""
    seed: int | None = None
    title: str = ""
    id: int | None = None
    started: str = ""
    finished: str | None = None
    outcome: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": list(self.players),
            "cardsets": dict(self.cardsets),
            "ruleset_version": self.ruleset_version,
            "seed": self.seed,
            "title": self.title,
            "started": self.started,
            "finished": self.finished,
            "outcome": self.outcome,
        }


@dataclass(frozen=True)
class Event:
    """One line of a game's log."""

    game_id: int
    seq: int
    time: float
    kind: str
    source: str
    payload: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "time": self.time,
            "kind": self.kind,
            "source": self.source,
            "payload": self.payload,
        }


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """A library of recorded games in one SQLite file; safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
            # WAL + NORMAL: each commit is in the file's log before append() returns, so a
            # killed process loses nothing; only a power cut may lose the last moments.
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise RecordError(f"{self.path}: not a game library ({exc})") from None
        self._lock = threading.RLock()
        self._conn = conn
        self.db = sqlite_utils.Database(conn)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing -----------------------------------------------------------------------------

    def start_game(self, header: GameHeader) -> int:
        row = {
            "game": header.game,
            "players": json.dumps(list(header.players)),
            "cardsets": json.dumps(dict(header.cardsets), sort_keys=True),
            "ruleset_version": header.ruleset_version,
            "seed": header.seed,
            "started": header.started or _now_iso(),
            "finished": None,
            "outcome": None,
            "title": header.title,
        }
        with self._lock:
            cursor = self._conn.execute(
                "INSERT INTO games (game, players, cardsets, ruleset_version, seed, started,"
                " finished, outcome, title) VALUES (:game, :players, :cardsets,"
                " :ruleset_version, :seed, :started, :finished, :outcome, :title)",
                row,
            )
            return int(cursor.lastrowid or 0)

    def append(
        self,
        game_id: int,
        kind: str,
        source: str,
        payload: Mapping[str, Any],
        at: float | None = None,
    ) -> Event:
        """Add one event at the end of the game's log and commit it at once."""
        if kind not in EVENT_KINDS:
            raise RecordError(f"unknown event kind {kind!r}; known: {', '.join(EVENT_KINDS)}")
        if source not in EVENT_SOURCES:
            raise RecordError(f"unknown event source {source!r}; known: {', '.join(EVENT_SOURCES)}")
        stamp = time.time() if at is None else float(at)
        body = dict(payload)
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        with self._lock:
            self._require_game(game_id)
            (last,) = self._conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = int(last) + 1
            self._conn.execute(
                "INSERT INTO events (game_id, seq, time, kind, source, payload)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, stamp, kind, source, text),
            )
        return Event(game_id, seq, stamp, kind, source, json.loads(text))

    def save_snapshot(self, game_id: int, seq: int, snapshot: TableSnapshot) -> None:
        """The visible table as it was after event `seq` (for the review page's mat)."""
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, snapshot) VALUES (?, ?, ?)",
                (game_id, seq, snapshot.to_json()),
            )

    def save_keyframe(self, game_id: int, seq: int, jpeg: bytes) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO keyframes (game_id, seq, jpeg) VALUES (?, ?, ?)",
                (game_id, seq, sqlite3.Binary(jpeg)),
            )

    def finish(self, game_id: int, outcome: Any) -> None:
        with self._lock:
            self._require_game(game_id)
            self._conn.execute(
                "UPDATE games SET finished = ?, outcome = ? WHERE id = ?",
                (_now_iso(), json.dumps(outcome, sort_keys=True), game_id),
            )

    def set_title(self, game_id: int, title: str) -> None:
        """Name a game ("Friday final"); the header is not part of the append-only log."""
        with self._lock:
            self._require_game(game_id)
            self._conn.execute("UPDATE games SET title = ? WHERE id = ?", (title, game_id))

    # --- reading -----------------------------------------------------------------------------

    def games(self) -> list[GameHeader]:
        with self._lock:
            rows = list(self.db.query("SELECT * FROM games ORDER BY id"))
        return [_header(r) for r in rows]

    def game(self, game_id: int) -> GameHeader:
        with self._lock:
            rows = list(self.db.query("SELECT * FROM games WHERE id = ?", [game_id]))
        if not rows:
            raise GameNotFoundError(f"{self.path}: no game with id {game_id}")
        return _header(rows[0])

    def events(self, game_id: int, after: int = 0) -> list[Event]:
        return list(self.iter_events(game_id, after))

    def iter_events(self, game_id: int, after: int = 0) -> Iterator[Event]:
        with self._lock:
            self._require_game(game_id)
            rows = self._conn.execute(
                "SELECT seq, time, kind, source, payload FROM events"
                " WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            ).fetchall()
        for seq, stamp, kind, source, payload in rows:
            yield Event(game_id, int(seq), float(stamp), kind, source, json.loads(payload))

    def snapshots(self, game_id: int) -> dict[int, TableSnapshot]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq, snapshot FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return {int(seq): TableSnapshot.from_json(text) for seq, text in rows}

    def keyframe_seqs(self, game_id: int) -> list[int]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq FROM keyframes WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [int(r[0]) for r in rows]

    def keyframe(self, game_id: int, seq: int) -> bytes | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT jpeg FROM keyframes WHERE game_id = ? AND seq = ?", (game_id, seq)
            ).fetchone()
        return bytes(row[0]) if row else None

    def event_counts(self) -> dict[int, dict[str, int]]:
        """Per game, how many events of each kind it holds (for the list of games)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT game_id, kind, COUNT(*) FROM events GROUP BY game_id, kind"
            ).fetchall()
        out: dict[int, dict[str, int]] = {}
        for game_id, kind, count in rows:
            out.setdefault(int(game_id), {})[str(kind)] = int(count)
        return out

    def _require_game(self, game_id: int) -> None:
        row = self._conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"{self.path}: no game with id {game_id}")


def _header(row: Mapping[str, Any]) -> GameHeader:
    return GameHeader(
        id=int(row["id"]),
        game=row["game"],
        players=tuple(json.loads(row["players"])),
        cardsets=json.loads(row["cardsets"]),
        ruleset_version=row["ruleset_version"],
        seed=row["seed"],
        title=row["title"] or "",
        started=row["started"],
        finished=row["finished"],
        outcome=json.loads(row["outcome"]) if row["outcome"] else None,
    )


def open_existing(path: str | Path) -> Store:
    """Open a library that must already exist (for replay and export: never create one)."""
    p = Path(path)
    if not p.is_file():
        raise RecordError(f"{p}: no such game library")
    return Store(p)


def decisions_of(events: Sequence[Event]) -> dict[int, str]:
    """The latest decision per violation seq ("stands" or "corrected")."""
    found: dict[int, str] = {}
    for e in events:
        if e.kind == "decision" and "violation" in e.payload:
            found[int(e.payload["violation"])] = str(e.payload["decision"])
    return found
