"""`companion referee --camera-only`: the bundled scripts without their phase and turn presses.

A camera cannot see "next phase" or "end turn". Every bundled script must meet all its
expectations with the presses left out (the engine infers the ends of phases and turns from
what the table shows), and every step a script marks illegal must still be illegal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import cli
from companion.games import RULESETS
from companion.referee.script import camera_steps, referee_script
from companion.sim.script import load_script

SCRIPTS = Path(__file__).resolve().parent.parent / "companion" / "sim" / "scripts"
BUNDLED = sorted(p for g in RULESETS for p in (SCRIPTS / g).glob("*.yaml"))
PRESSES = ("next-phase", "pass")


def _breaks(expect: dict[str, object]) -> bool:
    return expect.get("legal") is False or bool(expect.get("violations"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_script_holds_without_presses(path: Path) -> None:
    report = referee_script(str(path), camera_only=True)
    assert report.failures == []
    script = load_script(path)
    by_index = {s.index: s for s in script.steps}
    for step in report.steps:
        source = by_index[step.index]
        presses = [e for e in step.moves if e.source == "person" and e.move.kind in PRESSES]
        if not _breaks(source.expect) and not source.declare:
            assert presses == [], f"step {step.index} pressed {presses}"
        if _breaks(source.expect):
            assert not step.legal, f"step {step.index} is meant to break a rule"


def test_openings_are_played_without_any_press_and_the_engine_moves_on() -> None:
    for game in sorted(RULESETS):
        report = referee_script(str(SCRIPTS / game / "opening.yaml"), camera_only=True)
        entries = [e for s in report.steps for e in s.moves]
        assert not [e for e in entries if e.move.kind in PRESSES and e.source == "person"]
        inferred = [e for e in entries if e.source == "automatic"]
        pressed = [s for s in load_script(SCRIPTS / game / "opening.yaml").steps
                   if s.phase or s.pass_turn]
        assert bool(inferred) == bool(pressed), game  # Challengers! moves on by its rules
        assert all(e.reason_en and e.reason_de for e in inferred)
        full = referee_script(str(SCRIPTS / game / "opening.yaml")).steps[-1]
        last = report.steps[-1]
        assert (last.active, last.phase, last.turn) == (full.active, full.phase, full.turn)


def test_camera_steps_leave_out_presses_and_keep_their_expects() -> None:
    script = load_script(SCRIPTS / "creature-crush" / "opening.yaml")
    plan = camera_steps(script.steps)
    seen = [s for s, _ in plan if s is not None]
    assert all(not s.phase and not s.pass_turn for s in seen)
    skipped = [k for _, left in plan for k in left]
    assert skipped and all((k.phase or k.pass_turn) for k in skipped)
    kept = {s.index for s in seen} | {k.index for k in skipped}
    assert kept == {s.index for s in script.steps}  # no step and no expect is lost


def test_cli_camera_only(tmp_path: Path) -> None:
    path = SCRIPTS / "trick-or-beat" / "opening.yaml"
    result = CliRunner().invoke(cli, ["referee", "--camera-only", str(path)])
    assert result.exit_code == 0, result.output
    assert "[automatic]" in result.output and "all expectations hold" in result.output
    assert "ends the phase  [person]" not in result.output
    assert "ends the turn  [person]" not in result.output


def test_a_press_expectation_that_the_table_does_not_show_fails(tmp_path: Path) -> None:
    """Leaving presses out must not make expectations vacuous: a wrong phase expected
    after a left-out press still fails, with the press's line."""
    source = (SCRIPTS / "creature-crush" / "opening.yaml").read_text(encoding="utf-8")
    broken = source.replace("  - phase: true\n    note: on to the combat phase\n",
                            "  - phase: true\n    note: on to the combat phase\n"
                            "    expect: {phase: taktik}\n", 1)
    assert broken != source
    path = tmp_path / "broken.yaml"
    path.write_text(broken, encoding="utf-8")
    line = broken.splitlines().index("    expect: {phase: taktik}") - 1  # the step's line
    report = referee_script(str(path), camera_only=True)
    assert any(f"broken.yaml:{line}: " in f and "taktik" in f for f in report.failures)


def test_the_live_referee_passes_inferred_steps_and_absorbs_a_late_press() -> None:
    """The contract with the live session: inferred ends reach it as `Applied` with source
    "automatic" and their reasons; a press the engine already inferred adds nothing."""
    from companion.engine.api import GameOverError, Move
    from companion.referee.script import config_from_script
    from companion.server.engine_referee import EngineReferee
    from companion.sim.table_state import snapshots

    script = load_script(SCRIPTS / "creature-crush" / "opening.yaml")
    shots = snapshots(script)
    referee = EngineReferee(config_from_script(script))
    referee.observe(None, shots[0])
    applied = []
    for k in range(1, 5):  # the opening draws, Ada's start phase, her first summon
        applied += referee.observe(shots[k - 1], shots[k]).applied
    inferred = [a for a in applied if a.source == "automatic"]
    assert inferred and all(a.reason_en and a.reason_de for a in inferred)
    assert all(a.move.kind == "next-phase" for a in inferred)
    assert [a.source for a in applied if a.move.kind == "summon"] == [None]  # the caller's
    late = referee.apply((Move("next-phase", "p1"),), "person")
    assert late.applied == () and referee.engine.phase == "kampf"
    referee.apply((Move("concede", "p2"),), "person")
    with pytest.raises(GameOverError):
        referee.apply((Move("pass", "p1"),), "person")
