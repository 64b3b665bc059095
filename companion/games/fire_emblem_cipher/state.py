"""Fire Emblem Cipher's part of the game state, typed: the keys of `GameState.flags` it uses.

A TypedDict over the same dict, not a dataclass: states keep copying (`GameState.clone`) and
comparing as plain data, and mypy checks every key and value the rules read or write.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from companion.engine.state import CoreFlags, GameState


class PrepInfo(TypedDict):
    """One player's preparation: lord chosen, cards dealt, mulligan taken, orbs laid, lord
    revealed."""

    lord: bool
    dealt: int
    mulligan: bool
    orbs: int
    revealed: bool


class FeFlags(CoreFlags, total=False):
    prep: dict[str, PrepInfo]
    lord: dict[str, str]
    """Each player's lord: the top card of the lord's unit."""
    draws_owed: dict[str, int]
    """Cards each player still has to draw (start phase, support cards)."""
    combat: dict[str, Any] | None
    """The combat running now (companion.games.fire_emblem_cipher.effects.start_combat)."""
    last_combat: dict[str, Any] | None
    defeated: list[str]
    orb_acks: dict[str, int]
    """Orbs each player still has to take into hand after their lord was defeated."""


def flags(state: GameState) -> FeFlags:
    """The state's flags as Fire Emblem Cipher types them."""
    return cast(FeFlags, state.flags)
