"""What the page shows of Trick or Beat beside each half: the lane limit and the bonuses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.spec import PLAYERS, TableFact, TableFacts


def table_facts(view: Mapping[str, Any]) -> TableFacts:
    extra = view.get("extra") or {}
    return {p: _player(extra.get(p) or {}) for p in PLAYERS}


def _player(mine: Mapping[str, Any]) -> list[TableFact]:
    out = [TableFact("lane_limit", "Creatures per lane", "Wesen pro Lane", mine.get("lane_limit"))]
    if mine.get("attack_bonus"):
        out.append(TableFact("attack_bonus", "Attack bonus", "Angriffsbonus",
                             f"+{mine['attack_bonus']}"))
    if mine.get("survival_bonus"):
        out.append(TableFact("survival_bonus", "Survival bonus", "Überlebensbonus",
                             f"+{mine['survival_bonus']}"))
    if mine.get("trick_win_blocked_for_opponent"):
        out.append(TableFact("trick_block", "Opponent cannot win by tricks",
                             "Gegner kann nicht durch Tricks gewinnen", "✓"))
    return out
