"""Challengers!: deck-building rules, each fault a stable code with English and German text.

Source: rulebook ("Deck-Phase"): the deck is built in play from the starter deck; what
is registered before play is the starter deck, which must match the game's starter list.
"""

from __future__ import annotations

from companion.cardsets import CardSet, DeckList, list_decks, load_deck
from companion.cardsets.deck_problems import DeckProblem, card_in

CH_RULE = "challengers.de.txt: Deck-Phase"


def challengers_starter(cardset: CardSet, kind: str = "start") -> dict[str, int]:
    """The deck a player (kind "start") or the bot (kind "bot") begins with: the bundled list
    (`decks/starter.yaml`, `decks/bot.yaml`), else every such card as often as it exists."""
    wanted = "starter" if kind == "start" else kind
    if wanted in list_decks(cardset.game):
        return dict(load_deck(cardset.game, wanted).cards)
    return {c.id: int(c.get("copies", 1)) for c in cardset.of_type(kind)}


def check_challengers(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out: list[DeckProblem] = []
    types = {c.type for i in deck.cards if (c := card_in(cardset, i)) is not None}
    kind = "bot" if types == {"bot"} else "start"
    starter = challengers_starter(cardset, kind)
    for card_id, n in deck.cards.items():
        card = card_in(cardset, card_id)
        if card is None:
            continue
        if card.type != kind:
            out.append(
                DeckProblem(
                    "ch.not-a-start-card",
                    f"{card_id} ({card.name}) is a level {card.get('level')} "
                    "card: those join the deck during play, in the deck phase",
                    f"{card_id} ({card.name}) ist eine Karte der Stufe {card.get('level')}: solche "
                    "Karten kommen erst im Spiel, in der Deck-Phase, dazu",
                    (card_id,),
                    CH_RULE,
                )
            )
        elif n != starter.get(card_id, 0):
            out.append(
                DeckProblem(
                    "ch.starter-count",
                    f"{n} copies of {card_id} ({card.name}); the starter deck has "
                    f"{starter.get(card_id, 0)}",
                    f"{n} Exemplare von {card_id} ({card.name}); das Startdeck hat "
                    f"{starter.get(card_id, 0)}",
                    (card_id,),
                    CH_RULE,
                )
            )
    for card_id, n in starter.items():
        if card_id not in deck.cards:
            name = cardset.get(card_id).name
            out.append(
                DeckProblem(
                    "ch.starter-missing",
                    f"{card_id} ({name}) is missing: the starter deck has {n}",
                    f"{card_id} ({name}) fehlt: das Startdeck hat {n}",
                    (card_id,),
                    CH_RULE,
                )
            )
    return out
