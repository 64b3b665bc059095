"""What the page shows of My Little Pony beside each half: action tokens, friends at home
against the limit, a boosted mane; and a faceoff's totals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.spec import PLAYERS, TableFact, TableFacts


def table_facts(view: Mapping[str, Any]) -> TableFacts:
    extra = view.get("extra") or {}
    out: TableFacts = {p: _player(extra.get(p) or {}) for p in PLAYERS}
    out["shared"] = []
    if extra.get("faceoff"):
        totals = extra["faceoff"].get("totals") or {}
        said = " : ".join(f"{p} {totals.get(p, 0)}" for p in PLAYERS)
        out["shared"].append(TableFact("faceoff", "Faceoff", "Konfrontation", said,
                                       words="engine"))
    return out


def _player(mine: Mapping[str, Any]) -> list[TableFact]:
    out = [TableFact("action_tokens", "Action tokens", "Aktionspunkte",
                     mine.get("action_tokens", 0))]
    if "home_limit" in mine:
        at_home, limit = mine.get("friends_at_home", 0), mine["home_limit"]
        out.append(TableFact("home", "Friends at home", "Freunde im Zuhause",
                             f"{at_home} / {limit}", warn=at_home > limit))
    if mine.get("boosted"):
        out.append(TableFact("boosted", "Mane character", "Hauptcharakter", "boosted",
                             "geboostet"))
    return out
