"""My Little Pony CCG: deck-building rules, each fault a stable code with English and German text.

Source: rulebook (`my-little-pony-ccg.de.txt`, "Was brauche ich zum Spielen?",
"Unique" and "Starting Problem"): draw deck >= 45 cards without problems, <= 3 copies of a
card, exactly one mane character outside the count, a problem deck of 10 with <= 2 copies of
each and at least one Starting Problem, Unique cards once.
"""

from __future__ import annotations

from companion.cardsets import CardSet, DeckList
from companion.cardsets.deck_problems import DeckProblem, card_in
from companion.games.my_little_pony.numbers import (
    MAX_COPIES,
    MAX_PROBLEM_COPIES,
    MIN_DECK,
    PROBLEM_DECK,
    UNIQUE_COPIES,
)

MLP_RULE = "my-little-pony-ccg.de.txt: Was brauche ich zum Spielen?"


def check_mlp(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    out: list[DeckProblem] = []
    size = deck.size
    if size < MIN_DECK:
        out.append(
            DeckProblem(
                "mlp.deck-too-small",
                f"the draw deck has {size} cards; at least {MIN_DECK} are needed",
                f"das Spieldeck hat {size} Karten; mindestens {MIN_DECK} sind nötig",
                rule=MLP_RULE,
            )
        )
    for card_id, n in deck.cards.items():
        card = card_in(cardset, card_id)
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
        elif card.has_keyword("Unique") and n > UNIQUE_COPIES:
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
        elif n > MAX_COPIES:
            out.append(
                DeckProblem(
                    "mlp.too-many-copies",
                    f"{n} copies of {card_id} ({card.name}); at most {MAX_COPIES} allowed",
                    f"{n} Exemplare von {card_id} ({card.name}); "
                    f"höchstens {MAX_COPIES} erlaubt",
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
    card = card_in(cardset, deck.mane)
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
    if size != PROBLEM_DECK:
        out.append(
            DeckProblem(
                "mlp.problem-deck-size",
                f"the problem deck has {size} cards; it must have exactly {PROBLEM_DECK}",
                f"das Problemdeck hat {size} Karten; es muss genau {PROBLEM_DECK} haben",
                rule=MLP_RULE,
            )
        )
    known = [card_in(cardset, card_id) for card_id in deck.problems]
    problems = [card for card in known if card is not None and card.type == "problem"]
    # "Starting Problem": one of them must be chosen from the problem deck to start with;
    # left unsaid when an unknown card might be one or no card is a problem at all
    if problems and None not in known and not any(
        card.has_keyword("Starting Problem") for card in problems
    ):
        out.append(
            DeckProblem(
                "mlp.no-starting-problem",
                "the problem deck has no Starting Problem; the game starts with one of them",
                "das Problemdeck hat kein Startproblem (Starting Problem); das Spiel beginnt "
                "mit einem davon",
                rule="my-little-pony-ccg.de.txt: Starting Problem",
            )
        )
    for card_id, n in deck.problems.items():
        card = card_in(cardset, card_id)
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
        elif n > MAX_PROBLEM_COPIES:
            out.append(
                DeckProblem(
                    "mlp.too-many-problem-copies",
                    f"{n} copies of problem {card_id} ({card.name}); "
                    f"at most {MAX_PROBLEM_COPIES} allowed",
                    f"{n} Exemplare des Problems {card_id} ({card.name}); höchstens "
                    f"{MAX_PROBLEM_COPIES} erlaubt",
                    (card_id,),
                    MLP_RULE,
                )
            )
    return out
