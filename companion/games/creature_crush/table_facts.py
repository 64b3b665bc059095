"""What the page shows of Creature Crush beside each half: start dice, burned dice not yet
used, unpaid costs, extra dice next turn; and the effects in play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.spec import PLAYERS, TableFact, TableFacts


def table_facts(view: Mapping[str, Any]) -> TableFacts:
    extra = view.get("extra") or {}
    out: TableFacts = {p: _player(extra, p) for p in PLAYERS}
    out["shared"] = [TableFact("effect", "Effect in play", "Effekt im Spiel", str(text),
                               words="engine") for text in extra.get("effects") or []]
    return out


def _player(extra: Mapping[str, Any], p: str) -> list[TableFact]:
    out: list[TableFact] = []
    start = (extra.get("start_dice") or {}).get(p) or {}
    if start:
        out.append(TableFact("start_dice", "Start dice", "Startwürfel", dict(start),
                             words="dice"))
    burned = (extra.get("burned_unassigned") or {}).get(p) or {}
    if burned:
        out.append(TableFact("burned", "Burned, not yet used", "Verbrannt, noch nicht genutzt",
                             dict(burned), words="dice"))
    owed = [o for o in extra.get("unpaid") or [] if o.get("player") == p]
    if owed:
        out.append(TableFact("unpaid", "Unpaid costs", "Unbezahlte Kosten", len(owed),
                             warn=True))
    more = (extra.get("next_turn_extra_dice") or {}).get(p)
    if more:
        out.append(TableFact("extra_dice", "Extra dice next turn", "Zusatzwürfel nächste Runde",
                             f"+{more}"))
    return out
