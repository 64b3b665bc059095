"""The card schema of each game, explicit: card types, their fields, value kinds, keywords.

Field names follow DESIGN.md ("Card fields"); keyword names are the rulebooks' own words.
`validate_card` turns one raw mapping into checked (core, fields) or raises `FieldProblem`
naming the field, so the loader can point at the exact line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.cardsets.kinds import (
    FieldValueError,
    IntKind,
    Kind,
    ListKind,
    StrKind,
    StructKind,
    check_keys,
    require_mapping,
    shown,
)
from companion.errors import CompanionError
from companion.markers.payload import MAX_CARD_NUMBER

CORE_FIELDS = ("id", "number", "name", "type", "keywords")
COMMON_OPTIONAL = ("text", "effects", "hook", "set")
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._\-]{0,39}$")


class FieldProblem(Exception):
    """One card breaks the schema at one field."""

    def __init__(self, field_name: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class TypeSpec:
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()


CrossCheck = Callable[[str, dict[str, Any]], None]


def _no_cross_check(card_type: str, fields: dict[str, Any]) -> None:
    return None


@dataclass(frozen=True)
class GameSchema:
    game: str
    types: dict[str, TypeSpec]
    kinds: dict[str, Kind]
    keywords: tuple[str, ...]
    defaults: dict[str, dict[str, Any]] = field(default_factory=dict)
    cross_check: CrossCheck = _no_cross_check

    def fields_of(self, card_type: str) -> tuple[str, ...]:
        spec = self.types[card_type]
        return (*spec.required, *spec.optional, *COMMON_OPTIONAL)

    def kind(self, name: str) -> Kind:
        if name in self.kinds:
            return self.kinds[name]
        return COMMON_KINDS[name]


def _check_effects(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(e, Mapping) for e in value):
        raise FieldValueError(f"must be a list of mappings, got {shown(value)}")
    return [dict(e) for e in value]


COMMON_KINDS: dict[str, Kind] = {
    "name": StrKind(),
    "text": StrKind(),
    "hook": StrKind(),
    "set": StrKind(),
    "effects": StructKind("a list of mappings", _check_effects),
}

# --- Trick or Beat ------------------------------------------------------------------------

TOB_FACTIONS = ("Gehirn", "Herocorps")
TOB_CATEGORIES = ("supply", "equipment", "other")
TOB_ABILITY_KINDS = ("permanent", "activatable", "combat")
TOB_TACTIC_KINDS = ("play", "permanent")
TOB_LANES = ("active", "passive")
TOB_ACTIONS = {
    # do: (needs amount, needs target)
    "modify_attack": (True, True),
    "modify_survival": (True, True),
    "draw": (True, False),
    "add_to_trick": (True, False),
    "destroy": (False, True),
    "return_to_hand": (False, True),
    "move": (False, True),
}
TOB_TARGETS = (
    "self",
    "own_lane",
    "own_creatures",
    "equipped",
    "attackers",
    "defender",
    "opponent_creature",
    "opponent_active",
    "all_creatures",
)
TOB_KEYWORDS = ("Permanent", "Aktivierbar", "Kämpferisch", "Nachschub", "Ausrüstung")


def _tob_effect_checker(creature: bool) -> Callable[[Any], list[dict[str, Any]]]:
    kinds = TOB_ABILITY_KINDS if creature else TOB_TACTIC_KINDS

    def check(value: Any) -> list[dict[str, Any]]:
        effects = _check_effects(value)
        for i, effect in enumerate(effects, 1):
            what = f"effect {i}"
            required = ["kind", "do"] + (["lane"] if creature else [])
            check_keys(effect, required, ["amount", "target", "faction"], what)
            if effect["kind"] not in kinds:
                raise FieldValueError(
                    f"{what}: kind must be one of {', '.join(kinds)}, got {shown(effect['kind'])}"
                )
            if creature and effect["lane"] not in TOB_LANES:
                raise FieldValueError(
                    f"{what}: lane must be active or passive, got {shown(effect['lane'])}"
                )
            action = effect["do"]
            if action not in TOB_ACTIONS:
                raise FieldValueError(
                    f"{what}: unknown action {shown(action)} (known: {', '.join(TOB_ACTIONS)}; "
                    "see companion/cardsets/effects_vocabulary.md)"
                )
            needs_amount, needs_target = TOB_ACTIONS[action]
            if needs_amount:
                amount = effect.get("amount")
                if isinstance(amount, bool) or not isinstance(amount, int):
                    raise FieldValueError(f"{what}: {action} needs an integer amount")
            if needs_target and effect.get("target") not in TOB_TARGETS:
                raise FieldValueError(
                    f"{what}: {action} needs a target, one of {', '.join(TOB_TARGETS)}, "
                    f"got {shown(effect.get('target'))}"
                )
            if "faction" in effect and effect["faction"] not in TOB_FACTIONS:
                raise FieldValueError(
                    f"{what}: faction must be Gehirn or Herocorps, got {shown(effect['faction'])}"
                )
        return effects

    return check


def _tob_cross_check(card_type: str, fields: dict[str, Any]) -> None:
    creature = card_type == "creature"
    if "effects" in fields:
        try:
            fields["effects"] = _tob_effect_checker(creature)(fields["effects"])
        except FieldValueError as exc:
            raise FieldProblem("effects", f"field 'effects' {exc}") from None


TRICK_OR_BEAT = GameSchema(
    game="trick-or-beat",
    types={
        "creature": TypeSpec(("name", "attack", "survival", "faction")),
        "tactic": TypeSpec(("name", "category")),
    },
    kinds={
        "attack": IntKind(0, 99),
        "survival": IntKind(0, 99),
        "faction": StrKind(TOB_FACTIONS),
        "category": StrKind(TOB_CATEGORIES),
    },
    keywords=TOB_KEYWORDS,
    cross_check=_tob_cross_check,
)

# --- Fire Emblem Cipher -----------------------------------------------------------------

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
)

# --- My Little Pony CCG -----------------------------------------------------------------

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
)

# --- Challengers! -----------------------------------------------------------------------

CH_BASE_SET = "Stadt"
CH_THEMED_SETS = ("Weltraum", "Burg", "Spukhaus", "Freizeitpark", "Filmstudio", "Tiefsee")
CH_BOT_SET = "Bot"
CH_SETS = (CH_BASE_SET, *CH_THEMED_SETS, CH_BOT_SET)
CH_LEVELS = ("S", "A", "B", "C", "R")
CH_LEVEL_MAX_STRENGTH = {"A": 3, "B": 5, "C": 10}
CH_KEYWORDS = ("Im Angriff", "Von der Bank", "Im Fahnenbesitz", "Fahnenverlust", "Ausgewählt")
CH_TYPE_LEVELS = {"start": ("S",), "recruit": ("A", "B", "C"), "bot": ("R",)}
CH_DEFAULT_COPIES = 4


def _challengers_cross_check(card_type: str, fields: dict[str, Any]) -> None:
    level = fields["level"]
    if level not in CH_TYPE_LEVELS[card_type]:
        allowed = " or ".join(CH_TYPE_LEVELS[card_type])
        raise FieldProblem("level", f"field 'level' of a {card_type} card must be {allowed}")
    top = CH_LEVEL_MAX_STRENGTH.get(level)
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
    defaults={t: {"copies": CH_DEFAULT_COPIES} for t in ("start", "recruit", "bot")},
    cross_check=_challengers_cross_check,
)

# --- Creature Crush ---------------------------------------------------------------------

CC_KEYWORDS = ("Aktion", "Falle", "Hölle", "Munter", "Nachtragend", "Träge")


def _creature_crush_cost(card_type: str, fields: dict[str, Any]) -> None:
    lo, hi = (1, 12) if card_type == "creature" else (0, 4)
    if not lo <= fields["cost"] <= hi:
        what = "an integer 1-12" if card_type == "creature" else "a dice count 0 (X)-4"
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


SCHEMAS: dict[str, GameSchema] = {
    s.game: s
    for s in (TRICK_OR_BEAT, FIRE_EMBLEM_CIPHER, MY_LITTLE_PONY, CHALLENGERS, CREATURE_CRUSH)
}


class UnknownCardsetGameError(CompanionError):
    """A game id that has no card schema (none of the five games)."""


def schema_for(game: str) -> GameSchema:
    """The schema of `game`; an unknown id lists the five known ones."""
    try:
        return SCHEMAS[game]
    except KeyError:
        known = ", ".join(SCHEMAS)
        raise UnknownCardsetGameError(f"unknown game {game!r}; known games: {known}") from None


# --- validation ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckedCard:
    id: str
    number: int | None
    name: str
    type: str
    keywords: tuple[str, ...]
    fields: dict[str, Any]


def _suggest(word: str, options: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _check_keywords(schema: GameSchema, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise FieldProblem(
            "keywords", f"field 'keywords' must be a list of words, got {shown(value)}"
        )
    for word in value:
        if word not in schema.keywords:
            allowed = ", ".join(schema.keywords) if schema.keywords else "none"
            raise FieldProblem(
                "keywords",
                f"unknown keyword {word!r} (allowed in {schema.game}: {allowed})"
                + _suggest(word, schema.keywords),
            )
    if len(set(value)) != len(value):
        raise FieldProblem("keywords", "field 'keywords' repeats a keyword")
    return tuple(value)


def card_label(raw: Any, index: int | None) -> str:
    """How a card is named in messages: its id, or its position when the id is unusable."""
    if isinstance(raw, Mapping) and isinstance(raw.get("id"), str | int) and raw.get("id") != "":
        return f"card {raw['id']}"
    return f"card #{index}" if index is not None else "card"


def validate_card(schema: GameSchema, raw: Any, require_number: bool = True) -> CheckedCard:
    """Check one card mapping against its game's schema; raise FieldProblem on the first fault."""
    if not isinstance(raw, Mapping):
        raise FieldProblem(None, f"must be a mapping of fields, got {shown(raw)}")
    card_id = raw.get("id")
    if isinstance(card_id, int) and not isinstance(card_id, bool):
        card_id = str(card_id)
    if card_id is None:
        raise FieldProblem("id", "missing field 'id'")
    if not isinstance(card_id, str) or not ID_PATTERN.match(card_id):
        raise FieldProblem(
            "id",
            f"field 'id' must be 1-40 letters, digits, '.', '_' or '-', got {shown(card_id)}",
        )
    card_type = raw.get("type")
    if card_type is None:
        raise FieldProblem("type", "missing field 'type'")
    if card_type not in schema.types:
        raise FieldProblem(
            "type",
            f"field 'type' must be one of {', '.join(schema.types)}, got {shown(card_type)}",
        )
    number: int | None = None
    if "number" in raw:
        try:
            number = IntKind(0, MAX_CARD_NUMBER).check(raw["number"])
        except FieldValueError as exc:
            raise FieldProblem("number", f"field 'number' {exc}") from None
    elif require_number:
        raise FieldProblem(
            "number", "missing field 'number' (the card number printed in its sticker)"
        )
    allowed = schema.fields_of(card_type)
    for key in raw:
        if key not in allowed and key not in CORE_FIELDS:
            raise FieldProblem(
                key,
                f"unknown field {key!r} for a {card_type}" + _suggest(str(key), list(allowed)),
            )
    spec = schema.types[card_type]
    for key in spec.required:
        if key not in raw or raw[key] is None:
            raise FieldProblem(
                key, f"missing field {key!r} (a {card_type} needs {', '.join(spec.required)})"
            )
    fields: dict[str, Any] = dict(schema.defaults.get(card_type, {}))
    for key in allowed:
        if key not in raw or raw[key] is None:
            continue
        try:
            value = schema.kind(key).check(raw[key])
        except FieldValueError as exc:
            raise FieldProblem(key, f"field {key!r} {exc}") from None
        if value == [] and key not in spec.required:
            continue  # an empty optional list means the same as no list
        fields[key] = value
    keywords = _check_keywords(schema, raw.get("keywords"))
    schema.cross_check(card_type, fields)
    name = fields.pop("name")
    return CheckedCard(card_id, number, name, card_type, keywords, fields)
