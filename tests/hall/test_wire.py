"""Subjects, message ids and message bodies between tables and the hall."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hall.wire import (
    EVENT,
    FINISH,
    HEADER,
    NOTHING,
    Place,
    WireError,
    check_name,
    decode,
    encode,
    table_subject,
)


def test_subject_per_table_and_recording() -> None:
    assert table_subject("cup-2026", "table-3", "ab12") == "cup-2026.table-3.ab12"
    for bad in ("", "a.b", "a b", "x>", "*", "ä", "t" * 65):
        with pytest.raises(WireError):
            check_name("table", bad)


@given(st.lists(st.tuples(st.integers(1, 50), st.integers(0, 500), st.sampled_from([0, 1, 2])),
                min_size=2, max_size=30))
def test_places_order_games_then_events_then_the_outcome(raw: list[tuple[int, int, int]]) -> None:
    places = sorted(Place(*r) for r in raw)
    for a, b in itertools.pairwise(places):
        assert (a.game, a.seq, a.part) <= (b.game, b.seq, b.part)
    assert all(p > NOTHING for p in places)
    assert len({p.msg_id for p in places}) == len(set(raw))


def test_round_trip_and_refusals() -> None:
    raw = encode(EVENT, "t1", "db1", Place(2, 7, 1), {"seq": 7, "kind": "move"}, 12.5)
    msg = decode(raw)
    assert (msg.type, msg.table, msg.db, msg.place, msg.sent) == (EVENT, "t1", "db1",
                                                                  Place(2, 7, 1), 12.5)
    assert msg.key == ("db1", 2, 7, 1) and msg.msg_id() == "db1.2.7.1"
    good = json.loads(raw)
    cases = {
        b"not json": "bad JSON",
        json.dumps({**good, "v": 99}).encode(): "version",
        json.dumps({**good, "type": "gossip"}).encode(): "unknown message type",
        json.dumps({**good, "part": 2}).encode(): "part",
        json.dumps({k: v for k, v in good.items() if k != "game"}).encode(): "incomplete",
        json.dumps({**good, "table": "a.b"}).encode(): "table name",
        json.dumps({**good, "body": [1]}).encode(): "body",
    }
    for data, words in cases.items():
        with pytest.raises(WireError, match=words):
            decode(data)
    assert decode(encode(HEADER, "t", "d", Place(1, 0, 0), {}, 0)).type == HEADER
    assert decode(encode(FINISH, "t", "d", Place(1, 3, 2), {}, 0)).type == FINISH
