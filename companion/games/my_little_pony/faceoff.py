"""Faceoffs: troublemaker, problem and double problem faceoffs, as data in `state.flags`.

A faceoff is started by a challenge (troublemaker phase) or by confronting (score phase); both
players then flip the top card of their deck (power only; Random lets a flipped 1 be flipped
again once per Random character involved; an empty deck skips the flip), and it resolves by
itself when both are done: the higher total wins, a tie wins nothing.
"""

from __future__ import annotations

from typing import Any

from companion.engine.api import PLAYERS, other
from companion.engine.state import GameState
from companion.games.my_little_pony import effects as fx
from companion.games.my_little_pony.numbers import RANDOM_REFLIP_POWER
from companion.games.my_little_pony.state import flags


def current(state: GameState) -> dict[str, Any] | None:
    found: dict[str, Any] | None = flags(state).get("faceoff")
    return found


def pending(state: GameState) -> bool:
    return current(state) is not None or bool(flags(state).get("faceoff_queue"))


def new_faceoff(state: GameState, kind: str, zones: list[str], challenger: str | None = None,
                target: str | None = None) -> dict[str, Any]:
    sides: dict[str, list[str]] = {}
    for p in PLAYERS:
        if kind == "troublemaker" and p != challenger:
            sides[p] = []
            continue
        sides[p] = [u for u in fx.characters_of(state, p, zones) if fx.contributes(state, u)]
    return {
        "kind": kind,
        "zones": list(zones),
        # the problems faced off for: their printed bonus is the prize even when the table
        # no longer shows them (a problem card recorded leaving during the faceoff)
        "problems": [u for u in (fx.problem_at(state, z) for z in zones) if u is not None],
        "challenger": challenger,
        "target": target,
        "sides": sides,
        "flips": {p: [] for p in PLAYERS},
        "cards": {p: [] for p in PLAYERS},
        "random_left": {p: fx.random_count(state, sides[p]) for p in PLAYERS},
        "done": {p: state.count(fx.deck(p)) == 0 for p in PLAYERS},
        # whose last flip named neither its card nor its power (declared, the card unseen)
        "unseen": {p: False for p in PLAYERS},
    }


def start_next(state: GameState) -> None:
    """Open the next queued faceoff (score phase), if none is running."""
    queue = flags(state).get("faceoff_queue") or []
    if current(state) is None and queue:
        spec = queue.pop(0)
        flags(state)["faceoff"] = new_faceoff(state, spec["kind"], spec["zones"])
        flags(state)["faceoff_queue"] = queue


def may_flip(state: GameState, player: str) -> tuple[bool, int]:
    """(may flip now, Random re-flips left)."""
    f = current(state)
    if f is None or f["done"][player]:
        return False, 0
    left = int(f["random_left"][player])
    if not f["flips"][player]:
        return True, left
    return f["flips"][player][-1] == RANDOM_REFLIP_POWER and left > 0, left


def record_flip(state: GameState, player: str, power: int, card: str | None,
                unseen: bool = False) -> None:
    """`unseen`: the flip named neither its card nor its power, so `power` is the believed
    top card's (the truth at the table, a guess for a follower of the table)."""
    f = current(state)
    assert f is not None
    f.setdefault("unseen", {p: False for p in PLAYERS})[player] = unseen
    if f["flips"][player]:
        f["random_left"][player] = max(0, int(f["random_left"][player]) - 1)
    f["flips"][player].append(power)
    if card is not None:
        f["cards"][player].append(card)
    may_reflip = power == RANDOM_REFLIP_POWER and int(f["random_left"][player]) > 0
    f["done"][player] = not may_reflip or state.count(fx.deck(player)) == 0


def keep(state: GameState, player: str) -> None:
    f = current(state)
    if f is not None:
        f["done"][player] = True


def ready_to_resolve(state: GameState) -> bool:
    f = current(state)
    return f is not None and all(f["done"][p] for p in PLAYERS)


def side_total(state: GameState, f: dict[str, Any], player: str) -> int:
    flips = f["flips"][player]
    return base_total(state, f, player) + (fx.counted(int(flips[-1])) if flips else 0)


def base_total(state: GameState, f: dict[str, Any], player: str) -> int:
    """A side's total without its flip: its characters' power (and the target's)."""
    total = sum(fx.counted(fx.power(state, u)) for u in f["sides"][player] if u in state.where)
    if f["kind"] == "troublemaker" and player != f["challenger"]:
        target = f["target"]
        if target in state.where:
            total += fx.counted(fx.power(state, target))
    return total


def possible_results(state: GameState, f: dict[str, Any]) -> list[str]:
    """Who may have won ("p1", "p2", "none" for a tie), as far as the table can tell: a flip
    that named neither card nor power may have been any card of that deck nobody has seen
    (the one believed flipped among them). One result when every flip was named."""
    unseen = f.get("unseen") or {}
    choices: dict[str, set[int]] = {}
    for p in PLAYERS:
        flips = f["flips"][p]
        if not flips:
            choices[p] = {0}
            continue
        powers = {int(flips[-1])}
        if unseen.get(p):
            pool = [u for u in state.cards_in(fx.deck(p))
                    if not state.known(u) or u in f["cards"][p]]
            powers |= {state.facts(u).number("power") for u in pool}
        choices[p] = {fx.counted(v) for v in powers}
    base = {p: base_total(state, f, p) for p in PLAYERS}
    found: set[str] = set()
    a, b = PLAYERS
    for x in choices[a]:
        for y in choices[b]:
            ta, tb = base[a] + x, base[b] + y
            found.add("none" if ta == tb else (a if ta > tb else b))
    return [r for r in ("none", *PLAYERS) if r in found]


def winner(state: GameState, f: dict[str, Any]) -> str | None:
    a, b = (side_total(state, f, p) for p in PLAYERS)
    if a == b:
        return None
    return "p1" if a > b else "p2"


def prize(state: GameState, f: dict[str, Any]) -> int:
    """The bonus the winner of a problem faceoff scores: the highest printed on the problems
    it was started for (a double faceoff has two); 0 when it started on none."""
    problems = f.get("problems")
    if problems is None:  # a faceoff kept from before problems were remembered
        problems = [u for u in (fx.problem_at(state, z) for z in f["zones"]) if u is not None]
    return max((state.facts(str(u)).number("bonus") for u in problems), default=0)


def result_summary(state: GameState, f: dict[str, Any], won: str | None) -> dict[str, Any]:
    return {
        "kind": f["kind"],
        "zones": list(f["zones"]),
        "totals": {p: side_total(state, f, p) for p in PLAYERS},
        "winner": won or "none",
    }


def loser_of(f: dict[str, Any], won: str | None) -> str | None:
    return None if won is None else other(won)
