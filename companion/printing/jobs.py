"""From a user's request (game, decks, paper) to the sheets of one PDF, with a summary line.

The CLI and the tests both build printables here, so the tests check exactly what users print.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.cardsets import CardSet, DeckList, list_decks, load_cardset, load_deck
from companion.cardsets.loader import game_files, read_cardset_file
from companion.errors import CompanionError
from companion.games import GAMES, game_info, game_spec
from companion.markers.bigcell import fits
from companion.markers.payload import MAX_SERIAL
from companion.markers.render import DEFAULT_SYMBOLOGY, Symbology
from companion.printing.dice import (
    DEFAULT_FACES,
    HOW_TO_STICK,
    HOW_TO_STICK_VALUES,
    FaceKind,
    counter_dice,
    dice_for_game,
    dice_sheets,
    face_specs,
    tokens_for_game,
)
from companion.printing.mat import MatTile, mat_tiles
from companion.printing.paper import paper as paper_named
from companion.printing.pdf import Progress, write_pdf
from companion.printing.sheet import Sheet
from companion.printing.sizes import STICKER_MM
from companion.printing.stickers import (
    PrintedCard,
    StickerSpec,
    back_serials,
    back_specs,
    front_specs,
    sticker_sheets,
)

SERIALS_PER_GAME = 5_000  # default back serials code x 5000 + 1: within the big-cell code's
# 32767 (earlier runs printed code x 100000 + 1 as Micro QR backs, which still read)


class PrintRequestError(CompanionError):
    """A print request that names something that does not exist."""


@dataclass
class PrintJob:
    title: str
    sheets: list[Sheet]
    summary: str
    specs: list[StickerSpec] = field(default_factory=list)
    tiles: list[MatTile] = field(default_factory=list)

    def write(self, path: Path, progress: Progress | None = None) -> None:
        write_pdf(self.sheets, path, self.title, progress)


def resolve_deck(game: str, spec: str) -> tuple[DeckList, dict[str, tuple[int, ...]]]:
    """A deck given as a file path or as the name of one of the game's sample decks."""
    from companion.decks.listfile import read_deck

    path = Path(spec)
    if path.is_file():
        found = read_deck(path, game)
        return found.deck, dict(found.copies)
    if spec in list_decks(game):
        return load_deck(game, spec), {}
    known = ", ".join(list_decks(game)) or "none"
    raise PrintRequestError(
        f"no deck file {spec!r} and no sample deck of that name for {game} (sample decks: {known})"
    )


def deck_cards(game: str, specs: Sequence[str], cardset: CardSet) -> list[PrintedCard]:
    """Every physical card of the given decks, copies numbered across the table."""
    from companion.decks.copies import number_copies

    resolved = [resolve_deck(game, s) for s in specs]
    numbered = number_copies([d for d, _ in resolved], [c for _, c in resolved])
    return [_printed(cardset, card_id, copy) for deck in numbered for card_id, copy in deck]


def cardset_cards(game: str, name: str, copies: int | None, cardset: CardSet) -> list[PrintedCard]:
    """Every card of one cardset file, each `copies` times (default: its `copies` field or 1)."""
    files = {p.stem: p for p in game_files(game)}
    if name not in files:
        raise PrintRequestError(f"no cardset {name!r} for {game}; cardsets: {', '.join(files)}")
    out: list[PrintedCard] = []
    for card in read_cardset_file(files[name], expected_game=game).cards:
        n = copies if copies is not None else int(card.get("copies", 1))
        out += [_printed(cardset, card.id, c) for c in range(1, n + 1)]
    return out


def _printed(cardset: CardSet, card_id: str, copy: int) -> PrintedCard:
    card = cardset.get(card_id)
    return PrintedCard(card.id, card.name, card.number, copy)


def default_first_serial(game: str) -> int:
    return game_info(game).code * SERIALS_PER_GAME + 1


def sticker_job(
    game: str,
    decks: Sequence[str] = (),
    cardset_name: str | None = None,
    copies: int | None = None,
    paper: str = "a4",
    first_serial: int | None = None,
    backs: bool = True,
    symbology: Symbology = DEFAULT_SYMBOLOGY,
    twin: bool = False,
) -> PrintJob:
    """Front stickers for the decks (or one cardset), then as many back stickers; `twin`: two
    of each, side by side, for the two ends of a card face (`companion.markers.placement`)."""
    info = game_info(game)
    cardset = load_cardset(game)
    if decks and cardset_name:
        raise PrintRequestError("give either --deck or --cardset, not both")
    if cardset_name:
        cards = cardset_cards(game, cardset_name, copies, cardset)
        source = f"cardset {cardset_name}"
    else:
        chosen = list(decks) or ([] if game_spec(game).printing.whole_cardset else list_decks(game))
        if chosen:
            cards = deck_cards(game, chosen, cardset)
            source = f"decks {', '.join(chosen)}"
        else:
            cards = [
                _printed(cardset, c.id, k)
                for c in cardset
                for k in range(1, int(c.get("copies", 1)) + 1)
            ]
            source = "the whole game"
    if not cards:
        raise PrintRequestError(f"nothing to print for {game} ({source})")
    sheet_paper = paper_named(paper)
    specs = _twice(front_specs(game, cards, symbology), twin)
    kind = "big-cell code" if symbology == "bigcell" else "Micro QR"
    per_card = "; two per card face: one at each end, the second turned round" if twin else ""
    sheets = sticker_sheets(
        specs, sheet_paper,
        f"{info.name}: card fronts, {source} ({STICKER_MM:.0f} mm {kind}{per_card})"
    )
    summary = f"{len(sheets)} front sheets ({len(specs)} stickers from {source}"
    summary += ", two per card)" if twin else ")"
    if backs:
        start = default_first_serial(game) if first_serial is None else first_serial
        if start + len(cards) - 1 > MAX_SERIAL:
            raise PrintRequestError(
                f"back serials would run past {MAX_SERIAL}: choose a lower --first-serial"
            )
        serials = back_serials(start, len(cards), symbology)
        if serials and serials[-1] > MAX_SERIAL:
            raise PrintRequestError(
                f"back serials would run past {MAX_SERIAL}: choose a lower --first-serial"
            )
        back = _twice(back_specs(start, len(cards), symbology), twin)
        back_sheets = sticker_sheets(back, sheet_paper,
                                     f"{info.name}: card backs (anonymous{per_card})")
        sheets += back_sheets
        specs += back
        last = serials[-1] if serials else start - 1
        skipped = last - start + 1 - len(serials)
        summary += (
            f", {len(back_sheets)} back sheets (serials {start}-{last}"
            + (f", {skipped} skipped that read two ways up" if skipped else "")
            + f"; next free {last + 1})"
        )
    old_style = sum(1 for spec in specs if spec.symbology == "bigcell" and not fits(spec.payload))
    if old_style:
        summary += (f", {old_style} as Micro QR (beyond the big-cell code's range, or a"
                    " big-cell symbol that reads two ways up)")
    return PrintJob(f"{info.name} stickers", sheets, f"{summary}, {len(sheets)} sheets", specs)


def _twice(specs: list[StickerSpec], twin: bool) -> list[StickerSpec]:
    """Each sticker once, or (twin) twice in a row: a card face's two stickers side by side."""
    return [spec for spec in specs for _ in range(2 if twin else 1)]


def dice_job(game: str | None, counters: int = 0, paper: str = "a4",
             faces: FaceKind = DEFAULT_FACES) -> PrintJob:
    """Die-face and token stickers for one game (or every game), plus optional counters;
    `faces`: value stickers or ArUco die stickers for the white and red dice."""
    games = [game] if game else list(GAMES)
    dice = [d for g in games for d in dice_for_game(g)] + counter_dice(counters)
    tokens = [t for g in games for t in tokens_for_game(g)]
    if not dice and not tokens:
        raise PrintRequestError(
            f"{game_info(game).name if game else 'no game'} uses no dice or "
            "tokens; add --counters N for counter dice"
        )
    title = f"{game_info(game).name}: dice and tokens" if game else "Dice and tokens"
    specs = face_specs(dice, tokens, faces)
    sheets = dice_sheets(specs, paper_named(paper), title,
                         HOW_TO_STICK_VALUES if faces == "values" else HOW_TO_STICK)
    return PrintJob(
        title, sheets, f"{len(sheets)} sheets, {len(dice)} dice, {len(specs)} face stickers"
    )


def mat_job(game: str, paper: str = "a4") -> PrintJob:
    from companion.layouts import load_layout

    info = game_info(game)
    layout = load_layout(game)
    tiles = mat_tiles(layout, paper_named(paper), f"{info.name} mat")
    rows = max(t.row for t in tiles) + 1
    cols = max(t.col for t in tiles) + 1
    return PrintJob(
        f"{info.name} mat",
        [t.sheet for t in tiles],
        f"{len(tiles)} sheets ({rows} x {cols} tiles) for a {layout.width_mm:.0f} x "
        f"{layout.height_mm:.0f} mm mat",
        tiles=tiles,
    )
