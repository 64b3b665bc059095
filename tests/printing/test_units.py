"""Sheet geometry without rendering: tiling, grids, labels, ink runs, sizes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import GAMES
from companion.layouts import load_layout
from companion.printing.grid import fit_grid
from companion.printing.labels import fit_label, text_width_mm
from companion.printing.mat import mat_elements, plan_tiles
from companion.printing.paper import PAPERS
from companion.printing.pdf import ink_runs
from companion.printing.sheet import Box, MarkerSquare, Text
from companion.printing.sizes import (
    MAT_OVERLAP_MM,
    MICRO_QR_M2_MODULES,
    STICKER_MM,
    STICKER_OUTER_MM,
    STICKER_QUIET_MODULES,
)
from companion.printing.stickers import PrintedCard, front_specs, sticker_cell


@given(st.floats(100, 1200), st.floats(100, 900), st.sampled_from(sorted(PAPERS)))
def test_tiles_cover_the_mat_with_overlap(width: float, height: float, paper: str) -> None:
    plan = plan_tiles(width, height, PAPERS[paper])
    for starts, window, length in (
        (plan.xs, plan.window_w_mm, width),
        (plan.ys, plan.window_h_mm, height),
    ):
        assert starts[0] <= 1e-9 and starts[-1] + window >= length - 1e-9
        for a, b in itertools.pairwise(starts):
            assert a + window - b >= MAT_OVERLAP_MM - 1e-9  # neighbours overlap enough
        if len(starts) > 1:  # one fewer tile could not cover it
            assert (len(starts) - 1) * (window - MAT_OVERLAP_MM) + MAT_OVERLAP_MM < length
    assert plan.sheets == plan.cols * plan.rows


@given(st.lists(st.booleans(), max_size=40))
def test_ink_runs_rebuild_the_row(row: list[bool]) -> None:
    rebuilt = [False] * len(row)
    for start, length in ink_runs(np.array(row, dtype=bool)):
        assert length > 0
        rebuilt[start : start + length] = [True] * length
    assert rebuilt == row


@given(st.text(min_size=1, max_size=60), st.floats(5, 40))
def test_labels_fit_their_width(text: str, width: float) -> None:
    label = fit_label(text, width, 5.0)
    assert label == text or text_width_mm(label, 5.0) <= width or len(label) == 1


@given(st.floats(20, 60), st.floats(20, 60), st.floats(0, 5))
def test_grid_cells_stay_inside_the_area(w: float, h: float, gap: float) -> None:
    area = (10.0, 20.0, 190.0, 250.0)
    grid = fit_grid(area, w, h, gap, group=6)
    x0, y0 = grid.cell_origin(0)
    x1, y1 = grid.cell_origin(grid.per_sheet - 1)
    assert x0 >= area[0] - 1e-9 and y0 >= area[1] - 1e-9
    assert x1 + w <= area[0] + area[2] + 1e-9 and y1 + h <= area[1] + area[3] + 1e-9


@pytest.mark.parametrize(("symbology", "modules"), [("bigcell", 16), ("microqr", 13)])
def test_sticker_symbol_is_the_measured_size_inside_its_quiet_zone(symbology: str,
                                                                   modules: int) -> None:
    (spec,) = front_specs("creature-crush", [PrintedCard("CC-001", "Testling", 1, 2)],
                          symbology)  # type: ignore[arg-type]
    box, marker, label = sticker_cell(spec, 0.0, 0.0)
    assert marker.modules.shape[0] == modules
    assert abs(marker.side_mm - STICKER_MM) < 1e-9  # symbol side, as layouts and simulator mean it
    quiet = STICKER_QUIET_MODULES * marker.module_mm
    assert abs(marker.x_mm - quiet) < 1e-9 and abs(marker.side_mm + 2 * quiet - box.w_mm) < 1e-9
    assert isinstance(box, Box) and box.w_mm <= STICKER_OUTER_MM + 1e-9
    assert isinstance(label, Text) and "CC-001 #2 Testling" in label.text


def test_payloads_beyond_the_big_cell_code_print_as_micro_qr() -> None:
    big, beyond = front_specs("fire-emblem-cipher", [
        PrintedCard("B01-001", "Marth", 1, 9),  # a ninth copy: over the code's 8
        PrintedCard("B01-001", "Marth", 1, 2)])[::-1]
    assert sticker_cell(big, 0, 0)[1].modules.shape[0] == 16
    assert sticker_cell(beyond, 0, 0)[1].modules.shape[0] == MICRO_QR_M2_MODULES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_mat_draws_every_zone_and_corner_where_the_layout_says(game: str) -> None:
    layout = load_layout(game)
    plan = plan_tiles(layout.width_mm, layout.height_mm, PAPERS["a4"])
    elements = mat_elements(layout, plan)
    boxes = {(e.x_mm, e.y_mm, e.w_mm, e.h_mm) for e in elements if isinstance(e, Box)}
    texts = {e.text for e in elements if isinstance(e, Text)}
    for zone in layout.zones.values():
        assert (zone.x_mm, zone.y_mm, zone.w_mm, zone.h_mm) in boxes
        assert zone.label_en in texts  # the name for people, not the id, comes first
        first = next(e for e in elements if isinstance(e, Text) and e.text == zone.label_en)
        assert first.bold and first.size_pt > max(e.size_pt for e in elements
                                                 if isinstance(e, Text) and e.text == zone.id)
    markers = {int(e.text): e.centre_mm for e in elements if isinstance(e, MarkerSquare)}
    assert markers == {c.marker_id: (c.x_mm, c.y_mm) for c in layout.corners}
    for x in plan.overlaps_x():  # alignment marks lie in both neighbouring windows
        assert sum(x0 <= x <= x0 + plan.window_w_mm for x0 in plan.xs) == 2
