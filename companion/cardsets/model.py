"""Cards and cardsets as the rest of the package sees them, and their errors."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.errors import CompanionError, DataFileError

_MISSING = object()


class CardsetError(DataFileError):
    """A cardset or deck file is broken; the message names file, line, card and field."""


class UnknownCardError(CompanionError):
    """A card id that the game's cardset does not have."""

    def __init__(
        self, game: str, card_id: str, known: Iterable[str], message: str | None = None
    ) -> None:
        self.game = game
        self.card_id = card_id
        if message is None:
            close = difflib.get_close_matches(card_id, list(known), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            message = f"unknown card {card_id!r} in {game}{hint}"
        super().__init__(message)


@dataclass(frozen=True)
class Card:
    """One card of a game. Core identity as attributes; everything else in `fields`.

    `card["attack"]` and `card.get("title")` read any field, including id, name, type and
    number, so rules code reads every quantity the same way.
    """

    game: str
    id: str
    name: str
    type: str
    number: int
    keywords: tuple[str, ...] = ()
    fields: Mapping[str, Any] = field(default_factory=dict, hash=False)
    sample: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.fields, MappingProxyType):
            object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and deepcopy with a plain dict (a read-only mapping proxy cannot be pickled)."""
        args = (self.game, self.id, self.name, self.type, self.number, self.keywords,
                dict(self.fields), self.sample)  # fmt: skip
        return (Card, args)

    def _core(self, key: str) -> Any:
        if key in ("id", "name", "type", "number", "game", "sample"):
            return getattr(self, key)
        if key == "keywords":
            return list(self.keywords)
        return _MISSING

    def __getitem__(self, key: str) -> Any:
        value = self._core(key)
        if value is not _MISSING:
            return value
        try:
            return self.fields[key]
        except KeyError:
            raise KeyError(f"card {self.id} ({self.game}) has no field {key!r}") from None

    def get(self, key: str, default: Any = None) -> Any:
        value = self._core(key)
        if value is not _MISSING:
            return value
        return self.fields.get(key, default)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and (self._core(key) is not _MISSING or key in self.fields)

    def has_keyword(self, keyword: str) -> bool:
        return keyword in self.keywords

    def to_mapping(self) -> dict[str, Any]:
        """The card as written in a cardset file (without the file header's `sample`)."""
        out: dict[str, Any] = {
            "id": self.id,
            "number": self.number,
            "name": self.name,
            "type": self.type,
        }
        out.update(self.fields)
        if self.keywords:
            out["keywords"] = list(self.keywords)
        return out


class CardSet:
    """All cards of one game, by id in file order; also found by their sticker number."""

    def __init__(self, game: str, cards: Iterable[Card], files: Iterable[str] = ()) -> None:
        self.game = game
        self.cards: dict[str, Card] = {}
        self._by_number: dict[int, Card] = {}
        self.files: tuple[str, ...] = tuple(files)
        for card in cards:
            self._add(card)

    def _add(self, card: Card) -> None:
        if card.game != self.game:
            raise CompanionError(f"card {card.id} belongs to {card.game}, not {self.game}")
        if card.id in self.cards:
            raise CompanionError(f"{self.game}: card id {card.id} appears twice")
        if card.number in self._by_number:
            other = self._by_number[card.number].id
            raise CompanionError(
                f"{self.game}: card {card.id} has number {card.number}, already used by {other}"
            )
        self.cards[card.id] = card
        self._by_number[card.number] = card

    def get(self, card_id: str) -> Card:
        try:
            return self.cards[card_id]
        except KeyError:
            raise UnknownCardError(self.game, card_id, self.cards) from None

    def by_number(self, number: int) -> Card:
        try:
            return self._by_number[number]
        except KeyError:
            raise UnknownCardError(
                self.game, str(number), (), f"no card in {self.game} has number {number}"
            ) from None

    def extended(self, cards: Iterable[Card]) -> CardSet:
        """A new set with extra cards (e.g. a table script's inline cards); clashes raise."""
        return CardSet(self.game, [*self.cards.values(), *cards], self.files)

    def of_type(self, card_type: str) -> list[Card]:
        return [c for c in self.cards.values() if c.type == card_type]

    def type_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for card in self.cards.values():
            counts[card.type] = counts.get(card.type, 0) + 1
        return counts

    @property
    def sample(self) -> bool:
        """True when any card is made up (the three games without a public list)."""
        return any(c.sample for c in self.cards.values())

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __repr__(self) -> str:
        return f"CardSet({self.game!r}, {len(self)} cards)"
