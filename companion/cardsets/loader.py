"""Reading cardset files: `cardsets/<game>/*.yaml`, each a header plus a list of cards.

File format::

    game: creature-crush
    set: Grundspiel
    sample: true            # made-up cards (no public card list exists)
    source: "invented for the companion"
    cards:
      - {id: CC-001, number: 1, name: ..., type: creature, cost: 3, attack: 2, life: 3}

Every fault becomes one `CardsetError` line naming file, line, card and field. `load_cardset`
raises the first; `check_paths` collects them all (for `companion cardset check`).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.cardsets.games import SCHEMAS, effects_check, game_folder, schema_for
from companion.cardsets.model import Card, CardSet, CardsetError
from companion.cardsets.schema import FieldProblem, card_label, validate_card
from companion.cardsets.yaml_lines import LineMap, load_yaml_file, plain
from companion.errors import DataFileError
from companion.paths import cardsets_dir, user_cardsets_dir

HEADER_REQUIRED = ("game", "set", "sample", "source", "cards")
INLINE_NUMBER_BASE = 9000
INLINE_NUMBER_SPAN = 1000


def shown_path(path: Path) -> str:
    """The path as messages show it: `cardsets/<game>/<file>` for bundled data, else as given."""
    path = Path(path)
    try:
        root = cardsets_dir()
        return str(Path("cardsets") / path.resolve().relative_to(root.resolve()))
    except (ValueError, FileNotFoundError):
        pass
    try:  # the user's own cardsets: named by their real place, so they can be found
        path.resolve().relative_to(user_cardsets_dir().resolve())
        return str(path.resolve())
    except (ValueError, FileNotFoundError):
        pass
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class CardsetFile:
    """One parsed cardset file."""

    path: str
    game: str
    set: str
    sample: bool
    source: str
    cards: tuple[Card, ...]
    lines: Mapping[str, int | None] = field(default_factory=dict)  # card id -> line of its id


def _line(raw: Any, key: str | None) -> int | None:
    if isinstance(raw, LineMap):
        return raw.line_of(key) if key else raw.line
    return None


def _header_error(where: str, header: Any, key: str, message: str) -> CardsetError:
    return CardsetError(where, message, _line(header, key))


def _read_header(where: str, data: Any, expected_game: str | None) -> LineMap:
    if not isinstance(data, LineMap):
        raise CardsetError(
            where, "a cardset file must be a mapping with game, set, sample, source and cards", 1
        )
    for key in HEADER_REQUIRED:
        if key not in data:
            raise CardsetError(where, f"header is missing {key!r}", data.line)
    for key in data:
        if key not in HEADER_REQUIRED:
            raise _header_error(where, data, key, f"unknown header field {key!r}")
    if data["game"] not in SCHEMAS:
        raise _header_error(
            where, data, "game", f"unknown game {data['game']!r}; known: {', '.join(SCHEMAS)}"
        )
    if expected_game is not None and data["game"] != expected_game:
        raise _header_error(
            where, data, "game", f"file says game {data['game']!r} but lies in {expected_game}/"
        )
    if not isinstance(data["sample"], bool):
        raise _header_error(where, data, "sample", "header 'sample' must be true or false")
    for key in ("set", "source"):
        if not isinstance(data[key], str | int) or not str(data[key]).strip():
            raise _header_error(where, data, key, f"header {key!r} must be a text")
    if not isinstance(data["cards"], list):
        raise _header_error(where, data, "cards", "header 'cards' must be a list of cards")
    return data


def build_card(
    game: str,
    raw: Any,
    where: str,
    index: int | None,
    sample: bool,
    require_number: bool,
    line: int | None = None,
) -> Card:
    try:
        checked = validate_card(schema_for(game), raw, require_number=require_number)
    except FieldProblem as problem:
        at = _line(raw, problem.field) or _line(raw, None) or line
        raise CardsetError(where, f"{card_label(raw, index)}: {problem.message}", at) from None
    number = checked.number if checked.number is not None else inline_number(checked.id)
    card = Card(
        game=game,
        id=checked.id,
        name=checked.name,
        type=checked.type,
        number=number,
        keywords=checked.keywords,
        fields=plain(checked.fields),
        sample=sample,
    )
    _check_effects(game, card, raw, where, line)
    return card


def _check_effects(game: str, card: Card, raw: Any, where: str, line: int | None) -> None:
    """The game compiles the card's effects now, so a malformed one stops the load here, named
    by file, line, card and field (the game's `EffectError` says which entry and key)."""
    check = effects_check(game)
    if check is None:
        return
    try:
        check(card.to_mapping())
    except ValueError as exc:
        field_name = str(getattr(exc, "field", "") or "effects")
        top = field_name.split("[", 1)[0].split(".", 1)[0]
        detail = getattr(exc, "detail", None) or str(exc)
        at = _line(raw, top) or _line(raw, None) or line
        raise CardsetError(where, f"card {card.id} ({card.name}): field {field_name!r} {detail}",
                           at) from None


def read_yaml(path: Path, where: str) -> Any:
    """Parse a cardset or deck file; any fault (syntax, encoding) becomes a CardsetError."""
    try:
        return load_yaml_file(path, where)
    except CardsetError:
        raise
    except DataFileError as exc:
        raise CardsetError(exc.path, exc.detail, exc.line) from None


def inline_number(card_id: str) -> int:
    """A stable sticker number for an inline card that gives none (9000-9999)."""
    return INLINE_NUMBER_BASE + zlib.crc32(card_id.encode("utf-8")) % INLINE_NUMBER_SPAN


def read_cardset_file(
    path: Path,
    expected_game: str | None = None,
    errors: list[DataFileError] | None = None,
) -> CardsetFile:
    """Parse and check one file. With `errors`, faulty cards are collected and skipped."""
    where = shown_path(path)
    header = _read_header(where, read_yaml(path, where), expected_game)
    game = str(header["game"])
    cards: list[Card] = []
    ids: dict[str, int | None] = {}
    numbers: dict[int, str] = {}
    cards_line = header.line_of("cards")  # where a card that is not a mapping is reported
    for index, raw in enumerate(header["cards"], 1):
        try:
            card = build_card(game, raw, where, index, header["sample"], True, cards_line)
            _check_unique(card, raw, where, ids, numbers)
        except CardsetError as exc:
            if errors is None:
                raise
            errors.append(exc)
            continue
        cards.append(card)
    return CardsetFile(
        where,
        game,
        str(header["set"]),
        header["sample"],
        str(header["source"]),
        tuple(cards),
        dict(ids),
    )


def _check_unique(
    card: Card, raw: Any, where: str, ids: dict[str, int | None], numbers: dict[int, str]
) -> None:
    if card.id in ids:
        raise CardsetError(
            where, f"card {card.id}: duplicate id (first at line {ids[card.id]})", _line(raw, "id")
        )
    if card.number in numbers:
        raise CardsetError(
            where,
            f"card {card.id}: duplicate number {card.number} (already card {numbers[card.number]})",
            _line(raw, "number"),
        )
    ids[card.id] = _line(raw, "id")
    numbers[card.number] = card.id


def game_files(game: str, root: Path | None = None) -> list[Path]:
    """The cardset files of `game`, in name order (the deck lists below are not cards);
    without `root`, the game's own files and then the user's own (`user_cardsets_dir()`)."""
    folder = game_folder(game, root)
    files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    if root is None:
        files += user_files(game)
    return files


def user_files(game: str) -> list[Path]:
    """The user's own cardset files of `game` (written by `cardset import`)."""
    folder = user_cardsets_dir() / game
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def merge_files(game: str, files: Iterable[CardsetFile]) -> CardSet:
    """One CardSet from several files; an id or number used in two files is an error."""
    cards: list[Card] = []
    owner_of_id: dict[str, str] = {}
    owner_of_number: dict[int, tuple[str, str]] = {}
    paths = []
    for f in files:
        paths.append(f.path)
        for card in f.cards:
            line = f.lines.get(card.id)
            if card.id in owner_of_id:
                raise CardsetError(
                    f.path, f"card {card.id}: id also used in {owner_of_id[card.id]}", line
                )
            if card.number in owner_of_number:
                other_path, other_id = owner_of_number[card.number]
                raise CardsetError(
                    f.path,
                    f"card {card.id} ({card.name}): sticker number {card.number} is already "
                    f"used by {other_id} in {other_path}; two cards would get the same sticker",
                    line,
                )
            owner_of_id[card.id] = f.path
            owner_of_number[card.number] = (f.path, f"{card.id} ({card.name})")
            cards.append(card)
    return CardSet(game, cards, paths)


@lru_cache(maxsize=32)
def _load_cached(game: str, root: Path | None, user: Path | None = None,
                 stamp: tuple[tuple[str, float], ...] = ()) -> CardSet:
    files = [read_cardset_file(p, expected_game=game) for p in game_files(game, root)]
    return merge_files(game, files)


def load_cardset(game: str, root: Path | None = None) -> CardSet:
    """All cards of `game` from `cardsets/<game>/*.yaml` and the user's own cardsets (or only
    `root/<game>/`), cached until a user file changes."""
    schema_for(game)
    if root is not None:
        return _load_cached(game, Path(root).resolve())
    stamp = tuple((str(p), p.stat().st_mtime) for p in user_files(game))
    return _load_cached(game, None, user_cardsets_dir().resolve(), stamp)


def clear_cache() -> None:
    _load_cached.cache_clear()


def card_from_mapping(
    game: str, mapping: Mapping[str, Any], source: str, line: int | None = None
) -> Card:
    """A card written inline (e.g. in a table script), checked by the same schema.

    `number` may be left out there; a stable one in 9000-9999 is derived from the id.
    Inline cards count as made up (`sample=True`).
    """
    schema_for(game)
    raw = mapping
    if not isinstance(mapping, LineMap) and isinstance(mapping, Mapping):
        raw = dict(mapping)
    return build_card(game, raw, source, None, True, False, line)
