"""My Little Pony CCG: everything the companion needs to know about the game, in one place."""

from __future__ import annotations

from companion.games.my_little_pony.card_schema import MY_LITTLE_PONY
from companion.games.my_little_pony.deck_rules import check_mlp
from companion.games.spec import GameSpec, PrintHints, each_player

SPEC = GameSpec(
    id="my-little-pony-ccg",
    name="My Little Pony CCG",
    code=3,
    rules_file="my-little-pony-ccg.de.txt",
    ruleset="companion.games.my_little_pony.rules:MyLittlePony",
    texts="companion.games.my_little_pony.texts:CATALOG",
    table_facts="companion.games.my_little_pony.table_facts:table_facts",
    card_effects="companion.engine.effects.compiling:structured_abilities",
    zones=each_player("deck", "discard", "problem-deck", "problem", "home"),
    draw_piles=("deck", "problem-deck"),
    card_schema=MY_LITTLE_PONY,
    deck_rules=check_mlp,
    person_moves=frozenset(
        {"challenge", "flip", "keep", "send-home", "boost", "modify", "identify"}
    ),
    card_types_de={"mane": "Hauptcharakter", "friend": "Freund", "resource": "Ressource",
                   "event": "Ereignis", "troublemaker": "Widersacher", "problem": "Problem"},
    printing=PrintHints(twin_stickers=True),  # areas side by side: card ends in view
)
