"""Deck-building rules: the checks every game shares, then the game's own.

Each game's rules (with their sources: rulebook sections, or the official rules where the
rulebook is silent) live in its package, `companion/games/<game>/deck_rules.py`, named by the
game's spec; `check_deck` asks the registry for them.
"""

from __future__ import annotations

from companion.cardsets import CardSet, DeckList
from companion.cardsets.deck_problems import (
    DeckCheck,
    DeckProblem,
    misplaced_fields,
    unknown_cards,
)
from companion.games import game_spec

__all__ = ["DeckCheck", "DeckProblem", "check_deck"]


def check_deck(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    """Every deck-building fault of `deck`; an empty list means the deck is legal."""
    spec = game_spec(deck.game)
    out = unknown_cards(deck, cardset) + misplaced_fields(deck, spec.card_schema.deck_slots)
    return out + spec.deck_rules(deck, cardset)
