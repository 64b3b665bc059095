"""A die the eye sees but did not read again (`SeenDie.unread`) is no new reading: the
interpreter's difference between two tables leaves it out, whatever value it carries, and
the die read again counts as read."""

from __future__ import annotations

from companion.engine.interpreter import diff_snapshots
from companion.snapshot import SeenDie, TableSnapshot


def _table(*dice: SeenDie) -> TableSnapshot:
    return TableSnapshot(game="creature-crush", dice=dice)


def test_an_unread_die_is_no_change_and_a_die_read_again_is() -> None:
    read = SeenDie("p2.r1", 3, "p2.B3", on="CC-013#1")
    unread = SeenDie("p2.r1", 3, "p2.B3", on="CC-013#1", unread=True)
    assert diff_snapshots(_table(read), _table(unread)).dice == ()
    assert diff_snapshots(_table(), _table(unread)).dice == ()  # never read in a table before
    read_again = SeenDie("p2.r1", 1, "p2.B3", on="CC-013#1")
    assert diff_snapshots(_table(unread), _table(read_again)).dice == ((unread, read_again),)
    assert diff_snapshots(_table(read), _table()).dice == ((read, None),)  # gone: a change
