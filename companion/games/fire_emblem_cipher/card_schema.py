"""Fire Emblem: the card schema (types, fields, value kinds, keywords; DESIGN.md "Card fields").

Named by the game's spec; `companion.cardsets` checks every card file of the game with it.
"""

from __future__ import annotations

from companion.cardsets.kinds import IntKind, ListKind, StrKind
from companion.cardsets.schema import DeckSlot, GameSchema, TypeSpec

FE_COLOURS = ("Red", "Blue", "White", "Black", "Green", "Purple", "Yellow", "Brown", "Colorless")

FIRE_EMBLEM_CIPHER = GameSchema(
    game="fire-emblem-cipher",
    types={
        "unit": TypeSpec(
            ("name", "title", "cost", "attack", "support", "range", "symbols"),
            ("cc_cost", "gender", "weapon", "affinities", "class", "rarity", "starter_deck"),
        ),
    },
    kinds={
        "title": StrKind(),
        "cost": IntKind(0, 99),
        "cc_cost": IntKind(0, 99),
        "attack": IntKind(0, 999),
        "support": IntKind(0, 999),
        "range": ListKind(IntKind(1, 9)),
        "symbols": ListKind(StrKind(FE_COLOURS)),
        "gender": StrKind(("Male", "Female")),
        "weapon": StrKind(),
        "affinities": ListKind(StrKind()),
        "class": StrKind(),
        "rarity": StrKind(),
        "starter_deck": StrKind(),
    },
    keywords=(),
    deck_slots={"lord": DeckSlot()},  # the cost-1 main character, also one of the cards
)
