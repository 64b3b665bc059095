"""Trick or Beat's part of the game state, typed: the keys of `GameState.flags` it uses.

A TypedDict over the same dict, not a dataclass: states keep copying (`GameState.clone`) and
comparing as plain data, and mypy checks every key and value the rules read or write.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from companion.engine.state import CoreFlags, GameState


class DraftGuess(TypedDict, total=False):
    """What of a player's draft only a guess made theirs (`DraftInfo`)."""

    guessed: list[str]
    """The cards seen of the discards only a guess made theirs (both players could have laid
    them, nobody named one): a redraw declared later gives them to the other player."""
    firm: bool
    """They did something in the draft that is certainly theirs (a discard named or only
    theirs to lay, a creature laid face down on their lane)."""


class DraftInfo(DraftGuess):
    """One player's draft: the hand size owed, cards dealt and discarded so far, and
    whether they began keeping or discarding (a redraw is only possible before)."""

    hand: int
    dealt: int
    discarded: int
    started: bool


class LastAttack(TypedDict):
    """The last attack's target and totals, for the page and the explanations."""

    target: str
    attack: int
    survival: int


class TobFlags(CoreFlags, total=False):
    draft: dict[str, DraftInfo]
    draft_unseen: dict[str, int]
    """Per player, the cards they put on the discard pile in the draft that nobody saw yet
    (beneath a stack's top, a fresh redraw): a card of theirs seen arriving there later may
    be one of them."""
    draft_redrawn: str
    """The player whose last fresh redraw put their hand unseen on the discard pile: while an
    unseen card lies on top, the top the camera sees is one of that hand."""
    first_turn: bool
    """The starting player's first turn (no draw, -3 attack)."""
    turn_mods: list[list[Any]]
    """Abilities activated this turn: [player, target or "*", stat, amount]."""
    attack_mods: list[list[Any]]
    """One-time bonuses of tactics played this turn, used up by the next attack:
    [player, role ("attackers" or "defender"), stat, amount]."""
    supply_draws: int
    """Cards still to be drawn face up by a supply card's effect."""
    supply_hidden_draws: int
    """Face-up supply draws the camera could not read, while the supply card's draws go on:
    a supply card laid from the hand on the discard pile may be one of them (replaced)."""
    expected_deck_draws: int
    """Cards an effect lets draw from the deck (the camera sees the deck shrink)."""
    lifts: dict[str, list[str]]
    """Per rule ("draw", "trick", "move"): the cards whose effect lifts it once this turn."""
    last_attack: LastAttack
    first_view: dict[str, int]
    """Per player, the cards at the bottom of their trick pile that lay there when the camera
    first saw it (a `setup`'s pile): it saw only the top one, never the ones beneath."""
    taken_back: dict[str, list[str]]
    """Per player: the back serials of cards read as taken back from their trick pile (the
    camera's memory of the pile still holds them; one laid again is a new trick card)."""


def flags(state: GameState) -> TobFlags:
    """The state's flags as Trick or Beat types them."""
    return cast(TobFlags, state.flags)
