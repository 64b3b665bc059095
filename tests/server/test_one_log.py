"""One log: every input is recorded, then applied from the record; undo, redo, decisions,
restart and failed writes all rebuild through the same replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.api import Move
from companion.record.replay import main_line
from companion.record.store import GameHeader, Store, WriteFailedError
from companion.server.bus import EventBus
from companion.server.session import ActionError, GameOverError, LiveSession
from companion.snapshot import TableSnapshot
from tests.server.fakes import LAYOUT, FakeReferee, card_info, table

HEADER = GameHeader(game="creature-crush", players=("Ada", "Bo"), ruleset_version="fake-1")


def moves_of(session: LiveSession) -> list[tuple[str, tuple[str, ...], str | None]]:
    referee: FakeReferee = session.referee  # type: ignore[assignment]
    return [(m.kind, m.cards, m.to) for m in referee.moves]


def line_texts(session: LiveSession) -> list[str]:
    """The main line as the file has it, read without the session."""
    return [f"{e.move['move']['kind']} {','.join(e.move['move'].get('cards', []))}".strip()
            for e in main_line(session.store.events(session.game_id))]


def resumed(session: LiveSession) -> LiveSession:
    """A second session on the same file, as after a restart."""
    return LiveSession(FakeReferee(), session.store, EventBus(), HEADER, LAYOUT, card_info,
                       resume=session.game_id)


def same_state(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("table", "status", "violations", "log", "question", "outcome", "game_over",
                "history", "seq", "moves"):
        assert a[key] == b[key], key


def test_undo_after_end_turn_takes_back_the_end_turn_not_the_card(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    session.act("pass")
    assert session.state()["status"]["en"]["active"] == "p2"
    session.undo()
    state = session.state()
    assert state["status"]["en"]["active"] == "p1"
    assert moves_of(session) == [("play", ("T1#1",), "p1.A1")]
    assert line_texts(session) == ["play T1#1"]
    assert state["history"]["last"]["text_en"] == "Undone: Ada ends the turn"
    assert state["history"]["can_redo"] and state["history"]["can_undo"]


@pytest.mark.parametrize("press", ["next-phase", "pass"])
def test_phase_and_turn_presses_undo_and_redo(session: LiveSession, press: str) -> None:
    session.act(press)
    after = session.state()["status"]["en"]
    session.undo()
    assert session.state()["status"]["en"]["phase"] == "play"
    assert session.state()["status"]["en"]["active"] == "p1"
    assert line_texts(session) == []
    session.redo()
    assert session.state()["status"]["en"] == after
    assert session.state()["history"]["last"]["text_en"].startswith("Redone: Ada ends")


def test_undone_camera_move_says_what_to_put_back_and_is_not_applied_again(
    session: LiveSession,
) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))
    session.undo()
    state = session.state()
    assert [c["uid"] for c in state["table"]["cards"]] == ["T1#1"]  # the mat: rebuilt state
    assert state["history"]["last"]["put_back_en"] == ["take Zweiling off p1.A2 (Ada)"]
    assert "Put back on the table: take Zweiling off p1.A2 (Ada)" in state["history"]["last"][
        "text_en"]
    count = len(session.store.events(session.game_id))
    # the camera still sees the card: the same table again changes nothing
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))
    # the players take it off: the table matches the game, nothing to record
    session.observe(table(("T1#1", "p1.A1")))
    assert len(session.store.events(session.game_id)) == count
    assert moves_of(session) == [("play", ("T1#1",), "p1.A1")]
    # and the next real move is one move
    session.observe(table(("T1#1", "p1.A1"), ("T3#1", "p1.A2")))
    assert moves_of(session) == [("play", ("T1#1",), "p1.A1"), ("play", ("T3#1",), "p1.A2")]


def test_a_change_on_top_of_an_undone_move_brings_it_back_as_seen(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    session.undo()
    assert moves_of(session) == []
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))  # T1 was never taken back
    assert sorted(moves_of(session)) == [("play", ("T1#1",), "p1.A1"),
                                         ("play", ("T2#1",), "p1.A2")]
    assert not session.state()["history"]["can_redo"]


def test_redo_is_gone_once_something_new_happens(session: LiveSession) -> None:
    session.act("next-phase")
    session.undo()
    session.act("pass")
    with pytest.raises(ActionError, match="nothing to redo"):
        session.redo()


def test_undo_and_redo_of_decisions_and_answers(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.forbidden")))
    vseq = session.state()["violations"][0]["seq"]
    session.decide(vseq, "corrected")
    assert moves_of(session) == [] and session.state()["table"]["cards"] == []
    session.undo()  # the decision
    assert session.state()["violations"][0]["decision"] is None
    assert moves_of(session) == [("play", ("T1#1",), "p1.forbidden")]
    assert [c["uid"] for c in session.state()["table"]["cards"]] == ["T1#1"]
    session.redo()
    assert session.state()["violations"][0]["decision"] == "corrected"
    assert moves_of(session) == []
    session.undo()
    session.undo()  # the camera move itself: its violation goes with it
    assert session.state()["violations"] == [] and moves_of(session) == []

    session.observe(table(("T3#1", "shared.unsure")))
    qseq = session.state()["question"]["seq"]
    session.answer(qseq, 0)
    assert moves_of(session)[-1][0] == "attack"
    session.undo()  # the answer: the question is open again
    assert session.state()["question"]["seq"] == qseq
    assert moves_of(session) == []
    session.answer(qseq, 1)
    assert moves_of(session) == [("block", ("T3#1",), None)]


def test_stands_and_corrected_stay_consistent(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.forbidden")))
    vseq = session.state()["violations"][0]["seq"]
    session.decide(vseq, "corrected")
    count = len(session.store.events(session.game_id))
    assert session.decide(vseq, "corrected")["unchanged"]  # repeated: nothing recorded
    assert len(session.store.events(session.game_id)) == count
    assert line_texts(session) == []
    session.decide(vseq, "stands")  # changed: the move is back on the line
    assert session.state()["violations"][0]["decision"] == "stands"
    assert line_texts(session) == ["play T1#1"]
    assert moves_of(session) == [("play", ("T1#1",), "p1.forbidden")]
    for entry in session.state()["log"]:
        for v in entry["violations"]:
            assert v["decision"] != "corrected"


@pytest.mark.parametrize("first", ["corrected", "stands"])
def test_undoing_every_decision_on_a_violation_puts_the_record_back_with_the_game(
    session: LiveSession, first: str
) -> None:
    """Issue 34: corrected -> stands -> undo -> undo left the move in the live engine but off
    the recorded main line (review, export, the hall), and a resume rebuilt the same split."""
    session.observe(table())
    session.observe(table(("T1#1", "p1.forbidden")))
    vseq = session.state()["violations"][0]["seq"]
    other = "stands" if first == "corrected" else "corrected"
    session.decide(vseq, first)
    session.decide(vseq, other)
    session.undo()
    session.undo()
    played = [("play", ("T1#1",), "p1.forbidden")]
    assert moves_of(session) == played
    assert line_texts(session) == ["play T1#1"]
    assert session.state()["violations"][0]["decision"] is None
    again = resumed(session)
    assert moves_of(again) == played
    same_state(session.state(), again.state())
    session.redo()
    session.redo()  # both decisions back: the last one said holds
    assert line_texts(session) == (["play T1#1"] if other == "stands" else [])
    assert len(moves_of(session)) == len(line_texts(session))
    assert moves_of(resumed(session)) == moves_of(session)


def test_repeated_request_ids_are_answered_not_applied(session: LiveSession) -> None:
    first = session.act("next-phase", client_id="abc")
    again = session.act("next-phase", client_id="abc")
    assert again == {"seq": first["seq"], "repeated": True}
    assert len(moves_of(session)) == 1
    session.undo(client_id="u1")
    session.undo(client_id="u1")
    assert moves_of(session) == [] and session.state()["history"]["can_redo"]
    with pytest.raises(ActionError, match="already used"):
        session.act("pass", client_id="abc")
    # ids survive a restart: they are in the log
    again_after = resumed(session)
    assert again_after.act("next-phase", client_id="abc")["repeated"]


def test_a_restart_rebuilds_the_same_state_from_the_file(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.forbidden")))
    vseq = session.state()["violations"][0]["seq"]
    session.decide(vseq, "corrected")
    session.act("next-phase")
    session.undo()
    session.observe(table(("T1#1", "p1.A1"), ("T3#1", "shared.unsure")))
    session.act("declare", value="draw 2")
    second = resumed(session)
    same_state(session.state(), second.state())
    assert moves_of(second) == moves_of(session)
    second.act("pass")  # and it goes on recording into the same game
    assert second.store.events(session.game_id)[-1].kind == "phase"


def test_a_failed_write_changes_nothing_and_says_why(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    fill_up(session.store, session.game_id)
    session._events = session.store.events(session.game_id)  # the filler notes
    before = session.state()
    count = len(session.store.events(session.game_id))
    with pytest.raises(WriteFailedError, match="disk full"):
        session.act("pass")
    with pytest.raises(WriteFailedError):
        session.undo()
    state = session.state()
    same_state(before, state)
    assert state["recording"]["status"] == "paused"
    assert "disk full" in state["recording"]["message_en"]
    assert moves_of(session) == [("play", ("T1#1",), "p1.A1")]
    # the camera keeps running; what it saw is kept and recorded once there is room
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))
    assert moves_of(session) == [("play", ("T1#1",), "p1.A1")]
    assert len(session.store.events(session.game_id)) == count
    make_room(session.store)
    session._last_retry = 0.0
    session.tick()
    assert session.state()["recording"]["status"] == "ok"
    assert moves_of(session)[-1] == ("play", ("T2#1",), "p1.A2")
    same_state(session.state(), resumed(session).state())


def test_a_full_disk_keeps_every_table_and_records_each_as_its_own_step(
    session: LiveSession,
) -> None:
    """Issue 34: during a disk-full outage only the last table was kept, and when space came
    back the whole outage was recorded as one jump (Testling's stop on A1 lost). Every settled
    table waits in order and is recorded as its own step."""
    session.observe(table())
    fill_up(session.store, session.game_id)
    session._events = session.store.events(session.game_id)
    seen = [table(("T1#1", "p1.A1")), table(("T1#1", "p1.A2")),
            table(("T1#1", "p1.A2"), ("T2#1", "p1.A1"))]
    for snapshot in seen:
        session.observe(snapshot, b"\xff\xd8" + b"k" * 100)
    assert moves_of(session) == [] and session.state()["recording"]["waiting"] == 3
    make_room(session.store)
    session._last_retry = 0.0
    session.tick()
    assert session.state()["recording"] == {"status": "ok", "message_en": "",
                                            "message_de": "", "waiting": 0}
    assert moves_of(session) == [("play", ("T1#1",), "p1.A1"), ("play", ("T1#1",), "p1.A2"),
                                 ("play", ("T2#1",), "p1.A1")]
    observed = [TableSnapshot.from_dict(e.payload["snapshot"]) for e in
                session.store.events(session.game_id) if e.kind == "observation"]
    assert all(a.same_table(b) for a, b in zip(observed[1:], seen, strict=True))
    moves = [e.seq for e in session.store.events(session.game_id) if e.kind == "move"]
    assert session.store.keyframe_seqs(session.game_id) == moves[-1:]  # the newest's picture
    same_state(session.state(), resumed(session).state())


def test_tables_waiting_are_bounded_and_only_the_outages_end_merges(
    session: LiveSession, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("companion.server.session.TABLES_WAITING", 2)
    session.observe(table())
    fill_up(session.store, session.game_id)
    session._events = session.store.events(session.game_id)
    session.observe(table(("T1#1", "p1.A1")))
    session.observe(table(("T1#1", "p1.A2")))
    session.observe(table(("T1#1", "p1.A2"), ("T2#1", "p1.A1")))  # in place of the last one
    make_room(session.store)
    session._last_retry = 0.0
    session.tick()
    assert moves_of(session) == [("play", ("T1#1",), "p1.A1"), ("play", ("T1#1",), "p1.A2"),
                                 ("play", ("T2#1",), "p1.A1")]
    observed = [e for e in session.store.events(session.game_id) if e.kind == "observation"]
    assert len(observed) == 3  # the empty table, the first waiting one, the last one


def test_a_lone_surrogate_is_refused_before_anything_changes(session: LiveSession) -> None:
    before = session.state()
    with pytest.raises(Exception, match="cannot be stored"):
        session.act("declare", value="\ud800")
    same_state(before, session.state())
    assert session.state()["recording"]["status"] == "ok"
    session.act("declare", value="fine")
    assert len(moves_of(session)) == 1


def test_game_over_refuses_changes_but_undo_of_the_winning_step(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.win")))
    state = session.state()
    assert state["game_over"] and state["outcome"]["winner"] == "p1"
    assert state["moves"] == {"person": [], "table": [], "hidden": 0}
    assert session.store.game(session.game_id).finished
    for attempt in (lambda: session.act("pass"), lambda: session.act("next-phase"),
                    lambda: session.act("declare", value="x")):
        with pytest.raises(GameOverError, match="game is over"):
            attempt()
    session.observe(table(("T1#1", "p1.win"), ("T2#1", "p1.A1")))  # not applied
    assert len(moves_of(session)) == 1
    session.undo()
    assert not session.state()["game_over"]
    assert session.store.game(session.game_id).finished is None
    session.act("next-phase")
    assert len(moves_of(session)) == 1 and moves_of(session)[0][0] == "next-phase"


def test_a_winning_move_corrected_after_the_end_reopens_the_game(session: LiveSession) -> None:
    """Game over still lets the referee decide: the illegal winning move "corrected" goes off
    the line and the game is open again; "stands" puts it back and the game ends again. A
    replay of the record agrees at every point."""
    session.observe(table())
    session.observe(table(("T1#1", "p1.cheat-win")))
    state = session.state()
    assert state["game_over"] and state["outcome"]["winner"] == "p1"
    (violation,) = [v for v in state["violations"] if not v["decision"]]
    session.decide(violation["seq"], "corrected")
    state = session.state()
    assert not state["game_over"] and state["outcome"] is None
    assert session.store.game(session.game_id).finished is None
    same_state(state, resumed(session).state())
    session.decide(violation["seq"], "stands")
    state = session.state()
    assert state["game_over"] and state["outcome"]["winner"] == "p1"
    assert session.store.game(session.game_id).finished


def test_the_game_over_refusal_names_the_winner(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.win")))
    with pytest.raises(GameOverError) as refused:
        session.act("pass")
    assert "Ada won" in str(refused.value) and "p1" not in str(refused.value)


def test_inferred_steps_keep_their_source_and_reason(tmp_path: Path) -> None:
    class Inferring(FakeReferee):
        def observe(self, before: Any, after: Any) -> Any:
            from companion.server.referee import Applied, Reaction

            reaction = super().observe(before, after)
            if not reaction.applied:
                return reaction
            step = Applied(Move("next-phase", "p1"), (), {}, source="automatic",
                           reason_en="a card was played", reason_de="eine Karte kam ins Spiel")
            return Reaction(applied=(step, *reaction.applied))

    with Store(tmp_path / "g.db") as store:
        live = LiveSession(Inferring(), store, EventBus(), HEADER, LAYOUT, card_info)
        live.observe(table())
        live.observe(table(("T1#1", "p1.A1")))
        phase, move = [e for e in store.events(live.game_id) if e.kind in ("phase", "move")]
        assert (phase.source, phase.payload["reason_en"]) == ("automatic", "a card was played")
        assert move.source == "camera"


def fill_up(store: Store, game_id: int) -> None:
    """Fault injection: SQLite's own page limit makes writes fail as on a full disk; notes
    fill the last pages to the brim first."""
    (pages,) = store._conn.execute("PRAGMA page_count").fetchone()
    store._conn.execute(f"PRAGMA max_page_count = {pages + 1}")
    for size in (2000, 500, 100, 20, 1):
        while True:
            try:
                store.append(game_id, "note", "automatic", {"text": "x" * size})
            except WriteFailedError:
                break


def make_room(store: Store) -> None:
    store._conn.execute("PRAGMA max_page_count = 1073741823")


def test_a_corrected_camera_move_says_what_to_put_back(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.forbidden")))
    vseq = session.state()["violations"][0]["seq"]
    session.decide(vseq, "corrected")
    last = session.state()["history"]["last"]
    assert last["put_back_en"] == ["take Zweiling off p1.forbidden (Ada)"]
    assert [c["uid"] for c in session.state()["table"]["cards"]] == ["T1#1"]
    count = len(session.store.events(session.game_id))
    session.observe(table(("T1#1", "p1.A1")))  # the players did as told: nothing to record
    assert len(session.store.events(session.game_id)) == count
    session.decide(vseq, "stands")  # changed again: the card belongs on the table after all
    assert session.state()["history"]["last"]["put_back_en"] == [
        "put Zweiling back on p1.forbidden (Ada)"]


def test_a_rules_error_on_a_table_change_leaves_nothing_half_done(tmp_path: Path) -> None:
    class Fragile(FakeReferee):
        broken = False

        def observe(self, before: Any, after: Any) -> Any:
            reaction = super().observe(before, after)
            if Fragile.broken:
                raise IndexError("board.py:59")
            return reaction

    with Store(tmp_path / "g.db") as store:
        live = LiveSession(Fragile(), store, EventBus(), HEADER, LAYOUT, card_info)
        live.observe(table())
        count = len(store.events(live.game_id))
        Fragile.broken = True
        live.observe(table(("T1#1", "p1.A1")))  # no exception reaches the camera thread
        assert len(store.events(live.game_id)) == count and moves_of(live) == []
        assert "could not be applied" in live.state()["recording"]["message_en"]
        Fragile.broken = False
        live._last_retry = 0.0
        live.tick()
        assert moves_of(live) == [("play", ("T1#1",), "p1.A1")]
        assert live.state()["recording"]["status"] == "ok"


def test_a_state_message_lists_the_newest_violations_only(session: LiveSession) -> None:
    """Issue 34: every state message listed every violation ever recorded, so each input cost
    more as the game went on. It lists the newest ones (and how many stand in all)."""
    from companion.server.session import VIOLATIONS_SHOWN

    session.observe(table())
    for k in range(VIOLATIONS_SHOWN + 5):
        session.observe(table((f"T1#{k}", "p1.forbidden")))
    state = session.state()
    assert len(state["violations"]) == VIOLATIONS_SHOWN
    assert state["violations_total"] == VIOLATIONS_SHOWN + 5
    newest = [v["seq"] for v in state["violations"]]
    assert newest == sorted(newest) and newest[-1] == max(
        e.seq for e in session.store.events(session.game_id) if e.kind == "violation")
    session.decide(newest[-1], "corrected")  # the newest stay decidable, and shown decided
    assert session.state()["violations"][-1]["decision"] == "corrected"
