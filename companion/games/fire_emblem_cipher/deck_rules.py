"""Fire Emblem Cipher: deck-building rules, each fault a stable code with English and German text.

Source: the German rulebook here does not state deck-building numbers. These are
the official Fire Emblem 0 (Cipher) deck rules (Intelligent Systems / Nintendo, official rule
book, "Deck construction"): at least 50 cards, at most 4 copies of the same card (counted by
card id here), and a cost-1 card of the deck chosen as the lord (main character).
"""

from __future__ import annotations

from companion.cardsets import CardSet, DeckList
from companion.cardsets.deck_problems import DeckProblem, card_in
from companion.games.fire_emblem_cipher.numbers import LORD_COST, MAX_COPIES, MIN_DECK

FE_RULE = "official Fire Emblem 0 (Cipher) deck construction rules (not in the German rulebook)"


def check_fe(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out: list[DeckProblem] = []
    if deck.size < MIN_DECK:
        out.append(
            DeckProblem(
                "fe.deck-too-small",
                f"the deck has {deck.size} cards; at least {MIN_DECK} are needed",
                f"das Deck hat {deck.size} Karten; mindestens {MIN_DECK} sind nötig",
                rule=FE_RULE,
            )
        )
    for card_id, n in deck.cards.items():
        card = card_in(cardset, card_id)
        if card is not None and n > MAX_COPIES:
            out.append(
                DeckProblem(
                    "fe.too-many-copies",
                    f"{n} copies of {card_id} ({card.name}); at most {MAX_COPIES} allowed",
                    f"{n} Exemplare von {card_id} ({card.name}); höchstens {MAX_COPIES} erlaubt",
                    (card_id,),
                    FE_RULE,
                )
            )
    if deck.lord is None:
        out.append(
            DeckProblem(
                "fe.no-lord",
                f"no lord chosen (lord: a cost-{LORD_COST} card of the deck)",
                f"kein Hauptcharakter gewählt (lord: eine Karte mit Kosten {LORD_COST} aus "
                "dem Deck)",
                rule=FE_RULE,
            )
        )
        return out
    lord = card_in(cardset, deck.lord)
    if lord is None:
        return out
    if lord.get("cost") != LORD_COST:
        out.append(
            DeckProblem(
                "fe.lord-cost",
                f"the lord {deck.lord} ({lord.name}) costs {lord.get('cost')}; the "
                f"lord must cost {LORD_COST}",
                f"der Hauptcharakter {deck.lord} ({lord.name}) kostet {lord.get('cost')}; er muss "
                f"{LORD_COST} kosten",
                (deck.lord,),
                FE_RULE,
            )
        )
    if deck.lord not in deck.cards:
        out.append(
            DeckProblem(
                "fe.lord-not-in-deck",
                f"the lord {deck.lord} ({lord.name}) is not one of the deck's cards",
                f"der Hauptcharakter {deck.lord} ({lord.name}) ist keine Karte des Decks",
                (deck.lord,),
                FE_RULE,
            )
        )
    return out
