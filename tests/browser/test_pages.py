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
