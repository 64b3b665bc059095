"""The Creature Crush field: places, who faces whom, and paying costs with dice.

Each player has A1..A3 (front), B1..B3 (defence) and C1..C3 (crush cards), numbered from the
player's own left, so p1's column k faces p2's column 4-k (calibration/layouts/creature-crush).
Costs are paid with burned start dice: a creature's cost by an exact sum, a crush card's by a
count of dice of any value.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping

from companion.engine.api import PLAYERS, other
from companion.engine.state import GameState
from companion.games.creature_crush.numbers import DICE_PER_COLOUR, FIELD_COLUMNS

ROWS_FIELD = ("A", "B")
COLUMNS = tuple(range(1, FIELD_COLUMNS + 1))


def lager(p: str) -> str:
    return f"{p}.lager"


def hell(p: str) -> str:
    return f"{p}.hell"


def place(p: str, row: str, column: int) -> str:
    return f"{p}.{row}{column}"


def field_places(p: str) -> list[str]:
    return [place(p, r, c) for r in ROWS_FIELD for c in COLUMNS]


def crush_places(p: str) -> list[str]:
    return [place(p, "C", c) for c in COLUMNS]


def all_places(p: str) -> list[str]:
    return field_places(p) + crush_places(p)


def side(zone: str) -> str:
    return zone.split(".", 1)[0]


def row(zone: str) -> str:
    return zone.split(".", 1)[1][:1]


def column(zone: str) -> int:
    return int(zone.split(".", 1)[1][1:])


def is_field(zone: str | None) -> bool:
    return zone is not None and side(zone) in PLAYERS and zone.split(".", 1)[1] in (
        "A1", "A2", "A3", "B1", "B2", "B3")


def is_crush_place(zone: str | None) -> bool:
    return zone is not None and side(zone) in PLAYERS and zone.split(".", 1)[1] in (
        "C1", "C2", "C3")


def is_hell(zone: str | None) -> bool:
    return zone is not None and zone.endswith(".hell")


def opposite(zone: str, target_row: str) -> str:
    """The opponent's place in `target_row` facing `zone`'s column."""
    return place(other(side(zone)), target_row, FIELD_COLUMNS + 1 - column(zone))


def adjacent_b(zone: str) -> str:
    """The B place bordering an A place (same column): summoning to A needs it occupied."""
    return place(side(zone), "B", column(zone))


def occupant(state: GameState, zone: str) -> str | None:
    cards = state.cards_in(zone)
    return cards[-1] if cards else None


def creatures_of(state: GameState, p: str) -> list[str]:
    return [u for z in field_places(p) for u in state.cards_in(z)]


def controller(state: GameState, uid: str) -> str | None:
    """Whose field a creature lies on (its last owner for the hell it goes to)."""
    zone = state.where.get(uid)
    if zone is None or not is_field(zone):
        return None
    return side(zone)


def die_owner(die: str) -> str:
    return die.split(".", 1)[0]


def die_kind(die: str) -> str:
    return die.split(".", 1)[1][:1]


def die_number(die: str) -> int:
    return int(die.split(".", 1)[1][1:])


def dice_text(dice: Mapping[str, int]) -> str:
    return ",".join(f"{d}={v}" for d, v in sorted(dice.items()))


def dice_shown(dice: Mapping[str, int]) -> str:
    """Dice for a message: "p1.w1=2, p1.w2=5" or "none"."""
    return ", ".join(f"{d}={v}" for d, v in sorted(dice.items())) or "none"


DIE_NAME = re.compile(r"^p[12]\.[wr][1-9][0-9]?$")
MAX_DICE = 2 * 2 * DICE_PER_COLOUR
"""Five white and five red dice per player (more may be added): no move names more."""


def parse_dice(text: str | None) -> dict[str, int]:
    """"p1.w1=2,p1.w2=5" -> {"p1.w1": 2, "p1.w2": 5}; a bare name has value 0 (unknown).
    Parts that name no die, values beyond a die's faces and dice beyond `MAX_DICE` are left
    out: a malformed option names no die."""
    out: dict[str, int] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, _, value = part.partition("=")
        if not DIE_NAME.match(name) or len(out) >= MAX_DICE:
            continue
        out[name] = int(value) if value.isdigit() and len(value) == 1 else 0
    return out


def exact_sum(dice: Mapping[str, int], cost: int) -> list[str] | None:
    """Dice whose values add up to exactly `cost` (fewest dice first), or None."""
    names = sorted(dice)
    for size in range(1, len(names) + 1):
        for combo in itertools.combinations(names, size):
            if sum(dice[d] for d in combo) == cost:
                return list(combo)
    return None


def exact_count(dice: Mapping[str, int], count: int) -> list[str] | None:
    names = sorted(dice)
    return names[:count] if len(names) >= count else None


def payable_sums(values: list[int]) -> set[int]:
    """Every cost the dice can pay exactly (single dice or several added)."""
    sums: set[int] = set()
    for size in range(1, len(values) + 1):
        for combo in itertools.combinations(values, size):
            sums.add(sum(combo))
    return sums
