"""Deck-building rules per game: every fault as a stable code with English and German text.

Sources:
- My Little Pony CCG: rulebook (`my-little-pony-ccg.de.txt`, "Was brauche ich zum Spielen?"
  and "Unique"): draw deck >= 45 cards without problems, <= 3 copies of a card, exactly one mane
  character outside the count, a problem deck of 10 with <= 2 copies of each, Unique cards once.
- Fire Emblem Cipher: the German rulebook here does not state deck-building numbers. These are
  the official Fire Emblem 0 (Cipher) deck rules (Intelligent Systems / Nintendo, official rule
  book, "Deck construction"): at least 50 cards, at most 4 copies of the same card (counted by
  card id here), and a cost-1 card of the deck chosen as the lord (main character).
- Creature Crush: rulebook ("Lageraufbau", "Konstruiert"): a camp (Lager) of exactly 20 cards,
  each card at most once.
- Challengers!: rulebook ("Deck-Phase"): the deck is built in play from the starter deck; what
  is registered before play is the starter deck, which must match the game's starter list.
- Trick or Beat: rulebook ("Spielvorbereitung": "Mische alle 150 Karten"): both players draw
  from one shared pile, every card of the game exactly as often as it exists.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.cardsets import Card, CardSet, DeckList, list_decks, load_deck

MLP_MIN_DECK = 45
MLP_MAX_COPIES = 3
MLP_PROBLEM_DECK = 10
MLP_MAX_PROBLEM_COPIES = 2
FE_MIN_DECK = 50
FE_MAX_COPIES = 4
FE_LORD_COST = 1
CC_DECK = 20


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


def _card(cardset: CardSet, card_id: str) -> Card | None:
    return cardset.cards.get(card_id)


def _unknown(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
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


def _misplaced(deck: DeckList, allowed: tuple[str, ...]) -> list[DeckProblem]:
    """Mane, problems or lord given for a game that has none."""
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


MLP_RULE = "my-little-pony-ccg.de.txt: Was brauche ich zum Spielen?"


def check_mlp(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out = _misplaced(deck, ("mane", "problems"))
    size = deck.size
    if size < MLP_MIN_DECK:
        out.append(
            DeckProblem(
                "mlp.deck-too-small",
                f"the draw deck has {size} cards; at least {MLP_MIN_DECK} are needed",
                f"das Spieldeck hat {size} Karten; mindestens {MLP_MIN_DECK} sind nötig",
                rule=MLP_RULE,
            )
        )
    for card_id, n in deck.cards.items():
        card = _card(cardset, card_id)
        if card is None:
            continue
        if card.type == "problem":
            out.append(
                DeckProblem(
                    "mlp.problem-in-deck",
                    f"{card_id} ({card.name}) is a problem: problems go in the "
                    "problem deck, never in the draw deck",
                    f"{card_id} ({card.name}) ist ein Problem: Probleme gehören ins "
                    "Problemdeck, nie ins Spieldeck",
                    (card_id,),
                    MLP_RULE,
                )
            )
        elif card.type == "mane":
            out.append(
                DeckProblem(
                    "mlp.mane-in-deck",
                    f"{card_id} ({card.name}) is a mane character: it is given as "
                    "the deck's mane, outside the draw deck",
                    f"{card_id} ({card.name}) ist ein Hauptcharakter: er wird als 'mane' "
                    "angegeben, nicht im Spieldeck",
                    (card_id,),
                    MLP_RULE,
                )
            )
        elif card.has_keyword("Unique") and n > 1:
            out.append(
                DeckProblem(
                    "mlp.unique-twice",
                    f"{n} copies of {card_id} ({card.name}); Unique cards may be "
                    "in the deck only once",
                    f"{n} Exemplare von {card_id} ({card.name}); Unique-Karten dürfen nur "
                    "einmal im Deck sein",
                    (card_id,),
                    "my-little-pony-ccg.de.txt: Unique",
                )
            )
        elif n > MLP_MAX_COPIES:
            out.append(
                DeckProblem(
                    "mlp.too-many-copies",
                    f"{n} copies of {card_id} ({card.name}); at most {MLP_MAX_COPIES} allowed",
                    f"{n} Exemplare von {card_id} ({card.name}); "
                    f"höchstens {MLP_MAX_COPIES} erlaubt",
                    (card_id,),
                    MLP_RULE,
                )
            )
    out += _mlp_mane(deck, cardset)
    out += _mlp_problems(deck, cardset)
    return out


def _mlp_mane(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    if deck.mane is None:
        return [
            DeckProblem(
                "mlp.no-mane",
                "the deck names no mane character (mane: ...)",
                "das Deck nennt keinen Hauptcharakter (mane: ...)",
                rule=MLP_RULE,
            )
        ]
    card = _card(cardset, deck.mane)
    if card is not None and card.type != "mane":
        return [
            DeckProblem(
                "mlp.mane-not-mane",
                f"{deck.mane} ({card.name}) is a {card.type}, not a mane character",
                f"{deck.mane} ({card.name}) ist kein Hauptcharakter",
                (deck.mane,),
                MLP_RULE,
            )
        ]
    return []


def _mlp_problems(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out: list[DeckProblem] = []
    size = sum(deck.problems.values())
    if size != MLP_PROBLEM_DECK:
        out.append(
            DeckProblem(
                "mlp.problem-deck-size",
                f"the problem deck has {size} cards; it must have exactly {MLP_PROBLEM_DECK}",
                f"das Problemdeck hat {size} Karten; es muss genau {MLP_PROBLEM_DECK} haben",
                rule=MLP_RULE,
            )
        )
    for card_id, n in deck.problems.items():
        card = _card(cardset, card_id)
        if card is None:
            continue
        if card.type != "problem":
            out.append(
                DeckProblem(
                    "mlp.not-a-problem",
                    f"{card_id} ({card.name}) in the problem deck is not a problem",
                    f"{card_id} ({card.name}) im Problemdeck ist kein Problem",
                    (card_id,),
                    MLP_RULE,
                )
            )
        elif n > MLP_MAX_PROBLEM_COPIES:
            out.append(
                DeckProblem(
                    "mlp.too-many-problem-copies",
                    f"{n} copies of problem {card_id} ({card.name}); "
                    f"at most {MLP_MAX_PROBLEM_COPIES} allowed",
                    f"{n} Exemplare des Problems {card_id} ({card.name}); höchstens "
                    f"{MLP_MAX_PROBLEM_COPIES} erlaubt",
                    (card_id,),
                    MLP_RULE,
                )
            )
    return out


FE_RULE = "official Fire Emblem 0 (Cipher) deck construction rules (not in the German rulebook)"


def check_fe(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out = _misplaced(deck, ("lord",))
    if deck.size < FE_MIN_DECK:
        out.append(
            DeckProblem(
                "fe.deck-too-small",
                f"the deck has {deck.size} cards; at least {FE_MIN_DECK} are needed",
                f"das Deck hat {deck.size} Karten; mindestens {FE_MIN_DECK} sind nötig",
                rule=FE_RULE,
            )
        )
    for card_id, n in deck.cards.items():
        card = _card(cardset, card_id)
        if card is not None and n > FE_MAX_COPIES:
            out.append(
                DeckProblem(
                    "fe.too-many-copies",
                    f"{n} copies of {card_id} ({card.name}); at most {FE_MAX_COPIES} allowed",
                    f"{n} Exemplare von {card_id} ({card.name}); höchstens {FE_MAX_COPIES} erlaubt",
                    (card_id,),
                    FE_RULE,
                )
            )
    if deck.lord is None:
        out.append(
            DeckProblem(
                "fe.no-lord",
                "no lord chosen (lord: a cost-1 card of the deck)",
                "kein Hauptcharakter gewählt (lord: eine Karte mit Kosten 1 aus dem Deck)",
                rule=FE_RULE,
            )
        )
        return out
    lord = _card(cardset, deck.lord)
    if lord is None:
        return out
    if lord.get("cost") != FE_LORD_COST:
        out.append(
            DeckProblem(
                "fe.lord-cost",
                f"the lord {deck.lord} ({lord.name}) costs {lord.get('cost')}; the "
                f"lord must cost {FE_LORD_COST}",
                f"der Hauptcharakter {deck.lord} ({lord.name}) kostet {lord.get('cost')}; er muss "
                f"{FE_LORD_COST} kosten",
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


CC_RULE = "creature-crush.de.txt: Lageraufbau"


def check_cc(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out = _misplaced(deck, ())
    if deck.size != CC_DECK:
        out.append(
            DeckProblem(
                "cc.deck-size",
                f"the camp has {deck.size} cards; it must have exactly {CC_DECK}",
                f"das Lager hat {deck.size} Karten; es muss genau {CC_DECK} haben",
                rule=CC_RULE,
            )
        )
    for card_id, n in deck.cards.items():
        card = _card(cardset, card_id)
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


CH_RULE = "challengers.de.txt: Deck-Phase"


def challengers_starter(cardset: CardSet, kind: str = "start") -> dict[str, int]:
    """The deck a player (kind "start") or the bot (kind "bot") begins with: the bundled list
    (`decks/starter.yaml`, `decks/bot.yaml`), else every such card as often as it exists."""
    wanted = "starter" if kind == "start" else kind
    if wanted in list_decks(cardset.game):
        return dict(load_deck(cardset.game, wanted).cards)
    return {c.id: int(c.get("copies", 1)) for c in cardset.of_type(kind)}


def check_challengers(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out = _misplaced(deck, ())
    types = {c.type for i in deck.cards if (c := _card(cardset, i)) is not None}
    kind = "bot" if types == {"bot"} else "start"
    starter = challengers_starter(cardset, kind)
    for card_id, n in deck.cards.items():
        card = _card(cardset, card_id)
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


TOB_RULE = "trick-or-beat.de.txt: Spielvorbereitung"


def check_tob(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out = _misplaced(deck, ())
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


CHECKS: dict[str, Callable[[DeckList, CardSet], list[DeckProblem]]] = {
    "my-little-pony-ccg": check_mlp,
    "fire-emblem-cipher": check_fe,
    "creature-crush": check_cc,
    "challengers": check_challengers,
    "trick-or-beat": check_tob,
}


def check_deck(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    """Every deck-building fault of `deck`; an empty list means the deck is legal."""
    return _unknown(deck, cardset) + CHECKS[deck.game](deck, cardset)
