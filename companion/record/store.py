"""The game library: one SQLite file, plain tables, committed event by event.

Why plain tables with JSON as text: the file opens as is in `sqlite3` and Datasette. Why a
commit per event: a killed process must lose nothing the page has already shown. Events are
append-only, enforced by triggers in the file itself, so no tool can rewrite history; a
correction is a new event that replaces a move on the main line (see `companion.record.replay`).
"""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlite_utils

from companion.errors import CompanionError
from companion.record.game_lock import GameLock
from companion.snapshot import TableSnapshot

EVENT_KINDS = (
    # what the engine and the interpreter made of an input (written with it, never alone)
    "move",
    "violation",
    "question",
    "phase",
    # a reading replaced in hindsight (`off`: the assumed steps), or violations of later
    # steps that no longer hold under the replacement (`cleared`)
    "revision",
    # inputs: each is written first and then applied from the record
    "observation",
    "action",
    "answer",
    "decision",
    "undo",
    "redo",
    # old recordings only: a correction that replaces or removes a move
    "correction",
    # not part of the game: camera health, notes
    "camera",
    "note",
)
INPUT_KINDS = ("observation", "action", "answer", "decision", "undo", "redo")
EVENT_SOURCES = ("camera", "person", "automatic", "assumed")
DECISIONS = ("stands", "corrected")
SCHEMA_VERSION = 2
EVENT_CHUNK = 1000

_SCHEMA_V1 = """
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

# version -> the statements that bring a library from version-1 to version (one transaction
# each). Version 1 is the first released schema; files from before PRAGMA user_version read 0
# and have exactly that schema.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (_SCHEMA_V1,),
    2: ("ALTER TABLE games ADD COLUMN config TEXT",),
}
_OUR_TABLES = frozenset({"games", "events"})
_COMPANION_PREFIXES = ("games", "events", "snapshots", "keyframes", "tournament", "sqlite_")
"""Tables the companion itself keeps in a library (the hall adds its tournaments)."""


class RecordError(CompanionError):
    """A recording that cannot be opened or an event that cannot be stored."""


class LibraryDamagedError(RecordError):
    """A library whose file cannot be read as one: damaged pages, or tables laid out by
    something else. Nothing was changed."""


class GameNotFoundError(RecordError):
    """A game id that is not in the library."""


BUSY_REASON = ("library busy", "Bibliothek belegt")


class WriteFailedError(RecordError):
    """The library refused a write (disk full, read-only, I/O error): nothing was stored.

    `reason_en`/`reason_de` say why in a few words, for the page's "recording paused" line.
    """

    def __init__(self, path: Path, exc: BaseException) -> None:
        self.reason_en, self.reason_de = write_failure_reason(exc)
        self.busy = self.reason_en == BUSY_REASON[0]
        """Another program holds the library's write lock: the write can simply wait."""
        super().__init__(f"{path}: not recorded ({self.reason_en}): {exc}",
                         de=f"nicht aufgezeichnet ({self.reason_de})")


def write_failure_reason(exc: BaseException) -> tuple[str, str]:
    """A short name for why SQLite could not write, in English and German."""
    text = str(exc).lower()
    code = getattr(exc, "sqlite_errorcode", None)
    if "full" in text or code == sqlite3.SQLITE_FULL:
        return "disk full", "Speicher voll"
    if "readonly" in text or "read-only" in text or code == sqlite3.SQLITE_READONLY:
        return "read-only storage", "Speicher schreibgeschützt"
    if "locked" in text or "busy" in text or code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return BUSY_REASON
    if "i/o" in text or "disk" in text:
        return "disk error", "Speicherfehler"
    return "database error", "Datenbankfehler"


@dataclass(frozen=True)
class GameHeader:
    """What a recorded game is: needed to replay it with the same rules and cards.

    `config` is the engine's full game config (decks in draw order included): what `--resume`
    rebuilds the game from. It never leaves the server on a web page. `damaged` names what
    could not be read back from a broken row (the rest of the library stays readable).
    """

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
    config: Mapping[str, Any] | None = None
    damaged: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = {
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
        if self.damaged:
            data["damaged"] = self.damaged
        return data


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


def _check_folder(path: Path) -> None:
    folder = path.parent
    if not folder.exists():
        raise RecordError(f"{path}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise RecordError(f"{path}: {folder} is not a folder")


def _open_error(path: Path, exc: sqlite3.Error, read_only: bool) -> RecordError:
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in text:
        return RecordError(f"{path}: not a game library (the file is not an SQLite database)")
    if not read_only and ("readonly" in text or "unable to open" in text):
        return RecordError(
            f"{path}: cannot write the game library here (read-only medium or no permission);"
            " use --db to record somewhere else"
        )
    return RecordError(f"{path}: not a game library ({text})")


class Store:
    """A library of recorded games in one SQLite file; safe to share between threads.

    `read_only=True` opens the file with a `mode=ro` URI: nothing is created, migrated or
    written (replay, export and review of a library on read-only media). Writing opens create
    the file when missing and bring an older file up to `SCHEMA_VERSION` (PRAGMA user_version).
    """

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._lock = threading.RLock()
        self._txn_depth = 0
        self._held: list[GameLock] = []
        _check_folder(self.path)
        conn = self._connect_read_only() if read_only else self._connect_writable()
        self._conn = conn
        self.db = sqlite_utils.Database(conn)
        self.columns = {
            row[1] for row in conn.execute("PRAGMA table_info(games)").fetchall()
        }

    # --- opening -----------------------------------------------------------------------------

    def _connect_writable(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise _open_error(self.path, exc, read_only=False) from None
        try:
            tables = _tables(conn)
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            foreign = {t for t in tables if not t.startswith(_COMPANION_PREFIXES)}
            if foreign and not tables >= _OUR_TABLES:
                raise RecordError(
                    f"{self.path}: an SQLite database of something else (tables:"
                    f" {', '.join(sorted(foreign)[:5])}), not a game library; nothing was changed"
                )
            if version > SCHEMA_VERSION:
                raise RecordError(
                    f"{self.path}: written by a newer companion (library version {version},"
                    f" this one reads up to {SCHEMA_VERSION})"
                )
            # WAL + NORMAL: each commit is in the file's log before append() returns, so a
            # killed process loses nothing; only a power cut may lose the last moments.
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            _check_columns(self.path, conn, tables)
            self._migrate(conn, max(version, 1 if tables >= _OUR_TABLES else 0))
        except sqlite3.Error as exc:
            conn.close()
            raise _open_error(self.path, exc, read_only=False) from None
        except RecordError:
            conn.close()
            raise
        return conn

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            conn.execute("BEGIN IMMEDIATE")
            try:
                for script in _MIGRATIONS[target]:
                    for statement in _statements(script):
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def _connect_read_only(self) -> sqlite3.Connection:
        if not self.path.exists():
            raise RecordError(f"{self.path}: no such game library")
        if not self.path.is_file():
            raise RecordError(f"{self.path}: not a file")
        uri = "file:" + quote(str(self.path.resolve())) + "?mode=ro"
        conn: sqlite3.Connection | None = None
        last: sqlite3.Error | None = None
        # a WAL library on read-only media cannot get its -shm file: open it as immutable
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            try:
                uri = "file:" + quote(str(self.path.resolve())) + query
                conn = sqlite3.connect(uri, uri=True, check_same_thread=False,
                                       isolation_level=None)
                tables = _tables(conn)
                break
            except sqlite3.Error as exc:
                last = exc
                if conn is not None:
                    conn.close()
                conn = None
        if conn is None:
            assert last is not None
            raise _open_error(self.path, last, read_only=True) from None
        if not tables >= _OUR_TABLES:
            conn.close()
            raise RecordError(
                f"{self.path}: an SQLite database but not a game library"
                f" (no {' or '.join(sorted(_OUR_TABLES - tables))} table)"
            )
        try:
            _check_columns(self.path, conn, tables)
        except (RecordError, sqlite3.Error):
            conn.close()
            raise
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            conn.close()
            raise RecordError(
                f"{self.path}: written by a newer companion (library version {version},"
                f" this one reads up to {SCHEMA_VERSION})"
            )
        return conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            for held in self._held:
                held.release()
            self._held.clear()

    def hold(self, game_id: int) -> None:
        """Record `game_id` alone until `close()`: another live process that holds it already
        is refused with `GameHeldError` (a second `--resume` of the same game)."""
        held = GameLock(self.path, game_id)
        held.acquire()
        with self._lock:
            self._held.append(held)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def wait_at_most(self, seconds: float) -> None:
        """How long a write waits while another program holds the library's lock before it is
        refused as "library busy" (SQLite's busy timeout; Python's default is 5 s). A live
        game waits briefly and queues: the page must not wait with it."""
        with self._lock:
            self._conn.execute(f"PRAGMA busy_timeout = {max(0, int(seconds * 1000))}")

    # --- writing -----------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything written inside is committed together or not at all.

        A failed commit (disk full, read-only, I/O error) is rolled back and raised as
        `WriteFailedError`; nested uses join the outer transaction.
        """
        with self._lock:
            if self._txn_depth:
                self._txn_depth += 1
                try:
                    yield
                finally:
                    self._txn_depth -= 1
                return
            self._write("BEGIN IMMEDIATE")
            self._txn_depth = 1
            try:
                yield
                self._write("COMMIT")
            except BaseException:
                self._rollback()
                raise
            finally:
                self._txn_depth = 0

    def _rollback(self) -> None:
        try:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        except sqlite3.Error:  # a rollback on a broken disk may fail too; SQLite recovers
            pass

    def _write(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> sqlite3.Cursor:
        """One write statement; SQLite's refusals become `WriteFailedError`."""
        if self.read_only:
            raise RecordError(f"{self.path}: opened read-only")
        try:
            return self._conn.execute(sql, params)
        except sqlite3.IntegrityError:
            raise
        except (sqlite3.OperationalError, sqlite3.DatabaseError) as exc:
            if not self._txn_depth:
                self._rollback()
            raise WriteFailedError(self.path, exc) from None

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
            "config": None if header.config is None else json.dumps(
                dict(header.config), sort_keys=True),
        }
        with self._lock:
            cursor = self._write(
                "INSERT INTO games (game, players, cardsets, ruleset_version, seed, started,"
                " finished, outcome, title, config) VALUES (:game, :players, :cardsets,"
                " :ruleset_version, :seed, :started, :finished, :outcome, :title, :config)",
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
        """Add one event at the end of the game's log (committed at once, or with the
        surrounding `transaction()`)."""
        if kind not in EVENT_KINDS:
            raise RecordError(f"unknown event kind {kind!r}; known: {', '.join(EVENT_KINDS)}")
        if source not in EVENT_SOURCES:
            raise RecordError(f"unknown event source {source!r}; known: {', '.join(EVENT_SOURCES)}")
        stamp = time.time() if at is None else float(at)
        body = dict(payload)
        try:
            text = json.dumps(body, sort_keys=True, ensure_ascii=False, allow_nan=False)
            text.encode("utf-8")
        except (TypeError, ValueError) as exc:
            raise RecordError(f"event payload cannot be stored: {exc}") from None
        with self._lock:
            self._require_game(game_id)
            (last,) = self._conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = int(last) + 1
            self._write(
                "INSERT INTO events (game_id, seq, time, kind, source, payload)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, stamp, kind, source, text),
            )
        return Event(game_id, seq, stamp, kind, source, json.loads(text))

    def save_snapshot(self, game_id: int, seq: int, snapshot: TableSnapshot) -> None:
        """The visible table as it was after event `seq` (for the review page's mat)."""
        with self._lock:
            self._write(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, snapshot) VALUES (?, ?, ?)",
                (game_id, seq, snapshot.to_json()),
            )

    def save_keyframe(self, game_id: int, seq: int, jpeg: bytes) -> None:
        with self._lock:
            self._write(
                "INSERT OR REPLACE INTO keyframes (game_id, seq, jpeg) VALUES (?, ?, ?)",
                (game_id, seq, sqlite3.Binary(jpeg)),
            )

    def finish(self, game_id: int, outcome: Any) -> None:
        with self._lock:
            self._require_game(game_id)
            self._write(
                "UPDATE games SET finished = ?, outcome = ? WHERE id = ?",
                (_now_iso(), json.dumps(outcome, sort_keys=True), game_id),
            )

    def unfinish(self, game_id: int) -> None:
        """The winning step was undone: the game is open again."""
        with self._lock:
            self._require_game(game_id)
            self._write(
                "UPDATE games SET finished = NULL, outcome = NULL WHERE id = ?", (game_id,)
            )

    def set_title(self, game_id: int, title: str) -> None:
        """Name a game ("Friday final"); the header is not part of the append-only log."""
        with self._lock:
            self._require_game(game_id)
            self._write("UPDATE games SET title = ? WHERE id = ?", (title, game_id))

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

    def latest_open(self, game: str | None = None) -> GameHeader | None:
        """The most recent unfinished game (of `game`), for `--resume`."""
        for header in reversed(self.games()):
            if header.finished is None and (game is None or header.game == game):
                return header
        return None

    def count_events(self, game_id: int) -> int:
        with self._lock:
            (n,) = self._conn.execute(
                "SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return int(n)

    def events(self, game_id: int, after: int = 0, limit: int | None = None) -> list[Event]:
        return list(self.iter_events(game_id, after, limit))

    def iter_events(
        self, game_id: int, after: int = 0, limit: int | None = None
    ) -> Iterator[Event]:
        """Events after seq `after` in order, read in chunks (a long game never sits in
        memory twice)."""
        with self._lock:
            self._require_game(game_id)
        left = -1 if limit is None else int(limit)
        cursor = after
        while left != 0:
            chunk = EVENT_CHUNK if left < 0 else min(left, EVENT_CHUNK)
            with self._lock:
                rows = self._conn.execute(
                    "SELECT seq, time, kind, source, payload FROM events"
                    " WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                    (game_id, cursor, chunk),
                ).fetchall()
            for seq, stamp, kind, source, payload in rows:
                yield Event(game_id, int(seq), _float(stamp), str(kind), str(source),
                            _payload(payload))
            if len(rows) < chunk:
                return
            cursor = int(rows[-1][0])
            if left > 0:
                left -= len(rows)

    def log_stamp(self, game_id: int) -> tuple[int, int]:
        """(last seq, number of events): changes whenever the game's log grows."""
        with self._lock:
            last, count = self._conn.execute(
                "SELECT COALESCE(MAX(seq), 0), COUNT(*) FROM events WHERE game_id = ?",
                (game_id,)).fetchone()
        return int(last), int(count)

    def snapshots(self, game_id: int, upto: int | None = None, since: int = 0
                  ) -> dict[int, TableSnapshot]:
        """Saved tables with since < seq <= upto."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq, snapshot FROM snapshots WHERE game_id = ? AND seq > ?"
                " AND seq <= ? ORDER BY seq", (game_id, since, 2**62 if upto is None else upto)
            ).fetchall()
        found: dict[int, TableSnapshot] = {}
        for seq, text in rows:
            snapshot = _snapshot(text)
            if snapshot is not None:  # a damaged row: that step shows the mat before it
                found[int(seq)] = snapshot
        return found

    def snapshot_seqs(self, game_id: int) -> list[int]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [int(r[0]) for r in rows]

    def snapshot_at(self, game_id: int, seq: int) -> TableSnapshot | None:
        """The table as saved at or last before event `seq`."""
        with self._lock:
            row = self._conn.execute(
                "SELECT snapshot FROM snapshots WHERE game_id = ? AND seq <= ?"
                " ORDER BY seq DESC LIMIT 1", (game_id, seq)).fetchone()
        return _snapshot(row[0]) if row else None

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
        return bytes(row[0]) if row and isinstance(row[0], bytes | bytearray | memoryview) \
            else None

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


def _statements(script: str) -> list[str]:
    """The complete SQL statements of `script` (triggers keep their inner semicolons)."""
    out: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            out.append(current.strip())
            current = ""
    if current.strip():
        out.append(current.strip())
    return out


@functools.cache
def _expected_columns() -> dict[str, frozenset[str]]:
    """The columns of every table of a version-1 library (later versions only add columns),
    read from the schema itself so the two cannot disagree."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(_SCHEMA_V1)
        return {table: frozenset(r[1] for r in conn.execute(f"PRAGMA table_info({table})"))
                for table in _tables(conn)}
    finally:
        conn.close()


def _check_columns(path: Path, conn: sqlite3.Connection, tables: set[str]) -> None:
    """Refuse tables named like ours but laid out otherwise (every read would fail later,
    with "no such column", in the middle of a command)."""
    for table, needed in _expected_columns().items():
        if table not in tables:
            continue
        have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        missing = sorted(needed - have)
        if missing:
            raise LibraryDamagedError(
                f"{path}: not a game library this companion can read (its {table} table has"
                f" no {', '.join(missing[:4])} column); nothing was changed")


@contextmanager
def told_when_damaged(path: str | Path) -> Iterator[None]:
    """Reading a library whose pages are damaged fails only when those pages are read (at
    open it looked fine): say so in one line, naming the file."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise LibraryDamagedError(
            f"{path}: the game library cannot be read ({exc}); a copy made before the damage"
            " may still be whole") from None


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _snapshot(text: Any) -> TableSnapshot | None:
    try:
        return TableSnapshot.from_json(text)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _payload(text: Any) -> dict[str, Any]:
    """An event's payload; a damaged row reads as {"damaged": why} instead of failing."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        return {"damaged": f"payload is not JSON ({exc})"}
    if not isinstance(value, dict):
        return {"damaged": f"payload is {type(value).__name__}, not an object"}
    return value


def _json_field(row: Mapping[str, Any], key: str, kind: type, default: Any,
                problems: list[str]) -> Any:
    raw = row.get(key)
    if raw is None:
        return default
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        problems.append(f"{key} is not JSON")
        return default
    if not isinstance(value, kind):
        problems.append(f"{key} is {type(value).__name__}, not {kind.__name__}")
        return default
    return value


def _header(row: Mapping[str, Any]) -> GameHeader:
    problems: list[str] = []
    players = _json_field(row, "players", list, [], problems)
    cardsets = _json_field(row, "cardsets", dict, {}, problems)
    raw_outcome = row.get("outcome")
    outcome: Any = None
    if raw_outcome:
        try:
            outcome = json.loads(raw_outcome)
        except (TypeError, ValueError):
            problems.append("outcome is not JSON")
            outcome = {"reason_en": "unreadable outcome"}
    config = _json_field(row, "config", dict, None, problems)
    seed = row.get("seed")
    if seed is not None and not isinstance(seed, int):
        problems.append("seed is not a number")
        seed = None

    def text(key: str) -> str:
        value = row.get(key)
        return value if isinstance(value, str) else ("" if value is None else str(value))

    return GameHeader(
        id=int(row["id"]),
        game=text("game"),
        players=tuple(str(p) for p in players),
        cardsets=cardsets,
        ruleset_version=text("ruleset_version"),
        seed=seed,
        title=text("title"),
        started=text("started"),
        finished=row["finished"] if isinstance(row.get("finished"), str) else None,
        outcome=outcome,
        config=config,
        damaged="; ".join(problems),
    )


def open_existing(path: str | Path) -> Store:
    """Open a library that must already exist, read-only (replay, export: never write)."""
    p = Path(path)
    if not p.parent.exists():
        raise RecordError(f"{p}: the folder {p.parent} does not exist")
    if not p.exists():
        raise RecordError(f"{p}: no such game library")
    return Store(p, read_only=True)


def undone_inputs(events: Sequence[Event]) -> set[int]:
    """Seqs of the inputs that the log's undo and redo events leave taken back."""
    undone: set[int] = set()
    for e in events:
        if e.kind in ("undo", "redo"):
            seqs = e.payload.get("inputs")
            if isinstance(seqs, list):
                chosen = {s for s in seqs if isinstance(s, int)}
                undone = undone | chosen if e.kind == "undo" else undone - chosen
    return undone


def decisions_of(events: Sequence[Event]) -> dict[int, str]:
    """The latest decision per violation seq ("stands" or "corrected"); undone ones left out."""
    undone = undone_inputs(events)
    found: dict[int, str] = {}
    for e in events:
        if e.kind == "decision" and "violation" in e.payload and e.seq not in undone:
            try:
                found[int(e.payload["violation"])] = str(e.payload["decision"])
            except (TypeError, ValueError):
                continue
    return found
