"""Defect 5: recordings (the game in progress too) were readable on the LAN without the PIN,
with both registered deck lists in draw order: upcoming draws could be read. A 300k-event
review page was 840 MB and 50 s, for anyone."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.record.store import Store
from companion.referee.script import config_from_script
from companion.server.app import create_app
from companion.server.bus import EventBus
from companion.server.engine_referee import EngineReferee
from companion.server.gamedata import card_lookup, layout_dict
from companion.server.live_setup import ScriptDirector, demo_script_path, header_for
from companion.server.session import LiveSession
from companion.sim.script import load_script
from companion.sim.source import script_snapshots
from tests.reliability.conftest import LAN, make_app
from tests.server.fakes import table

PIN = "424242"


def test_recordings_and_review_pages_need_the_pin_off_localhost(session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1")))
    client = make_app(session, pin=PIN).test_client()
    client.environ_base.update(LAN)
    gid = session.game_id
    for path in ("/api/games", f"/api/games/{gid}", f"/api/games/{gid}/keyframes/1.jpg"):
        res = client.get(path)
        assert res.status_code == 403 and "PIN" in res.get_json()["error"], path
    for path in ("/review/", f"/review/{gid}"):
        res = client.get(path)
        assert res.status_code == 302 and res.headers["Location"].startswith("/unlock"), path
    assert client.get("/").status_code == 200  # the live table itself stays watchable
    assert client.get("/api/games", headers={"X-Companion-PIN": PIN}).status_code == 200
    # once unlocked on /unlock, the browser's cookie stands for the PIN
    res = client.post("/unlock", data={"pin": PIN, "next": f"/review/{gid}"})
    assert res.status_code == 302 and res.headers["Location"] == f"/review/{gid}"
    assert client.get(f"/review/{gid}").status_code == 200
    assert client.get(f"/api/games/{gid}").status_code == 200


def test_unlock_only_sends_you_to_this_server(session: LiveSession) -> None:
    client = make_app(session, pin=PIN).test_client()
    client.environ_base.update(LAN)
    res = client.post("/unlock", data={"pin": PIN, "next": "//attacker.example/x"})
    assert res.headers["Location"] == "/"


@pytest.fixture
def demo_game(tmp_path: Path) -> tuple[LiveSession, set[str], set[str]]:
    """A Trick or Beat demo played halfway: (session, deck uids, uids the table showed)."""
    path = demo_script_path("trick-or-beat")
    script = load_script(path)
    config = config_from_script(script)
    store = Store(tmp_path / "g.db")
    session = LiveSession(EngineReferee(config), store, EventBus(), header_for(config, "t"),
                          layout_dict("trick-or-beat"),
                          card_lookup("trick-or-beat", config.cards))
    director = ScriptDirector(script, session)
    snaps = script_snapshots(script)
    half = len(snaps) // 2
    session.observe(snaps[0])
    for k in range(1, half):
        director.on_frame(SimpleNamespace(step=k - 1))
        session.observe(snaps[k].with_seq(k, float(k)))
    decks = {u for cards in config.decks.values() for u in cards}
    shown = {c.uid for s in snaps[:half] for c in s.cards if c.face_up}
    assert decks - shown, "the test needs cards that are still hidden"
    return session, decks, shown


def test_no_deck_order_or_unseen_card_leaves_the_server(
    demo_game: tuple[LiveSession, set[str], set[str]],
) -> None:
    session, decks, shown = demo_game
    app = create_app({"DATABASE": session.store.path, "SESSION": session, "PIN": PIN,
                      "BIND_HOST": "0.0.0.0"})
    client = app.test_client()
    client.environ_base.update(LAN)
    auth = {"X-Companion-PIN": PIN}
    gid = session.game_id
    bodies = {path: client.get(path, headers=auth).get_data(as_text=True)
              for path in ("/api/games", f"/api/games/{gid}", f"/review/{gid}", "/review/",
                           "/api/state", "/")}
    hidden = decks - shown
    bodies["live stream"] = "\n".join(m.data for m in session.bus.since(0) or [])
    assert len(bodies["live stream"]) > 1000
    for path, body in bodies.items():
        leaked = sorted(u for u in hidden if re.search(re.escape(u) + r"(?!\d)", body))
        assert not leaked, (path, leaked[:5])
    header = json.loads(bodies["/api/games"])["games"][0]
    assert "decks" not in header["cardsets"] and "config" not in header
    assert sum(header["cardsets"]["deck_sizes"].values()) == len(decks)


def test_long_games_are_paged(tmp_path: Path) -> None:
    from tests.reliability.conftest import new_session

    with Store(tmp_path / "g.db") as store:
        session = new_session(store)
        session.observe(table())
        n = 3000
        with store.transaction():
            for i in range(n):
                store.append(session.game_id, "note", "automatic", {"text": f"note {i}"})
        client = make_app(session).test_client()
        seen: list[int] = []
        after = 0
        pages = 0
        while True:
            started = time.monotonic()
            res = client.get(f"/api/games/{session.game_id}?after={after}&limit=500")
            elapsed = time.monotonic() - started
            data = res.get_json()
            assert res.status_code == 200 and len(data["timeline"]) <= 500
            assert len(res.get_data()) < 2_000_000 and elapsed < 10
            seen += [s["seq"] for s in data["timeline"]]
            pages += 1
            if data["page"]["next_after"] is None:
                break
            after = data["page"]["next_after"]
        assert pages == 6 and len(seen) == n and seen == sorted(set(seen))
        page = client.get(f"/review/{session.game_id}?page=2").get_data(as_text=True)
        assert "note 1000" in page and "note 999<" not in page and "note 1500" not in page
        assert client.get(f"/api/games/{session.game_id}?limit=100000").status_code == 400
