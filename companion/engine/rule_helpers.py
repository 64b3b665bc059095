"""Rule checks and card movements that every game needs, written once.

Games used to carry near-copies of these (a `_from_hand` per game). The checks here return
the game's own violations: a game binds its catalog's `violation` factory and its codes once
(`RuleChecks`), so codes, texts and rulebook sections stay in the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine.api import Move, Violation
from companion.engine.state import UNKNOWN, GameState, hand_zone

Violate = Callable[..., Violation]
"""A game's violation factory: `violate(code, cards=..., zones=..., **values)`."""


# ---------------------------------------------------------------------------- checks
@dataclass(frozen=True)
class RuleChecks:
    """The checks every game makes, bound once to the game's violation factory and codes.

    A game declares `CHECKS = RuleChecks(violation, not_in_hand="tob.not-in-hand", ...)` and
    calls `CHECKS.from_hand(...)`; a code left empty is a check the game does not make.
    """

    violate: Violate
    not_in_hand: str = ""
    hand_empty: str | None = None
    """An unseen card ("?") from an empty hand; None: `not_in_hand`, naming the card "?"."""
    wrong_phase: str = ""
    not_your_turn: str = ""

    def from_hand(self, state: GameState, player: str, cards: Iterable[str],
                  owned: bool = False) -> list[Violation]:
        """A violation for each card that cannot have come from `player`'s hand.

        A named card must be there or be swappable in without contradicting anything seen
        (`GameState.can_resolve`); with `owned`, it must also belong to the player (games
        whose cards never change hands). An unseen card ("?") needs any card in the hand.
        """
        hand = hand_zone(player)
        found: list[Violation] = []
        for uid in cards:
            if uid == UNKNOWN:
                if not state.cards_in(hand):
                    found.append(
                        self.violate(self.hand_empty, player=player) if self.hand_empty
                        else self.violate(self.not_in_hand, cards=(uid,), player=player))
            elif (uid not in state.where or (owned and state.owner.get(uid) != player)
                  or not state.can_resolve(uid, hand)):
                found.append(self.violate(self.not_in_hand, cards=(uid,), player=player))
        return found

    def in_phase(self, state: GameState, move: Move, *phases: str) -> list[Violation]:
        """The wrong-phase violation unless the game is in one of `phases`."""
        if state.phase in phases:
            return []
        return [self.violate(self.wrong_phase, action=move.kind, phase=state.phase)]

    def own_turn(self, state: GameState, move: Move, action: str | None = None
                 ) -> list[Violation]:
        """The not-your-turn violation unless the mover is the active player."""
        if move.player == state.active:
            return []
        return [self.violate(self.not_your_turn, action=action or move.kind,
                             active=state.active, player=move.player)]


# ---------------------------------------------------------------------------- movements
def take_from_hand(state: GameState, player: str, uid: str) -> str | None:
    """The card leaving `player`'s hand: `uid` (believed there from now on), for "?" an
    unseen card of the hand; None when there is none."""
    return state.take(uid, hand_zone(player))


def attached_to(state: GameState, uid: str) -> list[str]:
    """The cards attached to `uid` (equipment, resources), in attachment order."""
    return [item for item, holder in state.attached.items() if holder == uid]


def move_with_attached(state: GameState, uid: str, to: str, **how: Any) -> None:
    """Move a card and everything attached to it to `to` (a creature changing lanes takes
    its equipment along); `how` are `GameState.move`'s options for the card itself."""
    state.move(uid, to, **how)
    for item in attached_to(state, uid):
        state.move(item, to)


def release_attached(state: GameState, uid: str, to_of: Callable[[str], str]) -> None:
    """A card leaves the table: what is attached to it goes to `to_of(item)` (a discard
    pile) and is no longer attached, and the card itself is no longer attached to anything."""
    for item in attached_to(state, uid):
        del state.attached[item]
        state.move(item, to_of(item))
    state.attached.pop(uid, None)


__all__ = [
    "RuleChecks",
    "Violate",
    "attached_to",
    "move_with_attached",
    "release_attached",
    "take_from_hand",
]
