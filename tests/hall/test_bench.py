"""`companion bench hall` end to end on a small scale: the figures come from real
deliveries, and the fault run's checks find nothing lost or doubled."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hall.bench import record_script, run_faults, run_load

pytestmark = pytest.mark.slow


def test_script_games_keep_every_recorded_event(tmp_path: Path) -> None:
    game = record_script("challengers", tmp_path)
    assert game.header.game == "challengers" and len(game.steps) >= 10
    assert all(step for step in game.steps)
    kinds = {kind for step in game.steps for kind, _, _ in step}
    assert "move" in kinds


def test_small_load_and_faults(tmp_path: Path) -> None:
    games = [record_script("trick-or-beat", tmp_path)]
    load = run_load(3, speed=20.0, seconds=3.0, games=games)
    assert load["committed"] > 0 and load["drained"]
    assert load["delivered"] == load["committed"] and load["undelivered"] == 0
    assert load["duplicates"] == 0 and load["p50_ms"] <= load["p99_ms"] <= load["max_ms"]
    faults = run_faults(2, speed=20.0, cut_s=2.0, games=games, lead_s=2.0)
    assert faults["cut_table_changes_during_cut"] > 0  # play went on behind the cut
    assert faults["view_complete"] and faults["view_duplicates"] == 0
    assert faults["events"] > 0 and faults["lost"] == 0 and faults["doubled"] == 0
