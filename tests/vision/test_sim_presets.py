"""Camera kinds from calibration/cameras: what a broken file says, what a good one gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import DataFileError
from companion.sim.optics import Look
from companion.sim.presets import LOOKS, _load_kind, camera_kinds, make_renderer
from companion.sim.render import TableRenderer

GOOD = """name: t
kind: overhead
resolution: [1280, 720]
hfov_deg: 70
look: webcam
poses:
  - {height_mm: 500, tilt_deg: 10}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cam.yaml"
    path.write_text(text)
    return path


def test_a_good_camera_kind_loads(tmp_path: Path) -> None:
    kind = _load_kind(_write(tmp_path, GOOD))
    assert kind is not None and kind.poses[0].tilt_deg == 10 and not kind.mirror


@pytest.mark.parametrize("change,message", [
    (("kind: overhead", "kind: ceiling"), "kind must be overhead or laptop"),
    (("look: webcam", "look: cinema"), "unknown look 'cinema'"),
    (("hfov_deg: 70\n", ""), "camera kind needs"),
])
def test_a_broken_camera_kind_says_what_is_wrong(tmp_path: Path, change, message) -> None:
    with pytest.raises(DataFileError, match=message):
        _load_kind(_write(tmp_path, GOOD.replace(*change)))


def test_a_calibrate_only_profile_is_not_a_simulator_camera(tmp_path: Path) -> None:
    assert _load_kind(_write(tmp_path, "name: x\nhfov_deg: 70\n")) is None


def test_every_bundled_kind_has_a_look_and_poses() -> None:
    kinds = camera_kinds()
    assert len(kinds) >= 5
    for kind in kinds.values():
        assert kind.look in LOOKS and kind.poses


def test_easy_is_the_old_renderer_and_unknown_presets_are_refused() -> None:
    from companion.layouts import load_layout

    layout = load_layout("creature-crush")
    assert isinstance(make_renderer(layout, "easy"), TableRenderer)
    assert isinstance(make_renderer(layout, "legacy"), TableRenderer)
    with pytest.raises(ValueError, match="unknown camera preset"):
        make_renderer(layout, "pinhole-9000")


def test_looks_sample_inside_their_ranges() -> None:
    look = LOOKS["webcam"]
    for seed in range(20):
        c = look.sample(seed)
        assert look.jpeg_quality[0] <= c.jpeg_quality <= look.jpeg_quality[1]
        assert look.coc_px[0] <= c.coc_px <= look.coc_px[1]
        assert c.exposure <= look.exposure[1]
    assert Look("x").sample(1) == Look("x").sample(1)


def test_script_source_defaults_to_the_realistic_webcam_and_easy_on_request(repo_root) -> None:
    from companion.sim.physical import PhysicalRenderer
    from companion.sim.script import load_script
    from companion.sim.source import ScriptFrameSource

    script = load_script(repo_root / "companion/sim/scripts/creature-crush/opening.yaml")
    default = ScriptFrameSource(script, seed=1)
    assert isinstance(default.player.renderer, PhysicalRenderer)
    assert default.preset == "overhead-webcam-1080p"
    frame = default.read()
    assert frame is not None and frame.image.shape == (1080, 1920, 3) and frame.truth
    easy = ScriptFrameSource(script, preset="easy", seed=1)
    assert isinstance(easy.player.renderer, TableRenderer)
    laptop = ScriptFrameSource(script, preset="laptop-720p-mirror", seed=1)
    assert laptop.read().image.shape == (720, 1280, 3)  # type: ignore[union-attr]
    for source in (default, easy, laptop):
        source.close()
