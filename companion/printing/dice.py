"""Sheets of die-face and token stickers, one labelled sticker per face.

Die faces come as ArUco 4x4 stickers (a marker per die and value: `--faces ids`) or as value
stickers (`--faces values`, `companion.markers.value_faces`: the value and the colour in
cells 1.2 times as big; a red die's stickers inverted, white on black). Which dice a game
needs is `companion.markers.dice_sets` (the camera accepts no others); Challengers! gets the
flag token, one sticker for each side of the token. Counter dice always get ArUco stickers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from companion.errors import CompanionError
from companion.games import dice_for_game as dice_for_game  # re-exported for the print jobs
from companion.games import game_spec
from companion.markers.dice_sets import (  # re-exported: the printing jobs import them here
    RED_DICE_PER_PLAYER as RED_DICE_PER_PLAYER,
)
from companion.markers.dice_sets import (
    WHITE_DICE_PER_PLAYER as WHITE_DICE_PER_PLAYER,
)
from companion.markers.dice_sets import DiceSetError
from companion.markers.dice_sets import counter_dice as _counter_dice
from companion.markers.payload import FACES, die_face_id, token_id
from companion.markers.render import aruco_modules
from companion.markers.value_faces import ValueFace, printed_cells, takes_value_stickers
from companion.printing.furniture import content_area, new_sheet
from companion.printing.grid import fit_grid, sheets_needed
from companion.printing.paper import Paper
from companion.printing.sheet import Box, MarkerSquare, Sheet, Text
from companion.printing.sizes import (
    DIE_CUT_GAP_MM,
    DIE_MARKER_MM,
    DIE_MM,
    DIE_STICKER_MM,
    LABEL_PT,
    STICKER_LABEL_MM,
    TOKEN_MARKER_MM,
)

FLAG_SIDES = 2
FaceKind = Literal["ids", "values"]
FACE_KINDS: tuple[FaceKind, ...] = ("ids", "values")
DEFAULT_FACES: FaceKind = "ids"
"""Measured (docs/benchmarks.md, Vision): value stickers read more dice on 720p cameras, fewer
at 68 cm / 40 degrees and on a phone at 35 degrees; ArUco die stickers stay the default."""
HOW_TO_STICK_VALUES = (
    f"For {DIE_MM:.0f} mm dice: cut on the grey lines; one set of six per die, white stickers "
    "on white dice, black ones on red dice; opposite faces add up to 7; token stickers go on "
    "both sides of the token."
)
HOW_TO_STICK = (
    f"For {DIE_MM:.0f} mm dice: cut on the grey lines; opposite faces add up to 7; "
    "token stickers go on both sides of the token."
)


class DiceError(CompanionError):
    """A dice request that cannot be printed (e.g. too many counters)."""


@dataclass(frozen=True)
class FaceSpec:
    """One sticker: an ArUco die face (`die`, `value`), a token side (`token`), or a value
    sticker (`value_face`; then `marker_id` is -1)."""

    marker_id: int
    label: str
    die: str | None = None
    value: int | None = None
    token: str | None = None
    value_face: ValueFace | None = None


def counter_dice(counters: int) -> list[str]:
    """Counter dice pN.c1..cN for both players."""
    try:
        return _counter_dice(counters)
    except DiceSetError as exc:
        raise DiceError(str(exc)) from exc


def tokens_for_game(game: str) -> list[str]:
    """The game's two-sided tokens (its spec's printing hints)."""
    return list(game_spec(game).printing.tokens)


def face_specs(dice: Sequence[str], tokens: Sequence[str], faces: FaceKind = "ids"
               ) -> list[FaceSpec]:
    """The stickers for `dice` and `tokens`, a die's six faces together; `faces` "values":
    white and red dice get value stickers (one set per die, alike for every die of a
    colour), counter dice still ArUco ones."""
    specs = []
    for die in dice:
        for value in range(1, FACES + 1):
            if faces == "values" and takes_value_stickers(die):
                face = ValueFace(value, die.split(".")[1][0])
                specs.append(FaceSpec(-1, face.label, die=die, value=value, value_face=face))
            else:
                specs.append(FaceSpec(die_face_id(die, value), f"{die} = {value}", die=die,
                                      value=value))
    for token in tokens:
        specs += [
            FaceSpec(token_id(token), f"{token} side {side}", token=token)
            for side in range(1, FLAG_SIDES + 1)
        ]
    return specs


def face_cell(spec: FaceSpec, x_mm: float, y_mm: float) -> list[MarkerSquare | Box | Text]:
    side = TOKEN_MARKER_MM if spec.token else DIE_MARKER_MM
    margin = (DIE_STICKER_MM - side) / 2
    ground: list[MarkerSquare | Box | Text] = [
        Box(x_mm, y_mm, DIE_STICKER_MM, DIE_STICKER_MM, stroke_grey=0.65, line_pt=0.3)]
    if spec.value_face is not None:
        cells, inked = printed_cells(spec.value_face)
        if inked:  # black sticker, the marker's paper cells left white inside it
            ground = [Box(x_mm, y_mm, DIE_STICKER_MM, DIE_STICKER_MM, stroke_grey=0.0,
                          line_pt=0.0, fill_grey=0.0),
                      Box(x_mm + margin, y_mm + margin, side, side, stroke_grey=1.0,
                          line_pt=0.0, fill_grey=1.0)]
        marker = MarkerSquare("value", spec.value_face.label, cells, x_mm + margin,
                              y_mm + margin, side)
    else:
        marker = MarkerSquare("aruco", str(spec.marker_id), aruco_modules(spec.marker_id),
                              x_mm + margin, y_mm + margin, side)
    return [
        *ground,
        marker,
        Text(
            x_mm + DIE_STICKER_MM / 2,
            y_mm + DIE_STICKER_MM + STICKER_LABEL_MM - 1.0,
            spec.label,
            size_pt=LABEL_PT,
            anchor="middle",
        ),
    ]


def dice_sheets(specs: Sequence[FaceSpec], paper: Paper, heading: str,
                how_to_stick: str = HOW_TO_STICK) -> list[Sheet]:
    """Face stickers in order (a die's six faces together), cut boxes at the sticker edge."""
    grid = fit_grid(
        content_area(paper),
        DIE_STICKER_MM,
        DIE_STICKER_MM + STICKER_LABEL_MM,
        DIE_CUT_GAP_MM,
        group=FACES,
    )
    count = sheets_needed(len(specs), grid)
    sheets: list[Sheet] = []
    for s in range(count):
        sheet = new_sheet(paper, heading, s + 1, count)
        sheet.add(Text(grid.x_mm, grid.y_mm - 1.5, how_to_stick, size_pt=6))
        for i, spec in enumerate(specs[s * grid.per_sheet : (s + 1) * grid.per_sheet]):
            sheet.add(*face_cell(spec, *grid.cell_origin(i)))
        sheets.append(sheet)
    return sheets
