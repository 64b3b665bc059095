"""The tournament plan of Challengers!: rounds, level stacks, trophies, pairings.

The rulebook fixes seven rounds, level A in round 1 and level B or C later "by the tournament
plan", the fans on each round's trophies and the 11-fan early win; it leaves the pairing plan to
the printed plan cards. Here pairings follow the circle method (every round a new opponent,
repeating after a full cycle), and the level plan is a configurable default.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import CompanionError
from companion.games.challengers.numbers import MAX_PLAYERS, ROUNDS, TROPHY_FANS

BOT = "Bot"


DEFAULT_LEVELS: tuple[str, ...] = ("A", "B", "B", "B", "C", "C", "C")
"""Level stack of each round's deck phase: A in round 1, B or C later (assumed plan)."""


class PlanError(CompanionError):
    """A tournament plan that the rules do not allow (player count, levels)."""


def check_levels(levels: Sequence[str]) -> tuple[str, ...]:
    plan = tuple(levels)
    if len(plan) != ROUNDS:
        raise PlanError(f"a level plan names {ROUNDS} rounds, got {len(plan)}",
                        de=f"ein Stufenplan nennt {ROUNDS} Runden, angegeben: {len(plan)}")
    if plan[0] != "A" or any(level not in ("B", "C") for level in plan[1:]):
        given = "".join(plan)
        raise PlanError(f"round 1 draws from level A, later rounds from B or C; got {given}",
                        de=f"Runde 1 zieht aus Stufe A, spätere Runden aus B oder C; "
                           f"angegeben: {given}")
    return plan


def seats_for(players: Sequence[str]) -> list[str]:
    """The seats of the tournament: the players, plus the bot for an odd count."""
    names = list(players)
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise PlanError(f"Challengers! is for 1 to {MAX_PLAYERS} players, got {len(names)}",
                        de=f"Challengers! ist für 1 bis {MAX_PLAYERS} Spieler, angegeben: "
                           f"{len(names)}")
    if len(set(names)) != len(names) or BOT in names:
        listed = ", ".join(names)
        raise PlanError(f"player names must be distinct and not {BOT!r}: {listed}",
                        de=f"Spielernamen müssen verschieden sein und nicht {BOT!r}: {listed}")
    return [*names, BOT] if len(names) % 2 else names


def pairings(seats: Sequence[str], round_no: int) -> list[tuple[str, str]]:
    """The matches of one round (circle method: the first seat stays, the others rotate)."""
    if len(seats) % 2 or len(seats) < 2:
        raise PlanError(f"pairings need an even number of seats, got {len(seats)}")
    if not 1 <= round_no <= ROUNDS:
        raise PlanError(f"rounds are 1 to {ROUNDS}, got {round_no}")
    first, rest = seats[0], list(seats[1:])
    shift = (round_no - 1) % len(rest)
    rotated = rest[shift:] + rest[:shift]
    ring = [first, *rotated]
    n = len(ring)
    return [(ring[i], ring[n - 1 - i]) for i in range(n // 2)]


def trophy_range(round_no: int) -> tuple[int, int]:
    try:
        return TROPHY_FANS[round_no]
    except KeyError:
        raise PlanError(f"there is no trophy for round {round_no}") from None
