"""Every Fire Emblem Cipher violation: stable code, rulebook section, English and German message.

Sections are the headings of rules/fire-emblem-cipher.de.txt. Messages are templates filled with
the cards, zones and numbers of the case at hand.
"""

from __future__ import annotations

from companion.engine.texts import ViolationCatalog
from companion.games.fire_emblem_cipher.numbers import BONDS_PER_TURN, HAND_SIZE, LORD_COST

RULEBOOK = "Fire Emblem Cipher, Spielphasen"
PREPARATION = "Spielvorbereitung (offizieller Cipher-Spielstart, nicht im Regelheft)"

# code -> (rulebook section, English template, German template)
VIOLATIONS: dict[str, tuple[str, str, str]] = {
    "fe.wrong-phase": (
        "Ablauf eines Spielzuges",
        "{action} is not allowed in this phase ({phase}).",
        "{action} ist in dieser Phase nicht erlaubt ({phase}).",
    ),
    "fe.not-your-turn": (
        "Ablauf eines Spielzuges",
        "{action} belongs to {active}'s turn, not to {player}.",
        "{action} gehört zum Zug von {active}, nicht von {player}.",
    ),
    "fe.not-in-hand": (
        "Einsatzphase",
        "{card} cannot come from {player}'s hand.",
        "{card} kann nicht aus der Hand von {player} kommen.",
    ),
    "fe.hand-empty": (
        "Bindungsphase",
        "{player} has no card in hand.",
        "{player} hat keine Karte auf der Hand.",
    ),
    "fe.not-unit": (
        "Einsatzphase",
        "{card} is not a unit.",
        "{card} ist keine Einheit.",
    ),
    "fe.setup-only": (
        PREPARATION,
        "{action} belongs to the game's preparation, which is over.",
        "{action} gehört zur Spielvorbereitung, die vorbei ist.",
    ),
    "fe.setup-order": (
        PREPARATION,
        "{action} comes later in the preparation: {missing}.",
        "{action} kommt später in der Vorbereitung: {missing}.",
    ),
    "fe.lord-twice": (
        PREPARATION,
        "{player} has chosen a lord already.",
        "{player} hat schon einen Hauptcharakter gewählt.",
    ),
    "fe.lord-cost": (
        PREPARATION,
        f"The lord must be a unit of cost {LORD_COST}; {{card}} costs {{cost}}.",
        f"Der Hauptcharakter muss eine Einheit mit Kosten {LORD_COST} sein; "
        "{card} kostet {cost}.",
    ),
    "fe.lord-zone": (
        PREPARATION,
        "The lord is laid face down on the front row ({zone} given).",
        "Der Hauptcharakter wird verdeckt in die Vorderreihe gelegt (nicht {zone}).",
    ),
    "fe.lord-missing": (
        PREPARATION,
        "{player} has not laid a lord face down on the front row yet.",
        "{player} hat noch keinen Hauptcharakter verdeckt in die Vorderreihe gelegt.",
    ),
    "fe.not-face-down": (
        PREPARATION,
        "{card} is not {player}'s face-down lord.",
        "{card} ist nicht der verdeckte Hauptcharakter von {player}.",
    ),
    "fe.deal-too-many": (
        PREPARATION,
        "{player} draws {count:card|cards}, but only {limit} more belong in the starting hand.",
        "{player} zieht {count:Karte|Karten}, aber nur {limit} gehören noch zur Starthand.",
    ),
    "fe.deal-unfinished": (
        PREPARATION,
        "{player} still has {count:card|cards} to draw for the starting hand.",
        "{player} muss noch {count:Karte|Karten} für die Starthand ziehen.",
    ),
    "fe.mulligan-once": (
        PREPARATION,
        "{player} may redraw the starting hand only once.",
        "{player} darf die Starthand nur einmal neu ziehen.",
    ),
    "fe.mulligan-late": (
        PREPARATION,
        f"The starting hand is redrawn after drawing {HAND_SIZE} cards and before the orbs are "
        "laid.",
        f"Die Starthand wird nach dem Ziehen von {HAND_SIZE} Karten und vor den Juwelen neu "
        "gezogen.",
    ),
    "fe.orbs-too-many": (
        "Siegesbedingungen",
        "{player} lays {count:orb|orbs}, but only {limit} more belong in the orb area.",
        "{player} legt {count:Juwel|Juwelen}, aber nur {limit} gehören noch in den Juwelenbereich.",
    ),
    "fe.orbs-unfinished": (
        "Siegesbedingungen",
        "{player} still has {count:orb|orbs} to lay face down from the deck.",
        "{player} muss noch {count:Juwel|Juwelen} verdeckt vom Deck legen.",
    ),
    "fe.lords-hidden": (
        PREPARATION,
        "Both lords are revealed before the first turn.",
        "Beide Hauptcharaktere werden vor dem ersten Zug aufgedeckt.",
    ),
    "fe.deck-empty": (
        "Startphase",
        "{player}'s deck is empty.",
        "Das Deck von {player} ist leer.",
    ),
    "fe.first-turn-draw": (
        "Erster Zug",
        "The first player draws no card in the first turn.",
        "In der ersten Runde darf der erste Spieler keine Karte ziehen.",
    ),
    "fe.extra-draw": (
        "Startphase",
        "{player} draws a card without a rule that allows it (one in the start phase, one "
        "bonus card per class change).",
        "{player} zieht eine Karte ohne Regel, die es erlaubt (eine in der Startphase, eine "
        "Bonuskarte je Klassenwechsel).",
    ),
    "fe.must-draw": (
        "Startphase",
        "{player} still has {count:card|cards} to draw from the deck.",
        "{player} muss noch {count:Karte|Karten} vom Deck ziehen.",
    ),
    "fe.bond-once": (
        "Bindungsphase",
        f"Only {BONDS_PER_TURN} card per turn goes to the bond area.",
        f"Pro Zug darf nur {BONDS_PER_TURN} Karte in den Bindungsbereich gelegt werden.",
    ),
    "fe.bad-zone": (
        "Einsatzphase",
        "{zone} is not {player}'s front or back row.",
        "{zone} ist nicht die Vorder- oder Hinterreihe von {player}.",
    ),
    "fe.bonds-exceeded": (
        "Einsatzphase",
        "{card} costs {cost}, but only {left} of {bonds:bond|bonds} are left this turn.",
        "{card} kostet {cost}, aber von {bonds:Bindung|Bindungen} sind in diesem Zug "
        "nur noch {left} "
        "übrig.",
    ),
    "fe.symbol-missing": (
        "Einsatzphase",
        "{card} needs a face-up bond with the symbol {symbol}.",
        "{card} braucht eine aufgedeckte Bindung mit dem Symbol {symbol}.",
    ),
    "fe.same-name": (
        "Einheit ausspielen",
        "{player} already has a {name} on the battlefield: one card per character name.",
        "{player} hat schon {name} auf dem Schlachtfeld: nur eine Karte pro Charaktername.",
    ),
    "fe.levelup-name": (
        "Levelaufstieg / Klassenwechsel",
        "{card} ({name}) cannot be laid on {target} ({target_name}): the names differ.",
        "{card} ({name}) kann nicht auf {target} ({target_name}) gelegt werden: die Namen "
        "unterscheiden sich.",
    ),
    "fe.levelup-target": (
        "Levelaufstieg / Klassenwechsel",
        "{target} is not one of {player}'s units on the battlefield.",
        "{target} ist keine Einheit von {player} auf dem Schlachtfeld.",
    ),
    "fe.no-class-change": (
        "Levelaufstieg / Klassenwechsel",
        "{card} has no class change cost: it can only level up.",
        "{card} hat keine Klassenwechselkosten: nur ein Levelaufstieg ist möglich.",
    ),
    "fe.not-own-unit": (
        "Aktionsphase",
        "{card} is not one of {player}'s units on the battlefield.",
        "{card} ist keine Einheit von {player} auf dem Schlachtfeld.",
    ),
    "fe.unit-tapped": (
        "Aktionsphase",
        "{card} is tapped: it cannot attack or move any more this turn.",
        "{card} ist getappt: sie kann in diesem Zug nicht mehr angreifen oder sich bewegen.",
    ),
    "fe.move-untapped": (
        "Einheiten bewegen",
        "{card} moved to {zone} but was not tapped: a moved unit is tapped.",
        "{card} wurde nach {zone} bewegt, aber nicht getappt: die bewegte Einheit muss "
        "getappt werden.",
    ),
    "fe.same-row": (
        "Einheiten bewegen",
        "{card} is in {zone} already: a move goes between front and back row.",
        "{card} liegt schon in {zone}: bewegt wird zwischen Vorder- und Hinterreihe.",
    ),
    "fe.first-turn-attack": (
        "Erste Runde",
        "The first player does not attack in the first turn.",
        "In der ersten Runde darf der erste Spieler keinen Angriff einleiten.",
    ),
    "fe.no-attackers": (
        "Eine gegnerische Einheit angreifen",
        "An attack needs exactly one attacking unit.",
        "Ein Angriff braucht genau eine angreifende Einheit.",
    ),
    "fe.bad-target": (
        "Eine gegnerische Einheit angreifen",
        "{card} is not an opposing unit on the battlefield.",
        "{card} ist keine gegnerische Einheit auf dem Schlachtfeld.",
    ),
    "fe.no-range": (
        "Reichweite",
        "{card} has no attack range (a staff user) and cannot attack.",
        "{card} hat keine Reichweite (Stabnutzer) und kann nicht angreifen.",
    ),
    "fe.out-of-range": (
        "Reichweite",
        "{card} (range {range}) cannot reach {target} at distance {distance}.",
        "{card} (Reichweite {range}) erreicht {target} in Entfernung {distance} nicht.",
    ),
    "fe.no-combat": (
        "Eine gegnerische Einheit angreifen",
        "No combat is running.",
        "Es läuft kein Kampf.",
    ),
    "fe.support-twice": (
        "Unterstützung und Unterstützerfähigkeiten",
        "{player} has already turned a support card in this combat.",
        "{player} hat in diesem Kampf schon eine Unterstützerkarte aufgedeckt.",
    ),
    "fe.support-missing": (
        "Unterstützung und Unterstützerfähigkeiten",
        "Both players turn their deck's top card into the support area first.",
        "Zuerst legen beide Spieler die oberste Karte ihres Decks in den Unterstützerbereich.",
    ),
    "fe.not-fighting": (
        "Eine gegnerische Einheit angreifen",
        "{player} is not part of the running combat.",
        "{player} ist nicht am laufenden Kampf beteiligt.",
    ),
    "fe.critical-name": (
        "Kritischer Treffer",
        "A critical hit discards a card named {name} (the attacker), not {card}.",
        "Ein kritischer Treffer wirft eine Karte namens {name} (Angreifer) ab, nicht {card}.",
    ),
    "fe.critical-twice": (
        "Kritischer Treffer",
        "This attack is a critical hit already.",
        "Dieser Angriff ist schon ein kritischer Treffer.",
    ),
    "fe.critical-defender": (
        "Kritischer Treffer",
        "Only the attacking player lands a critical hit.",
        "Nur der angreifende Spieler landet einen kritischen Treffer.",
    ),
    "fe.evade-name": (
        "Ausweichen",
        "Evading discards a card named {name} (the defender), not {card}.",
        "Ausweichen wirft eine Karte namens {name} (Verteidiger) ab, nicht {card}.",
    ),
    "fe.evade-attacker": (
        "Ausweichen",
        "Only the defending player evades.",
        "Nur der verteidigende Spieler weicht aus.",
    ),
    "fe.not-defeated": (
        "Besiegte Einheit",
        "{card} left the battlefield but was not defeated ({why}).",
        "{card} hat das Schlachtfeld verlassen, wurde aber nicht besiegt ({why}).",
    ),
    "fe.lord-to-retreat": (
        "Besiegte Einheit",
        "A defeated lord stays on the battlefield; its player takes an orb instead.",
        "Ein besiegter Hauptcharakter bleibt auf dem Feld; sein Spieler nimmt stattdessen ein "
        "Juwel.",
    ),
    "fe.orb-unexplained": (
        "Besiegte Einheit",
        "{player} took an orb, but the lord was not defeated.",
        "{player} hat ein Juwel genommen, aber der Hauptcharakter wurde nicht besiegt.",
    ),
    "fe.untap": (
        "Startphase",
        "{card} is untapped outside the start phase.",
        "{card} wurde außerhalb der Startphase enttappt.",
    ),
    "fe.tap": (
        "Aktionsphase",
        "{card} was tapped without an attack or a move.",
        "{card} wurde ohne Angriff oder Bewegung getappt.",
    ),
    "fe.face-down": (
        "Einsatzphase",
        "A face-down card goes only to the bond area (or, in the preparation, the lord and "
        "the orbs).",
        "Verdeckte Karten kommen nur in den Bindungsbereich (in der Vorbereitung auch "
        "Hauptcharakter und Juwelen).",
    ),
    "fe.flip-bond": (
        "Bindungsphase",
        "A face-down bond is not turned face up by any rule.",
        "Eine verdeckte Bindung wird durch keine Regel aufgedeckt.",
    ),
    "fe.unexplained": (
        "Ablauf eines Spielzuges",
        "{card} moved to {zone} without a rule that allows it.",
        "{card} kam ohne Regel, die es erlaubt, nach {zone}.",
    ),
}


ACTIONS: dict[str, tuple[str, str]] = {
    "choose-lord": ("choosing the lord", "Hauptcharakter wählen"),
    "mulligan": ("redrawing the starting hand", "Starthand neu ziehen"),
    "orbs": ("laying the orbs", "Juwelen auslegen"),
    "reveal-lord": ("revealing the lord", "Hauptcharakter aufdecken"),
    "bond": ("laying a bond", "Bindung legen"),
    "deploy": ("deploying a unit", "Einheit einsetzen"),
    "level-up": ("levelling up", "Levelaufstieg"),
    "class-change": ("a class change", "Klassenwechsel"),
    "use-bond": ("using a bond", "Bindung verwenden"),
    "flip-bond": ("turning a bond face down", "Bindung umdrehen"),
    "support": ("supporting", "Unterstützen"),
    "critical": ("a critical hit", "Kritischer Treffer"),
    "evade": ("evading", "Ausweichen"),
    "end-combat": ("ending the combat", "Kampf auswerten"),
    "orb-to-hand": ("taking an orb into the hand", "Juwel auf die Hand nehmen"),
    "face-down": ("laying a card face down", "Karte verdeckt legen"),
    "reveal-bond": ("turning a bond face up", "Bindung aufdecken"),
    "tap": ("tapping a card", "Karte tappen"),
    "untap": ("untapping a card", "Karte enttappen"),
    "deal": ("drawing the starting cards", "Startkarten ziehen"),
    "discard": ("putting a card into the retreat", "Karte in den Rückzug legen"),
}
"""How a violation names each move kind of this game (see `CORE_ACTIONS` for the rest)."""

SECTIONS_EN: dict[str, str] = {
    'Spielphasen': 'Game phases',
    'Ablauf eines Spielzuges': 'Course of a turn',
    'Aktionsphase': 'Action phase',
    'Ausweichen': 'Evading',
    'Besiegte Einheit': 'Defeated unit',
    'Bindungsphase': 'Bond phase',
    'Eine gegnerische Einheit angreifen': 'Attacking an enemy unit',
    'Einheit ausspielen': 'Playing a unit',
    'Einheiten bewegen': 'Moving units',
    'Einsatzphase': 'Deployment phase',
    'Erste Runde': 'First round',
    'Erster Zug': 'First turn',
    'Kritischer Treffer': 'Critical hit',
    'Levelaufstieg / Klassenwechsel': 'Level up / Class change',
    'Reichweite': 'Range',
    'Siegesbedingungen': 'Victory conditions',
    'Spielvorbereitung (offizieller Cipher-Spielstart, nicht im Regelheft)':
        'Setup (the official Cipher game start, not in the rulebook)',
    'Startphase': 'Start phase',
    'Unterstützung und Unterstützerfähigkeiten': 'Support and support skills',
}
"""The rulebook's (German) section names in English, for rule references on an
English page."""

CATALOG = ViolationCatalog(RULEBOOK, VIOLATIONS, game="fire-emblem-cipher", actions=ACTIONS,
                           sections_en=SECTIONS_EN)
violation = CATALOG.violation
