"""Issue 34: while another program held a lock on the library (SQLite), the live page froze
9-13 s per request. The page and the state answer from memory while the lock is held; the
camera's tables and a person's press wait in order and are written once the lock is gone; the
page says that saving waits; nothing acknowledged is lost."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.server.session import LiveSession
from tests.reliability.conftest import make_app
from tests.server.fakes import table


def until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Wait for a condition (a safety bound only: the test never waits for the clock)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


@pytest.fixture
def locker(session: LiveSession) -> Iterator[sqlite3.Connection]:
    """Another program's connection to the same library, holding its write lock."""
    other = sqlite3.connect(str(session.store.path), isolation_level=None, timeout=0)
    other.execute("BEGIN EXCLUSIVE")
    yield other
    if other.in_transaction:
        other.execute("COMMIT")
    other.close()


def kinds(session: LiveSession) -> list[str]:
    return [e.kind for e in session.store.events(session.game_id)
            if e.kind in ("observation", "action")]


def test_the_page_answers_while_another_program_holds_the_library(
    session: LiveSession,
) -> None:
    session.observe(table())
    client = make_app(session).test_client()
    other = sqlite3.connect(str(session.store.path), isolation_level=None, timeout=0)
    other.execute("BEGIN EXCLUSIVE")
    try:
        session.observe(table(("T1#1", "p1.A1")))  # the camera does not wait: the table waits
        session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))
        page, state = client.get("/"), client.get("/api/state")
        assert other.in_transaction  # answered while the lock is still held
        assert page.status_code == 200 and state.status_code == 200
        recording = state.get_json()["recording"]
        assert recording["status"] == "waiting"
        assert recording["message_en"] == "saving is waiting for the library"
        assert "saving is waiting for the library" in page.get_data(as_text=True)
        assert state.get_json()["table"]["cards"] == []  # the page shows what the file holds
        answers: list[Any] = []
        press = threading.Thread(
            target=lambda: answers.append(client.post("/api/action", json={"action": "pass"})))
        press.start()
        until(lambda: len(session._queue) == 1, "the press waits its turn")
        during = client.get("/api/state")
        assert during.status_code == 200 and press.is_alive() and other.in_transaction
    finally:
        other.execute("COMMIT")
        other.close()
    press.join(timeout=20)
    assert answers and answers[0].status_code == 200
    # in order: the two tables the camera saw, then the press; each table its own step
    assert kinds(session) == ["observation", "observation", "observation", "action"]
    moves = [(m.kind, m.cards, m.to) for m in session.referee.moves]  # type: ignore[attr-defined]
    assert moves == [("play", ("T1#1",), "p1.A1"), ("play", ("T2#1",), "p1.A2"),
                     ("pass", (), None)]
    assert session.state()["recording"]["status"] == "ok"


def test_a_press_that_waits_too_long_is_refused_and_nothing_is_recorded(
    session: LiveSession, locker: sqlite3.Connection,
) -> None:
    session.person_wait_s = 0.0  # no patience: the first refusal is the answer
    client = make_app(session).test_client()
    res = client.post("/api/action", json={"action": "pass"})
    assert locker.in_transaction
    assert res.status_code == 503 and "library busy" in res.get_json()["error"]
    assert "nothing changed" in res.get_json()["error"]
    locker.execute("COMMIT")
    assert kinds(session) == []  # refused, so not acknowledged: nothing to lose
