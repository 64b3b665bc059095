"""Shared pieces of the reliability suite: a live session on the test referee, its web app,
a real server on loopback, and fault injection into the game library (disk full, read-only).

Every test here repeats one defect of issue 15 (or a promise of the README's "Reliability"
section) and is bounded in time; nothing leaves the machine (127.0.0.1 only)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.record.store import GameHeader, Store, WriteFailedError
from companion.server.app import create_app
from companion.server.bus import EventBus
from companion.server.session import LiveSession
from tests.server.fakes import LAYOUT, FakeReferee, card_info

HEADER = GameHeader(game="creature-crush", players=("Ada", "Bo"), ruleset_version="fake-1")
LAN = {"REMOTE_ADDR": "192.168.1.20"}


def new_session(store: Store, resume: int | None = None) -> LiveSession:
    return LiveSession(FakeReferee(), store, EventBus(capacity=64), HEADER, LAYOUT, card_info,
                       resume=resume)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "games.db") as opened:
        yield opened


@pytest.fixture
def session(store: Store) -> Iterator[LiveSession]:
    live = new_session(store)
    yield live
    live.bus.close()


def make_app(session: LiveSession, pin: str | None = None, bind: str = "0.0.0.0",
             **extra: Any) -> Flask:
    return create_app({"DATABASE": session.store.path, "SESSION": session, "PIN": pin,
                       "BIND_HOST": bind, "HEARTBEAT_S": 0.2, "TESTING": True,
                       "LAYOUT_FOR": lambda game: LAYOUT,
                       "CARD_INFO_FOR": lambda game: card_info, **extra})


def fill_up(store: Store, game_id: int) -> None:
    """Disk full, as SQLite reports it: a page limit at the file's size, the last pages
    filled with notes to the brim."""
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


def read_only(store: Store, on: bool = True) -> None:
    """The medium turns read-only under a running game (SQLite refuses every write)."""
    store._conn.execute(f"PRAGMA query_only = {1 if on else 0}")


def request(port: int, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None, timeout: float = 10.0
            ) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request to 127.0.0.1:port with exactly the headers given."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = None if body is None else (body if isinstance(body, bytes) else
                                      json.dumps(body).encode())
    sent = {"Content-Type": "application/json"} if data is not None else {}
    sent.update(headers or {})
    conn.request(method, path, body=data, headers=sent)
    res = conn.getresponse()
    payload = res.read()
    conn.close()
    return res.status, {k.lower(): v for k, v in res.getheaders()}, payload
