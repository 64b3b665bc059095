"""Value stickers for dice: a die face's value in cells twice as big as an ArUco die face's.

An ArUco 4x4 die sticker names its die and value in 6 x 6 cells of 2 mm on a 12 mm marker;
at 720p 53 cm, or 1080p 68 cm, a cell is 2.2-2.7 px and a third of the tops read on one
frame. The rules need no die's own name: values per player, per zone, per card, and which
die went where (the same is true of ordinary pip dice, `companion.vision.pips`). So a value
sticker carries only the value and the die's colour: 3 x 3 data cells inside a one-cell black
border, 5 x 5 cells of 2.4 mm on the same 12 mm marker (measured on the realistic
simulator, 720p 53 cm / 30 deg, OpenCV's own ArUco detector: 33 % -> 60 % of the visible
tops on one frame, 68 % -> 82 % on at least one of 6 frames).

- The six patterns differ from each other in at least 3 cells in every turn and mirror image,
  and from their own turns in at least 4: a misread cell or two never gives another value,
  and the turn that reads is never in doubt.
- Colour is the polarity: white dice carry black markers on white stickers, red dice the
  same markers inverted (white cells on a black sticker). A camera tells black from white at
  any resolution; telling a red die from a white one by colour failed on the simulator's
  720p frames (the body shows as a 1 mm rim around the sticker).
- Counter dice (`pN.cK`) keep ArUco stickers: they have no colour of their own here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.errors import CompanionError

VALUE_CELLS = 3  # data cells per side
VALUE_BORDER = 1
VALUE_GRID = VALUE_CELLS + 2 * VALUE_BORDER  # 5 x 5 cells, border included

VALUE_CODES: dict[int, tuple[tuple[int, int, int], ...]] = {
    1: ((1, 0, 1), (1, 0, 0), (1, 0, 0)),
    2: ((1, 1, 0), (1, 1, 0), (0, 0, 0)),
    3: ((0, 1, 0), (1, 1, 1), (1, 0, 0)),
    4: ((1, 0, 1), (0, 0, 1), (1, 1, 0)),
    5: ((1, 0, 0), (0, 1, 1), (1, 0, 0)),
    6: ((1, 1, 1), (1, 0, 1), (0, 0, 0)),
}
"""Value -> 3 x 3 data cells (1 = ink), row 0 at the face's printed top; found by search
over all 512 patterns (4-5 ink cells, see the module docstring for the distances)."""

INVERTED_KINDS = frozenset({"r"})
"""Die kinds whose value stickers are printed inverted (red dice)."""

VALUE_KINDS = ("w", "r")
"""Die kinds that value stickers exist for."""


class ValueFaceError(CompanionError, ValueError):
    """A value sticker nobody can print: a value outside 1-6 or a die kind without one."""


@dataclass(frozen=True)
class ValueFace:
    """One value sticker: the value and the die kind ("w" white, "r" red)."""

    value: int
    kind: str

    def __post_init__(self) -> None:
        if self.value not in VALUE_CODES:
            raise ValueFaceError(f"a die shows 1-6, not {self.value}")
        if self.kind not in VALUE_KINDS:
            raise ValueFaceError(f"value stickers are for white (w) or red (r) dice, "
                                 f"not {self.kind!r}")

    @property
    def inverted(self) -> bool:
        return self.kind in INVERTED_KINDS

    @property
    def label(self) -> str:
        return f"{'red' if self.kind == 'r' else 'white'} {self.value}"


def value_cells(value: int) -> np.ndarray:
    """The value's marker as printed black on white: 5 x 5 bool cells, True = ink, the
    one-cell border included."""
    if value not in VALUE_CODES:
        raise ValueFaceError(f"a die shows 1-6, not {value}")
    cells = np.ones((VALUE_GRID, VALUE_GRID), bool)
    cells[VALUE_BORDER:-VALUE_BORDER, VALUE_BORDER:-VALUE_BORDER] = np.array(
        VALUE_CODES[value], bool)
    return cells


def printed_cells(face: ValueFace) -> tuple[np.ndarray, bool]:
    """(cells, sticker inked): the cells printed black (True = ink) and whether the sticker's
    margin around the marker is black too (an inverted sticker, red dice)."""
    cells = value_cells(face.value)
    return (~cells, True) if face.inverted else (cells, False)


def takes_value_stickers(die: str) -> bool:
    """Whether a die (`pN.<kind><k>`) gets value stickers: white and red dice, not counters."""
    return die.split(".")[1][:1] in VALUE_KINDS


def all_faces(kinds: tuple[str, ...] = VALUE_KINDS) -> list[ValueFace]:
    return [ValueFace(value, kind) for kind in kinds for value in VALUE_CODES]
