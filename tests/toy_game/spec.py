"""Toy Duel's spec: the one thing the registry needs (`register("tests.toy_game.spec:SPEC")`)."""

from __future__ import annotations

from pathlib import Path

from companion.cardsets import CardSet, DeckList
from companion.cardsets.deck_problems import DeckProblem
from companion.cardsets.kinds import IntKind
from companion.cardsets.schema import GameSchema, TypeSpec
from companion.games.spec import GameSpec, each_player

HERE = Path(__file__).resolve().parent
DECK_SIZE = 6

CARD_SCHEMA = GameSchema(
    game="toy-duel",
    types={"fighter": TypeSpec(("name", "power"))},
    kinds={"power": IntKind(0, 9)},
    keywords=(),
)


def check_deck(deck: DeckList, cardset: CardSet) -> list[DeckProblem]:
    if deck.size == DECK_SIZE:
        return []
    return [DeckProblem("toy.deck-size", f"the deck has {deck.size} cards, not {DECK_SIZE}",
                        f"das Deck hat {deck.size} Karten, nicht {DECK_SIZE}", rule="Aufbau")]


SPEC = GameSpec(
    id="toy-duel",
    name="Toy Duel",
    code=8,
    rules_file="toy-duel.de.txt",
    ruleset="tests.toy_game.rules:ToyDuel",
    texts="tests.toy_game.texts:CATALOG",
    zones=each_player("deck", "field"),
    card_schema=CARD_SCHEMA,
    deck_rules=check_deck,
    person_moves=frozenset(),
    card_types_de={"fighter": "Kämpfer"},
    card_effects="companion.engine.effects.compiling:structured_abilities",
    layout_file=HERE / "layout.yaml",
    cardset_dir=HERE / "cards",
)
