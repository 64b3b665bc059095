"""`shared_prefix`: how many leading items two lines share, worked by hand (a decision's
rebuild pushes only the moves after the part its line shares with the last one)."""

from __future__ import annotations

from companion.engine.api import Move
from companion.server.rebuilds import shared_prefix


def test_equal_items_count_as_shared_and_the_first_difference_ends_it() -> None:
    assert shared_prefix([1, 2, 3, 4], [1, 2, 9, 4]) == 2
    assert shared_prefix([1, 2, 3], [1, 2, 3, 4, 5]) == 3  # one line goes on
    assert shared_prefix([], [1]) == 0
    assert shared_prefix([7], [8]) == 0
    assert shared_prefix((1, 2), [1, 2]) == 2  # any sequences, compared item by item


def test_a_long_line_differing_at_every_place() -> None:
    """Where 500 moves part, for every place they may part at (equal moves that are other
    objects count as the same: a move read again from the record)."""
    line = [Move("play", "p1", value=i) for i in range(500)]
    read_again = [Move("play", "p1", value=i) for i in range(500)]
    assert shared_prefix(line, read_again) == 500
    for at in range(500):
        other = [*read_again[:at], Move("pass", "p2"), *read_again[at + 1:]]
        assert shared_prefix(line, other) == at
