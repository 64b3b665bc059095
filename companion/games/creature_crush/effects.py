"""Creature Crush card effects as permits: what an effect lets happen on the table next.

Every card's sentence is compiled once, when the cards load, to the engine's typed vocabulary
(`card_effects.py`; `CardFacts.abilities`); this module reads only those abilities. Most effects
are carried out by the players with their hands (put a red die on an enemy, take a card, move a
creature), so an effect becomes a *permit*: the next matching table change is legal although
the basic rules would not allow it. Permits form the effect chain: the newest is used first
(the rulebook resolves chains newest first). Effects the engine can carry out itself (extra
start dice, a prevented attack) are applied at once. A `Prompt` (a sentence not modelled)
permits nothing: the players are shown it, nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine.cards import CardFacts
from companion.engine.effects import (
    EACH,
    Ability,
    Damage,
    Destroy,
    Draw,
    Effect,
    Gain,
    Heal,
    Permit,
    Prevent,
    Return,
)
from companion.engine.effects.vocabulary import When
from companion.engine.state import GameState
from companion.games.creature_crush.state import flags

KEYWORD_OF_WHEN: dict[When, str] = {"summoned": "Aktion", "destroyed": "Hölle", "trap": "Falle"}
"""The rulebook's keyword for when a creature's effect works."""

PermitRecord = dict[str, Any]
"""A permit as the game state keeps it (plain data, so states copy and record): `do` and what
it needs (`n`, `side`, `row`, `self`, `max_cost`, `dice`, and `rolled`: the values of a
destroy effect's dice once they are rolled)."""


def _ability(facts: CardFacts) -> Ability | None:
    """The card's first modelled ability (Creature Crush cards have one effect each)."""
    return next((a for a in facts.abilities if a.modelled), None)


def permit_of(effect: Effect) -> PermitRecord | None:
    """The state's record of a compiled effect, or None when the rules do not model it."""
    match effect:
        case Draw(amount=n, source="hell"):
            return {"do": "hell-to-hand", "n": n}
        case Draw(amount=n, source="deck"):
            return {"do": "draw", "n": n}
        case Damage(amount=n, target=t) if t.count == EACH:
            return {"do": "damage-each", "n": n, "side": t.side, "row": t.zone or ""}
        case Damage(amount=n, target=t) if t.role in ("attacker", "moved"):
            return {"do": "damage", "n": n, "side": t.role}
        case Damage(amount=n, target=t) if t.role is None:
            return {"do": "damage", "n": n, "side": t.side}
        case Heal(amount=n, target=t):
            return {"do": "heal", "n": n, "side": t.side}
        case Return(target=t, to="field") if t.zone == "hell":
            return {"do": "revive", "self": t.side == "self"}
        case Permit(action="move"):
            return {"do": "free-move"}
        case Permit(action="swap"):
            return {"do": "free-swap"}
        case Permit(action="control", target=t):
            return {"do": "control", "max_cost": t.max_cost}
        case Permit(action="search"):
            return {"do": "search"}
        case Destroy(target=t, dice=dice):
            return {"do": "destroy", "dice": dice, "side": t.side}
        case Prevent(what="damage"):
            return {"do": "prevent-attack"}
        case Prevent(what="attack"):
            return {"do": "no-attack"}
        case Gain(resource="start-dice", amount=n):
            return {"do": "extra-dice", "n": n}
    return None


def card_effect(facts: CardFacts) -> PermitRecord | None:
    """The permit record of the card's compiled effect (None: none, or not modelled)."""
    ability = _ability(facts)
    return permit_of(ability.effect) if ability is not None else None


def trigger(facts: CardFacts) -> str | None:
    """Which keyword starts the card's effect (Aktion, Hölle, Falle) or None."""
    for ability in facts.abilities:
        if ability.when in KEYWORD_OF_WHEN:
            return KEYWORD_OF_WHEN[ability.when]
    return None


def effect_text(facts: CardFacts) -> str:
    """What the players are shown: the card's sentence (shown, never read)."""
    return next((a.text for a in facts.abilities if a.text), facts.name)


# ----------------------------------------------------------------------------- permits

def permits(state: GameState) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = flags(state).setdefault("permits", [])
    return found


COUNTED = ("draw", "hell-to-hand")
"""Permits used once per card: "Ziehe 2 Karten aus deiner Hölle" is two cards, each a table
change of its own (any other permit is one change, whatever its number says)."""


def grant(state: GameState, player: str, source: str, effect: PermitRecord,
          **context: Any) -> None:
    """Add a permit for `player` from `source` (the newest link of the chain)."""
    uses = max(1, int(effect.get("n", 1))) if effect.get("do") in COUNTED else 1
    permit = {**effect, "player": player, "source": source, "uses": uses, **context}
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


def dice_sums(values: list[int]) -> list[int]:
    """Every cost the rolled dice show, one die or several added: "eine 2 und eine 6 ...
    Kartenkosten 2, 6 oder 8" (glossary, Mit „X“ Würfeln)."""
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return sorted(sums - {0})


def dice_allow(permit: Mapping[str, Any], cost: int) -> bool:
    """Does a destroy effect reach a target of `cost`? Without dice, any; "mit X Würfeln"
    only once the dice are rolled and show the cost."""
    if int(permit.get("dice", 0)) <= 0:
        return True
    rolled = permit.get("rolled")
    return rolled is not None and cost in dice_sums(list(rolled))


def either(values: list[int], word: str) -> str:
    """"2, 6 or 8" (`word` "or" / "oder"); "-" for none."""
    shown = [str(v) for v in values]
    if len(shown) <= 1:
        return shown[0] if shown else "-"
    return f"{', '.join(shown[:-1])} {word} {shown[-1]}"


def _n(n: Any, one: str, many: str) -> str:
    """"1 card", "2 cards" (a count given as text or number)."""
    return f"{n} {one if str(n) == '1' else many}"


def _describe_destroy(permit: Mapping[str, Any]) -> tuple[str, str]:
    """Before the roll: how many dice to roll; after it: the costs the target may have."""
    rolled = permit.get("rolled")
    if rolled is None:
        n = permit.get("dice", 1)
        return (f"roll {_n(n, 'die', 'dice')}, then destroy an enemy whose cost they show",
                f"würfle {n} Würfel, dann zerstöre einen Feind, dessen Kosten sie zeigen")
    sums = dice_sums(list(rolled))
    return (f"destroy an enemy costing {either(sums, 'or')}, if there is one",
            f"zerstöre einen Feind mit Kosten {either(sums, 'oder')}, falls möglich")


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
        "destroy": _describe_destroy(permit),
        "control": (f"take control of an enemy costing {permit.get('max_cost', '')} or less",
                    f"übernimm einen Feind mit Kosten {permit.get('max_cost', '')} oder weniger"),
        "search": ("search your camp for a card, then shuffle it",
                   "durchsuche dein Lager und mische es danach"),
    }.get(str(do), (str(do), str(do)))
    text = de if lang == "de" else en
    return f"{permit.get('player')}: {text} ({src})"
