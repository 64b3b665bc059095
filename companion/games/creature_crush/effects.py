"""Creature Crush card effects as permits: what an effect lets happen on the table next.

The sample cards carry their effects as German text (cardsets/creature-crush/base.yaml). Each
known sentence is read into a small effect ({"do": ..., "n": ...}). Most effects are carried
out by the players with their hands (put a red die on an enemy, take a card, move a creature),
so an effect becomes a *permit*: the next matching table change is legal although the basic
rules would not allow it. Permits form the effect chain: the newest is used first (the rulebook
resolves chains newest first). Effects the engine can carry out itself (extra start dice, a
prevented attack) are applied at once. Unknown sentences are prompted, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from companion.engine.cards import CardFacts
from companion.engine.state import GameState
from companion.games.creature_crush.state import flags

KEYWORDS = ("Aktion", "Falle", "Hölle", "Munter", "Nachtragend", "Träge")
Effect = dict[str, Any]

# (pattern on the lower-cased sentence, builder from the match)
_PATTERNS: tuple[tuple[str, Callable[[re.Match[str]], Effect]], ...] = (
    (r"ziehe (\d+) karten? aus deiner hölle", lambda m: {"do": "hell-to-hand", "n": int(m[1])}),
    (r"ziehe (\d+) karte", lambda m: {"do": "draw", "n": int(m[1])}),
    (r"verursache (\d+) schaden an jedem feind",
     lambda m: {"do": "damage-each", "n": int(m[1]), "side": "enemy", "row": ""}),
    (r"jeder feind in der a-zone erleidet (\d+) schaden",
     lambda m: {"do": "damage-each", "n": int(m[1]), "side": "enemy", "row": "A"}),
    (r"verursache (\d+) schaden an einem feind",
     lambda m: {"do": "damage", "n": int(m[1]), "side": "enemy"}),
    (r"verursache (\d+) schaden an einem beliebigen ziel",
     lambda m: {"do": "damage", "n": int(m[1]), "side": "any"}),
    (r"heile (\d+) schaden an einem verbündeten",
     lambda m: {"do": "heal", "n": int(m[1]), "side": "ally"}),
    (r"beschwöre diese creature aus deiner hölle", lambda m: {"do": "revive", "self": True}),
    (r"beschwöre eine creature aus deiner hölle", lambda m: {"do": "revive", "self": False}),
    (r"verschiebe einen verbündeten, ohne", lambda m: {"do": "free-move"}),
    (r"tausche die plätze zweier verbündeter", lambda m: {"do": "free-swap"}),
    (r"zerstöre (?:diesen|einen) feind mit (\d+) würfel",
     lambda m: {"do": "destroy", "dice": int(m[1]), "side": "enemy"}),
    (r"der angriff verursacht keinen schaden", lambda m: {"do": "prevent-attack"}),
    (r"verhindere diesen schaden", lambda m: {"do": "prevent-attack"}),
    (r"der angreifer erleidet (\d+) schaden",
     lambda m: {"do": "damage", "n": int(m[1]), "side": "attacker"}),
    (r"dieser feind erleidet (\d+) schaden",
     lambda m: {"do": "damage", "n": int(m[1]), "side": "moved"}),
    (r"übernimm die kontrolle über einen feind mit kosten (\d+)",
     lambda m: {"do": "control", "max_cost": int(m[1])}),
    (r"durchsuche dein lager", lambda m: {"do": "search"}),
    (r"erhalte startwürfel \+(\d+)", lambda m: {"do": "extra-dice", "n": int(m[1])}),
    (r"kann in seinem nächsten zug nicht angreifen", lambda m: {"do": "no-attack"}),
)


def read_text(text: str) -> Effect | None:
    """The effect a card sentence describes, or None when it is not modelled."""
    low = " ".join(text.lower().split())
    for pattern, build in _PATTERNS:
        match = re.search(pattern, low)
        if match:
            return build(match)
    return None


def card_effect(facts: CardFacts) -> Effect | None:
    """The card's effect: a structured `effects` entry when given, else its text."""
    for entry in facts.effects:
        if isinstance(entry, Mapping) and "do" in entry:
            return dict(entry)
    text = facts.get("text")
    return read_text(str(text)) if text else None


def trigger(facts: CardFacts) -> str | None:
    """Which keyword starts the card's effect (Aktion, Hölle, Falle) or None."""
    for word in ("Aktion", "Hölle", "Falle"):
        if facts.has_keyword(word):
            return word
    text = str(facts.get("text") or "")
    for word in ("Aktion", "Hölle", "Falle"):
        if text.startswith(word + ":"):
            return word
    return None


def effect_text(facts: CardFacts) -> str:
    return str(facts.get("text") or facts.name)


# ----------------------------------------------------------------------------- permits

def permits(state: GameState) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = flags(state).setdefault("permits", [])
    return found


def grant(state: GameState, player: str, source: str, effect: Effect, **context: Any) -> None:
    """Add a permit for `player` from `source` (the newest link of the chain)."""
    permit = {**effect, "player": player, "source": source, "uses": 1, **context}
    permits(state).append(permit)


def find(
    state: GameState, test: Callable[[dict[str, Any]], bool]
) -> dict[str, Any] | None:
    """The newest permit that allows a change (effects resolve newest first)."""
    for permit in reversed(permits(state)):
        if permit.get("uses", 0) > 0 and test(permit):
            return permit
    return None


def use(state: GameState, permit: dict[str, Any]) -> None:
    permit["uses"] = permit.get("uses", 1) - 1
    if permit["uses"] <= 0:
        permits(state).remove(permit)


def _n(n: Any, one: str, many: str) -> str:
    """"1 card", "2 cards" (a count given as text or number)."""
    return f"{n} {one if str(n) == '1' else many}"


def describe(permit: Mapping[str, Any], lang: str) -> str:
    """A prompt line for an open permit."""
    do = permit.get("do")
    n = permit.get("n", "")
    src = permit.get("source_name", permit.get("source", ""))
    en, de = {
        "draw": (f"draw {_n(n, 'card', 'cards')}", f"ziehe {_n(n, 'Karte', 'Karten')}"),
        "hell-to-hand": (f"take {_n(n, 'card', 'cards')} from your hell",
                         f"nimm {_n(n, 'Karte', 'Karten')} aus deiner Hölle"),
        "damage": {
            "enemy": (f"put {n} damage on an enemy", f"lege {n} Schaden auf einen Feind"),
            "any": (f"put {n} damage on any creature", f"lege {n} Schaden auf ein Ziel"),
        }.get(str(permit.get("side")), (f"put {n} damage on {permit.get('target') or 'it'}",
                                        f"lege {n} Schaden auf {permit.get('target') or 'sie'}")),
        "damage-each": (f"put {n} damage on each enemy", f"lege {n} Schaden auf jeden Feind"),
        "heal": (f"heal up to {n} damage of an ally",
                 f"heile bis zu {n} Schaden eines Verbündeten"),
        "revive": ("summon a creature from your hell", "beschwöre eine Creature aus deiner Hölle"),
        "free-move": ("move an ally without burning a die",
                      "verschiebe einen Verbündeten ohne Würfel"),
        "free-swap": ("swap two allies", "tausche zwei Verbündete"),
        "destroy": (f"destroy an enemy chosen with {permit.get('dice', 1)} dice (cost = dice)",
                    f"zerstöre einen Feind, gewählt mit {permit.get('dice', 1)} Würfel(n)"),
        "control": (f"take control of an enemy costing {permit.get('max_cost', '')} or less",
                    f"übernimm einen Feind mit Kosten {permit.get('max_cost', '')} oder weniger"),
        "search": ("search your camp for a card, then shuffle it",
                   "durchsuche dein Lager und mische es danach"),
    }.get(str(do), (str(do), str(do)))
    text = de if lang == "de" else en
    return f"{permit.get('player')}: {text} ({src})"
