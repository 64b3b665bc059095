"""The engine's one hook for finding a game's ruleset by id.

The engine knows no game. A `Game` is given its ruleset, or asks `ruleset_for(game_id)`, which
calls the lookup the layer above installed (`companion.games` installs its registry here when
it is imported). Without an installed lookup the engine says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.engine.api import UnknownRulesetError

if TYPE_CHECKING:
    from companion.engine.ruleset import Ruleset

RulesetLookup = Callable[[str], "Ruleset"]

_lookup: RulesetLookup | None = None


def install_ruleset_lookup(lookup: RulesetLookup | None) -> None:
    """Make `ruleset_for` answer through `lookup` (None removes it again)."""
    global _lookup
    _lookup = lookup


def ruleset_for(game_id: str) -> Ruleset:
    """The ruleset of `game_id` from the installed lookup (UnknownRulesetError without one)."""
    if _lookup is None:
        raise UnknownRulesetError(
            f"no ruleset for game {game_id!r}: no game registry is installed "
            "(import companion.games, or pass the ruleset to Game)"
        )
    return _lookup(game_id)
