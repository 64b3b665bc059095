"""The quantities of My Little Pony CCG: power, colours, keywords, limits and requirements.

Pure functions over a `GameState`; rules.py decides what is legal, this module only computes.
Per-player facts the camera cannot see (action tokens, points, boosted manes, frightened
friends, power changes declared from card texts) live in `state.flags` (typed: state.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine.api import PLAYERS, other
from companion.engine.state import GameState
from companion.games.my_little_pony import numbers
from companion.games.my_little_pony.state import flags

CHARACTER_TYPES = ("mane", "friend")
CRITTER = "Critter"


def home(player: str) -> str:
    return f"{player}.home"


def problem_zone(player: str) -> str:
    return f"{player}.problem"


def deck(player: str) -> str:
    return f"{player}.deck"


def discard(player: str) -> str:
    return f"{player}.discard"


def problem_deck(player: str) -> str:
    return f"{player}.problem-deck"


PROBLEM_ZONES = (problem_zone("p1"), problem_zone("p2"))
AREAS = (home("p1"), home("p2"), *PROBLEM_ZONES)


def zone_owner(zone: str) -> str:
    return zone.split(".", 1)[0]


# ----------------------------------------------------------------------------- card facts


def kind(state: GameState, uid: str) -> str:
    return state.facts(uid).type


def is_character(state: GameState, uid: str) -> bool:
    return uid in state.where and kind(state, uid) in CHARACTER_TYPES


def boosted(state: GameState, uid: str) -> bool:
    return uid in flags(state).get("boosted", [])


def keywords(state: GameState, uid: str) -> set[str]:
    """The card's keywords (a boosted mane adds its boosted ones), lower case."""
    facts = state.facts(uid)
    words = {k.lower() for k in facts.keywords}
    if boosted(state, uid):
        words |= {str(k).lower() for k in facts.get("boosted_keywords") or ()}
    return words


def has(state: GameState, uid: str, word: str) -> bool:
    return word.lower() in keywords(state, uid)


def traits(state: GameState, uid: str) -> set[str]:
    return {str(t) for t in state.facts(uid).get("traits") or ()}


def is_villain(state: GameState, uid: str) -> bool:
    """Villain, or Epic (the rulebook: Epic troublemakers count as Villains)."""
    return has(state, uid, "Villain") or has(state, uid, "Epic") or "Epic" in traits(state, uid)


def printed_power(state: GameState, uid: str) -> int:
    facts = state.facts(uid)
    if boosted(state, uid) and facts.get("boosted_power") is not None:
        return facts.number("boosted_power")
    return facts.number("power")


def color(state: GameState, uid: str) -> str | None:
    value = state.facts(uid).get("color")
    return str(value) if value else None


def power(state: GameState, uid: str) -> int:
    """Current power: printed, plus declared changes this turn, plus Caretaker (+1 next to one
    of its player's Critter friends at the same problem). May be negative."""
    value = printed_power(state, uid) + int(flags(state).get("power_mods", {}).get(uid, 0))
    zone = state.where.get(uid, "")
    if has(state, uid, "Caretaker") and zone in PROBLEM_ZONES:
        mine = state.owner.get(uid)
        if any(
            u != uid and state.owner.get(u) == mine and kind(state, u) == "friend"
            and CRITTER in traits(state, u)
            for u in state.cards_in(zone)
        ):
            value += numbers.CARETAKER_BONUS
    return value


def counted(value: int) -> int:
    """Negative power counts as 0 when solving problems and in faceoffs."""
    return max(0, value)


def exhausted(state: GameState, uid: str) -> bool:
    return uid in state.tapped


def frightened(state: GameState, uid: str) -> bool:
    return uid in flags(state).get("frightened", [])


def contributes(state: GameState, uid: str) -> bool:
    """Exhausted or frightened characters neither confront nor face off; Stubborn ones count
    while exhausted."""
    if frightened(state, uid):
        return False
    return not exhausted(state, uid) or has(state, uid, "Stubborn")


# ----------------------------------------------------------------------------- table


def mane_of(state: GameState, player: str) -> str | None:
    return flags(state).get("mane", {}).get(player)


def characters_of(state: GameState, player: str, zones: Iterable[str] = AREAS) -> list[str]:
    return [
        u for z in zones for u in state.cards_in(z)
        if state.owner.get(u) == player and kind(state, u) in CHARACTER_TYPES
        and u not in state.face_down
    ]


def friends_at_home(state: GameState, player: str) -> list[str]:
    return [u for u in state.cards_in(home(player))
            if kind(state, u) == "friend" and state.owner.get(u) == player]


def home_limit(state: GameState, player: str) -> int:
    """From the mane character (its boosted side when boosted); 3 without a mane."""
    mane = mane_of(state, player)
    if mane is None or mane not in state.where:
        return numbers.DEFAULT_HOME_LIMIT
    facts = state.facts(mane)
    if boosted(state, mane) and facts.get("boosted_home_limit") is not None:
        return facts.number("boosted_home_limit")
    return facts.number("home_limit", numbers.DEFAULT_HOME_LIMIT)


def problem_at(state: GameState, zone: str) -> str | None:
    for uid in state.cards_in(zone):
        if kind(state, uid) == "problem" and uid not in state.face_down:
            return uid
    return None


def troublemakers_at(state: GameState, zone: str) -> list[str]:
    """Troublemakers at a problem; every face-down card there is one (whatever the engine
    believes its identity to be)."""
    return [u for u in state.cards_in(zone)
            if u in state.face_down or kind(state, u) == "troublemaker"]


def face_up_troublemakers(state: GameState, zone: str) -> list[str]:
    return [u for u in troublemakers_at(state, zone) if u not in state.face_down]


def villain_at(state: GameState, zone: str) -> str | None:
    return next((u for u in face_up_troublemakers(state, zone) if is_villain(state, u)), None)


def blocking_troublemaker(state: GameState, player: str, zone: str) -> str | None:
    """A face-up opposing troublemaker or any face-up Villain keeps `player` from confronting."""
    for uid in face_up_troublemakers(state, zone):
        if state.owner.get(uid) != player or is_villain(state, uid):
            return uid
    return None


def power_by_color(state: GameState, player: str, zones: Iterable[str],
                   only_contributing: bool = True) -> dict[str, int]:
    totals: dict[str, int] = {}
    for uid in characters_of(state, player, zones):
        if only_contributing and not contributes(state, uid):
            continue
        c = color(state, uid) or "none"
        totals[c] = totals.get(c, 0) + counted(power(state, uid))
    return totals


def meets(requirement: Mapping[str, Any], totals: Mapping[str, int]) -> bool:
    need = int(requirement.get("power", 0))
    wanted = str(requirement.get("color", "any"))
    if wanted == "any":
        excluded = requirement.get("except")
        have = sum(v for c, v in totals.items() if c != excluded)
    else:
        have = totals.get(wanted, 0)
    return have >= need


def own_requirements(own: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A problem's coloured requirements as checked: an `any` one beside a requirement of a
    named colour means any other colour (rulebook, Score Phase A: "irgend eine weitere Farbe
    ... außer der ersten"), also when the card leaves out its `except`."""
    reqs = list(own)
    named = [str(r.get("color")) for r in reqs if str(r.get("color", "any")) != "any"]
    out: list[Mapping[str, Any]] = []
    for r in reqs:
        if str(r.get("color", "any")) == "any" and "except" not in r and len(named) == 1:
            r = {**r, "except": named[0]}
        out.append(r)
    return out


def meets_problem(state: GameState, player: str, zone: str) -> bool:
    """Whether `player`'s contributing characters at `zone` meet that problem's requirements
    for them: the owner's coloured ones, or the opponent's power total."""
    problem = problem_at(state, zone)
    if problem is None:
        return False
    totals = power_by_color(state, player, (zone,))
    if not totals:
        return False
    facts = state.facts(problem)
    if state.owner.get(problem) == player:
        own = facts.get("own") or []
        return bool(own) and all(meets(r, totals) for r in own_requirements(own))
    return sum(totals.values()) >= facts.number("opponent", 1)


def can_confront(state: GameState, player: str, zone: str) -> bool:
    return blocking_troublemaker(state, player, zone) is None and meets_problem(
        state, player, zone)


def play_power(state: GameState, player: str, wanted: str) -> int:
    """Power of colour `wanted` among all of `player`'s characters in play (play
    requirements count every character, ready or not)."""
    return power_by_color(state, player, AREAS, only_contributing=False).get(wanted, 0)


# ----------------------------------------------------------------------------- tokens, points


def tokens(state: GameState, player: str) -> int:
    return int(flags(state).get("tokens", {}).get(player, 0))


def points(state: GameState, player: str) -> int:
    return int(flags(state).get("points", {}).get(player, 0))


def add_tokens(state: GameState, player: str, amount: int) -> None:
    bank = flags(state).setdefault("tokens", {p: 0 for p in PLAYERS})
    bank[player] = max(0, int(bank.get(player, 0)) + amount)


def add_points(state: GameState, player: str, amount: int) -> None:
    bank = flags(state).setdefault("points", {p: 0 for p in PLAYERS})
    bank[player] = int(bank.get(player, 0)) + amount


def token_gain(state: GameState) -> int:
    """Action tokens gained in the ready phase, from the highest score (official rules: 0-1
    -> 2, 2-5 -> 3, 6-10 -> 4, 11+ -> 5); the first player's first turn gains 1."""
    if state.turn == 1 and state.active == state.first:
        return numbers.FIRST_TURN_TOKENS
    return numbers.tokens_for(max(points(state, p) for p in PLAYERS))


def move_cost(state: GameState, uid: str) -> int:
    """Moving a character costs 1 action token; Swift ones move for 1 less."""
    return numbers.MOVE_COST - (numbers.SWIFT_DISCOUNT if has(state, uid, "Swift") else 0)


def random_count(state: GameState, uids: Iterable[str]) -> int:
    return sum(1 for u in uids if has(state, u, "Random"))


def opponent_of(player: str) -> str:
    return other(player)
