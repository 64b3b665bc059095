"""The game library: append-only, committed event by event, readable as plain tables."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record.store import (
    GameHeader,
    GameNotFoundError,
    RecordError,
    Store,
    open_existing,
)
from companion.snapshot import SeenCard, TableSnapshot

HEADER = GameHeader(
    game="trick-or-beat",
    players=("Ada", "Bo"),
    cardsets={"trick-or-beat": {"version": "1", "hash": "abc"}},
    ruleset_version="tob-1",
    seed=7,
)


def test_events_get_consecutive_seqs_and_read_back(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        gid = store.start_game(HEADER)
        a = store.append(gid, "move", "camera", {"text_en": "Ada plays"}, at=10.0)
        b = store.append(gid, "violation", "automatic", {"code": "X", "move_seq": a.seq})
        assert (a.seq, b.seq) == (1, 2)
        events = store.events(gid)
        assert [e.kind for e in events] == ["move", "violation"]
        assert events[0].payload == {"text_en": "Ada plays"}
        assert events[0].time == 10.0
        assert store.events(gid, after=1) == events[1:]
        header = store.game(gid)
        assert header.players == ("Ada", "Bo") and header.seed == 7
        assert header.cardsets["trick-or-beat"]["hash"] == "abc"


def test_seqs_are_per_game(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        g1, g2 = store.start_game(HEADER), store.start_game(HEADER)
        store.append(g1, "note", "person", {"text": "a"})
        assert store.append(g2, "note", "person", {"text": "b"}).seq == 1
        assert [h.id for h in store.games()] == [g1, g2]


def test_events_cannot_be_changed_or_deleted_even_with_plain_sql(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with Store(path) as store:
        gid = store.start_game(HEADER)
        store.append(gid, "move", "camera", {"text_en": "x"})
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET kind = 'note'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM events")
    conn.close()


def test_plain_tables_with_json_as_text(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with Store(path) as store:
        gid = store.start_game(HEADER)
        store.append(gid, "move", "camera", {"text_en": "Ada plays", "cards": ["A#1"]})
        seen = TableSnapshot("trick-or-beat", cards=(SeenCard("A#1", "p1.active"),))
        store.save_snapshot(gid, 1, seen)
        store.save_keyframe(gid, 1, b"\xff\xd8jpeg")
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "events", "snapshots", "keyframes"} <= tables
    (payload,) = conn.execute("SELECT payload FROM events").fetchone()
    assert json.loads(payload)["cards"] == ["A#1"]
    (snap,) = conn.execute("SELECT snapshot FROM snapshots").fetchone()
    assert json.loads(snap)["cards"][0]["zone"] == "p1.active"
    conn.close()


def test_bad_kind_source_and_game_are_refused_with_a_message(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        gid = store.start_game(HEADER)
        with pytest.raises(RecordError, match="unknown event kind"):
            store.append(gid, "teleport", "camera", {})
        with pytest.raises(RecordError, match="unknown event source"):
            store.append(gid, "move", "ghost", {})
        with pytest.raises(GameNotFoundError):
            store.append(gid + 5, "move", "camera", {})
        assert store.events(gid) == []


def test_open_existing_refuses_missing_and_foreign_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such game library"):
        open_existing(tmp_path / "missing.db")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all, not even close" * 10)
    with pytest.raises(RecordError, match="not a game library"):
        open_existing(junk)


def test_finish_stores_outcome(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        gid = store.start_game(HEADER)
        store.finish(gid, {"winner": "p2", "reason_en": "deck empty"})
        header = store.game(gid)
        assert header.finished and header.outcome == {"winner": "p2", "reason_en": "deck empty"}


@settings(max_examples=25, deadline=None)
@given(st.lists(st.dictionaries(st.text(min_size=1, max_size=5), st.integers() | st.text()),
                max_size=8))
def test_payloads_round_trip(
    tmp_path_factory: pytest.TempPathFactory, payloads: list[dict[str, object]]
) -> None:
    path = tmp_path_factory.mktemp("rt") / "g.db"
    with Store(path) as store:
        gid = store.start_game(HEADER)
        for p in payloads:
            store.append(gid, "note", "person", p)
    with open_existing(path) as again:
        assert [e.payload for e in again.events(gid)] == payloads


WRITER = textwrap.dedent(
    """
    import sys, time
    from companion.record.store import GameHeader, Store
    store = Store(sys.argv[1])
    gid = store.start_game(GameHeader(game="challengers", players=("A", "B")))
    n = 0
    while True:
        n += 1
        e = store.append(gid, "move", "camera", {"text_en": f"move {n}"})
        print(e.seq, flush=True)
        time.sleep(0.002)
    """
)


def test_killed_process_loses_nothing_it_reported(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    reported = [int(proc.stdout.readline()) for _ in range(30)]
    proc.kill()
    proc.wait(timeout=10)
    with open_existing(path) as store:
        (header,) = store.games()
        seqs = [e.seq for e in store.events(header.id or 0)]
    assert seqs[: len(reported)] == reported
    assert seqs == list(range(1, len(seqs) + 1))
