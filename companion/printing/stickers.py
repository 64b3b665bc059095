"""Sheets of card stickers: fronts (game, card, copy) and anonymous backs, with cut guides.

The symbol is the big-cell code (`companion.markers.bigcell`) where the payload fits it, else
Micro QR M2; either is STICKER_MM wide inside a white quiet zone of 2 modules (one big-cell
cell), so a big-cell sticker's white square is 31.25 mm and a Micro QR one 32.7 mm.

One front sticker per physical card copy, labelled with card id, name and copy so a person
knows which card it belongs on; one back sticker per physical card, labelled only with its
serial (a back says nothing about the card it is stuck on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from companion.games import game_info
from companion.markers import bigcell
from companion.markers.payload import encode_back, encode_front
from companion.markers.render import (
    DEFAULT_SYMBOLOGY,
    Symbology,
    card_back_modules,
    card_front_modules,
)
from companion.printing.furniture import content_area, new_sheet
from companion.printing.grid import fit_grid, sheets_needed
from companion.printing.labels import fit_label
from companion.printing.paper import Paper
from companion.printing.sheet import Box, MarkerKind, MarkerSquare, Sheet, Text
from companion.printing.sizes import (
    CUT_GAP_MM,
    LABEL_PT,
    STICKER_LABEL_MM,
    STICKER_MM,
    STICKER_OUTER_MM,
    STICKER_QUIET_MODULES,
)


@dataclass(frozen=True)
class StickerSpec:
    kind: MarkerKind  # "front" or "back"
    payload: str
    label: str
    symbology: Symbology = DEFAULT_SYMBOLOGY  # big-cell unless the payload does not fit it


@dataclass(frozen=True)
class PrintedCard:
    """One physical card to label: which card (id, name, cardset number) and which copy."""

    card_id: str
    name: str
    number: int
    copy: int


def front_specs(game: str, cards: Sequence[PrintedCard],
                symbology: Symbology = DEFAULT_SYMBOLOGY) -> list[StickerSpec]:
    code = game_info(game).code
    return [
        StickerSpec(
            "front", encode_front(code, c.number, c.copy), f"{c.card_id} #{c.copy} {c.name}",
            symbology,
        )
        for c in cards
    ]


def back_specs(first_serial: int, count: int, symbology: Symbology = DEFAULT_SYMBOLOGY
               ) -> list[StickerSpec]:
    """`count` back stickers with consecutive serials from `first_serial`, skipping (for
    big-cell stickers) the few serials whose symbol a reader could take for another one turned
    (`bigcell.fits`): a back says nothing but its serial, so any other serial serves."""
    return [StickerSpec("back", encode_back(serial), f"back {serial:06d}", symbology)
            for serial in back_serials(first_serial, count, symbology)]


def back_serials(first_serial: int, count: int, symbology: Symbology = DEFAULT_SYMBOLOGY
                 ) -> list[int]:
    """The serials `back_specs` prints: consecutive from `first_serial`, big-cell stickers
    skipping those that do not print readably as big-cell."""
    return list(_back_serials(first_serial, count, symbology))


@lru_cache(maxsize=16)
def _back_serials(first_serial: int, count: int, symbology: Symbology) -> tuple[int, ...]:
    """`back_serials`, worked out once per range: the simulator asks for a game's whole
    range (5000 readability checks) for every table it lays out."""
    out: list[int] = []
    serial = first_serial
    while len(out) < count:
        if symbology != "bigcell" or serial > bigcell.MAX_SERIAL or bigcell.fits(
                encode_back(serial)):
            out.append(serial)
        serial += 1
    return tuple(out)


def sticker_cell(spec: StickerSpec, x_mm: float, y_mm: float) -> list[MarkerSquare | Box | Text]:
    """A sticker at (x, y): white square with the symbol and its quiet zone, label, cut box."""
    modules = (
        card_front_modules(spec.payload, spec.symbology)
        if spec.kind == "front"
        else card_back_modules(spec.payload, spec.symbology)
    )
    # the symbol is STICKER_MM wide whatever its module count (13 Micro QR, 16 big-cell)
    pitch = STICKER_MM / modules.shape[0]
    quiet = STICKER_QUIET_MODULES * pitch
    side = STICKER_MM + 2 * quiet
    height = side + STICKER_LABEL_MM
    label = fit_label(spec.label, side - 1.0, LABEL_PT)
    return [
        Box(x_mm, y_mm, side, height, stroke_grey=0.65, line_pt=0.3),
        MarkerSquare(
            spec.kind, spec.payload, modules, x_mm + quiet, y_mm + quiet, modules.shape[0] * pitch
        ),
        Text(x_mm + side / 2, y_mm + height - 1.0, label, size_pt=LABEL_PT, anchor="middle"),
    ]


def sticker_sheets(specs: Sequence[StickerSpec], paper: Paper, heading: str) -> list[Sheet]:
    """Lay `specs` out in order over as many sheets as needed."""
    grid = fit_grid(
        content_area(paper), STICKER_OUTER_MM, STICKER_OUTER_MM + STICKER_LABEL_MM, CUT_GAP_MM
    )
    count = sheets_needed(len(specs), grid)
    sheets: list[Sheet] = []
    for s in range(count):
        sheet = new_sheet(paper, heading, s + 1, count)
        for i, spec in enumerate(specs[s * grid.per_sheet : (s + 1) * grid.per_sheet]):
            sheet.add(*sticker_cell(spec, *grid.cell_origin(i)))
        sheets.append(sheet)
    return sheets
