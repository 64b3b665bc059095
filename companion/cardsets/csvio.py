"""CSV import and export of cardsets, and writing a cardset YAML file.

An owner's own card list comes as CSV with DESIGN.md's field names as columns (`id`, `number`,
`name`, `type`, then the game's fields, `keywords`). A list value is written `a;b;c`; a nested
value (MLP requirements, effects) is written as JSON. An empty cell means "not given", except
for a list field the card type requires, where it means the empty list (a staff user's range).
Import and export use the same schema kinds, so export -> import gives the same cards.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

import yaml

from companion.cardsets.games import schema_for
from companion.cardsets.kinds import LIST_SEPARATOR, IntKind, ListKind
from companion.cardsets.loader import build_card
from companion.cardsets.model import Card, CardsetError

LEAD_COLUMNS = ("id", "number", "name", "type")


def csv_columns(game: str, cards: Iterable[Card]) -> list[str]:
    """id, number, name, type, every field the cards use (in schema order), keywords."""
    schema = schema_for(game)
    used: set[str] = set()
    any_keywords = False
    for card in cards:
        used.update(card.fields)
        any_keywords = any_keywords or bool(card.keywords)
    ordered: list[str] = []
    for card_type in schema.types:
        for name in schema.fields_of(card_type):
            if name in used and name not in ordered and name not in LEAD_COLUMNS:
                ordered.append(name)
    return [*LEAD_COLUMNS, *ordered, *(["keywords"] if any_keywords else [])]


def export_csv(game: str, cards: Iterable[Card]) -> str:
    """The cards as CSV text (UTF-8, header row, standard quoting)."""
    cards = list(cards)
    schema = schema_for(game)
    columns = csv_columns(game, cards)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for card in cards:
        row = []
        for column in columns:
            if column in LEAD_COLUMNS:
                row.append(str(card[column]))
            elif column == "keywords":
                row.append(LIST_SEPARATOR.join(card.keywords))
            elif column in card.fields:
                row.append(schema.kind(column).to_text(card.fields[column]))
            else:
                row.append("")
        writer.writerow(row)
    return out.getvalue()


def _cell_value(game: str, card_type: str, column: str, text: str) -> Any:
    schema = schema_for(game)
    if column == "number":
        return IntKind().from_text(text)
    if column in ("id", "name", "type"):
        return text
    if column == "keywords":
        return [k.strip() for k in text.split(LIST_SEPARATOR) if k.strip()]
    try:
        kind = schema.kind(column)
    except KeyError:
        return text  # an unknown column: the schema check names it
    if not text.strip():
        required = schema.types[card_type].required if card_type in schema.types else ()
        if isinstance(kind, ListKind) and column in required:
            return []
        return None
    return kind.from_text(text)


class _Rows:
    """A csv reader whose own errors (a field beyond csv's size limit, a stray NUL) are a
    CardsetError naming the file and line, like every other problem of the file."""

    def __init__(self, reader: Any, where: str) -> None:
        self._reader = reader
        self._where = where

    def __iter__(self) -> _Rows:
        return self

    def __next__(self) -> list[str]:
        try:
            row: list[str] = next(self._reader)
        except csv.Error as exc:
            raise CardsetError(self._where, f"not a readable CSV file ({exc})",
                               self._reader.line_num + 1) from None
        return row

    @property
    def line_num(self) -> int:
        return int(self._reader.line_num)


def import_csv(game: str, text: str, where: str, sample: bool = False) -> list[Card]:
    """Cards from CSV text; a bad cell raises CardsetError naming file, line, card, field."""
    schema_for(game)
    reader = _Rows(csv.reader(io.StringIO(text)), where)
    try:
        header = next(reader)
    except StopIteration:
        raise CardsetError(where, "empty CSV file (needs a header row)", 1) from None
    header = [h.strip() for h in header]
    for required in LEAD_COLUMNS:
        if required not in header:
            raise CardsetError(where, f"CSV header is missing the column {required!r}", 1)
    if len(set(header)) != len(header):
        raise CardsetError(where, "CSV header repeats a column", 1)
    cards: list[Card] = []
    ids: set[str] = set()
    numbers: set[int] = set()
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise CardsetError(where, f"row has {len(row)} cells, header has {len(header)}", line)
        card_type = row[header.index("type")].strip()
        raw: dict[str, Any] = {}
        for column, cell in zip(header, row, strict=True):
            value = _cell_value(game, card_type, column, cell)
            if value is not None:
                raw[column] = value
        card = build_card(game, raw, where, len(cards) + 1, sample, True, line)
        if card.id in ids:
            raise CardsetError(where, f"card {card.id}: duplicate id", line)
        if card.number in numbers:
            raise CardsetError(where, f"card {card.id}: duplicate number {card.number}", line)
        ids.add(card.id)
        numbers.add(card.number)
        cards.append(card)
    return cards


def _dump_card(card: Card) -> str:
    body = yaml.safe_dump(
        card.to_mapping(),
        default_flow_style=True,
        width=100_000,
        allow_unicode=True,
        sort_keys=False,
    )
    return f"  - {body.strip()}\n"


def cardset_yaml(game: str, set_name: str, sample: bool, source: str, cards: Iterable[Card]) -> str:
    """A cardset file (header plus one card per line) that `load_cardset` reads back."""
    header = {"game": game, "set": set_name, "sample": sample, "source": source}
    text = yaml.safe_dump(header, allow_unicode=True, sort_keys=False, width=100)
    lines = "".join(_dump_card(c) for c in cards)
    return text + ("cards:\n" + lines if lines else "cards: []\n")
