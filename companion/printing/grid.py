"""Flow equal cells (stickers) over as many sheets as they need, row by row."""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import CompanionError


class GridError(CompanionError):
    """A cell that does not fit the paper at all."""


@dataclass(frozen=True)
class CellGrid:
    """Where the cells of one sheet go: `cols` x `rows` cells of `cell_w` x `cell_h` mm."""

    x_mm: float
    y_mm: float
    cols: int
    rows: int
    cell_w_mm: float
    cell_h_mm: float
    gap_mm: float

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def cell_origin(self, index: int) -> tuple[float, float]:
        """Top-left corner (mm) of cell `index` (0-based, within one sheet)."""
        row, col = divmod(index, self.cols)
        return (
            self.x_mm + col * (self.cell_w_mm + self.gap_mm),
            self.y_mm + row * (self.cell_h_mm + self.gap_mm),
        )


def fit_grid(
    area: tuple[float, float, float, float],
    cell_w_mm: float,
    cell_h_mm: float,
    gap_mm: float,
    group: int = 1,
) -> CellGrid:
    """The largest grid of cells that fits `area` (x, y, w, h), centred horizontally.

    With `group` > 1 the column count is a multiple of `group` where possible, so a group of
    cells (a die's six faces) stays on one row.
    """
    x, y, w, h = area
    cols = int((w + gap_mm) // (cell_w_mm + gap_mm))
    if group > 1 and cols >= group:
        cols -= cols % group
    rows = int((h + gap_mm) // (cell_h_mm + gap_mm))
    if cols < 1 or rows < 1:
        raise GridError(
            f"a {cell_w_mm:.0f} x {cell_h_mm:.0f} mm sticker does not fit a "
            f"{w:.0f} x {h:.0f} mm printable area"
        )
    used_w = cols * cell_w_mm + (cols - 1) * gap_mm
    return CellGrid(x + (w - used_w) / 2, y, cols, rows, cell_w_mm, cell_h_mm, gap_mm)


def sheets_needed(count: int, grid: CellGrid) -> int:
    return max(1, -(-count // grid.per_sheet))
