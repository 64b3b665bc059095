"""`companion referee` over every bundled table script of every game that has a ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import cli
from companion.games import RULESETS
from companion.referee.script import referee_script

SCRIPTS = Path(__file__).resolve().parents[2] / "companion" / "sim" / "scripts"
BUNDLED = sorted(p for g in RULESETS for p in (SCRIPTS / g).glob("*.yaml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_script_meets_its_expectations(path: Path) -> None:
    report = referee_script(str(path))
    assert report.failures == []
    assert any(s.moves for s in report.steps)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_illegal_step_names_its_violations(path: Path) -> None:
    """Exact expectations: a bundled script never says just "illegal"; it names the rules
    broken, so an extra violation (or a missing one) fails the script."""
    from companion.sim.script import load_script

    for step in load_script(path).steps:
        if step.expect.get("legal") is False:
            assert step.expect.get("violations"), f"{path.name}:{step.line} names no code"


def test_an_extra_violation_fails_a_script(tmp_path: Path) -> None:
    source = (SCRIPTS / "trick-or-beat" / "opening.yaml").read_text()
    fewer = source.replace("violations: [tob.summon-active, tob.lane-full]",
                           "violations: [tob.summon-active]")
    assert fewer != source
    path = tmp_path / "fewer.yaml"
    path.write_text(fewer)
    failures = referee_script(str(path)).failures
    assert any("expected violations ['tob.summon-active'], got ['tob.lane-full', "
               "'tob.summon-active']" in f for f in failures)
    quiet = source.replace("    expect: {legal: false, violations: [tob.summon-active, "
                           "tob.lane-full]}\n", "")
    path.write_text(quiet)
    failures = referee_script(str(path)).failures
    assert any("unexpected violations" in f for f in failures)


def test_rule_scripts_cover_legal_and_illegal_cases() -> None:
    rules = [p for p in BUNDLED if p.name.startswith("rules-")]
    assert len(rules) >= 8
    expectations = [
        step for p in rules for step in referee_script(str(p)).steps if step.moves
    ]
    assert any(s.legal for s in expectations) and any(not s.legal for s in expectations)


def test_cli_reports_failed_expect_with_file_and_line(tmp_path: Path) -> None:
    source = (SCRIPTS / "trick-or-beat" / "rules-summon-lanes.yaml").read_text()
    broken = source.replace("expect: {legal: false, violations: [tob.summon-active]}",
                            "expect: {legal: true}")
    path = tmp_path / "broken.yaml"
    path.write_text(broken)
    line = broken.splitlines().index(
        next(x for x in broken.splitlines() if "TOB-040: p1.active" in x)) + 1
    result = CliRunner().invoke(cli, ["referee", str(path)])
    assert result.exit_code == 1
    assert f"broken.yaml:{line}: step 3: expected legal: True, got False" in result.output


def test_cli_json_report() -> None:
    path = SCRIPTS / "trick-or-beat" / "rules-beat-win.yaml"
    result = CliRunner().invoke(cli, ["referee", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ok"] and data["steps"][0]["winner"] == "p1"
    assert data["steps"][1]["moves"][0]["violations"][0]["code"] == "game.over"
    assert data["steps"][0]["refused"] == []


def test_cli_unknown_game_script_is_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("game: chess\nsteps: []\n")
    result = CliRunner().invoke(cli, ["referee", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_dealing_seen_as_pile_top_changes(tmp_path: Path) -> None:
    ids = [f"TOB-{n:03d}" for n in range(1, 41)]
    path = tmp_path / "deal.yaml"
    path.write_text(
        "game: trick-or-beat\nplayers: [Ada, Bo]\nfirst: p1\nseed: 3\n"
        f"decks: {{shared: [{', '.join(ids)}]}}\n"
        "steps:\n"
        "  - draw: {p1: 15}\n    expect: {legal: true, hands: {p1: 15, p2: 15}}\n"
        "  - draw: {p2: 15}\n    expect: {legal: true, hands: {p1: 15, p2: 15}}\n"
    )
    report = referee_script(str(path))
    assert report.failures == []
    assert [e.move.kind for e in report.steps[0].moves] == ["deal", "deal"]
    assert report.steps[1].moves == []
