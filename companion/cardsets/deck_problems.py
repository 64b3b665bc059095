"""Deck-building faults: one type for every game, and the checks no game needs to write.

Each game's own deck-building rules live in its package (`companion/games/<game>/deck_rules.py`,
named by its spec) and report `DeckProblem`s; `companion.decks.rules.check_deck` runs the
common checks below and then the game's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.cardsets.decks import DeckList
from companion.cardsets.model import Card, CardSet


@dataclass(frozen=True)
class DeckProblem:
    """One deck-building fault: stable code, messages in English and German, cards involved."""

    code: str
    en: str
    de: str
    cards: tuple[str, ...] = ()
    rule: str = ""

    def line(self, lang: str = "en") -> str:
        return f"{self.code}: {self.de if lang == 'de' else self.en}"


DeckCheck = Callable[[DeckList, CardSet], list[DeckProblem]]
"""A game's deck-building rules: every fault of a deck, [] for a legal one."""


def card_in(cardset: CardSet, card_id: str) -> Card | None:
    """The card, or None when the cardset has no such id (reported by `unknown_cards`)."""
    return cardset.cards.get(card_id)


def unknown_cards(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    """Ids in the deck that the game's cardset does not have."""
    ids = [*deck.cards, *deck.problems, *(x for x in (deck.mane, deck.lord) if x)]
    missing = sorted({i for i in ids if i not in cardset})
    return [
        DeckProblem(
            "deck.unknown-card",
            f"{i} is not a card of {deck.game}",
            f"{i} ist keine Karte von {deck.game}",
            (i,),
        )
        for i in missing
    ]


def misplaced_fields(deck: DeckList, allowed: Iterable[str]) -> list[DeckProblem]:
    """Mane, problems or lord given for a game whose deck lists have no such field."""
    allowed = tuple(allowed)
    out: list[DeckProblem] = []
    for name, present in (("mane", deck.mane), ("problems", deck.problems), ("lord", deck.lord)):
        if present and name not in allowed:
            out.append(
                DeckProblem(
                    "deck.field-not-used",
                    f"{deck.game} decks have no {name}",
                    f"{deck.game}-Decks haben kein Feld {name}",
                )
            )
    return out
