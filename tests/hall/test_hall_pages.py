"""The hall page and the overlays in headless Chromium: tables needing a referee first and
highlighted, a click target to the table's own page, standings; overlays on a transparent page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.hall.loop import LoopThread
from companion.hall.natsd import NatsServer
from companion.hall.runtime import Hall
from tests.hall.conftest import wait_until
from tests.hall.helpers import Table

pytestmark = [pytest.mark.browser]


@pytest.fixture
def browser_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def test_hall_page_puts_open_violations_first_and_follows_live(
        nats_server: NatsServer, loop: LoopThread, tmp_path: Path, browser_page: Any) -> None:
    hall = Hall(tmp_path / "hall.db", nats_server.url, heartbeat_s=0.5).start("127.0.0.1", 0)
    tables = [Table(tmp_path, name, loop, nats_server.url, players=players)
              for name, players in (("a-table", ("Ada", "Bo")), ("b-table", ("Cy", "Di")))]
    try:
        for t in tables:
            t.start()
            t.move(1)
        base = f"http://127.0.0.1:{hall.port}"
        page = browser_page
        page.goto(base + "/hall/")
        page.evaluate("localStorage.setItem('companion.lang', 'en')")
        page.reload()
        page.wait_for_function("document.querySelectorAll('#hall-rows tr').length === 2")
        assert page.eval_on_selector_all("#hall-rows tr", "rs => rs.map(r => r.dataset.table)") \
            == ["a-table", "b-table"]
        # a violation at b-table: it moves to the top, highlighted, with the rule's words
        b = tables[1]
        b.store.append(b.game, "violation", "automatic", {
            "code": "ch.bench-full", "message_en": "The bench is full: Di loses the match.",
            "message_de": "Die Bank ist voll.", "rule": "Ende eines Matches", "move_seq": 1})
        b.rings += 1
        page.wait_for_function(
            "document.querySelector('#hall-rows tr').dataset.table === 'b-table'")
        top = page.locator("#hall-rows tr").first
        assert "alert" in (top.get_attribute("class") or "")
        assert "The bench is full" in top.inner_text()
        assert top.locator("a", has_text="live page").get_attribute("href") == \
            "http://b-table.local:8765/"
        assert "clickable" in (top.get_attribute("class") or "")
        # the live move reaches the page without a reload
        tables[0].move(2)
        page.wait_for_selector('#hall-rows tr[data-table="a-table"][data-seq="2"]')
        # a message the hall refuses shows up for the judges, live
        async def garbage() -> None:
            import nats

            nc = await nats.connect(nats_server.url)
            try:
                await nc.jetstream().publish("companion.b-table.junk", b"not a table message")
            finally:
                await nc.close()

        loop.run(garbage(), 30)
        page.wait_for_selector("#hall-refused:not([hidden])")
        assert "unreadable" in page.inner_text("#hall-refused-list")
        assert "b-table" in page.inner_text("#hall-refused-list")
        page.screenshot(path="/tmp/hall-page.png")
        # the hall's overlay of that table: transparent, names, scores, the banner
        page.goto(base + "/hall/overlay/b-table")
        page.wait_for_selector("#ov-banner:not([hidden])")
        assert page.text_content("#ov-name-p1") == "Cy"
        assert page.text_content("#ov-score-p1") == "1"
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background in ("rgba(0, 0, 0, 0)", "transparent")
        page.screenshot(path="/tmp/hall-overlay.png")
    finally:
        for t in tables:
            t.close()
        hall.close()


def test_table_overlay_follows_a_live_demo(tmp_path: Path, browser_page: Any) -> None:
    from companion.server.live_setup import build_demo, serve_in_thread

    live = build_demo("challengers", speed=4.0, db=tmp_path / "games.db", fps=8.0)
    server, _ = serve_in_thread(live.app, "127.0.0.1", 0)
    live.runner.start()
    try:
        page = browser_page
        page.goto(f"http://127.0.0.1:{server.server_port}/overlay")
        assert page.text_content("#ov-name-p1") == live.session.header.players[0]
        wait_until(lambda: bool((page.text_content("#ov-move") or "").strip()), 60,
                   "the first move on the overlay")
        assert "CH-" not in (page.text_content("#ov-move") or "")  # card names, not ids
        background = page.evaluate("getComputedStyle(document.documentElement)"
                                   ".backgroundColor")
        assert background in ("rgba(0, 0, 0, 0)", "transparent")
        page.screenshot(path="/tmp/table-overlay.png")
    finally:
        live.close()
        server.shutdown()
