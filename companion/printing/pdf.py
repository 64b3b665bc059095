"""Write sheets to a PDF with reportlab: markers as exact vector squares, nothing rasterised."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.errors import CompanionError
from companion.printing.sheet import Box, Element, Line, MarkerSquare, Sheet, Text

Progress = Callable[[int, int], None]
"""Called as progress(sheet_number, sheet_count) after each sheet is written."""

DASH = (3, 2)


class PdfWriteError(CompanionError):
    """The PDF cannot be written where the user asked."""


def printable(text: str) -> str:
    """Text as the standard PDF fonts can show it (WinAnsi); other characters become '?'."""
    return text.encode("cp1252", errors="replace").decode("cp1252")


def ink_runs(row: np.ndarray) -> list[tuple[int, int]]:
    """(start, length) of each run of True cells in a row.

    Drawing runs instead of single modules leaves no hairline gaps between neighbouring
    squares when a viewer or printer rasterises the page.
    """
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for i, ink in enumerate([*row.tolist(), False]):
        if ink and start is None:
            start = i
        elif not ink and start is not None:
            runs.append((start, i - start))
            start = None
    return runs


class _Painter:
    def __init__(self, canvas: Canvas, sheet_h_mm: float) -> None:
        self.c = canvas
        self.h = sheet_h_mm

    def y(self, y_mm: float) -> float:
        return (self.h - y_mm) * mm

    def draw(self, e: Element) -> None:
        if isinstance(e, MarkerSquare):
            self.marker(e)
        elif isinstance(e, Box):
            self.box(e)
        elif isinstance(e, Line):
            self.line(e)
        else:
            self.text(e)

    def marker(self, e: MarkerSquare) -> None:
        c = self.c
        cell = e.module_mm
        c.setFillGray(0)
        c.setStrokeGray(0)
        for r, row in enumerate(e.modules):
            for start, length in ink_runs(row):
                c.rect(
                    (e.x_mm + start * cell) * mm,
                    self.y(e.y_mm + (r + 1) * cell),
                    length * cell * mm,
                    cell * mm,
                    stroke=0,
                    fill=1,
                )

    def box(self, e: Box) -> None:
        c = self.c
        c.saveState()
        c.setLineWidth(e.line_pt)
        c.setStrokeGray(e.stroke_grey)
        if e.dashed:
            c.setDash(*DASH)
        if e.fill_grey is not None:
            c.setFillGray(e.fill_grey)
        c.rect(
            e.x_mm * mm,
            self.y(e.y_mm + e.h_mm),
            e.w_mm * mm,
            e.h_mm * mm,
            stroke=1 if e.line_pt > 0 else 0,
            fill=1 if e.fill_grey is not None else 0,
        )
        c.restoreState()

    def line(self, e: Line) -> None:
        c = self.c
        c.saveState()
        c.setLineWidth(e.line_pt)
        c.setStrokeGray(e.grey)
        if e.dashed:
            c.setDash(*DASH)
        c.line(e.x1_mm * mm, self.y(e.y1_mm), e.x2_mm * mm, self.y(e.y2_mm))
        c.restoreState()

    def text(self, e: Text) -> None:
        c = self.c
        c.saveState()
        c.setFillGray(e.grey)
        c.setFont("Helvetica-Bold" if e.bold else "Helvetica", e.size_pt)
        x, y, s = e.x_mm * mm, self.y(e.y_mm), printable(e.text)
        if e.upside_down:
            c.translate(x, y)
            c.rotate(180)
            x = y = 0.0
        if e.anchor == "middle":
            c.drawCentredString(x, y, s)
        elif e.anchor == "end":
            c.drawRightString(x, y, s)
        else:
            c.drawString(x, y, s)
        c.restoreState()


def write_pdf(
    sheets: Sequence[Sheet], path: Path, title: str, progress: Progress | None = None
) -> None:
    """Write `sheets` as the pages of one PDF at true scale (print at 100 %, no fitting)."""
    if not sheets:
        raise PdfWriteError("nothing to print")
    if path.parent and not path.parent.is_dir():
        raise PdfWriteError(f"cannot write {path}: folder {path.parent} does not exist")
    canvas = Canvas(str(path), pageCompression=1, invariant=1)
    canvas.setTitle(title)
    canvas.setCreator("table companion")
    for number, sheet in enumerate(sheets, start=1):
        canvas.setPageSize((sheet.width_mm * mm, sheet.height_mm * mm))
        painter = _Painter(canvas, sheet.height_mm)
        for layer in sheet.layers:
            canvas.saveState()
            if layer.clip is not None:
                cx, cy, cw, ch = layer.clip
                clip = canvas.beginPath()
                clip.rect(cx * mm, painter.y(cy + ch), cw * mm, ch * mm)
                canvas.clipPath(clip, stroke=0, fill=0)
            canvas.translate(layer.dx_mm * mm, -layer.dy_mm * mm)
            for element in layer.elements:
                painter.draw(element)
            canvas.restoreState()
        canvas.showPage()
        if progress is not None:
            progress(number, len(sheets))
    try:
        canvas.save()
    except OSError as exc:
        raise PdfWriteError(f"cannot write {path}: {exc.strerror or exc}") from exc
