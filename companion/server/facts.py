"""What the rules know and the table does not show: hand and deck sizes, action tokens, limits,
bonuses, dice. Read from the engine's public view (`Game.view("table")`), so nothing hidden
(a hand's cards, a deck's order) ever reaches the page; only counts and public numbers do.
Hand and pile sizes are the same for every game and counted here; the rest each game says in
its own folder (its spec's `table_facts` hook, plain `TableFact`s), worded here with the
table's names.

`facts(...)` returns {"p1": [...], "p2": [...], "shared": [...]}, each item
{"key", "label_en", "label_de", "value", "value_de"?, "warn"?}; the page prints them beside
each player's half of the mat.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from companion.games import game_spec
from companion.games.spec import PLAYERS, TableFact
from companion.record.wording import Namer, die_colour

Fact = dict[str, Any]
Facts = dict[str, list[Fact]]
NUMBERED = re.compile(r"\d$")


def fact(key: str, en: str, de: str, value: Any, value_de: Any = None, warn: bool = False
         ) -> Fact:
    out: Fact = {"key": key, "label_en": en, "label_de": de, "value": value}
    if value_de is not None:
        out["value_de"] = value_de
    if warn:
        out["warn"] = True
    return out


def _zones(view: Mapping[str, Any], layout: Mapping[str, Any] | None, player: str
           ) -> list[Fact]:
    """Hand size and the size of every pile (deck, discard, ...) of `player`."""
    zones = view.get("zones") or {}
    out: list[Fact] = []
    hand = zones.get(f"{player}.hand")
    if hand is not None:
        out.append(fact("hand", "Hand", "Hand", int(hand.get("count", 0))))
    for z in (layout or {}).get("zones", []):
        if z.get("owner") != player or z.get("kind") != "pile" or NUMBERED.search(z["id"]):
            continue
        found = zones.get(z["id"])
        if found is None:
            continue
        out.append(fact(z["id"].split(".", 1)[1], str(z["label_en"]), str(z["label_de"]),
                        int(found.get("count", 0))))
    return out


def _dice(values: Mapping[str, int]) -> tuple[str, str]:
    en = ", ".join(f"{die_colour(d)[0]} {v}" for d, v in sorted(values.items()))
    de = ", ".join(f"{die_colour(d)[1]} {v}" for d, v in sorted(values.items()))
    return en, de


def _worded(found: TableFact, namer: Namer) -> Fact:
    """A game's fact in the table's words (card, zone and player names, dice colours)."""
    value, value_de = found.value, found.value_de
    if isinstance(value, Mapping):
        value, value_de = _dice(value)
    elif found.words == "engine":
        value, value_de = namer.text(str(value), "en"), namer.text(str(value_de or value), "de")
    return fact(found.key, found.label_en, found.label_de, value, value_de, found.warn)


def facts(game: str, view: Mapping[str, Any], namer: Namer,
          layout: Mapping[str, Any] | None) -> Facts:
    """Each player's public numbers and the shared ones, from the engine's table view."""
    own = game_spec(game).facts_of(view)
    out: Facts = {"shared": [_worded(f, namer) for f in own["shared"]]}
    for p in PLAYERS:
        zones = _zones(view, layout, p)
        hand = [f for f in zones if f["key"] == "hand"]
        piles = [f for f in zones if f["key"] != "hand"]
        # hand first, then what only the rules know (tokens, limits), then the piles
        out[p] = hand + [_worded(f, namer) for f in own[p]] + piles
    return out


def facts_of(referee: Any, namer: Namer, layout: Mapping[str, Any] | None) -> Facts | None:
    """`facts` of a live referee that drives the real engine; None for any other referee."""
    engine = getattr(referee, "engine", None)
    if engine is None or not hasattr(engine, "view"):
        return None
    return facts(str(getattr(referee, "game", "")), engine.view("table"), namer, layout)
