"""One language at a time, names not ids, at the hall: the hall page and the judges' phone view
in English and in German, fed with what real tables send.

Four tables play bundled scripts of four games through live sessions (tests/hall/real_tables.py)
and publish them over a real nats-server to a real hall: a finished match with its winner,
violations (open), a question the table has not answered yet, a tournament in its match phase
and a message the hall refused. Every text a person reads is checked with the independent
oracle of the session sweep (tests/language_oracle.py): the hall's state and the judges' state
as the pages read them, and every line the two pages show in Chromium.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from companion.hall.natsd import NatsServer, NatsServerError, find_nats_server
from companion.hall.runtime import Hall
from companion.tournaments.book import Settings, TournamentBook
from tests.browser.conftest import LAPTOP, PHONE, box, opened, shot
from tests.hall.conftest import wait_until
from tests.hall.helpers import deck_phase
from tests.hall.real_tables import Recorded, publishing, record_script
from tests.language_oracle import cardset_words, problems
from tests.server.test_one_language import shown

TABLES = [  # (table, game, script, cut at the first event of this kind)
    ("table-1", "challengers", "opening", None),                  # over: p2 wins
    ("table-2", "my-little-pony-ccg", "opening", None),           # three violations
    ("table-3", "trick-or-beat", "opening", None),                # two
    ("table-4", "creature-crush", "rules-undeclared-attack", "question"),  # waiting: a question
]
"""Four games (the rules of all five are worded by test_one_language's sweep)."""
TOURNAMENT = ("Ada", "Bo", "Cy", "Di")


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A hall that heard four real tables (and refused one unreadable message)."""
    try:
        find_nats_server()
    except NatsServerError as exc:
        pytest.fail(f"{exc} -- the hall tests need a real nats-server", pytrace=False)
    folder = tmp_path_factory.mktemp("hall-one-language")
    recorded = [record_script(folder, name, game, script, until)
                for name, game, script, until in TABLES]
    with TournamentBook(folder / "hall.db") as book:
        tid = book.create(Settings(players=TOURNAMENT, seed=4, tables=("table-1", "table-2")),
                          "Cup")
        deck_phase(book, tid, TOURNAMENT)
    broker = NatsServer(folder / "nats", port=0, host="127.0.0.1").start()
    running = Hall(folder / "hall.db", broker.url, heartbeat_s=0.5, round_minutes=50)
    running.start("127.0.0.1", 0)
    try:
        with publishing(recorded, broker.url):
            wait_until(lambda: all((running.view.table(t.name) or {}).get("seq") == t.last_seq
                                   for t in recorded), what="every table at the hall")
            running.loop.run(_publish_garbage(broker.url), 30)
            wait_until(lambda: bool(running.view.refusals()["recent"]), what="the refusal")
            yield {"base": f"http://127.0.0.1:{running.port}", "tables": recorded,
                   "players": sorted({*TOURNAMENT, *(p for t in recorded for p in t.players)})}
    finally:
        running.close()
        broker.stop()


async def _publish_garbage(url: str) -> None:
    import nats

    nc = await nats.connect(url)
    try:
        await nc.jetstream().publish("companion.table-3.junk", b"not a table message")
    finally:
        await nc.close()


def _words_of_every_game(tables: list[Recorded]) -> tuple[set[str], list[str]]:
    ids: set[str] = set()
    names: set[str] = set()
    for game in {t.game_kind for t in tables}:
        more_ids, more_names = cardset_words(game)
        ids |= more_ids
        names.update(more_names)
    return ids, sorted(names, key=len, reverse=True)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def test_the_hall_heard_what_the_sweep_needs(hall: dict[str, Any]) -> None:
    """The fixture reaches every case: open violations, an open question, a winner, a refusal
    (else the sweeps below would pass on an empty page)."""
    state = _get(hall["base"] + "/hall/api/state")
    rows = {r["table"]: r for r in state["tables"]}
    assert len(rows) == len(TABLES)
    assert rows["table-1"]["outcome"]["winner"] == "p2"
    assert all(rows[t]["violations"] for t in ("table-2", "table-3"))
    assert rows["table-4"]["question"] is not None
    assert state["refused"]["recent"][0]["reason"] == "unreadable"
    assert state["tournament"]["stage"] == "match"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_hall_and_judges_state_speak_one_language_in_names(hall: dict[str, Any],
                                                           lang: str) -> None:
    """What the two pages read of every table: the violations' messages and rules, the
    question, the phase, the notices, each player's history."""
    ids, names = _words_of_every_game(hall["tables"])
    texts: list[tuple[str, str]] = []
    for path in ("/hall/api/state", "/hall/api/judge"):
        data = _get(hall["base"] + path)
        for row in data["tables"]:
            texts += shown(row, lang, row["game"], f"{path}:{row['table']}")
        for player in data.get("players", []):
            for entry in player["entries"]:
                game = next(t.game_kind for t in hall["tables"] if t.name == entry["table"])
                texts += shown(entry, lang, game, f"{path}:{player['name']}")
    assert len(texts) > 30, "the sweep found next to nothing to read"
    found = problems(sorted(set(texts)), lang, ids, names, hall["players"])
    assert not found, "\n".join(found)


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "de"])
def test_hall_page_shows_one_language_in_names(hall: dict[str, Any], browser: Any,
                                               lang: str) -> None:
    """Every line the hall page shows at 1366x768 (tables, rules, question, winner,
    tournament, refusals), and the standings inside their card."""
    ids, names = _words_of_every_game(hall["tables"])
    with opened(browser, hall["base"] + "/hall/", LAPTOP, lang=lang) as page:
        page.wait_for_function(f"document.querySelectorAll('#hall-rows tr').length === "
                               f"{len(TABLES)} && !document.querySelector('#hall-refused')"
                               ".hidden")
        found = _page_problems(page, lang, ids, names, hall["players"])
        side, standings = box(page, "#tournament"), box(page, ".standings")
        assert standings["right"] <= side["right"] + 0.5, "the standings leave their card"
        shot(page, f"hall-real-tables-{lang}", full_page=True)
    assert not found, "\n".join(found)


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "de"])
def test_judges_view_shows_one_language_in_names(hall: dict[str, Any], browser: Any,
                                                 lang: str) -> None:
    """Every line of the judges' phone view at 390x844: each table's open violations and
    question, each player's whole history (every entry opened)."""
    ids, names = _words_of_every_game(hall["tables"])
    with opened(browser, hall["base"] + "/hall/judge", PHONE, lang=lang) as page:
        page.wait_for_function(f"document.querySelectorAll('.judge-card').length === "
                               f"{len(TABLES)} && document.querySelectorAll('.judge-entry')"
                               ".length > 0")
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        found = _page_problems(page, lang, ids, names, hall["players"])
        shot(page, f"judge-real-tables-{lang}", full_page=True)
    assert not found, "\n".join(found)


def _page_problems(page: Any, lang: str, ids: set[str], names: list[str],
                   players: list[str]) -> list[str]:
    text = str(page.evaluate("document.body.innerText"))
    lines = [(page.url, line.strip()) for line in text.splitlines() if line.strip()]
    assert len(lines) > 20, "the page shows next to nothing"
    return problems(lines, lang, ids, names, players)

