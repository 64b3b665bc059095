"""Plain words for people: card uids become card names, p1/p2 the players, zone ids labels.

The engine speaks in ids so that its texts are exact; people read names. The recording keeps
the engine's words; only what is shown (the page, `replay`, `export`) is rewritten here. Also
here: what the mat and the page need to know about a game (its zones, its phases, its cards),
read from the layouts, rulesets and cardsets packages, so the live page, the review page and
the exported records all speak the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from companion.games import GAMES, game_spec

CardInfo = Callable[[str], Mapping[str, Any] | None]
"""card id -> what is known about it (name, type, fields), or None."""

CARD_REF = re.compile(
    r"\b([A-Z][A-Za-z0-9]*-[A-Za-z0-9-]*[A-Za-z0-9]|[A-Z][A-Za-z]*\d[A-Za-z0-9]*)(#\d+)?"
)
"""Card ids as the cardsets write them: "TOB-006", "B01-003" or "PR22", with a copy "#1"."""
ZONE_REF = re.compile(r"\b(p[12]|shared)\.([A-Za-z][\w-]*)")
PLAYER_REF = re.compile(r"\bp([12])\b(?!\.\w)")
DIE_REF = re.compile(r"\bp[12]\.([wrc])([1-6])\b(?:=(\d+))?")
HIDDEN_REF = re.compile(r"(?<![\w?])\?(?![\w?])")
ERROR_NAME = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b:?\s*")
DIE_WORDS = {"en": {"w": "white die", "r": "red die", "c": "counter"},
             "de": {"w": "weißer Würfel", "r": "roter Würfel", "c": "Zähler"}}
DIE_COLOURS = {"w": ("white", "weiß"), "r": ("red", "rot"),
               "c": ("gold counter", "goldener Zähler")}
HIDDEN_WORDS = {"en": "a hidden card", "de": "eine verdeckte Karte"}
SHOWN_PREFIXES = ("text_", "message_", "move_text_", "label_", "reason_", "detail")


def plain_error(text: str) -> str:
    """A message without exception class names ("SourceError: cannot open camera 0" ->
    "cannot open camera 0"): people read what happened, not how the code calls it."""
    return ERROR_NAME.sub("", str(text)).strip()


RULEBOOK_WORDS = ("rules", "schlachtplan", "regeln", "spielregel")
"""How a rulebook calls itself after the game's name ("Trick or Beat rules, Beschwören")."""


def rule_words(rule: str, game: str = "", lang: str = "en") -> str:
    """Where a broken rule is written, for people, in `lang`: "Trick or Beat rules,
    Beschwören" -> "rulebook: Summoning" ("Regelheft: Beschwören"); a rule from elsewhere
    stays whole (in German its source in German: "offizielle Enterplay-Regeln: ...")."""
    name = GAMES[game].name if game in GAMES else game
    if lang == "de":
        rule = re.sub(r"^official (\S+) rules", r"offizielle \1-Regeln", rule)
    if not (name and rule.startswith(name)):
        return rule
    rest = rule[len(name):].lstrip(" ,")
    book, sep, section = rest.partition(", ")
    if sep and len(book.split()) == 1 and book.lower() in RULEBOOK_WORDS:
        rest = section
    if not rest:
        return rule
    if game in GAMES:
        rest = game_spec(game).violations.section_words(rest, lang)
    return f"{'Regelheft' if lang == 'de' else 'rulebook'}: {rest}"


class Namer:
    """Rewrites engine texts with the names people use at this table."""

    def __init__(
        self,
        card_info: CardInfo,
        players: Sequence[str],
        layout: Mapping[str, Any] | None,
    ) -> None:
        self.card_info = card_info
        self.players = {"p1": players[0], "p2": players[1]} if len(players) > 1 else {}
        self.zones = {z["id"]: z for z in (layout or {}).get("zones", [])}
        phases = (layout or {}).get("phases") or {}
        self.phases = {p["id"]: p for group in phases.values() for p in group}
        self.game = str((layout or {}).get("game") or "")

    def phase(self, phase_id: str | None, lang: str = "en") -> str:
        """A phase's name in `lang` ("main" -> "Main phase"), the id when unknown."""
        p = self.phases.get(str(phase_id))
        return str(p.get(f"name_{lang}") or p.get("name_en")) if p else str(phase_id or "")

    def player(self, pid: str | None) -> str:
        return self.players.get(str(pid), str(pid or "–"))

    def card_name(self, card_id: str) -> str | None:
        info = self.card_info(card_id)
        if not info or not info.get("name"):
            return None
        title = info.get("title")
        return f"{info['name']}, {title}" if title else str(info["name"])

    def _card(self, match: re.Match[str]) -> str:
        return self.card_name(match.group(1)) or match.group(0)

    def zone(self, zone_id: str, lang: str = "en") -> str:
        z = self.zones.get(zone_id)
        owner = self.players.get(zone_id.split(".", 1)[0])
        if z is None:
            rest = zone_id.split(".", 1)[-1].replace("-", " ")
            if rest == "hand":
                rest = "Hand"
            return f"{rest} ({owner})" if owner else rest
        label = z.get(f"label_{lang}") or z.get("label_en") or zone_id
        return f"{label} ({owner})" if owner else str(label)

    def text(self, text: str, lang: str = "en") -> str:
        def zone(match: re.Match[str]) -> str:
            if match.group(0) in self.zones or match.group(2) == "hand":
                return self.zone(match.group(0), lang)
            return match.group(0)

        def die(match: re.Match[str]) -> str:
            words = DIE_WORDS["de" if lang == "de" else "en"]
            said = f"{words[match.group(1)]} {match.group(2)}"
            return f"{said} ({match.group(3)})" if match.group(3) else said

        out = DIE_REF.sub(die, str(text)).replace("),", "), ")
        out = ZONE_REF.sub(zone, out)
        out = CARD_REF.sub(self._card, out)
        out = HIDDEN_REF.sub(HIDDEN_WORDS["de" if lang == "de" else "en"], out)
        return PLAYER_REF.sub(lambda m: self.players.get(f"p{m.group(1)}", m.group(0)), out)

    def payload(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A copy with every shown text field (text_*, message_*, label_*, reason_*, detail*)
        in plain words."""
        out = dict(payload)
        for key, value in payload.items():
            if isinstance(value, str) and key.startswith(SHOWN_PREFIXES):
                lang = "de" if key.endswith("_de") else "en"
                out[key] = self.text(plain_error(value) if key.startswith("detail") else value,
                                     lang)
        rule = payload.get("rule")
        if isinstance(rule, str) and rule and "rule_en" not in payload:  # said as the page says it
            out["rule_en"], out["rule_de"] = (rule_words(rule, self.game, "en"),
                                              rule_words(rule, self.game, "de"))
        return out

    def deep(self, data: Any) -> Any:
        """`data` with every shown text field in plain words however deep it lies (a
        question's choices inside its payload, an outcome inside a header)."""
        if isinstance(data, Mapping):
            return self.payload({k: self.deep(v) for k, v in data.items()})
        if isinstance(data, list):
            return [self.deep(v) for v in data]
        return data


# --- what the page knows about a game -------------------------------------------------------


def layout_dict(game: str) -> dict[str, Any]:
    """The mat of `game` in millimetres: size, zones with labels in both languages, and the
    phases of its turn (for the phase strip)."""
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
        "phases": phase_list(game),
    }


def phase_list(game: str) -> dict[str, list[dict[str, str]]]:
    """The game's setup phases and the phases of a turn, in order, named in both languages
    ({"setup": [...], "turn": [...]}, each {"id", "name_en", "name_de"}); empty lists when the
    ruleset has no declarative flow."""
    try:
        from companion.games import get_ruleset

        spec = get_ruleset(game).flow.spec
        groups = {"setup": spec.setup_phases, "turn": spec.turn_phases}
    except (AttributeError, ImportError, KeyError, ValueError):
        return {"setup": [], "turn": []}
    return {
        key: [{"id": str(p.id), "name_en": str(p.name.get("en")),
               "name_de": str(p.name.get("de"))} for p in phases]
        for key, phases in groups.items()
    }


STAT_FIELDS = (("attack", "ATK", "ANG"), ("survival", "SUR", "ÜLP"), ("power", "PWR", "KRAFT"),
               ("strength", "STR", "STÄ"), ("support", "SUP", "UNT"), ("life", "LIFE", "LP"),
               ("cost", "COST", "KOST"), ("level", "LV", "LV"))
"""The numbers worth printing on a drawn card, in this order (the rulebooks' quantities),
with the English and German abbreviations."""

TYPE_DE = {"creature": "Wesen", "tactic": "Taktik", "unit": "Einheit", "event": "Ereignis",
           "friend": "Freund", "mane": "Hauptcharakter", "problem": "Problem",
           "resource": "Ressource", "troublemaker": "Widersacher", "bot": "Bot",
           "recruit": "Rekrut", "start": "Startkarte", "crush": "Crush",
           "character": "Charakter", "equipment": "Ausrüstung", "fighter": "Kämpfer"}
"""Card types in German, for a game whose spec does not name a type (its own names come
first: `GameSpec.card_types_de`, e.g. Creature Crush keeps "Creature")."""

COLOUR_WORDS = {
    "loyalty": ("blue (Loyalty)", "blau (Loyalty)", "#3b82c4"),
    "honesty": ("orange (Honesty)", "orange (Honesty)", "#e58a2e"),
    "laughter": ("pink (Laughter)", "rosa (Laughter)", "#e37fb3"),
    "magic": ("purple (Magic)", "lila (Magic)", "#8a5cc2"),
    "generosity": ("white (Generosity)", "weiß (Generosity)", "#f4f1ea"),
    "kindness": ("yellow (Kindness)", "gelb (Kindness)", "#e2b82f"),
    "blue": ("blue", "blau", "#3b82c4"), "red": ("red", "rot", "#d0453a"),
    "green": ("green", "grün", "#3f9a57"), "yellow": ("yellow", "gelb", "#e2b82f"),
    "white": ("white", "weiß", "#f4f1ea"), "black": ("black", "schwarz", "#2b2b2b"),
    "purple": ("purple", "lila", "#8a5cc2"), "pink": ("pink", "rosa", "#e37fb3"),
    "orange": ("orange", "orange", "#e58a2e"), "colorless": ("colourless", "farblos", "#b9b4a8"),
    "colourless": ("colourless", "farblos", "#b9b4a8"), "brown": ("brown", "braun", "#8b5e3c"),
    "gray": ("grey", "grau", "#8d9399"), "grey": ("grey", "grau", "#8d9399"),
}
"""Card colours with German words and a swatch; My Little Pony names its colours after the
Elements of Harmony (Loyalty is blue, ...), the German rules say the colour."""


def card_stats(fields: Mapping[str, Any], lang: str = "en") -> str:
    shown = [f"{de if lang == 'de' else en} {fields[key]}" for key, en, de in STAT_FIELDS
             if isinstance(fields.get(key), int | float) and not isinstance(fields[key], bool)]
    return " · ".join(shown[:3])


def _colours(fields: Mapping[str, Any]) -> list[dict[str, str]]:
    raw = fields.get("color", fields.get("colour"))
    values = raw if isinstance(raw, list) else [raw] if raw else []
    out = []
    for value in values:
        key = str(value).lower()
        en, de, swatch = COLOUR_WORDS.get(key, (str(value), str(value), "#b9b4a8"))
        out.append({"en": en, "de": de, "swatch": swatch})
    return out


def _type_de(game: str, card_type: str) -> str:
    own = game_spec(game).card_types_de.get(card_type) if game in GAMES else None
    return own or TYPE_DE.get(card_type, card_type)


def card_words(game: str, name: str, card_type: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """What the mat prints on a card, in both languages: name and title, type, numbers,
    colours."""
    title = fields.get("title") or fields.get("subname") or ""
    return {"name": name, "title": str(title) if title else "", "type": card_type,
            "type_de": _type_de(game, card_type),
            "stats": card_stats(fields), "stats_de": card_stats(fields, "de"),
            "colours": _colours(fields)}


def card_lookup(game: str, extra: Iterable[Mapping[str, Any]] = ()) -> CardInfo:
    """id -> {name, title, type, stats, colours, fields} from the game's cardset plus inline
    cards."""
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
            found = {**card_words(game, str(row.get("name", card_id)),
                                  str(row.get("type", "")), row),
                     "fields": {k: v for k, v in row.items() if k not in ("id", "name", "type")}}
        if found is None:
            try:
                card = cardset.get(card_id)
            except (KeyError, ValueError):
                card = None
            if card is not None:
                full = card.to_mapping()
                found = {**card_words(game, card.name, card.type, card.fields),
                         "fields": {k: v for k, v in full.items()
                                    if k not in ("id", "name", "type")}}
        cache[card_id] = found
        return found

    return info


def safe_card_lookup(game: str, inline: Iterable[Mapping[str, Any]] = ()) -> CardInfo:
    """`card_lookup`, or only the inline cards when the game's cardset cannot be read."""
    rows = list(inline)
    try:
        return card_lookup(game, rows)
    except (ImportError, FileNotFoundError, ValueError):
        known = {str(c["id"]): c for c in rows}
        return known.get


def safe_layout(game: str) -> dict[str, Any] | None:
    try:
        return layout_dict(game)
    except (ImportError, FileNotFoundError, ValueError, KeyError):
        return None


def die_colour(die: str) -> tuple[str, str]:
    """The colour of a die from its id ("p1.r2" -> ("red", "rot"))."""
    kind = (die.split(".", 1)[-1] or "w")[0]
    return DIE_COLOURS.get(kind, ("", ""))


def table_view(snapshot: Any, card_info: CardInfo) -> dict[str, Any]:
    """Cards with their names, titles, types and colours, dice with their colours, tokens:
    what the SVG mat draws (`snapshot` a `TableSnapshot` or None)."""
    from companion.snapshot import is_back, split_uid

    if snapshot is None:
        return {"seq": None, "cards": [], "dice": [], "tokens": []}
    cards = []
    for c in snapshot.cards:
        info: Mapping[str, Any] = {}
        card_id = None
        if not is_back(c.uid):
            try:
                card_id = split_uid(c.uid)[0]
            except ValueError:
                card_id = c.uid
            info = card_info(card_id) or {}
        cards.append({
            "uid": c.uid,
            "id": card_id,
            "name": info.get("name") or card_id or "",
            "title": info.get("title") or "",
            "type": info.get("type") or "",
            "type_de": info.get("type_de") or info.get("type") or "",
            "stats": info.get("stats") or "",
            "stats_de": info.get("stats_de") or info.get("stats") or "",
            "colours": list(info.get("colours") or []),
            "zone": c.zone,
            "face_up": c.face_up and not is_back(c.uid),
            "tapped": c.tapped,
            "on": c.on,
            "x_mm": c.x_mm,
            "y_mm": c.y_mm,
        })
    return {
        "seq": snapshot.seq,
        "cards": cards,
        "dice": [
            {"die": d.die, "value": d.value, "zone": d.zone, "on": d.on,
             "x_mm": d.x_mm, "y_mm": d.y_mm, "colour_en": die_colour(d.die)[0],
             "colour_de": die_colour(d.die)[1]}
            for d in snapshot.dice
        ],
        "tokens": [
            {"token": t.token, "zone": t.zone, "on": t.on, "x_mm": t.x_mm, "y_mm": t.y_mm}
            for t in snapshot.tokens
        ],
    }


def card_detail(card_id: str, card_info: CardInfo) -> dict[str, Any] | None:
    """Everything known about one card, for the tap/hover panel: name, title, type, colours
    and every field of the cardset with a readable label."""
    info = card_info(card_id)
    if info is None:
        return None
    fields = dict(info.get("fields") or {})
    return {
        "id": card_id,
        "name": info.get("name") or card_id,
        "title": info.get("title") or "",
        "type": info.get("type") or "",
        "type_de": info.get("type_de") or info.get("type") or "",
        "colours": list(info.get("colours") or []),
        "fields": {k: v for k, v in fields.items() if k not in ("title", "subname", "color")},
    }


def started_label(iso: str | None) -> str:
    """When a game started, for people: "2026-11-21 18:05 UTC" (the text as given if odd)."""
    if not iso:
        return ""
    try:
        return datetime.fromisoformat(iso).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return iso
