"""Per-game data the page draws: the mat layout as JSON and card names by id.

Read from the layouts and cardsets packages; inline cards of a table script extend the cardset,
as they do for the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games import GAMES, game_spec
from companion.server.session import CardInfo


def layout_dict(game: str) -> dict[str, Any]:
    """The mat of `game` in millimetres: size, zones with labels in both languages."""
    from companion.layouts import load_layout

    layout = load_layout(game)
    return {
        "game": game,
        "width_mm": float(layout.width_mm),
        "height_mm": float(layout.height_mm),
        "card_w_mm": float(layout.card_w_mm),
        "card_h_mm": float(layout.card_h_mm),
        "corners": [
            {"x_mm": float(c.x_mm), "y_mm": float(c.y_mm), "size_mm": float(c.size_mm)}
            for c in layout.corners
        ],
        "zones": [
            {
                "id": z.id,
                "owner": z.owner,
                "x_mm": float(z.x_mm),
                "y_mm": float(z.y_mm),
                "w_mm": float(z.w_mm),
                "h_mm": float(z.h_mm),
                "kind": z.kind,
                "label_en": z.label_en,
                "label_de": z.label_de,
            }
            for z in layout.zones.values()
        ],
    }


STAT_FIELDS = (("attack", "ATK", "ANG"), ("survival", "SUR", "ÜLP"), ("power", "PWR", "KRAFT"),
               ("strength", "STR", "STÄ"), ("support", "SUP", "UNT"), ("life", "LIFE", "LP"),
               ("cost", "COST", "KOST"), ("level", "LV", "LV"))
"""The numbers worth printing on a drawn card, in this order (the rulebooks' quantities),
with the English and German abbreviations."""

def card_stats(fields: Mapping[str, Any], lang: str = "en") -> str:
    shown = [f"{de if lang == 'de' else en} {fields[key]}" for key, en, de in STAT_FIELDS
             if isinstance(fields.get(key), int | float) and not isinstance(fields[key], bool)]
    return " · ".join(shown[:3])


def card_words(game: str, name: str, card_type: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """What the mat prints on a card, in both languages."""
    return {"name": name, "type": card_type,
            "type_de": game_spec(game).type_de(card_type) if game in GAMES else card_type,
            "stats": card_stats(fields), "stats_de": card_stats(fields, "de")}


def card_lookup(game: str, extra: Iterable[Mapping[str, Any]] = ()) -> CardInfo:
    """id -> {name, type, fields} from the game's cardset plus inline cards."""
    from companion.cardsets import load_cardset

    cardset = load_cardset(game)
    inline = {str(c["id"]): dict(c) for c in extra}
    cache: dict[str, Mapping[str, Any] | None] = {}

    def info(card_id: str) -> Mapping[str, Any] | None:
        if card_id in cache:
            return cache[card_id]
        found: Mapping[str, Any] | None = None
        if card_id in inline:
            row = inline[card_id]
            found = {**row, **card_words(game, str(row.get("name", card_id)),
                                         str(row.get("type", "")), row)}
        if found is None:
            try:
                card = cardset.get(card_id)
            except (KeyError, ValueError):
                card = None
            if card is not None:
                found = card_words(game, card.name, card.type, card.fields)
        cache[card_id] = found
        return found

    return info
