"""Every number of the Creature Crush rulebook, defined once (rules/creature-crush.de.txt).

Rules, board, deck rules, flow prompts and violation texts read these names;
tests/rulebook/test_numbers_in_rulebooks.py finds each one in the rulebook's German text.
"""

from __future__ import annotations

from typing import Final

LAGER_SIZE: Final = 20
"""Spielfeld: "Das Lager enthält zu Spielbeginn alle 20 Spielkarten"; Geplänkel 2: "Jeder
Spieler hat jetzt sein Lager mit 20 Karten aufgebaut." """
OPENING_HAND: Final = 4
"""Schlachtvorbereitung 4: "... ihre obersten vier Lagerkarten auf die Hand"; Startphase 1:
"zusätzlich zu deinen 4 Handkarten"."""
FIELD_COLUMNS: Final = 3
"""Spielfeld: "Jede Zone ... bietet Platz für 3 Spielkarten." """

START_DICE: Final = 3
"""Startphase 2: "Würfle 3 Startwürfel." """
OPENER_FIRST_TURN_DICE: Final = 2
"""Startphase, Wichtig!: "... darf in seinem ersten Zug nur 2 Startwürfel werfen" """
TRIPLE_DICE: Final = 4
"""Startphase 2: "Würfle einen zusätzlichen vierten Würfel, falls alle deine Würfel einen
Drilling zeigen." """
QUAD_DICE: Final = 5
"""Startphase 2: "Würfle einen zusätzlichen fünften Würfel, falls deine Würfel einen Vierling
zeigen." """
MAX_START_DICE: Final = 5
"""Startphase 2: "Du kannst nicht mehr als 5 Startwürfel pro Spielzug erhalten." """
DICE_PER_COLOUR: Final = 5
"""Würfel: "Es gibt 5 weiße und 5 rote Würfel" (per player, on the printed sheet)."""
DIE_FACES: Final = 6
"""A six-sided die (Kampfphase: "... Handkarte mit höheren Kosten als 6")."""

CRUSH_MAX_COST: Final = 4
"""Crush: "Die Kosten reichen von X (beliebig) bis maximal 4 Würfeln" """
MOVE_COST: Final = 1
"""Taktikphase: "Verbrenne für jede Creature, die du verschieben möchtest, einen Würfel." """
SWAP_COST: Final = 2
"""Taktikphase: "Zwei Verbündete können ihre Plätze tauschen, wenn du dafür 2 Würfel
verbrennst." """
TRAEGE_DAMAGE: Final = 1
"""Träge: "Die Creature fügt sich selbst 1 Schaden hinzu, wenn sie in der Taktikphase
verschoben wird" """
MUNTER_ACTIONS: Final = 2
"""Munter: "Die Creature kann im selben Zug eine weitere Aktion ausführen" (one action per turn,
"darf pro Spielzug nur eine der folgenden Aktionen ausführen", plus one)."""
