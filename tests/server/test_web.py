"""The Flask app: pages render, API validates, PIN guards actions, SSE streams and resumes."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient

from companion.server.app import create_app
from companion.server.session import LiveSession
from tests.server.conftest import LAN, make_app
from tests.server.fakes import table


def test_live_page_renders_with_state(client: FlaskClient, session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1")))
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="mat"' in html and "Testling" in html and "Ada" in html
    assert "/static/live.js" in html


def test_static_files_are_served(client: FlaskClient) -> None:
    for name in ("app.css", "mat.js", "live.js", "review.js", "i18n.js"):
        assert client.get(f"/static/{name}").status_code == 200


def test_review_pages_list_and_show_a_game(client: FlaskClient, session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.A1")))
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.forbidden")))
    listing = client.get("/review/")
    assert listing.status_code == 200 and "Creature Crush" in listing.get_data(as_text=True)
    one = client.get(f"/review/{session.game_id}")
    html = one.get_data(as_text=True)
    assert one.status_code == 200 and 'id="scrub"' in html and "T-1" in html
    data = client.get(f"/api/games/{session.game_id}").get_json()
    kinds = [s["kind"] for s in data["timeline"] if s["kind"] != "observation"]
    assert kinds == ["move", "move", "violation"]
    assert data["timeline"][-1]["table"]["cards"][1]["zone"] == "p1.forbidden"


def test_unknown_game_is_a_404_json(client: FlaskClient) -> None:
    res = client.get("/api/games/999")
    assert res.status_code in (400, 404)
    assert "no game with id 999" in res.get_json()["error"]


def test_state_api(client: FlaskClient) -> None:
    data = client.get("/api/state").get_json()
    assert data["players"] == ["Ada", "Bo"] and data["layout"]["zones"]


def test_bad_requests_are_4xx_json_and_change_nothing(
    client: FlaskClient, session: LiveSession
) -> None:
    session.observe(table(("T1#1", "p1.forbidden")))
    before = len(session.store.events(session.game_id))
    vseq = session.state()["violations"][0]["seq"]
    cases = [
        (f"/api/violations/{vseq}/decision", {"decision": "maybe"}),
        (f"/api/violations/{vseq}/decision", {}),
        ("/api/violations/999/decision", {"decision": "stands"}),
        ("/api/questions/1/answer", {"choice": "x"}),
        ("/api/questions/1/answer", {"choice": 0}),
        ("/api/action", {"action": "explode"}),
        ("/api/action", {"action": "declare"}),
        ("/api/action", {"action": "declare", "value": "x" * 500}),
        ("/api/action", ["not", "an", "object"]),
    ]
    for url, body in cases:
        res = client.post(url, json=body)
        assert 400 <= res.status_code < 500, (url, body, res.status_code)
        assert res.get_json()["error"], (url, body)
        assert "Traceback" not in res.get_data(as_text=True)
    res = client.post("/api/action", data="{broken json", content_type="application/json")
    assert res.status_code == 400 and "not valid JSON" in res.get_json()["error"]
    form = client.post("/api/undo", data={"x": "1"})  # what another web site could send
    assert form.status_code == 415 and "JSON" in form.get_json()["error"]
    huge = client.post("/api/note", json={"text": "x" * 100_000})
    assert huge.status_code == 413
    assert len(session.store.events(session.game_id)) == before


def test_actions_work_without_pin_on_localhost(client: FlaskClient, session: LiveSession) -> None:
    session.observe(table(("T1#1", "p1.forbidden")))
    vseq = session.state()["violations"][0]["seq"]
    res = client.post(f"/api/violations/{vseq}/decision", json={"decision": "stands"})
    assert res.status_code == 200
    assert client.post("/api/action", json={"action": "next-phase"}).status_code == 200
    assert client.post("/api/undo", json={}).status_code == 200
    assert session.state()["violations"][0]["decision"] == "stands"


def test_pin_required_for_every_post_from_another_device(session: LiveSession) -> None:
    client = make_app(session, pin="424242").test_client()
    client.environ_base.update(LAN)
    page = client.get("/")
    assert page.status_code == 200  # watching the live table needs no PIN
    assert b'data-pin-required="yes"' in page.data
    res = client.post("/api/action", json={"action": "next-phase"})
    assert res.status_code == 403 and "PIN" in res.get_json()["error"]
    res = client.post("/api/action", json={"action": "next-phase"},
                      headers={"X-Companion-PIN": "111111"})
    assert res.status_code == 403
    assert session.store.events(session.game_id) == []
    ok = client.post("/api/action", json={"action": "next-phase"},
                     headers={"X-Companion-PIN": "424242"})
    assert ok.status_code == 200
    ok = client.post("/api/action", json={"action": "pass", "pin": "424242"})
    assert ok.status_code == 200
    assert [e.kind for e in session.store.events(session.game_id)] == [
        "action", "phase", "action", "phase"]
    local = make_app(session, pin="424242").test_client()  # this machine: never a PIN
    assert local.post("/api/action", json={"action": "next-phase"}).status_code == 200


def test_the_laptops_own_browser_never_needs_the_pin(session: LiveSession) -> None:
    client = make_app(session, pin="424242").test_client()
    for local in ("127.0.0.1", "::1", "::ffff:127.0.0.1"):
        client.environ_base["REMOTE_ADDR"] = local
        assert b'data-pin-required="no"' in client.get("/").data
        assert client.post("/api/action", json={"action": "next-phase"}).status_code == 200
    client.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    assert client.post("/api/action", json={"action": "next-phase"}).status_code == 403
    assert [e.kind for e in session.store.events(session.game_id)].count("phase") == 3


def read_events(client: FlaskClient, url: str, headers: dict[str, str] | None = None) -> str:
    res = client.get(url, headers=headers or {}, buffered=False)
    assert res.status_code == 200 and res.mimetype == "text/event-stream"
    text = "".join(chunk.decode() for chunk in res.response)  # type: ignore[union-attr]
    res.close()
    return text


def test_sse_stream_sends_state_then_resumes_from_last_event_id(
    client: FlaskClient, session: LiveSession
) -> None:
    text = read_events(client, "/api/stream?limit=1")
    assert "event: state" in text and "Ada" in text
    mark = session.bus.last_id
    session.observe(table(("T1#1", "p1.A1")))
    resumed = read_events(client, "/api/stream?limit=3", {"Last-Event-ID": str(mark)})
    assert f"id: {mark + 1}\nevent: log" in resumed  # the observation
    assert f"id: {mark + 2}\nevent: log" in resumed  # the move it led to
    assert f"id: {mark + 3}\nevent: state" in resumed
    assert '"T1#1"' in resumed


def test_sse_bad_last_event_id_is_400(client: FlaskClient) -> None:
    res = client.get("/api/stream", headers={"Last-Event-ID": "abc"})
    assert res.status_code == 400


def test_review_only_app_without_session(tmp_path: Path) -> None:
    app = create_app({"DATABASE": tmp_path / "lib.db"})
    client = app.test_client()
    assert client.get("/").status_code == 302
    assert client.get("/review/").status_code == 200
    res = client.post("/api/undo", json={})
    assert res.status_code == 404 and res.get_json()["error"]


def test_refusals_carry_a_german_text_for_the_german_page(client: FlaskClient) -> None:
    """The page shows `error_de` when set to German: refusals a player meets are translated."""
    undo = client.post("/api/undo", json={})
    assert undo.status_code == 400
    body = undo.get_json()
    assert body["error"] == "nothing to undo yet"
    assert body["error_de"] == "noch nichts rückgängig zu machen"
    redo = client.post("/api/redo", json={}).get_json()
    assert redo["error_de"] == "nichts wiederherzustellen"
    bad = client.post("/api/undo", data="not json", content_type="text/plain")
    assert bad.status_code >= 400
    german = bad.get_json()["error_de"]
    assert german and german != bad.get_json()["error"]
