"""The play mat at true scale: zones drawn and named, corner markers where the layout says,
tiled over several sheets with overlap and alignment marks when it is larger than the paper.

Mat coordinates are the layout's millimetres (origin at the mat's top-left corner, y down).
Each tile shows a window of the mat; neighbouring windows overlap by at least
`MAT_OVERLAP_MM`. In the middle of every overlap a dashed line and crosses are drawn at the
same mat position on both sheets: cut the later sheet on the dashed line, lay it over the
earlier one and match the half crosses on its edge with the whole crosses beneath.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from companion.markers.render import aruco_modules
from companion.printing.furniture import content_area, new_sheet
from companion.printing.labels import fit_label, text_width_mm
from companion.printing.paper import Paper
from companion.printing.sheet import Box, Element, Layer, Line, MarkerSquare, Sheet, Text
from companion.printing.sizes import MAT_OVERLAP_MM

CROSS_MM = 5.0
"""Half the arm length of an alignment cross."""
CROSS_SPACING_MM = 60.0
ZONE_LABEL_PT = 9.0
ZONE_NAME_PT = 7.5
ZONE_ID_PT = 5.5


class ZoneLike(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def x_mm(self) -> float: ...
    @property
    def y_mm(self) -> float: ...
    @property
    def w_mm(self) -> float: ...
    @property
    def h_mm(self) -> float: ...
    @property
    def label_en(self) -> str: ...
    @property
    def label_de(self) -> str: ...


class CornerLike(Protocol):
    @property
    def index(self) -> int: ...
    @property
    def marker_id(self) -> int: ...
    @property
    def x_mm(self) -> float: ...
    @property
    def y_mm(self) -> float: ...
    @property
    def size_mm(self) -> float: ...


class MatLike(Protocol):
    """What the printer needs of `companion.layouts.MatLayout`."""

    @property
    def width_mm(self) -> float: ...
    @property
    def height_mm(self) -> float: ...
    @property
    def zones(self) -> Mapping[str, ZoneLike]: ...
    @property
    def corners(self) -> Sequence[CornerLike]: ...


@dataclass(frozen=True)
class TilePlan:
    """How a mat is cut into sheets: `cols` x `rows` windows of `window_w` x `window_h` mm."""

    paper: Paper  # oriented as printed
    cols: int
    rows: int
    xs: tuple[float, ...]  # mat x of each column's window (left edge)
    ys: tuple[float, ...]  # mat y of each row's window (top edge)
    window_w_mm: float
    window_h_mm: float

    @property
    def sheets(self) -> int:
        return self.cols * self.rows

    def overlaps_x(self) -> list[float]:
        """Mat x of the middle of each overlap between neighbouring columns."""
        return [(self.xs[c + 1] + self.xs[c] + self.window_w_mm) / 2 for c in range(self.cols - 1)]

    def overlaps_y(self) -> list[float]:
        return [(self.ys[r + 1] + self.ys[r] + self.window_h_mm) / 2 for r in range(self.rows - 1)]


def _windows(length: float, window: float) -> tuple[float, ...]:
    """Window starts covering [0, length], evenly spread, overlapping >= MAT_OVERLAP_MM."""
    if length <= window:
        return (-(window - length) / 2,)
    n = 1 + math.ceil((length - window) / (window - MAT_OVERLAP_MM))
    step = (length - window) / (n - 1)
    return tuple(i * step for i in range(n))


def plan_tiles(width_mm: float, height_mm: float, paper: Paper) -> TilePlan:
    """The tiling with the fewest sheets (portrait or landscape; portrait on a tie)."""
    best: TilePlan | None = None
    for oriented in (paper, paper.landscape()):
        _, _, w, h = content_area(oriented)
        xs, ys = _windows(width_mm, w), _windows(height_mm, h)
        plan = TilePlan(oriented, len(xs), len(ys), xs, ys, w, h)
        if best is None or plan.sheets < best.sheets:
            best = plan
    assert best is not None
    return best


def zone_elements(zone: ZoneLike) -> list[Element]:
    """A zone's outline and its names for people, fitted into the zone: the English name in
    bold, the German name below it, and last, small and grey, the id table scripts use.

    p2 sits at the far (top) edge, so p2's labels are turned 180 degrees to read from there.
    """
    inner = zone.w_mm - 3.0
    lines: list[tuple[str, float, float, bool]] = [(zone.label_en, ZONE_LABEL_PT, 0.1, True)]
    if zone.label_de and zone.label_de != zone.label_en:
        lines.append((zone.label_de, ZONE_NAME_PT, 0.25, False))
    id_pt = min(ZONE_ID_PT, ZONE_ID_PT * inner / max(text_width_mm(zone.id, ZONE_ID_PT), 1))
    lines.append((zone.id, id_pt, 0.55, False))  # scaled, never cut: scripts name zones so
    elements: list[Element] = [
        Box(zone.x_mm, zone.y_mm, zone.w_mm, zone.h_mm, stroke_grey=0.35, line_pt=0.8),
    ]
    x, y = zone.x_mm + 1.5, zone.y_mm + 1.5
    for text, size, grey, bold in lines:
        y += size * 0.3528 + (0.0 if len(elements) == 1 else 0.8)
        if len(elements) > 1 and y >= zone.y_mm + zone.h_mm - 1.0:
            break
        shown = text if text == zone.id else fit_label(text, inner, size)
        elements.append(Text(x, y, shown, size_pt=size, grey=grey, bold=bold))
    if zone.id.startswith("p2."):
        cx, cy = zone.x_mm + zone.w_mm / 2, zone.y_mm + zone.h_mm / 2
        elements = [
            replace(e, x_mm=2 * cx - e.x_mm, y_mm=2 * cy - e.y_mm, upside_down=True)
            if isinstance(e, Text)
            else e
            for e in elements
        ]
    return elements


def corner_element(corner: CornerLike) -> MarkerSquare:
    half = corner.size_mm / 2
    return MarkerSquare(
        "aruco",
        str(corner.marker_id),
        aruco_modules(corner.marker_id),
        corner.x_mm - half,
        corner.y_mm - half,
        corner.size_mm,
    )


def alignment_elements(layout: MatLike, plan: TilePlan) -> list[Element]:
    """Dashed cut lines and crosses in the middle of every overlap, in mat coordinates."""
    elements: list[Element] = []
    w, h = layout.width_mm, layout.height_mm
    for x in plan.overlaps_x():
        elements.append(Line(x, 0, x, h, grey=0.5, line_pt=0.4, dashed=True))
        n = max(2, round(h / CROSS_SPACING_MM))
        for i in range(n):
            elements += _cross(x, h * (i + 0.5) / n)
    for y in plan.overlaps_y():
        elements.append(Line(0, y, w, y, grey=0.5, line_pt=0.4, dashed=True))
        n = max(2, round(w / CROSS_SPACING_MM))
        for i in range(n):
            elements += _cross(w * (i + 0.5) / n, y)
    return elements


def _cross(x: float, y: float) -> list[Element]:
    return [
        Line(x - CROSS_MM, y, x + CROSS_MM, y, line_pt=0.3),
        Line(x, y - CROSS_MM, x, y + CROSS_MM, line_pt=0.3),
    ]


def mat_elements(layout: MatLike, plan: TilePlan) -> list[Element]:
    elements: list[Element] = [
        Box(0, 0, layout.width_mm, layout.height_mm, stroke_grey=0.2, line_pt=0.6)
    ]
    for zone in layout.zones.values():
        elements += zone_elements(zone)
    elements += [corner_element(c) for c in layout.corners]
    elements += alignment_elements(layout, plan)
    return elements


@dataclass(frozen=True)
class MatTile:
    row: int
    col: int
    sheet: Sheet
    mat_x_mm: float  # mat coordinates of the sheet's origin: sheet mm - (mat_x, mat_y) = mat mm
    mat_y_mm: float


def mat_tiles(layout: MatLike, paper: Paper, title: str) -> list[MatTile]:
    """Every tile of the mat as a sheet, row by row."""
    plan = plan_tiles(layout.width_mm, layout.height_mm, paper)
    elements = mat_elements(layout, plan)
    area_x, area_y, area_w, area_h = content_area(plan.paper)
    tiles: list[MatTile] = []
    for r, y0 in enumerate(plan.ys):
        for c, x0 in enumerate(plan.xs):
            number = r * plan.cols + c + 1
            heading = (
                f"{title}: row {r + 1}, column {c + 1} of {plan.rows} x {plan.cols}"
                if plan.sheets > 1
                else title
            )
            sheet = new_sheet(plan.paper, heading, number, plan.sheets)
            dx, dy = area_x - x0, area_y - y0
            sheet.layers.append(Layer(elements, dx, dy, clip=(area_x, area_y, area_w, area_h)))
            if plan.sheets > 1:
                sheet.add(
                    Text(
                        area_x,
                        area_y - 1.5,
                        "Cut the later sheet on a dashed line, lay "
                        "it over the earlier one, match the crosses.",
                        size_pt=6,
                    )
                )
            tiles.append(MatTile(r, c, sheet, -dx, -dy))
    return tiles
