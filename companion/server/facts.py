"""What the rules know and the table does not show: hand and deck sizes, action tokens, limits,
bonuses, dice. Read from the engine's public view (`Game.view("table")`), so nothing hidden
(a hand's cards, a deck's order) ever reaches the page; only counts and public numbers do.

`facts(...)` returns {"p1": [...], "p2": [...], "shared": [...]}, each item
{"key", "label_en", "label_de", "value", "value_de"?, "warn"?}; the page prints them beside
each player's half of the mat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from companion.record.wording import Namer, die_colour

Fact = dict[str, Any]
Facts = dict[str, list[Fact]]
NUMBERED = re.compile(r"\d$")


def fact(key: str, en: str, de: str, value: Any, value_de: Any = None, warn: bool = False
         ) -> Fact:
    out: Fact = {"key": key, "label_en": en, "label_de": de, "value": value}
    if value_de is not None:
        out["value_de"] = value_de
    if warn:
        out["warn"] = True
    return out


def _zones(view: Mapping[str, Any], layout: Mapping[str, Any] | None, player: str
           ) -> list[Fact]:
    """Hand size and the size of every pile (deck, discard, ...) of `player`."""
    zones = view.get("zones") or {}
    out: list[Fact] = []
    hand = zones.get(f"{player}.hand")
    if hand is not None:
        out.append(fact("hand", "Hand", "Hand", int(hand.get("count", 0))))
    for z in (layout or {}).get("zones", []):
        if z.get("owner") != player or z.get("kind") != "pile" or NUMBERED.search(z["id"]):
            continue
        found = zones.get(z["id"])
        if found is None:
            continue
        out.append(fact(z["id"].split(".", 1)[1], str(z["label_en"]), str(z["label_de"]),
                        int(found.get("count", 0))))
    return out


def _dice(values: Mapping[str, Any]) -> tuple[str, str]:
    en = ", ".join(f"{die_colour(d)[0]} {v}" for d, v in sorted(values.items()))
    de = ", ".join(f"{die_colour(d)[1]} {v}" for d, v in sorted(values.items()))
    return en, de


def _trick_or_beat(extra: Mapping[str, Any], p: str, namer: Namer) -> list[Fact]:
    mine = extra.get(p) or {}
    out = [fact("lane_limit", "Creatures per lane", "Wesen pro Lane", mine.get("lane_limit"))]
    if mine.get("attack_bonus"):
        out.append(fact("attack_bonus", "Attack bonus", "Angriffsbonus",
                        f"+{mine['attack_bonus']}"))
    if mine.get("survival_bonus"):
        out.append(fact("survival_bonus", "Survival bonus", "Überlebensbonus",
                        f"+{mine['survival_bonus']}"))
    if mine.get("trick_win_blocked_for_opponent"):
        out.append(fact("trick_block", "Opponent cannot win by tricks",
                         "Gegner kann nicht durch Tricks gewinnen", "✓"))
    return out


SYMBOLS_DE = {"Red": "Rot", "Blue": "Blau", "Yellow": "Gelb", "Purple": "Lila", "Green": "Grün",
              "White": "Weiß", "Black": "Schwarz", "Brown": "Braun", "Colorless": "Farblos"}
"""Fire Emblem Cipher's bond symbols (colours) as the German rules say them."""


def _fire_emblem(extra: Mapping[str, Any], p: str, namer: Namer) -> list[Fact]:
    mine = extra.get(p) or {}
    out = [fact("bonds", "Bonds", "Bindungen", mine.get("bonds", 0))]
    if mine.get("symbols"):
        symbols = [str(s) for s in mine["symbols"]]
        out.append(fact("symbols", "Bond symbols", "Bindungssymbole", ", ".join(symbols),
                        ", ".join(SYMBOLS_DE.get(s, s) for s in symbols)))
    if mine.get("lord"):
        out.append(fact("lord", "Lord", "Lord", namer.text(str(mine["lord"]), "en"),
                        namer.text(str(mine["lord"]), "de")))
    if mine.get("draws_owed"):
        out.append(fact("draws_owed", "Cards still to draw", "Noch zu ziehen",
                        mine["draws_owed"], warn=True))
    return out


def _pony(extra: Mapping[str, Any], p: str, namer: Namer) -> list[Fact]:
    mine = extra.get(p) or {}
    out = [fact("action_tokens", "Action tokens", "Aktionspunkte", mine.get("action_tokens", 0))]
    if "home_limit" in mine:
        at_home, limit = mine.get("friends_at_home", 0), mine["home_limit"]
        out.append(fact("home", "Friends at home", "Freunde im Zuhause",
                        f"{at_home} / {limit}", warn=at_home > limit))
    if mine.get("boosted"):
        out.append(fact("boosted", "Mane character", "Hauptcharakter", "boosted", "geboostet"))
    return out


def _challengers(extra: Mapping[str, Any], p: str, namer: Namer) -> list[Fact]:
    out: list[Fact] = []
    pending = (extra.get("rest_pending") or {}).get(p)
    if pending:
        out.append(fact("rest_pending", "Bench cards to rest", "Bankkarten zum Ruhestapel",
                        pending, warn=True))
    attack = extra.get("attack") or {}
    flag = extra.get("flag") or {}
    if attack.get("player") == p and attack.get("cards"):
        out.append(fact("attack", "Attack strength", "Angriffsstärke", attack.get("total")))
    elif attack.get("cards") and flag.get("holder") == p:
        out.append(fact("defence", "Defence strength", "Verteidigungsstärke",
                        extra.get("defence")))
    if flag.get("holder") == p:
        out.append(fact("flag", "Holds the flag", "Hat die Fahne", "⚑"))
    return out


def _creature_crush(extra: Mapping[str, Any], p: str, namer: Namer) -> list[Fact]:
    out: list[Fact] = []
    start = (extra.get("start_dice") or {}).get(p) or {}
    if start:
        en, de = _dice(start)
        out.append(fact("start_dice", "Start dice", "Startwürfel", en, de))
    burned = (extra.get("burned_unassigned") or {}).get(p) or {}
    if burned:
        en, de = _dice(burned)
        out.append(fact("burned", "Burned, not yet used", "Verbrannt, noch nicht genutzt",
                        en, de))
    owed = [o for o in extra.get("unpaid") or [] if o.get("player") == p]
    if owed:
        out.append(fact("unpaid", "Unpaid costs", "Unbezahlte Kosten", len(owed), warn=True))
    more = (extra.get("next_turn_extra_dice") or {}).get(p)
    if more:
        out.append(fact("extra_dice", "Extra dice next turn", "Zusatzwürfel nächste Runde",
                        f"+{more}"))
    return out


def _shared(game: str, extra: Mapping[str, Any], namer: Namer) -> list[Fact]:
    out: list[Fact] = []
    if game == "challengers" and extra.get("round"):
        out.append(fact("round", "Round", "Runde", extra["round"]))
    if game == "creature-crush":
        for text in extra.get("effects") or []:
            out.append(fact("effect", "Effect in play", "Effekt im Spiel",
                            namer.text(str(text), "en"), namer.text(str(text), "de")))
    if game == "my-little-pony-ccg" and extra.get("faceoff"):
        f = extra["faceoff"]
        totals = f.get("totals") or {}
        said = " : ".join(f"{namer.player(p)} {totals.get(p, 0)}" for p in ("p1", "p2"))
        out.append(fact("faceoff", "Faceoff", "Konfrontation", said))
    return out


PER_GAME: dict[str, Callable[[Mapping[str, Any], str, Namer], list[Fact]]] = {
    "trick-or-beat": _trick_or_beat,
    "fire-emblem-cipher": _fire_emblem,
    "my-little-pony-ccg": _pony,
    "challengers": _challengers,
    "creature-crush": _creature_crush,
}


def facts(game: str, view: Mapping[str, Any], namer: Namer,
          layout: Mapping[str, Any] | None) -> Facts:
    """Each player's public numbers and the shared ones, from the engine's table view."""
    extra = view.get("extra") or {}
    per_game = PER_GAME.get(game)
    out: Facts = {"shared": _shared(game, extra, namer)}
    for p in ("p1", "p2"):
        zones = _zones(view, layout, p)
        hand = [f for f in zones if f["key"] == "hand"]
        piles = [f for f in zones if f["key"] != "hand"]
        # hand first, then what only the rules know (tokens, limits), then the piles
        out[p] = hand + (per_game(extra, p, namer) if per_game else []) + piles
    return out


def facts_of(referee: Any, namer: Namer, layout: Mapping[str, Any] | None) -> Facts | None:
    """`facts` of a live referee that drives the real engine; None for any other referee."""
    engine = getattr(referee, "engine", None)
    if engine is None or not hasattr(engine, "view"):
        return None
    return facts(str(getattr(referee, "game", "")), engine.view("table"), namer, layout)
