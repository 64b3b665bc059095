"""Typed effects from YAML mappings, checked word by word; every fault names card and field.

The engine's own YAML form (any game may use it in a card's `effects` list)::

    effects:
      - {when: play, do: damage, amount: 2, target: {side: enemy}}
      - {when: bench, do: modify, stat: strength, amount: 1,
         target: {side: ally, count: each, same_name: true}}

`do` is a word of the vocabulary (`companion.engine.effects.vocabulary`); each word has its
keys (`KEYS`), and an unknown or missing key, a wrong word or a number that is no integer is an
`EffectError` naming the card and the field (`effects[2].target.side`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from companion.engine.api import EngineError
from companion.engine.effects.vocabulary import (
    EACH,
    LANES,
    PERMIT_ACTIONS,
    PERS,
    PREVENTED,
    RESOURCES,
    ROLES,
    SIDES,
    STATS,
    UNTILS,
    WHENS,
    ZONES,
    Ability,
    Damage,
    Destroy,
    Draw,
    Effect,
    Gain,
    Heal,
    Modify,
    Move,
    Permit,
    Prevent,
    Prompt,
    Return,
    Selector,
    Until,
    When,
)


class EffectError(EngineError):
    """A card's effect that the vocabulary cannot read: names the card and the field."""

    def __init__(self, card: str, field: str, detail: str) -> None:
        self.card = card
        self.field = field
        self.detail = detail
        super().__init__(f"card {card}: {field}: {detail}")


KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # do: (required keys, optional keys) besides when, do, lane, text
    "draw": (("amount",), ("from",)),
    "move": (("target", "to"), ()),
    "modify": (("stat", "amount", "target"), ("per",)),
    "gain": (("resource", "amount"), ()),
    "destroy": (("target",), ("dice",)),
    "damage": (("amount", "target"), ()),
    "heal": (("amount", "target"), ()),
    "return": (("target",), ("to",)),
    "prevent": (("what", "target"), ("until",)),
    "permit": (("action", "target"), ()),
    "prompt": (("text",), ()),
}
COMMON_KEYS = ("when", "do", "lane", "text")
SELECTOR_KEYS = ("side", "count", "zone", "role", "top", "max_cost", "same_name", "faction",
                 "card_type")


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else f"{value!r} ({type(value).__name__})"


class _Reader:
    """Reads one mapping for one card, naming `where` (`effects[1]`) in every error."""

    def __init__(self, card: str, where: str) -> None:
        self.card = card
        self.where = where

    def error(self, key: str, detail: str) -> EffectError:
        return EffectError(self.card, f"{self.where}.{key}" if key else self.where, detail)

    def mapping(self, value: Any, key: str = "") -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.error(key, f"must be a mapping, got {_shown(value)}")
        return value

    def keys(self, data: Mapping[str, Any], required: tuple[str, ...],
             allowed: tuple[str, ...], prefix: str = "") -> None:
        for key in data:
            if key not in (*required, *allowed):
                known = ", ".join((*required, *allowed))
                raise self.error(f"{prefix}{key}", f"unknown key (known here: {known})")
        for key in required:
            if key not in data or data[key] is None:
                raise self.error(f"{prefix}{key}", "missing")

    def word(self, data: Mapping[str, Any], key: str, words: tuple[str, ...],
             prefix: str = "") -> Any:
        """A word of `words` (typed by the caller's Literal: it is one of them)."""
        value = data[key]
        if value not in words:
            raise self.error(f"{prefix}{key}",
                             f"must be one of {', '.join(words)}, got {_shown(value)}")
        return value

    def integer(self, data: Mapping[str, Any], key: str, prefix: str = "",
                minimum: int | None = None) -> int:
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{prefix}{key}", f"must be an integer, got {_shown(value)}")
        if minimum is not None and value < minimum:
            raise self.error(f"{prefix}{key}", f"must be at least {minimum}, got {value}")
        return value

    def flag(self, data: Mapping[str, Any], key: str, prefix: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self.error(f"{prefix}{key}", f"must be true or false, got {_shown(value)}")
        return value

    def text(self, data: Mapping[str, Any], key: str, prefix: str = "") -> str:
        value = data[key]
        if not isinstance(value, str) or not value.strip():
            raise self.error(f"{prefix}{key}", f"must be a text, got {_shown(value)}")
        return value

    def selector(self, value: Any, key: str = "target") -> Selector:
        data = self.mapping(value, key)
        p = f"{key}."
        self.keys(data, (), SELECTOR_KEYS, p)
        count: int | str = 1
        if "count" in data:
            count = data["count"] if data["count"] == EACH else self.integer(data, "count", p, 1)
        return Selector(
            side=self.word(data, "side", SIDES, p) if "side" in data else "any",
            count=cast(Any, count),
            zone=self.word(data, "zone", ZONES, p) if "zone" in data else None,
            role=self.word(data, "role", ROLES, p) if "role" in data else None,
            top=self.flag(data, "top", p),
            max_cost=self.integer(data, "max_cost", p, 0) if "max_cost" in data else None,
            same_name=self.flag(data, "same_name", p),
            faction=self.text(data, "faction", p) if "faction" in data else None,
            card_type=self.text(data, "card_type", p) if "card_type" in data else None,
        )


def _effect(r: _Reader, do: str, data: Mapping[str, Any]) -> Effect:
    """The effect of word `do` from its keys (checked present by `KEYS`)."""
    def zone(key: str, default: str) -> Any:
        return r.word(data, key, ZONES) if key in data else default

    if do == "draw":
        return Draw(r.integer(data, "amount", minimum=1), zone("from", "deck"))
    if do == "move":
        return Move(r.selector(data["target"]), r.word(data, "to", ZONES))
    if do == "modify":
        per = r.word(data, "per", PERS) if "per" in data else None
        return Modify(r.word(data, "stat", STATS), r.integer(data, "amount"),
                      r.selector(data["target"]), per)
    if do == "gain":
        return Gain(r.word(data, "resource", RESOURCES),
                    r.integer(data, "amount", minimum=1))
    if do == "destroy":
        dice = r.integer(data, "dice", minimum=0) if "dice" in data else 0
        return Destroy(r.selector(data["target"]), dice)
    if do == "damage":
        return Damage(r.integer(data, "amount", minimum=1), r.selector(data["target"]))
    if do == "heal":
        return Heal(r.integer(data, "amount", minimum=1), r.selector(data["target"]))
    if do == "return":
        return Return(r.selector(data["target"]), zone("to", "hand"))
    if do == "prevent":
        until: Until = r.word(data, "until", UNTILS) if "until" in data else "now"
        return Prevent(r.word(data, "what", PREVENTED), r.selector(data["target"]),
                       until)
    if do == "permit":
        return Permit(r.word(data, "action", PERMIT_ACTIONS),
                      r.selector(data["target"]))
    return Prompt(r.text(data, "text"))


def parse_ability(card: str, index: int, raw: Any, default_when: When = "play") -> Ability:
    """One entry of a card's `effects` list (`index` counts from 1) as a typed `Ability`."""
    r = _Reader(card, f"effects[{index}]")
    data = r.mapping(raw)
    if "do" not in data:
        raise r.error("do", f"missing (one of {', '.join(KEYS)})")
    do = r.word(data, "do", tuple(KEYS))
    required, optional = KEYS[do]
    r.keys(data, required, (*optional, *COMMON_KEYS))
    when: When = r.word(data, "when", WHENS) if "when" in data else default_when
    lane = r.word(data, "lane", LANES) if "lane" in data else None
    text = r.text(data, "text") if do != "prompt" and "text" in data else ""
    effect = _effect(r, do, data)
    return Ability(when, effect, lane, text)


def parse_abilities(card: str, raw: Any, default_when: When = "play") -> tuple[Ability, ...]:
    """A card's whole `effects` list."""
    if not isinstance(raw, list | tuple):
        raise EffectError(card, "effects", f"must be a list of mappings, got {_shown(raw)}")
    return tuple(parse_ability(card, i, item, default_when) for i, item in enumerate(raw, 1))
