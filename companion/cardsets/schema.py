"""What a card schema is, and how a card is checked against one.

A `GameSchema` names a game's card types, their fields, value kinds and keywords, and the
special slots of its deck lists. Each game declares its own in its package
(`companion/games/<game>/card_schema.py`, named by the game's spec); this module knows no game.
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
    StrKind,
    StructKind,
    canonical,
    shown,
)
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


DECK_SLOT_FIELDS = ("mane", "problems", "lord")
"""The deck-list fields besides `cards` a game may use (see `companion.cardsets.decks`)."""


@dataclass(frozen=True)
class DeckSlot:
    """A deck-list field besides `cards`: `mane` and `lord` name one card, `problems` counts.

    `card_type`: the only type allowed there (and never in `cards`); None allows any card.
    `required`: a deck list without it is broken.
    """

    card_type: str | None = None
    required: bool = False


@dataclass(frozen=True)
class GameSchema:
    game: str
    types: dict[str, TypeSpec]
    kinds: dict[str, Kind]
    keywords: tuple[str, ...]
    defaults: dict[str, dict[str, Any]] = field(default_factory=dict)
    cross_check: CrossCheck = _no_cross_check
    deck_slots: dict[str, DeckSlot] = field(default_factory=dict)
    """Deck-list fields besides `cards` (keys from DECK_SLOT_FIELDS)."""

    def __post_init__(self) -> None:
        unknown = [k for k in self.deck_slots if k not in DECK_SLOT_FIELDS]
        if unknown:
            raise ValueError(f"{self.game}: unknown deck slot {unknown[0]!r}; "
                             f"known: {', '.join(DECK_SLOT_FIELDS)}")

    def fields_of(self, card_type: str) -> tuple[str, ...]:
        spec = self.types[card_type]
        return (*spec.required, *spec.optional, *COMMON_OPTIONAL)

    def kind(self, name: str) -> Kind:
        if name in self.kinds:
            return self.kinds[name]
        return COMMON_KINDS[name]


def check_effects(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(e, Mapping) for e in value):
        raise FieldValueError(f"must be a list of mappings, got {shown(value)}")
    return [dict(e) for e in value]


COMMON_KINDS: dict[str, Kind] = {
    "name": StrKind(),
    "text": StrKind(),
    "hook": StrKind(),
    "set": StrKind(),
    "effects": StructKind("a list of mappings", check_effects),
}

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
    value = [canonical(word, schema.keywords) for word in value]
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
    card_type = canonical(raw.get("type"), tuple(schema.types))
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
