"""The timed sequence's verdict on a settled snapshot (`companion bench vision`): entirely right
when every card whose sticker the camera sees whole lies in it as on the table, and nothing is
in it that is not on the table as it lies. Cards out of view are no error either way."""

from __future__ import annotations

from companion.benchmarks.vision import _dice_right, _entirely_right
from companion.snapshot import SeenCard, SeenDie, TableSnapshot

TABLE = TableSnapshot("creature-crush", cards=(
    SeenCard("S1#1", "p1.s1", True, False),
    SeenCard("S2#1", "p1.s2", True, False),
    SeenCard("back:3", "p1.s3", False, True),  # its sticker under another card, say
), dice=(SeenDie("p1.w1", 4, "p1.s1", "S1#1"),))
IN_VIEW = {"S1#1", "S2#1"}


def snap(*cards: SeenCard, dice: tuple[SeenDie, ...] = ()) -> TableSnapshot:
    return TableSnapshot("creature-crush", cards=cards, dice=dice)


def test_a_card_the_camera_cannot_see_is_no_error_either_way() -> None:
    seen = TABLE.cards[:2]
    assert _entirely_right(snap(*seen), TABLE, IN_VIEW)
    assert _entirely_right(snap(*TABLE.cards), TABLE, IN_VIEW)


def test_a_card_in_view_missing_or_elsewhere_or_extra_is_wrong() -> None:
    s1, s2, back = TABLE.cards
    assert not _entirely_right(snap(s1, back), TABLE, IN_VIEW)  # S2 in view, missing
    assert not _entirely_right(snap(s1, SeenCard("S2#1", "p1.s9", True, False)), TABLE,
                               IN_VIEW)  # in the wrong zone
    assert not _entirely_right(snap(s1, SeenCard("S2#1", "p1.s2", True, True)), TABLE,
                               IN_VIEW)  # tapped, though it lies straight
    assert not _entirely_right(snap(s1, s2, SeenCard("S7#1", "p1.s7", True, False)), TABLE,
                               IN_VIEW)  # a card that is not on the table
    assert not _entirely_right(snap(s1, s2, SeenCard("back:3", "p1.s3", False, False)),
                               TABLE, IN_VIEW)  # out of view, but reported not as it lies
    assert not _entirely_right(None, TABLE, IN_VIEW)


def test_dice_in_view_must_show_their_value() -> None:
    assert _dice_right(snap(dice=(SeenDie("p1.w1", 4, "p1.s1"),)), TABLE, {"p1.w1"})
    assert not _dice_right(snap(dice=(SeenDie("p1.w1", 5, "p1.s1"),)), TABLE, {"p1.w1"})
    assert not _dice_right(snap(), TABLE, {"p1.w1"})
    assert _dice_right(snap(), TABLE, set())  # its top hidden: no verdict on it
