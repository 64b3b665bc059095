"""Challengers! card effects, and the strength of attacks and defences.

Every card's text is compiled once, when the cards load, to the engine's typed vocabulary
(`card_effects.py`; `CardFacts.abilities`). This module views those abilities in the words the
rules reason in (`Effect`): `when` is the keyword: `reveal` (no keyword: at once when
revealed), `attack` (Im Angriff), `bench` (Von der Bank), `flag` (Im Fahnenbesitz),
`flag-loss` (Fahnenverlust), `chosen` (Ausgewählt, deck phase). `do` is what happens:
`fans`, `rest` (bench cards to the rest pile), `strength`, `per-other` (+n for every other
card of the attack), `same-name` (your cards of this name +n), `revealed` (your revealed card
+n), `remove-from-deck`, or `unknown` (an ability the rules do not model, a `Prompt`).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.cards import CardFacts
from companion.engine.effects import SELF, Ability, Gain, Modify, Move, Prompt
from companion.engine.state import GameState

SEATS = 6

WHENS = ("reveal", "attack", "bench", "flag", "flag-loss", "chosen")
DOS = ("fans", "rest", "strength", "per-other", "same-name", "revealed", "remove-from-deck",
       "unknown")


@dataclass(frozen=True)
class Effect:
    when: str
    do: str
    amount: int = 1
    text: str = ""


# ----------------------------------------------------------------------------- zones


def deck(p: str) -> str:
    return f"{p}.deck"


def play(p: str) -> str:
    return f"{p}.play"


def rest(p: str) -> str:
    return f"{p}.rest"


def trophies(p: str) -> str:
    return f"{p}.trophies"


def off(p: str) -> str:
    """Where a card that left the table lies in the engine's picture (a hand, the box)."""
    return f"{p}.off"


def seats(p: str) -> list[str]:
    return [f"{p}.bench{i}" for i in range(1, SEATS + 1)]


def owner_of_zone(zone: str) -> str:
    return zone.split(".", 1)[0]


def is_seat(zone: str) -> bool:
    return zone.split(".", 1)[-1].startswith("bench")


def bench_cards(state: GameState, p: str) -> list[str]:
    return [u for z in seats(p) for u in state.cards_in(z)]


def seat_name(state: GameState, zone: str) -> str | None:
    """The name of the cards on a seat (None when it is empty)."""
    cards = state.cards_in(zone)
    return state.facts(cards[0]).name if cards else None


# ----------------------------------------------------------------------------- effects


def _do(ability: Ability) -> tuple[str, int]:
    """What a compiled ability does in the rules' words, and how much."""
    match ability.effect:
        case Gain(resource="fans", amount=n):
            return "fans", n
        case Move(target=t, to="rest") if t.zone == "bench" and isinstance(t.count, int):
            return "rest", t.count
        case Move(target=t, to="box") if t.zone == "deck" and isinstance(t.count, int):
            return "remove-from-deck", t.count
        case Modify(stat="strength", amount=n, target=t, per="other-revealed") if t == SELF:
            return "per-other", n
        case Modify(stat="strength", amount=n, target=t, per=None) if t == SELF:
            return "strength", n
        case Modify(stat="strength", amount=n, target=t, per=None) if t.same_name:
            return "same-name", n
        case Modify(stat="strength", amount=n, target=t, per=None) if t.role == "revealed":
            return "revealed", n
    return "unknown", 0


def view(ability: Ability) -> Effect:
    """The rules' view of one compiled ability."""
    text = ability.effect.text if isinstance(ability.effect, Prompt) else ability.text
    when = "reveal" if ability.when == "play" else ability.when
    if when not in WHENS:  # a time no Challengers! rule knows: shown, not applied
        return Effect("reveal", "unknown", 0, text)
    do, amount = _do(ability)
    return Effect(when, do, amount, text)


def card_effects(facts: CardFacts) -> tuple[Effect, ...]:
    """The card's compiled abilities in the rules' words."""
    return tuple(view(a) for a in facts.abilities)


def effects_of(state: GameState, uid: str, when: str, do: str | None = None) -> list[Effect]:
    return [
        e for e in card_effects(state.facts(uid))
        if e.when == when and (do is None or e.do == do)
    ]


def total(effects: list[Effect]) -> int:
    return sum(e.amount for e in effects)


# ----------------------------------------------------------------------------- strength


def base_strength(state: GameState, uid: str) -> int:
    """Printed strength plus an immediate bonus the card got when revealed (it keeps it)."""
    bonus = int(state.flags.get("bonus", {}).get(uid, 0))
    return state.facts(uid).number("strength") + bonus


def same_name_bonus(state: GameState, p: str, uid: str) -> int:
    """Von der Bank: benched cards of `p` that strengthen `p`'s cards of their own name."""
    name = state.facts(uid).name
    return sum(
        total(effects_of(state, b, "bench", "same-name"))
        for b in bench_cards(state, p)
        if state.facts(b).name == name
    )


def revealed_bonus(state: GameState, p: str) -> int:
    """Von der Bank: +n for `p`'s revealed card (the defending card, or the attack)."""
    return sum(total(effects_of(state, b, "bench", "revealed")) for b in bench_cards(state, p))


def card_strength(state: GameState, p: str, uid: str) -> int:
    return base_strength(state, uid) + same_name_bonus(state, p, uid)


def defence(state: GameState, p: str, flag_card: str | None) -> int:
    """Only the visible flag card defends, with its bench bonuses and Im Fahnenbesitz."""
    if flag_card is None:
        return 0
    return (
        card_strength(state, p, flag_card)
        + total(effects_of(state, flag_card, "flag", "strength"))
        + revealed_bonus(state, p)
    )


def attack_total(state: GameState, p: str, cards: list[str]) -> int:
    """Every revealed card of the attack, Im Angriff bonuses and bench bonuses."""
    if not cards:
        return 0
    others = len(cards) - 1
    value = sum(card_strength(state, p, u) for u in cards)
    value += sum(total(effects_of(state, u, "attack", "per-other")) * others for u in cards)
    value += sum(total(effects_of(state, u, "attack", "strength")) for u in cards)
    return value + revealed_bonus(state, p)


def seats_needed(state: GameState, p: str, cards: list[str]) -> int:
    """Empty seats `p` needs to bench `cards`: one per name without a seat of that name."""
    names = {state.facts(u).name for u in cards}
    taken = {seat_name(state, z) for z in seats(p)}
    return len(names - taken)


def can_bench(state: GameState, p: str, cards: list[str], rests: int) -> bool:
    """Whether `p` can bench `cards`, after putting up to `rests` bench cards to rest."""
    need = seats_needed(state, p, cards)
    empty = sum(1 for z in seats(p) if not state.cards_in(z))
    if need <= empty:
        return True
    names = {state.facts(u).name for u in cards}
    sizes = sorted(
        len(state.cards_in(z)) for z in seats(p)
        if state.cards_in(z) and seat_name(state, z) not in names
    )
    freed = 0
    for size in sizes:
        if size > rests:
            break
        rests -= size
        freed += 1
    return need <= empty + freed
