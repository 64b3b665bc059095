"""Named Python hooks for the rare card whose text no typed effect can express.

Cards name a hook in their `hook` field (cardset schema); a ruleset calls `run_hook` when such
a card is played or activated. Everything else is data: the typed abilities every card is
compiled to when its cardset loads (`companion.engine.effects.vocabulary`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from companion.engine.api import EngineError

if TYPE_CHECKING:  # the state imports the cards, which import the effect vocabulary
    from companion.engine.api import Move
    from companion.engine.state import GameState

Hook = Callable[["GameState", "Move", str], None]

HOOKS: dict[str, Hook] = {}


class UnknownHookError(EngineError):
    """A card names a hook that no game registered."""


def register_hook(name: str) -> Callable[[Hook], Hook]:
    """Decorator: `@register_hook("tob.mirror")` makes a function a card hook."""

    def add(fn: Hook) -> Hook:
        HOOKS[name] = fn
        return fn

    return add


def check_hooks(cards: Iterable[tuple[str, object]]) -> None:
    """At setup: every hook a card names must exist (so play never stops half-way)."""
    for card_id, name in cards:
        if name and str(name) not in HOOKS:
            raise UnknownHookError(f"card {card_id} names hook {name!r}, not registered")


def run_hook(name: str, state: GameState, move: Move, card: str) -> None:
    try:
        hook = HOOKS[name]
    except KeyError:
        raise UnknownHookError(f"card {card} names hook {name!r}, not registered") from None
    hook(state, move, card)
