"""Challengers!'s part of the game state, typed: the keys of `GameState.flags` it uses.

A TypedDict over the same dict, not a dataclass: states keep copying (`GameState.clone`) and
comparing as plain data, and mypy checks every key and value the rules read or write.
"""

from __future__ import annotations

from typing import cast

from companion.engine.state import CoreFlags, GameState


class ChFlags(CoreFlags, total=False):
    round: int
    """The tournament round this match belongs to (after the last: the final)."""
    holder: str | None
    """The player holding the flag."""
    flag_card: str | None
    """The card with the flag on it, the one that defends."""
    attack: list[str]
    """The attacker's cards revealed in this attack, in order."""
    top: str | None
    """The attack's last revealed card: the one left visible when the stack is pushed."""
    stacked: bool
    """The attacker's cards are pushed into one stack."""
    fans: dict[str, int]
    rest: dict[str, int]
    """Bench cards each player still has to put to rest (card effects)."""
    bonus: dict[str, int]
    """Strength a card keeps from effects while it stays where it is."""


def flags(state: GameState) -> ChFlags:
    """The state's flags as Challengers! types them."""
    return cast(ChFlags, state.flags)
