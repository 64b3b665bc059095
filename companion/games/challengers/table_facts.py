"""What the page shows of Challengers! beside each half: bench cards to rest, attack and
defence strength, who holds the flag; and the round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.spec import PLAYERS, TableFact, TableFacts


def table_facts(view: Mapping[str, Any]) -> TableFacts:
    extra = view.get("extra") or {}
    out: TableFacts = {p: _player(extra, p) for p in PLAYERS}
    out["shared"] = ([TableFact("round", "Round", "Runde", extra["round"])]
                     if extra.get("round") else [])
    return out


def _player(extra: Mapping[str, Any], p: str) -> list[TableFact]:
    out: list[TableFact] = []
    pending = (extra.get("rest_pending") or {}).get(p)
    if pending:
        out.append(TableFact("rest_pending", "Bench cards to rest", "Bankkarten zum Ruhestapel",
                             pending, warn=True))
    attack = extra.get("attack") or {}
    flag = extra.get("flag") or {}
    if attack.get("player") == p and attack.get("cards"):
        out.append(TableFact("attack", "Attack strength", "Angriffsstärke", attack.get("total")))
    elif attack.get("cards") and flag.get("holder") == p:
        out.append(TableFact("defence", "Defence strength", "Verteidigungsstärke",
                             extra.get("defence")))
    if flag.get("holder") == p:
        out.append(TableFact("flag", "Holds the flag", "Hat die Fahne", "⚑"))
    return out
