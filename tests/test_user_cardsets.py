"""A player's own card list: `cardset import` writes it into the companion's home, every command
reads it with the bundled cards, and a sticker number used twice is refused naming both cards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cardsets import clear_cache, load_cardset
from companion.cli import cli

MINE = "id,number,name,type,cost,attack,life\nMY-1,801,Glutfalke,creature,3,2,4\n"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    clear_cache()
    yield tmp_path / "home"
    clear_cache()


def test_imported_cards_land_in_the_home_folder_and_every_command_reads_them(
    home: Path, tmp_path: Path
) -> None:
    csv = tmp_path / "mine.csv"
    csv.write_text(MINE, encoding="utf-8")
    before = len(load_cardset("creature-crush"))
    result = CliRunner().invoke(cli, ["cardset", "import", str(csv), "--game", "creature-crush"])
    assert result.exit_code == 0, result.output
    written = home / "cardsets" / "creature-crush" / "mine.yaml"
    assert written.is_file()
    assert not (tmp_path / "mine.yaml").exists()  # nothing beside the CSV
    cards = load_cardset("creature-crush")
    assert len(cards) == before + 1 and cards.get("MY-1").name == "Glutfalke"
    shown = CliRunner().invoke(cli, ["cardset", "show", "creature-crush", "MY-1"])
    assert shown.exit_code == 0 and "Glutfalke" in shown.output
    pdf = tmp_path / "mine.pdf"
    stickers = CliRunner().invoke(cli, ["print", "stickers", "--game", "creature-crush",
                                        "--cardset", "mine", "--no-backs", "--out", str(pdf)])
    assert stickers.exit_code == 0, stickers.output
    assert pdf.read_bytes().startswith(b"%PDF")
    checked = CliRunner().invoke(cli, ["cardset", "check"])
    assert checked.exit_code == 0, checked.output
    assert str(written) in checked.output


def test_a_sticker_number_used_twice_is_refused_naming_both_cards(
    home: Path, tmp_path: Path
) -> None:
    bundled = load_cardset("creature-crush")
    taken = next(iter(bundled))  # a bundled card's sticker number
    csv = tmp_path / "clash.csv"
    csv.write_text(f"id,number,name,type,cost,attack,life\nMY-9,{taken.number},Doppelgänger,"
                   "creature,3,2,4\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["cardset", "import", str(csv), "--game", "creature-crush"])
    assert result.exit_code == 1
    assert "MY-9 (Doppelgänger)" in result.output
    assert f"{taken.id} ({taken.name})" in result.output
    assert not (home / "cardsets" / "creature-crush").exists()
    # a file written by hand is caught by `cardset check` the same way
    folder = home / "cardsets" / "creature-crush"
    folder.mkdir(parents=True)
    (folder / "hand.yaml").write_text(
        "game: creature-crush\nset: mine\nsample: false\nsource: by hand\ncards:\n"
        f"  - {{id: MY-9, number: {taken.number}, name: Doppelgänger, type: creature, cost: 3,"
        " attack: 2, life: 4}\n", encoding="utf-8")
    for args in (["cardset", "check"], ["cardset", "check", str(folder / "hand.yaml")]):
        checked = CliRunner().invoke(cli, args)
        assert checked.exit_code == 1, args
        assert "MY-9 (Doppelgänger)" in checked.output and taken.id in checked.output
