"""The table stays visible (issue 33, items 1-4), measured in headless Chromium at 1366x768 and
on a 390 px phone:

- an alert (violation) or a question never covers a card it is about, nor the "X wins" box;
  a question names the cards and its readings in words, its text is not squeezed and its big
  buttons stay inside the box; at game over a referee still decides the open violations;
- the referee's controls are on screen without scrolling, every key shortcut works, and a
  toast says what each press did;
- a camera without a picture (none, black, frozen, the mat out of view) is said across the top
  and greys the board;
- the hall's rows with open violations stay rows (8 tables, 3 of them with open violations).

Every wait is a condition (a selector, a DOM state), never the clock.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.engine.api import Move
from companion.server.live_setup import serve_in_thread
from tests.browser.conftest import LAPTOP, PHONE, assert_seen, box, no_sideways_scroll, opened, shot
from tests.browser.test_pages import fake_table
from tests.live_tables import ScriptedTable, scripted

pytestmark = pytest.mark.browser

STEPS = {"trick-or-beat": 20, "fire-emblem-cipher": 12, "my-little-pony-ccg": 10,
         "challengers": 8, "creature-crush": 8}
"""How far into each opening script the table is looked at (mid-game, cards out)."""


def overlap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The area two boxes share (0 when they only touch)."""
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


def inside(inner: dict[str, Any], outer: dict[str, Any], slack: float = 0.5) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["right"] <= outer["right"] + slack
            and inner["top"] >= outer["top"] - slack and inner["bottom"] <= outer["bottom"] + slack)


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    return list(page.eval_on_selector_all(selector, """els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                width: r.width, height: r.height,
                font: parseFloat(getComputedStyle(e).fontSize), text: e.innerText};
    })"""))


def card_boxes(page: Any, uids: list[str]) -> dict[str, dict[str, Any]]:
    found = {}
    for uid in uids:
        got = boxes(page, f'#mat .card-g[data-uid="{uid}"]')
        if got:
            found[uid] = got[0]
    return found


def settled(page: Any) -> None:
    """The alert's fade-in done: its box is where it stays."""
    page.wait_for_function(
        "document.getAnimations().every(a => a.playState !== 'running' || a.effect"
        " && a.effect.getComputedTiming().iterations === Infinity)")


def wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=seq)


def alert_clear_of(page: Any, uids: list[str], what: str) -> dict[str, Any]:
    """The alert's box; it shares no pixel with the cards `uids` and keeps its buttons."""
    settled(page)
    alert = box(page, "#alert")
    for uid, card in card_boxes(page, uids).items():
        assert overlap(alert, card) == 0, f"{what}: the alert covers card {uid}: {alert} {card}"
    for button in boxes(page, "#alert-actions .btn"):
        assert inside(button, alert), f"{what}: a button sticks out of the alert: {button}"
        assert button["font"] >= 17 and button["height"] >= 44, f"{what}: small button {button}"
    assert alert["bottom"] <= alert["vh"] + 0.5 and alert["right"] <= alert["vw"] + 0.5
    return alert


def about(table: ScriptedTable, move: Move) -> list[str]:
    """The cards an illegal move is about, as the engine has them (the move's own cards and
    its target, and the cards the violation names)."""
    state = table.session.state()
    named = [*move.cards, *([move.target] if move.target else [])]
    named += list(state["violations"][-1].get("cards") or [])
    return sorted({c for c in named if c and c != "?"})


# --- 1. alerts and questions leave the table visible ---------------------------------------

@pytest.mark.parametrize("game", sorted(STEPS))
def test_alerts_leave_the_cards_and_the_winner_in_view(browser: Any, game: str,
                                                       tmp_path: Path) -> None:
    """A violation's alert, over every game's table at 1366x768 and on a phone, covers none of
    the cards it is about; at game over (on both sizes) it covers neither them nor the "X wins"
    box, and the referee still decides it there (key S)."""
    with scripted(game, tmp_path / "g.db") as table:
        table.play(STEPS[game])
        session = table.session
        server, _ = serve_in_thread(table.live.app, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{server.server_port}/"
        try:
            for size, view, name in ((LAPTOP, "table", "laptop"), (LAPTOP, "referee", "referee"),
                                     (PHONE, "table", "phone")):
                with opened(browser, url, size, "en", view=view) as page:
                    page.wait_for_selector('#conn[data-state="live"]')
                    wait_seq(page, session.state()["seq"])
                    move = table.illegal()
                    assert move is not None
                    session.person_moves((move,))
                    newest = session.state()["violations"][-1]
                    page.wait_for_selector(f'#alert[data-seq="{newest["seq"]}"]:not([hidden])')
                    alert = alert_clear_of(page, about(table, move), f"{game} {name}")
                    shot(page, f"visible-alert-{game}-{name}")
                    assert_seen(page, "#alert-text", min_font=22 if size is PHONE else 28)
                    if size is LAPTOP:  # across the mat, a third of it left in view at least
                        mat = box(page, "#mat")
                        assert inside(alert, mat, slack=1)
                        assert alert["height"] <= mat["height"] * 2 / 3, (alert, mat)
                    no_sideways_scroll(page)
            with opened(browser, url, LAPTOP, "en", view="table") as page, \
                    opened(browser, url, PHONE, "en", view="table") as phone:
                for each in (page, phone):
                    each.wait_for_selector('#conn[data-state="live"]')
                    wait_seq(each, session.state()["seq"])
                move = table.illegal()
                assert move is not None
                session.person_moves((move,))
                newest = session.state()["violations"][-1]
                if session.state()["outcome"] is None:
                    session.person_moves((Move("concede", "p2"),))
                for each, name in ((phone, "phone"), (page, "laptop")):
                    each.wait_for_selector(f'#alert[data-seq="{newest["seq"]}"]:not([hidden])')
                    each.wait_for_selector("#gameover:not([hidden])")
                    wait_seq(each, session.state()["seq"])
                    alert = alert_clear_of(each, about(table, move), f"{game} game over {name}")
                    winner = box(each, "#gameover-winner")
                    assert overlap(alert, winner) == 0, (name, alert, winner)
                    assert_seen(each, "#gameover-winner", min_font=28 if each is phone else 40)
                shot(phone, f"visible-gameover-{game}-phone")
                # decisions stay open at game over; next phase and end turn do not
                assert page.is_enabled('#alert-actions button[data-decision="stands"]')
                listed = f'.violation[data-seq="{newest["seq"]}"] button[data-decision="stands"]'
                assert page.is_enabled(listed)
                assert page.is_disabled('#controls [data-action="next-phase"]')
                shot(page, f"visible-gameover-{game}")
                page.keyboard.press("s")
                page.wait_for_selector(f'#alert[data-seq="{newest["seq"]}"]', state="hidden")
                page.wait_for_selector("#toast:not([hidden])")
                assert page.text_content("#toast") == "Violation stands"
                decided = {e.payload.get("violation"): e.payload.get("decision")
                           for e in session.store.events(session.game_id) if e.kind == "decision"}
                assert decided.get(newest["seq"]) == "stands"
        finally:
            server.shutdown()


LONG = [("Ada attacks Zweiling with Testling and both go to the rest pile",
         "Ada greift Zweiling mit Testling an und beide gehen auf den Ablagestapel"),
        ("Ada plays Zweiling as a tactic and draws two cards",
         "Ada spielt Zweiling als Taktik und zieht zwei Karten"),
        ("Ada ends the phase", "Ada beendet die Phase")]


@contextmanager
def long_question(tmp_path: Path) -> Iterator[tuple[Any, Any, str]]:
    """The fake referee's question, as the interpreter words one: the generic sentence, three
    readings in long words, the cards in the moves."""
    with fake_table(tmp_path, "lq.db") as (session, store, url):
        plain = session.state

        def state(lang: str = "en") -> dict[str, Any]:
            data = plain(lang)
            q = data.get("question")
            if q:
                q = json.loads(json.dumps(q))
                q["text_en"] = "Several moves explain what happened on the table. Which one was it?"
                q["text_de"] = "Mehrere Züge erklären, was auf dem Tisch geschah. Welcher war es?"
                uid = q["choices"][0]["moves"][0]["cards"][0]
                q["choices"] = [{"label_en": en, "label_de": de, "moves": [
                    {"kind": "attack", "player": "p1", "cards": ["T1#1"], "target": uid}]}
                    for en, de in LONG]
                data["question"] = q
            return data

        session.state = state  # type: ignore[method-assign]
        yield session, store, url


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_question_names_the_cards_and_keeps_its_buttons_inside(
    browser: Any, tmp_path: Path, size: dict[str, int]
) -> None:
    """At 1366x768 the question alert is as wide as the mat, its words are not squeezed, every
    button (big, numbered for the keys) is inside it, and it covers neither card it names."""
    from tests.server.fakes import table

    with long_question(tmp_path) as (session, store, url):
        with opened(browser, url, size, "en", view="table") as page:
            page.wait_for_selector('#conn[data-state="live"]')
            session.observe(table(("T1#1", "p1.A1")))
            session.observe(table(("T1#1", "p1.A1"), ("T2#1", "shared.unsure")))
            page.wait_for_selector('#alert[data-kind="question"]:not([hidden])')
            alert = alert_clear_of(page, ["T1#1", "T2#1"], "question")
            words = page.text_content("#alert-text") or ""
            assert words == "Which was it?"  # three long readings: said in the buttons
            detail = page.text_content("#alert-detail") or ""
            assert detail.startswith("Cards: Testling, Zweiling · Several moves explain")
            text = assert_seen(page, "#alert-text", min_font=22)
            assert text["width"] >= alert["width"] * 0.6, f"squeezed: {text} in {alert}"
            labels = [b["text"] for b in boxes(page, "#alert-actions .btn")]
            assert [t.split("\n")[-1].strip() for t in labels] == [en for en, _ in LONG]
            assert [t.split("\n")[0].strip()[:1] for t in labels] == ["1", "2", "3"]
            no_sideways_scroll(page)
            shot(page, f"visible-question-{'phone' if size is PHONE else 'laptop'}")
            page.keyboard.press("2")
            page.wait_for_selector("#alert", state="hidden")
            page.wait_for_selector("#toast:not([hidden])")
            assert page.text_content("#toast") == f"Answered: {LONG[1][0]}"
        answered = [e for e in store.events(session.game_id) if e.kind == "answer"]
        assert answered and answered[-1].payload["choice"] == 1


def test_the_referee_view_asks_beside_the_table(browser: Any, tmp_path: Path) -> None:
    """In the referee view at 1366x768 the question is a box over the side column, not a
    modal over the mat: it shares no pixel with the mat, its buttons are inside it, the
    referee controls stay usable, and "Decide later" leaves a button to open it again."""
    from tests.server.fakes import table

    with long_question(tmp_path) as (session, store, url), \
            opened(browser, url, LAPTOP, "en", view="referee") as page:
        page.wait_for_selector('#conn[data-state="live"]')
        session.observe(table(("T1#1", "p1.A1")))
        session.observe(table(("T1#1", "p1.A1"), ("T2#1", "shared.unsure")))
        page.wait_for_selector("#question[open]")
        assert page.locator("#alert").is_hidden()  # asked once, beside the table
        settled(page)
        asked, mat = box(page, "#question"), box(page, "#mat")
        assert overlap(asked, mat) == 0, (asked, mat)
        assert overlap(asked, box(page, "#controls")) == 0  # the controls stay in reach
        assert asked["bottom"] <= asked["vh"] + 0.5
        for button in boxes(page, "#question-choices .btn"):
            assert inside(button, asked) and button["font"] >= 16 and button["height"] >= 44
        assert page.text_content("#question-cards") == "Cards: Testling, Zweiling"
        assert page.evaluate("document.querySelector('#question').matches(':modal')") is False
        shot(page, "visible-question-referee")
        page.click("#question button[value=later]")
        page.wait_for_selector("#question-reopen:not([hidden])")
        page.click("#question-reopen")
        page.wait_for_selector("#question[open]")
        page.keyboard.press("2")  # the fake referee's question has two readings underneath
        page.wait_for_selector("#question:not([open])", state="attached")
        answered = [e for e in store.events(session.game_id) if e.kind == "answer"]
        assert answered and answered[-1].payload["choice"] == 1


# --- 2. referee controls at hand ----------------------------------------------------------

def toast_after(page: Any, key: str) -> str:
    """What the toast says after `key`; it sits beside the mat, not on it."""
    page.evaluate("document.getElementById('toast').hidden = true")
    page.keyboard.press(key)
    page.wait_for_selector("#toast:not([hidden])")
    assert overlap(box(page, "#toast"), box(page, "#mat")) == 0
    return str(page.text_content("#toast"))


@pytest.mark.parametrize("view", ["referee", "table"])
def test_referee_controls_are_in_view_and_every_key_works(
    browser: Any, tmp_path: Path, view: str
) -> None:
    """At 1366x768 next phase, end turn, undo and redo are on screen without scrolling, with
    the keys listed beside them; each key does what its button does and a toast says what
    happened (fake referee); a key with nothing to do says so; a card opens and closes its
    panel by keyboard."""
    from tests.server.fakes import table

    with fake_table(tmp_path, "keys.db") as (session, store, url):
        session.observe(table(("T1#1", "p1.A1")))
        with opened(browser, url, LAPTOP, "en", view=view) as page:
            page.wait_for_selector('#conn[data-state="live"]')
            wait_seq(page, session.state()["seq"])
            for sel in ('#controls [data-action="next-phase"]', '#controls [data-action="pass"]',
                        "#undo"):
                b = assert_seen(page, sel, min_font=15)
                assert b["bottom"] <= 768 and b["height"] >= 36
            legend = assert_seen(page, "#keys", min_font=12)
            assert legend["bottom"] <= 768
            said = page.text_content("#keys") or ""
            for words in ("next phase", "end turn", "undo", "redo", "answer", "stands",
                          "corrected"):
                assert words in said
            shot(page, f"visible-controls-{view}")
            assert toast_after(page, "n") == "Phase: Attack · Ada's turn"
            assert session.referee.phase == "attack"  # type: ignore[attr-defined]
            assert toast_after(page, "e") == "Bo's turn · Play"
            assert session.referee.active == "p2"  # type: ignore[attr-defined]
            assert toast_after(page, "u").startswith("Undone")
            assert session.referee.active == "p1"  # type: ignore[attr-defined]
            page.wait_for_selector("#redo:enabled")
            assert_seen(page, "#redo")
            assert toast_after(page, "r").startswith("Redone")
            assert session.referee.active == "p2"  # type: ignore[attr-defined]
            assert toast_after(page, "Control+z").startswith("Undone")
            assert session.referee.active == "p1"  # type: ignore[attr-defined]
            page.wait_for_selector("#redo:enabled")
            assert toast_after(page, "Control+y").startswith("Redone")
            assert session.referee.active == "p2"  # type: ignore[attr-defined]
            assert toast_after(page, "u").startswith("Undone")
            page.wait_for_selector("#redo:enabled")
            assert toast_after(page, "Control+Shift+z").startswith("Redone")
            assert session.referee.active == "p2"  # type: ignore[attr-defined]
            # no question open: an answer's key says there is nothing to press
            assert toast_after(page, "1") == "Nothing to press here now"
            # a card by keyboard: Enter shows what the cardset knows, Escape closes it
            card = page.locator("#mat .card-g[data-id]").first
            card.focus()
            page.keyboard.press("Enter")
            page.wait_for_selector(f'#card-panel[data-id="{card.get_attribute("data-id")}"]'
                                   ":not([hidden])")
            page.keyboard.press("Escape")
            page.wait_for_selector("#card-panel", state="hidden")
            # a violation: S stands; the next one: C corrected
            for key, decision in (("s", "stands"), ("c", "corrected")):
                seq = session.state()["seq"]
                session.observe(table(("T1#1", "p1.A1"), (f"T{2 if key == 's' else 3}#1",
                                                          "p2.forbidden")))
                newest = session.state()["violations"][-1]
                assert newest["seq"] > seq
                page.wait_for_selector(f'#alert[data-seq="{newest["seq"]}"]:not([hidden])')
                assert toast_after(page, key).startswith(f"Violation {decision}")
                page.wait_for_selector("#alert", state="hidden")
                decided = {e.payload.get("violation"): e.payload.get("decision")
                           for e in store.events(session.game_id) if e.kind == "decision"}
                assert decided.get(newest["seq"]) == decision
            # typing a note keeps its letters: no phase changes
            if view == "referee":
                phase = session.referee.phase  # type: ignore[attr-defined]
                page.fill("#note-text", "")
                page.type("#note-text", "nice")
                assert page.input_value("#note-text") == "nice"
                assert session.referee.phase == phase  # type: ignore[attr-defined]


# --- 3. the camera as it is ---------------------------------------------------------------

@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_camera_without_a_picture_is_said_across_the_top(
    browser: Any, tmp_path: Path, size: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No camera, a black or frozen picture, the mat out of view: a banner across the top
    says so and the board is greyed; a good picture again takes both away."""
    import companion.server.session as session_module

    monkeypatch.setattr(session_module, "HEALTH_EVERY_S", 0.0)  # every health change is sent
    tag = "phone" if size is PHONE else "laptop"
    with fake_table(tmp_path, "cam.db") as (session, _, url), \
            opened(browser, url, size, "en", view="table") as page:
        page.wait_for_selector('#conn[data-state="live"]')
        session.camera("ok", fps=20.0, markers=4, calibrated=True, frame_arrived=True,
                       input="ok", mat_fit="ok", recording=True)
        page.wait_for_selector('#health[data-status="ok"]')
        assert page.locator("#camera-banner").is_hidden()
        assert page.evaluate("getComputedStyle(document.getElementById('table-area'))"
                             ".filter") == "none"
        cases = [
            (dict(status="reconnecting", detail="SourceError: cannot open camera 5"),
             "No camera picture (cannot open camera 5):", "none"),
            (dict(status="ok", frame_arrived=True, input="black", mat_fit="held",
                  recording=False), "The camera picture is black", "black"),
            (dict(status="ok", frame_arrived=True, input="frozen", mat_fit="ok",
                  recording=False), "The camera picture is frozen", "frozen"),
            (dict(status="ok", frame_arrived=True, input="ok", mat_fit="none", recording=False,
                  messages=("Mat corners not found: is the mat in view?",)),
             "The mat is not in view:", "mat"),
        ]
        for kwargs, words, name in cases:
            session.camera(**kwargs)  # type: ignore[arg-type]
            page.wait_for_function(
                "w => !document.getElementById('camera-banner').hidden && document"
                ".getElementById('camera-banner-title').textContent.startsWith(w)", arg=words)
            banner = assert_seen(page, "#camera-banner-title", min_font=17)
            whole = box(page, "#camera-banner")
            topbar = box(page, ".topbar")
            assert whole["left"] <= 0.5 and whole["right"] >= whole["vw"] - 0.5  # across
            assert abs(whole["top"] - topbar["bottom"]) <= 1 and banner["top"] < 200
            grey = page.evaluate("getComputedStyle(document.getElementById('table-area'))"
                                 ".filter")
            assert "grayscale(1)" in grey
            if name == "mat":  # the pipeline's advice: the banner's hover text
                assert page.get_attribute("#camera-banner", "title") == \
                    "Mat corners not found: is the mat in view?"
            no_sideways_scroll(page)
            shot(page, f"visible-camera-{name}-{tag}")
        # a dark picture is still read (the top bar warns): no banner, nothing greyed
        session.camera("ok", fps=20.0, markers=4, calibrated=True, frame_arrived=True,
                       input="dark", mat_fit="ok", recording=True)
        page.wait_for_selector("#camera-banner", state="hidden")
        assert page.evaluate("getComputedStyle(document.getElementById('table-area'))"
                             ".filter") == "none"


# --- 4. the hall --------------------------------------------------------------------------

class _View:
    """The hall's view with fixed rows (what the page draws; the wire is tested elsewhere)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.listeners: list[Any] = []
        self.refused_listeners: list[Any] = []

    def refusals(self) -> list[dict[str, Any]]:
        return []

    def snapshot(self) -> list[dict[str, Any]]:
        return self.rows

    def counts(self) -> dict[str, Any]:
        return {"applied": 120}

    def table(self, name: str) -> dict[str, Any] | None:
        return next((r for r in self.rows if r["table"] == name), None)


def hall_rows() -> list[dict[str, Any]]:
    players = [("Ada", "Bo"), ("Cy", "Di"), ("Eva", "Finn"), ("Gil", "Hana"),
               ("Ida", "Jo"), ("Kai", "Lu"), ("Mia", "Nils"), ("Ola", "Pia")]
    rows = []
    for i, pair in enumerate(players, start=1):
        row: dict[str, Any] = {
            "table": f"table-{i}", "seq": 10 + i, "game": "challengers",
            "game_name": "Challengers!", "players": list(pair), "turn": i, "phase": "attack",
            "phase_name": "Attack", "active": "p1", "commit": 0,
            "scores": [{"player": "p1", "value": i}, {"player": "p2", "value": 8 - i}],
            "violations": [], "question": None, "outcome": None, "alert": False,
            "url": f"http://table-{i}.local:8765/",
        }
        if i in (2, 5, 7):
            row["violations"] = [{"message_en": f"The bench is full: {pair[1]} loses the match.",
                                  "message_de": "Die Bank ist voll.", "seq": 3}]
            row["alert"] = True
        rows.append(row)
    return rows


def test_the_hall_keeps_every_row_readable_with_open_violations(browser: Any,
                                                                tmp_path: Path) -> None:
    """8 tables, 3 with open violations: those 3 come first, marked, and every row stays in
    the table, under the header, covering no other row."""
    from companion.hall.web import HallState, create_hall_app

    hall = HallState(_View(hall_rows()), lambda: None, lambda: {"status": "online"})  # type: ignore[arg-type]
    app = create_hall_app(tmp_path / "hall.db", hall, heartbeat_s=0.5)
    server, _ = serve_in_thread(app, "127.0.0.1", 0)
    try:
        for size, tag in ((LAPTOP, "laptop"), (PHONE, "phone")):
            with opened(browser, f"http://127.0.0.1:{server.server_port}/hall/", size,
                        "en") as page:
                page.wait_for_function("document.querySelectorAll('#hall-rows tr').length === 8")
                assert page.locator("#hall-rows tr.alert").count() == 3
                assert page.eval_on_selector_all(
                    "#hall-rows tr", "rs => rs.slice(0, 3).map(r => r.dataset.table)") == \
                    ["table-2", "table-5", "table-7"]
                rows = boxes(page, "#hall-rows tr")
                whole = box(page, "#hall-table")
                head = box(page, "#hall-table thead")
                for i, row in enumerate(rows):
                    assert row["height"] > 0 and inside(row, whole), f"row {i} leaves: {row}"
                    assert overlap(row, head) == 0, f"row {i} over the header: {row}"
                    for j, other in enumerate(rows[i + 1:], start=i + 1):
                        assert overlap(row, other) == 0, f"rows {i} and {j} overlap"
                for row in page.locator("#hall-rows tr.alert").all():
                    position = row.evaluate("r => getComputedStyle(r).position")
                    assert position == "static"
                    assert "The bench is full" in row.inner_text()
                no_sideways_scroll(page)
                shot(page, f"visible-hall-{tag}")
    finally:
        server.shutdown()
