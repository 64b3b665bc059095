"""Which dice each game uses: what is printed, and all the camera accepts as a die.

Die names are `pN.<kind><k>` (`companion.markers.payload`):
- Creature Crush: white start dice p1/p2 w1..w5 (at most five per turn) and red damage dice
  p1/p2 r1..r5 (they lie on creatures).
- My Little Pony CCG: the companion keeps points and action tokens itself from the moves, so
  no counter dice by default; `counters=N` adds counter dice pN.c1..cN for any game, for people
  who want them on the table.
- Trick or Beat, Fire Emblem Cipher and Challengers! use no dice (Challengers' flag is a
  token).

A die face whose die is not in its game's set is never reported as a die: on a real table that
is a misread, a mirrored marker or a die from another box.

Dice are read either from their face stickers (ArUco, one marker per face: die and value) or,
for ordinary dice without stickers, from their pips (white dice with dark pips, red dice with
white pips; their names then come from colour, side and place).
"""

from __future__ import annotations

from typing import Literal

from companion.errors import CompanionError
from companion.markers.payload import DICE_PER_KIND, PLAYERS

DiceMode = Literal["stickers", "pips"]
DICE_MODES: tuple[DiceMode, ...] = ("stickers", "pips")
DEFAULT_DICE_MODE: DiceMode = "stickers"
"""How dice are read unless a command says otherwise (`--dice`): measured, see the README."""

WHITE_DICE_PER_PLAYER = 5
RED_DICE_PER_PLAYER = 5


class DiceSetError(CompanionError):
    """A dice request that no game allows (e.g. too many counters)."""


def dice_for_game(game: str) -> list[str]:
    """Die names `game` uses, p1's before p2's (see the module doc)."""
    if game != "creature-crush":
        return []
    return [
        f"{player}.{kind}{k}"
        for player in PLAYERS
        for kind, count in (("w", WHITE_DICE_PER_PLAYER), ("r", RED_DICE_PER_PLAYER))
        for k in range(1, count + 1)
    ]


def counter_dice(counters: int) -> list[str]:
    """Counter dice pN.c1..cN for both players."""
    if not 0 <= counters <= DICE_PER_KIND:
        raise DiceSetError(f"counters must be 0-{DICE_PER_KIND}, not {counters}")
    return [f"{player}.c{k}" for player in PLAYERS for k in range(1, counters + 1)]


def game_dice(game: str, counters: int = 0) -> list[str]:
    """Every die the camera accepts for `game`: its own dice and `counters` counters each."""
    return dice_for_game(game) + counter_dice(counters)


def dice_mode(name: str | None) -> DiceMode:
    """The dice mode a command's `--dice` option names (None: the measured default)."""
    if name is None:
        return DEFAULT_DICE_MODE
    if name not in DICE_MODES:
        raise DiceSetError(f"dice are read as {' or '.join(DICE_MODES)}, not {name!r}")
    return "pips" if name == "pips" else "stickers"
