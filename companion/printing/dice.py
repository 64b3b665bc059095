"""Sheets of die-face and token stickers (ArUco 4x4), one labelled sticker per face.

Which dice a game needs is `companion.markers.dice_sets` (the camera accepts no others);
Challengers! gets the flag token, one sticker for each side of the token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
HOW_TO_STICK = (
    f"For {DIE_MM:.0f} mm dice: cut on the grey lines; opposite faces add up to 7; "
    "token stickers go on both sides of the token."
)


class DiceError(CompanionError):
    """A dice request that cannot be printed (e.g. too many counters)."""


@dataclass(frozen=True)
class FaceSpec:
    """One ArUco sticker: a die face (`die`, `value`) or a token side (`token`)."""

    marker_id: int
    label: str
    die: str | None = None
    value: int | None = None
    token: str | None = None


def counter_dice(counters: int) -> list[str]:
    """Counter dice pN.c1..cN for both players."""
    try:
        return _counter_dice(counters)
    except DiceSetError as exc:
        raise DiceError(str(exc)) from exc


def tokens_for_game(game: str) -> list[str]:
    """The game's two-sided tokens (its spec's printing hints)."""
    return list(game_spec(game).printing.tokens)


def face_specs(dice: Sequence[str], tokens: Sequence[str]) -> list[FaceSpec]:
    specs = [
        FaceSpec(die_face_id(die, value), f"{die} = {value}", die=die, value=value)
        for die in dice
        for value in range(1, FACES + 1)
    ]
    for token in tokens:
        specs += [
            FaceSpec(token_id(token), f"{token} side {side}", token=token)
            for side in range(1, FLAG_SIDES + 1)
        ]
    return specs


def face_cell(spec: FaceSpec, x_mm: float, y_mm: float) -> list[MarkerSquare | Box | Text]:
    side = TOKEN_MARKER_MM if spec.token else DIE_MARKER_MM
    margin = (DIE_STICKER_MM - side) / 2
    return [
        Box(x_mm, y_mm, DIE_STICKER_MM, DIE_STICKER_MM, stroke_grey=0.65, line_pt=0.3),
        MarkerSquare(
            "aruco",
            str(spec.marker_id),
            aruco_modules(spec.marker_id),
            x_mm + margin,
            y_mm + margin,
            side,
        ),
        Text(
            x_mm + DIE_STICKER_MM / 2,
            y_mm + DIE_STICKER_MM + STICKER_LABEL_MM - 1.0,
            spec.label,
            size_pt=LABEL_PT,
            anchor="middle",
        ),
    ]


def dice_sheets(specs: Sequence[FaceSpec], paper: Paper, heading: str) -> list[Sheet]:
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
        sheet.add(Text(grid.x_mm, grid.y_mm - 1.5, HOW_TO_STICK, size_pt=6))
        for i, spec in enumerate(specs[s * grid.per_sheet : (s + 1) * grid.per_sheet]):
            sheet.add(*face_cell(spec, *grid.cell_origin(i)))
        sheets.append(sheet)
    return sheets
