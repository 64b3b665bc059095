"""Nothing on the table view hides another thing: an equipment tag on a creature leaves its
name and numbers readable (Trick or Beat), and a seat beside the mat shows the longest lord
name of the shipped Fire Emblem cardsets whole, with every pile size still in the box.

Measured with getBoundingClientRect at 1366x768 and on a 390x844 phone (the seats in German,
whose labels are the longer).
The oracles are the shipped cardset files (the longest cost-1 unit's "name, title") and the
session's own table (which card lies on which); screenshots go to $COMPANION_SHOTS.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
import yaml

from companion.paths import cardsets_dir
from companion.server.live_setup import serve_in_thread
from tests.browser.conftest import LAPTOP, PHONE, opened, shot
from tests.live_tables import ScriptedTable, script_path, scripted

pytestmark = pytest.mark.browser

SIZES = {"laptop": LAPTOP, "phone": PHONE}
FE = "fire-emblem-cipher"
FE_LORDS = {"p1": "B01-003", "p2": "B01-053"}
"""The lords the bundled Fire Emblem opening lays face down (its first step)."""
FE_STEPS = 14
"""Into the second turn: bonds, bond symbols and the lord are all in the seats."""
LORD_CHOICE = {"p2": 0, "p1": 1}
"""Which of the longest lord names (0 = the longest) each player's lord gets."""

RECTS_JS = """sel => [...document.querySelectorAll(sel)].map(e => {
  const r = e.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
})"""


def rects(page: Any, selector: str) -> list[dict[str, float]]:
    return list(page.evaluate(RECTS_JS, selector))


def one_rect(page: Any, selector: str) -> dict[str, float]:
    found = rects(page, selector)
    assert len(found) == 1, f"{selector}: {len(found)} elements"
    return found[0]


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.25
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.25)


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 0.5) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["right"] <= outer["right"] + slack
            and inner["top"] >= outer["top"] - slack
            and inner["bottom"] <= outer["bottom"] + slack)


def longest_lords() -> list[tuple[str, str]]:
    """(id, "name, title") of the cost-1 units (the lords a player may choose) of every
    shipped Fire Emblem cardset, longest first."""
    found = []
    for path in sorted((cardsets_dir() / FE).glob("*.yaml")):
        for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]:
            if card.get("type") == "unit" and card.get("cost") == 1:
                title = card.get("title")
                found.append((card["id"], f"{card['name']}, {title}" if title else card["name"]))
    return sorted(found, key=lambda c: (-len(c[1]), c[0]))


def swapped(text: str, a: str, b: str) -> str:
    """`text` with the card ids `a` and `b` exchanged (every deck keeps its card counts)."""
    return re.sub(rf"\b({re.escape(a)}|{re.escape(b)})\b", lambda m: b if m[1] == a else a,
                  text)


@dataclass
class Served:
    table: ScriptedTable
    url: str

    @contextmanager
    def page(self, browser: Any, size: str, lang: str) -> Iterator[Any]:
        """The table view at `size` in `lang`, once it shows the session's latest state."""
        with opened(browser, self.url, SIZES[size], lang, view="table") as page:
            page.wait_for_selector('#conn[data-state="live"]')
            page.wait_for_function("s => Number(document.body.dataset.seq) >= s",
                                   arg=self.table.session.state()["seq"])
            yield page


@contextmanager
def served(table: ScriptedTable) -> Iterator[Served]:
    server, _ = serve_in_thread(table.live.app, "127.0.0.1", 0)
    try:
        yield Served(table, f"http://127.0.0.1:{server.server_port}/")
    finally:
        server.shutdown()


@pytest.fixture(scope="module")
def lord_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The Fire Emblem opening with the two longest lord names of the shipped cardsets."""
    tmp = tmp_path_factory.mktemp("lords")
    lords = longest_lords()
    source = script_path(FE).read_text(encoding="utf-8")
    for p, rank in LORD_CHOICE.items():
        source = swapped(source, FE_LORDS[p], lords[rank][0])
    script = tmp / "opening.yaml"
    script.write_text(source, encoding="utf-8")
    with scripted(FE, tmp / "g.db", source=script) as table, served(table) as s:
        table.play(FE_STEPS)
        yield s


@pytest.fixture(scope="module")
def equipped_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The whole Trick or Beat opening: it ends with equipment on a creature."""
    with scripted("trick-or-beat", tmp_path_factory.mktemp("tob") / "g.db") as table, \
            served(table) as s:
        table.play()
        yield s


@pytest.mark.parametrize(("size", "lang"), [("laptop", "de"), ("phone", "de")])
def test_the_longest_lord_name_fits_its_seat(browser: Any, lord_table: Served, size: str,
                                             lang: str) -> None:
    lords = longest_lords()
    with lord_table.page(browser, size, lang) as page:
        for p, rank in LORD_CHOICE.items():
            seat_whole(page, f'.seat[data-player="{p}"]', lords[rank][1])
        shot(page, f"lord-seats-{size}-{lang}")


def seat_whole(page: Any, seat: str, lord: str) -> None:
    """The seat shows `lord` uncut inside its box and nothing of the seat is scrolled away."""
    assert page.text_content(f'{seat} .fact[data-key="lord"] dd') == lord
    hidden = page.evaluate("s => { const e = document.querySelector(s);"
                           " return e.scrollHeight - e.clientHeight; }", seat)
    assert hidden <= 1, f"{seat}: {hidden} px of the seat are scrolled out of sight"
    box = one_rect(page, seat)
    for part in (f'{seat} .fact[data-key="lord"] dd', f"{seat} .seat-name",
                 f"{seat} .seat-score", f"{seat} .seat-piles .pile-fact"):
        for r in rects(page, part):
            assert inside(r, box), f"{part} leaves its seat: {r} outside {box}"
    cut = page.evaluate("s => { const e = document.querySelector(s);"
                        " return e.scrollWidth - e.clientWidth; }",
                        f'{seat} .fact[data-key="lord"] dd')
    assert cut <= 0, f"the lord's name is {cut} px wider than its box"


@pytest.mark.parametrize(("size", "lang"), [("laptop", "en"), ("phone", "de")])
def test_equipment_leaves_the_creature_readable(browser: Any, equipped_table: Served,
                                                size: str, lang: str) -> None:
    cards = equipped_table.table.session.state()["table"]["cards"]
    on = [(c["uid"], c["on"]) for c in cards if c.get("on")]
    assert on, "the Trick or Beat opening ends with no equipment on a creature"
    with equipped_table.page(browser, size, lang) as page:
        for uid, host in on:
            tag_clear_of_host_text(page, uid, host)
        shot(page, f"equipment-{size}-{lang}")


def tag_clear_of_host_text(page: Any, uid: str, host: str) -> None:
    tag = f'.card-g.attached[data-uid="{uid}"]'
    card = f'.card-g:not(.attached)[data-uid="{host}"]'
    chip, label = one_rect(page, f"{tag} rect"), one_rect(page, f"{tag} text")
    body = one_rect(page, f"{card} .card-body")
    assert inside(chip, body), f"the tag of {uid} leaves its creature {host}"
    assert inside(label, chip), f"the name on the tag of {uid} runs out of the tag"
    numbers = one_rect(page, f"{card} .card-stats")
    assert not overlap(chip, numbers), f"the tag of {uid} covers {host}'s numbers"
    for part in (".card-name", ".card-title"):
        for r in rects(page, f"{card} {part}"):
            assert not overlap(chip, r), f"the tag of {uid} covers {host}'s {part[1:]}"
