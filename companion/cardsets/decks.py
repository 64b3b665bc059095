"""Sample deck lists: `cardsets/<game>/decks/<name>.yaml`.

File format::

    name: Marth (Red)
    game: fire-emblem-cipher
    lord: B01-003            # Fire Emblem Cipher: the cost-1 lord, also counted in cards
    cards: {B01-003: 4, B01-005: 3, ...}
    # My Little Pony CCG: mane: PR4 and problems: {PR162: 2, ...}, both outside cards

Only the list's structure is checked here (ids exist, counts, the right card types in mane,
problems and lord); deck-building legality is the rules' job.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.cardsets.games import game_folder, schema_for
from companion.cardsets.loader import load_cardset, read_yaml, shown_path
from companion.cardsets.model import CardSet, CardsetError, UnknownCardError
from companion.cardsets.yaml_lines import LineMap
from companion.errors import CompanionError
from companion.markers.payload import MAX_COPY

DECK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
DECK_FIELDS = ("name", "game", "cards", "mane", "problems", "lord", "note")


class UnknownDeckError(CompanionError):
    """A deck name with no file behind it."""


@dataclass(frozen=True)
class DeckList:
    """A deck: card ids with counts, plus the game's special cards (mane, problems, lord)."""

    slug: str
    name: str
    game: str
    cards: dict[str, int]
    mane: str | None = None
    problems: dict[str, int] = field(default_factory=dict)
    lord: str | None = None
    note: str | None = None
    path: str = ""

    @property
    def size(self) -> int:
        """Cards in the draw deck (MLP's mane and problem deck not included)."""
        return sum(self.cards.values())

    def uids(self, extras: bool = True) -> list[str]:
        """Every physical card as `<id>#<copy>`: mane first, then cards, then problems."""
        counts: list[tuple[str, int]] = []
        if extras and self.mane:
            counts.append((self.mane, 1))
        counts.extend(self.cards.items())
        if extras:
            counts.extend(self.problems.items())
        return [f"{card_id}#{copy}" for card_id, n in counts for copy in range(1, n + 1)]


def decks_dir(game: str, root: Path | None = None) -> Path:
    return game_folder(game, root) / "decks"


def list_decks(game: str, root: Path | None = None) -> list[str]:
    """Names (file stems) of the game's sample decks, sorted."""
    folder = decks_dir(game, root)
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def load_deck(game: str, name: str, root: Path | None = None) -> DeckList:
    """Read and check `cardsets/<game>/decks/<name>.yaml` against the game's cardset."""
    path = decks_dir(game, root) / f"{name}.yaml"
    if not DECK_NAME.fullmatch(name) or not path.is_file():
        known = ", ".join(list_decks(game, root)) or "none"
        raise UnknownDeckError(f"no deck {name!r} for {game}; known decks: {known}")
    return read_deck_file(path, load_cardset(game, root), expected_game=game)


def read_deck_file(path: Path, cardset: CardSet, expected_game: str | None = None) -> DeckList:
    where = shown_path(path)
    data = read_yaml(path, where)
    if not isinstance(data, LineMap):
        raise CardsetError(where, "a deck file must be a mapping with name, game and cards", 1)
    game = cardset.game
    slots = schema_for(game).deck_slots
    allowed = ("name", "game", "cards", "note", *slots)

    def fail(key: str | None, message: str, entry: Any = None) -> CardsetError:
        owner = entry if isinstance(entry, LineMap) else data
        line = owner.line_of(key) if key else owner.line
        return CardsetError(where, message, line)

    for key in ("name", "game", "cards"):
        if key not in data:
            raise fail(None, f"deck is missing {key!r}")
    for key in data:
        if key not in allowed:
            raise fail(
                key, f"unknown deck field {key!r} for {game} (allowed: {', '.join(allowed)})"
            )
    if data["game"] != (expected_game or game):
        raise fail("game", f"deck says game {data['game']!r}, expected {expected_game or game}")

    def card_of(card_id: Any, key: str, entry: Any = None) -> str:
        try:
            return cardset.get(str(card_id)).id
        except UnknownCardError as exc:
            raise fail(key, f"deck {data['name']}: {exc}", entry) from None

    def counts(key: str) -> dict[str, int]:
        value = data.get(key, {})
        if not isinstance(value, Mapping) or (not value and key == "cards"):
            raise fail(key, f"deck field {key!r} must be a mapping card id: count")
        out: dict[str, int] = {}
        for card_id, n in value.items():
            card_of(card_id, str(card_id), value)
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_COPY:
                raise fail(
                    str(card_id),
                    f"deck {data['name']}: count of {card_id} must be 1-{MAX_COPY}, got {n!r}",
                    value,
                )
            out[str(card_id)] = n
        return out

    cards = counts("cards")
    problems = counts("problems") if "problems" in data else {}
    mane = card_of(data["mane"], "mane") if "mane" in data else None
    lord = card_of(data["lord"], "lord") if "lord" in data else None
    _check_roles(
        cardset, cards, problems, mane, lord, lambda k, m: fail(k, f"deck {data['name']}: {m}")
    )
    return DeckList(
        slug=path.stem,
        name=str(data["name"]),
        game=game,
        cards=cards,
        mane=mane,
        problems=problems,
        lord=lord,
        note=str(data["note"]) if "note" in data else None,
        path=where,
    )


def _check_roles(
    cardset: CardSet,
    cards: dict[str, int],
    problems: dict[str, int],
    mane: str | None,
    lord: str | None,
    fail: Any,
) -> None:
    """The special slots hold the right kind of card (the game's `deck_slots`); copies do not
    exceed what exists."""
    slots = schema_for(cardset.game).deck_slots
    given: dict[str, list[str]] = {"mane": [mane] if mane else [], "problems": list(problems),
                                   "lord": [lord] if lord else []}
    for name, slot in slots.items():
        if slot.required and not given[name]:
            raise fail(None, f"a {cardset.game} deck needs a {name}")
        for card_id in given[name]:
            if slot.card_type is not None and cardset.get(card_id).type != slot.card_type:
                raise fail(name, f"{card_id} in {name} is not a {slot.card_type} card")
    slot_types = {s.card_type: n for n, s in slots.items() if s.card_type is not None}
    for card_id in cards:
        card_type = cardset.get(card_id).type
        if card_type in slot_types:
            raise fail("cards", f"{card_id} is a {card_type}: it belongs in "
                       f"{slot_types[card_type]}, not in cards")
    if lord is not None and lord not in cards:
        raise fail("lord", f"lord {lord} must also be one of the deck's cards")
    for card_id, n in cards.items():
        copies = cardset.get(card_id).get("copies")
        if copies is not None and n > copies:
            raise fail("cards", f"{n} copies of {card_id}, but only {copies} exist")
