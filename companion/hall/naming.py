"""Plain words on the hall page: the same `Namer` as the table's own page (card names, player
names, zone labels instead of ids), built from a game's header as it came over the stream."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from companion.errors import CompanionError

Rename = Callable[[Mapping[str, Any]], dict[str, Any]]

_lock = threading.Lock()
_lookups: dict[tuple[str, str], Any] = {}
_layouts: dict[str, Any] = {}


def namer_for(header: Mapping[str, Any]) -> Rename:
    """A renamer for one game's shown texts; ids stay as they are if the game is unknown."""
    from companion.server.gamedata import card_lookup, layout_dict
    from companion.server.names import Namer

    game = str(header.get("game") or "")
    players = [str(p) for p in header.get("players") or ()]
    inline = list((header.get("cardsets") or {}).get("inline_cards") or [])
    key = (game, json.dumps(inline, sort_keys=True))
    try:
        with _lock:
            if key not in _lookups:
                _lookups[key] = card_lookup(game, inline)
            if game not in _layouts:
                _layouts[game] = layout_dict(game)
            lookup, layout = _lookups[key], _layouts[game]
    except (CompanionError, OSError, KeyError):
        return dict
    return Namer(lookup, players, layout).payload


def phase_names(game: str) -> dict[str, tuple[str, str]]:
    """Phase id -> (English, German) name of `game`'s turn (the mat's phase strip); a recorded
    state names its phase in English only, the hall's pages speak both."""
    from companion.server.gamedata import layout_dict

    try:
        with _lock:
            if game not in _layouts:
                _layouts[game] = layout_dict(game)
            layout = _layouts[game]
    except (CompanionError, OSError, KeyError):
        return {}
    groups = (layout.get("phases") or {}).values()
    return {str(p["id"]): (str(p.get("name_en") or p["id"]),
                           str(p.get("name_de") or p.get("name_en") or p["id"]))
            for group in groups for p in group}
