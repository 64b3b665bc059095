"""Card facts as the engine sees them: id, name, type, the rulebook's quantities, keywords, effects.

The engine reads cards through this one small type, whatever the cardset loader returns, so
rulesets never depend on the cardset file format. Inline cards (from a table script) extend or
override the game's cardset. A catalog compiles every card's effects once when it loads them
(`CardFacts.abilities`, typed: `companion.engine.effects`), so rules never read card text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine.api import SetupError
from companion.engine.card_facts import CardFacts
from companion.engine.effects.compiling import EffectCompiler, compile_card, compiler_for
from companion.snapshot import split_uid

__all__ = ["CardFacts", "Catalog", "card_id_of"]

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
