"""Card lists of the games: the card model, schemas, loading and deck lists.

This layer knows no game: each game's schema and card folder come from its spec through the
hook in `companion.cardsets.games`, which `companion.games` fills when it is imported.

Usage::

    import companion.games  # the registry: installs the games
    from companion.cardsets import load_cardset, load_deck
    cards = load_cardset("creature-crush")
    card = cards.get("CC-017")          # UnknownCardError names close ids
    card["attack"], card.get("title")   # every field reads the same way
    deck = load_deck("fire-emblem-cipher", "marth-red")
"""

from __future__ import annotations

from companion.cardsets.decks import DeckList, UnknownDeckError, list_decks, load_deck
from companion.cardsets.games import SCHEMAS, CardGame, install_card_games
from companion.cardsets.loader import card_from_mapping, clear_cache, load_cardset
from companion.cardsets.model import Card, CardSet, CardsetError, UnknownCardError
from companion.cardsets.schema import DeckSlot, GameSchema

__all__ = [
    "SCHEMAS",
    "Card",
    "CardGame",
    "CardSet",
    "CardsetError",
    "DeckList",
    "DeckSlot",
    "GameSchema",
    "UnknownCardError",
    "UnknownDeckError",
    "card_from_mapping",
    "clear_cache",
    "install_card_games",
    "list_decks",
    "load_cardset",
    "load_deck",
]
