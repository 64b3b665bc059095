"""Trick or Beat: everything the companion needs to know about the game, in one place."""

from __future__ import annotations

from companion.games.spec import GameSpec, PrintHints, each_player
from companion.games.trick_or_beat.card_schema import TRICK_OR_BEAT
from companion.games.trick_or_beat.deck_rules import check_tob

SPEC = GameSpec(
    id="trick-or-beat",
    name="Trick or Beat",
    code=1,
    rules_file="trick-or-beat.de.txt",
    ruleset="companion.games.trick_or_beat.rules:TrickOrBeat",
    texts="companion.games.trick_or_beat.texts:CATALOG",
    table_facts="companion.games.trick_or_beat.table_facts:table_facts",
    card_effects="companion.games.trick_or_beat.card_effects:compile_card",
    zones=("shared.deck", "shared.discard", *each_player("active", "passive", "trick")),
    draw_piles=("deck",),  # one shared draw pile
    card_schema=TRICK_OR_BEAT,
    deck_rules=check_tob,
    person_moves=frozenset({"attack", "activate", "redraw"}),
    card_types_de={"creature": "Wesen", "tactic": "Taktik"},
    printing=PrintHints(whole_cardset=True,  # both players draw from all 150 cards
                        twin_stickers=True),  # lanes lie side by side: card ends in view
)
