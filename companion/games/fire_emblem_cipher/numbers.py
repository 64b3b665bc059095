"""Every rule number of Fire Emblem Cipher, defined once.

Two sources: the German rulebook (rules/fire-emblem-cipher.de.txt, its "Spielphasen" and
"Kampf"), and, for what that rulebook leaves out (deck building, the game's start), the official
Fire Emblem 0 (Cipher) rules, marked OFFICIAL below. tests/rulebook/test_numbers_in_rulebooks.py
finds each rulebook number in the German text and lists the OFFICIAL ones as not there.
"""

from __future__ import annotations

from typing import Final

MIN_DECK: Final = 50
"""OFFICIAL, deck construction: at least 50 cards."""
MAX_COPIES: Final = 4
"""OFFICIAL, deck construction: at most 4 copies of the same card."""
LORD_COST: Final = 1
"""OFFICIAL, game start: the lord is a cost-1 unit of the deck."""
HAND_SIZE: Final = 6
"""OFFICIAL, game start: draw six cards (one redraw allowed)."""
ORBS: Final = 5
"""OFFICIAL, game start: the next five deck cards face down as orbs."""

BONDS_PER_TURN: Final = 1
"""2. Bindungsphase: "Du kannst eine Karte aus deiner Hand in den Bindungsbereich legen" """
CRITICAL_FACTOR: Final = 2
"""3. Kritischer Treffer: "Ein kritischer Treffer verdoppelt die Gesamtangriffskraft." """
PHASES: Final = 5
"""Spielphasen: "Jeder Spielzug besteht aus fünf Phasen." """
