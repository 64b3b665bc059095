"""Deck list files: YAML and plain text read to the same deck; faults name file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cardsets import DeckList
from companion.decks.listfile import DeckFileError, deck_yaml, parse_text_deck, read_deck

TEXT = """\
# Twilight, a bit changed
game: my-little-pony-ccg
name: Test deck
mane: PR4
3 PR22
2x PR25
PR26 x2
PR28          # one copy
problems:
2 PR162
cards:
1 PR29
"""


def test_text_list_reads_every_entry_form() -> None:
    found = parse_text_deck(TEXT, "deck.txt")
    deck = found.deck
    assert deck.game == "my-little-pony-ccg" and deck.name == "Test deck"
    assert deck.mane == "PR4"
    assert deck.cards == {"PR22": 3, "PR25": 2, "PR26": 2, "PR28": 1, "PR29": 1}
    assert deck.problems == {"PR162": 2}
    assert found.lines["PR25"] == 6 and found.lines["PR162"] == 10


def test_text_list_needs_a_game() -> None:
    with pytest.raises(DeckFileError, match="names no game"):
        parse_text_deck("3 PR22\n", "deck.txt")
    assert parse_text_deck("3 PR22\n", "deck.txt", "my-little-pony-ccg").deck.cards == {"PR22": 3}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("game: creature-crush\n3 CC-001 extra words\n", 2, "expected '3 CARD-ID'"),
        ("game: creature-crush\n1 CC-001\n2 CC-001\n", 3, "listed twice"),
        ("game: creature-crush\n0 CC-001\n", 2, "1-99"),
        ("game: nonsense\n", 1, "unknown game"),
        ("game: creature-crush\nproblems: 3\n", 2, "takes nothing"),
    ],
)
def test_text_list_faults_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(DeckFileError, match=message) as err:
        parse_text_deck(text, "deck.txt")
    assert err.value.line == line
    assert str(err.value).startswith(f"deck.txt:{line}:")


def test_yaml_and_text_give_the_same_deck(tmp_path: Path) -> None:
    text_deck = parse_text_deck(TEXT, "deck.txt").deck
    path = tmp_path / "deck.yaml"
    path.write_text(deck_yaml(text_deck), encoding="utf-8")
    again = read_deck(path).deck
    assert (again.game, again.name, again.mane, again.cards, again.problems) == (
        text_deck.game,
        text_deck.name,
        text_deck.mane,
        text_deck.cards,
        text_deck.problems,
    )


def test_yaml_copies_must_match_the_counts(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(
        "game: creature-crush\nname: x\ncards:\n  CC-001: 1\ncopies:\n  CC-001: [2, 3]\n",
        encoding="utf-8",
    )
    with pytest.raises(DeckFileError, match="2 copies of CC-001 listed") as err:
        read_deck(path)
    assert err.value.line == 6


def test_yaml_faults(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text("game: creature-crush\nname: x\ncards:\n  CC-001: many\n", encoding="utf-8")
    with pytest.raises(DeckFileError, match="count of CC-001") as err:
        read_deck(path)
    assert err.value.line == 4
    path.write_text("game: creature-crush\nshuffle: yes\n", encoding="utf-8")
    with pytest.raises(DeckFileError, match="unknown deck field 'shuffle'"):
        read_deck(path)
    path.write_text("game: creature-crush\n", encoding="utf-8")
    with pytest.raises(DeckFileError, match="is for creature-crush, not challengers"):
        read_deck(path, "challengers")


ids = st.from_regex(r"[A-Z]{1,3}-?[0-9]{1,4}", fullmatch=True)


@given(st.dictionaries(ids, st.integers(1, 99), min_size=1, max_size=12))
def test_yaml_round_trip(cards: dict[str, int]) -> None:
    deck = DeckList("d", "d", "creature-crush", cards)
    text_form = "game: creature-crush\n" + "".join(f"{n} {i}\n" for i, n in cards.items())
    assert parse_text_deck(text_form, "t.txt").deck.cards == cards
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "d.yaml"
        path.write_text(deck_yaml(deck), encoding="utf-8")
        assert read_deck(path).deck.cards == cards
