"""Defect 9: tracebacks instead of one-line errors (table scripts with invalid UTF-8, deeply
nested YAML in scripts, cardsets and deck lists, images over 2^30 pixels in scan and
calibrate, library rows with invalid JSON or wrong types); a 1.4 KB YAML alias bomb in a
cardset ran past 40 s and 1.8 GB."""

from __future__ import annotations

import sqlite3
import struct
import time
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import cli
from companion.record.store import GameHeader, Store
from companion.server.app import create_app

NESTED_FLOW = "game: trick-or-beat\nsteps: " + "[" * 20000 + "]" * 20000 + "\n"
NESTED_BLOCK = "game: trick-or-beat\nsteps:\n" + "".join(
    "  " * i + "- \n" for i in range(1, 200)) + "  " * 200 + "- x\n"


def bomb_text() -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def one_line_error(args: list[str], budget_s: float = 10.0) -> str:
    started = time.monotonic()
    result = CliRunner().invoke(cli, args)
    elapsed = time.monotonic() - started
    output = result.output.strip()
    assert result.exit_code != 0, output
    assert "Traceback" not in output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception)
    assert elapsed < budget_s, f"{elapsed:.1f} s"
    assert output and len(output.splitlines()) <= 3, output[:500]
    return output


@pytest.mark.parametrize("command", [["script", "check"], ["referee"]])
def test_table_script_that_is_not_utf8(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"game: trick-or-beat\ntitle: Caf\xe9\n")
    output = one_line_error([*command, str(path)])
    assert "not UTF-8" in output and "line 2" in output


@pytest.mark.parametrize("text,word", [(NESTED_FLOW, "nested deeper"),
                                       (NESTED_BLOCK, "nested deeper"),
                                       (None, "expands to more than")])
def test_hostile_yaml_in_a_table_script(tmp_path: Path, text: str | None, word: str) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(text or "game: trick-or-beat\n" + bomb_text())
    assert word in one_line_error(["script", "check", str(path)])


def test_an_alias_bomb_in_a_cardset_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text("game: trick-or-beat\nname: bomb\ncards:\n" + "\n".join(
        "  " + line for line in bomb_text().splitlines()) + "\n" + bomb_text())
    assert len(path.read_bytes()) < 2000
    output = one_line_error(["cardset", "check", str(path)], budget_s=5.0)
    assert "expands to more than" in output or "aliases" in output


@pytest.mark.parametrize("suffix", [".yaml", ".txt"])
def test_hostile_deck_lists(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"deck{suffix}"
    if suffix == ".yaml":
        path.write_text("game: trick-or-beat\nname: x\ncards: " + "[" * 5000 + "]" * 5000)
        word = "nested deeper"
    else:
        path.write_bytes(b"3 Kn\xf6del\n")
        word = "not UTF-8"
    assert word in one_line_error(["deck", "check", str(path)])


def huge_png(path: Path, width: int = 40000, height: int = 40000) -> None:
    """A PNG whose header claims width x height pixels (1.6e9 > 2^30); no pixel data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("command", [["scan"], ["calibrate", "--game", "trick-or-beat"]])
def test_images_over_the_pixel_limit(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "huge.png"
    huge_png(path)
    output = one_line_error([*command, str(path)])
    assert "40000 x 40000 pixels" in output


def test_library_rows_with_invalid_json_or_wrong_types(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store(path) as store:
        good = store.start_game(GameHeader(game="challengers", players=("Ada", "Bo")))
        store.append(good, "note", "person", {"text": "fine"})
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO games (game, players, cardsets, ruleset_version, seed, started,"
                 " outcome) VALUES ('challengers', 'not json', '[1,2]', 7, 'x', 5, '{')")
    conn.execute("INSERT INTO events (game_id, seq, time, kind, source, payload)"
                 " VALUES (?, 2, 'soon', 'note', 'person', '{broken')", (good,))
    conn.execute("INSERT INTO events (game_id, seq, time, kind, source, payload)"
                 " VALUES (?, 3, 0, 'move', 'camera', '[1, 2]')", (good,))
    conn.commit()
    conn.close()
    client = create_app({"DATABASE": path}).test_client()
    assert client.get("/review/").status_code == 200
    assert client.get("/api/games").status_code == 200
    res = client.get(f"/api/games/{good}")
    assert res.status_code == 200
    assert client.get(f"/review/{good}").status_code == 200
    assert client.get(f"/review/{good + 1}").status_code == 200
    code = CliRunner().invoke(cli, ["export", str(path), str(good)])
    assert code.exit_code == 0 and "Traceback" not in code.output
