"""What the page is told: the players' names, a face-down card as face down (and nothing
more), and a move's cards listed one by one (DESIGN.md: the view hides what nobody has seen;
every move is said in words, a refused move names what it got wrong); and a cloned state
keeps its flags."""

from __future__ import annotations

from companion.engine.api import Move
from tests.games.test_creature_crush_crush_cards import joined_late_with_a_face_down_glutregen


def test_the_view_names_the_players_as_they_sat_down() -> None:
    g = joined_late_with_a_face_down_glutregen()
    assert g.view("table")["players"] == ["Ada", "Bo"]


def test_a_face_down_card_on_the_table_is_shown_face_down_and_unnamed() -> None:
    g = joined_late_with_a_face_down_glutregen()
    for observer in ("table", "p1", "p2"):
        assert g.view(observer)["zones"]["p1.C1"]["cards"] == [{"face_down": True}]


def test_a_move_lists_its_cards_separated_by_commas() -> None:
    move = Move("misplace", "p1", ("CC-001#1", "CC-006#1"), options=(("zone", "p1.C1"),))
    assert move.describe("en") == "CC-001#1, CC-006#1 lies in p1.C1, where no move puts it"
    assert move.describe("de") == "CC-001#1, CC-006#1 liegt in p1.C1, wohin kein Zug sie legt"


def test_a_cloned_state_keeps_a_set_of_pairs_in_its_flags() -> None:
    """The inference tries moves on clones: a clone holds the same facts, not shared ones."""
    g = joined_late_with_a_face_down_glutregen()
    g.state.flags["pairs_seen"] = {("p1", 1), ("p2", 2)}
    copy = g.state.clone()
    assert copy.flags["pairs_seen"] == {("p1", 1), ("p2", 2)}
    assert copy.flags["pairs_seen"] is not g.state.flags["pairs_seen"]


def test_a_move_no_table_can_show_is_refused_in_words_that_name_it() -> None:
    g = joined_late_with_a_face_down_glutregen()
    found = {v.code: v for v in g.check(Move("draw", "p1", ("CC-999#1",), to="p1.nowhere",
                                             value=10**12))}
    assert {"game.unknown-card", "game.unknown-zone", "game.bad-value"} <= set(found)
    assert "CC-999#1" in found["game.unknown-card"].message("en")
    assert "p1.nowhere" in found["game.unknown-zone"].message("de")
    assert str(10**12) in found["game.bad-value"].message("en")
    assert str(10**12) in found["game.bad-value"].message("de")
