"""What the page shows of Fire Emblem Cipher beside each half: bonds, their symbols, the lord,
cards still to draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.spec import PLAYERS, TableFact, TableFacts

SYMBOLS_DE = {"Red": "Rot", "Blue": "Blau", "Yellow": "Gelb", "Purple": "Lila", "Green": "Grün",
              "White": "Weiß", "Black": "Schwarz", "Brown": "Braun", "Colorless": "Farblos"}
"""The bond symbols (colours) as the German rules say them."""


def table_facts(view: Mapping[str, Any]) -> TableFacts:
    extra = view.get("extra") or {}
    return {p: _player(extra.get(p) or {}) for p in PLAYERS}


def _player(mine: Mapping[str, Any]) -> list[TableFact]:
    out = [TableFact("bonds", "Bonds", "Bindungen", mine.get("bonds", 0))]
    if mine.get("symbols"):
        symbols = [str(s) for s in mine["symbols"]]
        out.append(TableFact("symbols", "Bond symbols", "Bindungssymbole", ", ".join(symbols),
                             ", ".join(SYMBOLS_DE.get(s, s) for s in symbols)))
    if mine.get("lord"):
        out.append(TableFact("lord", "Lord", "Lord", str(mine["lord"]), words="engine"))
    if mine.get("draws_owed"):
        out.append(TableFact("draws_owed", "Cards still to draw", "Noch zu ziehen",
                             mine["draws_owed"], warn=True))
    return out
