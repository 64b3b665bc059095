"""The live session: every input recorded first, then published; corrections and questions."""

from __future__ import annotations

import pytest

from companion.record.replay import main_line
from companion.server.session import ActionError, LiveSession
from tests.server.fakes import table


def kinds(session: LiveSession, inputs: bool = False) -> list[str]:
    """Event kinds in the file; without `inputs`, only what the inputs led to."""
    hidden = () if inputs else ("observation",)
    return [e.kind for e in session.store.events(session.game_id) if e.kind not in hidden]


def test_a_placed_card_becomes_a_recorded_move_with_snapshot(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    events = session.store.events(session.game_id)
    assert [e.kind for e in events] == ["observation", "observation", "move"]
    observed, move = events[1], events[2]
    assert observed.source == "camera" and observed.payload["snapshot"]["cards"][0]["uid"] \
        == "T1#1"
    assert move.payload["move"] == {"kind": "play", "player": "p1", "cards": ["T1#1"],
                                    "to": "p1.A1"}
    assert move.source == "camera" and move.payload["input"] == observed.seq
    snaps = session.store.snapshots(session.game_id)
    assert snaps[move.seq].card("T1#1") is not None
    state = session.state()
    assert state["table"]["cards"][0]["name"] == "Testling"
    assert state["log"][0]["move"]["text_en"]


def test_same_table_again_records_nothing(session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1")))
    session.observe(table(("T1#1", "p1.A1")))
    assert kinds(session) == ["move"]


def test_violation_then_stands_keeps_the_move(session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.forbidden")))
    (violation,) = session.state()["violations"]
    assert violation["code"] == "T-1" and violation["rule"] == "Test rules 1.1"
    session.decide(violation["seq"], "stands")
    assert session.state()["violations"][0]["decision"] == "stands"
    assert len(main_line(session.store.events(session.game_id))) == 1


def test_corrected_violation_takes_the_move_off_the_main_line(session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1")))
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.forbidden")))
    violation = session.state()["violations"][0]
    session.decide(violation["seq"], "corrected")
    assert kinds(session) == ["move", "move", "violation", "decision"]
    assert session.store.events(session.game_id)[-1].payload["off"] == [violation["move_seq"]]
    line = main_line(session.store.events(session.game_id))
    assert [e.move["move"]["cards"] for e in line] == [["T1#1"]]
    assert len(session.referee.moves) == 1  # type: ignore[attr-defined]
    # the players put the card back where it belongs: seen as a new move from the old table
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))
    line = main_line(session.store.events(session.game_id))
    assert [e.move["move"]["to"] for e in line] == ["p1.A1", "p1.A2"]


def test_undo_records_an_undo_and_rebuilds(session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1")))
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))
    session.undo()
    assert kinds(session)[-1] == "undo"
    assert len(session.referee.moves) == 1  # type: ignore[attr-defined]
    assert len(session.state()["log"]) == 1


def test_undo_with_nothing_to_undo_is_an_action_error(session: LiveSession) -> None:
    with pytest.raises(ActionError, match="nothing to undo"):
        session.undo()
    assert kinds(session) == []


def test_question_is_recorded_and_answered(session: LiveSession) -> None:
    session.observe(table(("T3#1", "shared.unsure")))
    q = session.state()["question"]
    assert q["text_en"] == "Attack or block?" and len(q["choices"]) == 2
    with pytest.raises(ActionError, match="choice must be"):
        session.answer(q["seq"], 5)
    session.answer(q["seq"], 1)
    assert session.state()["question"] is None
    assert kinds(session) == ["question", "answer", "move"]
    assert session.store.events(session.game_id)[-1].payload["move"]["kind"] == "block"


def test_phase_and_declare_actions(session: LiveSession) -> None:
    session.act("next-phase")
    assert session.state()["status"]["en"]["phase"] == "attack"
    session.act("pass")
    assert session.state()["status"]["en"]["active"] == "p2"
    session.act("declare", value="draw 2")
    events = session.store.events(session.game_id)
    assert [e.kind for e in events] == ["action", "phase", "action", "phase", "action", "move"]
    assert events[-1].payload["move"]["value"] == "draw 2"
    assert events[-1].payload["input"] == events[-2].seq
    assert events[-1].source == "person"
    with pytest.raises(ActionError):
        session.act("declare")
    with pytest.raises(ActionError):
        session.act("teleport")


def test_camera_status_changes_are_recorded_numbers_are_not(session: LiveSession) -> None:
    session.camera("ok", fps=9.5, markers=12, calibrated=True)
    session.camera("ok", fps=9.7, markers=13, calibrated=True)
    session.camera("reconnecting")
    assert kinds(session) == ["camera", "camera"]
    assert session.state()["health"]["status"] == "reconnecting"


def test_every_change_is_published_after_it_is_recorded(session: LiveSession) -> None:
    start = session.bus.last_id
    session.observe(table(("T1#1", "p1.A1")))
    messages = session.bus.since(start)
    assert messages is not None
    assert [m.event for m in messages] == ["log", "log", "state"]
    assert '"T1#1"' in messages[-1].data
