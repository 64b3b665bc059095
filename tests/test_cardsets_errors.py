"""Broken cardset and deck files give one precise line: file, line, card, field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cardsets import CardsetError, load_cardset, load_deck
from companion.cardsets.loader import shown_path

HEADER = "game: creature-crush\nset: Test\nsample: true\nsource: test\ncards:\n"  # lines 1-5
GOOD = "  - {id: CC-001, number: 1, name: Eins, type: creature, cost: 2, attack: 1, life: 2}\n"


def write_set(root: Path, body: str, name: str = "base.yaml", game: str = "creature-crush") -> Path:
    folder = root / game
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(body, encoding="utf-8")
    return path


def load_error(root: Path, game: str = "creature-crush") -> CardsetError:
    with pytest.raises(CardsetError) as info:
        load_cardset(game, root=root)
    assert "\n" not in str(info.value)
    return info.value


def test_wrong_type_names_file_line_card_and_field(tmp_path: Path) -> None:
    body = (
        HEADER
        + GOOD
        + (
            "  - id: CC-017\n"  # line 7
            "    number: 17\n"
            "    name: Zwei\n"
            "    type: creature\n"
            "    cost: 3\n"
            "    attack: x\n"  # line 12
            "    life: 2\n"
        )
    )
    path = write_set(tmp_path, body)
    err = load_error(tmp_path)
    assert err.path == shown_path(path) and err.line == 12
    detail = "card CC-017: field 'attack' must be an integer 0-99, got 'x'"
    assert str(err) == f"{shown_path(path)}:12: {detail}"


def test_broken_yaml_syntax_gives_file_and_line(tmp_path: Path) -> None:
    path = write_set(tmp_path, HEADER + GOOD + "  - {id: CC-002, name: [unclosed\n")
    err = load_error(tmp_path)
    assert "YAML syntax error" in str(err)
    assert str(err).startswith(f"{shown_path(path)}:")
    assert err.line is not None and err.line >= 7


def test_missing_field(tmp_path: Path) -> None:
    write_set(tmp_path, HEADER + GOOD + "  - {id: CC-002, number: 2, name: B, type: creature, "
              "cost: 2, life: 2}\n")  # fmt: skip
    err = load_error(tmp_path)
    assert err.line == 7
    assert err.detail.startswith("card CC-002: missing field 'attack'")


def test_duplicate_id_and_number(tmp_path: Path) -> None:
    write_set(tmp_path, HEADER + GOOD + GOOD.replace("number: 1", "number: 2"))
    err = load_error(tmp_path)
    assert err.line == 7 and "card CC-001: duplicate id (first at line 6)" in str(err)
    write_set(tmp_path, HEADER + GOOD + GOOD.replace("CC-001", "CC-002"))
    err = load_error(tmp_path)
    assert err.line == 7 and "card CC-002: duplicate number 1 (already card CC-001)" in str(err)


def test_duplicate_across_files(tmp_path: Path) -> None:
    write_set(tmp_path, HEADER + GOOD, "a.yaml")
    write_set(tmp_path, HEADER + GOOD.replace("CC-001", "CC-009"), "b.yaml")
    err = load_error(tmp_path)
    assert err.path.endswith("b.yaml") and err.line == 6
    assert "card CC-009 (Eins): sticker number 1 is already used by CC-001 (Eins) in " in str(err)


def test_unknown_keyword_and_field(tmp_path: Path) -> None:
    write_set(tmp_path, HEADER + GOOD.replace("life: 2}", "life: 2, keywords: [Fliegend]}"))
    err = load_error(tmp_path)
    assert err.line == 6 and "card CC-001: unknown keyword 'Fliegend'" in str(err)
    assert "Nachtragend" in str(err)
    write_set(tmp_path, HEADER + GOOD.replace("attack: 1", "atack: 1"))
    err = load_error(tmp_path)
    assert "unknown field 'atack' for a creature; did you mean 'attack'?" in str(err)


def test_repeated_key_in_one_card(tmp_path: Path) -> None:
    write_set(tmp_path, HEADER + GOOD.replace("life: 2}", "life: 2, life: 3}"))
    err = load_error(tmp_path)
    assert err.line == 6 and "'life' appears twice" in str(err)


def test_header_problems(tmp_path: Path) -> None:
    write_set(tmp_path, HEADER.replace("sample: true\n", "") + GOOD)
    assert "header is missing 'sample'" in str(load_error(tmp_path))
    write_set(tmp_path, HEADER.replace("game: creature-crush", "game: challengers") + GOOD)
    err = load_error(tmp_path)
    assert err.line == 1 and "lies in creature-crush/" in str(err)


def test_game_specific_rules(tmp_path: Path) -> None:
    crush = "  - {id: CC-090, number: 90, name: Zu teuer, type: crush, cost: 5}\n"
    write_set(tmp_path, HEADER + crush)
    assert "cost' of a crush must be a dice count 0 (X)-4, got 5" in str(load_error(tmp_path))
    ch = (
        "game: challengers\nset: T\nsample: true\nsource: t\ncards:\n"
        "  - {id: CH-1, number: 1, name: Zu stark, type: recruit, strength: 4, level: A, "
        "set: Burg}\n"
    )
    write_set(tmp_path, ch, game="challengers")
    err = load_error(tmp_path, "challengers")
    assert "field 'strength' is 4, level A allows <= 3" in str(err)
    tob = (
        "game: trick-or-beat\nset: T\nsample: true\nsource: t\ncards:\n"
        "  - {id: T-1, number: 1, name: W, type: creature, attack: 1, survival: 1, "
        "faction: Gehirn, effects: [{kind: permanent, lane: passive, do: fly}]}\n"
    )
    write_set(tmp_path, tob, game="trick-or-beat")
    err = load_error(tmp_path, "trick-or-beat")
    assert err.line == 6 and "effect 1: unknown action 'fly'" in str(err)


def test_broken_deck_points_at_the_card(tmp_path: Path) -> None:
    write_set(tmp_path, HEADER + GOOD)
    decks = tmp_path / "creature-crush" / "decks"
    decks.mkdir()
    (decks / "camp.yaml").write_text(
        "name: Camp\ngame: creature-crush\ncards:\n  CC-001: 1\n  CC-01: 1\n", encoding="utf-8"
    )
    with pytest.raises(CardsetError) as info:
        load_deck("creature-crush", "camp", root=tmp_path)
    assert info.value.line == 5
    assert "deck Camp: unknown card 'CC-01' in creature-crush; did you mean CC-001?" in str(
        info.value
    )
    (decks / "camp.yaml").write_text(
        "name: Camp\ngame: creature-crush\ncards:\n  CC-001: 0\n", encoding="utf-8"
    )
    with pytest.raises(CardsetError, match="count of CC-001 must be 1-99, got 0"):
        load_deck("creature-crush", "camp", root=tmp_path)
