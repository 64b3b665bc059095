"""The Fire Emblem Cipher board: units as card stacks, bonds and their symbols, range, combat.

A unit is a stack of same-name cards in a player's front or back row: every level-up or class
change lays the new card on the old one (`state.attached[new] = old`), and only the top card
counts (its attack, support, range, name). The lord is tracked by its top card in
`flags(state)["lord"]`. Combat lives in `flags(state)["combat"]` while it runs (attack declared,
supports, critical hit, evade) and moves to `flags(state)["last_combat"]` when it ends.
Card skills are not modelled: the cardset holds facts only (name, cost, power, range, symbols).
"""

from __future__ import annotations

from typing import Any

from companion.engine.api import PLAYERS, Outcome, other
from companion.engine.state import GameState, hand_zone
from companion.games.fire_emblem_cipher import numbers
from companion.games.fire_emblem_cipher.state import flags

ROWS = ("front", "back")
NO_SYMBOL = ("Colorless",)


def zone(player: str, name: str) -> str:
    return f"{player}.{name}"


def field_zones(player: str) -> tuple[str, str]:
    return (zone(player, "front"), zone(player, "back"))


def owner_of_zone(zone_id: str) -> str:
    return zone_id.split(".", 1)[0]


def row_of(zone_id: str) -> str:
    return zone_id.split(".", 1)[1] if "." in zone_id else ""


def is_field(zone_id: str | None) -> bool:
    return zone_id is not None and owner_of_zone(zone_id) in PLAYERS and row_of(zone_id) in ROWS


# ------------------------------------------------------------------ units and stacks

def units_of(state: GameState, player: str) -> list[str]:
    """Top cards of the player's units (front row first)."""
    under = set(state.attached.values())
    return [u for z in field_zones(player) for u in state.cards_in(z) if u not in under]


def all_units(state: GameState) -> list[str]:
    return units_of(state, "p1") + units_of(state, "p2")


def unit_side(state: GameState, uid: str) -> str:
    return owner_of_zone(state.where[uid])


def stack(state: GameState, top: str) -> list[str]:
    """The cards of a unit, top card first (each lies on the next)."""
    cards = [top]
    while cards[-1] in state.attached and len(cards) <= len(state.attached):
        cards.append(state.attached[cards[-1]])
    return cards


def unit_with(state: GameState, uid: str) -> str | None:
    """The top card of the unit that `uid` belongs to (None when it is not on the field)."""
    if not is_field(state.where.get(uid)):
        return None
    above = {holder: item for item, holder in state.attached.items()}
    top = uid
    while top in above:
        top = above[top]
    return top


def move_unit(state: GameState, top: str, to: str) -> None:
    """Move a whole unit (its stack keeps lying together); leaving the field breaks it up."""
    cards = stack(state, top)
    for uid in reversed(cards):
        state.move(uid, to)
    if not is_field(to):
        for uid in cards:
            state.attached.pop(uid, None)
            state.tapped.discard(uid)


def name_of(state: GameState, uid: str) -> str:
    return state.facts(uid).name


def unit_named(state: GameState, player: str, name: str) -> str | None:
    return next((u for u in units_of(state, player) if name_of(state, u) == name), None)


def is_lord(state: GameState, uid: str) -> bool:
    return uid in flags(state).get("lord", {}).values()


def lord_of(state: GameState, player: str) -> str | None:
    lord: str | None = flags(state).get("lord", {}).get(player)
    return lord


# ------------------------------------------------------------------ bonds

def bonds(state: GameState, player: str) -> list[str]:
    return state.cards_in(zone(player, "bonds"))


def bond_count(state: GameState, player: str) -> int:
    return len(bonds(state, player))


def symbols_of(state: GameState, uid: str) -> list[str]:
    raw = state.facts(uid).get("symbols") or []
    return [str(s) for s in raw if str(s) not in NO_SYMBOL]


def bond_symbols(state: GameState, player: str) -> set[str]:
    """Symbols of the face-up bonds: face-down bonds count, but carry no symbol of their own."""
    found: set[str] = set()
    for uid in bonds(state, player):
        if uid not in state.face_down:
            found.update(symbols_of(state, uid))
    return found


def missing_symbols(state: GameState, player: str, uid: str) -> list[str]:
    """Symbols of `uid` with no face-up bond of that symbol (every symbol is needed)."""
    have = bond_symbols(state, player)
    return [s for s in symbols_of(state, uid) if s not in have]


def spent(state: GameState) -> int:
    return state.counter("turn", "spent")


def bonds_left(state: GameState, player: str) -> int:
    """Bonds not yet paid this turn: the total cost of a turn's deployments, level-ups and
    class changes may not exceed the number of bonds."""
    used = spent(state) if player == state.active else 0
    return bond_count(state, player) - used


# ------------------------------------------------------------------ range and power

def range_of(state: GameState, uid: str) -> list[int]:
    raw = state.facts(uid).get("range") or []
    return [int(r) for r in raw]


def distance(attacker_zone: str, target_zone: str) -> int:
    """Rows between attacker and target: front to front 1, back to front or front to back 2,
    back to back 3."""
    return 1 + (row_of(attacker_zone) == "back") + (row_of(target_zone) == "back")


def in_range(state: GameState, attacker: str, target: str) -> bool:
    return distance(state.where[attacker], state.where[target]) in range_of(state, attacker)


def attack_of(state: GameState, uid: str) -> int:
    return state.facts(uid).number("attack")


def support_of(state: GameState, uid: str) -> int:
    return state.facts(uid).number("support")


# ------------------------------------------------------------------ combat

def combat(state: GameState) -> dict[str, Any] | None:
    found: dict[str, Any] | None = flags(state).get("combat")
    return found


def start_combat(state: GameState, player: str, attacker: str, target: str) -> None:
    flags(state)["combat"] = {
        "attacking": player,
        "defending": other(player),
        "attacker": attacker,
        "target": target,
        "supports": {},
        "support_power": {player: 0, other(player): 0},
        "critical": False,
        "evaded": False,
    }


def fighter(c: dict[str, Any], player: str) -> str:
    return str(c["attacker"] if player == c["attacking"] else c["target"])


def supports_done(state: GameState, c: dict[str, Any]) -> bool:
    """Both players have turned their deck's top card into support (or had none left)."""
    return all(
        p in c["supports"] or state.count(zone(p, "deck")) == 0
        for p in (c["attacking"], c["defending"])
    )


def add_support(state: GameState, c: dict[str, Any], player: str, card: str | None) -> None:
    """Record a support card; a support with the fighter's own name fails and retreats."""
    c["supports"][player] = card
    if card is None:
        return
    unit = fighter(c, player)
    if unit in state.where and name_of(state, card) == name_of(state, unit):
        c["support_power"][player] = 0
        c.setdefault("failed", []).append(card)
        state.move(card, zone(player, "retreat"))
    else:
        c["support_power"][player] = support_of(state, card)


def powers(state: GameState, c: dict[str, Any]) -> tuple[int, int]:
    """(attacker's total attack, defender's total attack) of a combat."""
    a, d = c["attacker"], c["target"]
    attack = (attack_of(state, a) if a in state.where else 0) + c["support_power"][c["attacking"]]
    if c["critical"]:
        attack *= numbers.CRITICAL_FACTOR
    defence = (attack_of(state, d) if d in state.where else 0) + c["support_power"][c["defending"]]
    return attack, defence


def end_combat(state: GameState) -> None:
    """Evaluate the running combat: ties go to the attacker; supports go to retreat."""
    c = combat(state)
    if c is None:
        return
    attack, defence = powers(state, c)
    c["attack"], c["defence"] = attack, defence
    target = c["target"]
    won = not c["evaded"] and attack >= defence and unit_with(state, target) == target
    c["defeated"] = won
    if won:
        defeat(state, target, c["attacking"])
    for p, card in c["supports"].items():
        if card is not None and state.where.get(card) == zone(p, "support"):
            state.move(card, zone(p, "retreat"))
    flags(state)["last_combat"] = c
    flags(state)["combat"] = None
    march_defender(state)


def defeat(state: GameState, target: str, winner: str) -> None:
    """A defeated unit retreats; a defeated lord costs an orb instead, or the game."""
    side = unit_side(state, target)
    if is_lord(state, target):
        orbs = zone(side, "orbs")
        orb = state.top(orbs)
        if orb is None:
            state.outcome = Outcome(
                winner, "lord",
                f"{side}'s lord was defeated with no orb left",
                f"Der Hauptcharakter von {side} wurde ohne verbleibende Juwelen besiegt",
            )
            return
        state.move(orb, hand_zone(side))
        state.bump("turn", f"orbs_taken:{side}")
        flags(state).setdefault("orb_acks", {}).setdefault(side, 0)
        flags(state)["orb_acks"][side] += 1
        return
    flags(state).setdefault("defeated", []).append(target)
    move_unit(state, target, zone(side, "retreat"))


# ------------------------------------------------------------------ forced march

def march(state: GameState, player: str) -> bool:
    """An empty front row is filled at once by every unit of the back row."""
    front, back = field_zones(player)
    if units_in(state, front) or not units_in(state, back):
        return False
    for top in units_in(state, back):
        move_unit(state, top, front)
    return True


def units_in(state: GameState, zone_id: str) -> list[str]:
    under = set(state.attached.values())
    return [u for u in state.cards_in(zone_id) if u not in under]


def march_defender(state: GameState) -> None:
    """The defending (non-active) player marches as soon as the front row is empty."""
    if state.phase and state.turn > 0:
        march(state, other(state.active))
