"""Flask app with a temporary game library and a live session on the fake referee."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.record.store import GameHeader, Store
from companion.server.app import create_app
from companion.server.bus import EventBus
from companion.server.session import LiveSession
from tests.server.fakes import LAYOUT, FakeReferee, card_info


@pytest.fixture
def session(tmp_path: Path) -> Iterator[LiveSession]:
    store = Store(tmp_path / "games.db")
    live = LiveSession(
        FakeReferee(),
        store,
        EventBus(capacity=64),
        GameHeader(game="creature-crush", players=("Ada", "Bo"), ruleset_version="fake-1"),
        LAYOUT,
        card_info,
    )
    yield live
    live.bus.close()
    store.close()


LAN = {"REMOTE_ADDR": "192.168.1.20"}
"""`environ_base` of a test client on another device of the network."""


def make_app(session: LiveSession, pin: str | None = None, bind: str = "0.0.0.0") -> Flask:
    return create_app(
        {
            "DATABASE": session.store.path,
            "SESSION": session,
            "PIN": pin,
            "BIND_HOST": bind,
            "HEARTBEAT_S": 0.2,
            "LAYOUT_FOR": lambda game: LAYOUT,
            "CARD_INFO_FOR": lambda game: card_info,
            "TESTING": True,
        }
    )


@pytest.fixture
def app(session: LiveSession) -> Flask:
    return make_app(session)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
