"""The game registry: every game's `GameSpec`, by id, for all parts of the companion.

A game is one folder `companion/games/<game>/` with a `spec.py` (see `companion.games.spec`) and
one line in `GAME_SPECS` below. Specs are imported on first use, so asking for one game does not
import the others; `register` adds a game at run time (a plug-in, a test's toy game).

Importing this module installs the registry into the two hooks of the layers below it, which
know no game: the engine's ruleset lookup (`companion.engine.registry`) and the cardsets'
schema lookup (`companion.cardsets.games`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from companion.cardsets.games import CardGame, install_card_games
from companion.engine.api import UnknownRulesetError
from companion.engine.cards import CardFacts
from companion.engine.effects import EffectCompiler, install_effect_compilers
from companion.engine.registry import install_ruleset_lookup
from companion.engine.ruleset import Ruleset
from companion.games.info import UnknownGameError
from companion.games.spec import GameSpec

GAME_SPECS: dict[str, str] = {
    "trick-or-beat": "companion.games.trick_or_beat.spec:SPEC",
    "fire-emblem-cipher": "companion.games.fire_emblem_cipher.spec:SPEC",
    "my-little-pony-ccg": "companion.games.my_little_pony.spec:SPEC",
    "challengers": "companion.games.challengers.spec:SPEC",
    "creature-crush": "companion.games.creature_crush.spec:SPEC",
}
"""Game id -> "module:attribute" of its spec. A new game adds one line here."""

GameInfo = GameSpec
"""A spec carries what `GameInfo` used to (id, name, marker code, rulebook file)."""

__all__ = [
    "GAMES",
    "GAME_SPECS",
    "RULESETS",
    "GameInfo",
    "GameSpec",
    "UnknownGameError",
    "dice_for_game",
    "game_by_code",
    "game_dice",
    "game_ids",
    "game_info",
    "game_spec",
    "get_ruleset",
    "has_ruleset",
    "register",
    "unregister",
]

_SPECS: dict[str, GameSpec] = {}
_RULESETS: dict[str, Ruleset] = {}


def game_ids() -> list[str]:
    """Every registered game id, in registration order."""
    return list(GAME_SPECS)


def game_spec(game_id: str) -> GameSpec:
    """The spec of `game_id`; an unknown id lists the known ones."""
    if game_id in _SPECS:
        return _SPECS[game_id]
    try:
        target = GAME_SPECS[game_id]
    except (KeyError, TypeError):
        known = ", ".join(GAME_SPECS)
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}") from None
    module_name, _, attr = target.partition(":")
    spec = getattr(importlib.import_module(module_name), attr)
    if not isinstance(spec, GameSpec) or spec.id != game_id:
        raise UnknownGameError(f"{target} is not the GameSpec of {game_id!r}")
    _SPECS[game_id] = spec
    return spec


def register(spec: GameSpec | str) -> GameSpec:
    """Add a game at run time: its spec, or "module:attribute" naming it.

    Its id and marker code must be new (stickers of two games must never be confused).
    """
    if isinstance(spec, str):
        module_name, _, attr = spec.partition(":")
        spec = getattr(importlib.import_module(module_name), attr)
        if not isinstance(spec, GameSpec):
            raise UnknownGameError(f"{module_name}:{attr} is not a GameSpec")
    if spec.id in GAME_SPECS:
        raise UnknownGameError(f"a game {spec.id!r} is registered already")
    taken = next((g for g in GAME_SPECS if game_spec(g).code == spec.code), None)
    if taken is not None:
        raise UnknownGameError(f"marker code {spec.code} of {spec.id!r} is {taken!r}'s already")
    GAME_SPECS[spec.id] = f"{type(spec).__module__}:<registered>"
    _SPECS[spec.id] = spec
    return spec


def unregister(game_id: str) -> None:
    """Remove a game added by `register` (tests clean up their toy games so)."""
    GAME_SPECS.pop(game_id, None)
    _SPECS.pop(game_id, None)
    _RULESETS.pop(game_id, None)


# ----- the questions the other parts ask --------------------------------------------------------

def game_info(game_id: str) -> GameSpec:
    """Id, name, marker code and rulebook of a game (its spec)."""
    return game_spec(game_id)


def game_by_code(code: int) -> GameSpec:
    """The game whose markers carry `code`."""
    for game_id in GAME_SPECS:
        spec = game_spec(game_id)
        if spec.code == code:
            return spec
    raise UnknownGameError(f"no game has marker code {code}")


def get_ruleset(game_id: str) -> Ruleset:
    """The ruleset of `game_id` (one shared, stateless instance per game)."""
    if game_id in _RULESETS:
        return _RULESETS[game_id]
    try:
        spec = game_spec(game_id)
    except UnknownGameError:
        known = ", ".join(GAME_SPECS) or "none"
        raise UnknownRulesetError(
            f"no ruleset for game {game_id!r}; games with rules: {known}"
        ) from None
    ruleset = spec.load_ruleset()
    _RULESETS[game_id] = ruleset
    return ruleset


def has_ruleset(game_id: str) -> bool:
    return game_id in GAME_SPECS


def dice_for_game(game_id: str) -> list[str]:
    """The dice `game_id` uses, p1's before p2's (its spec's printing hints)."""
    return game_spec(game_id).printing.dice_names()


def game_dice(game_id: str, counters: int = 0) -> list[str]:
    """Every die the camera accepts for `game_id`: its own and `counters` counters each."""
    from companion.markers.dice_sets import counter_dice

    return dice_for_game(game_id) + counter_dice(counters)


V = TypeVar("V")


class _Live(Mapping[str, V], Generic[V]):
    """A read-only mapping over the registered games, read at each access."""

    def __init__(self, value: Callable[[GameSpec], V]) -> None:
        self._value = value

    def __getitem__(self, game_id: str) -> V:
        if game_id not in GAME_SPECS:
            raise KeyError(game_id)
        return self._value(game_spec(game_id))

    def __iter__(self) -> Iterator[str]:
        return iter(list(GAME_SPECS))

    def __len__(self) -> int:
        return len(GAME_SPECS)

    def __contains__(self, game_id: object) -> bool:
        return game_id in GAME_SPECS


GAMES: Mapping[str, GameSpec] = _Live(lambda spec: spec)
"""Game id -> spec, for every registered game (a live view)."""
RULESETS: Mapping[str, str] = _Live(lambda spec: spec.ruleset)
"""Game id -> "module:Class" of its ruleset (a live view)."""


# ----- the hooks of the layers below ----------------------------------------------------------

def effect_compiler(game_id: str) -> EffectCompiler | None:
    """The effect compiler of a registered game (None: unknown game, or none declared)."""
    return game_spec(game_id).effect_compiler if game_id in GAME_SPECS else None


def _effects_check(compiler: EffectCompiler) -> Callable[[Mapping[str, object]], None]:
    """The cardset loader's check of one card: compile it, keep nothing (the engine's catalog
    compiles again from its own facts, since inline and recorded cards reach it as mappings)."""
    def check(card: Mapping[str, object]) -> None:
        compiler(CardFacts.from_mapping(card))

    return check


class _CardGames:
    """Answers `companion.cardsets.games` from the registry."""

    def card_game(self, game: str) -> CardGame | None:
        if game not in GAME_SPECS:
            return None
        spec = game_spec(game)
        compiler = spec.effect_compiler
        return CardGame(spec.id, spec.card_schema, spec.cardset_dir,
                        _effects_check(compiler) if compiler is not None else None)

    def card_game_ids(self) -> list[str]:
        return game_ids()


install_ruleset_lookup(get_ruleset)
install_card_games(_CardGames())
install_effect_compilers(effect_compiler)
