"""Fire Emblem Cipher: everything the companion needs to know about the game, in one place."""

from __future__ import annotations

from companion.games.fire_emblem_cipher.card_schema import FIRE_EMBLEM_CIPHER
from companion.games.fire_emblem_cipher.deck_rules import check_fe
from companion.games.spec import GameSpec, SimHints, each_player

SPEC = GameSpec(
    id="fire-emblem-cipher",
    name="Fire Emblem Cipher",
    code=2,
    rules_file="fire-emblem-cipher.de.txt",
    ruleset="companion.games.fire_emblem_cipher.rules:FireEmblemCipher",
    texts="companion.games.fire_emblem_cipher.texts:CATALOG",
    table_facts="companion.games.fire_emblem_cipher.table_facts:table_facts",
    card_effects="companion.engine.effects.compiling:structured_abilities",
    zones=each_player("deck", "bonds", "front", "back", "support", "retreat", "orbs"),
    card_schema=FIRE_EMBLEM_CIPHER,
    deck_rules=check_fe,
    person_moves=frozenset({"attack", "critical", "evade", "end-combat", "mulligan"}),
    card_types_de={"unit": "Einheit"},
    sim=SimHints(covering=True),  # a level-up lies squarely on the unit it promotes
)
