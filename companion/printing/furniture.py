"""What every sheet carries besides its markers: a heading and a 100 mm scale bar.

The scale bar lets a person check with a ruler that the sheet was printed at 100 % (printers
like to "fit to page", which would shrink every marker and the mat).
"""

from __future__ import annotations

from companion.printing.labels import fit_label
from companion.printing.paper import Paper
from companion.printing.sheet import Box, Line, Sheet, Text
from companion.printing.sizes import PAGE_MARGIN_MM, SCALE_BAR_MM

HEADER_MM = 10.0
"""Band at the top of the usable area taken by the heading."""
FOOTER_MM = 8.0
"""Band at the bottom of the usable area taken by the scale bar."""
SCALE_BAR_THICK_MM = 1.5


def scale_bar_position(sheet_height_mm: float) -> tuple[float, float]:
    """Top-left corner (mm) of the scale bar's ink on a sheet this tall."""
    return (PAGE_MARGIN_MM, sheet_height_mm - PAGE_MARGIN_MM - SCALE_BAR_THICK_MM - 0.5)


def new_sheet(paper: Paper, heading: str, number: int, count: int) -> Sheet:
    """A blank sheet with its heading, sheet number and scale bar."""
    sheet = Sheet(paper.width_mm, paper.height_mm)
    top = PAGE_MARGIN_MM + 4.0
    sheet.add(
        Text(
            PAGE_MARGIN_MM,
            top,
            fit_label(heading, paper.usable_w_mm - 25.0, 9, bold=True),
            size_pt=9,
            bold=True,
        ),
        Text(
            paper.width_mm - PAGE_MARGIN_MM, top, f"sheet {number}/{count}", size_pt=8, anchor="end"
        ),
    )
    x, y = scale_bar_position(paper.height_mm)
    sheet.add(
        Box(x, y, SCALE_BAR_MM, SCALE_BAR_THICK_MM, line_pt=0, fill_grey=0.0),
        Line(x + SCALE_BAR_MM / 2, y - 1.0, x + SCALE_BAR_MM / 2, y, line_pt=0.4),
        Text(
            x + SCALE_BAR_MM + 2.0,
            y + SCALE_BAR_THICK_MM,
            f"{SCALE_BAR_MM:.0f} mm: print at 100 %, no fitting to the page",
            size_pt=6,
        ),
    )
    return sheet


def content_area(paper: Paper) -> tuple[float, float, float, float]:
    """(x, y, w, h) in mm between heading and scale bar, inside the margins."""
    return (
        PAGE_MARGIN_MM,
        PAGE_MARGIN_MM + HEADER_MM,
        paper.usable_w_mm,
        paper.usable_h_mm - HEADER_MM - FOOTER_MM,
    )
