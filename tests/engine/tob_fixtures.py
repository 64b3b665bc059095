"""Small made-up Trick or Beat cards and mid-game positions for engine and rules tests."""

from __future__ import annotations

from typing import Any

from companion.engine.game import Game

CARDS: list[dict[str, Any]] = [
    {"id": "XA", "name": "Axolotl", "type": "creature", "attack": 4, "survival": 3,
     "faction": "Gehirn"},
    {"id": "XB", "name": "Bear", "type": "creature", "attack": 2, "survival": 5,
     "faction": "Herocorps"},
    {"id": "XC", "name": "Crow", "type": "creature", "attack": 3, "survival": 4,
     "faction": "Gehirn",
     "effects": [{"kind": "activatable", "lane": "active", "do": "modify_attack", "amount": 2,
                  "target": "self"}]},
    {"id": "XD", "name": "Dove", "type": "creature", "attack": 1, "survival": 2,
     "faction": "Herocorps",
     "effects": [{"kind": "combat", "lane": "passive", "do": "modify_survival", "amount": 3,
                  "target": "defender"}]},
    {"id": "XS", "name": "Supply", "type": "tactic", "category": "supply",
     "effects": [{"kind": "play", "do": "draw", "amount": 2}]},
    {"id": "XE", "name": "Armour", "type": "tactic", "category": "equipment",
     "effects": [{"kind": "permanent", "do": "modify_survival", "amount": 2,
                  "target": "equipped"}]},
    {"id": "XT", "name": "Trick", "type": "tactic", "category": "other",
     "effects": [{"kind": "play", "do": "destroy", "target": "opponent_creature"}]},
]

DECK = [f"{c['id']}#{n}" for c in CARDS for n in range(1, 7)]


def game(setup: dict[str, Any] | None = None, seed: int = 1) -> Game:
    return Game.new("trick-or-beat", ("Ada", "Bo"), {"shared": DECK}, "p1", seed, setup, CARDS)


def position(phase: str = "main", active: str = "p1", turn: int = 3, **table: Any) -> Game:
    """A mid-game position: `table` maps zone ids (with '_' for '.') to card uids."""
    zones = {k.replace("_", "."): v for k, v in table.items() if k != "hands"}
    hands = table.get("hands", {"p1": 4, "p2": 4})
    return game({"turn": turn, "active": active, "phase": phase, "table": zones, "hands": hands})
