"""Referee input: the page offers legal moves (person kinds first, hidden cards only counted)
and takes back exactly one of them; anything else is a 4xx that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.api import Move
from companion.server.offers import offers, person_kinds
from companion.server.session import LiveSession
from tests.server.conftest import LAN, make_app
from tests.server.fakes import table


def test_offers_split_person_and_camera_kinds_and_count_hidden_cards() -> None:
    legal = [
        Move("attack", "p1", ("A#1",), target="B#1"),
        Move("attack", "p1", ("A#1",), target="H#1"),  # target not face up
        Move("summon", "p1", ("?",), to="p1.B1"),  # a card from the hand
        Move("summon", "p1", ("A#1",), to="p1.B2"),
        Move("next-phase", "p1"),
        Move("concede", "p1"),
    ]
    found = offers("creature-crush", legal, frozenset({"A#1", "B#1"}))
    assert found.person == (Move("attack", "p1", ("A#1",), target="B#1"), Move("concede", "p1"))
    assert found.table == (Move("summon", "p1", ("A#1",), to="p1.B2"),)
    assert found.hidden == 2
    assert "critical" in person_kinds("fire-emblem-cipher")
    assert {"flip", "keep", "send-home"} <= person_kinds("my-little-pony-ccg")


def test_state_lists_offers_with_names_and_hides_hand_moves(session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p2.A1")))
    moves = session.state()["moves"]
    texts = [r["text_en"] for r in moves["person"]]
    assert texts and all("T1#1" not in t and "T2#1" not in t for t in texts)
    assert {r["move"]["kind"] for r in moves["person"]} == {"attack"}
    assert [r["move"]["kind"] for r in moves["table"]] == ["play", "play"]
    assert moves["hidden"] == 1
    assert all("?" not in r["move"].get("cards", []) for r in moves["person"] + moves["table"])


def test_entering_an_offered_move_records_it_as_person(
    client: FlaskClient, session: LiveSession
) -> None:
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p2.A1")))
    offered = session.state()["moves"]["person"][0]["move"]
    res = client.post("/api/moves", json={"move": offered})
    assert res.status_code == 200, res.get_json()
    last = session.store.events(session.game_id)[-1]
    assert last.kind == "move" and last.source == "person"
    assert last.payload["move"] == offered
    assert session.state()["log"][-1]["move"]["move"] == offered


def _bad_bodies(offered: dict[str, Any]) -> list[Any]:
    return [
        {},
        {"move": "attack"},
        {"move": {"kind": "attack"}},
        {"move": {**offered, "target": "T9#9"}},  # not offered
        {"move": {**offered, "cards": ["?"]}},  # a hidden card
        {"move": {**offered, "cards": "T1#1"}},
        {"move": {**offered, "options": ["x"]}},
        {"move": {"kind": "pass", "player": "p1"}},
        {"move": {**offered, "value": [1, 2]}},
    ]


def test_bad_moves_are_4xx_with_a_message_and_change_nothing(
    client: FlaskClient, session: LiveSession
) -> None:
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p2.A1")))
    offered = session.state()["moves"]["person"][0]["move"]
    before = len(session.store.events(session.game_id))
    for body in _bad_bodies(offered):
        res = client.post("/api/moves", json=body)
        assert 400 <= res.status_code < 500, (body, res.status_code)
        assert res.get_json()["error"], body
    assert len(session.store.events(session.game_id)) == before


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(["kind", "player", "cards", "to", "target", "value",
                                        "options"]),
                       st.one_of(st.none(), st.integers(), st.text(max_size=8),
                                 st.lists(st.text(max_size=4), max_size=2),
                                 st.dictionaries(st.text(max_size=3), st.text(max_size=3),
                                                 max_size=2))))
def test_any_made_up_move_is_refused_cleanly(move: dict[str, Any]) -> None:
    from pathlib import Path
    from tempfile import TemporaryDirectory

    from companion.record.store import GameHeader, Store
    from companion.server.bus import EventBus
    from tests.server.fakes import LAYOUT, FakeReferee, card_info

    with TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "g.db")
        live = LiveSession(FakeReferee(), store, EventBus(), GameHeader(
            game="creature-crush", players=("Ada", "Bo"), ruleset_version="f"), LAYOUT, card_info)
        res = make_app(live).test_client().post("/api/moves", json={"move": move})
        assert 400 <= res.status_code < 500 and res.get_json()["error"]
        assert store.events(live.game_id) == []
        live.bus.close()
        store.close()


def test_entering_needs_the_pin_on_a_lan(session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p2.A1")))
    offered = session.state()["moves"]["person"][0]["move"]
    client = make_app(session, pin="123456").test_client()
    client.environ_base.update(LAN)
    before = len(session.store.events(session.game_id))
    assert client.post("/api/moves", json={"move": offered}).status_code == 403
    assert len(session.store.events(session.game_id)) == before
    ok = client.post("/api/moves", json={"move": offered}, headers={"X-Companion-PIN": "123456"})
    assert ok.status_code == 200


@pytest.mark.parametrize("lang,words", [("en", "white die 1 (3)"), ("de", "weißer Würfel 1 (3)")])
def test_die_ids_read_as_words(lang: str, words: str) -> None:
    from companion.server.names import Namer

    namer = Namer(lambda _: None, ("Ada", "Bo"), None)
    assert words in namer.text("p1 burns p1.w1=3,p1.w2=5", lang)
    assert "p1." not in namer.text("p1 burns p1.w1=3,p1.w2=5", lang)


@pytest.mark.parametrize("game", ["trick-or-beat", "fire-emblem-cipher", "my-little-pony-ccg",
                                  "challengers", "creature-crush"])
def test_engine_referee_offers_and_says_what_comes_next(game: str) -> None:
    from companion.engine.api import GameConfig
    from companion.server.engine_referee import EngineReferee

    referee = EngineReferee(GameConfig(game=game, seed=3))
    status = referee.status("en", frozenset())
    assert isinstance(status["next"], str) and status["next"]
    assert referee.status("de", frozenset())["next"]
    found = referee.offers(frozenset())
    legal = referee.engine.legal_moves_for("table")
    shown = [*found.person, *found.table]
    assert all("?" not in m.cards for m in shown)
    assert all(m in legal for m in shown)
    assert len(shown) + found.hidden <= len(legal)
