"""Creature Crush: everything the companion needs to know about the game, in one place."""

from __future__ import annotations

from companion.games.creature_crush.card_schema import CREATURE_CRUSH
from companion.games.creature_crush.deck_rules import check_cc
from companion.games.spec import GameSpec, PrintHints, each_player

SPEC = GameSpec(
    id="creature-crush",
    name="Creature Crush",
    code=5,
    rules_file="creature-crush.de.txt",
    ruleset="companion.games.creature_crush.rules:CreatureCrush",
    texts="companion.games.creature_crush.texts:CATALOG",
    table_facts="companion.games.creature_crush.table_facts:table_facts",
    card_effects="companion.games.creature_crush.card_effects:compile_card",
    zones=each_player("lager", "hell", *(f"{r}{c}" for r in "ABC" for c in (1, 2, 3)), "dice",
                      "burned"),
    draw_piles=("lager",),
    card_schema=CREATURE_CRUSH,
    deck_rules=check_cc,
    person_moves=frozenset({"attack", "agree-draw", "settle", "mark", "control"}),
    card_types_de={"creature": "Creature", "crush": "Crush"},  # the rulebook keeps "Creature"
    # five white start dice and five red damage dice per player
    printing=PrintHints(dice=(("w", 5), ("r", 5))),
)
