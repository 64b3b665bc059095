"""Defect 3: the LAN PIN had no rate limit, lockout or logging (548 guesses/s).
Defect 4: no Host or Origin check (DNS rebinding drove the localhost page) and no frame
protection (clickjacking)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest

from companion.server.live_setup import serve_in_thread
from companion.server.security import FREE_TRIES, host_allowed
from companion.server.session import LiveSession
from tests.reliability.conftest import LAN, make_app, request
from tests.server.fakes import table


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_pins_are_limited_per_client_with_a_growing_wait_and_logged(
    session: LiveSession, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(session, pin="424242")
    clock = Clock()
    app.extensions["companion.pin_guard"]._clock = clock
    client = app.test_client()
    client.environ_base.update(LAN)
    caplog.set_level(logging.WARNING, logger="companion.security")

    def guess(pin: str) -> int:
        return client.post("/api/action", json={"action": "next-phase"},
                           headers={"X-Companion-PIN": pin}).status_code

    assert [guess(f"{n:06d}") for n in range(FREE_TRIES)] == [403] * FREE_TRIES
    waits = []
    for n in range(6):
        res = client.post("/api/action", json={"action": "next-phase"},
                          headers={"X-Companion-PIN": "424242"})  # even the right PIN waits
        assert res.status_code == 429 and "try again in" in res.get_json()["error"]
        waits.append(int(res.headers["Retry-After"]))
        clock.now += waits[-1]
        assert guess(f"{n + 10:06d}") == 403  # one guess per wait
    assert waits == sorted(waits) and waits[-1] >= 16 * waits[0]
    assert sum("wrong PIN from 192.168.1.20" in r.message for r in caplog.records) == \
        FREE_TRIES + 6
    # after ten guesses the next one is minutes away: 10^6 PINs take years, not 30 minutes
    res = client.post("/api/action", json={"action": "next-phase"},
                      headers={"X-Companion-PIN": "424242"})
    assert int(res.headers["Retry-After"]) >= 60
    # another device is not punished for it; the right PIN after the wait works
    other = app.test_client()
    other.environ_base.update({"REMOTE_ADDR": "192.168.1.21"})
    assert other.post("/api/action", json={"action": "next-phase"},
                      headers={"X-Companion-PIN": "424242"}).status_code == 200
    clock.now += 600
    assert guess("424242") == 200
    assert [e.kind for e in session.store.events(session.game_id)] == [
        "action", "phase", "action", "phase"]


def test_localhost_never_needs_the_pin(session: LiveSession) -> None:
    client = make_app(session, pin="424242").test_client()
    assert client.post("/api/action", json={"action": "next-phase"}).status_code == 200
    assert client.get("/review/").status_code == 200
    assert client.get(f"/api/games/{session.game_id}").status_code == 200


@pytest.fixture
def served(session: LiveSession) -> Iterator[tuple[int, LiveSession]]:
    app = make_app(session)
    server, thread = serve_in_thread(app, "127.0.0.1", 0)
    try:
        yield server.server_port, session
    finally:
        server.shutdown()
        thread.join(5)


def test_dns_rebinding_gets_nothing(served: tuple[int, LiveSession]) -> None:
    port, session = served
    evil = {"Host": "attacker.example", "Origin": "http://attacker.example"}
    status, _h, body = request(port, "POST", "/api/note", {"text": "x"}, evil)
    assert status == 403 and b"unexpected host" in body
    status, _h, _b = request(port, "GET", "/api/state", headers={"Host": "attacker.example"})
    assert status == 403
    status, _h, _b = request(port, "GET", "/", headers={"Host": f"attacker.example:{port}"})
    assert status == 403
    assert session.store.events(session.game_id) == []
    # the page's own addresses work
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        status, _h, _b = request(port, "POST", "/api/note", {"text": "ok"},
                                 {"Host": host, "Origin": f"http://{host}"})
        assert status == 200, host


def test_a_post_from_another_origin_is_refused(served: tuple[int, LiveSession]) -> None:
    port, session = served
    for origin in ("http://attacker.example", "null", "http://127.0.0.1:1"):
        status, _h, _b = request(port, "POST", "/api/action", {"action": "next-phase"},
                                 {"Origin": origin})
        assert status == 403, origin
    status, _h, _b = request(port, "POST", "/api/action", {"action": "next-phase"},
                             {"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    assert session.store.events(session.game_id) == []


def test_no_page_can_be_framed(served: tuple[int, LiveSession]) -> None:
    port, session = served
    session.observe(table(("T1#1", "p1.A1")))
    for path in ("/", "/review/", f"/review/{session.game_id}", "/api/state"):
        status, headers, _b = request(port, "GET", path)
        assert status == 200, path
        assert headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]


@pytest.mark.parametrize("host,bind,ok", [
    ("127.0.0.1:8765", "127.0.0.1", True),
    ("localhost:8765", "127.0.0.1", True),
    ("[::1]:8765", "127.0.0.1", True),
    ("192.168.1.5:8765", "127.0.0.1", False),
    ("attacker.example", "127.0.0.1", False),
    ("attacker.example", "0.0.0.0", False),
    ("192.168.1.5:8765", "0.0.0.0", True),
    ("192.168.1.5:8765", "192.168.1.5", True),
    ("192.168.1.6:8765", "192.168.1.5", False),
    ("localhost", "192.168.1.5", False),
    ("127.0.0.1.attacker.example", "0.0.0.0", False),
])
def test_host_rules(host: str, bind: str, ok: bool) -> None:
    assert host_allowed(host, bind) is ok


def test_the_pin_checks_run_in_parallel_without_losing_count(session: LiveSession) -> None:
    app = make_app(session, pin="424242")
    guard = app.extensions["companion.pin_guard"]

    def hammer() -> None:
        for _ in range(50):
            guard.failed("192.168.1.30")

    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert guard._clients["192.168.1.30"][0] == 200
