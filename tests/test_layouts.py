"""Mat layouts: every DESIGN zone present, geometry sound, zone_at exact, broken files precise."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES, game_info
from companion.layouts import LayoutError, load_layout, parse_layout
from companion.markers.payload import corner_id


def _each(*names: str) -> set[str]:
    return {f"{p}.{n}" for p in ("p1", "p2") for n in names}


# Written out from DESIGN.md "Zone ids", independently of companion.layouts.REQUIRED_ZONES.
DESIGN_ZONES = {
    "trick-or-beat": {"shared.deck", "shared.discard"} | _each("active", "passive", "trick"),
    "fire-emblem-cipher": _each("deck", "bonds", "front", "back", "support", "retreat", "orbs"),
    "my-little-pony-ccg": _each("deck", "discard", "problem-deck", "problem", "home"),
    "challengers": _each("deck", "play", "bench1", "bench2", "bench3", "bench4", "bench5",
                         "bench6", "rest", "trophies"),
    "creature-crush": _each("lager", "hell", "A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2",
                            "C3", "dice", "burned"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_layout_has_every_design_zone(game: str) -> None:
    layout = load_layout(game)
    assert layout.game == game
    assert DESIGN_ZONES[game] <= set(layout.zones)
    for zone_id, zone in layout.zones.items():
        assert zone.id == zone_id == f"{zone.owner}.{zone.name}"
        assert zone.owner in ("p1", "p2", "shared")
        assert zone.kind in ("pile", "area", "slot")
        assert zone.label_en and zone.label_de


@pytest.mark.parametrize("game", sorted(GAMES))
def test_zones_inside_the_mat_and_disjoint(game: str) -> None:
    layout = load_layout(game)
    assert layout.width_mm <= 600 and layout.height_mm <= 400
    zones = list(layout.zones.values())
    for z in zones:
        assert z.x_mm >= 0 and z.x_mm + z.w_mm <= layout.width_mm
        assert z.y_mm >= 0 and z.y_mm + z.h_mm <= layout.height_mm
    for i, a in enumerate(zones):
        for b in zones[i + 1:]:
            apart = (a.x_mm + a.w_mm <= b.x_mm or b.x_mm + b.w_mm <= a.x_mm
                     or a.y_mm + a.h_mm <= b.y_mm or b.y_mm + b.h_mm <= a.y_mm)
            assert apart, f"{a.id} overlaps {b.id}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_corner_markers_lie_in_the_mat_corners_outside_every_zone(game: str) -> None:
    layout = load_layout(game)
    assert [c.index for c in layout.corners] == [0, 1, 2, 3]
    code = game_info(game).code
    assert [c.marker_id for c in layout.corners] == [corner_id(code, i) for i in range(4)]
    for corner in layout.corners:
        half = corner.size_mm / 2
        assert 30 <= corner.size_mm <= 50
        assert half <= corner.x_mm <= layout.width_mm - half
        assert half <= corner.y_mm <= layout.height_mm - half
        for dx in (-half, 0.0, half - 0.01):
            for dy in (-half, 0.0, half - 0.01):
                assert layout.zone_at(corner.x_mm + dx, corner.y_mm + dy) is None
    xs = sorted(c.x_mm for c in layout.corners)
    assert xs[0] < layout.width_mm / 4 and xs[-1] > 3 * layout.width_mm / 4


@pytest.mark.parametrize("game", sorted(GAMES))
def test_p2_zones_are_p1_zones_turned_half_round(game: str) -> None:
    layout = load_layout(game)
    for zone in layout.zones_of("p1"):
        twin = layout.zones[f"p2.{zone.name}"]
        assert twin.x_mm == pytest.approx(layout.width_mm - zone.x_mm - zone.w_mm)
        assert twin.y_mm == pytest.approx(layout.height_mm - zone.y_mm - zone.h_mm)
        assert zone.y_mm >= layout.height_mm / 2  # p1 sits at the bottom edge
    assert len(layout.zones_of("p1")) == len(layout.zones_of("p2"))


@st.composite
def _point_in_zone(draw: st.DrawFn) -> tuple[str, str, float, float]:
    game = draw(st.sampled_from(sorted(GAMES)))
    layout = load_layout(game)
    zone = layout.zones[draw(st.sampled_from(sorted(layout.zones)))]
    fx = draw(st.floats(0, 0.999))
    fy = draw(st.floats(0, 0.999))
    return game, zone.id, zone.x_mm + fx * zone.w_mm, zone.y_mm + fy * zone.h_mm


@settings(max_examples=300, deadline=None)
@given(_point_in_zone())
def test_zone_at_finds_the_zone_of_any_point_inside_it(case: tuple[str, str, float, float]
                                                      ) -> None:
    game, zone_id, x, y = case
    assert load_layout(game).zone_at(x, y) == zone_id


def test_zone_at_outside_the_mat_is_none() -> None:
    layout = load_layout("creature-crush")
    assert layout.zone_at(-1, 200) is None
    assert layout.zone_at(layout.width_mm + 1, 200) is None


def test_card_sized_zones_hold_a_card_centred_in_them() -> None:
    """Piles and slots are at least as wide as a card's half, so a centred card reads there."""
    for game in GAMES:
        layout = load_layout(game)
        for zone in layout.zones.values():
            if zone.kind in ("pile", "slot"):
                assert zone.w_mm >= layout.card_w_mm / 2 and zone.h_mm >= 40


# ----- broken files --------------------------------------------------------------------------

def _layout_text(repo_root: Path, game: str = "creature-crush") -> str:
    return (repo_root / "calibration" / "layouts" / f"{game}.yaml").read_text(encoding="utf-8")


def _line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_overlapping_zones_are_reported_at_the_zone(repo_root: Path) -> None:
    text = _layout_text(repo_root).replace(
        "A2: {kind: slot, x_mm: 265,", "A2: {kind: slot, x_mm: 230,"
    )
    with pytest.raises(LayoutError) as info:
        parse_layout(text, "mat.yaml")
    assert "overlap" in str(info.value)
    assert info.value.line == _line_of(text, "A2: {kind")
    assert str(info.value).startswith(f"mat.yaml:{info.value.line}: ")


def test_missing_design_zone_is_named(repo_root: Path) -> None:
    text = "\n".join(
        line for line in _layout_text(repo_root).splitlines() if "burned:" not in line
    )
    with pytest.raises(LayoutError, match=r"missing zones .*p1\.burned"):
        parse_layout(text, "mat.yaml")


def test_zone_outside_the_mat_is_reported(repo_root: Path) -> None:
    text = _layout_text(repo_root).replace("hell: {kind: pile, x_mm: 490", "hell: {kind: pile, "
                                           "x_mm: 560")
    with pytest.raises(LayoutError, match="inside") as info:
        parse_layout(text, "mat.yaml")
    assert info.value.line == _line_of(text, "hell: {kind")


def test_zone_on_a_corner_marker_is_reported(repo_root: Path) -> None:
    text = _layout_text(repo_root).replace("burned: {kind: area, x_mm: 60, y_mm: 300, w_mm: 125,"
                                           " h_mm: 50", "burned: {kind: area, x_mm: 10, "
                                           "y_mm: 300, w_mm: 175, h_mm: 80")
    with pytest.raises(LayoutError, match="corner marker") as info:
        parse_layout(text, "mat.yaml")
    assert info.value.line == _line_of(text, "burned: {kind")


def test_bad_kind_and_bad_yaml_are_reported_with_lines(repo_root: Path) -> None:
    text = _layout_text(repo_root).replace("lager: {kind: pile", "lager: {kind: heap")
    with pytest.raises(LayoutError, match="kind must be one of") as info:
        parse_layout(text, "mat.yaml")
    assert info.value.line == _line_of(text, "lager: {kind")
    with pytest.raises(LayoutError, match="not valid YAML") as info:
        parse_layout("game: creature-crush\nwidth_mm: [600\n", "mat.yaml")
    assert info.value.line is not None


def test_too_large_a_mat_is_refused(repo_root: Path) -> None:
    text = _layout_text(repo_root).replace("width_mm: 600", "width_mm: 700")
    with pytest.raises(LayoutError, match="larger than"):
        parse_layout(text, "mat.yaml")


def test_layout_for_another_game_is_refused(repo_root: Path) -> None:
    with pytest.raises(LayoutError, match="expected 'challengers'"):
        parse_layout(_layout_text(repo_root), "mat.yaml", "challengers")


# ----- camera profiles ------------------------------------------------------------------------

@pytest.mark.parametrize("name,width", [("default-1080p", 1920), ("default-720p", 1280)])
def test_default_camera_profiles(repo_root: Path, name: str, width: int) -> None:
    data = yaml.safe_load((repo_root / "calibration" / "cameras" / f"{name}.yaml").read_text())
    assert data["name"] == name
    assert data["resolution"][0] == width and data["resolution"][1] * 16 == width * 9
    assert 50 <= data["hfov_deg"] <= 90
    assert 600 <= data["height_mm"] <= 700
    assert 0 <= data["tilt_deg"] <= data["max_tilt_deg"] <= 35
    assert data["advice"]
    # the camera sees the largest mat whole from its typical height
    import math

    seen_w = 2 * data["height_mm"] * math.tan(math.radians(data["hfov_deg"] / 2))
    seen_h = seen_w * data["resolution"][1] / data["resolution"][0]
    assert seen_w >= 600 and seen_h >= 400
