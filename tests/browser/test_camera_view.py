"""The table page's camera view: per camera a line saying what it covers ("Camera 1 (this
laptop): sees Bo's half, cards 3, dice 2"), and a half marked unwatched when a joined camera
drops out. Which half a camera sees is set by construction (a fake mat fit sharp at one long
edge: player 1's is y = 400 on the Creature Crush mat); the players are Ada (1) and Bo (2).
Every wait is a condition, never a clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.layouts import load_layout
from companion.server.live_setup import serve_in_thread
from companion.vision.multicam import clarity_grid
from tests.browser.conftest import LAPTOP, opened, shot
from tests.camera_fakes import near, page_with_cameras, table

pytestmark = pytest.mark.browser

GAME = "creature-crush"




def lines(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#camera-view li").all_inner_texts()]


def test_the_page_says_what_each_camera_covers(browser: Any, tmp_path: Path) -> None:
    from companion.record.store import GameHeader, Store
    from companion.server.bus import EventBus
    from companion.server.session import LiveSession
    from tests.server.fakes import LAYOUT, FakeReferee, card_info

    store = Store(tmp_path / "g.db")
    session = LiveSession(FakeReferee(), store, EventBus(),
                          GameHeader(game=GAME, players=("Ada", "Bo"), ruleset_version="fake-1"),
                          LAYOUT, card_info)
    app, cameras, now = page_with_cameras(session)
    layout = load_layout(GAME)
    cameras.see([], near(0))  # the table's own laptop sits at Bo's edge (player 2, y = 0)
    cameras.own(table(3, 2))
    grid = clarity_grid(near(400).px_per_mm, float(layout.width_mm), float(layout.height_mm))
    cameras.hub.receive("Ada's phone", table(1, 0), grid, None)
    cameras.remote()
    server, _ = serve_in_thread(app, "127.0.0.1", 0)
    try:
        url = f"http://127.0.0.1:{server.server_port}/"
        with opened(browser, url, LAPTOP, "en") as page:
            page.wait_for_function("document.querySelectorAll('#camera-view li').length === 2")
            assert lines(page) == [
                "Camera 1 (this laptop): sees Bo's half, cards 3, dice 2",
                "Camera 2 (Ada's phone): sees Ada's half, cards 1, dice 0"]
            assert page.locator("#camera-view").is_visible()
            now[0] += 10  # Ada's phone falls silent; the table's own camera goes on
            cameras.see([], near(0))
            page.wait_for_function(
                "[...document.querySelectorAll('#camera-view li')]"
                ".some(li => li.dataset.state === 'unwatched')")
            assert lines(page) == ["Camera 1 (this laptop): sees Bo's half, cards 3, dice 2",
                                   "Camera 2 (Ada's phone): dropped out",
                                   "Ada's half: not watched by any camera"]
            shot(page, "camera-view-dropped")
        with opened(browser, url, LAPTOP, "de") as page:
            page.wait_for_function("document.querySelectorAll('#camera-view li').length === 3")
            assert lines(page)[0] == "Kamera 1 (dieser Laptop): sieht Hälfte von Bo, Karten 3, " \
                                     "Würfel 2"
            assert lines(page)[2] == "Hälfte von Ada: von keiner Kamera beobachtet"
    finally:
        server.shutdown()
        session.bus.close()
        store.close()
