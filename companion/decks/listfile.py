"""Deck list files, read leniently so that `companion deck check` can explain every fault.

Two formats, one meaning (`companion.cardsets.DeckList`):

YAML (``.yaml``/``.yml``), the bundled sample-deck format plus optional ``copies``::

    game: my-little-pony-ccg
    name: Twilight's friends
    mane: PR4                      # My Little Pony: outside the 45-card count
    problems: {PR162: 2, ...}      # My Little Pony: the 10-card problem deck
    lord: B01-003                  # Fire Emblem Cipher: the cost-1 lord, also in cards
    cards: {PR12: 3, PR20: 2, ...}
    copies: {PR12: [1, 2, 4]}      # optional: which physical copies (sticker copy numbers)

Plain text (any other name), one entry a line, ``#`` starts a comment::

    game: my-little-pony-ccg       # or give --game
    name: Twilight's friends
    mane: PR4
    3 PR12                         # also "3x PR12", "PR12 x3", or "PR12" for one copy
    problems:                      # the following lines go to the problem deck
    2 PR162
    cards:                         # back to the draw deck

Only the file's form is checked here (fields, counts, ids well-formed); whether the cards exist
and the deck is legal is `companion.decks.rules`' job, so each fault gets its rule code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from companion import safeio
from companion.cardsets import DeckList
from companion.cardsets.yaml_lines import LineMap, load_yaml_file
from companion.errors import DataFileError
from companion.games import GAMES, game_info
from companion.markers.payload import MAX_COPY

YAML_SUFFIXES = (".yaml", ".yml")
FIELDS = ("game", "name", "cards", "mane", "problems", "lord", "note", "copies")


class DeckFileError(DataFileError):
    """A deck list file that cannot be read as a deck; names file and line."""


@dataclass(frozen=True)
class DeckFile:
    """A deck as read from a file: the list, the physical copies named, and where things were."""

    deck: DeckList
    copies: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    lines: Mapping[str, int] = field(default_factory=dict)  # card id (or field) -> line

    @property
    def path(self) -> str:
        return self.deck.path


def read_deck(path: Path, game: str | None = None) -> DeckFile:
    """Read a YAML or plain-text deck list. `game` is required when the file names none."""
    path = Path(path)
    if path.suffix.lower() in YAML_SUFFIXES:
        return _read_yaml(path, game)
    try:
        text = safeio.read_text(path)
    except safeio.UnsafeInputError as exc:
        raise DeckFileError(path, str(exc).removeprefix(f"{path}: ")) from None
    return parse_text_deck(text, str(path), game)


def _count(value: Any, where: str, line: int | None, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COPY:
        raise DeckFileError(
            where, f"count of {what} must be a whole number 1-{MAX_COPY}, got {value!r}", line
        )
    return value


def _game(value: Any, given: str | None, where: str, line: int | None) -> str:
    if value is None:
        if given is None:
            raise DeckFileError(
                where, "the deck names no game: add 'game: ...' or give --game", line
            )
        return game_info(given).id
    if str(value) not in GAMES:
        raise DeckFileError(where, f"unknown game {value!r}; known games: {', '.join(GAMES)}", line)
    if given is not None and str(value) != given:
        raise DeckFileError(where, f"the deck is for {value}, not {given}", line)
    return str(value)


def _read_yaml(path: Path, given_game: str | None) -> DeckFile:
    where = str(path)
    data = load_yaml_file(path, where)
    if not isinstance(data, LineMap):
        raise DeckFileError(where, "a deck file must be a mapping with game, name and cards", 1)
    for key in data:
        if key not in FIELDS:
            raise DeckFileError(
                where, f"unknown deck field {key!r} (known: {', '.join(FIELDS)})", data.line_of(key)
            )
    game = _game(data.get("game"), given_game, where, data.line_of("game"))
    lines: dict[str, int] = {}

    def counts(key: str) -> dict[str, int]:
        value = data.get(key) or {}
        if not isinstance(value, Mapping):
            raise DeckFileError(
                where, f"{key!r} must be a mapping card id: count", data.line_of(key)
            )
        out: dict[str, int] = {}
        for card_id, n in value.items():
            line = value.line_of(card_id) if isinstance(value, LineMap) else data.line_of(key)
            out[str(card_id)] = _count(n, where, line, str(card_id))
            if line is not None:
                lines.setdefault(str(card_id), line)
        return out

    def single(key: str) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise DeckFileError(where, f"{key!r} must be one card id", data.line_of(key))
        line = data.line_of(key)
        if line is not None:
            lines.setdefault(str(value), line)
        return str(value)

    deck = DeckList(
        slug=path.stem,
        name=str(data.get("name") or path.stem),
        game=game,
        cards=counts("cards"),
        mane=single("mane"),
        problems=counts("problems"),
        lord=single("lord"),
        note=str(data["note"]) if data.get("note") is not None else None,
        path=where,
    )
    return DeckFile(deck, _copies(data, where, deck), lines)


def physical_count(deck: DeckList, card_id: str) -> int:
    """How many physical copies of `card_id` the deck holds (mane, cards and problems)."""
    return deck.cards.get(card_id, 0) + deck.problems.get(card_id, 0) + (deck.mane == card_id)


def _copies(data: LineMap, where: str, deck: DeckList) -> dict[str, tuple[int, ...]]:
    value = data.get("copies") or {}
    if not isinstance(value, Mapping):
        raise DeckFileError(
            where, "'copies' must map card id to a list of copy numbers", data.line_of("copies")
        )
    out: dict[str, tuple[int, ...]] = {}
    for card_id, numbers in value.items():
        line = value.line_of(card_id) if isinstance(value, LineMap) else None
        if not isinstance(numbers, list) or not numbers:
            raise DeckFileError(where, f"copies of {card_id} must be a list of copy numbers", line)
        checked = tuple(_count(n, where, line, f"a copy of {card_id}") for n in numbers)
        if len(set(checked)) != len(checked):
            raise DeckFileError(where, f"copies of {card_id} repeat a copy number", line)
        expected = physical_count(deck, str(card_id))
        if len(checked) != expected:
            raise DeckFileError(
                where,
                f"{len(checked)} copies of {card_id} listed, but the deck holds {expected}",
                line,
            )
        out[str(card_id)] = checked
    return out


_ENTRY = re.compile(
    r"^(?:(?P<n1>\d+)\s*[x×]?\s+(?P<id1>\S+)|(?P<id2>\S+)\s+[x×]\s*(?P<n2>\d+)|(?P<id3>\S+))$",
    re.IGNORECASE,
)
_HEADER = re.compile(r"^(?P<key>[A-Za-z]+)\s*:\s*(?P<value>.*)$")
_SECTIONS = {"cards": "cards", "deck": "cards", "problems": "problems"}


def parse_text_deck(text: str, where: str, game: str | None = None) -> DeckFile:
    """Parse the plain-text deck format (see the module doc)."""
    header: dict[str, tuple[str, int]] = {}
    sections: dict[str, dict[str, int]] = {"cards": {}, "problems": {}}
    lines: dict[str, int] = {}
    section = "cards"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        head = _HEADER.match(line)
        if head and head.group("key").lower() in (*FIELDS, "deck"):
            key, value = head.group("key").lower(), head.group("value").strip()
            if key in _SECTIONS and not value:
                section = _SECTIONS[key]
            elif key in ("game", "name", "mane", "lord", "note") and value:
                if key in header:
                    raise DeckFileError(where, f"{key!r} given twice", number)
                header[key] = (value, number)
                if key in ("mane", "lord"):
                    lines.setdefault(value, number)
            else:
                raise DeckFileError(
                    where,
                    f"cannot read {raw.strip()!r}: '{key}:' takes "
                    + ("nothing after it" if key in _SECTIONS else "a value"),
                    number,
                )
            continue
        entry = _ENTRY.match(line)
        if not entry:
            raise DeckFileError(where, f"cannot read {raw.strip()!r}: expected '3 CARD-ID'", number)
        card_id = entry.group("id1") or entry.group("id2") or entry.group("id3")
        count = int(entry.group("n1") or entry.group("n2") or 1)
        _count(count, where, number, card_id)
        target = sections[section]
        if card_id in target:
            raise DeckFileError(
                where,
                f"{card_id} is listed twice in {section} (first at line {lines.get(card_id)})",
                number,
            )
        target[card_id] = count
        lines.setdefault(card_id, number)
    game_value, game_line = header.get("game", (None, None))
    deck = DeckList(
        slug=Path(where).stem,
        name=header.get("name", (Path(where).stem, 0))[0],
        game=_game(game_value, game, where, game_line),
        cards=sections["cards"],
        mane=header.get("mane", (None, 0))[0],
        problems=sections["problems"],
        lord=header.get("lord", (None, 0))[0],
        note=header.get("note", (None, 0))[0],
        path=where,
    )
    return DeckFile(deck, {}, lines)


def deck_yaml(deck: DeckList, copies: Mapping[str, tuple[int, ...]] | None = None) -> str:
    """The deck as a YAML deck list file (what `read_deck` reads back)."""
    data: dict[str, Any] = {"game": deck.game, "name": deck.name}
    if deck.mane:
        data["mane"] = deck.mane
    if deck.lord:
        data["lord"] = deck.lord
    data["cards"] = dict(deck.cards)
    if deck.problems:
        data["problems"] = dict(deck.problems)
    if copies:
        data["copies"] = {k: list(v) for k, v in copies.items()}
    if deck.note:
        data["note"] = deck.note
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)
