"""What goes on a printed sheet, as plain data: marker squares, boxes, lines and text.

Building a sheet (stickers, dice, mat tiles) is kept apart from writing the PDF, so tests can
compare what was meant (every marker's payload and position) with what the rendered PDF shows.
Coordinates are millimetres from the sheet's top-left corner, y growing downwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

MarkerKind = Literal["front", "back", "aruco", "value"]
Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class MarkerSquare:
    """A marker drawn as exact ink squares: `modules` (True = ink) spread over `side_mm`.

    `text` is what a detector should read: the payload for card stickers, the ArUco id as a
    decimal string for ArUco markers, "white 3" / "red 3" for value stickers.
    """

    kind: MarkerKind
    text: str
    modules: np.ndarray
    x_mm: float
    y_mm: float
    side_mm: float

    @property
    def centre_mm(self) -> tuple[float, float]:
        return (self.x_mm + self.side_mm / 2, self.y_mm + self.side_mm / 2)

    @property
    def module_mm(self) -> float:
        return self.side_mm / self.modules.shape[0]


@dataclass(frozen=True)
class Box:
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    stroke_grey: float = 0.6
    line_pt: float = 0.4
    dashed: bool = False
    fill_grey: float | None = None


@dataclass(frozen=True)
class Line:
    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float
    grey: float = 0.0
    line_pt: float = 0.5
    dashed: bool = False


@dataclass(frozen=True)
class Text:
    x_mm: float
    y_mm: float  # baseline
    text: str
    size_pt: float = 8.0
    anchor: Anchor = "start"
    grey: float = 0.0
    bold: bool = False
    upside_down: bool = False  # turned 180 degrees about (x, y): readable from the far side


Element = MarkerSquare | Box | Line | Text


@dataclass
class Layer:
    """Elements shifted by (dx, dy) and, when `clip` is set, cut to that sheet rectangle."""

    elements: list[Element]
    dx_mm: float = 0.0
    dy_mm: float = 0.0
    clip: tuple[float, float, float, float] | None = None


@dataclass
class Sheet:
    width_mm: float
    height_mm: float
    layers: list[Layer] = field(default_factory=list)

    def add(self, *elements: Element) -> None:
        """Add unshifted, unclipped elements (sheet furniture, stickers)."""
        if (
            not self.layers
            or self.layers[-1].clip
            or self.layers[-1].dx_mm
            or self.layers[-1].dy_mm
        ):
            self.layers.append(Layer([]))
        self.layers[-1].elements.extend(elements)

    def markers(self) -> list[MarkerSquare]:
        """Every marker fully on the sheet, with its position in sheet millimetres."""
        found: list[MarkerSquare] = []
        for layer in self.layers:
            for e in layer.elements:
                if not isinstance(e, MarkerSquare):
                    continue
                x, y = e.x_mm + layer.dx_mm, e.y_mm + layer.dy_mm
                if layer.clip is not None:
                    cx, cy, cw, ch = layer.clip
                    if x < cx or y < cy or x + e.side_mm > cx + cw or y + e.side_mm > cy + ch:
                        continue
                found.append(MarkerSquare(e.kind, e.text, e.modules, x, y, e.side_mm))
        return found
