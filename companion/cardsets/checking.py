"""`companion cardset check`: validate cardset and deck files, collecting every fault.

A path may be the cardsets folder (all games), one game's folder (its files merged, then its
decks), one cardset file, or one deck file (checked against its game's cardset).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.cardsets.decks import read_deck_file
from companion.cardsets.games import SCHEMAS
from companion.cardsets.loader import CardsetFile, game_files, merge_files, read_cardset_file
from companion.cardsets.model import CardSet
from companion.errors import CompanionError, DataFileError
from companion.paths import cardsets_dir


@dataclass
class CheckReport:
    ok: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def check_path(path: Path) -> CheckReport:
    report = CheckReport()
    path = Path(path)
    if path.is_file():
        if path.parent.name == "decks" and path.parent.parent.name in SCHEMAS:
            _check_deck(path, path.parent.parent, report)
        else:
            _check_file(path, report)
    elif path.is_dir() and path.name in SCHEMAS:
        _check_game_folder(path, report)
    elif path.is_dir():
        games = [path / g for g in SCHEMAS if (path / g).is_dir()]
        if not games:
            report.errors.append(f"{path}: no game folders ({', '.join(SCHEMAS)}) found")
        for folder in games:
            _check_game_folder(folder, report)
    else:
        report.errors.append(f"{path}: no such file or folder")
    return report


def _check_file(path: Path, report: CheckReport) -> CardsetFile | None:
    faults: list[DataFileError] = []
    expected = path.parent.name if path.parent.name in SCHEMAS else None
    try:
        parsed = read_cardset_file(path, expected_game=expected, errors=faults)
    except DataFileError as exc:
        report.errors.append(str(exc))
        return None
    report.errors.extend(str(f) for f in faults)
    if not faults and not _is_bundled(path):
        problem = collision_with_known(parsed, path)
        if problem:
            report.errors.append(problem)
            return parsed
    if not faults:
        report.ok.append(f"{parsed.path}: {len(parsed.cards)} cards ({parsed.game})")
    return parsed


def _is_bundled(path: Path) -> bool:
    try:
        path.resolve().relative_to(cardsets_dir().resolve())
        return True
    except (ValueError, FileNotFoundError):
        return False


def collision_with_known(parsed: CardsetFile, path: Path | None = None) -> str | None:
    """A card of `parsed` whose id or sticker number another card of the game already has
    (bundled or the user's own, other than `path` itself), as one message; else None."""
    others = [p for p in game_files(parsed.game)
              if path is None or p.resolve() != Path(path).resolve()]
    try:
        merge_files(parsed.game,
                    [*(read_cardset_file(p, expected_game=parsed.game) for p in others), parsed])
    except DataFileError as exc:
        return str(exc)
    return None


def _check_game_folder(folder: Path, report: CheckReport) -> CardSet | None:
    files = sorted(folder.glob("*.yaml"))
    before = len(report.errors)
    parsed = [p for p in (_check_file(f, report) for f in files) if p is not None]
    if len(report.errors) > before:
        return None
    try:
        cardset = merge_files(folder.name, parsed)
    except DataFileError as exc:
        report.errors.append(str(exc))
        return None
    for deck_path in sorted((folder / "decks").glob("*.yaml")):
        _check_deck(deck_path, folder, report, cardset)
    return cardset


def _check_deck(
    path: Path, game_folder: Path, report: CheckReport, cardset: CardSet | None = None
) -> None:
    if cardset is None:
        sub = CheckReport()
        cardset = _check_game_folder_quiet(game_folder, sub)
        if cardset is None:
            report.errors.extend(sub.errors)
            return
    try:
        deck = read_deck_file(path, cardset, expected_game=cardset.game)
    except CompanionError as exc:
        report.errors.append(str(exc))
        return
    extra = f", mane {deck.mane}" if deck.mane else ""
    extra += f", {sum(deck.problems.values())} problems" if deck.problems else ""
    extra += f", lord {deck.lord}" if deck.lord else ""
    report.ok.append(f"{deck.path}: deck {deck.name!r}, {deck.size} cards{extra}")


def _check_game_folder_quiet(folder: Path, report: CheckReport) -> CardSet | None:
    parsed = [p for p in (_check_file(f, report) for f in sorted(folder.glob("*.yaml"))) if p]
    if report.errors:
        return None
    try:
        return merge_files(folder.name, parsed)
    except DataFileError as exc:
        report.errors.append(str(exc))
        return None
