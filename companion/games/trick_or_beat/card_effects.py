"""Trick or Beat: the cards' `effects` lists compiled to the engine's vocabulary, at load.

The pile writes abilities in its own words (`companion/cardsets/effects_vocabulary.md`):
`{kind: combat, lane: passive, do: modify_survival, amount: 1, target: defender}`. Each word
has one typed meaning here (`WHEN_OF_KIND`, `TARGETS`, `_effect`); a word that is not in those
tables is an `EffectError` naming the card and the entry, never a guess. The list's order is
kept: a move names an ability by its index ("activate ability 0").

Named by the game's spec (`card_effects`) and run only by the engine's catalog and the cardset
loader.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.cards import CardFacts
from companion.engine.effects import (
    Ability,
    CardAbilities,
    Destroy,
    Draw,
    Effect,
    EffectError,
    Modify,
    Move,
    Return,
    Selector,
)
from companion.engine.effects.vocabulary import Lane, Stat, When
from companion.games.trick_or_beat.effects import TARGETS

WHEN_OF_KIND: dict[str, When] = {
    "permanent": "permanent", "activatable": "activated", "combat": "combat", "play": "play",
}
CREATURE_KINDS = ("permanent", "activatable", "combat")
TACTIC_KINDS = ("play", "permanent")
LANES: dict[str, Lane] = {"active": "active", "passive": "passive"}

FACTIONS = ("Gehirn", "Herocorps")
KEYS = ("kind", "lane", "do", "amount", "target", "faction")


class _Entry:
    """One `effects` entry of one card; every fault names the card and `effects[i].key`."""

    def __init__(self, card: str, index: int, raw: Any) -> None:
        self.card = card
        self.where = f"effects[{index}]"
        if not isinstance(raw, Mapping):
            raise EffectError(card, self.where, f"must be a mapping, got {raw!r}")
        self.data = raw
        for key in raw:
            if key not in KEYS:
                raise self.error(key, f"unknown key (known: {', '.join(KEYS)})")

    def error(self, key: str, detail: str) -> EffectError:
        return EffectError(self.card, f"{self.where}.{key}", detail)

    def word(self, key: str, words: Mapping[str, Any] | tuple[str, ...]) -> str:
        value = self.data.get(key)
        if value not in words:
            raise self.error(key, f"must be one of {', '.join(words)}, got {value!r}")
        return str(value)

    def amount(self) -> int:
        value = self.data.get("amount")
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error("amount", f"{self.data.get('do')} needs an integer, got {value!r}")
        return value

    def target(self) -> Selector:
        selector = TARGETS[self.word("target", TARGETS)]
        if "faction" in self.data:
            return replace(selector, faction=self.word("faction", FACTIONS))
        return selector


def _effect(entry: _Entry, do: str) -> Effect:
    if do in ("modify_attack", "modify_survival"):
        stat: Stat = "attack" if do == "modify_attack" else "survival"
        return Modify(stat, entry.amount(), entry.target())
    if do == "draw":
        return Draw(entry.amount())
    if do == "add_to_trick":
        return Move(Selector(side="any", count=entry.amount(), zone="deck", top=True),
                    to="trick")
    if do == "destroy":
        return Destroy(entry.target())
    if do == "return_to_hand":
        return Return(entry.target(), to="hand")
    return Move(entry.target(), to="other-lane")  # do == "move"


ACTIONS = ("modify_attack", "modify_survival", "draw", "add_to_trick", "destroy",
           "return_to_hand", "move")


def compile_entry(card: str, creature: bool, index: int, raw: Any) -> Ability:
    """One entry (`index` counts from 1) as a typed ability."""
    entry = _Entry(card, index, raw)
    kind = entry.word("kind", CREATURE_KINDS if creature else TACTIC_KINDS)
    lane = LANES[entry.word("lane", LANES)] if creature or "lane" in entry.data else None
    effect = _effect(entry, entry.word("do", ACTIONS))
    return Ability(WHEN_OF_KIND[kind], effect, lane)


def compile_card(facts: CardFacts) -> CardAbilities:
    """Every ability of the card, in the order of its `effects` list."""
    creature = facts.type == "creature"
    return tuple(compile_entry(facts.id, creature, i, raw)
                 for i, raw in enumerate(facts.effects, 1))
