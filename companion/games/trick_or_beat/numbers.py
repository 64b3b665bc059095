"""Every number of the Trick or Beat rulebook, defined once (rules/trick-or-beat.de.txt).

Rules, effects, flow prompts, violation texts and the page's table facts read these names;
tests/rulebook/test_numbers_in_rulebooks.py finds each one in the rulebook's German text.
"""

from __future__ import annotations

from typing import Final

CARDS_IN_GAME: Final = 150
"""Vor dem Spiel 2: "Mische alle 150 Karten gut durch." """
DEAL: Final = 15
"""Vor dem Spiel 3: "Verteile 15 Karten an jeden Spieler." """
KEEP: Final = 8
"""Draft 1: "Wähle 8 aus deinen 15 Karten aus, die du behalten möchtest." """
DRAFT_DISCARD: Final = DEAL - KEEP
"""Draft 2: "Lege die anderen 7 Karten auf den Ablagestapel." """

REDRAW_SHOW_BELOW: Final = 3
"""Redraw Rule 1: "Wenn du weniger als 3 Wesen gezogen hast, darfst du ... genauso viele neue
Karten ziehen." """
REDRAW_FRESH_FEWER: Final = 3
"""Redraw Rule 2: "... darfst du alle ablegen und 3 Karten weniger neu ziehen." """

FIRST_TURN_ATTACK_MALUS: Final = 3
"""Erster Zug 2: "Der beginnende Spieler hat -3 Angriffstärke auf jeden Angriff in diesem
Zug." """

LANE_LIMIT: Final = 2
"""Lanes: "Auf jeder Lane können maximal 2 Wesen liegen." """
LANE_LIMIT_MAX: Final = 5
"""Lanes: "Das Limit lässt sich mit dem Trickstapel auf bis zu 5 erhöhen."; Trickstapel
Übersicht 1-3: 3, 4, 5 Wesen with 1, 2, 3 cards on the trick pile."""

TRICK_ATTACK_BONUS_AT: Final = 4
"""Trickstapel Übersicht 4: "Du erhältst +2 Angriffstärke auf jeden Angriff." """
ATTACK_BONUS: Final = 2
"""Trickstapel Übersicht 4: the +2 of "+2 Angriffstärke"."""
TRICK_SURVIVAL_BONUS_AT: Final = 5
"""Trickstapel Übersicht 5: "Du erhältst +2 Überlebenspunkte gegen jeden Angriff." """
SURVIVAL_BONUS: Final = 2
"""Trickstapel Übersicht 5: the +2 of "+2 Überlebenspunkte"."""
TRICK_BLOCK_AT: Final = 6
"""Trickstapel Übersicht 6: "Dein Gegner kann nicht mehr durch Trick gewinnen." """
TRICK_WIN: Final = 7
"""Spielziel and Trickstapel Übersicht 7: "Trick: Es befinden sich 7 Karten auf deinem
Trickstapel." """


def lane_limit_for(trick_cards: int) -> int:
    """Creatures allowed per lane with `trick_cards` on the trick pile: 2, then one more for
    each of the first three trick cards (Trickstapel Übersicht 1-3), never above 5."""
    return LANE_LIMIT + min(max(trick_cards, 0), LANE_LIMIT_MAX - LANE_LIMIT)


def attack_bonus_for(trick_cards: int) -> int:
    """+2 on every attack from the 4th trick card on (Trickstapel Übersicht 4)."""
    return ATTACK_BONUS if trick_cards >= TRICK_ATTACK_BONUS_AT else 0


def survival_bonus_for(trick_cards: int) -> int:
    """+2 survival against every attack from the 5th trick card on (Übersicht 5)."""
    return SURVIVAL_BONUS if trick_cards >= TRICK_SURVIVAL_BONUS_AT else 0


def blocks_trick_win(trick_cards: int) -> bool:
    """From the 6th trick card on the opponent cannot win by trick (Übersicht 6)."""
    return trick_cards >= TRICK_BLOCK_AT
