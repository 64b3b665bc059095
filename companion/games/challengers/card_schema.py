"""Challengers: the card schema (types, fields, value kinds, keywords; DESIGN.md "Card fields").

Named by the game's spec; `companion.cardsets` checks every card file of the game with it.
"""

from __future__ import annotations

from typing import Any

from companion.cardsets.kinds import IntKind, StrKind
from companion.cardsets.schema import FieldProblem, GameSchema, TypeSpec
from companion.games.challengers.numbers import DEFAULT_COPIES, LEVEL_MAX_STRENGTH, THEMED_SETS

CH_BASE_SET = "Stadt"
CH_THEMED_SETS = ("Weltraum", "Burg", "Spukhaus", "Freizeitpark", "Filmstudio", "Tiefsee")
CH_BOT_SET = "Bot"
assert len(CH_THEMED_SETS) == THEMED_SETS
CH_SETS = (CH_BASE_SET, *CH_THEMED_SETS, CH_BOT_SET)
CH_LEVELS = ("S", "A", "B", "C", "R")
CH_KEYWORDS = ("Im Angriff", "Von der Bank", "Im Fahnenbesitz", "Fahnenverlust", "Ausgewählt")
CH_TYPE_LEVELS = {"start": ("S",), "recruit": ("A", "B", "C"), "bot": ("R",)}


def _challengers_cross_check(card_type: str, fields: dict[str, Any]) -> None:
    level = fields["level"]
    if level not in CH_TYPE_LEVELS[card_type]:
        allowed = " or ".join(CH_TYPE_LEVELS[card_type])
        raise FieldProblem("level", f"field 'level' of a {card_type} card must be {allowed}")
    top = LEVEL_MAX_STRENGTH.get(level)
    if top is not None and fields["strength"] > top:
        raise FieldProblem(
            "strength", f"field 'strength' is {fields['strength']}, level {level} allows <= {top}"
        )
    if card_type == "bot" and fields["set"] != CH_BOT_SET:
        raise FieldProblem("set", f"field 'set' of a bot card must be {CH_BOT_SET}")
    if card_type != "bot" and fields["set"] == CH_BOT_SET:
        raise FieldProblem("set", f"field 'set' {CH_BOT_SET} is only for bot cards")
    if card_type == "start" and fields["set"] != CH_BASE_SET:
        raise FieldProblem("set", f"field 'set' of a start card must be {CH_BASE_SET}")


CHALLENGERS = GameSchema(
    game="challengers",
    types={
        "start": TypeSpec(("name", "strength", "level", "set"), ("copies",)),
        "recruit": TypeSpec(("name", "strength", "level", "set"), ("copies",)),
        "bot": TypeSpec(("name", "strength", "level", "set"), ("copies",)),
    },
    kinds={
        "strength": IntKind(0, 10),
        "level": StrKind(CH_LEVELS),
        "set": StrKind(CH_SETS),
        "copies": IntKind(1, 99),
    },
    keywords=CH_KEYWORDS,
    defaults={t: {"copies": DEFAULT_COPIES} for t in ("start", "recruit", "bot")},
    cross_check=_challengers_cross_check,
)
