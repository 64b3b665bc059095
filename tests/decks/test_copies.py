"""Copy numbers across the table: as table scripts number them, pinned copies kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cardsets import DeckList
from companion.decks.copies import CopyNumberError, number_copies


def deck(
    cards: dict[str, int], mane: str | None = None, problems: dict[str, int] | None = None
) -> DeckList:
    return DeckList("d", "d", "my-little-pony-ccg", cards, mane=mane, problems=problems or {})


def test_numbered_across_decks_like_table_scripts() -> None:
    # DESIGN/table scripts: {p1: [T1, T1], p2: [T1]} -> p1 T1#1, T1#2, p2 T1#3
    p1, p2 = number_copies([deck({"T1": 2}), deck({"T1": 1})])
    assert p1 == [("T1", 1), ("T1", 2)]
    assert p2 == [("T1", 3)]


def test_mane_first_then_cards_then_problems() -> None:
    (only,) = number_copies([deck({"A": 1}, mane="M", problems={"P": 2})])
    assert only == [("M", 1), ("A", 1), ("P", 1), ("P", 2)]


def test_pinned_copies_are_kept_and_skipped() -> None:
    p1, p2 = number_copies([deck({"A": 2}), deck({"A": 2})], [{}, {"A": [1, 5]}])
    assert p2 == [("A", 1), ("A", 5)]
    assert p1 == [("A", 2), ("A", 3)]


def test_the_same_pinned_copy_in_two_decks_is_an_error() -> None:
    with pytest.raises(CopyNumberError, match="copy 2 of A is in two decks"):
        number_copies([deck({"A": 1}), deck({"A": 1})], [{"A": [2]}, {"A": [2]}])


@given(
    st.lists(
        st.dictionaries(st.sampled_from("ABCDE"), st.integers(1, 9), max_size=5),
        min_size=1,
        max_size=4,
    )
)
def test_every_physical_card_gets_a_distinct_copy(decks: list[dict[str, int]]) -> None:
    numbered = number_copies([deck(d) for d in decks])
    flat = [pair for d in numbered for pair in d]
    assert len(flat) == len(set(flat)) == sum(sum(d.values()) for d in decks)
    for card_id in "ABCDE":
        copies = sorted(c for i, c in flat if i == card_id)
        assert copies == list(range(1, len(copies) + 1))
