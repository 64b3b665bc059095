"""Tiny human-readable labels that must fit under a sticker."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from companion.printing.pdf import printable

ELLIPSIS = "…"


def text_width_mm(text: str, size_pt: float, font: str = "Helvetica") -> float:
    return float(stringWidth(printable(text), font, size_pt)) / mm


def fit_label(text: str, width_mm: float, size_pt: float, bold: bool = False) -> str:
    """`text`, shortened with an ellipsis when it is wider than `width_mm` at `size_pt`."""
    font = "Helvetica-Bold" if bold else "Helvetica"
    if text_width_mm(text, size_pt, font) <= width_mm:
        return text
    cut = len(text)
    while cut > 0 and text_width_mm(text[:cut].rstrip() + ELLIPSIS, size_pt, font) > width_mm:
        cut -= 1
    return text[:cut].rstrip() + ELLIPSIS
