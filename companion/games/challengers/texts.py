"""Every Challengers! violation: stable code, rulebook section, English and German message.

Messages are templates filled with the cards, zones and numbers of the case at hand.
"""

from __future__ import annotations

from companion.engine.texts import ViolationCatalog

RULEBOOK = "Challengers! rules"

# code -> (rulebook section, English template, German template)
VIOLATIONS: dict[str, tuple[str, str, str]] = {
    "ch.not-starter": (
        "Spielablauf",
        "{starter} starts the match: only {starter} reveals the first card.",
        "{starter} beginnt das Match: nur {starter} deckt die erste Karte auf.",
    ),
    "ch.not-attacker": (
        "Spielablauf",
        "{active} attacks now; {player} reveals no card.",
        "{active} greift jetzt an; {player} deckt keine Karte auf.",
    ),
    "ch.attack-complete": (
        "Spielablauf",
        "The attack already reached the defence ({total} >= {defence}); no further card is "
        "revealed.",
        "Der Angriff hat die Verteidigung schon erreicht ({total} >= {defence}); es wird keine "
        "weitere Karte aufgedeckt.",
    ),
    "ch.not-from-deck": (
        "Spielablauf",
        "{card} cannot be the top card of {player}'s deck.",
        "{card} kann nicht die oberste Karte des Decks von {player} sein.",
    ),
    "ch.deck-empty": (
        "Ende eines Matches",
        "{player}'s deck is empty.",
        "Das Deck von {player} ist leer.",
    ),
    "ch.no-bench-now": (
        "Spielablauf",
        "Cards go to the bench only when an attack has reached their strength.",
        "Karten kommen erst auf die Bank, wenn ein Angriff ihre Stärke erreicht hat.",
    ),
    "ch.not-defending": (
        "Spielablauf",
        "{card} is not one of {player}'s beaten cards.",
        "{card} gehört nicht zu den besiegten Karten von {player}.",
    ),
    "ch.not-a-seat": (
        "Spielablauf",
        "{zone} is not a bench seat of {player}.",
        "{zone} ist kein Sitz der Bank von {player}.",
    ),
    "ch.seat-name": (
        "Spielablauf",
        "Seat {zone} holds {other}: a seat never holds cards with different names ({card}).",
        "Sitz {zone} hält {other}: ein Sitz nimmt nie Karten mit verschiedenen Namen auf "
        "({card}).",
    ),
    "ch.rest-none": (
        "Karteneffekte",
        "No card effect lets {player} put a bench card on the rest pile now.",
        "Kein Karteneffekt erlaubt {player} jetzt, eine Karte der Bank auf den Ruhestapel zu "
        "legen.",
    ),
    "ch.rest-not-bench": (
        "Karteneffekte",
        "{card} is not on {player}'s bench.",
        "{card} liegt nicht auf der Bank von {player}.",
    ),
    "ch.rest-first": (
        "Karteneffekte",
        "{player} first puts {count:bench card|bench cards} on the rest pile (card effect).",
        "{player} legt zuerst {count:Bankkarte|Bankkarten} auf den Ruhestapel (Karteneffekt).",
    ),
    "ch.stack-early": (
        "Spielablauf",
        "The attacker pushes the revealed cards together only after the attack succeeded.",
        "Der Angreifer schiebt seine aufgedeckten Karten erst nach dem erfolgreichen Angriff "
        "zusammen.",
    ),
    "ch.stack-not-own": (
        "Spielablauf",
        "{card} is not among {player}'s revealed cards of this attack.",
        "{card} gehört nicht zu den aufgedeckten Karten von {player} in diesem Angriff.",
    ),
    "ch.stack-top": (
        "Spielablauf",
        "The last revealed card {expected} lies on top of the stack and holds the flag, "
        "not {card}.",
        "Die zuletzt aufgedeckte Karte {expected} liegt oben auf dem Stapel und bekommt die "
        "Fahne, nicht {card}.",
    ),
    "ch.unexplained": (
        "Spielablauf",
        "{card} moved to {zone} without a rule that allows it.",
        "{card} kam ohne Regel, die es erlaubt, nach {zone}.",
    ),
    "ch.flag-card": (
        "Spielablauf",
        "The flag belongs on the defending card {expected}, not on {card}.",
        "Die Fahne gehört auf die verteidigende Karte {expected}, nicht auf {card}.",
    ),
    "ch.left-table": (
        "Spielablauf",
        "{card} left the table without a rule that allows it.",
        "{card} hat den Tisch verlassen, ohne dass eine Regel es erlaubt.",
    ),
    "ch.attack-unfinished": (
        "Spielablauf",
        "{player} keeps revealing cards until the attack reaches {defence} (now {total}).",
        "{player} deckt weiter Karten auf, bis der Angriff {defence} erreicht (jetzt {total}).",
    ),
    "ch.bench-unfinished": (
        "Spielablauf",
        "{player} puts every beaten card on the bench.",
        "{player} legt jede besiegte Karte auf die Bank.",
    ),
    "ch.open-missing": (
        "Spielablauf",
        "{player} reveals the top card of the deck and lays the flag on it.",
        "{player} deckt die oberste Karte des Decks auf und legt die Fahne darauf.",
    ),
}


ACTIONS: dict[str, tuple[str, str]] = {
    "bench": ("putting a card on the bench", "Karte auf die Bank legen"),
    "stack": ("pushing cards together", "Karten zusammenschieben"),
    "rest": ("putting a card on the rest pile", "Karte auf den Ruhestapel legen"),
    "flag": ("moving the flag", "Fahne versetzen"),
}
"""How a violation names each move kind of this game (see `CORE_ACTIONS` for the rest)."""

SECTIONS_EN: dict[str, str] = {
    'Ende eines Matches': 'End of a match',
    'Karteneffekte': 'Card effects',
    'Spielablauf': 'Course of play',
}
"""The rulebook's (German) section names in English, for rule references on an
English page."""

CATALOG = ViolationCatalog(RULEBOOK, VIOLATIONS, game="challengers", actions=ACTIONS,
                           sections_en=SECTIONS_EN)
violation = CATALOG.violation
