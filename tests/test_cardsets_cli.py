"""`companion cardset` list/show/check/import/export, and the CSV round trip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cardsets import Card, CardsetError, load_cardset
from companion.cardsets.commands import cardset
from companion.cardsets.csvio import export_csv, import_csv
from companion.cardsets.games import SCHEMAS
from companion.cardsets.loader import build_card
from companion.cli import cli
from companion.games.creature_crush.card_schema import CC_KEYWORDS
from companion.games.my_little_pony.card_schema import MLP_COLOURS


def run(*args: str) -> Any:
    return CliRunner().invoke(cardset, list(args))


def test_list_shows_five_games_with_counts() -> None:
    result = run("list")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(SCHEMAS)
    assert "fire-emblem-cipher" in lines[1] and "110 cards (110 unit)" in lines[1]
    assert "made-up sample" in lines[0] and "real card facts" in lines[2]


def test_show_game_card_and_deck() -> None:
    result = run("show", "creature-crush")
    assert result.exit_code == 0 and "CC-017" in result.stdout and "100 cards" in result.stdout
    result = run("show", "fire-emblem-cipher", "B01-003")
    assert result.exit_code == 0
    assert "title: Altean Prince" in result.stdout and "cost: 1" in result.stdout
    result = run("show", "fire-emblem-cipher", "--deck", "marth-red")
    assert result.exit_code == 0 and "lord: B01-003 Marth" in result.stdout


def test_show_unknown_card_is_one_line_through_the_main_cli() -> None:
    result = CliRunner().invoke(cli, ["cardset", "show", "creature-crush", "CC-17"])
    assert result.exit_code == 1
    assert "unknown card 'CC-17' in creature-crush; did you mean CC-017" in result.output
    assert "Traceback" not in result.output


def test_check_bundled_and_broken(tmp_path: Path) -> None:
    result = run("check")
    assert result.exit_code == 0, result.output
    assert "cardsets/fire-emblem-cipher/decks/marth-red.yaml" in result.stdout
    folder = tmp_path / "creature-crush"
    folder.mkdir()
    (folder / "bad.yaml").write_text(
        "game: creature-crush\nset: T\nsample: true\nsource: t\ncards:\n"
        "  - {id: A-1, number: 1, name: A, type: creature, cost: 1, attack: x, life: 1}\n"
        "  - {id: A-2, number: 2, name: B, type: creature, cost: 1, attack: 1}\n",
        encoding="utf-8",
    )
    result = run("check", str(tmp_path))
    assert result.exit_code == 1
    errors = result.stderr.splitlines()
    assert errors[0].endswith(":6: card A-1: field 'attack' must be an integer 0-99, got 'x'")
    assert ":7: card A-2: missing field 'life'" in errors[1]
    assert errors[-1] == "2 problem(s) found"


def test_check_one_deck_file_against_its_game(tmp_path: Path, repo_root: Path) -> None:
    result = run("check", str(repo_root / "cardsets/my-little-pony-ccg/decks/rarity.yaml"))
    assert result.exit_code == 0, result.output
    assert "mane PR5, 10 problems" in result.stdout
    folder = tmp_path / "fire-emblem-cipher"
    (folder / "decks").mkdir(parents=True)
    (folder / "one.yaml").write_text(
        "game: fire-emblem-cipher\nset: T\nsample: true\nsource: t\ncards:\n"
        "  - {id: U-1, number: 1, name: Uno, title: T, type: unit, cost: 1, attack: 40, "
        "support: 10, range: [1], symbols: [Red]}\n",
        encoding="utf-8",
    )
    deck = folder / "decks" / "d.yaml"
    deck.write_text("name: D\ngame: fire-emblem-cipher\nlord: U-2\ncards: {U-1: 4}\n")
    result = run("check", str(deck))
    assert result.exit_code == 1
    assert "d.yaml:3: deck D: unknown card 'U-2' in fire-emblem-cipher" in result.stderr


def test_import_export_round_trip_through_files(tmp_path: Path) -> None:
    for game in SCHEMAS:
        csv_path = tmp_path / f"{game}.csv"
        result = run("export", "--game", game, "--out", str(csv_path))
        assert result.exit_code == 0, result.output
        out = tmp_path / f"{game}.yaml"
        result = run("import", str(csv_path), "--game", game, "--out", str(out))
        assert result.exit_code == 0, result.output
        folder = tmp_path / "root" / game
        folder.mkdir(parents=True)
        out.rename(folder / "all.yaml")
        again = load_cardset(game, root=tmp_path / "root")
        original = load_cardset(game)
        assert [c.to_mapping() for c in again] == [c.to_mapping() for c in original]


def test_export_yaml_loads_back(tmp_path: Path) -> None:
    folder = tmp_path / "my-little-pony-ccg"
    folder.mkdir()
    result = run("export", "--game", "my-little-pony-ccg", "--format", "yaml",
                 "--out", str(folder / "all.yaml"))  # fmt: skip
    assert result.exit_code == 0
    again = load_cardset("my-little-pony-ccg", root=tmp_path)
    assert [c.to_mapping() for c in again] == [
        c.to_mapping() for c in load_cardset("my-little-pony-ccg")
    ]


def test_import_refuses_to_overwrite_and_reports_bad_rows(tmp_path: Path) -> None:
    csv_path = tmp_path / "mine.csv"
    csv_path.write_text(
        "id,number,name,type,cost,attack,life,keywords\n"
        "M-1,801,Meins,creature,3,2,4,Munter;Träge\n",
        encoding="utf-8",
    )
    out = tmp_path / "mine.yaml"
    result = run("import", str(csv_path), "--game", "creature-crush", "--out", str(out))
    assert result.exit_code == 0, result.output
    written = out.read_text(encoding="utf-8")
    assert "keywords: [Munter, Träge]" in written and "sample: false" in written
    result = run("import", str(csv_path), "--game", "creature-crush", "--out", str(out))
    assert result.exit_code == 1 and "exists; use --force" in result.output
    csv_path.write_text(
        "id,number,name,type,cost,attack,life\nM-1,801,Meins,creature,3,2,4\n"
        "M-2,802,Deins,creature,13,2,4\n",
        encoding="utf-8",
    )
    result = run("import", str(csv_path), "--game", "creature-crush", "--out", "-")
    assert result.exit_code == 1
    assert "mine.csv:3: card M-2: field 'cost'" in result.output


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20).filter(
    lambda s: s.strip() != ""
)


@st.composite
def crush_cards(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 6))
    numbers = draw(st.lists(st.integers(0, 9999), min_size=count, max_size=count, unique=True))
    cards = []
    for i, number in enumerate(numbers):
        creature = draw(st.booleans())
        card: dict[str, Any] = {"id": f"X-{i}", "number": number, "name": draw(names)}
        if creature:
            card.update(type="creature", cost=draw(st.integers(1, 12)),
                        attack=draw(st.integers(0, 99)), life=draw(st.integers(1, 99)))  # fmt: skip
        else:
            card.update(type="crush", cost=draw(st.integers(0, 4)))
            if draw(st.booleans()):
                card["flip_condition"] = draw(names)
        if draw(st.booleans()):
            card["text"] = draw(names)
        keywords = draw(st.lists(st.sampled_from(CC_KEYWORDS), unique=True, max_size=3))
        if keywords:
            card["keywords"] = keywords
        cards.append(card)
    return cards


def _cards(game: str, raws: list[dict[str, Any]]) -> list[Card]:
    return [build_card(game, r, "test", i, False, True) for i, r in enumerate(raws, 1)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crush_cards())
def test_csv_round_trip_creature_crush(raws: list[dict[str, Any]]) -> None:
    cards = _cards("creature-crush", raws)
    again = import_csv("creature-crush", export_csv("creature-crush", cards), "x.csv")
    assert [c.to_mapping() for c in again] == [c.to_mapping() for c in cards]


requirement = st.fixed_dictionaries(
    {"power": st.integers(0, 9), "color": st.sampled_from(MLP_COLOURS)}
)


@settings(max_examples=40, deadline=None)
@given(
    own=st.lists(requirement, min_size=1, max_size=2),
    opponent=st.integers(0, 20),
    bonus=st.integers(0, 5),
    traits=st.lists(names.filter(lambda s: ";" not in s and s == s.strip()), max_size=3),
)
def test_csv_round_trip_mlp_structured_fields(
    own: list[dict[str, Any]], opponent: int, bonus: int, traits: list[str]
) -> None:
    problem = {"id": "P1", "number": 1, "name": "Ein Problem", "type": "problem", "own": own,
               "opponent": opponent, "bonus": bonus}  # fmt: skip
    friend = {"id": "F1", "number": 2, "name": "Freund", "type": "friend", "color": "Magic",
              "cost": 2, "power": 1, "traits": traits,
              "play_requirement": own[0]}  # fmt: skip
    cards = _cards("my-little-pony-ccg", [problem, friend])
    again = import_csv("my-little-pony-ccg", export_csv("my-little-pony-ccg", cards), "x.csv")
    assert [c.to_mapping() for c in again] == [c.to_mapping() for c in cards]


def test_import_rejects_unknown_column() -> None:
    text = "id,number,name,type,cost,attack,life,wings\nA,1,A,creature,1,1,1,2\n"
    with pytest.raises(CardsetError) as info:
        import_csv("creature-crush", text, "own.csv")
    assert str(info.value) == "own.csv:2: card A: unknown field 'wings' for a creature"
