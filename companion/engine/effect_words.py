"""The effect words several games share, run by one engine function each.

Only words whose rules say the same in every game that uses them live here (each game's
German rulebook):

- draw: "Ziehe die oberste Karte deines Decks" (Fire Emblem), "Ziehe eine Karte" (Creature
  Crush, Trick or Beat, My Little Pony): the top card of a pile, one after the other, hidden
  unless drawn face up; an empty pile gives nothing more (My Little Pony: "Wenn dir die Karten
  deines Hauptdecks ausgehen, überspringe einfach den Zugschritt"). What an empty pile means
  for the game (Challengers ends the match) stays the game's.
- tap / untap a card seen turned on the table (Fire Emblem "tappen", My Little Pony
  "erschöpfen" / "bereit machen"): the card lies sideways or upright again; a card no longer
  in the game is not turned. As move applies they fit a game's move table directly.

Words whose rules differ stay in the games (a card leaving the table: Trick or Beat discards
its equipment, Fire Emblem moves a unit's stack, My Little Pony resolves hidden cards first;
gaining points, fans, action tokens or damage are each game's own counters).
"""

from __future__ import annotations

from typing import Any

from companion.engine.api import Move
from companion.engine.state import GameState


def draw_cards(state: GameState, source: str, to: str, count: int,
               face_up: bool = False) -> list[str]:
    """Draw up to `count` top cards of `source` onto `to`, one after the other; returns the
    cards drawn (fewer when the pile ran out)."""
    drawn: list[str] = []
    for _ in range(count):
        uid = state.draw(source, to, face_up=face_up)
        if uid is None:
            break
        drawn.append(uid)
    return drawn


def apply_tap(rules: Any, state: GameState, move: Move) -> None:
    """The move's card is seen turned sideways (tapped, exhausted)."""
    if move.card in state.where:
        state.tapped.add(move.card)


def apply_untap(rules: Any, state: GameState, move: Move) -> None:
    """The move's card is seen upright again (untapped, readied)."""
    state.tapped.discard(move.card)


__all__ = ["apply_tap", "apply_untap", "draw_cards"]
