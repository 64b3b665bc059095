"""The referee view on a real game, the demo's "play again", questions and reconnection (the
last two on the fake referee). Every wait is a condition, never a clock."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from companion.server.live_setup import serve_in_thread
from tests.browser.conftest import LAPTOP, assert_seen, open_live, opened, shot
from tests.live_tables import scripted

if TYPE_CHECKING:
    from companion.record.store import Store
    from companion.server.session import LiveSession

pytestmark = pytest.mark.browser


@contextmanager
def fake_table(tmp_path: Path, name: str,
               referee: Any = None) -> Iterator[tuple[LiveSession, Store, str]]:
    """A live session on the fake referee (Creature Crush's layout), served on a free port:
    (session, store, page address); all three closed after."""
    from companion.record.store import GameHeader, Store
    from companion.server.bus import EventBus
    from companion.server.session import LiveSession
    from tests.server.conftest import make_app
    from tests.server.fakes import LAYOUT, FakeReferee, card_info

    store = Store(tmp_path / name)
    session = LiveSession(referee if referee is not None else FakeReferee(), store, EventBus(),
                          GameHeader(game="creature-crush", players=("Ada", "Bo"),
                                     ruleset_version="fake-1"), LAYOUT, card_info)
    server, _ = serve_in_thread(make_app(session), "127.0.0.1", 0)
    try:
        yield session, store, f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        session.bus.close()
        store.close()


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    """One page for the tests on the fake referee (their own servers)."""
    with opened(browser, "about:blank", {"width": 1360, "height": 900}, "en") as pg:
        yield pg


def test_referee_enters_what_the_camera_cannot_see(browser: Any, tmp_path: Path) -> None:
    """On a real Trick or Beat game: an offered attack and "next phase" are entered and logged
    as "person"; a decision can be changed; a note is recorded; a card tells all about it."""
    from companion.cardsets import load_cardset

    with scripted("trick-or-beat", tmp_path / "g.db") as table:
        table.play(22)  # Ada's main phase: her creatures may attack
        session, store = table.session, table.live.store
        server, _ = serve_in_thread(table.live.app, "127.0.0.1", 0)
        try:
            with opened(browser, f"http://127.0.0.1:{server.server_port}/", LAPTOP, "en",
                        view="referee") as pg:
                pg.wait_for_selector('#conn[data-state="live"]')
                attack = pg.wait_for_selector('#offers-person .btn.offer[data-kind="attack"]')
                said = attack.inner_text().strip()
                seq_before = int(pg.get_attribute("body", "data-seq"))
                attack.click()
                pg.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq_before)
                top = pg.locator("#log .log-item").first
                assert top.locator(".log-text").inner_text().strip() == said
                assert top.locator(".log-source").inner_text().strip().lower() == "person"
                entered = [e for e in store.events(session.game_id) if e.kind == "move"][-1]
                assert entered.source == "person" and entered.payload["move"]["kind"] == "attack"
                head = pg.text_content(".prompt-head")
                pg.click('button[data-action="next-phase"]')
                pg.wait_for_function(
                    "h => document.querySelector('.prompt-head').textContent !== h", arg=head)
                assert session.state()["log"][-1]["source"] == "person"

                # a broken rule: decided "stands", then changed to "corrected"
                move = table.illegal()
                assert move is not None
                session.person_moves((move,))
                vseq = session.state()["violations"][-1]["seq"]
                item = f'.violation[data-seq="{vseq}"]'
                pg.wait_for_selector(item)
                assert_seen(pg, f"{item} .v-message")  # an open violation is above the fold
                pg.click(f'{item} button[data-decision="stands"]')
                pg.wait_for_selector(f"{item}.decided.stands")
                pg.click(f"{item} button[data-change]")
                pg.click(f'{item} button[data-decision="corrected"]')
                pg.wait_for_selector(f"{item}.decided.corrected")
                decisions = [e.payload["decision"] for e in store.events(session.game_id)
                             if e.kind == "decision" and e.payload.get("violation") == vseq]
                assert decisions == ["stands", "corrected"]

                # a note for the record
                pg.fill("#note-text", "Bo disputes the attack")
                pg.click("#note-form button")
                pg.wait_for_selector("#toast:not([hidden])")
                notes = [e.payload.get("text") for e in store.events(session.game_id)
                         if e.kind == "note"]
                assert "Bo disputes the attack" in notes

                # hover a card: everything the cardset knows about it
                card = pg.locator("#mat .card-g[data-id]").first
                card_id = card.get_attribute("data-id")
                known = load_cardset("trick-or-beat").get(card_id)
                card.hover()
                pg.wait_for_selector(f'#card-panel[data-id="{card_id}"]:not([hidden])')
                assert pg.text_content("#card-panel .cp-name") == known.name
                text = pg.text_content("#card-panel")
                for key in ("attack", "survival"):
                    if key in known.fields:
                        assert str(known.fields[key]) in text
                assert_seen(pg, "#card-panel")
                shot(pg, "referee-view")
        finally:
            server.shutdown()


def test_demo_offers_play_again(browser: Any, tmp_path: Path) -> None:
    """A finished demo is played again from the page: a new recorded game on the same page."""
    from companion.referee.script import config_from_script
    from companion.server.demo_tools import play_again
    from companion.server.feeds import SnapshotFeed
    from companion.server.live_setup import build_live
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots
    from tests.live_tables import script_path

    script = load_script(script_path("creature-crush"))
    snaps = script_snapshots(script)

    def build() -> Any:
        return build_live(config_from_script(script), SnapshotFeed(snaps), tmp_path / "d.db",
                          "demo: opening")

    live = build()
    live.app.config["DEMO_AGAIN"] = lambda: play_again(live, build)
    server, _ = serve_in_thread(live.app, "127.0.0.1", 0)
    try:
        with opened(browser, f"http://127.0.0.1:{server.server_port}/", LAPTOP, "de") as pg:
            pg.wait_for_selector('#conn[data-state="live"]')
            live.runner.start()
            pg.wait_for_selector('#health[data-status="finished"]')
            first = pg.get_attribute("body", "data-record")
            pg.wait_for_selector("#play-again:not([hidden])")
            assert pg.text_content("#play-again") == "Nochmal spielen"
            pg.click("#play-again")
            pg.wait_for_function("r => document.body.dataset.record !== r", arg=first)
            assert int(pg.get_attribute("body", "data-record")) == live.session.game_id
            pg.wait_for_selector('#health[data-status="finished"]')
        games = live.store.games()
        assert len(games) == 2 and games[0].id != games[1].id
    finally:
        server.shutdown()
        live.close()


def test_question_from_the_interpreter_is_a_choice_dialog(tmp_path: Path, page: Any) -> None:
    """An ambiguous table change opens a dialog; the choice is recorded (fake referee; the
    browser of the demo test is reused, its demo is not needed)."""
    from tests.server.fakes import table

    with fake_table(tmp_path, "q.db") as (session, store, url):
        open_live(page, url)
        session.observe(table(("T1#1", "p1.A1")))
        session.observe(table(("T1#1", "p1.A1"), ("T2#1", "shared.unsure")))
        page.wait_for_selector("#question[open]", timeout=10_000)
        assert page.text_content("#question-text") == "Attack or block?"
        shot(page, "question")
        page.click('#question-choices .btn.choice[data-choice="1"]')
        page.wait_for_selector("#question:not([open])", state="attached", timeout=10_000)
        page.wait_for_selector("#question-reopen[hidden]", state="attached")
        answered = [e for e in store.events(session.game_id) if e.kind == "answer"]
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


def test_other_engineers_keys_show_in_plain_words(page: Any, tmp_path: Path) -> None:
    """What the session adds for the page (undo/redo history, a paused recording, game over)
    and what the rules infer by themselves, in plain words; the board turns for the player
    across the table (fake referee, its state extended as the server's branch will)."""
    from tests.server.fakes import table

    with fake_table(tmp_path, "k.db") as (session, _, url):
        plain_state = session.state

        def state(lang: str = "en") -> dict[str, Any]:
            data = plain_state(lang)
            data["history"] = {"can_undo": True, "can_redo": True,
                               "last": {"text_en": "Undone: Ada plays Testling",
                                        "text_de": "Zurückgenommen: Ada spielt Testling"}}
            data["recording"] = {"status": "paused", "message_en": "OSError: the disk is full",
                                 "message_de": "OSError: die Festplatte ist voll"}
            data["log"] = [*data["log"], {"seq": 99, "kind": "phase", "source": "automatic",
                                          "corrected_from": None,
                                          "move": {"text_en": "Bo's turn", "text_de": "Bo ist dran",
                                                   "reason_en": "Bo drew a card",
                                                   "reason_de": "Bo hat eine Karte gezogen"}}]
            data["game_over"] = False
            return data

        session.state = state  # type: ignore[method-assign]
        page.goto(url)
        page.evaluate("localStorage.setItem('companion.lang', 'en');"
                      "localStorage.setItem('companion.view', 'referee');"
                      "localStorage.setItem('companion.turned', 'no')")
        page.reload()
        page.wait_for_selector('#conn[data-state="live"]')
        session.observe(table(("T1#1", "p1.A1")))
        session.camera("lost", detail="SourceError: cannot open camera 0",
                       detail_de="SourceError: Kamera 0 lässt sich nicht öffnen")
        page.wait_for_selector('#health[data-status="lost"]')
        assert page.text_content("#health-status") == "camera lost: cannot open camera 0"
        assert page.is_visible("#redo") and page.is_enabled("#redo")
        assert page.text_content("#history-line") == "Undone: Ada plays Testling"
        warning = page.text_content("#recording-warning")
        assert warning == "Recording paused: the disk is full"
        auto = page.locator('#log .log-item.automatic .log-text')
        assert auto.first.text_content() == "automatic: Bo's turn (Bo drew a card)"
        page.click('.lang-switch button[data-lang="de"]')
        assert auto.first.text_content() == \
            "automatisch: Bo ist dran (Bo hat eine Karte gezogen)"
        assert "Error" not in page.evaluate("document.body.innerText")
        page.click('.lang-switch button[data-lang="en"]')
        # turned for the player across the table: the whole board, upside down
        page.click("#turn-toggle")
        page.wait_for_function(
            "getComputedStyle(document.querySelector('#board')).transform"
            ".startsWith('matrix(-1, ')")
        assert page.get_attribute("#turn-toggle", "aria-pressed") == "true"
        page.click("#turn-toggle")
        page.wait_for_function(
            "getComputedStyle(document.querySelector('#board')).transform === 'none'"
            " || getComputedStyle(document.querySelector('#board')).transform"
            ".startsWith('matrix(1, 0, 0, 1')")


def test_a_question_in_the_table_view_is_an_alert_with_its_choices(
    browser: Any, tmp_path: Path
) -> None:
    """At the table nobody opens dialogs: the question is a large alert, heard once, and a
    choice pressed there is recorded (fake referee)."""
    from tests.server.fakes import table

    with fake_table(tmp_path, "q2.db") as (session, store, url):
        with opened(browser, url, LAPTOP, "de", view="table") as pg:
            pg.wait_for_selector('#conn[data-state="live"]')
            session.observe(table(("T1#1", "p1.A1")))
            session.observe(table(("T1#1", "p1.A1"), ("T2#1", "shared.unsure")))
            pg.wait_for_selector('#alert[data-kind="question"]:not([hidden])')
            assert pg.text_content("#alert-text") == "Angriff oder Block?"
            assert_seen(pg, "#alert-text", min_font=28)
            assert pg.locator("#question[open]").count() == 0  # no dialog over the table
            assert pg.get_attribute("body", "data-sounds") == "1"
            shot(pg, "question-alert")
            pg.click('#alert-actions button[data-choice="0"]')
            pg.wait_for_selector("#alert", state="hidden")
        answered = [e for e in store.events(session.game_id) if e.kind == "answer"]
        assert answered and answered[-1].payload["choice"] == 0
        assert session.referee.moves[-1].kind == "attack"  # type: ignore[attr-defined]


def test_many_offers_of_one_kind_fold_their_combinations(tmp_path: Path, page: Any) -> None:
    """Trick or Beat lets any group of ready attackers attack any target: with four ready
    attackers and three targets, 45 attacks. The single attackers and the whole group stay
    in view (15); the 30 combinations between fold away under one line that says how many,
    and open to be entered like any other."""
    from itertools import combinations

    from companion.engine.api import Move
    from companion.server.offers import Offers
    from tests.server.fakes import FakeReferee

    ready = ("A1#1", "A2#1", "A3#1", "A4#1")
    attacks = tuple(Move("attack", "p1", group, target=t) for t in ("S1#1", "S2#1", "S3#1")
                    for n in range(1, 5) for group in combinations(ready, n))

    class Offering(FakeReferee):
        def offers(self, visible: frozenset[str] | None = None) -> Offers:
            return Offers(attacks, (), 0)

    with fake_table(tmp_path, "o.db", Offering()) as (_, _, url):
        page.goto(url)
        page.evaluate("localStorage.setItem('companion.lang', 'en');"
                      "localStorage.setItem('companion.view', 'referee')")
        page.reload()
        page.wait_for_selector('#conn[data-state="live"]')
        group = '#offers-person .offer-group[data-kind="attack"]'
        page.wait_for_selector(f"{group} details.offer-more")
        in_view = page.locator(f"{group} > .btn.offer")
        assert in_view.count() == 15
        sizes = {len(json.loads(in_view.nth(i).get_attribute("data-move"))["cards"])
                 for i in range(in_view.count())}
        assert sizes == {1, 4}
        assert page.text_content(f"{group} details > summary") == "30 more combinations"
        page.click(f"{group} details > summary")
        folded = page.locator(f"{group} details .btn.offer")
        assert folded.count() == 30 and folded.first.is_visible()
        folded.nth(29).scroll_into_view_if_needed()
        shot(page, "offers-folded")


@pytest.mark.parametrize("width", [1024, 1280, 1366])
def test_the_top_bar_holds_its_wrapped_row(browser: Any, tmp_path: Path, width: int) -> None:
    """On a laptop-wide window the top bar's controls (camera health, table view, turn
    around, sound, language) take a second row: the bar grows to hold it, above the page,
    instead of keeping its one-row height and letting the row spill onto the page in light
    letters on a light background."""
    with fake_table(tmp_path, "w.db") as (_, _, url), \
            opened(browser, url, {"width": width, "height": 800}) as page:
        page.wait_for_selector('#conn[data-state="live"]')
        bar = page.evaluate("() => document.querySelector('.topbar').getBoundingClientRect()"
                            ".bottom")
        for part in (".topbar-right", ".lang-switch", "#health"):
            bottom = page.evaluate(f"() => document.querySelector('{part}')"
                                   ".getBoundingClientRect().bottom")
            assert bottom <= bar + 0.5, f"{part} spills below the top bar at {width} px"
        page_top = page.evaluate("() => document.querySelector('main')"
                                 ".getBoundingClientRect().top")
        assert page_top >= bar - 0.5
        shot(page, f"top-bar-{width}")


def test_an_unanswered_question_is_listed_with_its_assumed_reading(
    tmp_path: Path, page: Any
) -> None:
    """Play went on before anybody answered: the referee view lists the question with the
    reading the record assumed; picking the other one puts it on the record instead."""
    from companion.server.live_setup import serve_in_thread
    from tests.server.conftest import make_app
    from tests.server.test_unanswered_questions import deck_top, make_session

    session = make_session(tmp_path / "u.db")
    server, _ = serve_in_thread(make_app(session), "127.0.0.1", 0)
    try:
        open_live(page, f"http://127.0.0.1:{server.server_port}/?view=referee")
        for n in (5, 6, 7, 8):
            session.observe(deck_top(n))
        page.wait_for_selector("#unanswered-card:not([hidden])", timeout=10_000)
        page.keyboard.press("Escape")  # the newer question's dialog: decide later
        assumed = page.text_content("#unanswered .btn.choice.assumed") or ""
        assert "Bo draws a card" in assumed and "(assumed)" in assumed
        shot(page, "unanswered")
        page.click("#unanswered .btn.choice:not(.assumed)")
        page.wait_for_selector("#unanswered-card[hidden]", state="attached", timeout=10_000)
        answered = [e for e in session.store.events(session.game_id) if e.kind == "answer"]
        assert answered and answered[-1].payload.get("off")
    finally:
        server.shutdown()
        session.bus.close()
        session.store.close()


def test_a_card_under_the_lamps_reflection_is_named_and_its_doubt_is_quiet(
    tmp_path: Path, page: Any
) -> None:
    """A bond the camera sees but cannot read (glare): the page says where it lies and what
    to do, and the deploy it would pay for is listed as "not sure", with no alert over the
    board."""
    from companion.server.live_setup import serve_in_thread
    from tests.server.conftest import make_app
    from tests.server.test_glare_referee import _session, _tables

    session = _session(tmp_path)
    server, _ = serve_in_thread(make_app(session), "127.0.0.1", 0)
    try:
        open_live(page, f"http://127.0.0.1:{server.server_port}/?view=referee")
        for table in _tables(range(6, 24))[:12]:
            session.observe(table)
        page.wait_for_selector("#unreadable-card:not([hidden])", timeout=10_000)
        said = page.text_content("#unreadable") or ""
        assert "Bonds" in said and "lamp" in said and "move the card" in said
        page.wait_for_selector("#violations .violation.unsure", timeout=10_000)
        assert "Not sure" in (page.text_content("#violations .violation.unsure") or "")
        assert page.get_attribute("#alert", "hidden") is not None  # no alarm over the board
        mark = page.wait_for_selector('#mat .card-g.unreadable[data-zone="p1.bonds"]')
        assert mark is not None and "?" in (mark.text_content() or "")
        assert page.text_content("#violation-count") == "0"
        shot(page, "unreadable")
    finally:
        server.shutdown()
        session.bus.close()
        session.store.close()


def test_cards_too_far_for_one_laptop_are_named_with_the_second_camera_and_drawn_as_question(
    tmp_path: Path, page: Any
) -> None:
    """One laptop at Ada's edge sees two cards in Bo's zones it cannot read: the page names
    each zone, says a second camera at Bo's side reads them, and draws a "?" card there."""
    from companion.engine.api import GameConfig
    from companion.record.store import Store
    from companion.server.bus import EventBus
    from companion.server.engine_referee import EngineReferee
    from companion.server.gamedata import card_lookup, layout_dict
    from companion.server.live_setup import header_for
    from companion.server.session import LiveSession
    from companion.snapshot import TableSnapshot, Unreadable
    from tests.server.conftest import make_app

    config = GameConfig("creature-crush", players=("Ada", "Bo"))
    session = LiveSession(EngineReferee(config), Store(tmp_path / "g.db"), EventBus(),
                          header_for(config, "t"), layout_dict("creature-crush"),
                          card_lookup("creature-crush", ()))
    server, _ = serve_in_thread(make_app(session), "127.0.0.1", 0)
    try:
        open_live(page, f"http://127.0.0.1:{server.server_port}/?view=referee")
        far = (Unreadable("p2.A1", 370.0, 235.0, cause="far"),
               Unreadable("p2.B2", 300.0, 103.0, cause="far"))
        session.observe(TableSnapshot("creature-crush", seq=1, unreadable=far))
        page.wait_for_selector("#unidentified-card:not([hidden])")
        said = page.text_content("#unidentified") or ""
        assert ("Bo's A zone 1: 1 card not yet identified, too far from this camera: a second "
                "camera at Bo's side reads it (run `companion join` with this table's address "
                "on a laptop there)") in said
        assert "Bo's B zone 2" in said
        assert page.get_attribute("#unreadable-card", "hidden") is not None  # not the lamp
        for zone in ("p2.A1", "p2.B2"):
            mark = page.wait_for_selector(f'#mat .card-g.unreadable[data-zone="{zone}"]')
            assert mark is not None and "?" in (mark.text_content() or "")
        assert page.text_content("#violation-count") == "0"
        shot(page, "unidentified")
    finally:
        server.shutdown()
        session.bus.close()
        session.store.close()
