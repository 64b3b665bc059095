"""My Little Pony: the card schema (types, fields, value kinds, keywords; DESIGN.md "Card fields").

Named by the game's spec; `companion.cardsets` checks every card file of the game with it.
"""

from __future__ import annotations

from typing import Any

from companion.cardsets.kinds import (
    FieldValueError,
    IntKind,
    ListKind,
    StrKind,
    StructKind,
    canonical,
    check_keys,
    require_mapping,
    shown,
)
from companion.cardsets.schema import DeckSlot, FieldProblem, GameSchema, TypeSpec

MLP_COLOURS = ("Loyalty", "Honesty", "Laughter", "Magic", "Generosity", "Kindness")
MLP_KEYWORDS = (
    "Caretaker",
    "Epic",
    "Inspired",
    "Random",
    "Starting Problem",
    "Stubborn",
    "Studious",
    "Swift",
    "Unique",
    "Villain",
)


def _check_requirement(value: Any, what: str, allow_any: bool) -> dict[str, Any]:
    req = require_mapping(value, f"{what} {{power, color}}")
    check_keys(req, ["power", "color"], ["except"] if allow_any else [], what)
    power = req["power"]
    if isinstance(power, bool) or not isinstance(power, int) or power < 0:
        raise FieldValueError(f"{what}: power must be an integer >= 0, got {shown(power)}")
    colours = (*MLP_COLOURS, "any") if allow_any else MLP_COLOURS
    req = {**req, "color": canonical(req["color"], colours)}
    if "except" in req:
        req["except"] = canonical(req["except"], MLP_COLOURS)
    if req["color"] not in colours:
        raise FieldValueError(
            f"{what}: color must be one of {', '.join(colours)}, got {shown(req['color'])}"
        )
    out = {"power": power, "color": req["color"]}
    if "except" in req:
        if req["color"] != "any" or req["except"] not in MLP_COLOURS:
            raise FieldValueError(f"{what}: 'except' needs color any and one of the six colours")
        out["except"] = req["except"]
    return out


def _check_play_requirement(value: Any) -> dict[str, Any]:
    return _check_requirement(value, "play requirement", allow_any=False)


def _check_own(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise FieldValueError(f"must be a list of 1 or 2 requirements, got {shown(value)}")
    return [_check_requirement(v, f"requirement {i}", True) for i, v in enumerate(value, 1)]


def _mlp_cross_check(card_type: str, fields: dict[str, Any]) -> None:
    if card_type == "mane" and fields["boosted_home_limit"] < fields["home_limit"]:
        raise FieldProblem("boosted_home_limit", "field 'boosted_home_limit' is below home_limit")


_MLP_PLAYABLE_OPTIONAL = ("play_requirement", "traits", "rarity")

MY_LITTLE_PONY = GameSchema(
    game="my-little-pony-ccg",
    types={
        "mane": TypeSpec(
            ("name", "color", "power", "boosted_power", "home_limit", "boosted_home_limit"),
            ("subname", "boosted_keywords", "traits", "rarity"),
        ),
        "friend": TypeSpec(
            ("name", "color", "cost", "power"), ("subname", *_MLP_PLAYABLE_OPTIONAL)
        ),
        "resource": TypeSpec(("name", "cost", "power"), ("color", *_MLP_PLAYABLE_OPTIONAL)),
        "event": TypeSpec(("name", "cost", "power"), ("color", *_MLP_PLAYABLE_OPTIONAL)),
        "troublemaker": TypeSpec(("name", "power", "points"), ("traits", "rarity")),
        "problem": TypeSpec(("name", "own", "opponent", "bonus"), ("rarity",)),
    },
    kinds={
        "subname": StrKind(),
        "color": StrKind(MLP_COLOURS),
        "cost": IntKind(0, 99),
        "power": IntKind(0, 99),
        "boosted_power": IntKind(0, 99),
        "home_limit": IntKind(0, 99),
        "boosted_home_limit": IntKind(0, 99),
        "boosted_keywords": ListKind(StrKind(MLP_KEYWORDS)),
        "play_requirement": StructKind("a mapping {power, color}", _check_play_requirement),
        "own": StructKind("a list of 1-2 requirements {power, color}", _check_own),
        "opponent": IntKind(0, 99),
        "bonus": IntKind(0, 99),
        "points": IntKind(0, 99),
        "traits": ListKind(StrKind()),
        "rarity": StrKind(),
    },
    keywords=MLP_KEYWORDS,
    cross_check=_mlp_cross_check,
    # the mane character and the problem deck lie outside the draw deck
    deck_slots={"mane": DeckSlot("mane", required=True), "problems": DeckSlot("problem")},
)
