"""The error for a game id or marker code that no registered game has.

(Each game's id, name, marker code and rulebook now live in its spec,
`companion/games/<game>/spec.py`; `companion.games.game_info` reads them from there.)
"""

from __future__ import annotations

from companion.errors import CompanionError


class UnknownGameError(CompanionError):
    """A game id (or marker code) that no registered game has."""
