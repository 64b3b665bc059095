"""The simulator draws the stickers `companion print stickers` prints: the big-cell code by
default on every realistic preset, Micro QR only on the labelled legacy row (or on request).

The oracle is the printed grid itself (`companion.markers.bigcell.symbol_cells`), sampled at
the cell centres of a straight-down picture of the ideal look, not the renderer's own code."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.layouts import load_layout
from companion.markers import bigcell
from companion.markers.payload import encode_front
from companion.markers.render import DEFAULT_SYMBOLOGY
from companion.printing.stickers import PrintedCard, front_specs
from companion.sim.camera import CameraProfile, Degradation, overhead_rig, project
from companion.sim.optics import Conditions
from companion.sim.physical import PhysicalRenderer
from companion.sim.presets import LOOKS, make_renderer
from companion.sim.render import Scene, SceneCard, TableRenderer

PAYLOAD = encode_front(5, 12, 1)
CELL_MM = 25.0 / bigcell.CELLS


@pytest.fixture(scope="module")
def layout():
    return load_layout("creature-crush")


def _cell_centres(x_mm: float, y_mm: float) -> np.ndarray:
    k = (np.arange(bigcell.CELLS) - (bigcell.CELLS - 1) / 2) * CELL_MM
    xs, ys = np.meshgrid(x_mm + k, y_mm + k)
    return np.stack([xs.ravel(), ys.ravel()], axis=1)


def _matches_some_orientation(dark: np.ndarray, cells: np.ndarray) -> bool:
    for flip in (False, True):
        grid = np.fliplr(cells) if flip else cells
        for turns in range(4):
            if (np.rot90(grid, turns) == dark).all():
                return True
    return False


def test_the_printed_default_is_what_the_simulator_draws(layout) -> None:
    printed = front_specs("creature-crush", [PrintedCard("CC-001", "x", 12, 1)])[0]
    assert printed.symbology == DEFAULT_SYMBOLOGY == "bigcell"
    assert make_renderer(layout, "overhead-webcam-1080p").symbology == "bigcell"
    assert make_renderer(layout, "laptop-720p-mirror").symbology == "bigcell"
    assert make_renderer(layout, "easy").symbology == "microqr"  # the legacy row
    assert make_renderer(layout, "easy", symbology="bigcell").symbology == "bigcell"


def test_the_realistic_renderer_draws_the_big_cell_grid(layout) -> None:
    rig = overhead_rig(1920, 1080, 70.0, 400.0, 0.0, (300.0, 200.0))
    renderer = PhysicalRenderer(layout, rig, LOOKS["ideal"], seed=3,
                                conditions=replace(Conditions(auto_exposure=False)))
    card = SceneCard("a", PAYLOAD, True, 300.0, 200.0, 0.0, "x")
    frame = renderer.render(Scene(cards=(card,)), (), 0, jpeg=False)
    gray = frame.image.mean(axis=2)
    uv = np.round(rig.project(np.c_[_cell_centres(300.0, 200.0), np.full(64, 0.55)]))
    values = gray[uv[:, 1].astype(int), uv[:, 0].astype(int)].reshape(8, 8)
    dark = values < (values.max() + values.min()) / 2
    assert _matches_some_orientation(dark, bigcell.symbol_cells(PAYLOAD))
    truth = next(m for m in frame.truth.markers if m.key == "a")
    side = np.linalg.norm(uv[7] - uv[0]) / 7 * 8  # 8 cells across the symbol
    assert truth.px_per_module == pytest.approx(side / bigcell.MODULES, rel=0.05)


def test_the_legacy_renderer_draws_big_cell_when_asked(layout) -> None:
    camera = replace(CameraProfile.named("1080p", 0.0), margin=0.03)
    renderer = TableRenderer(layout, camera, Degradation.clean(), "bigcell", seed=1)
    card = SceneCard("a", PAYLOAD, True, 300.0, 200.0, 0.0, "x")
    frame = renderer.render(Scene(cards=(card,)), (), 0)
    gray = frame.image if frame.image.ndim == 2 else frame.image.mean(axis=2)
    uv = np.round(project(renderer.mat_to_image, _cell_centres(300.0, 200.0)))
    values = gray[uv[:, 1].astype(int), uv[:, 0].astype(int)].reshape(8, 8)
    dark = values < (values.max() + values.min()) / 2
    assert _matches_some_orientation(dark, bigcell.symbol_cells(PAYLOAD))
    truth = next(m for m in frame.truth.markers if m.key == "a")
    assert truth.visible
    side = np.linalg.norm(uv[7] - uv[0]) / 7 * 8
    assert truth.px_per_module == pytest.approx(side / bigcell.MODULES, rel=0.05)


def test_the_script_source_and_so_the_demo_draw_the_printed_stickers(repo_root) -> None:
    from companion.sim.script import load_script
    from companion.sim.source import ScriptFrameSource

    script = load_script(repo_root / "companion/sim/scripts/creature-crush/opening.yaml")
    sources = {name: ScriptFrameSource(script, preset=name, seed=1)
               for name in (None, "phone-holder-1080p", "easy")}
    try:
        drawn = {name: s.player.renderer.symbology for name, s in sources.items()}
        assert drawn == {None: "bigcell", "phone-holder-1080p": "bigcell", "easy": "microqr"}
        frame = sources[None].read()
        assert frame is not None and any(m.kind == "card" for m in frame.truth.markers)
    finally:
        for s in sources.values():
            s.close()
