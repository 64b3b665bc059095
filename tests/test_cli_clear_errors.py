"""The commands a user runs on bad input end with one line saying what is wrong and a non-zero
exit code, never a traceback: a decompression-bomb photo, two kinds of damaged library, a CSV
Python's csv module cannot read; and `review` shows a library on read-only media."""

from __future__ import annotations

import sqlite3
import struct
import types
import urllib.request
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from companion.cli import cli
from companion.record.store import GameHeader, Store


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def assert_one_line_error(result: Result, *words: str) -> None:
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and lines[-1].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[-1], lines[-1]


def bomb_png(path: Path, side: int = 60_000) -> None:
    """A PNG whose header says side x side pixels (a few kB on disk, 3.6 GB decoded)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    rows = zlib.compress((b"\x00" * (side + 1)) * 8, 9)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side,
                                                                     8, 0, 0, 0, 0))
                     + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def test_deck_register_refuses_a_decompression_bomb(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    bomb_png(photos / "card-01.png")
    result = run("deck", "register", "--game", "creature-crush", "--out",
                 str(tmp_path / "deck.yaml"), "--from-images", str(photos))
    assert_one_line_error(result, "card-01.png", "60000 x 60000")
    assert not (tmp_path / "deck.yaml").exists()


def library(path: Path, events: int = 200) -> int:
    store = Store(path)
    game_id = store.start_game(GameHeader(game="creature-crush", players=("Ada", "Bo"),
                                          ruleset_version="r1"))
    with store.transaction():
        for i in range(events):
            store.append(game_id, "note", "person", {"text": f"note {i} " + "x" * 100})
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
    return game_id


def damaged_pages(path: Path) -> int:
    """A library whose data pages (past the schema) are overwritten: "disk image malformed"
    only when a game's events are read, not when the file is opened."""
    game_id = library(path)
    data = bytearray(path.read_bytes())
    page = struct.unpack(">H", data[16:18])[0]
    for start in range(3 * page, len(data), page):
        data[start:start + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))
    return game_id


def wrong_columns(path: Path) -> int:
    """Tables named like a library's, with other columns."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT)")
        conn.execute("INSERT INTO games (name) VALUES ('x')")
    return 1


@pytest.mark.parametrize("make", [damaged_pages, wrong_columns])
def test_a_damaged_library_is_one_line(tmp_path: Path, make: Any) -> None:
    path = tmp_path / "games.db"
    game_id = make(path)
    reads = [("replay", str(path), str(game_id)), ("export", str(path), str(game_id)),
             ("export", str(path), str(game_id), "--format", "json")]
    if make is wrong_columns:  # its game list is unreadable too (damaged pages keep theirs)
        reads.append(("replay", str(path)))
    for args in reads:
        result = run(*args)
        assert_one_line_error(result, "games.db", "library")


@pytest.mark.parametrize("csv_text", [
    "id,number,name,type,cost,attack,life\nM-1,801," + "x" * 200_000 + ",creature,3,2,4\n",
    'id,number,name,type,cost,attack,life\nM-1,801,"Meins,creature,3,2,4\n',
    "\x00\x00\x00",
])
def test_a_broken_csv_is_one_line(tmp_path: Path, csv_text: str) -> None:
    source = tmp_path / "mine.csv"
    source.write_text(csv_text, encoding="utf-8")
    result = run("cardset", "import", str(source), "--game", "creature-crush", "--out", "-")
    assert_one_line_error(result, "mine.csv")


def test_review_shows_a_library_on_read_only_media(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Read-only media let SQLite open the file but refuse every write (the WAL switch
    first); the root user of a test machine cannot make such a medium, so writes are refused
    here the way SQLite refuses them there."""
    from companion.record import store as store_module
    from companion.server import commands, live_setup

    path = tmp_path / "games.db"
    game_id = library(path, events=3)

    def read_only_medium(self: Store) -> sqlite3.Connection:
        raise store_module._open_error(
            self.path, sqlite3.OperationalError("attempt to write a readonly database"),
            read_only=False)

    monkeypatch.setattr(Store, "_connect_writable", read_only_medium)
    served: dict[str, Any] = {}
    real_serve = live_setup.serve_in_thread

    def serve(*args: Any, **kwargs: Any) -> Any:
        served["server"], thread = real_serve(*args, **kwargs)
        return served["server"], thread

    def sleep(_seconds: float) -> None:
        port = served["server"].server_port
        for page in ("/review/", f"/review/{game_id}", f"/api/games/{game_id}"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{page}", timeout=10) as answer:
                served[page] = answer.status
        raise KeyboardInterrupt

    monkeypatch.setattr(live_setup, "serve_in_thread", serve)
    monkeypatch.setattr(commands, "time", types.SimpleNamespace(sleep=sleep))
    result = run("review", str(path), "--port", "0", "--no-browser")
    assert result.exit_code == 0, result.output
    assert served["/review/"] == served[f"/review/{game_id}"] == 200
    assert served[f"/api/games/{game_id}"] == 200
