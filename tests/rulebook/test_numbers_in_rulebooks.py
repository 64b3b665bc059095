"""Every number in a game's `numbers.py` is the number its German rulebook prints.

The oracle is the rulebook text (rules/<game>.de.txt), read here with one pattern per number
written from the rulebook's sentence, never from the code: a number moved in the code (a bonus
threshold from 4 to 3) or in the rulebook fails here. Numbers the German rulebook does not
state (the official rules of Fire Emblem Cipher's game start, My Little Pony's action tokens)
are listed as OFFICIAL; a new constant that is in neither list fails the completeness test.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from companion.games import game_spec

RULES_DIR = Path(os.environ.get("COMPANION_RULES_DIR")
                 or Path(__file__).resolve().parents[2].parent / "shared" / "rules")
"""The German rulebooks beside the repository (../shared/rules, as README says)."""
if not (RULES_DIR / "trick-or-beat.de.txt").is_file():
    pytest.skip(f"no rulebooks at {RULES_DIR} (set COMPANION_RULES_DIR)", allow_module_level=True)

WORDS = {"ein": 1, "eine": 1, "einen": 1, "zwei": 2, "drei": 3, "vier": 4, "vierten": 4,
         "fünf": 5, "fünften": 5, "sechs": 6, "sieben": 7, "acht": 8, "verdoppelt": 2}
"""German number words as the rulebooks write them ("einen Würfel", "vierten Würfel")."""

Reader = Callable[[str], object]


@cache
def rulebook(game: str) -> str:
    """The rulebook's text with markdown emphasis dropped and all whitespace as one space."""
    text = (RULES_DIR / game_spec(game).rules_file).read_text(encoding="utf-8").replace("**", "")
    return re.sub(r"\s+", " ", text)


def as_int(word: str) -> int:
    return int(word) if word.isdigit() else WORDS[word.lower()]


def num(pattern: str, group: int = 1) -> Reader:
    """The number a rulebook sentence states (digits or a German number word)."""
    def read(text: str) -> object:
        found = re.search(pattern, text)
        assert found is not None, f"the rulebook has no sentence matching {pattern!r}"
        return as_int(found.group(group))
    return read


def both(first: Reader, second: Reader) -> Reader:
    """A number the rulebook states twice: both places must agree."""
    def read(text: str) -> object:
        a, b = first(text), second(text)
        assert a == b, f"the rulebook says {a} and {b}"
        return a
    return read


def table(pattern: str) -> Reader:
    """{key: value} or {key: (low, high)} from every match of a pattern with 2 or 3 groups."""
    def read(text: str) -> object:
        rows = re.findall(pattern, text)
        assert rows, f"the rulebook has no rows matching {pattern!r}"
        out: dict[object, object] = {}
        for row in rows:
            key = int(row[0]) if row[0].isdigit() else row[0]
            out[key] = as_int(row[1]) if len(row) == 2 else (as_int(row[1]), as_int(row[2]))
        return out
    return read


RULEBOOK: dict[str, dict[str, Reader]] = {
    "trick_or_beat": {
        "CARDS_IN_GAME": num(r"Mische alle (\d+) Karten"),
        "DEAL": num(r"Verteile (\d+) Karten an jeden Spieler"),
        "KEEP": num(r"Wähle (\d+) aus deinen \d+ Karten"),
        "DRAFT_DISCARD": num(r"Lege die anderen (\d+) Karten auf den Ablagestapel"),
        "REDRAW_SHOW_BELOW": num(r"weniger als (\d+) Wesen gezogen"),
        "REDRAW_FRESH_FEWER": num(r"alle ablegen und (\d+) Karten weniger"),
        "FIRST_TURN_ATTACK_MALUS": num(r"hat -(\d+) Angriffstärke auf jeden Angriff in diesem"),
        "LANE_LIMIT": num(r"Auf jeder Lane können maximal (\d+) Wesen liegen"),
        "LANE_LIMIT_MAX": num(r"Limit lässt sich mit dem Trickstapel auf bis zu (\d+) erhöhen"),
        "TRICK_ATTACK_BONUS_AT": num(r"(\d+)\. Du erhältst \+\d+ Angriffstärke"),
        "ATTACK_BONUS": num(r"Du erhältst \+(\d+) Angriffstärke auf jeden Angriff"),
        "TRICK_SURVIVAL_BONUS_AT": num(r"(\d+)\. Du erhältst \+\d+ Überlebenspunkte"),
        "SURVIVAL_BONUS": num(r"Du erhältst \+(\d+) Überlebenspunkte gegen jeden Angriff"),
        "TRICK_BLOCK_AT": num(r"(\d+)\. Dein Gegner kann nicht mehr durch Trick gewinnen"),
        "TRICK_WIN": both(num(r"Trick: Es befinden sich (\d+) Karten auf deinem Trickstapel"),
                          num(r"(\d+)\. Du gewinnst durch Trick")),
    },
    "creature_crush": {
        "LAGER_SIZE": both(num(r"Das Lager enthält zu Spielbeginn alle (\d+) Spielkarten"),
                           num(r"sein Lager mit (\d+) Karten aufgebaut")),
        "OPENING_HAND": both(num(r"ihre obersten (\w+) Lagerkarten auf die Hand"),
                             num(r"zusätzlich zu deinen (\d+) Handkarten")),
        "FIELD_COLUMNS": num(r"bietet Platz für (\d+) Spielkarten"),
        "START_DICE": num(r"Würfle (\d+) Startwürfel"),
        "OPENER_FIRST_TURN_DICE": num(r"in seinem ersten Zug nur (\d+) Startwürfel"),
        "TRIPLE_DICE": num(r"zusätzlichen (\w+) Würfel, falls alle deine Würfel einen Drilling"),
        "QUAD_DICE": num(r"zusätzlichen (\w+) Würfel, falls deine Würfel einen Vierling"),
        "MAX_START_DICE": num(r"nicht mehr als (\d+) Startwürfel pro Spielzug"),
        "DICE_PER_COLOUR": both(num(r"Es gibt (\d+) weiße und \d+ rote Würfel"),
                                num(r"Es gibt \d+ weiße und (\d+) rote Würfel")),
        "DIE_FACES": num(r"Handkarte mit höheren Kosten als (\d+) auszuspielen"),
        "CRUSH_MAX_COST": num(r"Die Kosten reichen von X \(beliebig\) bis maximal (\d+) Würfeln"),
        "MOVE_COST": num(r"für jede Creature, die du verschieben möchtest, (\w+) Würfel"),
        "SWAP_COST": num(r"Plätze tauschen, wenn du dafür (\d+) Würfel verbrennst"),
        "TRAEGE_DAMAGE": num(r"Die Creature fügt sich selbst (\d+) Schaden hinzu"),
        # one action per turn, Munter one more
        "MUNTER_ACTIONS": lambda text: (
            num(r"darf pro Spielzug nur (\w+) der folgenden Aktionen")(text),
            num(r"im selben Zug (\w+) weitere Aktion")(text),
        ),
    },
    "fire_emblem_cipher": {
        "BONDS_PER_TURN": num(r"Du kannst (\w+) Karte aus deiner Hand in den Bindungsbereich"),
        "CRITICAL_FACTOR": num(r"Ein kritischer Treffer (verdoppelt) die Gesamtangriffskraft"),
        "PHASES": num(r"Jeder Spielzug besteht aus (\w+) Phasen"),
    },
    "my_little_pony": {
        "WIN_POINTS": num(r"Erreicht ein Spieler (\d+) Punkte, gewinnt er das Spiel"),
        "HAND_LIMIT": both(num(r"Hat man mehr als (\d+) Handkarten"),
                           num(r"bis es nur noch (\d+) Handkarten sind")),
        "SOLVE_POINTS": num(r"wird das Problem gelöst und man erhält (\w+) Punkt"),
        "MIN_DECK": num(r"dieses sollte mindestens (\d+) Karten umfassen"),
        "MAX_COPIES": num(r"Ein und dieselbe Karte darf bis zu (\d+)x in eurem Spieldeck"),
        "PROBLEM_DECK": num(r"Problemdeck und umfasst (\d+) Karten"),
        "MAX_PROBLEM_COPIES": num(r"In eurem Problemdeck darf jede Karte maximal (\d+)x"),
        "UNIQUE_COPIES": num(r"dass diese Karte nur (ein) einziges Mal im Deck vorhanden"),
        "CARETAKER_BONUS": num(r"Charaktere mit diesem Schlüsselwort erhalten \+(\d+) Kraftwert"),
        "RANDOM_REFLIP_POWER": num(r"sie einen Kraftwert von (\d+) hat"),
        "STUDIOUS_TOKENS": num(r"beteiligt war, dann bekommst du (\w+) Aktionspunkt"),
        "SWIFT_DISCOUNT": num(r"zu bewegen, kostet (\d+) Aktionspunkt weniger"),
    },
    "challengers": {
        "ROUNDS": num(r"Die Spieler nehmen über (\d+) Runden an den Phasen"),
        "MAX_PLAYERS": num(r"Bei Spielen mit 3 bis (\d+) Spielern folgt dann noch das Finale"),
        "NO_FINAL_MAX_PLAYERS": num(r"Bei Spielen mit 1 oder (\d+) Spielern gibt es kein Finale"),
        "FINALISTS": num(r"für das sich nur die (\d+) Spieler qualifizieren"),
        "EARLY_WIN_LEAD": both(num(r"mit mindestens (\d+) Fans in Führung"),
                               num(r"einen Vorsprung von mindestens (\d+) Fans hat")),
        "LEVEL_MAX_STRENGTH": table(r"\* ([ABC]) = \w+ Stufe, bis zu (\d+) Basisstärke"),
        "THEMED_SETS": num(r"Es gibt (\d+) weitere Sets"),
        "SETS_IN_PLAY": num(r"aber nur (\d+) davon werden in einem Spiel verwendet"),
        "DEFAULT_COPIES": num(r"in allen anderen Sets die meisten Karten (\d+)-mal"),
        "OFFER": num(r"Die Spieler ziehen (\d+) Karten von einem Level-Stapel"),
        "KEEP_MIN": num(r"wählen davon (\d+) oder \d+ Karten aus"),
        "KEEP_MAX": num(r"wählen davon \d+ oder (\d+) Karten aus"),
        "SEATS": num(r"ein Bereich mit (\d+) Plätzen für Karten"),
        "TROPHY_FANS": table(r"Runde (\d+): (\d+) ?- ?(\d+) Punkte"),
        "BOT_MIN_LEVEL": num(r"Der Bot hat die Schwierigkeitsstufen (\d+) bis \d+"),
        "BOT_MAX_LEVEL": num(r"Der Bot hat die Schwierigkeitsstufen \d+ bis (\d+)"),
    },
}

OFFICIAL: dict[str, frozenset[str]] = {
    "trick_or_beat": frozenset(),
    "creature_crush": frozenset(),
    "fire_emblem_cipher": frozenset({"MIN_DECK", "MAX_COPIES", "LORD_COST", "HAND_SIZE",
                                     "ORBS"}),
    "my_little_pony": frozenset({"OPENING_HAND", "MOVE_COST", "DRAW_COST", "TROUBLEMAKER_COST",
                                 "DEFAULT_HOME_LIMIT", "FIRST_TURN_TOKENS", "TOKENS_BY_SCORE"}),
    "challengers": frozenset(),
}
"""Numbers the German rulebook does not state (official rules, cited in numbers.py)."""

GAME_IDS = {"trick_or_beat": "trick-or-beat", "creature_crush": "creature-crush",
            "fire_emblem_cipher": "fire-emblem-cipher", "my_little_pony": "my-little-pony-ccg",
            "challengers": "challengers"}


def numbers_of(package: str) -> ModuleType:
    return importlib.import_module(f"companion.games.{package}.numbers")


def constants(module: ModuleType) -> dict[str, object]:
    """The module's rule numbers: upper-case names bound to numbers, tuples or tables."""
    return {name: value for name, value in vars(module).items()
            if name.isupper() and isinstance(value, int | tuple | dict)}


CASES = [(pkg, name) for pkg, names in RULEBOOK.items() for name in names]


@pytest.mark.parametrize(("package", "name"), CASES, ids=[f"{p}.{n}" for p, n in CASES])
def test_number_is_the_rulebooks(package: str, name: str) -> None:
    stated = RULEBOOK[package][name](rulebook(GAME_IDS[package]))
    value = getattr(numbers_of(package), name)
    if name == "MUNTER_ACTIONS":
        assert isinstance(stated, tuple)
        stated = sum(int(n) for n in stated)  # one action, Munter one more
    if isinstance(value, dict):
        value = dict(value)
    assert value == stated, f"{package}.numbers.{name} is {value}; the rulebook says {stated}"


@pytest.mark.parametrize("package", sorted(RULEBOOK))
def test_every_number_has_a_source(package: str) -> None:
    """A new constant must be checked against the rulebook or marked OFFICIAL here."""
    names = set(constants(numbers_of(package)))
    covered = set(RULEBOOK[package]) | OFFICIAL[package]
    assert names - covered == set(), "numbers without a rulebook check"
    assert covered - names == set(), "checks of numbers that no longer exist"


@pytest.mark.parametrize(("cards", "creatures"), [
    (int(m.group(1)), int(m.group(2))) for m in re.finditer(
        r"(\d+)\. Auf jeder deiner Lanes können (\d+) Wesen liegen", rulebook("trick-or-beat"))])
def test_trick_or_beat_lane_limit_by_trick_cards(cards: int, creatures: int) -> None:
    """Trickstapel Übersicht 1-3, row by row; beyond the 3rd card the limit stays."""
    tob = numbers_of("trick_or_beat")
    assert tob.lane_limit_for(cards) == creatures
    assert tob.lane_limit_for(cards + 4) == as_int(
        re.search(r"auf bis zu (\d+) erhöhen", rulebook("trick-or-beat")).group(1))  # type: ignore[union-attr]


def test_my_little_pony_tokens_by_score_cover_every_score() -> None:
    """Official action-token table: 0-1 -> 2, 2-5 -> 3, 6-10 -> 4, 11 and more -> 5."""
    mlp = numbers_of("my_little_pony")
    expected = {0: 2, 1: 2, 2: 3, 5: 3, 6: 4, 10: 4, 11: 5, 14: 5}
    assert {score: mlp.tokens_for(score) for score in expected} == expected
