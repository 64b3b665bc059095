"""`companion replay` and `companion export`: read a game library from the command line."""

from __future__ import annotations

from pathlib import Path

import click

from companion.record.export import FORMATS, export_json, export_text, started_label
from companion.record.store import open_existing


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("game", type=int, required=False)
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
def replay(db: Path, game: int | None, lang: str) -> None:
    """List the games in DB, or print GAME move by move (corrections followed)."""
    with open_existing(db) as store:
        if game is None:
            headers = store.games()
            if not headers:
                click.echo(f"{db}: no games recorded yet")
            for h in headers:
                state = "finished" if h.finished else "open"
                click.echo(
                    f"{h.id:4d}  {started_label(h.started)}  {h.game:20s} "
                    f"{' vs '.join(h.players):24s} {state}"
                )
            return
        click.echo(export_text(store, game, lang), nl=False)


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("game", type=int)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
def export(db: Path, game: int, fmt: str, lang: str) -> None:
    """Write GAME from DB as JSON (full log) or as a readable text record."""
    with open_existing(db) as store:
        text = export_json(store, game) + "\n" if fmt == "json" else export_text(store, game, lang)
    click.echo(text, nl=False)
