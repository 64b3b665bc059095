"""`CardFacts`: one card definition as the engine sees it (its own module, so the effect
compiler hook can name it without importing the catalog that calls the hook)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.engine.api import SetupError

if TYPE_CHECKING:  # at run time the effects package imports this module (its compile hook)
    from companion.engine.effects.vocabulary import CardAbilities

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
