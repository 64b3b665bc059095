"""`companion replay` and `companion export`: read a game library from the command line."""

from __future__ import annotations

from pathlib import Path

import click

from companion.record.export import (
    FORMATS,
    export_json,
    export_text,
    outcome_text,
    started_label,
    status_words,
)
from companion.record.library import game_name
from companion.record.store import open_existing, told_when_damaged
from companion.safeio import write_text_atomic

LANG = click.Choice(["en", "de"])


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("game", type=int, required=False)
@click.option("--lang", type=LANG, default="en", show_default=True,
              help="Language of the record (English or German).")
def replay(db: Path, game: int | None, lang: str) -> None:
    """List the games in DB, or print GAME move by move (corrections followed)."""
    with told_when_damaged(db), open_existing(db) as store:
        if game is None:
            headers = store.games()
            if not headers:
                click.echo(f"{db}: " + ("noch keine Partie aufgezeichnet" if lang == "de"
                                        else "no games recorded yet"))
            vs = " gegen " if lang == "de" else " vs "
            for h in headers:
                result = outcome_text(h.outcome, h.players, lang) if h.outcome else \
                    status_words(h, lang)
                title = f"  {h.title}" if h.title else ""
                click.echo(f"{h.id:4d}  {started_label(h.started)}  {game_name(h.game):20s} "
                           f"{vs.join(h.players):24s} {result}{title}")
            return
        click.echo(export_text(store, game, lang), nl=False)


@click.command()
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("game", type=int)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="json: the full log for programs; text: a readable record; html: one "
                   "self-contained page with the timeline and the mat at every step.")
@click.option("--lang", type=LANG, default="en", show_default=True,
              help="Language of the text and html records.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="File to write (default: standard output).")
def export(db: Path, game: int, fmt: str, lang: str, out: Path | None) -> None:
    """Write GAME from DB as JSON (full log), a readable text record or one HTML page."""
    with told_when_damaged(db), open_existing(db) as store:
        if fmt == "json":
            text = export_json(store, game) + "\n"
        elif fmt == "html":
            from companion.record.html import export_html

            text = export_html(store, game, lang)
        else:
            text = export_text(store, game, lang)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text_atomic(out, text)
        click.echo(f"wrote game {game} to {out}", err=True)
