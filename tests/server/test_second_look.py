"""A card the camera misses for a moment never leaves the game: with a camera feed, a table on
which something the game has is gone waits for a second look (the next settled table, or a
second of camera time) before it is recorded."""

from __future__ import annotations

from companion.server.session import LiveSession
from tests.server.fakes import table


def inputs(session: LiveSession) -> int:
    return sum(1 for e in session.store.events(session.game_id) if e.kind == "observation")


def test_a_card_missed_for_one_table_is_never_recorded_as_gone(session: LiveSession) -> None:
    session.second_look_s = 1.0
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")).with_seq(1, 0.0))
    recorded = inputs(session)
    session.observe(table(("T1#1", "p1.A1")).with_seq(2, 1.0))  # T2's sticker unread
    session.camera_time(1.5)
    assert inputs(session) == recorded  # waiting for the second look
    checking = session.state()["checking"]
    assert "Zweiling" in checking["text_en"] and "T2#1" not in checking["text_en"]
    assert session.state()["violations"] == []
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")).with_seq(3, 1.6))  # back
    session.camera_time(5.0)
    assert inputs(session) == recorded and session.state()["checking"] is None
    assert [c["uid"] for c in session.state()["table"]["cards"]] == ["T1#1", "T2#1"]


def test_a_card_still_gone_at_the_second_look_is_recorded(session: LiveSession) -> None:
    session.second_look_s = 1.0
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")).with_seq(1, 0.0))
    recorded = inputs(session)
    session.observe(table(("T1#1", "p1.A1")).with_seq(2, 1.0))
    session.camera_time(1.9)
    assert inputs(session) == recorded
    session.camera_time(2.0)  # a second of camera time with nothing new settling
    assert inputs(session) == recorded + 1
    assert [c["uid"] for c in session.state()["table"]["cards"]] == ["T1#1"]


def test_a_new_table_with_the_card_still_gone_records_both_in_order(
    session: LiveSession,
) -> None:
    session.second_look_s = 1.0
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")).with_seq(1, 0.0))
    recorded = inputs(session)
    session.observe(table(("T1#1", "p1.A1")).with_seq(2, 1.0))
    session.observe(table(("T1#1", "p1.A1"), ("T3#1", "p1.A3")).with_seq(3, 1.3))
    assert inputs(session) == recorded + 2  # the held table, then the new one
    session.flush()
    assert [c["uid"] for c in session.state()["table"]["cards"]] == ["T1#1", "T3#1"]


def test_without_a_camera_feed_every_table_is_recorded_at_once(session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))
    recorded = inputs(session)
    session.observe(table(("T1#1", "p1.A1")))
    assert inputs(session) == recorded + 1
