"""Creature Crush: deck-building rules, each fault a stable code with English and German text.

Source: rulebook ("Lageraufbau", "Konstruiert"): a camp (Lager) of exactly 20 cards,
each card at most once.
"""

from __future__ import annotations

from companion.cardsets import CardSet, DeckList
from companion.cardsets.deck_problems import DeckProblem, card_in
from companion.games.creature_crush.numbers import LAGER_SIZE

CC_RULE = "creature-crush.de.txt: Lageraufbau"


def check_cc(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out: list[DeckProblem] = []
    if deck.size != LAGER_SIZE:
        out.append(
            DeckProblem(
                "cc.deck-size",
                f"the camp has {deck.size} cards; it must have exactly {LAGER_SIZE}",
                f"das Lager hat {deck.size} Karten; es muss genau {LAGER_SIZE} haben",
                rule=CC_RULE,
            )
        )
    for card_id, n in deck.cards.items():
        card = card_in(cardset, card_id)
        if card is not None and n > 1:
            out.append(
                DeckProblem(
                    "cc.card-twice",
                    f"{n} copies of {card_id} ({card.name}); each card at most once",
                    f"{n} Exemplare von {card_id} ({card.name}); jede Karte höchstens einmal",
                    (card_id,),
                    CC_RULE,
                )
            )
    return out
