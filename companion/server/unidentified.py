"""Cards the camera sees but has not identified: what the page says, and what the game infers.

The eye reports a card-shaped thing in a zone where no sticker read as an `Unreadable` place
with the cause "far" (too far from this camera: a laptop's far half) or "unidentified" (near,
its sticker hidden). The referee treats it as the lamp's reflection's unknown card
(`glare_reading`: "not sure", never a violation, never a move); this module words it for the
page, per zone ("Bo's lanes: 2 cards not yet identified, too far from this camera: ..."), and
names the card only when the game leaves one possibility, marked as inferred.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.server.glare_reading import NEAR_MM, candidates, owner_of_zone
from companion.server.names import Namer
from companion.snapshot import TableSnapshot, Unreadable

UNREAD_CAUSES = ("far", "unidentified")  # `Unreadable.cause` of a card seen where none read
JOIN_EN = "run `companion join` with this table's address on a laptop there"
JOIN_DE = "dort auf einem Laptop `companion join` mit der Adresse dieses Tisches starten"
"""What to do, said where people read it (the page), not a file they may not have."""


def unidentified(table: TableSnapshot | None) -> list[Unreadable]:
    """The places `table` reports a card at that no camera identified."""
    return [] if table is None else [u for u in table.unreadable if u.cause in UNREAD_CAUSES]


def still_unread(spots: Sequence[Unreadable], table: TableSnapshot) -> tuple[Unreadable, ...]:
    """`spots` less those another camera read: a card of `table` in the zone, within
    `NEAR_MM` of the place (a second camera at the far side reads what this one cannot)."""
    def read(u: Unreadable) -> bool:
        return u.cause in UNREAD_CAUSES and any(
            c.zone == u.zone and c.x_mm is not None and c.y_mm is not None
            and abs(c.x_mm - u.x_mm) <= NEAR_MM and abs(c.y_mm - u.y_mm) <= NEAR_MM
            for c in table.cards)
    return tuple(u for u in spots if not read(u))


def possessive_zone(namer: Namer, zone: str, lang: str) -> str:
    """"Bo's lanes" ("Bahnen (Bo)" in German): the zone as a player calls it."""
    owner = owner_of_zone(zone)
    if lang == "en" and owner is not None and owner in namer.players:
        label = str(namer.zones.get(zone, {}).get("label_en") or zone.split(".", 1)[-1])
        if label[1:2].islower():  # "Lanes" -> "lanes"; "A zone 1" stays
            label = label[:1].lower() + label[1:]
        return f"{namer.players[owner]}'s {label}"
    return namer.zone(zone, lang)


def _side(namer: Namer, zone: str, lang: str) -> str:
    owner = owner_of_zone(zone)
    name = namer.players.get(owner or "", "")
    if lang == "de":
        return f"auf {name}s Seite" if name else "auf der anderen Seite"
    return f"at {name}'s side" if name else "at the other side"


def zone_text(namer: Namer, zone: str, count: int, cause: str) -> dict[str, str]:
    """One zone's unidentified cards, and what to do, in words."""
    where_en, where_de = possessive_zone(namer, zone, "en"), possessive_zone(namer, zone, "de")
    cards_en = "1 card" if count == 1 else f"{count} cards"
    cards_de = "1 Karte" if count == 1 else f"{count} Karten"
    if cause == "far":
        them_en, them_de = ("it", "sie") if count == 1 else ("them", "sie")
        return {
            "text_en": f"{where_en}: {cards_en} not yet identified, too far from this camera: "
                       f"a second camera {_side(namer, zone, 'en')} reads {them_en} "
                       f"({JOIN_EN})",
            "text_de": f"{where_de}: {cards_de} noch nicht erkannt, zu weit von dieser "
                       f"Kamera: eine zweite Kamera {_side(namer, zone, 'de')} liest "
                       f"{them_de} ({JOIN_DE})",
        }
    return {
        "text_en": f"{where_en}: {cards_en} not yet identified: the sticker is hidden or turned "
                   "away; move what covers it",
        "text_de": f"{where_de}: {cards_de} noch nicht erkannt: der Sticker ist verdeckt oder "
                   "abgewandt; das Verdeckende wegnehmen",
    }


def spot_text(namer: Namer, spot: Unreadable) -> dict[str, str]:
    """One unidentified place, for a "not sure" reason."""
    return {"zone": spot.zone, "card": "", **zone_text(namer, spot.zone, 1, spot.cause)}


def inferred_card(game: Any, zone: str, table: TableSnapshot,
                  decks: Mapping[str, Sequence[str]]) -> str | None:
    """The card an unidentified card in `zone` must be, when the game leaves only one (the
    owner's deck less every card seen or known elsewhere); None when it leaves several."""
    possible = candidates(game, zone, table, decks)
    return possible[0] if len(possible) == 1 else None


def view(namer: Namer, table: TableSnapshot | None, game: Any,
         decks: Mapping[str, Sequence[str]]) -> dict[str, list[dict[str, Any]]]:
    """The page's part: `places` to draw as "?" cards, `zones` to name with what to do."""
    spots = unidentified(table)
    if table is None or not spots:
        return {"places": [], "zones": []}
    counts = Counter(u.zone for u in spots)
    causes = {u.zone: u.cause for u in spots if u.cause == "far"}
    zones = []
    for zone, count in sorted(counts.items()):
        entry: dict[str, Any] = {"zone": zone, "count": count,
                                 **zone_text(namer, zone, count,
                                             causes.get(zone, "unidentified"))}
        card = inferred_card(game, zone, table, decks) if count == 1 else None
        if card is not None:
            name_en, name_de = namer.text(card, "en"), namer.text(card, "de")
            entry["inferred"] = card
            entry["text_en"] += f" (inferred: it can only be {name_en})"
            entry["text_de"] += f" (erschlossen: es kann nur {name_de} sein)"
        zones.append(entry)
    places = [{"zone": u.zone, "x_mm": u.x_mm, "y_mm": u.y_mm, "cause": u.cause, "card": ""}
              for u in spots]
    return {"places": places, "zones": zones}
