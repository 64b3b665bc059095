"""Attacks nobody declared, read from what the camera saw.

At a real table nobody types an attack into the page; the camera sees its traces: the
attacker's cost burned as white dice, red damage dice laid on the target (and on the attacker
when a Nachtragend target hits back: "Der Angreifer erleidet dann so viel Schaden, wie der
„nachtragende“ Verteidiger Angriffspunkte hat"), a creature destroyed into its hell.

An attack of the active player is offered as a reading of a change when
- the creatures the change touched (their red dice now show another damage than the rules
  hold, or they went from the field to a hell) are its target and, if the target is
  Nachtragend, its attacker: nothing else;
- burned dice not yet spent for anything pay its cost exactly ("müssen ihre Kosten jedes Mal
  neu bezahlt werden").
A direct attack ("dann wird dessen oberste Lagerkarte zerstört") is offered when no creature
was touched and the enemy's camp top went face up onto their hell. When the camp is empty a
direct attack destroys a random hand card, crush card or enemy: a change the camera cannot
tell from others, which still needs a person to declare it.

Everything else is the rules' to judge, never this module's: who may attack whom (columns,
zones), one action per creature and turn, 0 attack, and whether the damage shown is the damage
the rules give. The interpreter applies the one legal reading, asks when several are, and
records the change as seen (with its violations) when none is. A declared attack is applied
before the change is read and leaves nothing unexplained; with one declared, none is inferred.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine.api import Move, other
from companion.engine.interpreter import SnapshotDiff
from companion.engine.state import GameState
from companion.games.creature_crush import board as bd
from companion.games.creature_crush.state import flags
from companion.snapshot import is_back

RedDice = dict[str, tuple[str, int]]
"""Red die -> (creature it lies on, value)."""


def red_changes(diff: SnapshotDiff) -> tuple[dict[str, dict[str, int]], dict[str, list[str]]]:
    """Red dice laid on or changed on a creature (creature -> die -> value), and red dice
    taken off a creature (creature -> dice)."""
    put: dict[str, dict[str, int]] = {}
    gone: dict[str, list[str]] = {}
    for old, new in diff.dice:
        seen = new or old
        if seen is None or not seen.die or bd.die_kind(seen.die) != "r":
            continue
        if old is not None and old.on and (new is None or new.on != old.on):
            gone.setdefault(old.on, []).append(seen.die)
        if new is not None and new.on and not is_back(new.on):
            put.setdefault(new.on, {})[seen.die] = new.value
    return put, gone


def red_after(state: GameState, diff: SnapshotDiff) -> RedDice:
    """Where each red die lies after the change, as the rules last knew them plus the change."""
    put, gone = red_changes(diff)
    red: RedDice = {d: (str(v[0]), int(v[1])) for d, v in flags(state).get("red", {}).items()}
    for dice in gone.values():
        for d in dice:
            red.pop(d, None)
    for card, values in put.items():
        red.update({d: (card, v) for d, v in values.items()})
    return red


@dataclass(frozen=True)
class Traces:
    """What the change shows of the field creatures: the damage their red dice show now
    (those whose dice changed), and those gone from the field to a hell."""

    shown: dict[str, int]
    to_hell: frozenset[str]

    def touched(self, state: GameState) -> set[str]:
        """Creatures whose damage the change shows different from the rules', or that went
        to a hell."""
        damage = flags(state)["damage"]
        return {u for u, n in self.shown.items() if n != int(damage.get(u, 0))} | set(
            self.to_hell)

    def fits(self, state: GameState, uid: str, amount: int) -> bool:
        """Whether `amount` more damage on `uid` agrees with the change: a creature it
        destroys ("Besitzt eine Creature mehr Schadens- als Lebenspunkte oder fällt ihr Leben
        genau auf 0, dann wird sie zerstört") is not left on the field under dice that show
        it alive. Every other disagreement is the rules' to find (the damage dice checked
        against the rules' damage, a creature in hell that was not destroyed)."""
        life = state.facts(uid).number("life", 1)
        if int(flags(state)["damage"].get(uid, 0)) + amount < life or uid in self.to_hell:
            return True
        return self.shown.get(uid, life) >= life


def traces(state: GameState, diff: SnapshotDiff) -> Traces:
    """The change's traces of damage and destruction on the creatures the rules hold on the
    field."""
    put, gone = red_changes(diff)
    red = red_after(state, diff)
    shown = {u: sum(v for on, v in red.values() if on == u) for u in set(put) | set(gone)
             if bd.is_field(state.where.get(u))}
    arrived = [*diff.appeared, *(new for _, new in diff.moved)]
    hells = {c.zone for c in arrived if bd.is_hell(c.zone)}
    to_hell = {c.uid for c in arrived
               if bd.is_hell(c.zone) and bd.is_field(state.where.get(c.uid))}
    for card in diff.vanished:  # beneath a new hell top: destroyed with it
        if bd.is_field(card.zone) and state.where.get(card.uid) == card.zone \
                and bd.hell(bd.side(card.zone)) in hells:
            to_hell.add(card.uid)
    return Traces(shown, frozenset(to_hell))


def burned_unspent(state: GameState, diff: SnapshotDiff, p: str) -> dict[str, int]:
    """`p`'s burned dice not yet spent for anything, with those the change shows burned."""
    pool = dict(flags(state)["pool"].get(p, {}))
    avail = flags(state)["dice"].get(p, {})
    for old, new in diff.dice:
        if old is None or new is None or bd.die_kind(new.die) != "w":
            continue
        if old.zone == f"{p}.dice" and new.zone == f"{p}.burned" and new.die in avail:
            pool[new.die] = avail[new.die]
    return pool


def camp_top_destroyed(state: GameState, diff: SnapshotDiff, p: str) -> str | None:
    """The card a direct attack on `p` destroyed, if the change shows one: `p`'s camp top
    changed and one card the rules hold in that camp now lies face up on `p`'s hell ("Greift
    eine Creature einen Spieler direkt an, dann wird dessen oberste Lagerkarte zerstört")."""
    lager = bd.lager(p)
    if not any(c.zone == lager for c in (*diff.vanished, *diff.uncovered)):
        return None
    arrived = [c for c in (*diff.appeared, *(new for _, new in diff.moved))
               if c.zone == bd.hell(p) and not is_back(c.uid)]
    if len(arrived) != 1 or not state.can_resolve(arrived[0].uid, lager):
        return None  # a card seen elsewhere is not the camp's (unseen) top
    return arrived[0].uid


Inferred = tuple[Move, str | None]
"""An attack read from the table, and for a direct one the camp card it destroyed."""


def inferred_attacks(state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
                     ) -> list[Inferred]:
    """The active player's attacks that would leave the traces the change shows (see the
    module docstring); each paid with burned dice, named so the rules check the payment.
    A direct attack's trace is the enemy's top camp card in their hell, and no creature
    touched."""
    if hints.get("attack") or state.outcome is not None:
        return []
    seen = traces(state, diff)
    hit = seen.touched(state)
    p = state.active
    direct = None if hit else camp_top_destroyed(state, diff, other(p))
    if not hit and direct is None:
        return []
    pool = burned_unspent(state, diff, p)
    found: list[Inferred] = []
    for attacker in bd.creatures_of(state, p):
        facts = state.facts(attacker)
        if facts.number("attack") <= 0:
            continue  # deals no damage: leaves no trace to read
        paid = bd.exact_sum(pool, facts.number("cost"))
        if paid is None:
            continue
        dice = (("dice", bd.dice_text({d: pool[d] for d in paid})),)
        if direct is not None:
            found.append((Move("attack", p, (attacker,), target=other(p), options=dice),
                          direct))
            continue
        for target in bd.creatures_of(state, other(p)):
            if target not in hit:
                continue
            defender = state.facts(target)
            block = defender.number("attack") if defender.has_keyword("Nachtragend") else 0
            reach = {target, attacker} if block > 0 else {target}
            if hit <= reach and seen.fits(state, target, facts.number("attack")) \
                    and seen.fits(state, attacker, block):
                found.append((Move("attack", p, (attacker,), target=target, options=dice),
                              None))
    return found


def with_attack(reading: list[Move], at: int, inferred: Inferred) -> list[Move]:
    """`reading` with the attack put in at `at` (after the dice burned and the cards laid,
    before the damage dice and the hells). For a direct attack the camp top that vanished is
    the destroyed card, no draw, and the card in hell is the table catching up with it."""
    attack, destroyed = inferred
    if destroyed is None:
        return [*reading[:at], attack, *reading[at:]]
    p = str(attack.target)
    head = [m for m in reading[:at] if not (m.kind == "draw" and m.player == p)]
    tail = [Move("settle", p, (destroyed,), value="hell")
            if m.kind == "to-hell" and m.card == destroyed else m for m in reading[at:]]
    return [*head, attack, Move("settle", p, value="lager"), *tail]
