"""The cardsets layer's one hook to the games: which exist, their card schema, their files.

Card lists are data under a game; what their fields mean belongs to the game. So this layer
knows no game: it asks the source that the registry above installed (`companion.games`
installs itself here when it is imported) and says so when none is installed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.cardsets.schema import GameSchema
from companion.errors import CompanionError
from companion.paths import cardsets_dir


class UnknownCardsetGameError(CompanionError):
    """A game id that has no card schema (no registered game)."""


@dataclass(frozen=True)
class CardGame:
    """What the cardsets layer needs to know about one game."""

    id: str
    schema: GameSchema
    folder: Path | None = None
    """Where its card files lie; None: `cardsets/<id>/` in the data folder."""
    check_effects: Callable[[Mapping[str, Any]], None] | None = None
    """Compiles one card's effects (its mapping as in the file) and raises a ValueError naming
    the card and field when one is malformed; None: the game compiles no effects."""


class CardGameSource(Protocol):
    def card_game(self, game: str) -> CardGame | None: ...

    def card_game_ids(self) -> list[str]: ...


_source: CardGameSource | None = None


def install_card_games(source: CardGameSource | None) -> None:
    """Answer every later question about a game's cards through `source`."""
    global _source
    _source = source


def _installed() -> CardGameSource:
    if _source is None:
        raise UnknownCardsetGameError(
            "no game registry is installed: import companion.games before loading cards"
        )
    return _source


def card_game_ids() -> list[str]:
    """The ids of every registered game, in registry order."""
    return list(_installed().card_game_ids())


def card_game(game: str) -> CardGame:
    """What the cardsets layer knows of `game`; an unknown id lists the known ones."""
    found = _installed().card_game(game)
    if found is None:
        known = ", ".join(card_game_ids())
        raise UnknownCardsetGameError(f"unknown game {game!r}; known games: {known}")
    return found


def schema_for(game: str) -> GameSchema:
    """The card schema of `game`."""
    return card_game(game).schema


def effects_check(game: str) -> Callable[[Mapping[str, Any]], None] | None:
    """The game's check of a card's effects (its compiler), when it has one."""
    return card_game(game).check_effects


def game_folder(game: str, root: Path | None = None) -> Path:
    """The folder of `game`'s card files: `root/<game>` when a root is given, else the game's
    own folder, else `cardsets/<game>` in the data folder."""
    if root is not None:
        return Path(root) / game
    folder = card_game(game).folder
    return folder if folder is not None else cardsets_dir() / game


class _Schemas(Mapping[str, GameSchema]):
    """Every registered game's schema by id, read live (a game registered later is in it)."""

    def __getitem__(self, game: str) -> GameSchema:
        try:
            return schema_for(game)
        except UnknownCardsetGameError:
            raise KeyError(game) from None

    def __iter__(self) -> Iterator[str]:
        return iter(card_game_ids())

    def __len__(self) -> int:
        return len(card_game_ids())

    def __contains__(self, game: object) -> bool:
        return game in card_game_ids()


SCHEMAS: Mapping[str, GameSchema] = _Schemas()
"""The schemas of all registered games, by game id."""
