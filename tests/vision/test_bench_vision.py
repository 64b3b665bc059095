"""`companion bench vision`: rows per camera, figures from the simulator's truth, no cycle."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from companion.benchmarks.vision import bench_vision, plan_rows, run_sequence
from companion.sim.presets import camera_kinds


def test_quick_rows_on_the_easy_and_a_realistic_camera() -> None:
    result = CliRunner().invoke(bench_vision, ["--quick", "--json", "--scenes", "1",
                                               "--no-sequence", "--camera", "easy",
                                               "--camera", "overhead-webcam-1080p"])
    assert result.exit_code == 0, result.output
    rows = {r["camera"]: r for r in json.loads(result.stdout)["rows"]}
    assert set(rows) == {"easy", "overhead-webcam-1080p"}
    easy = rows["easy"]
    assert easy["label"].startswith("easy")
    assert easy["cards_1f"] == 1.0 and easy["cards_settled"] == 1.0 and easy["zones"] == 1.0
    assert easy["wrong_cards"] == 0 and easy["mat_found"] == 1.0
    real = rows["overhead-webcam-1080p"]
    assert real["resolution"] == "1920x1080" and real["frames"] >= 12
    assert 3.0 < real["px_per_module"] < 5.0  # 25 mm / 13 modules at 53 cm, 30 degrees
    assert real["wrong_cards"] == 0
    assert easy["cards_near_half"] is None and real["cards_near_half"] is None  # not laptops
    # the same table built as a game builds it (cards first, a hand puts the dice on after)
    assert easy["cards_dice_after"] == 1.0 and 0.0 < real["cards_dice_after"] <= 1.0


def test_another_games_mat_with_cards_in_its_areas() -> None:
    """`--game`: the still scenes lay the other game's cards in its slots, piles and areas
    (several side by side); the cards are read on its mat, and there are no dice to put on."""
    from companion.benchmarks.vision import spread_table
    from companion.layouts import load_layout

    layout = load_layout("trick-or-beat")
    table = spread_table(layout, "trick-or-beat", 7)
    in_areas = [c for c in table.cards if layout.zones[c.zone].kind == "area"]
    assert len(in_areas) >= 6 and not table.dice
    assert len({c.zone for c in in_areas}) < len(in_areas)  # side by side in an area
    result = CliRunner().invoke(bench_vision, ["--quick", "--json", "--scenes", "1",
                                               "--no-sequence", "--camera",
                                               "overhead-webcam-1080p", "--game",
                                               "trick-or-beat"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (row,) = data["rows"]
    assert data["game"] == "trick-or-beat"
    assert row["cards_settled"] >= 0.8 and row["wrong_cards"] == 0
    assert row["cards_dice_after"] is None and row["dice_settled"] is None


def test_the_near_half_is_player_ones() -> None:
    """A laptop stands at player 1's edge of the mat: their zones are the near half."""
    from companion.benchmarks.vision import GAME, _near_half
    from companion.layouts import load_layout

    layout = load_layout(GAME)
    for zone in layout.zones:
        assert _near_half(layout, zone) == zone.startswith("p1."), zone


def test_unknown_camera_is_refused() -> None:
    result = CliRunner().invoke(bench_vision, ["--camera", "pinhole-9000"])
    assert result.exit_code != 0 and "unknown camera kind" in result.output


def test_every_pose_is_a_row_and_quick_takes_the_first() -> None:
    kinds = camera_kinds()
    full = plan_rows([*kinds, "easy"], quick=False)
    assert len(full) == sum(len(k.poses) for k in kinds.values()) + 1
    assert len(plan_rows([*kinds], quick=True)) == len(kinds)


def test_sequence_on_the_easy_camera_settles_right() -> None:
    from companion.sim.source import Timing

    s = run_sequence("easy", n_cards=10, steps=2, timing=Timing(settle_s=0.4, start_s=0.4))
    assert s.wrong_ids == 0 and s.settled_ok == 1.0 and s.fps > 0


def test_vision_never_imports_the_simulator() -> None:
    root = Path(__file__).resolve().parents[2] / "companion" / "vision"
    pattern = re.compile(r"^\s*(from|import)\s+companion\.(sim|benchmarks)\b", re.M)
    offenders = [p.name for p in root.rglob("*.py") if pattern.search(p.read_text())]
    assert not offenders


def test_nameless_dice_pair_with_the_real_die_of_their_colour_and_side_nearest() -> None:
    from companion.benchmarks.dice_match import pair_dice

    real = [("p1.w1", 100.0, 100.0), ("p1.w2", 130.0, 100.0), ("p1.r1", 160.0, 100.0)]
    # the camera named them the other way round: they pair by place, not by name
    seen = [("p1.w2", 101.0, 99.0), ("p1.w1", 129.0, 102.0), ("p1.r1", 190.0, 100.0),
            ("p2.w1", 160.0, 100.0), ("p1.w3", 112.0, 100.0), ("p1.w4", None, None)]
    pairs = pair_dice(seen, real)
    assert pairs == {0: "p1.w1", 1: "p1.w2"}  # too far (30 mm), another player, taken, unplaced
    # each real die once, the nearest first
    assert pair_dice([("p1.w1", 110.0, 100.0), ("p1.w2", 102.0, 100.0)], real) == {
        1: "p1.w1", 0: "p1.w2"}
    assert pair_dice([("p1.w1", 104.0, 100.0), ("p1.w2", 102.0, 100.0)],
                     real[:1]) == {1: "p1.w1"}


def test_a_value_dice_row_scores_dice_by_place() -> None:
    """`--dice values`: the camera names value-sticker dice itself, and a right value under
    another name counts as right; no die counts as wrong that is not."""
    result = CliRunner().invoke(bench_vision, ["--quick", "--json", "--scenes", "1",
                                               "--no-sequence", "--dice", "values",
                                               "--camera", "overhead-webcam-1080p"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)["rows"][0]
    assert row["dice_style"] == "values"
    assert row["dice_settled"] >= 0.9 and row["wrong_dice"] == 0
