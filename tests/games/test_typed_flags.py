"""Each game's typed state (companion/games/<game>/state.py) describes what the rules really keep.

mypy checks the code against the TypedDicts; this checks the TypedDicts against the running
game: after every move of random games, every key in `GameState.flags` must be declared and
its value must have the declared type (checked recursively here, not by the game's code).
"""

from __future__ import annotations

import importlib
import random
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from companion.engine.game import Game

PACKAGES = {"trick-or-beat": "trick_or_beat", "creature-crush": "creature_crush",
            "fire-emblem-cipher": "fire_emblem_cipher", "my-little-pony-ccg": "my_little_pony",
            "challengers": "challengers"}
TYPED = {"trick-or-beat": "TobFlags", "creature-crush": "CcFlags",
         "fire-emblem-cipher": "FeFlags", "my-little-pony-ccg": "MlpFlags",
         "challengers": "ChFlags"}


def typed_flags(game_id: str) -> Any:
    module = importlib.import_module(f"companion.games.{PACKAGES[game_id]}.state")
    return getattr(module, TYPED[game_id])


def problems(value: object, hint: Any, where: str) -> list[str]:
    """Where `value` does not have type `hint` (Any, plain types, X | None, list, dict,
    TypedDict)."""
    if hint is Any:
        return []
    origin = get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = [problems(value, h, where) for h in get_args(hint)]
        return [] if any(not p for p in options) else [f"{where}: {value!r} is not {hint}"]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a {hint.__name__}"]
        hints = get_type_hints(hint)
        found = [f"{where}.{k}: not a key of {hint.__name__}" for k in value if k not in hints]
        found += [f"{where}.{k}: missing" for k in sorted(hint.__required_keys__) if k not in value]
        for key, item in value.items():
            if key in hints:
                found += problems(item, hints[key], f"{where}.{key}")
        return found
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        (item,) = get_args(hint)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        key_hint, item_hint = get_args(hint)
        return [p for k, v in value.items()
                for p in problems(k, key_hint, f"{where} key") + problems(v, item_hint,
                                                                           f"{where}[{k!r}]")]
    if hint is bool:
        return [] if isinstance(value, bool) else [f"{where}: {value!r} is not a bool"]
    if hint is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [
            f"{where}: {value!r} is not an int"]
    return [] if isinstance(value, hint) else [f"{where}: {value!r} is not {hint}"]


@pytest.mark.parametrize("game_id", sorted(PACKAGES))
@pytest.mark.parametrize("seed", [1, 2])
def test_flags_keep_to_their_declared_types(game_id: str, seed: int) -> None:
    declared = typed_flags(game_id)
    game = Game.new(game_id, ("A", "B"), seed=seed)
    rng = random.Random(seed)
    for step in range(150):
        found = problems(dict(game.state.flags), declared, f"move {step}: flags")
        assert found == []
        legal = game.legal_moves
        if not legal:
            break
        game.push(rng.choice(legal), "automatic")


def test_the_checker_itself_finds_a_stray_key_and_a_wrong_type() -> None:
    declared = typed_flags("trick-or-beat")
    assert problems({"first_turn": 1, "supply_draw": 0}, declared, "f") == [
        "f.supply_draw: not a key of TobFlags", "f.first_turn: 1 is not a bool"]
    assert problems({"draft": {"p1": {"hand": 8}}}, declared, "f") == [
        "f.draft['p1'].dealt: missing", "f.draft['p1'].discarded: missing",
        "f.draft['p1'].started: missing"]
