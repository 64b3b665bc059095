"""`companion referee SCRIPT`: referee a table script step by step (see engine/referee.py)."""

from __future__ import annotations

import json
import sys

import click

from companion.engine.referee import RefereeReport, StepReport, referee_script
from companion.engine.ruleset import Ruleset
from companion.games import get_ruleset


def _print_step(step: StepReport, ruleset: Ruleset) -> None:
    click.echo(f"step {step.index} (line {step.line}): phase {step.phase}, active {step.active},"
               f" turn {step.turn}, scores " + ", ".join(f"{p} {v}" for p, v in
                                                        step.scores.items()))
    for entry in step.moves:
        flag = "ok" if entry.legal else "ILLEGAL"
        click.echo(f"  {flag:7} {ruleset.describe(entry.move, 'en')}  [{entry.source}]")
        if entry.reason_en:
            click.echo(f"          ({entry.reason_en})")
        for v in entry.violations:
            lifted = f" (lifted by {v.lifted_by})" if v.lifted_by else ""
            click.echo(f"          {v.code}: {v.message_en}{lifted}  <{v.rule}>")
    if step.question:
        click.echo(f"  asked: {step.question}")
    for refused in step.refused:
        click.echo(f"  refused: {refused}")
    if step.winner:
        click.echo(f"  winner: {step.winner}")
    for failure in step.failures:
        click.echo(f"  EXPECT FAILED {failure}")


@click.command("referee")
@click.argument("script", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--camera-only", is_flag=True,
              help="Leave out the script's phase and pass presses (the camera cannot see "
                   "them): the engine infers them; every expect is still checked.")
def referee(script: str, as_json: bool, camera_only: bool) -> None:
    """Referee a table script: moves found, violations, phase and scores per step.

    Exits with status 1 when an `expect` of the script does not hold (file:line given).
    """
    report: RefereeReport = referee_script(script, camera_only=camera_only)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(f"{report.path} ({report.game})")
        ruleset = get_ruleset(report.game)
        for step in report.steps:
            _print_step(step, ruleset)
    failures = report.failures
    if failures:
        for failure in failures:
            click.echo(failure, err=True)
        sys.exit(1)
    if not as_json:
        click.echo("all expectations hold")
