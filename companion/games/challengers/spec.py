"""Challengers!: everything the companion needs to know about the game, in one place."""

from __future__ import annotations

from companion.games.challengers.card_schema import CHALLENGERS
from companion.games.challengers.deck_rules import check_challengers
from companion.games.challengers.numbers import SEATS
from companion.games.spec import GameSpec, PrintHints, SimHints, each_player

SPEC = GameSpec(
    id="challengers",
    name="Challengers!",
    code=4,
    rules_file="challengers.de.txt",
    ruleset="companion.games.challengers.rules:Challengers",
    texts="companion.games.challengers.texts:CATALOG",
    table_facts="companion.games.challengers.table_facts:table_facts",
    card_effects="companion.games.challengers.card_effects:compile_card",
    zones=each_player("deck", "play", *(f"bench{i}" for i in range(1, SEATS + 1)), "rest",
                      "trophies"),
    card_schema=CHALLENGERS,
    deck_rules=check_challengers,
    person_moves=frozenset(),  # the camera sees every move of a match
    card_types_de={"start": "Startkarte", "recruit": "Rekrut", "bot": "Bot"},
    sim=SimHints(covering=True),  # an attack is pushed together into one stack
    printing=PrintHints(tokens=("flag",), whole_cardset=True,  # decks are built in play
                        twin_stickers=True),  # no row lies over another: card ends in view
)
