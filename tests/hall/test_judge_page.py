"""The floor judges' phone view in headless Chromium at 390x844: tables with open violations
first with their round clocks, a link to the recorded moment that opens the table's own review
page at that step (and the hall's copy), and every player's history following the decisions
the tables record."""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path
from typing import Any

import pytest

from companion.hall.loop import LoopThread
from companion.hall.natsd import NatsServer
from companion.hall.runtime import Hall
from companion.server.app import create_app
from companion.server.live_setup import serve_in_thread
from companion.tournaments.book import Settings, TournamentBook
from tests.browser.conftest import PHONE, box, opened, shot
from tests.hall.conftest import wait_until
from tests.hall.helpers import Table, deck_phase

pytestmark = [pytest.mark.browser]
PLAYERS = ("Ada", "Bo", "Cy", "Di")


def step(t: Table, kind: str, payload: dict[str, Any]) -> int:
    seq = t.store.append(t.game, kind, "camera" if kind == "observation" else "automatic",
                         payload).seq
    t.rings += 1
    return seq


def bad_move(t: Table, seat: str, text: str, code: str) -> int:
    """A move by `seat` that breaks a rule; returns the violation's seq."""
    owner = step(t, "observation", {})
    move = step(t, "move", {"move": {"kind": "attack", "player": seat}, "text_en": "attack",
                            "text_de": "Angriff", "legal": False, "input": owner,
                            "state": {"turn": 3, "active": seat, "phase": "attack",
                                      "phase_name": "Attack", "scores": {"p1": 1, "p2": 2}}})
    return step(t, "violation", {"code": code, "message_en": text, "message_de": text,
                                 "rule": "Rulebook, Attack", "cards": [], "zones": [],
                                 "lifted_by": None, "move_seq": move, "input": owner,
                                 "move_text_en": "attack", "move_text_de": "Angriff"})


def decide(t: Table, violation: int, decision: str) -> None:
    step(t, "decision", {"violation": violation, "decision": decision, "move_seq": None,
                         "off": [], "on": [], "text_en": decision, "text_de": decision})


def test_judges_walk_the_floor_with_the_phone_view(
        nats_server: NatsServer, loop: LoopThread, tmp_path: Path, browser: Any) -> None:
    hall_db = tmp_path / "hall.db"
    with TournamentBook(hall_db) as book:
        tid = book.create(Settings(players=PLAYERS, seed=4, tables=("north", "south")), "Cup")
        deck_phase(book, tid, PLAYERS)
        matches = {book.load(tid).table_of(m): m for m in book.load(tid).tournament.matches}
    hall = Hall(hall_db, nats_server.url, heartbeat_s=0.5, round_minutes=50)
    hall.start("127.0.0.1", 0)
    base = f"http://127.0.0.1:{hall.port}"
    north_m, south_m = matches["north"], matches["south"]
    tables = {
        "north": Table(tmp_path, "north", loop, nats_server.url, (north_m.a, north_m.b)),
        "south": Table(tmp_path, "south", loop, nats_server.url, (south_m.a, south_m.b)),
        "east": Table(tmp_path, "east", loop, nats_server.url, ("Eve", "Fay")),
    }
    # north's own page: its review pages, as `serve --host 0.0.0.0` offers them to the hall
    own = create_app({"DATABASE": tmp_path / "north.db", "SESSION": None, "HEARTBEAT_S": 0.5,
                      "PIN": None})
    own_server, _ = serve_in_thread(own, "127.0.0.1", 0)
    north_url = f"http://127.0.0.1:{own_server.server_port}/"
    north, south, east = tables["north"], tables["south"], tables["east"]
    north.outbox.register(north.game, "north", north_url)
    try:
        for t in tables.values():
            t.start()
        east.move(1)
        v_north = bad_move(north, "p1", f"{north_m.a} attacks twice this turn.",
                           "ch.two-attacks")
        v_south_1 = bad_move(south, "p2", f"The bench is full: {south_m.b} may not recruit.",
                             "ch.bench-full")
        decide(south, v_south_1, "stands")
        v_south_2 = bad_move(south, "p2", f"{south_m.b} plays a tactic in the wrong phase.",
                             "ch.tactic-phase")
        wait_until(lambda: all((hall.view.table(n) or {}).get("seq") == t.seqs()[-1]
                               for n, t in tables.items()), what="every table at the hall")
        with opened(browser, base + "/hall/judge", PHONE) as page:
            page.wait_for_function(
                "document.querySelectorAll('.judge-card').length === 3"
                " && document.querySelectorAll('.judge-card.needs').length === 2")
            order = page.eval_on_selector_all(".judge-card", "cs => cs.map(c => c.dataset.table)")
            assert order == ["north", "south", "east"]
            assert page.text_content("#judge-open-count") == "2"
            # the round: 0 of 2 results in, both tables named, the clock runs on
            assert "Round 1 · 0/2 results in · still playing: north, south" in \
                page.text_content("#judge-round")
            clock = page.text_content('.judge-card[data-table="north"] .judge-clock') or ""
            assert re.fullmatch(r"(49:[0-5]\d|50:00) left", clock), clock
            # every open violation with the player it is about and the moment's link
            card = page.locator('.judge-card[data-table="south"]')
            assert card.locator(".judge-item.violation").count() == 1  # the other stands
            assert card.locator(".judge-by").text_content() == south_m.b
            # readable walking: big words, thumb-sized links, nothing wider than the phone
            text = box(page, '.judge-card[data-table="north"] .judge-text')
            link = box(page, '.judge-card[data-table="north"] .judge-moment')
            assert text["font"] >= 17 and link["height"] >= 44 and link["on_top"]
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            shot(page, "judge-tables")
            # the recorded moment: north's own review page, at the violation's step
            with page.expect_popup() as popup_info:
                page.click('.judge-card[data-table="north"] .judge-moment')
            review = popup_info.value
            review.wait_for_selector(".tl-item.current")
            assert review.url == f"{north_url}review/{north.game}?step={v_north}#step={v_north}"
            current = review.locator(".tl-item.current")
            assert "kind-violation" in (current.get_attribute("class") or "")
            assert "attacks twice" in current.inner_text()
            review.close()
            # per player: the history with the tables' decisions
            page.click("#tab-players")
            player = page.locator(f'.judge-player[data-player="{south_m.b}"]')
            player.wait_for()
            page.wait_for_function("document.querySelector('#judge-players')"
                                   ".getBoundingClientRect().top < 150")
            tabs = box(page, ".judge-tabs")  # the tabs stay at the top while scrolling
            assert tabs["top"] <= 1 and tabs["on_top"]
            assert player.locator(".judge-entry").count() == 2
            assert [e.get_attribute("data-decision") for e in
                    player.locator(".judge-entry").all()] == ["stands", "open"]
            assert "1 open" in player.locator("summary").inner_text()
            assert "Round 1 · south" in player.locator(".judge-entry").first.inner_text()
            shot(page, "judge-players")
            # north's judge decides at the table: the hall's view follows by itself
            decide(north, v_north, "stands")
            page.wait_for_function(
                "document.querySelectorAll('.judge-card.needs').length === 1")
            ada = page.locator(f'.judge-player[data-player="{north_m.a}"] .judge-entry')
            page.wait_for_function(
                f"document.querySelector('.judge-player[data-player=\"{north_m.a}\"]"
                " .judge-entry').dataset.decision === 'stands'")
            assert ada.count() == 1
            # the hall's own copy of a moment (one PIN for the judges: the hall's)
            wait_until(lambda: hall.archive is not None and hall.archive.local_game(
                south.outbox.db_id, south.game) is not None, what="south copied")
            with page.expect_popup() as popup_info:
                player.locator(".judge-entry").last.locator("a", has_text="hall copy").click()
            copy = popup_info.value
            copy.wait_for_selector(".tl-item.current")
            assert copy.url.endswith(f"?step={v_south_2}#step={v_south_2}")
            assert "wrong phase" in copy.locator(".tl-item.current").inner_text()
            copy.close()
        # the same in German
        with opened(browser, base + "/hall/judge", PHONE, lang="de") as page:
            page.wait_for_function("document.querySelectorAll('.judge-card.needs').length"
                                   " === 1")
            assert "Runde 1 · 0/2 Ergebnisse da · spielen noch: north, south" in \
                page.text_content("#judge-round")
            assert re.fullmatch(r"\d\d:\d\d übrig",
                                page.text_content(".judge-clock") or "")
            assert page.locator(".judge-moment").first.text_content() == \
                "Aufgezeichnete Stelle ›"
            shot(page, "judge-tables-de")
        # the hall page shows each table's clock too
        with opened(browser, base + "/hall/", {"width": 1366, "height": 768}) as page:
            page.wait_for_function("document.querySelectorAll('.hall-clock').length === 3")
            page.wait_for_function(
                "[...document.querySelectorAll('.hall-clock')].every(c => / left$/"
                ".test(c.textContent))")
            shot(page, "hall-clocks")
    finally:
        for t in tables.values():
            t.close()
        own_server.shutdown()
        hall.close()


def test_eight_tables_three_with_open_violations_every_row_readable(
        tmp_path: Path, browser: Any) -> None:
    """The hall page at 1366x768 and the judges' view at 390x844 with 8 tables, 3 of them with
    an open violation: every row and card stays in its place, uncovered, in order."""
    from companion.hall.judges import RoundClocks
    from companion.hall.view import HallView
    from companion.hall.web import HallState, create_hall_app
    from tests.hall.test_judges import bad, feed, header, mv, obs

    view = HallView()
    state = HallState(view, lambda: None, lambda: {"nats": "online"}, clocks=RoundClocks(50))
    names = [f"table-{n}" for n in range(1, 9)]
    for n, name in enumerate(names):
        db = f"db{n}"
        messages = [header(name, db=db, players=[f"Player {2 * n + 1}", f"Player {2 * n + 2}"]),
                    obs(name, 1, db=db), mv(name, 2, "p1", 1, db=db)]
        if n in (1, 4, 6):
            messages.append(bad(name, 3, 2, 1, db=db, code=f"rule-{n}"))
        for message in messages[1:]:  # recorded at the table half a minute ago
            message.body["time"] = time.time() - 30
        # matches started 10 minutes ago; table-7's 55 minutes ago: over time
        feed(view, messages, at=time.time() - (55 if n == 6 else 10) * 60)
    app = create_hall_app(tmp_path / "hall.db", state, heartbeat_s=0.5)
    server, _ = serve_in_thread(app, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with opened(browser, base + "/hall/", {"width": 1366, "height": 768}) as page:
            page.wait_for_function("document.querySelectorAll('#hall-rows tr').length === 8")
            order = page.eval_on_selector_all("#hall-rows tr", "rs => rs.map(r => r.dataset.table)")
            assert order[:3] == ["table-2", "table-5", "table-7"]
            rows = [box(page, f'#hall-rows tr[data-table="{n}"]') for n in order]
            for above, below in itertools.pairwise(rows):
                assert above["bottom"] <= below["top"] + 1  # stacked, none over another
            head = box(page, ".hall-table thead")
            assert head["bottom"] <= rows[0]["top"] + 1 and head["on_top"]
            shot(page, "hall-8-tables")
            for n in order:  # every row shows its own name, uncovered
                cell = f'#hall-rows tr[data-table="{n}"] .hall-name'
                page.locator(cell).scroll_into_view_if_needed()
                assert box(page, cell)["on_top"], n
        with opened(browser, base + "/hall/judge", PHONE) as page:
            page.wait_for_function("document.querySelectorAll('.judge-card').length === 8")
            assert page.text_content("#judge-open-count") == "3"
            cards = page.eval_on_selector_all(".judge-card", "cs => cs.map(c => c.dataset.table)")
            assert cards == order
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            over = page.text_content('.judge-card[data-table="table-7"] .judge-clock') or ""
            assert re.fullmatch(r"\+0[45]:\d\d over time", over), over
            name = box(page, '.judge-card[data-table="table-7"] .judge-table-name')
            assert name["height"] < 40  # one line: the clock never squeezes the name
            shot(page, "judge-8-tables")
    finally:
        server.shutdown()
