"""A step the tournament refuses reaches German users in German: the judges' notice at the hall
quotes a refused result in German, and the desk running the deck phase with
`companion tournament --lang de` (or COMPANION_LANG=de) reads every refusal in German."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from companion.games.challengers.tournament import Match, Tournament, TournamentError
from companion.tournaments.book import TournamentBook
from tests.language_oracle import COMMON


def _words(text: str) -> set[str]:
    return {w.strip(".,:;()'\"").lower() for w in text.split()}


def test_a_refused_result_says_why_in_german() -> None:
    t = Tournament(["Ada", "Bo"], seed=3)
    with pytest.raises(TournamentError) as refused:
        t.record(Match(1, "Ada", "Bo", "Ada"), "Ada")  # still the deck phase: no match is played
    german = refused.value.message_de
    assert german, "a refusal the judges may read in German has a German text"
    assert not _words(german) & COMMON["en"], german
    assert "Runde 1" in german and "Turnierstufe" in german


# --- the deck phase at the tournament desk: `companion tournament --lang de ...` ------------

def _desk(db: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    from companion.cli import cli

    return CliRunner(env=env).invoke(cli, ["tournament", *args, "--db", str(db)])


def _refusal(result: Result) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    return lines[-1]


@pytest.fixture
def desk(tmp_path: Path) -> tuple[Path, Tournament]:
    """A tournament of three (the bot makes four) in its first deck phase; Ada has drawn."""
    db = tmp_path / "games.db"
    assert _desk(db, "new", "Ada", "Bo", "Cy", "--seed", "5").exit_code == 0
    assert _desk(db, "offer", "Ada").exit_code == 0
    with TournamentBook(db) as book:
        return db, book.load(book.latest() or 0).tournament


def test_a_german_user_reads_every_deck_phase_refusal_in_german(
        desk: tuple[Path, Tournament]) -> None:
    """Each mistake a desk makes in the deck phase, refused in German: the words a German
    judge expects (written here by hand), no English word, no Python list."""
    db, t = desk
    offer = t.phases["Ada"].offer
    deck = t.seats["Ada"].deck
    owed = t.removals_owed(offer[:1])
    not_offered = next(u for u in deck if u not in offer)
    outside = next(u for u in t.stacks["B"] if u not in deck)  # a card nobody holds
    name = t.catalog.of_uid(outside).name
    mistakes = {  # the German a judge reads: hand-written fragments
        ("offer", "Zoe"): ["kein Spieler 'Zoe'", "Spieler: Ada, Bo, Cy, Bot"],
        ("offer", "Ada"): ["Ada hat die Karten dieser Runde schon gezogen"],
        ("offer", "Bot"): ["der Bot nimmt an der Deck-Phase nicht teil"],
        ("redraw", "Bo", offer[0]): ["Bo hat keine angebotenen Karten zum Neuziehen"],
        ("redraw", "Ada", not_offered): ["Ada kann nur angebotene Karten neu ziehen"],
        ("choose", "Ada", *(f"--keep={u}" for u in offer[:3])):
            ["Ada behält 1 oder 2 der angebotenen Karten, nicht 3"],
        ("choose", "Ada", f"--keep={not_offered}"): ["Ada wurde nicht angeboten:"],
        ("choose", "Ada", f"--keep={offer[0]}", *(f"--remove={u}" for u in deck[:owed + 1])):
            [f"Ada entfernt {owed} Karte", f"(Ausgewählt), angegeben: {owed + 1}"],
        ("choose", "Ada", f"--keep={offer[0]}", *(f"--remove={u}" for u in deck[:owed]),
         f"--slim={outside}"): [f"{name} ({outside}) ist nicht in dem Deck von Ada"],
        ("choose", "Cy", f"--keep={offer[0]}"): ["Cy hat keine angebotenen Karten zur Auswahl"],
        ("slim", "Bo", deck[0]): ["Bo wählt erst die neuen Karten"],
        ("play",): ["wählen noch Karten: Ada, Bo, Cy"],
        ("next",): ["in der Turnierstufe Deck-Phase (Runde 1) nicht möglich; nötig: "
                    "Match-Phase"],
        ("result", "--table", "table-1", "--winner", "Ada"):
            ["in der Turnierstufe Deck-Phase (Runde 1) nicht möglich; nötig: Match-Phase "
             "oder Finale"],
    }
    for args, words in mistakes.items():
        german = _refusal(_desk(db, "--lang", "de", *args))
        english = _refusal(_desk(db, *args))  # the desk's default stays English
        assert german.startswith("Fehler: ") and english.startswith("Error: "), args
        for word in words:
            assert word in german, (args, german)
        said = {w.strip(".,:;()'\"").lower() for w in german.split()}
        assert not said & COMMON["en"], (args, german)
        assert "[" not in german and german != english.replace("Error", "Fehler"), args


def test_the_desks_language_comes_from_companion_lang_too(desk: tuple[Path, Tournament]
                                                         ) -> None:
    db, _ = desk
    german = _refusal(_desk(db, "offer", "Ada", env={"COMPANION_LANG": "de"}))
    assert german == "Fehler: Ada hat die Karten dieser Runde schon gezogen"


def test_a_plan_the_rules_refuse_is_said_in_german(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    twice = _refusal(_desk(db, "--lang", "de", "new", "Ada", "Ada"))
    assert twice == "Fehler: Spielernamen müssen verschieden sein und nicht 'Bot': Ada, Ada"
    levels = _refusal(_desk(db, "--lang", "de", "new", "Ada", "Bo", "--levels", "BBBBCCC"))
    assert levels == ("Fehler: Runde 1 zieht aus Stufe A, spätere Runden aus B oder C; "
                      "angegeben: BBBBCCC")
    nothing = _refusal(_desk(tmp_path / "empty.db", "--lang", "de", "show"))
    assert nothing.endswith("empty.db: noch kein Turnier (companion tournament new ...)")
