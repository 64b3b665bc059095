"""Toy Duel: every violation, with its rule section, in English and German."""

from __future__ import annotations

from typing import Any

from companion.engine.api import Violation
from companion.engine.texts import ViolationCatalog

RULEBOOK = "Toy Duel rules"

VIOLATIONS = {
    "toy.not-your-turn": (
        "Ablauf",
        "It is {active}'s turn, not {player}'s.",
        "{active} ist am Zug, nicht {player}.",
    ),
    "toy.once-per-turn": (
        "Ablauf",
        "{player} enlisted a fighter this turn already.",
        "{player} hat in diesem Zug schon einen Kämpfer eingesetzt.",
    ),
    "toy.not-in-hand": (
        "Ablauf",
        "{card} is not in {player}'s hand.",
        "{card} ist nicht auf der Hand von {player}.",
    ),
    "toy.wrong-field": (
        "Ablauf",
        "A fighter goes onto its own player's field, not {to}.",
        "Ein Kämpfer kommt auf das eigene Feld, nicht auf {to}.",
    ),
}

CATALOG = ViolationCatalog(RULEBOOK, VIOLATIONS)


def violation(code: str, **values: Any) -> Violation:
    return CATALOG.violation(code, **values)
