"""Headless Chromium on a real demo: cards appear in their zones, the prompt follows the
phase, a violation is marked, the review timeline scrubs. Screenshots go to /tmp."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium"),
]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path("/tmp")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    from companion.server.live_setup import build_demo, serve_in_thread

    db = tmp_path_factory.mktemp("demo") / "games.db"
    live = build_demo("trick-or-beat", speed=3.0, db=db, fps=10.0)
    server, _ = serve_in_thread(live.app, "127.0.0.1", 0)
    live.runner.start()
    yield f"http://127.0.0.1:{server.server_port}", live
    live.close()
    server.shutdown()


@pytest.fixture(scope="module")
def page(demo: tuple[str, Any]) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        pg = browser.new_page(viewport={"width": 1360, "height": 960})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        yield pg
        browser.close()
        assert not errors, errors


def test_live_page_follows_the_demo_and_review_scrubs(demo: tuple[str, Any], page: Any) -> None:
    base, live = demo
    page.goto(base + "/")
    page.evaluate("localStorage.setItem('companion.lang', 'en')")
    page.reload()
    first_phase = page.text_content("#phase")
    # face-down creatures are laid on p1's active lane: seen by the camera, drawn in that zone
    page.wait_for_selector('#mat .card-g.back[data-zone="p1.active"]', timeout=30_000)
    assert page.locator('#mat .zone[data-zone="p1.active"]').count() == 1
    assert page.locator("#mat .zone-label-g").count() == len(live.session.layout["zones"])
    # the draft ends (a person pressed "next phase"): the phase and prompt change
    page.wait_for_function(
        "first => document.querySelector('#phase').textContent !== first", arg=first_phase,
        timeout=30_000,
    )
    assert page.text_content("#prompt").strip()
    page.screenshot(path=str(SHOTS / "companion-live.png"))
    # a violation shows with its rule; the referee marks it "stands"
    item = page.wait_for_selector(".violation.open", timeout=30_000)
    seq = int(item.get_attribute("data-seq"))
    assert "Rule" in item.inner_text()
    item.query_selector('button[data-decision="stands"]').click()
    page.wait_for_selector(f'.violation.decided[data-seq="{seq}"]', timeout=10_000)
    decisions = [(e.payload.get("violation"), e.payload.get("decision"))
                 for e in live.store.events(live.session.game_id) if e.kind == "decision"]
    assert (seq, "stands") in decisions
    # German at the press of a button
    page.click('.lang-switch button[data-lang="de"]')
    assert page.text_content('[data-i18n="violations"]') == "Regelverstöße"
    page.screenshot(path=str(SHOTS / "companion-live-de.png"))
    page.click('.lang-switch button[data-lang="en"]')

    # the demo ends; a referee enters what the camera cannot see: an offered attack, then
    # "next phase"; each is logged as "person" and the offers and prompt follow
    page.wait_for_selector('#health[data-status="finished"]', timeout=40_000)
    assert "Next:" in page.text_content(".prompt-head")
    attack = page.wait_for_selector('#offers-person .btn.offer[data-kind="attack"]',
                                    timeout=10_000)
    said = attack.inner_text().strip()
    attack_move = attack.get_attribute("data-move")
    seq_before = int(page.get_attribute("body", "data-seq"))
    attack.click()
    page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq_before)
    top = page.locator("#log .log-item").first
    assert top.locator(".log-text").inner_text().strip() == said
    assert top.locator(".log-source").inner_text().strip().lower() == "person"
    entered = [e for e in live.store.events(live.session.game_id) if e.kind == "move"][-1]
    assert entered.source == "person" and entered.payload["move"]["kind"] == "attack"
    offered = page.locator("#offers-person .btn.offer").evaluate_all(
        "bs => bs.map(b => b.dataset.move)")
    assert attack_move not in offered  # an attacker attacks once: the offer is gone
    head = page.text_content(".prompt-head")
    page.click('button[data-action="next-phase"]')
    page.wait_for_function("h => document.querySelector('.prompt-head').textContent !== h",
                           arg=head)
    assert live.session.state()["log"][-1]["source"] == "person"
    page.screenshot(path=str(SHOTS / "companion-live-entered.png"))

    # one test, one demo: under `pytest -n 2` a second test could start a second demo
    # on another worker; the review of the same game follows here
    page.goto(f"{base}/review/")
    page.click(f'a[href="/review/{live.session.game_id}"]')
    page.wait_for_selector("#timeline .tl-item")
    first = page.text_content("#step-text")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.text_content("#step-index") == "3"
    assert page.text_content("#step-text") != first
    page.click("#next-violation")
    assert page.text_content(".step-card .tl-kind") == "Violation"
    assert page.locator("#mat .zone").count() > 0
    page.screenshot(path=str(SHOTS / "companion-review.png"))


def test_question_from_the_interpreter_is_a_choice_dialog(tmp_path: Path, page: Any) -> None:
    """An ambiguous table change opens a dialog; the choice is recorded (fake referee; the
    browser of the demo test is reused, its demo is not needed)."""
    from companion.record.store import GameHeader, Store
    from companion.server.bus import EventBus
    from companion.server.live_setup import serve_in_thread
    from companion.server.session import LiveSession
    from tests.server.conftest import make_app
    from tests.server.fakes import LAYOUT, FakeReferee, card_info, table

    store = Store(tmp_path / "q.db")
    session = LiveSession(FakeReferee(), store, EventBus(), GameHeader(
        game="creature-crush", players=("Ada", "Bo"), ruleset_version="fake-1"), LAYOUT, card_info)
    server, _ = serve_in_thread(make_app(session), "127.0.0.1", 0)
    try:
        page.goto(f"http://127.0.0.1:{server.server_port}/")
        page.evaluate("localStorage.setItem('companion.lang', 'en')")
        page.reload()
        page.wait_for_selector('#conn[data-state="live"]')
        session.observe(table(("T1#1", "p1.A1")))
        session.observe(table(("T1#1", "p1.A1"), ("T2#1", "shared.unsure")))
        page.wait_for_selector("#question[open]", timeout=10_000)
        assert page.text_content("#question-text") == "Attack or block?"
        page.screenshot(path=str(SHOTS / "companion-question.png"))
        page.click('#question-choices .btn.choice[data-choice="1"]')
        page.wait_for_selector("#question:not([open])", state="attached", timeout=10_000)
        page.wait_for_selector("#question-reopen[hidden]", state="attached")
        answered = [e for e in store.events(session.game_id) if e.kind == "answer"]
    finally:
        server.shutdown()
        session.bus.close()
        store.close()
    assert answered and answered[-1].payload["choice"] == 1
    assert session.referee.moves[-1].kind == "block"  # type: ignore[attr-defined]


def test_the_page_reconnects_when_the_server_comes_back(tmp_path: Path, page: Any) -> None:
    """The companion is restarted on the same port: the page says it lost the stream, then
    shows the new session without a reload (fake referee, the demo browser reused)."""
    from companion.record.store import GameHeader, Store
    from companion.server.bus import EventBus
    from companion.server.live_setup import serve_in_thread
    from companion.server.session import LiveSession
    from tests.server.conftest import make_app
    from tests.server.fakes import LAYOUT, FakeReferee, card_info, table

    def start(name: str) -> tuple[LiveSession, Store]:
        store = Store(tmp_path / f"{name}.db")
        return LiveSession(FakeReferee(), store, EventBus(), GameHeader(
            game="creature-crush", players=("Ada", "Bo"), ruleset_version="fake-1"), LAYOUT,
            card_info), store

    first, first_store = start("first")
    for zone in ("p1.A1", "p1.A2", "p2.A1", "p2.A2"):  # the old stream's ids run ahead
        first.observe(table(("T2#1", zone)))
    server, _ = serve_in_thread(make_app(first), "127.0.0.1", 0)
    port = server.server_port
    second, second_store = start("second")
    try:
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector('#conn[data-state="live"]')
        page.wait_for_selector('#mat .card-g[data-uid="T2#1"]')
        first.bus.close()  # the process dies: its streams end, nothing answers
        server.shutdown()
        server.server_close()
        page.wait_for_selector('#conn[data-state="offline"]', timeout=15_000)
        second.observe(table(("T1#1", "p1.A1")))
        server, _ = serve_in_thread(make_app(second), "127.0.0.1", port)
        page.wait_for_selector('#conn[data-state="live"]', timeout=20_000)
        page.wait_for_selector('#mat .card-g[data-uid="T1#1"]', timeout=10_000)
        assert page.locator('#mat .card-g[data-uid="T2#1"]').count() == 0
    finally:
        server.shutdown()
        for session, store in ((first, first_store), (second, second_store)):
            session.bus.close()
            store.close()
