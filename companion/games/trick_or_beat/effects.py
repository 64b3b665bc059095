"""Trick or Beat abilities and equipment, read from the cards' `effects` lists.

Vocabulary (companion/cardsets/effects_vocabulary.md): each effect has `kind` (creatures:
permanent, activatable, combat; tactics: play, permanent), `lane` (creatures: active or
passive), `do` (modify_attack, modify_survival, draw, add_to_trick, destroy, return_to_hand,
move), `amount`, `target`, `faction`. A creature on its passive lane uses only passive-lane
effects; on the active lane it uses all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.api import other
from companion.engine.state import GameState
from companion.games.trick_or_beat import numbers
from companion.games.trick_or_beat.state import flags

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


def effects_of(state: GameState, uid: str) -> tuple[Mapping[str, Any], ...]:
    return state.facts(uid).effects


def has_access(state: GameState, uid: str, effect: Mapping[str, Any]) -> bool:
    """Active-lane creatures use every ability; passive-lane ones only passive ones."""
    zone = state.where.get(uid, "")
    if uid in state.face_down:
        return False
    if zone.endswith(".active"):
        return True
    return zone.endswith(".passive") and effect.get("lane") == "passive"


def _faction_ok(state: GameState, uid: str, effect: Mapping[str, Any]) -> bool:
    faction = effect.get("faction")
    return faction is None or state.facts(uid).get("faction") == faction


def _amount(effect: Mapping[str, Any]) -> int:
    value = effect.get("amount", 0)
    return value if isinstance(value, int) else 0


def permanent_bonus(
    state: GameState, stat: str, player: str, subjects: list[str], role: str
) -> int:
    """Sum of permanent `modify_<stat>` effects of `player`'s side on `subjects`.

    `role` is "attackers" or "defender": it matches effects targeting that role.
    """
    do = f"modify_{stat}"
    total = 0
    for source in creatures_of(state, player):
        for effect in effects_of(state, source):
            if effect.get("kind") != "permanent" or effect.get("do") != do:
                continue
            if not has_access(state, source, effect):
                continue
            target = effect.get("target")
            amount = _amount(effect)
            if target in ("self", "equipped") or target == role:
                total += amount if source in subjects else 0
            elif target == "own_creatures":
                total += amount * sum(1 for s in subjects if _faction_ok(state, s, effect))
            elif target == "own_lane":
                same = [s for s in subjects if state.where.get(s) == state.where.get(source)]
                total += amount * sum(1 for s in same if _faction_ok(state, s, effect))
    for subject in subjects:
        for equipment, holder in state.attached.items():
            if holder != subject:
                continue
            for effect in effects_of(state, equipment):
                if effect.get("do") == do and effect.get("kind") in ("permanent", None):
                    total += _amount(effect)
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


def combat_bonus(
    state: GameState, stat: str, picks: list[tuple[str, int]], subjects: list[str]
) -> int:
    """Combat abilities chosen for this attack that modify `stat`."""
    do = f"modify_{stat}"
    total = 0
    for uid, index in picks:
        effects = effects_of(state, uid)
        if not 0 <= index < len(effects):
            continue
        effect = effects[index]
        if effect.get("kind") != "combat" or effect.get("do") != do:
            continue
        if effect.get("target") in ("self",) and uid not in subjects:
            continue
        total += _amount(effect)
    return total


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
    total = sum(state.facts(a).number("attack") for a in attackers)
    total += permanent_bonus(state, "attack", player, attackers, "attackers")
    total += turn_bonus(state, "attack", player, attackers)
    total += combat_bonus(state, "attack", picks, attackers)
    total += numbers.attack_bonus_for(state.count(trick(player)))
    if flags(state).get("first_turn") and state.active == player:
        total -= numbers.FIRST_TURN_ATTACK_MALUS
    return total


def survival_value(state: GameState, target: str, picks: list[tuple[str, int]]) -> int:
    owner = side_of(state, target) or "p1"
    total = state.facts(target).number("survival")
    total += permanent_bonus(state, "survival", owner, [target], "defender")
    total += turn_bonus(state, "survival", owner, [target])
    total += combat_bonus(state, "survival", picks, [target])
    total += numbers.survival_bonus_for(state.count(trick(owner)))
    return total


def side_of(state: GameState, uid: str) -> str:
    """The player whose lanes the card lies on (cards come from a shared deck)."""
    zone = state.where.get(uid, "")
    return zone.split(".")[0] if zone.startswith(("p1.", "p2.")) else ""


def opponent_lanes(player: str) -> tuple[str, str]:
    return lanes(other(player))
