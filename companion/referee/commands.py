"""`companion referee SCRIPT`: referee a table script step by step (see referee/script.py)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from companion.engine.ruleset import Ruleset
from companion.games import get_ruleset
from companion.referee.script import RefereeReport, StepReport, referee_script

WORDS: dict[str, dict[str, Any]] = {
    "en": {"step": "step", "line": "line", "phase": "phase", "active": "active", "turn": "turn",
           "scores": "scores", "ok": "ok", "illegal": "ILLEGAL", "lifted": "lifted by",
           "asked": "asked", "winner": "winner", "refused": "refused", "draw": "draw",
           "source": {}},
    "de": {"step": "Schritt", "line": "Zeile", "phase": "Phase", "active": "am Zug",
           "turn": "Zug", "scores": "Punkte", "ok": "ok", "illegal": "REGELWIDRIG",
           "lifted": "aufgehoben durch", "asked": "gefragt", "winner": "Sieger",
           "refused": "abgelehnt", "draw": "unentschieden",
           "source": {"camera": "Kamera", "person": "Person", "automatic": "automatisch",
                      "script": "Skript", "assumed": "angenommen"}},
}


def _print_step(step: StepReport, ruleset: Ruleset, namer: Any = None, lang: str = "en"
                ) -> None:
    w = WORDS["de" if lang == "de" else "en"]

    def said(text: str) -> str:
        return namer.text(text, lang) if namer is not None else text

    def who(player: str) -> str:
        return namer.player(player) if namer is not None else player

    phase = namer.phase(step.phase, lang) if namer is not None else step.phase
    click.echo(f"{w['step']} {step.index} ({w['line']} {step.line}): {w['phase']} {phase}, "
               f"{w['active']} {who(step.active)}, {w['turn']} {step.turn}, {w['scores']} "
               + ", ".join(f"{who(p)} {v}" for p, v in step.scores.items()))
    for entry in step.moves:
        flag = w["ok"] if entry.legal else w["illegal"]
        source = w["source"].get(entry.source, entry.source)
        click.echo(f"  {flag:7} {said(ruleset.describe(entry.move, lang))}  [{source}]")
        reason = entry.reason_de if lang == "de" else entry.reason_en
        if reason:
            click.echo(f"          ({said(reason)})")
        for v in entry.violations:
            lifted = f" ({w['lifted']} {said(v.lifted_by)})" if v.lifted_by else ""
            click.echo(f"          {v.code}: {said(v.message(lang))}{lifted}  <{v.rule}>")
    if step.question:
        click.echo(f"  {w['asked']}: {said(step.question)}")
    for refused in step.refused:
        click.echo(f"  {w['refused']}: {refused}")
    if step.winner:
        shown = w["draw"] if step.winner == "draw" else who(step.winner)
        click.echo(f"  {w['winner']}: {shown}")
    for failure in step.failures:
        click.echo(f"  EXPECT FAILED {failure}")


def _namer(script: str) -> Any:
    """Names of the script's players, cards and zones (None when they cannot be read)."""
    from companion.record.wording import Namer, safe_card_lookup, safe_layout
    from companion.sim.script import load_script

    loaded = load_script(script)
    inline = [dict(c.to_mapping()) for c in loaded.cards]
    return Namer(safe_card_lookup(loaded.game, inline), [str(p) for p in loaded.players],
                 safe_layout(loaded.game))


@click.command("referee")
@click.argument("script", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True,
              help="Language of the moves and violations (names replace ids either way).")
@click.option("--camera-only", is_flag=True,
              help="Leave out the script's phase and pass presses (the camera cannot see "
                   "them): the engine infers them; every expect is still checked.")
def referee(script: str, as_json: bool, lang: str, camera_only: bool) -> None:
    """Referee a table script: moves found, violations, phase and scores per step.

    Exits with status 1 when an `expect` of the script does not hold (file:line given).
    """
    report: RefereeReport = referee_script(script, camera_only=camera_only)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(f"{report.path} ({report.game})")
        ruleset = get_ruleset(report.game)
        namer = _namer(script)
        for step in report.steps:
            _print_step(step, ruleset, namer, lang)
    failures = report.failures
    if failures:
        for failure in failures:
            click.echo(failure, err=True)
        sys.exit(1)
    if not as_json:
        click.echo("alle Erwartungen erfüllt" if lang == "de" else "all expectations hold")
