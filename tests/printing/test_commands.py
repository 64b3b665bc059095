"""`companion print ...` end to end through the CLI: files, sheet counts, progress, errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import cli
from tests.printing.render import page_count


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_print_stickers_for_a_deck_file(tmp_path: Path) -> None:
    deck = tmp_path / "mine.txt"
    deck.write_text("game: creature-crush\n2 CC-001\n1 CC-006\n", encoding="utf-8")
    out = tmp_path / "s.pdf"
    code, stdout, stderr = run(
        "print",
        "stickers",
        "--game",
        "creature-crush",
        "--deck",
        str(deck),
        "--first-serial",
        "42",
        "--out",
        str(out),
    )
    assert code == 0, stdout + stderr
    assert "3 stickers" in stdout and "serials 42-44; next free 45" in stdout
    assert page_count(out) == 2
    assert "stickers: sheet 2/2 written" in stderr


def test_print_stickers_errors_are_one_line(tmp_path: Path) -> None:
    code, _stdout, stderr = run(
        "print",
        "stickers",
        "--game",
        "creature-crush",
        "--deck",
        "no-such-deck",
        "--out",
        str(tmp_path / "x.pdf"),
    )
    assert code == 1
    assert "no deck file 'no-such-deck'" in stderr and "Traceback" not in stderr
    code, _, stderr = run(
        "print",
        "stickers",
        "--game",
        "fire-emblem-cipher",
        "--cardset",
        "zzz",
        "--out",
        str(tmp_path / "x.pdf"),
    )
    assert code == 1 and "no cardset 'zzz'" in stderr


@pytest.mark.parametrize(("game", "pages"), [("creature-crush", 1), ("challengers", 1)])
def test_print_dice(tmp_path: Path, game: str, pages: int) -> None:
    out = tmp_path / "d.pdf"
    code, _stdout, stderr = run("print", "dice", "--game", game, "--out", str(out))
    assert code == 0, stderr
    assert page_count(out) == pages


def test_print_dice_for_a_game_without_dice_says_so(tmp_path: Path) -> None:
    code, _, stderr = run(
        "print", "dice", "--game", "fire-emblem-cipher", "--out", str(tmp_path / "d.pdf")
    )
    assert code == 1 and "uses no dice" in stderr
    code, stdout, _ = run(
        "print",
        "dice",
        "--game",
        "my-little-pony-ccg",
        "--counters",
        "2",
        "--out",
        str(tmp_path / "d.pdf"),
    )
    assert code == 0 and "4 dice, 24 face stickers" in stdout


@pytest.mark.parametrize("paper", ["a3", "a4", "letter"])
def test_print_mat_tiles(tmp_path: Path, paper: str) -> None:
    from companion.layouts import load_layout
    from companion.printing.mat import plan_tiles
    from companion.printing.paper import paper as paper_named

    layout = load_layout("trick-or-beat")
    out = tmp_path / "m.pdf"
    code, stdout, stderr = run(
        "print", "mat", "--game", "trick-or-beat", "--paper", paper, "--out", str(out)
    )
    assert code == 0, stderr
    expected = plan_tiles(layout.width_mm, layout.height_mm, paper_named(paper)).sheets
    assert expected > 1  # no mat fits one sheet of these papers
    assert page_count(out) == expected
    assert f"{expected} sheets" in stdout
    assert stderr.count("written") == expected


def test_print_one_cardset_with_copies(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    code, stdout, stderr = run(
        "print",
        "stickers",
        "--game",
        "fire-emblem-cipher",
        "--cardset",
        "s01",
        "--copies",
        "2",
        "--no-backs",
        "--out",
        str(out),
    )
    assert code == 0, stderr
    assert "10 stickers from cardset s01" in stdout and "back" not in stdout
    assert page_count(out) == 1


def test_print_twin_stickers_gives_each_card_face_two(tmp_path: Path) -> None:
    from companion.printing.jobs import sticker_job

    deck = tmp_path / "mine.txt"
    deck.write_text("game: trick-or-beat\n2 TOB-001\n1 TOB-002\n", encoding="utf-8")
    out = tmp_path / "s.pdf"
    code, stdout, stderr = run("print", "stickers", "--game", "trick-or-beat", "--deck",
                               str(deck), "--first-serial", "42", "--twin", "--out", str(out))
    assert code == 0, stdout + stderr
    assert "6 stickers" in stdout and "two per card" in stdout
    assert "serials 42-44; next free 45" in stdout  # three cards, three serials
    job = sticker_job("trick-or-beat", [str(deck)], first_serial=42, twin=True)
    payloads = [s.payload for s in job.specs]
    assert len(payloads) == 12 and len(set(payloads)) == 6
    assert all(payloads[i] == payloads[i + 1] for i in range(0, 12, 2))  # side by side
