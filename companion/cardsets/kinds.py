"""Value kinds for card fields: how a value is checked, read from a CSV cell and written to one.

One kind object per field type keeps the YAML checks and the CSV import/export in step: a value
that survives `check` can always be written with `to_text` and read back with `from_text`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

LIST_SEPARATOR = ";"


class FieldValueError(ValueError):
    """A value does not fit its field; the message reads after "field 'x' ..."."""


def shown(value: Any) -> str:
    """A short, quoted rendering of a bad value for messages."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def canonical(value: Any, choices: Sequence[str]) -> Any:
    """`value` spelled as one of `choices` when it is one in any case ("herocorps" ->
    "Herocorps", "blue" -> "Blue"); otherwise unchanged (the caller reports it)."""
    if not isinstance(value, str) or value in choices:
        return value
    folded = value.strip().casefold()
    matches = [c for c in choices if c.casefold() == folded]
    return matches[0] if len(matches) == 1 else value


class Kind:
    """Base kind: subclasses check and convert one field's values."""

    description = "a value"

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def from_text(self, text: str) -> Any:
        return text

    def to_text(self, value: Any) -> str:
        return str(value)

    def fail(self, value: Any) -> FieldValueError:
        return FieldValueError(f"must be {self.description}, got {shown(value)}")


class IntKind(Kind):
    def __init__(self, lo: int = 0, hi: int | None = None) -> None:
        self.lo = lo
        self.hi = hi
        self.description = f"an integer >= {lo}" if hi is None else f"an integer {lo}-{hi}"

    def check(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(value)
        if value < self.lo or (self.hi is not None and value > self.hi):
            raise self.fail(value)
        return value

    def from_text(self, text: str) -> Any:
        stripped = text.strip()
        try:
            return int(stripped)
        except ValueError:
            return stripped


class StrKind(Kind):
    def __init__(self, choices: Sequence[str] | None = None) -> None:
        self.choices = tuple(choices) if choices else None
        self.description = (
            "one of " + ", ".join(self.choices) if self.choices else "a non-empty text"
        )

    def check(self, value: Any) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool) and not self.choices:
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(value)
        if self.choices:
            value = canonical(value, self.choices)
            if value not in self.choices:
                raise self.fail(value)
        return value


class ListKind(Kind):
    """A list of scalar items; in CSV the items are joined with ';'."""

    def __init__(self, item: IntKind | StrKind) -> None:
        self.item = item
        self.description = f"a list of items each {item.description}"

    def check(self, value: Any) -> list[Any]:
        if isinstance(value, str | int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(value)
        out = []
        for entry in value:
            try:
                out.append(self.item.check(entry))
            except FieldValueError:
                raise FieldValueError(
                    f"must be a list whose items are each {self.item.description}, "
                    f"got item {shown(entry)}"
                ) from None
        return out

    def from_text(self, text: str) -> Any:
        if not text.strip():
            return []
        return [self.item.from_text(part.strip()) for part in text.split(LIST_SEPARATOR)]

    def to_text(self, value: Any) -> str:
        return LIST_SEPARATOR.join(self.item.to_text(v) for v in value)


class StructKind(Kind):
    """A mapping or list of mappings checked by a function; in CSV it is written as JSON."""

    def __init__(self, description: str, checker: Callable[[Any], Any]) -> None:
        self.description = description
        self.checker = checker

    def check(self, value: Any) -> Any:
        return self.checker(value)

    def from_text(self, text: str) -> Any:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text

    def to_text(self, value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def require_mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise FieldValueError(f"must be {what}, got {shown(value)}")
    return value


def check_keys(
    value: Mapping[str, Any], required: Sequence[str], optional: Sequence[str], what: str
) -> None:
    """Every required key present, no key outside required + optional."""
    for key in required:
        if key not in value:
            raise FieldValueError(f"{what} needs key {key!r}, got {shown(dict(value))}")
    for key in value:
        if key not in required and key not in optional:
            allowed = ", ".join([*required, *optional])
            raise FieldValueError(f"{what} has unknown key {key!r} (allowed: {allowed})")
