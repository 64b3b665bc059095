"""Card facts as the engine sees them: id, name, type, the rulebook's quantities, keywords, effects.

The engine reads cards through this one small type, whatever the cardset loader returns, so
rulesets never depend on the cardset file format. Inline cards (from a table script) extend or
override the game's cardset. A catalog compiles every card's effects once when it loads them
(`CardFacts.abilities`, typed: `companion.engine.effects`), so rules never read card text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.api import SetupError
from companion.engine.effects.compiling import EffectCompiler, compile_card, compiler_for
from companion.engine.effects.vocabulary import CardAbilities
from companion.snapshot import split_uid

_CORE = ("id", "name", "type", "keywords", "effects", "abilities")


@dataclass(frozen=True)
class CardFacts:
    """One card definition (not a physical copy)."""

    id: str
    name: str
    type: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    keywords: tuple[str, ...] = ()
    effects: tuple[Mapping[str, Any], ...] = ()
    """The card's structured `effects` entries as written (its game's compiler reads them)."""
    abilities: CardAbilities = ()
    """Its effects compiled to the engine's vocabulary when the catalog loaded it."""

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def number(self, key: str, default: int = 0) -> int:
        value = self.fields.get(key, default)
        try:
            return int(value)
        except (TypeError, ValueError):
            return default

    def has_keyword(self, word: str) -> bool:
        low = word.lower()
        return any(k.lower() == low for k in self.keywords)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> CardFacts:
        try:
            cid = str(data["id"])
        except KeyError:
            raise SetupError(f"card without id: {dict(data)!r}") from None
        return cls(
            id=cid,
            name=str(data.get("name", cid)),
            type=str(data.get("type", "")),
            fields={k: v for k, v in data.items() if k not in _CORE},
            keywords=tuple(str(k) for k in data.get("keywords") or ()),
            effects=tuple(data.get("effects") or ()),
        )


def card_id_of(uid: str) -> str:
    """The card id of a uid ("CC-013#2" -> "CC-013"); anything else stays as it is."""
    try:
        return split_uid(uid)[0]
    except ValueError:
        return uid


def _card_to_mapping(card: Any) -> dict[str, Any]:
    """Turn whatever the cardset loader returns for one card into a plain mapping."""
    if isinstance(card, Mapping):
        return dict(card)
    data: dict[str, Any] = {}
    extra = getattr(card, "fields", None)
    if isinstance(extra, Mapping):
        data.update(extra)
    for key in ("id", "name", "type", "number", "keywords", "effects"):
        if hasattr(card, key):
            value = getattr(card, key)
            if value is not None:
                data[key] = list(value) if isinstance(value, tuple) else value
    return data


class Catalog:
    """All card definitions of one game: the cardset plus inline cards."""

    def __init__(self, cards: Iterable[CardFacts]) -> None:
        self._cards: dict[str, CardFacts] = {c.id: c for c in cards}

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._cards

    def __len__(self) -> int:
        return len(self._cards)

    def ids(self) -> list[str]:
        return list(self._cards)

    def card(self, card_id: str) -> CardFacts:
        try:
            return self._cards[card_id]
        except KeyError:
            raise SetupError(f"unknown card {card_id!r}") from None

    def of_uid(self, uid: str) -> CardFacts:
        """The definition of a physical card uid "<id>#<copy>" (or a bare id)."""
        try:
            card_id, _ = split_uid(uid)
        except ValueError:
            card_id = uid
        return self.card(card_id)

    @classmethod
    def for_game(cls, game: str, inline: Iterable[Mapping[str, Any]] = ()) -> Catalog:
        """The game's cardset (when one is installed) extended by `inline` cards, every card's
        effects compiled by the game's compiler (the cardset's once per process)."""
        compiler = compiler_for(game)
        cards: dict[str, CardFacts] = {c.id: c for c in _compiled_cardset(game, compiler)}
        for item in inline:
            facts = compile_card(CardFacts.from_mapping(item), compiler)
            cards[facts.id] = facts
        return cls(cards.values())


_CARDSET_CACHE: dict[str, list[dict[str, Any]]] = {}
_COMPILED_CACHE: dict[str, tuple[EffectCompiler | None, list[CardFacts]]] = {}


def _compiled_cardset(game: str, compiler: EffectCompiler | None) -> list[CardFacts]:
    """The bundled cardset's facts, compiled once per game and compiler."""
    cached = _COMPILED_CACHE.get(game)
    if cached is not None and cached[0] is compiler:
        return cached[1]
    facts = [compile_card(CardFacts.from_mapping(m), compiler) for m in _cardset_cards(game)]
    if game in _CARDSET_CACHE:  # a cardset that failed to load is tried again next time
        _COMPILED_CACHE[game] = (compiler, facts)
    return facts


def _cardset_cards(game: str) -> list[dict[str, Any]]:
    """The cards of the bundled cardset, or none when the cardset package or file is missing."""
    if game in _CARDSET_CACHE:
        return _CARDSET_CACHE[game]
    try:
        from companion.cardsets import load_cardset  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return []
    try:
        cardset = load_cardset(game)
    except FileNotFoundError:
        return []
    raw = getattr(cardset, "cards", None)
    if raw is None:
        return []
    items: Iterable[Any] = raw.values() if isinstance(raw, Mapping) else raw
    result = [_card_to_mapping(c) for c in items]
    _CARDSET_CACHE[game] = result
    return result
