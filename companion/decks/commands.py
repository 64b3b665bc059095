"""`companion deck check|register|list`: players' decks, checked against the game's rules."""

from __future__ import annotations

from pathlib import Path

import click

from companion.games import GAMES, game_spec


def default_zone(game: str, player: str) -> str:
    """The scan zone by default: the player's deck zone (the game's spec)."""
    return game_spec(game).deck_zone(player)


@click.group("deck")
def deck() -> None:
    """Register players' decks and check them against the game's deck-building rules."""


@deck.command("check")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--game",
    type=click.Choice(list(GAMES)),
    default=None,
    help="The game, for plain-text lists that do not name it.",
)
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
def check(files: tuple[Path, ...], game: str | None, lang: str) -> None:
    """Check deck list files (YAML or plain text); exit status 1 when any deck is illegal."""
    from companion.cardsets import load_cardset
    from companion.decks.listfile import read_deck
    from companion.decks.rules import check_deck

    illegal = 0
    for path in files:
        found = read_deck(path, game)
        problems = check_deck(found.deck, load_cardset(found.deck.game))
        size = found.deck.size
        if not problems:
            click.echo(f"{path}: legal {found.deck.game} deck {found.deck.name!r} ({size} cards)")
            continue
        illegal += 1
        click.echo(f"{path}: {len(problems)} problem(s) in {found.deck.name!r} ({size} cards)")
        for problem in problems:
            line = next((found.lines[c] for c in problem.cards if c in found.lines), None)
            where = f"{path}:{line}" if line else str(path)
            click.echo(f"  {where}: {problem.line(lang)}")
    if illegal:
        raise SystemExit(1)


@deck.command("list")
@click.option("--game", type=click.Choice(list(GAMES)), default=None)
def list_command(game: str | None) -> None:
    """The bundled sample decks, with their size and whether they are legal."""
    from companion.cardsets import list_decks, load_cardset, load_deck
    from companion.decks.rules import check_deck

    for g in [game] if game else list(GAMES):
        for name in list_decks(g):
            d = load_deck(g, name)
            problems = check_deck(d, load_cardset(g))
            verdict = "legal" if not problems else f"{len(problems)} problem(s)"
            click.echo(f"{g}  {name:<16} {d.size:>4} cards  {verdict}")


@deck.command("register")
@click.option("--game", required=True, type=click.Choice(list(GAMES)))
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Deck list file to write (YAML).",
)
@click.option(
    "--from-images",
    "images",
    type=click.Path(exists=True, file_okay=False),
    default=None,
    help="A folder of photos, one card laid in the scan zone per photo.",
)
@click.option("--camera", type=int, default=None, help="Camera index for live scanning.")
@click.option(
    "--video",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="A video of the cards being laid one by one.",
)
@click.option("--player", type=click.Choice(["p1", "p2"]), default="p1", show_default=True)
@click.option(
    "--zone",
    default=None,
    help="Scan zone id (default: the player's deck zone); used when the mat is seen.",
)
@click.option("--name", default=None, help="Deck name (default: the output file's name).")
@click.option("--lord", default=None, help="Fire Emblem Cipher: the lord's card id.")
@click.option(
    "--steady",
    type=click.IntRange(1, 100),
    default=None,
    help="Frames a sticker must be read in a row (default: 1 for photos, 5 live).",
)
@click.option(
    "--seconds",
    type=float,
    default=None,
    help="Live camera: stop after this long (default: until Ctrl-C).",
)
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
@click.option("--mirror", is_flag=True,
              help="The picture is mirrored (a laptop's mirror clip): turn it back first.")
def register(
    game: str,
    out: Path,
    images: str | None,
    camera: int | None,
    video: str | None,
    player: str,
    zone: str | None,
    name: str | None,
    lord: str | None,
    steady: int | None,
    seconds: float | None,
    force: bool,
    mirror: bool = False,
) -> None:
    """Register a deck by laying its cards one by one in the scan zone (photos, video, camera).

    Each card copy counts once; repeats and unknown markers are reported. The deck list is
    written with the physical copies pinned, then checked against the game's rules.
    """
    from companion.cardsets import load_cardset
    from companion.decks.capture import scan_source
    from companion.decks.listfile import deck_yaml
    from companion.decks.rules import check_deck
    from companion.decks.scanner import DeckScanner, ScanEvent
    from companion.errors import CompanionError
    from companion.layouts import load_layout
    from companion.vision.sources import open_source

    given = [s for s in (images, video, camera) if s is not None]
    if len(given) != 1:
        raise CompanionError("give exactly one of --from-images, --video or --camera")
    if out.exists() and not force:
        raise CompanionError(f"{out} exists; choose another --out or add --force")
    live = camera is not None
    source = open_source(given[0])
    if mirror:
        from companion.vision.sources import MirroredSource

        source = MirroredSource(source)
    scan_zone = zone or default_zone(game, player)
    layout = load_layout(game)
    if scan_zone not in layout.zones:
        raise CompanionError(f"{game} has no zone {scan_zone!r}; zones: {', '.join(layout.zones)}")
    scanner = DeckScanner(load_cardset(game), scan_zone)

    def show(event: ScanEvent) -> None:
        click.echo(f"{event.kind:>10}  {event.message}", err=event.kind != "added")

    try:
        stats = scan_source(
            source, scanner, layout, steady or (5 if live else 1), show, stop_after_s=seconds
        )
    except KeyboardInterrupt:
        stats = None
    finally:
        source.close()
    found = scanner.deck(name or out.stem, lord)
    out.write_text(deck_yaml(found.deck, found.copies), encoding="utf-8")
    frames = f" from {stats.frames} frames" if stats else ""
    click.echo(
        f"wrote {out}: {len(scanner.registered)} cards{frames}, "
        f"{len(scanner.unknown)} unknown markers"
    )
    for problem in check_deck(found.deck, scanner.cardset):
        click.echo(f"  {problem.line()}")
