"""`companion cardset ...`: list, show, check, import and export card lists."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from companion.cardsets.checking import check_path
from companion.cardsets.csvio import cardset_yaml, export_csv, import_csv
from companion.cardsets.decks import list_decks, load_deck
from companion.cardsets.games import SCHEMAS, schema_for
from companion.cardsets.loader import load_cardset
from companion.cardsets.model import Card
from companion.errors import CompanionError
from companion.lazy_group import LazyGroup
from companion.paths import cardsets_dir
from companion.safeio import write_text_atomic

GAME = click.Choice(list(SCHEMAS))
SUMMARY_FIELDS = (
    "cost", "attack", "survival", "life", "support", "power", "strength", "level", "set",
    "faction", "category", "color", "title", "subname",
)  # fmt: skip


@click.group(cls=LazyGroup)
def cardset() -> None:
    """List, check, import and export the games' card lists."""


@cardset.command("list")
def list_command() -> None:
    """The five games with card counts per type, sample flag and decks."""
    for game in SCHEMAS:
        cards = load_cardset(game)
        counts = ", ".join(f"{n} {t}" for t, n in cards.type_counts().items())
        flag = "made-up sample" if cards.sample else "real card facts"
        decks = len(list_decks(game))
        click.echo(f"{game:20} {len(cards):4} cards ({counts}); {flag}; {decks} decks")


def _shown(value: object) -> str:
    """A field value for people: lists as `a, b`, mappings as `k=v`."""
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def _summary(card: Card) -> str:
    parts = [f"{k}={card.fields[k]}" for k in SUMMARY_FIELDS if k in card.fields]
    if card.keywords:
        parts.append("[" + ", ".join(card.keywords) + "]")
    return f"{card.id:10} {card.number:5}  {card.name:28} {card.type:12} {' '.join(parts)}"


@cardset.command("show")
@click.argument("game", type=GAME)
@click.argument("card_id", required=False)
@click.option("--deck", "deck_name", help="Show this sample deck instead of the cards.")
def show_command(game: str, card_id: str | None, deck_name: str | None) -> None:
    """Show GAME's cards, one card in full (CARD), or a sample deck (--deck)."""
    cards = load_cardset(game)
    if deck_name:
        deck = load_deck(game, deck_name)
        click.echo(f"{deck.name} ({game}), {deck.size} cards")
        for label, single in (("mane", deck.mane), ("lord", deck.lord)):
            if single:
                click.echo(f"  {label}: {single} {cards.get(single).name}")
        for section, counts in (("cards", deck.cards), ("problems", deck.problems)):
            if counts:
                click.echo(f"  {section}:")
                for cid, n in counts.items():
                    click.echo(f"    {n}x {cid} {cards.get(cid).name}")
        return
    if card_id is None:
        for card in cards:
            click.echo(_summary(card))
        decks = list_decks(game)
        click.echo(f"{len(cards)} cards; decks: {', '.join(decks) or 'none'}")
        return
    card = cards.get(card_id)
    click.echo(f"{card.id} ({game}{', made-up sample' if card.sample else ''})")
    for key, value in card.to_mapping().items():
        if key != "id":
            click.echo(f"  {key}: {_shown(value)}")


@cardset.command("check")
@click.argument("path", required=False, type=click.Path(path_type=Path))
def check_command(path: Path | None) -> None:
    """Validate cardset and deck files (default: every bundled cardset and your own).

    A file outside the bundled cardsets is also checked against the game's known cards: an id
    or sticker number used twice is an error naming both cards.
    """
    from companion.paths import user_cardsets_dir

    if path is None:
        report = check_path(cardsets_dir())
        own = user_cardsets_dir()
        if own.is_dir() and any(own.glob("*/*.yaml")):
            mine = check_path(own)
            report.ok += mine.ok
            report.errors += mine.errors
    else:
        report = check_path(path)
    for line in report.ok:
        click.echo(f"ok  {line}")
    for line in report.errors:
        click.echo(line, err=True)
    if report.errors:
        click.echo(f"{len(report.errors)} problem(s) found", err=True)
        sys.exit(1)


@cardset.command("import")
@click.argument("csv_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--game", required=True, type=GAME)
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="YAML file to write (default: your own cardsets folder, "
    "~/.companion/cardsets/GAME/, which every command reads; '-' for standard output).",
)
@click.option("--set", "set_name", help="Set name for the header (default: the CSV's name).")
@click.option("--sample/--real", default=False, help="Mark the cards made up (default: real).")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
def import_command(
    csv_file: Path, game: str, out: Path | None, set_name: str | None, sample: bool,
    force: bool,
) -> None:  # fmt: skip
    """Turn an owner's card list (CSV, DESIGN field names as columns) into a YAML cardset in
    your own cardsets folder, where every command (print, demo, serve, deck) finds it.

    A card whose id or sticker number another card of the game already has is refused, with
    both cards named: two cards must never share a sticker.
    """
    from companion.cardsets.checking import collision_with_known
    from companion.cardsets.loader import CardsetFile, clear_cache
    from companion.paths import user_cardsets_dir

    try:
        text = csv_file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise CompanionError(f"{csv_file}: not UTF-8 text") from None
    cards = import_csv(game, text, str(csv_file), sample=sample)
    source = f"imported from {csv_file.name}"
    yaml_text = cardset_yaml(game, set_name or csv_file.stem, sample, source, cards)
    to_stdout = out is not None and str(out) == "-"
    target = None if to_stdout else out or user_cardsets_dir() / game / f"{csv_file.stem}.yaml"
    read_by_commands = target is not None and _inside(target, user_cardsets_dir())
    if out is None or read_by_commands:  # what every command will read together
        parsed = CardsetFile(str(target or csv_file), game, set_name or csv_file.stem, sample,
                             source, tuple(cards))
        problem = collision_with_known(parsed, target)
        if problem:
            raise CompanionError(f"{csv_file}: not imported: {problem}")
    if target is None:
        click.echo(yaml_text, nl=False)
        return
    if target.exists() and not force:
        raise CompanionError(f"{target} exists; use --force to overwrite or --out elsewhere")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CompanionError(f"{target.parent}: cannot create the folder"
                             f" ({exc.strerror or exc})") from None
    write_text_atomic(target, yaml_text)
    clear_cache()
    click.echo(f"wrote {len(cards)} {game} cards to {target}", err=True)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


@cardset.command("export")
@click.option("--game", required=True, type=GAME)
@click.option("--format", "fmt", type=click.Choice(["csv", "yaml"]), default="csv")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File to write (default: standard output).",
)
def export_command(game: str, fmt: str, out: Path | None) -> None:
    """Write a game's whole cardset as CSV (for `import`) or as one YAML cardset file."""
    schema_for(game)
    cards = load_cardset(game)
    if fmt == "csv":
        text = export_csv(game, cards)
    else:
        source = "exported from " + ", ".join(cards.files)
        text = cardset_yaml(game, f"{game} (all sets)", cards.sample, source, cards)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text_atomic(out, text)
        click.echo(f"wrote {len(cards)} cards to {out}", err=True)
