"""Defect 1: a move was applied before it was recorded; a failed write (a full disk, any
database error, a lone surrogate in `value`/`target`) left it on the page, and the next undo
jumped back silently."""

from __future__ import annotations

import pytest

from companion.record.replay import main_line
from companion.server.session import LiveSession
from tests.reliability.conftest import fill_up, make_app, make_room, new_session
from tests.server.fakes import table

SHOWN = ("table", "status", "violations", "log", "question", "outcome", "history", "seq")


def shown(session: LiveSession) -> dict[str, object]:
    state = session.state()
    return {k: state[k] for k in SHOWN}


@pytest.mark.parametrize("field", ["value", "target"])
@pytest.mark.parametrize("action", ["pass", "next-phase", "declare"])
def test_a_lone_surrogate_is_a_400_and_changes_nothing(
    session: LiveSession, action: str, field: str
) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    client = make_app(session).test_client()
    before = shown(session)
    raw = '{"action": "' + action + '", "' + field + '": "\\ud800"}'
    res = client.post("/api/action", data=raw, content_type="application/json")
    assert res.status_code == 400 and "invalid character" in res.get_json()["error"]
    assert shown(session) == before
    # the next undo takes back the card, the last thing that happened, nothing else
    assert client.post("/api/undo", json={}).status_code == 200
    assert session.state()["table"]["cards"] == []
    assert main_line(session.store.events(session.game_id)) == []


def test_a_full_disk_is_a_503_the_page_is_unchanged_and_undo_stays_right(
    session: LiveSession,
) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    fill_up(session.store, session.game_id)
    session._events = session.store.events(session.game_id)  # the filler notes are real events
    client = make_app(session).test_client()
    before = shown(session)
    bus = session.bus.last_id
    res = client.post("/api/action", json={"action": "pass"})
    assert res.status_code == 503
    assert "disk full" in res.get_json()["error"] and "nothing changed" in res.get_json()["error"]
    assert shown(session) == before
    assert session.state()["recording"]["status"] == "paused"
    published = session.bus.since(bus) or []
    assert all('"ends the turn"' not in m.data for m in published)  # never shown, not even once
    make_room(session.store)
    assert client.post("/api/action", json={"action": "pass"}).status_code == 200
    assert client.post("/api/undo", json={}).status_code == 200
    assert session.state()["status"]["en"]["active"] == "p1"
    assert [e.move["move"]["kind"] for e in main_line(session.store.events(session.game_id))] \
        == ["play"]


def test_what_the_page_shows_is_what_a_restart_rebuilds(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    session.act("pass")
    session.undo()
    session.act("next-phase")
    again = new_session(session.store, resume=session.game_id)
    assert shown(again) == shown(session)
