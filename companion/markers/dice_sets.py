"""Dice sets and how dice are read.

Die names are `pN.<kind><k>` (`companion.markers.payload`). Which dice a game uses is the game's
(its spec's `PrintHints.dice`: Creature Crush has white start dice w1..w5 and red damage dice
r1..r5 per player; the others none): ask `companion.games.game_dice(game, counters)`, which adds
`counters` counter dice pN.c1..cN (`counter_dice`) for people who want them on the table. The
camera accepts no other dice: on a real table a die face outside the game's set is a misread, a
mirrored marker or a die from another box.

Dice are read from their face stickers, ArUco die stickers (one marker per face: die and
value) or value stickers (`companion.markers.value_faces`: the value and the colour in big
cells; a table carries one kind, named by `--dice`), or, for ordinary dice without stickers,
from their pips (white dice with dark pips, red dice with white pips). Value stickers and pips
carry no die's name: it comes from colour, side and place.
"""

from __future__ import annotations

from typing import Literal

from companion.errors import CompanionError
from companion.markers.payload import DICE_PER_KIND, PLAYERS

DiceMode = Literal["stickers", "values", "pips"]
DICE_MODES: tuple[DiceMode, ...] = ("stickers", "values", "pips")
DEFAULT_DICE_MODE: DiceMode = "stickers"
"""How dice are read unless a command says otherwise (`--dice`): measured, see
docs/benchmarks.md."""
DICE_MODE_HELP = (
    "stickers: ArUco die stickers (`companion print dice`); values: value stickers on the "
    "white and red dice (`companion print dice --faces values`: more dice read on 720p "
    "cameras); pips: ordinary pip dice [default: stickers].")

WHITE_DICE_PER_PLAYER = 5
RED_DICE_PER_PLAYER = 5


class DiceSetError(CompanionError):
    """A dice request that no game allows (e.g. too many counters)."""


def counter_dice(counters: int) -> list[str]:
    """Counter dice pN.c1..cN for both players."""
    if not 0 <= counters <= DICE_PER_KIND:
        raise DiceSetError(f"counters must be 0-{DICE_PER_KIND}, not {counters}")
    return [f"{player}.c{k}" for player in PLAYERS for k in range(1, counters + 1)]


def dice_mode(name: str | None) -> DiceMode:
    """The dice mode a command's `--dice` option names (None: the measured default)."""
    if name is None:
        return DEFAULT_DICE_MODE
    if name not in DICE_MODES:
        raise DiceSetError(f"dice are read as {' or '.join(DICE_MODES)}, not {name!r}")
    return "pips" if name == "pips" else "values" if name == "values" else "stickers"
