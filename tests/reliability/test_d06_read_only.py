"""Defect 6: `replay` and `export` wrote to the file they read (a foreign SQLite file got four
new tables and WAL mode); a library on read-only media could not be replayed; a missing
folder got the same misleading message."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import cli
from companion.record.store import SCHEMA_VERSION, GameHeader, RecordError, Store


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def library(path: Path) -> int:
    with Store(path) as store:
        gid = store.start_game(GameHeader(game="challengers", players=("Ada", "Bo")))
        store.append(gid, "note", "person", {"text": "hello"})
    return gid


def test_replay_and_export_never_write_a_foreign_database(tmp_path: Path) -> None:
    foreign = tmp_path / "shop.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE orders (id INTEGER, item TEXT)")
    conn.commit()
    conn.close()
    before = digest(foreign)
    for args in (("replay", str(foreign)), ("export", str(foreign), "1")):
        code, output = run(*args)
        assert code != 0 and "not a game library" in output
    assert digest(foreign) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shop.db"]  # no -wal, no -shm
    with pytest.raises(RecordError, match="something else"):
        Store(foreign)  # not even a writing open touches it
    assert digest(foreign) == before


def test_replay_does_not_change_a_library_either(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    gid = library(path)
    before = digest(path)
    assert run("replay", str(path), str(gid))[0] == 0
    assert run("export", str(path), str(gid), "--format", "json")[0] == 0
    assert digest(path) == before


def test_missing_folder_and_missing_file_say_which(tmp_path: Path) -> None:
    code, output = run("replay", str(tmp_path / "nowhere" / "games.db"))
    assert code != 0 and "the folder" in output and "does not exist" in output
    code, output = run("replay", str(tmp_path / "games.db"))
    assert code != 0 and "no such game library" in output
    with pytest.raises(RecordError, match="does not exist"):
        Store(tmp_path / "nowhere" / "games.db")


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A library on a medium that refuses every write (an immutable folder; needs root and a
    file system with attributes: skipped elsewhere)."""
    folder = tmp_path / "medium"
    folder.mkdir()
    library(folder / "games.db")
    locked = subprocess.run(["chattr", "+i", str(folder / "games.db"), str(folder)],
                            capture_output=True)
    if locked.returncode != 0:
        pytest.skip("cannot make a read-only medium here (chattr +i refused)")
    try:
        (folder / "probe").touch()
    except OSError:
        pass
    else:
        subprocess.run(["chattr", "-i", str(folder), str(folder / "games.db")])
        pytest.skip("the immutable flag does not stop writes here")
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder), str(folder / "games.db")])


def test_a_library_on_read_only_media_replays(read_only_folder: Path) -> None:
    path = read_only_folder / "games.db"
    code, output = run("replay", str(path))
    assert code == 0 and "Ada vs Bo" in output
    code, output = run("export", str(path), "1")
    assert code == 0 and "Players: Ada vs Bo" in output
    code, output = run("demo", "--db", str(path), "--no-browser", "--port", "0",
                       "--duration", "0")
    assert code != 0 and "read-only medium" in output


def test_old_libraries_open_and_are_migrated(tmp_path: Path) -> None:
    """A library from before PRAGMA user_version (schema 1) opens read-only as it is, and a
    writing open brings it to the current version without losing anything."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    from companion.record.store import _SCHEMA_V1

    conn.executescript(_SCHEMA_V1)
    conn.execute("INSERT INTO games (game, players, cardsets, ruleset_version, started)"
                 " VALUES ('challengers', '[\"A\", \"B\"]', '{}', '1', '2024-01-01')")
    conn.execute("INSERT INTO events (game_id, seq, time, kind, source, payload)"
                 " VALUES (1, 1, 0, 'move', 'camera', '{\"text_en\": \"A plays\"}')")
    conn.commit()
    conn.close()
    with Store(path, read_only=True) as store:
        assert store.schema_version == 0 and store.games()[0].players == ("A", "B")
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.events(1)[0].payload == {"text_en": "A plays"}
        assert store.games()[0].config is None
    with Store(tmp_path / "new.db") as store:
        assert store.schema_version == SCHEMA_VERSION
