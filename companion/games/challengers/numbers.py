"""Every number of the Challengers! rulebook, defined once (rules/challengers.de.txt).

The level plan, the tournament, the card schema, the deck pool, the match rules and their texts
read these names; tests/rulebook/test_numbers_in_rulebooks.py finds each one in the
rulebook's German text.
"""

from __future__ import annotations

from typing import Final

ROUNDS: Final = 7
"""Spielablauf: "Die Spieler nehmen über 7 Runden an den Phasen Kartenauswahl ... teil." """
MAX_PLAYERS: Final = 8
"""Spielablauf: "Bei Spielen mit 3 bis 8 Spielern folgt dann noch das Finale" """
NO_FINAL_MAX_PLAYERS: Final = 2
"""Spielablauf: "Bei Spielen mit 1 oder 2 Spielern gibt es kein Finale" """
FINALISTS: Final = 2
"""Spielablauf: "... das Finale, für das sich nur die 2 Spieler qualifizieren" """
EARLY_WIN_LEAD: Final = 11
"""Spielablauf: "Liegt ein Spieler (bei 1 bis 2 Spielern) mit mindestens 11 Fans in Führung,
gewinnt er sofort." """

LEVEL_MAX_STRENGTH: Final = {"A": 3, "B": 5, "C": 10}
"""Stufen: "A = niedrige Stufe, bis zu 3 Basisstärke", "B = ... bis zu 5", "C = ... bis zu
10"."""
THEMED_SETS: Final = 6
"""Sets: "Es gibt 6 weitere Sets, aber nur 5 davon werden in einem Spiel verwendet" """
SETS_IN_PLAY: Final = 5
"""Sets: "... aber nur 5 davon werden in einem Spiel verwendet" """
DEFAULT_COPIES: Final = 4
"""Sets: "... gibt es in allen anderen Sets die meisten Karten 4-mal." """

OFFER: Final = 5
"""Deck-Phase: "Die Spieler ziehen 5 Karten von einem Level-Stapel" """
KEEP_MIN: Final = 1
"""Deck-Phase: "... und wählen davon 1 oder 2 Karten aus" """
KEEP_MAX: Final = 2
"""Deck-Phase: "... und wählen davon 1 oder 2 Karten aus" """

SEATS: Final = 6
"""Match-Phase: "... auf seiner Bank - ein Bereich mit 6 Plätzen für Karten." """

TROPHY_FANS: Final = {
    1: (2, 3), 2: (2, 3), 3: (3, 4), 4: (5, 6), 5: (6, 7), 6: (7, 8), 7: (9, 10),
}
"""Trophäen: "Runde 1: 2 - 3 Punkte" ... "Runde 7: 9 -10 Punkte" (each trophy shows one of
the two numbers)."""

BOT_MIN_LEVEL: Final = 1
"""Bot: "Der Bot hat die Schwierigkeitsstufen 1 bis 5." """
BOT_MAX_LEVEL: Final = 5
"""Bot: "Der Bot hat die Schwierigkeitsstufen 1 bis 5." """
