"""A question a real game asks leaves its cards in view (issue 33). Of the demos only My Little
Pony's asks one, and its readings move no card on the mat (a card drawn or not), so the
question measured here is Creature Crush's bundled "rules-undeclared-attack": an attack the
players did not declare, read two ways (which creature attacked). Played through the live
session up to that step, the question left open; in headless Chromium at 1366x768 (table and
referee view) and on a 390x844 phone it covers none of the cards its readings move, and its
buttons stay inside it. (A made-up question with long readings, and every game's violations
at game over, are measured in test_table_stays_visible.py.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.server.live_setup import serve_in_thread
from tests.browser.conftest import LAPTOP, PHONE, no_sideways_scroll, opened, shot
from tests.browser.test_table_stays_visible import (
    alert_clear_of,
    box,
    boxes,
    card_boxes,
    inside,
    overlap,
    settled,
    wait_seq,
)
from tests.live_tables import scripted

pytestmark = pytest.mark.browser


def _cards_of(question: dict[str, Any]) -> list[str]:
    """The cards the question's readings move or aim at, as the engine names them."""
    named = {c for choice in question["choices"] for move in choice["moves"]
             for c in [*move.get("cards", []), move.get("target")]}
    return sorted(c for c in named if c and c != "?")


def asked_clear_of(page: Any, cards: list[str], what: str) -> str:
    """Where the question is asked (across the mat, or in the box beside the table when no
    band of the mat holds it); it covers none of `cards`, its buttons are inside it and in
    the window. Returns "alert" or "beside"."""
    page.wait_for_selector('#alert[data-kind="question"]:not([hidden]), #question[open]')
    settled(page)
    drawn = card_boxes(page, cards)
    assert drawn, f"{what}: none of the question's cards is drawn"
    if page.is_visible("#alert"):
        alert_clear_of(page, cards, what)
        return "alert"
    asked = box(page, "#question")
    for uid, card in drawn.items():
        assert overlap(asked, card) == 0, f"{what}: the question covers {uid}"
    assert overlap(asked, box(page, "#mat")) == 0, f"{what}: the box beside is over the mat"
    buttons = boxes(page, "#question-choices .btn")
    assert len(buttons) >= 2
    for button in buttons:
        assert inside(button, asked), f"{what}: a reading sticks out: {button}"
        assert button["bottom"] <= asked["vh"] + 0.5, f"{what}: a reading below the fold"
    return "beside"


def test_a_real_question_leaves_its_cards_in_view(browser: Any, tmp_path: Path) -> None:
    """Three pages open while the game is played (a question pops up as it comes): the table
    view at 1366x768 and on a phone, and the referee view at 1366x768; each answers by key."""
    with scripted("creature-crush", tmp_path / "g.db", "rules-undeclared-attack") as table:
        session = table.session
        server, _ = serve_in_thread(table.live.app, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{server.server_port}/"
        try:
            with opened(browser, url, LAPTOP, "en", view="table") as laptop, \
                    opened(browser, url, PHONE, "en", view="table") as phone, \
                    opened(browser, url, LAPTOP, "en", view="referee") as referee:
                for page in (laptop, phone, referee):
                    page.wait_for_selector('#conn[data-state="live"]')
                while not table.asked and table.step(answer=False):
                    pass
                assert table.asked, "the script asks no question any more"
                cards = _cards_of(session.state()["question"])
                assert cards, "the question moves no card"
                seq = session.state()["seq"]
                for page, name in ((laptop, "laptop"), (phone, "phone"), (referee, "referee")):
                    wait_seq(page, seq)
                    where = asked_clear_of(page, cards, name)
                    assert where == ("alert" if page is phone else "beside"), (name, where)
                    no_sideways_scroll(page)
                    shot(page, f"real-question-{name}")
                laptop.keyboard.press("2")  # the table view's box beside answers by key too
                laptop.wait_for_selector("#question:not([open])", state="attached")
            answered = [e for e in session.store.events(session.game_id) if e.kind == "answer"]
            assert [e.payload["choice"] for e in answered] == [1]
        finally:
            server.shutdown()
