"""Trick or Beat abilities and equipment, as compiled from the cards' `effects` lists.

The cards' words (companion/cardsets/effects_vocabulary.md) are compiled once, when the cards
load, to the engine's typed abilities (`card_effects.py`; `CardFacts.abilities`, in the order
of the card's list): `when` (permanent, activated, combat, play), `lane` (creatures: active or
passive), and the effect (`Modify` of attack or survival, `Draw`, `Move` to the trick pile or
the other lane, `Destroy`, `Return` to the hand) with its selector. A creature on its passive
lane uses only passive-lane abilities; on the active lane it uses all of them.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine.api import Move as TableMove
from companion.engine.api import other
from companion.engine.effects import (
    EACH,
    SELF,
    Ability,
    Destroy,
    Effect,
    Modify,
    Move,
    Return,
    Selector,
)
from companion.engine.state import GameState
from companion.games.trick_or_beat import numbers
from companion.games.trick_or_beat.state import flags

TARGETS: dict[str, Selector] = {
    "self": SELF,
    "own_lane": Selector(side="ally", count=EACH, zone="same-lane"),
    "own_creatures": Selector(side="ally", count=EACH),
    "equipped": Selector(side="ally", role="equipped"),
    "attackers": Selector(side="ally", count=EACH, role="attackers"),
    "defender": Selector(side="ally", role="defender"),
    "opponent_creature": Selector(side="enemy"),
    "opponent_active": Selector(side="enemy", zone="active"),
    "all_creatures": Selector(side="any", count=EACH),
}
"""The pile's target words (effects_vocabulary.md), each as the selector it compiles to."""


def target_word(selector: Selector) -> str:
    """The pile's word for a selector (for messages), its faction filter left aside."""
    plain = replace(selector, faction=None)
    return next((word for word, sel in TARGETS.items() if sel == plain), "?")

LANES = ("active", "passive")


def lanes(player: str) -> tuple[str, str]:
    return (f"{player}.active", f"{player}.passive")


def trick(player: str) -> str:
    return f"{player}.trick"


def creatures_of(state: GameState, player: str) -> list[str]:
    """The player's creatures lying on the lanes (face up or down)."""
    return [u for z in lanes(player) for u in state.cards_in(z) if u not in state.attached]


def all_creatures(state: GameState) -> list[str]:
    return creatures_of(state, "p1") + creatures_of(state, "p2")


def ready_attackers(state: GameState, player: str) -> list[str]:
    """The player's creatures that may still attack this turn: "Nur Wesen auf der aktiven
    Lane können ein mal pro Zug angreifen"."""
    return [u for u in state.cards_in(f"{player}.active")
            if u not in state.attached and not state.counter("turn", f"attacked:{u}")]


def protected(state: GameState, target: str) -> bool:
    """A passive creature cannot be attacked while its owner's active lane holds one: "Wenn
    sich Wesen auf der aktiven Lane deines Gegners befinden, kannst du kein passives Wesen
    angreifen"."""
    owner = side_of(state, target)
    return state.where.get(target) == f"{owner}.passive" and any(
        u not in state.attached for u in state.cards_in(f"{owner}.active"))


def effects_of(state: GameState, uid: str) -> tuple[Ability, ...]:
    """The card's compiled abilities, in the order of its `effects` list."""
    return state.facts(uid).abilities


def has_access(state: GameState, uid: str, ability: Ability) -> bool:
    """Active-lane creatures use every ability; passive-lane ones only passive ones."""
    zone = state.where.get(uid, "")
    if uid in state.face_down:
        return False
    if zone.endswith(".active"):
        return True
    return zone.endswith(".passive") and ability.lane == "passive"


def _faction_ok(state: GameState, uid: str, modify: Modify) -> bool:
    faction = modify.target.faction
    return faction is None or state.facts(uid).get("faction") == faction


def _modifies(ability: Ability, stat: str) -> Modify | None:
    effect = ability.effect
    return effect if isinstance(effect, Modify) and effect.stat == stat else None


def permanent_bonus(
    state: GameState, stat: str, player: str, subjects: list[str], role: str
) -> int:
    """Sum of permanent `Modify` abilities of `stat` on `player`'s side on `subjects`.

    `role` is "attackers" or "defender": it matches abilities targeting that role.
    """
    total = 0
    for source in creatures_of(state, player):
        for ability in effects_of(state, source):
            modify = _modifies(ability, stat)
            if ability.when != "permanent" or modify is None:
                continue
            if not has_access(state, source, ability):
                continue
            target = modify.target
            if target.side == "self" or target.role in ("equipped", role):
                total += modify.amount if source in subjects else 0
            elif (target.side, target.count, target.zone, target.role) == ("ally", EACH, None,
                                                                             None):
                total += modify.amount * sum(1 for s in subjects
                                             if _faction_ok(state, s, modify))
            elif target.side == "ally" and target.zone == "same-lane":
                same = [s for s in subjects if state.where.get(s) == state.where.get(source)]
                total += modify.amount * sum(1 for s in same if _faction_ok(state, s, modify))
    for subject in subjects:
        for equipment, holder in state.attached.items():
            if holder != subject:
                continue
            for ability in effects_of(state, equipment):
                modify = _modifies(ability, stat)
                if modify is not None and ability.when == "permanent":
                    total += modify.amount
    return total


def turn_bonus(state: GameState, stat: str, player: str, subjects: list[str]) -> int:
    """Bonuses from abilities activated this turn (stored as [player, target, stat, amount])."""
    total = 0
    for owner, target, kind, amount in flags(state).get("turn_mods", []):
        if owner != player or kind != stat:
            continue
        if target == "*" or target in subjects:
            total += amount
    return total


def attack_once_bonus(state: GameState, stat: str, player: str, role: str) -> int:
    """One-time bonuses of `player`'s tactics for the next attack's `role` ("attackers" or
    "defender"), stored as [player, role, stat, amount]."""
    return sum(amount for owner, on, kind, amount in flags(state).get("attack_mods", [])
               if (owner, on, kind) == (player, role, stat))


def use_attack_mods(state: GameState, attacker: str, defender: str) -> None:
    """An attack was made: the one-time bonuses it used are gone (the attacking player's for
    the attackers, the defending player's for the defender)."""
    mods = flags(state).get("attack_mods", [])
    flags(state)["attack_mods"] = [m for m in mods if (m[0], m[1]) not in (
        (attacker, "attackers"), (defender, "defender"))]


def combat_side(state: GameState, attacker: str, target: str, stat: str) -> str:
    """The player whose combat abilities may change `stat` in this attack: the attacking player
    raises the attack, the attacked creature's owner its survival ("jedes deiner Wesen")."""
    return attacker if stat == "attack" else side_of(state, target)


def combat_bonus(
    state: GameState, stat: str, picks: list[tuple[str, int]], subjects: list[str], side: str
) -> int:
    """Combat abilities chosen for this attack that modify `stat`, of `side`'s creatures only
    (a player's combat ability helps that player's own attackers or attacked creature)."""
    total = 0
    for uid, index in dict.fromkeys(picks):
        if side_of(state, uid) != side:
            continue
        abilities = effects_of(state, uid)
        if not 0 <= index < len(abilities):
            continue
        ability = abilities[index]
        modify = _modifies(ability, stat)
        if ability.when != "combat" or modify is None:
            continue
        if modify.target.side == "self" and uid not in subjects:
            continue
        total += modify.amount
    return total


def is_targeted(effect: Effect) -> bool:
    """An effect on one creature the player names (destroy, return, move to the other lane)."""
    return isinstance(effect, Destroy | Return) or (
        isinstance(effect, Move) and effect.to == "other-lane")


def selector_of(effect: Effect) -> Selector | None:
    """The creature a targeted effect (destroy, return, move) may name, as its selector."""
    return effect.target if isinstance(effect, Destroy | Return | Move) else None


def shows_effect(effect: Effect, how: str) -> bool:
    """Whether a creature seen changing `how` ("other-lane", "destroy" or "gone": off the
    table) is what `effect` does to its target."""
    if isinstance(effect, Move):
        return how == "other-lane"
    if isinstance(effect, Return):
        return how == "gone"
    return isinstance(effect, Destroy) and how in ("destroy", "gone")


def other_lane(state: GameState, uid: str) -> str:
    """The lane of the creature's owner it does not lie on."""
    side = side_of(state, uid)
    here = state.where.get(uid, "")
    return f"{side}.passive" if here.endswith(".active") else f"{side}.active"


def effect_can_move(state: GameState, effect: Effect, uid: str) -> bool:
    """False only for a move to the other lane when that lane is full (the effect does
    nothing then)."""
    if not (isinstance(effect, Move) and effect.to == "other-lane"):
        return True
    dest = other_lane(state, uid)
    return len([u for u in state.cards_in(dest) if u not in state.attached]) < lane_limit(
        state, side_of(state, uid))


def together(shifts: list[tuple[str, str]]) -> tuple[str, str]:
    """The option that names the creatures seen changing lanes in one table change, each
    with its new lane ("uid>zone,uid>zone"): one arrangement, the way a swap is done."""
    return ("together", ",".join(f"{uid}>{zone}" for uid, zone in shifts))


def arranged(state: GameState, player: str, shift: TableMove) -> dict[str, list[str]]:
    """The player's creatures on each lane once `shift` and the shifts seen with it (its
    option "together") are made: the settled table the camera sees. "Auf jeder Lane können
    maximal 2 Wesen liegen" holds there, not in between (a swap of two full lanes passes
    through a lane of three while the cards are in the hands)."""
    moves = {uid: zone for uid, _, zone in (
        part.partition(">") for part in (shift.option("together") or "").split(",") if part)}
    moves[shift.cards[0]] = str(shift.to)
    lanes_now = {zone: [u for u in state.cards_in(zone) if u not in state.attached
                        and u not in moves] for zone in lanes(player)}
    for uid, zone in moves.items():
        if zone in lanes_now and uid in creatures_of(state, player):
            lanes_now[zone].append(uid)
    return lanes_now


def target_fits(state: GameState, player: str, target: str, selector: Selector) -> bool:
    """Whether the creature `player` named fits the selector of their card's effect."""
    opp = other(player)
    if selector.side == "enemy" and selector.zone == "active":
        return target in state.cards_in(f"{opp}.active")
    if selector.side == "enemy":
        return target in creatures_of(state, opp)
    if selector.side == "ally" and selector.role is None and selector.zone is None:
        return target in creatures_of(state, player)
    if selector.side == "any":
        return target in all_creatures(state)
    return True


def parse_picks(text: str | None) -> list[tuple[str, int]]:
    """Combat picks written "uid/index,uid/index" in a move's options."""
    picks: list[tuple[str, int]] = []
    for part in (text or "").split(","):
        uid, _, index = part.strip().rpartition("/")
        if uid and index.isdigit():
            picks.append((uid, int(index)))
    return picks


def lane_limit(state: GameState, player: str) -> int:
    """2 creatures per lane, 3/4/5 with 1/2/3 cards on the trick pile."""
    return numbers.lane_limit_for(state.count(trick(player)))


def attack_value(
    state: GameState, player: str, attackers: list[str], picks: list[tuple[str, int]]
) -> int:
    attackers = list(dict.fromkeys(attackers))  # each attacker counts once
    total = sum(state.facts(a).number("attack") for a in attackers)
    total += permanent_bonus(state, "attack", player, attackers, "attackers")
    total += turn_bonus(state, "attack", player, attackers)
    total += combat_bonus(state, "attack", picks, attackers, player)
    total += attack_once_bonus(state, "attack", player, "attackers")
    total += numbers.attack_bonus_for(state.count(trick(player)))
    if flags(state).get("first_turn") and state.active == player:
        total -= numbers.FIRST_TURN_ATTACK_MALUS
    return total


def survival_value(state: GameState, target: str, picks: list[tuple[str, int]]) -> int:
    owner = side_of(state, target) or "p1"
    total = state.facts(target).number("survival")
    total += permanent_bonus(state, "survival", owner, [target], "defender")
    total += turn_bonus(state, "survival", owner, [target])
    total += combat_bonus(state, "survival", picks, [target], owner)
    total += attack_once_bonus(state, "survival", owner, "defender")
    total += numbers.survival_bonus_for(state.count(trick(owner)))
    return total


def side_of(state: GameState, uid: str) -> str:
    """The player whose lanes the card lies on (cards come from a shared deck)."""
    zone = state.where.get(uid, "")
    return zone.split(".")[0] if zone.startswith(("p1.", "p2.")) else ""


def opponent_lanes(player: str) -> tuple[str, str]:
    return lanes(other(player))
