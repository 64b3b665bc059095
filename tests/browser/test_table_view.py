"""The table view read from the chairs, for all five games in both languages, at 1366x768 and
on a 390 px phone: whose turn in the player's colour (>= 48 px), the phase strip with the
current phase lit, names, scores and hand sizes beside each half of the mat, an alert seen and
heard for a new violation, and game over as a banner over the mat with play stopped (open
violations are still decided there).

The games are played from their bundled opening scripts straight into the live session (no
camera); what the page must show is read from the engine, the simulator's true table and the
recording, never from the page's own data; every line the page shows is in the page's
language and in names (tests/language_oracle.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.api import Move
from companion.server.live_setup import serve_in_thread
from tests.browser.conftest import LAPTOP, PHONE, assert_seen, box, no_sideways_scroll, opened, shot
from tests.language_oracle import page_problems
from tests.live_tables import ScriptedTable, scripted

pytestmark = pytest.mark.browser

STEPS = {"trick-or-beat": 20, "fire-emblem-cipher": 12, "my-little-pony-ccg": 10,
         "challengers": 8, "creature-crush": 8}
"""How far into each opening script the table view is looked at (mid-game, cards out)."""
TURN_WORDS = {"en": "{name}'s turn", "de": "{name} ist am Zug"}
WINS = {"en": "{name} wins", "de": "{name} gewinnt"}
GAME_OVER = {"en": "Game over", "de": "Partie vorbei"}


def phase_label(table: ScriptedTable, lang: str) -> str:
    """The current phase as the rulebook-based flow spec names it (the strip drops a trailing
    " phase"; a German compound stays whole)."""
    game = table.engine()
    name = game.ruleset.flow.phase(game.phase).name.get(lang)
    return name.removesuffix(" phase").removesuffix(" Phase")


def wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=seq)


@pytest.mark.parametrize("game", sorted(STEPS))
def test_table_view_reads_from_the_chairs(browser: Any, game: str, tmp_path: Path) -> None:
    with scripted(game, tmp_path / "g.db") as table:
        table.play(STEPS[game])
        session = table.session
        server, _ = serve_in_thread(table.live.app, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{server.server_port}/"
        try:
            for lang in ("en", "de"):
                check_laptop(browser, table, url, lang)
            check_phone(browser, table, url)
            check_alert_and_sound(browser, table, url)
            check_game_over(browser, table, url)
        finally:
            server.shutdown()
        assert session.state()["outcome"] is not None


def check_laptop(browser: Any, table: ScriptedTable, url: str, lang: str) -> None:
    session, game = table.session, table.engine()
    players = session.header.players
    with opened(browser, url, LAPTOP, lang, view="table") as page:
        page.wait_for_selector('#conn[data-state="live"]')
        wait_seq(page, session.state()["seq"])
        name = players[0] if game.active == "p1" else players[1]
        # whose turn: the active player's name, >= 48 px, in that player's colour
        assert page.text_content("#banner-who") == TURN_WORDS[lang].format(name=name)
        banner = assert_seen(page, "#banner-who", min_font=48)
        seat = page.locator(f'.seat[data-player="{game.active}"] .seat-name')
        other = page.locator(f'.seat[data-player="{"p2" if game.active == "p1" else "p1"}"]'
                             " .seat-name")
        assert banner["color"] == seat.evaluate("e => getComputedStyle(e).color")
        assert banner["color"] != other.evaluate("e => getComputedStyle(e).color")
        # the phase strip lights exactly the current phase
        assert page.locator("#phase-strip .phase.current").count() == 1
        assert page.text_content("#phase-strip .phase.current") == phase_label(table, lang)
        assert_seen(page, "#phase-strip .phase.current", min_font=18)
        # names and scores beside their own half of the mat; hand sizes as the table has them
        mat = box(page, "#mat")
        top, bottom = box(page, "#seat-top"), box(page, "#seat-bottom")
        assert top["top"] < (mat["top"] + mat["bottom"]) / 2 < bottom["bottom"]
        assert top["right"] <= mat["left"] + 1  # beside the mat, not on it
        assert page.text_content("#seat-top .seat-name") == players[1]  # p2 sits at the top
        assert page.text_content("#seat-bottom .seat-name") == players[0]
        for seat_id in ("#seat-top", "#seat-bottom"):
            assert_seen(page, f"{seat_id} .seat-name", min_font=28)
            assert_seen(page, f"{seat_id} .seat-score-value", min_font=40)
        scores = game.scores()
        for p, seat_id in (("p2", "#seat-top"), ("p1", "#seat-bottom")):
            assert page.text_content(f"{seat_id} .seat-score-value") == str(scores[p].value)
            truth = table.truth[table.done]
            hand = page.locator(f'{seat_id} .fact[data-key="hand"] dd')
            if hand.count():
                assert hand.text_content() == str(len(truth.hand(p)))
        no_sideways_scroll(page)
        found = page_problems(page, table.script.game, lang, list(players))
        assert not found, "\n".join(found)  # one language, names not ids
        shot(page, f"table-{table.script.game}-{lang}")


def check_phone(browser: Any, table: ScriptedTable, url: str) -> None:
    with opened(browser, url, PHONE, "de", view="table") as page:
        page.wait_for_selector('#conn[data-state="live"]')
        no_sideways_scroll(page)
        assert_seen(page, ".lang-switch")
        assert_seen(page, "#banner-who", min_font=30)
        assert_seen(page, "#phase-strip .phase.current")
        shot(page, f"phone-{table.script.game}")


def check_alert_and_sound(browser: Any, table: ScriptedTable, url: str) -> None:
    session = table.session
    with opened(browser, url, LAPTOP, "en", view="table") as page:
        page.wait_for_selector('#conn[data-state="live"]')
        wait_seq(page, session.state()["seq"])
        assert page.locator("#alert").is_hidden()  # old violations do not ring again
        move = table.illegal()
        assert move is not None, "the ruleset offers no illegal example"
        session.person_moves((move,))
        newest = session.state()["violations"][-1]
        page.wait_for_selector(f'#alert[data-seq="{newest["seq"]}"]:not([hidden])')
        assert page.text_content("#alert-text") == newest["message_en"]
        assert_seen(page, "#alert-text", min_font=28)
        assert_seen(page, "#banner-who", min_font=48)  # the alert leaves whose turn readable
        for seat_id in ("#seat-top", "#seat-bottom"):  # and the names and scores
            assert_seen(page, f"{seat_id} .seat-name")
            assert_seen(page, f"{seat_id} .seat-score-value")
        assert page.get_attribute("body", "data-sounds") == "1"
        shot(page, f"alert-{table.script.game}")
        # sound off: the next violation is shown, not heard
        page.click("#sound-toggle")
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
        session.person_moves((move,))
        newer = session.state()["violations"][-1]
        page.wait_for_selector(f'#alert[data-seq="{newer["seq"]}"]:not([hidden])')
        assert page.get_attribute("body", "data-sounds") == "1"
        # a decision taken in the alert is recorded and the alert goes
        page.click('#alert-actions button[data-decision="stands"]')
        page.wait_for_selector("#alert", state="hidden")
        decided = {e.payload.get("violation"): e.payload.get("decision")
                   for e in session.store.events(session.game_id) if e.kind == "decision"}
        assert decided.get(newer["seq"]) == "stands"
    with opened(browser, url, LAPTOP, "de", view="table") as page:  # the German table
        page.wait_for_selector('#conn[data-state="live"]')
        wait_seq(page, session.state()["seq"])
        session.person_moves((move,))
        newest = session.state()["violations"][-1]
        page.wait_for_selector(f'#alert[data-seq="{newest["seq"]}"]:not([hidden])')
        assert page.text_content("#alert-kind") == "Regelverstoß"
        assert page.text_content("#alert-text") == newest["message_de"] != newest["message_en"]
        assert_seen(page, "#alert-text", min_font=28)
        assert page.get_attribute("body", "data-sounds") == "1"
        shot(page, f"alert-{table.script.game}-de")


def check_game_over(browser: Any, table: ScriptedTable, url: str) -> None:
    session = table.session
    players = session.header.players
    for lang in ("en", "de"):
        with opened(browser, url, LAPTOP, lang, view="referee") as page:
            page.wait_for_selector('#conn[data-state="live"]')
            if session.state()["outcome"] is None:
                wait_seq(page, session.state()["seq"])
                session.person_moves((Move("concede", "p2"),))
            page.wait_for_selector("#gameover:not([hidden])")
            assert page.text_content(".gameover-title") == GAME_OVER[lang]
            assert page.text_content("#gameover-winner") == WINS[lang].format(name=players[0])
            title = assert_seen(page, ".gameover-title", min_font=48)
            mat = box(page, "#mat")
            assert mat["left"] <= title["left"] and title["right"] <= mat["right"]  # over it
            # play is over: phases, turns, offers and declarations; a referee still decides
            # the open violations and may undo the last step to play on
            enabled = page.locator("#referee button:enabled, #referee input:enabled, "
                                   "#controls [data-action]:enabled")
            assert enabled.count() == 0
            assert page.locator("#controls [data-action]").count() == 2
            assert page.is_enabled("#undo")
            open_ = page.locator(".violation.open button[data-decision]")
            assert open_.count() == page.locator(".violation.open button[data-decision]:enabled"
                                                 ).count()
            assert page.text_content("#banner-who") == WINS[lang].format(name=players[0])
            found = page_problems(page, table.script.game, lang, list(players))
            assert not found, "\n".join(found)  # the referee view: log, violations, prompt
            shot(page, f"gameover-{table.script.game}-{lang}")
