"""Every rule number of the My Little Pony CCG, defined once.

Two sources: the German rulebook (rules/my-little-pony-ccg.de.txt; one long page, cited by its
inline headings), and, for what it leaves out, the official Enterplay rules (the MLP CCG wiki's
"Action Tokens" and Comprehensive Rules 514.5), marked OFFICIAL below.
tests/rulebook/test_numbers_in_rulebooks.py finds each rulebook number in the German text and
lists the OFFICIAL ones as not there.
"""

from __future__ import annotations

from typing import Final

WIN_POINTS: Final = 15
"""Spielziel: "Erreicht ein Spieler 15 Punkte, gewinnt er das Spiel." """
HAND_LIMIT: Final = 8
"""Zug Ende: "Hat man mehr als 8 Handkarten, muss man so viele Karten auf den Ablagestapel
abwerfen, bis es nur noch 8 Handkarten sind." """
SOLVE_POINTS: Final = 1
"""Score Phase, Schritt 2: "... wird das Problem gelöst und man erhält einen Punkt." """

MIN_DECK: Final = 45
"""Was brauche ich zum Spielen?: "... euer Spieldeck, dieses sollte mindestens 45 Karten
umfassen" """
MAX_COPIES: Final = 3
"""Was brauche ich zum Spielen?: "Ein und dieselbe Karte darf bis zu 3x in eurem Spieldeck
sein." """
PROBLEM_DECK: Final = 10
"""Was brauche ich zum Spielen?: "Eines ist das Problemdeck und umfasst 10 Karten" """
MAX_PROBLEM_COPIES: Final = 2
"""Was brauche ich zum Spielen?: "In eurem Problemdeck darf jede Karte maximal 2x vorhanden
sein" """
UNIQUE_COPIES: Final = 1
"""Unique: "... dass diese Karte nur ein einziges Mal im Deck vorhanden sein darf." """

CARETAKER_BONUS: Final = 1
"""Caretaker: "Charaktere mit diesem Schlüsselwort erhalten +1 Kraftwert" """
RANDOM_REFLIP_POWER: Final = 1
"""Random: "... die oberste Deckkarte aufdeckst und sie einen Kraftwert von 1 hat, kannst du
diese Karte ... ignorieren und eine neue aufdecken" """
STUDIOUS_TOKENS: Final = 1
"""Studious: "Wenn du eine Konfrontation gewinnst, an dem mindestens ein Charakter mit diesem
Schlüsselwort beteiligt war, dann bekommst du einen Aktionspunkt." """
SWIFT_DISCOUNT: Final = 1
"""Swift: "Einen Charakter mit diesem Schlüsselwort zu bewegen, kostet 1 Aktionspunkt
weniger." """

OPENING_HAND: Final = 6
"""OFFICIAL: each player draws 6 cards at the start."""
MOVE_COST: Final = 1
"""OFFICIAL: moving a character costs 1 action token."""
DRAW_COST: Final = 1
"""OFFICIAL: drawing a card in the main phase costs 1 action token."""
TROUBLEMAKER_COST: Final = 1
"""OFFICIAL: playing a troublemaker face down costs 1 action token."""
DEFAULT_HOME_LIMIT: Final = 3
"""OFFICIAL: the home limit of a mane character that does not print one."""
FIRST_TURN_TOKENS: Final = 1
"""OFFICIAL, Action Tokens: the first player's first turn gains 1 token."""
TOKENS_BY_SCORE: Final = ((11, 5), (6, 4), (2, 3), (0, 2))
"""OFFICIAL, Action Tokens: tokens gained in the ready phase by the highest score
(at least 11: 5, 6-10: 4, 2-5: 3, 0-1: 2), highest threshold first."""


def tokens_for(high_score: int) -> int:
    """Action tokens for a ready phase when the highest score is `high_score`."""
    return next(tokens for least, tokens in TOKENS_BY_SCORE if high_score >= least)
