"""Card lists of the five games: the card model, the per-game schema, loading and decks.

Usage::

    from companion.cardsets import load_cardset, load_deck
    cards = load_cardset("creature-crush")
    card = cards.get("CC-017")          # UnknownCardError names close ids
    card["attack"], card.get("title")   # every field reads the same way
    deck = load_deck("fire-emblem-cipher", "marth-red")
"""

from __future__ import annotations

from companion.cardsets.decks import DeckList, UnknownDeckError, list_decks, load_deck
from companion.cardsets.loader import card_from_mapping, clear_cache, load_cardset
from companion.cardsets.model import Card, CardSet, CardsetError, UnknownCardError
from companion.cardsets.schema import SCHEMAS, GameSchema

__all__ = [
    "SCHEMAS",
    "Card",
    "CardSet",
    "CardsetError",
    "DeckList",
    "GameSchema",
    "UnknownCardError",
    "UnknownDeckError",
    "card_from_mapping",
    "clear_cache",
    "list_decks",
    "load_cardset",
    "load_deck",
]
