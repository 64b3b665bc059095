"""The engine benchmark runs and reports sane figures (targets are checked by the bench)."""

from __future__ import annotations

from click.testing import CliRunner

from companion.benchmarks.engine import measure
from companion.cli import cli


def test_measure_small() -> None:
    figures = measure("trick-or-beat", events=400, rounds=2)
    assert figures.moves >= 400 and figures.replay_events >= 400
    assert 0 <= figures.check_p50_ms <= figures.check_p99_ms
    assert 0 <= figures.apply_p50_ms <= figures.apply_p99_ms
    assert figures.replay_s > 0
    assert figures.snapshots == 2 * 22  # the opening's steps, twice
    assert 0 < figures.interpret_p50_ms <= figures.interpret_p99_ms
    assert figures.inferred > 0


def test_cli_json() -> None:
    result = CliRunner().invoke(cli, ["bench", "engine", "--json", "--game", "trick-or-beat",
                                      "--events", "200", "--rounds", "1"])
    assert result.exit_code == 0, result.output
    assert '"check_p99_ms"' in result.output and '"interpret_p99_ms"' in result.output
