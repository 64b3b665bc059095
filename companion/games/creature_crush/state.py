"""Creature Crush's part of the game state, typed: the keys of `GameState.flags` it uses.

A TypedDict over the same dict, not a dataclass: states keep copying (`GameState.clone`) and
comparing as plain data, and mypy checks every key and value the rules read or write.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from companion.engine.state import CoreFlags, GameState


class Owed(TypedDict):
    """A payment the table still owes: `cost` dice burned (mode "count") or adding up to
    `cost` (mode "sum") for `what`."""

    player: str
    what: str
    cost: int
    mode: str


class LastAttack(TypedDict, total=False):
    """The last attack, for effects that refer to it ("the attacked creature") and undo."""

    attacker: str
    target: str | None
    damage: int
    before: int
    """The target's damage before the attack."""
    target_zone: str
    destroyed: bool


class CcFlags(CoreFlags, total=False):
    lager_lists: dict[str, list[str]]
    """Each player's camp as card ids, as listed in the config (deck checks)."""
    opening: dict[str, int]
    """Cards each player took before the first round."""
    dice: dict[str, dict[str, int]]
    """Each player's rolled start dice not burned yet: die name -> value."""
    pool: dict[str, dict[str, int]]
    """Each player's burned dice this turn."""
    owed: list[Owed]
    damage: dict[str, int]
    """Damage on each creature (card uid -> points)."""
    red: dict[str, list[Any]]
    """Red damage dice on the table: die name -> [card uid, value]."""
    crush_paid: dict[str, int]
    """Dice paid for each face-down crush card (-1: paid before the referee joined)."""
    crush_shown: list[str]
    """Crush cards flipped on the table whose effect the rules resolved (they are in hell in
    the state) while the table still shows them face up in a C zone."""
    permits: list[dict[str, Any]]
    """Card effects that allow something this turn (companion.games.creature_crush.effects)."""
    extra_dice: dict[str, int]
    """Extra start dice each player gets next turn from effects."""
    turn_extra: int
    """Extra start dice of the active player this turn."""
    expect_lager: dict[str, int]
    """Camp cards each player must still settle (destroyed by direct attacks)."""
    unseen_hell: dict[str, int]
    """Cards each player put into hell unseen (from hand or camp)."""
    destroyed: list[str]
    no_attack: dict[str, list[Any]]
    """Creatures that may not attack: uid -> [turn, source card name]."""
    draw_offer: str | None
    """The player who offered a draw, until the other agrees."""
    rolled: int
    drawn: int
    last_attack: LastAttack | None
    last_moved: str | None


def flags(state: GameState) -> CcFlags:
    """The state's flags as Creature Crush types them."""
    return cast(CcFlags, state.flags)
