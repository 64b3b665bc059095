"""The moves a referee can enter on the page: legal now, grouped by who can see them.

The camera sees cards arrive, leave, turn and tap; it cannot see an attack's target, an
activation, a choice in a faceoff, a critical hit or a redraw. Those "person" kinds are what the
page offers first; moves the camera normally sees are offered too (for when it missed one).
Moves naming a card that is not face up on the table are only counted, so the page never
reveals a hand or the engine's guess of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.engine.api import Move
from companion.games import GAMES, game_spec

BUTTON_KINDS = frozenset({"next-phase", "pass"})
"""Kinds the page has their own buttons for."""

ANY_GAME_PERSON_KINDS = frozenset({"concede", "declare"})


@dataclass(frozen=True)
class Offers:
    person: tuple[Move, ...] = ()
    table: tuple[Move, ...] = ()
    hidden: int = 0

    def __contains__(self, move: object) -> bool:
        return move in self.person or move in self.table


def person_kinds(game: str) -> frozenset[str]:
    """The move kinds only a person can tell the companion (the game's spec), and the kinds
    of every game that only a person can give."""
    own = game_spec(game).person_moves if game in GAMES else frozenset()
    return own | ANY_GAME_PERSON_KINDS


def offers(game: str, legal: Iterable[Move], visible: frozenset[str] | None) -> Offers:
    """Split `legal` (already masked for the table) into person and camera kinds; count the
    moves that name a card outside `visible` (the cards the table knows) or masked as "?"."""
    kinds = person_kinds(game)
    person: list[Move] = []
    table: list[Move] = []
    hidden = 0
    for move in legal:
        if move.kind in BUTTON_KINDS:
            continue
        named = [*move.cards, *([move.target] if move.target else [])]
        if "?" in named or (visible is not None and any(c not in visible for c in named)):
            hidden += 1
            continue
        bucket = person if move.kind in kinds else table
        if move not in bucket:
            bucket.append(move)
    return Offers(tuple(person), tuple(table), hidden)
