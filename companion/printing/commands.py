"""`companion print stickers|dice|mat`: the printables as PDF, at true scale.

Heavy modules (reportlab, the marker generator and its OpenCV) are imported inside the
commands, so `companion print --help` answers at once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from companion.games import GAMES, game_spec
from companion.printing.dice import DEFAULT_FACES, FACE_KINDS

PAPER_CHOICES = ("a4", "letter")
MAT_PAPER_CHOICES = ("a4", "a3", "letter")


def _progress(kind: str) -> Callable[[int, int], None]:
    def report(number: int, count: int) -> None:
        click.echo(f"{kind}: sheet {number}/{count} written", err=True)

    return report


@click.group("print")
def print_group() -> None:
    """Print stickers, dice faces and mats as PDF (print at 100 %, never "fit to page")."""


@print_group.command("stickers")
@click.option("--game", "game", required=True, type=click.Choice(list(GAMES)), help="The game.")
@click.option(
    "--deck",
    "decks",
    multiple=True,
    metavar="FILE|NAME",
    help="A deck list file or sample deck name; repeat for every deck on the table.",
)
@click.option(
    "--cardset",
    "cardset_name",
    metavar="SET",
    help="Every card of one cardset file (e.g. b01, premiere, base) instead of decks.",
)
@click.option(
    "--copies",
    type=click.IntRange(1, 99),
    default=None,
    help="With --cardset: copies of each card (default: as many as exist, else 1).",
)
@click.option("--paper", type=click.Choice(PAPER_CHOICES), default="a4", show_default=True)
@click.option(
    "--first-serial",
    type=click.IntRange(0, 999_999),
    default=None,
    help="First back-sticker serial (default: game code x 5000 + 1; big-cell backs up to "
    "32767, Micro QR beyond). Use a new "
    "range for every print run so backs stay unique.",
)
@click.option("--no-backs", is_flag=True, help="Fronts only.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="PDF to write (default: <game>-stickers.pdf).",
)
@click.option(
    "--symbology",
    type=click.Choice(["bigcell", "microqr"]),
    default="bigcell",
    show_default=True,
    help="Sticker code: the big-cell code (reads from further away) or Micro QR (the "
    "stickers printed before it).",
)
@click.option(
    "--twin/--one-per-card",
    "twin",
    default=None,
    help="Two stickers per card face, one at each end (the second turned round): a card "
    "still reads when the lamp's reflection or a die covers one. Default: two for games "
    "whose mat lays no card over another's end (Trick or Beat, My Little Pony, "
    "Challengers!), one in the middle for the others.",
)
def stickers(
    game: str,
    decks: tuple[str, ...],
    cardset_name: str | None,
    copies: int | None,
    paper: str,
    first_serial: int | None,
    no_backs: bool,
    out: Path | None,
    symbology: str = "bigcell",
    twin: bool | None = None,
) -> None:
    """Card-front stickers (game, card, copy) and anonymous back stickers, with cut guides.

    Copies are numbered as table scripts number them: per card id 1..n across the decks in the
    order given (p1's deck first), inside a deck mane first, then cards, then problems. Without
    --deck and --cardset, the game's sample decks are printed (Trick or Beat: the whole pile).
    """
    from companion.printing.jobs import sticker_job

    job = sticker_job(game, decks, cardset_name, copies, paper, first_serial, not no_backs,
                      "bigcell" if symbology == "bigcell" else "microqr",
                      game_spec(game).printing.twin_stickers if twin is None else twin)
    target = out or Path(f"{game}-stickers.pdf")
    job.write(target, _progress("stickers"))
    click.echo(f"wrote {target}: {job.summary}")


@print_group.command("dice")
@click.option(
    "--game",
    "game",
    type=click.Choice(list(GAMES)),
    default=None,
    help="One game's dice and tokens (default: every game that uses any).",
)
@click.option(
    "--counters",
    type=click.IntRange(0, 6),
    default=0,
    show_default=True,
    help="Also counter dice pN.c1..cN for each player.",
)
@click.option("--paper", type=click.Choice(PAPER_CHOICES), default="a4", show_default=True)
@click.option(
    "--faces",
    type=click.Choice(FACE_KINDS),
    default=DEFAULT_FACES,
    show_default=True,
    help="ids: ArUco die stickers, one marker per die and value; values: value stickers "
         "(the value and the die's colour in bigger cells: more dice read on a 720p camera; "
         "read them with `--dice values`).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="PDF to write (default: <game>-dice.pdf or dice.pdf).",
)
def dice(game: str | None, counters: int, paper: str, faces: str, out: Path | None) -> None:
    """Die-face stickers for 16 mm dice (12 mm faces) and token stickers, labelled.

    Creature Crush: white start dice w1..w5 and red damage dice r1..r5 per player (value
    stickers: a set of six per die, red dice's printed black). Challengers!: the flag token
    (both sides). My Little Pony: none by default (the companion keeps points and action
    tokens itself); --counters adds counter dice for any game (always ArUco die stickers).
    """
    from companion.printing.jobs import dice_job

    job = dice_job(game, counters, paper, "values" if faces == "values" else "ids")
    target = out or Path(f"{game}-dice.pdf" if game else "dice.pdf")
    job.write(target, _progress("dice"))
    click.echo(f"wrote {target}: {job.summary}")


@print_group.command("mat")
@click.option("--game", "game", required=True, type=click.Choice(list(GAMES)), help="The game.")
@click.option("--paper", type=click.Choice(MAT_PAPER_CHOICES), default="a4", show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="PDF to write (default: <game>-mat.pdf).",
)
def mat(game: str, paper: str, out: Path | None) -> None:
    """The play mat at true scale, tiled over sheets with overlap and alignment marks."""
    from companion.printing.jobs import mat_job

    job = mat_job(game, paper)
    target = out or Path(f"{game}-mat.pdf")
    job.write(target, _progress("mat"))
    click.echo(f"wrote {target}: {job.summary}")
