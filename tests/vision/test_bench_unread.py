"""`bench unread` scores a settled table against a hand-made truth, zone by zone."""

from __future__ import annotations

from companion.benchmarks.unread import UnreadRow, score
from companion.snapshot import SeenCard, TableSnapshot, Unreadable

GAME = "creature-crush"


def test_found_false_and_glare_are_counted_per_zone() -> None:
    truth = TableSnapshot(GAME, cards=(
        SeenCard("S1#1", "p1.A1"), SeenCard("S2#1", "p2.A1"), SeenCard("S3#1", "p2.B1"),
        SeenCard("S4#1", "p2.C1")))
    last = TableSnapshot(GAME, cards=(SeenCard("S1#1", "p1.A1"),), unreadable=(
        Unreadable("p2.A1", 370, 235, cause="far"),  # found
        Unreadable("p2.B1", 370, 296, cause="glare"),  # found, under the reflection instead
        Unreadable("p2.B2", 300, 103, cause="far"),  # an empty zone: false
        Unreadable("p1.A1", 230, 235, cause="unidentified"),  # its card was read: false
        Unreadable("p2.C3", 230, 40, cause="glare")))  # an empty zone under the reflection
    row = UnreadRow("laptop", "pose", 1)
    score(row, last, truth, 7)
    assert (row.cards, row.read, row.unread) == (4, 1, 3)
    assert (row.found, row.found_glare, row.far) == (1, 1, 2)
    assert (row.false_empty, row.false_read, row.glare_empty) == (1, 1, 1)
    assert row.misses == ["7:p2.C1"]
    assert row.found_share == round(1 / 3, 4)


def test_a_card_read_with_a_wrong_identity_is_counted_wrong_and_unread() -> None:
    truth = TableSnapshot(GAME, cards=(SeenCard("S1#1", "p1.A1"),))
    last = TableSnapshot(GAME, cards=(SeenCard("S9#1", "p1.A1"),))
    row = UnreadRow("laptop", "pose", 1)
    score(row, last, truth, 1)
    assert (row.wrong_ids, row.unread, row.found) == (1, 1, 0)
