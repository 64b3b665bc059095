"""`companion script check|show`: validate table scripts and look at what the camera would see."""

from __future__ import annotations

import json
from pathlib import Path

import click

from companion.errors import CompanionError
from companion.snapshot import TableSnapshot


@click.group()
def script() -> None:
    """Check and show table scripts (the YAML test and demo format)."""


@script.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def check(files: tuple[Path, ...]) -> None:
    """Validate FILES: `OK file (N steps)` or `file:line: problem`; exit 1 on any problem."""
    from companion.sim.script import load_script

    failed = False
    for path in files:
        try:
            loaded = load_script(path)
        except CompanionError as exc:
            failed = True
            click.echo(str(exc))
            continue
        click.echo(f"OK {path} ({len(loaded.steps)} steps)")
    if failed:
        raise SystemExit(1)


@script.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--step", "step", type=int, default=None,
              help="Only the table after this step (0: before the first step).")
@click.option("--json", "as_json", is_flag=True, help="Print the snapshots as JSON.")
def show(file: Path, step: int | None, as_json: bool) -> None:
    """Print the visible table after each step of FILE (what the camera would see)."""
    from companion.sim.script import load_script
    from companion.sim.table_state import snapshots, truth_tables

    loaded = load_script(file)
    shots = snapshots(loaded)
    tables = truth_tables(loaded)
    indices = list(range(len(shots)))
    if step is not None:
        if not 0 <= step < len(shots):
            raise click.BadParameter(f"{file} has steps 0-{len(shots) - 1}", param_hint="--step")
        indices = [step]
    if as_json:
        data = [shots[i].to_dict() for i in indices]
        click.echo(json.dumps(data[0] if step is not None else data, indent=1, sort_keys=True))
        return
    for i in indices:
        if i == 0:
            click.echo(f"== before the first step ({loaded.game}, seed {loaded.seed})")
        else:
            click.echo(f"== step {i} (line {loaded.step(i).line}): {_describe(loaded.step(i))}")
        hidden = {z: len(u) for z, u in tables[i].zones.items()}
        click.echo(_table_text(shots[i], hidden))


def _describe(step: object) -> str:
    from companion.sim.script import Step

    assert isinstance(step, Step)
    parts: list[str] = []
    for verb in ("draw", "remove", "place", "place_down", "flip", "on", "tap", "untap", "burn",
                 "roll"):
        value = getattr(step, verb)
        if isinstance(value, dict) and value:
            parts.append(f"{verb} " + ", ".join(f"{k}->{v}" for k, v in value.items()))
        elif value:
            parts.append(f"{verb} " + ", ".join(value))
    if step.dice:
        parts.append("dice " + ", ".join(f"{d}={s.value}@{s.zone}" for d, s in step.dice.items()))
    if step.phase:
        parts.append("phase" if step.phase is True else f"phase {step.phase}")
    if step.pass_turn:
        parts.append("pass")
    if step.declare:
        parts.append(f"declare {step.declare}")
    if step.expect:
        parts.append(f"expect {step.expect}")
    if step.note:
        parts.append(f"({step.note})")
    return "; ".join(parts) or "nothing"


def _table_text(shot: TableSnapshot, pile_sizes: dict[str, int]) -> str:
    lines: list[str] = []
    zones = sorted({c.zone for c in shot.cards} | {d.zone for d in shot.dice}
                   | {t.zone for t in shot.tokens})
    for zone in zones:
        items: list[str] = []
        for card in shot.in_zone(zone):
            flags = [f for f, on in (("tapped", card.tapped), (f"on {card.on}", card.on)) if on]
            extra = f" ({', '.join(flags)})" if flags else ""
            items.append(f"{card.uid}{extra}")
        for die in shot.dice:
            if die.zone == zone:
                items.append(f"{die.die}={die.value}" + (f" on {die.on}" if die.on else ""))
        for token in shot.tokens:
            if token.zone == zone:
                items.append(f"[{token.token}]" + (f" on {token.on}" if token.on else ""))
        size = pile_sizes.get(zone, 0)
        count = f"  ({size} cards)" if size > 1 else ""
        lines.append(f"  {zone:<16} {'  '.join(items)}{count}")
    return "\n".join(lines) if lines else "  (empty table)"
