"""The five games (ids, names, marker codes) and the ruleset registry.

`GAMES`, `game_info`, `game_by_code` live in `companion.games.info` (this package shadows
the former module `companion/games.py`, so they are re-exported here unchanged).
Rulesets are imported lazily (by "module:attr"), so asking for one game does not import the
others. A game joins by adding one line to `RULESETS`; the conformance test then runs on it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from companion.engine.api import UnknownRulesetError
from companion.games.info import GAMES, GameInfo, UnknownGameError, game_by_code, game_info

if TYPE_CHECKING:
    from companion.engine.ruleset import Ruleset

__all__ = [
    "GAMES",
    "RULESETS",
    "GameInfo",
    "UnknownGameError",
    "game_by_code",
    "game_info",
    "get_ruleset",
    "has_ruleset",
]

RULESETS: dict[str, str] = {
    "trick-or-beat": "companion.games.trick_or_beat.rules:TrickOrBeat",
    "fire-emblem-cipher": "companion.games.fire_emblem_cipher.rules:FireEmblemCipher",
    "my-little-pony-ccg": "companion.games.my_little_pony.rules:MyLittlePony",
    "challengers": "companion.games.challengers.rules:Challengers",
    "creature-crush": "companion.games.creature_crush.rules:CreatureCrush",
}

_LOADED: dict[str, Ruleset] = {}


def get_ruleset(game_id: str) -> Ruleset:
    """The ruleset of `game_id` (one shared, stateless instance per game)."""
    if game_id in _LOADED:
        return _LOADED[game_id]
    try:
        target = RULESETS[game_id]
    except KeyError:
        known = ", ".join(sorted(RULESETS)) or "none"
        raise UnknownRulesetError(
            f"no ruleset for game {game_id!r}; games with rules: {known}"
        ) from None
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    ruleset: Ruleset = cls()
    _LOADED[game_id] = ruleset
    return ruleset


def has_ruleset(game_id: str) -> bool:
    return game_id in RULESETS
