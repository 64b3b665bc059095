"""Reviewing records on `companion review`'s pages and in an exported HTML file: search and
filters, names, notes and statuses, previous/next violation, autoplay, a link to any step,
German texts on the German page, keyframes large enough to read, phone width."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine.api import Move
from companion.record.store import GameHeader, Store
from companion.record.timeline import timeline
from companion.server.app import create_app
from companion.server.live_setup import serve_in_thread
from tests.browser.conftest import LAPTOP, PHONE, assert_seen, box, no_sideways_scroll, opened, shot
from tests.language_oracle import page_problems
from tests.live_tables import scripted

pytestmark = pytest.mark.browser


def jpeg(width: int = 960, height: int = 540) -> bytes:
    import cv2
    import numpy as np

    image = np.full((height, width, 3), 60, np.uint8)
    cv2.putText(image, "camera", (40, 300), cv2.FONT_HERSHEY_SIMPLEX, 4, (255, 255, 255), 8)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, dict[str, int]]]:
    """A game played with two broken rules and a keyframe, and a game whose process died."""
    db = tmp_path_factory.mktemp("review") / "games.db"
    with scripted("trick-or-beat", db) as table:
        table.play()
        for _ in range(2):
            move = table.illegal()
            assert move is not None
            table.session.person_moves((move,))
        table.session.person_moves((Move("concede", "p2"),))
        played = table.session.game_id
    with Store(db) as store:
        first_move = next(e.seq for e in store.events(played) if e.kind == "move")
        store.save_keyframe(played, first_move, jpeg())
        killed = store.start_game(GameHeader(game="challengers", players=("Cleo", "Dan")))
        store.append(killed, "move", "camera", {"text_en": "Cleo reveals a card",
                                                "text_de": "Cleo deckt eine Karte auf"})
    app = create_app({"DATABASE": db, "SESSION": None, "HEARTBEAT_S": 0.5})
    server, _ = serve_in_thread(app, "127.0.0.1", 0)
    yield f"http://127.0.0.1:{server.server_port}", db, {"played": played, "killed": killed}
    server.shutdown()
    app.extensions["companion.store"].close()


def steps_of(db: Path, game_id: int) -> list[dict[str, Any]]:
    with Store(db) as store:
        return timeline(store, game_id)


def test_list_searches_filters_and_marks_an_interrupted_game(browser: Any, library: Any) -> None:
    base, db, ids = library
    with opened(browser, f"{base}/", LAPTOP, "en") as page:
        page.wait_for_selector("#games")  # no live game: the list of recorded games
        assert page.url.endswith("/review/")
        assert page.locator("#games tbody tr").count() == 2
        status = page.locator(f'tr[data-game="{ids["killed"]}"]')
        assert status.get_attribute("data-status") == "interrupted"
        assert "interrupted" in status.inner_text().lower()
        page.select_option('select[name="violations"]', "with")
        page.click('#filters button[type="submit"]')
        page.wait_for_url("**violations=with**")
        assert page.locator("#games tbody tr").count() == 1
        assert page.locator(f'tr[data-game="{ids["played"]}"]').count() == 1
        shot(page, "review-list")

        # name the killed game, note on it, mark it abandoned: all on its own page
        page.goto(f"{base}/review/{ids['killed']}")
        page.fill("#title-text", "Friday final")
        page.click("#title-form button")
        page.wait_for_function(
            "document.querySelector('#game-title').textContent === 'Friday final'")
        page.fill("#note-text", "power cut in round 2")
        page.click("#note-form button")
        page.wait_for_selector("#notes-list li")
        page.click("#abandon")
        page.wait_for_selector('#game-status[data-i18n="status.abandoned"]')
    with Store(db) as store:
        header = store.game(ids["killed"])
        assert header.title == "Friday final" and header.outcome["abandoned"] is True
        assert [e.payload.get("text") for e in store.events(ids["killed"])
                if e.kind == "note" and e.payload.get("text")] == ["power cut in round 2"]
    with opened(browser, f"{base}/review/?q=friday+power", LAPTOP, "de") as page:
        page.wait_for_selector("#games")
        rows = page.locator("#games tbody tr")
        assert rows.count() == 1 and rows.first.get_attribute("data-game") == str(ids["killed"])
        assert "abgebrochen" in rows.first.inner_text().lower()
    with opened(browser, f"{base}/review/", PHONE, "de") as page:
        page.wait_for_selector("#games")
        no_sideways_scroll(page)


def test_game_page_jumps_plays_links_and_speaks_german(browser: Any, library: Any) -> None:
    base, db, ids = library
    steps = steps_of(db, ids["played"])
    violations = [i for i, s in enumerate(steps) if s["kind"] == "violation"]
    assert len(violations) >= 2
    url = f"{base}/review/{ids['played']}"
    with opened(browser, url, LAPTOP, "en") as page:
        page.wait_for_selector("#timeline .tl-item")
        assert page.text_content("#step-text") == steps[0]["text_en"]
        page.click("#next-violation")
        assert page.text_content("#step-index") == str(violations[0] + 1)
        assert page.text_content("#step-text") == steps[violations[0]]["text_en"]
        page.click("#next-violation")
        assert page.text_content("#step-index") == str(violations[1] + 1)
        page.click("#prev-violation")
        assert page.text_content("#step-index") == str(violations[0] + 1)
        # the address names the step shown: a link to it opens it
        link = page.url
        assert link.endswith(f"#step={steps[violations[0]]['seq']}")
        # autoplay moves on by itself until paused
        page.click("#first")
        page.select_option("#speed", "250")
        page.click("#play")
        page.wait_for_function("Number(document.querySelector('#step-index').textContent) >= 4")
        page.click("#play")
        stopped = page.text_content("#step-index")
        assert page.get_attribute("#play", "data-playing") == "no"
        page.click("#next")
        assert page.text_content("#step-index") == str(int(stopped or 0) + 1)
        # the keyframe is large enough to read, and larger still on a click
        page.click("#first")
        kf = assert_seen(page, "#keyframe")
        assert kf["width"] >= 400
        page.click("#keyframe")
        page.wait_for_selector("#keyframe-zoom:not([hidden])")
        assert box(page, "#keyframe-zoom-img")["width"] >= 900
        page.click("#keyframe-zoom")
        page.click("#next-violation")  # a violation with its rule reference, in English
        found = page_problems(page, "trick-or-beat", "en", ["Ada", "Bo"])
        assert not found, "\n".join(found)
        shot(page, "review-game")
    with opened(browser, link, LAPTOP, "de") as page:
        page.wait_for_selector("#timeline .tl-item")
        assert page.text_content("#step-index") == str(violations[0] + 1)
        german = steps[violations[0]]["text_de"]
        assert page.text_content("#step-text") == german != steps[violations[0]]["text_en"]
        assert "Regelheft" in page.text_content(".step-card .v-rule")
        found = page_problems(page, "trick-or-beat", "de", ["Ada", "Bo"])
        assert not found, "\n".join(found)
        assert page.get_attribute("#download", "href").endswith("export.html?lang=de")
        shot(page, "review-game-de")
    with opened(browser, url, PHONE, "en") as page:
        page.wait_for_selector("#timeline .tl-item")
        no_sideways_scroll(page)
        assert_seen(page, "#next-violation")


def test_the_review_keys_step_play_and_close_the_picture(browser: Any, library: Any) -> None:
    """The review page's keys: arrows step back and forth, Space plays and pauses, Escape
    closes the enlarged keyframe."""
    base, db, ids = library
    steps = steps_of(db, ids["played"])
    with opened(browser, f"{base}/review/{ids['played']}", LAPTOP, "en") as page:
        page.wait_for_selector("#timeline .tl-item")
        assert page.text_content("#step-index") == "1"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert page.text_content("#step-index") == "3"
        assert page.text_content("#step-text") == steps[2]["text_en"]
        page.keyboard.press("ArrowLeft")
        assert page.text_content("#step-index") == "2"
        page.select_option("#speed", "250")
        page.focus("#timeline")
        page.keyboard.press(" ")
        assert page.get_attribute("#play", "data-playing") == "yes"
        page.wait_for_function("Number(document.querySelector('#step-index').textContent) >= 4")
        page.keyboard.press(" ")
        assert page.get_attribute("#play", "data-playing") == "no"
        page.click("#keyframe")
        page.wait_for_selector("#keyframe-zoom:not([hidden])")
        page.keyboard.press("Escape")
        page.wait_for_selector("#keyframe-zoom", state="hidden")


def test_exported_html_works_without_the_companion(browser: Any, library: Any,
                                                  tmp_path: Path) -> None:
    from companion.record.html import export_html

    _base, db, ids = library
    with Store(db) as store:
        html = export_html(store, ids["played"], "de")
    page_file = tmp_path / "game.html"
    page_file.write_text(html, encoding="utf-8")
    steps = steps_of(db, ids["played"])
    first_violation = next(i for i, s in enumerate(steps) if s["kind"] == "violation")
    with opened(browser, page_file.as_uri(), LAPTOP, "en") as page:
        page.wait_for_selector("#timeline .tl-item")
        assert page.evaluate("document.documentElement.lang") == "de"  # --lang de wins
        assert page.locator("#timeline .tl-item").count() == len(steps)
        assert page.get_attribute("#keyframe", "src").startswith("data:image/jpeg;base64,")
        page.click("#next-violation")
        assert page.text_content("#step-text") == steps[first_violation]["text_de"]
        assert page.locator("#note-form").count() == 0  # nothing to change in a sent file
        shot(page, "export")
