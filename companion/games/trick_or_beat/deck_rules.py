"""Trick or Beat: deck-building rules, each fault a stable code with English and German text.

Source: rulebook ("Spielvorbereitung": "Mische alle 150 Karten"): both players draw
from one shared pile, every card of the game exactly as often as it exists.
"""

from __future__ import annotations

from companion.cardsets import CardSet, DeckList
from companion.cardsets.deck_problems import DeckProblem

TOB_RULE = "trick-or-beat.de.txt: Spielvorbereitung"


def check_tob(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out: list[DeckProblem] = []
    pile = {c.id: int(c.get("copies", 1)) for c in cardset}
    total = sum(pile.values())
    if deck.size != total:
        out.append(
            DeckProblem(
                "tob.pile-size",
                f"the shared pile has {deck.size} cards; it must have all {total}",
                f"der gemeinsame Stapel hat {deck.size} Karten; er muss alle {total} haben",
                rule=TOB_RULE,
            )
        )
    for card_id, n in deck.cards.items():
        if card_id in pile and n != pile[card_id]:
            name = cardset.get(card_id).name
            out.append(
                DeckProblem(
                    "tob.card-count",
                    f"{n} copies of {card_id} ({name}); the game has {pile[card_id]}",
                    f"{n} Exemplare von {card_id} ({name}); das Spiel hat {pile[card_id]}",
                    (card_id,),
                    TOB_RULE,
                )
            )
    missing = [i for i in pile if i not in deck.cards]
    if missing:
        shown = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        out.append(
            DeckProblem(
                "tob.cards-missing",
                f"{len(missing)} cards of the game are missing: {shown}",
                f"{len(missing)} Karten des Spiels fehlen: {shown}",
                tuple(missing),
                TOB_RULE,
            )
        )
    return out
