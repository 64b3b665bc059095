"""Defect 7: 500 instead of 4xx (nested JSON, Infinity/1e400, ids above 2^63 in paths) and
0.9 silently truncated to 0. Defect 8: referee actions were not idempotent (a repeated
decision recorded again, "corrected" then "stands" showing "stands" for a move off the line,
a repeated undo taking back a second move)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from companion.record.replay import main_line
from companion.server.session import LiveSession
from tests.reliability.conftest import make_app
from tests.server.fakes import table


@pytest.fixture
def client_and_session(session: LiveSession) -> tuple[FlaskClient, LiveSession]:
    session.observe(table())
    session.observe(table(("T3#1", "shared.unsure")))
    return make_app(session).test_client(), session


BAD_BODIES = [
    ("/api/note", '{"text": ' + "[" * 5000 + "]" * 5000 + "}"),
    ("/api/note", '{"text": "x", "a": ' + '{"b":' * 30 + "1" + "}" * 30 + "}"),
    ("/api/questions/{q}/answer", '{"choice": Infinity}'),
    ("/api/questions/{q}/answer", '{"choice": NaN}'),
    ("/api/questions/{q}/answer", '{"choice": 1e400}'),
    ("/api/questions/{q}/answer", '{"choice": 0.9}'),
    ("/api/questions/{q}/answer", '{"choice": 123456789012345678901234567890}'),
    ("/api/questions/{q}/answer", '{"choice": -1}'),
    ("/api/action", b'{"action": "declare", "value": "\xff\xfe"}'),
    ("/api/action", '{"action": "pass", "id": "' + "x" * 100 + '"}'),
]


@pytest.mark.parametrize("url,body", BAD_BODIES)
def test_bad_bodies_are_4xx_with_one_line_and_change_nothing(
    client_and_session: tuple[FlaskClient, LiveSession], url: str, body: str | bytes
) -> None:
    client, session = client_and_session
    q = session.state()["question"]["seq"]
    before = len(session.store.events(session.game_id))
    res = client.post(url.format(q=q), data=body, content_type="application/json")
    assert 400 <= res.status_code < 500, res.get_data(as_text=True)[:200]
    error = res.get_json()["error"]
    assert error and "\n" not in error and "Traceback" not in error
    assert len(session.store.events(session.game_id)) == before
    assert session.state()["question"] is not None


@pytest.mark.parametrize("path", [
    "/api/games/99999999999999999999999", "/api/games/9223372036854775808",
    "/api/games/1/keyframes/99999999999999999999.jpg", "/review/18446744073709551616",
])
def test_huge_ids_in_paths_are_404(
    client_and_session: tuple[FlaskClient, LiveSession], path: str
) -> None:
    client, _session = client_and_session
    res = client.get(path)
    assert res.status_code == 404


def test_huge_ids_in_action_paths_are_4xx(
    client_and_session: tuple[FlaskClient, LiveSession],
) -> None:
    client, _session = client_and_session
    res = client.post("/api/violations/99999999999999999999999/decision",
                      json={"decision": "stands"})
    assert res.status_code == 404
    res = client.post("/api/violations/999999999999999999/decision", json={"decision": "stands"})
    assert res.status_code == 400 and "no violation" in res.get_json()["error"]


def test_a_repeated_decision_is_answered_not_recorded(session: LiveSession) -> None:
    client = make_app(session).test_client()
    session.observe(table())
    session.observe(table(("T1#1", "p1.forbidden")))
    v = session.state()["violations"][0]["seq"]
    url = f"/api/violations/{v}/decision"
    assert client.post(url, json={"decision": "stands", "id": "a1"}).status_code == 200
    count = len(session.store.events(session.game_id))
    repeated = client.post(url, json={"decision": "stands", "id": "a1"}).get_json()
    assert repeated["repeated"] is True
    same = client.post(url, json={"decision": "stands", "id": "a2"}).get_json()
    assert same["unchanged"] is True  # a second click with its own id: nothing to change
    assert len(session.store.events(session.game_id)) == count


def test_corrected_then_stands_puts_the_move_back(session: LiveSession) -> None:
    client = make_app(session).test_client()
    session.observe(table())
    session.observe(table(("T1#1", "p1.forbidden")))
    v = session.state()["violations"][0]["seq"]
    url = f"/api/violations/{v}/decision"
    client.post(url, json={"decision": "corrected"})
    assert session.state()["violations"][0]["decision"] == "corrected"
    assert main_line(session.store.events(session.game_id)) == []
    client.post(url, json={"decision": "stands"})
    assert session.state()["violations"][0]["decision"] == "stands"
    line = main_line(session.store.events(session.game_id))
    assert [e.move["move"]["cards"] for e in line] == [["T1#1"]]


def test_a_repeated_undo_takes_back_one_step(session: LiveSession) -> None:
    client = make_app(session).test_client()
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))
    client.post("/api/action", json={"action": "pass"})
    for _ in range(3):  # a double click and a retry after a dropped answer
        assert client.post("/api/undo", json={"id": "undo-1"}).status_code == 200
    line = main_line(session.store.events(session.game_id))
    assert [e.move["move"]["kind"] for e in line] == ["play"]
    assert session.state()["status"]["en"]["active"] == "p1"
    assert client.post("/api/redo", json={"id": "redo-1"}).status_code == 200
    assert client.post("/api/redo", json={"id": "redo-1"}).get_json()["repeated"]
    assert session.state()["status"]["en"]["active"] == "p2"
