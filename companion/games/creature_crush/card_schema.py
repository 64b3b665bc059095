"""Creature Crush: the card schema (types, fields, value kinds, keywords; DESIGN.md "Card fields").

Named by the game's spec; `companion.cardsets` checks every card file of the game with it.
"""

from __future__ import annotations

from typing import Any

from companion.cardsets.kinds import IntKind, StrKind
from companion.cardsets.schema import FieldProblem, GameSchema, TypeSpec
from companion.games.creature_crush.numbers import CRUSH_MAX_COST

CC_KEYWORDS = ("Aktion", "Falle", "Hölle", "Munter", "Nachtragend", "Träge")


def _creature_crush_cost(card_type: str, fields: dict[str, Any]) -> None:
    lo, hi = (1, 12) if card_type == "creature" else (0, CRUSH_MAX_COST)
    if not lo <= fields["cost"] <= hi:
        what = "an integer 1-12" if card_type == "creature" \
            else f"a dice count 0 (X)-{CRUSH_MAX_COST}"
        raise FieldProblem(
            "cost", f"field 'cost' of a {card_type} must be {what}, got {fields['cost']!r}"
        )


CREATURE_CRUSH = GameSchema(
    game="creature-crush",
    types={
        "creature": TypeSpec(("name", "cost", "attack", "life")),
        "crush": TypeSpec(("name", "cost"), ("flip_condition",)),
    },
    kinds={
        "cost": IntKind(0, 12),
        "attack": IntKind(0, 99),
        "life": IntKind(1, 99),
        "flip_condition": StrKind(),
    },
    keywords=CC_KEYWORDS,
    cross_check=_creature_crush_cost,
)
