"""Every Creature Crush violation: stable code, rulebook section, English and German message.

Messages are templates filled with the cards, zones and numbers of the case at hand; a value a
case does not have reads "-".
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from companion.engine.texts import ViolationCatalog
from companion.games.creature_crush.numbers import LAGER_SIZE, OPENING_HAND

RULEBOOK = "Creature Crush Schlachtplan"

# code -> (rulebook section, English template, German template)
VIOLATIONS: dict[str, tuple[str, str, str]] = {
    "cc.not-your-turn": (
        "D) Der Spielablauf",
        "It is {active}'s turn, not {player}'s ({action}).",
        "{active} ist am Zug, nicht {player} ({action}).",
    ),
    "cc.wrong-phase": (
        "D) Der Spielablauf",
        "{action} is not allowed in this phase ({phase}).",
        "{action} ist in dieser Phase nicht erlaubt ({phase}).",
    ),
    "cc.lager-size": (
        "C) Auswahl der Spielvariante",
        f"The camp (Lager) of {{player}} holds {{count:card|cards}}, not {LAGER_SIZE}.",
        f"Das Lager von {{player}} enthält {{count:Karte|Karten}}, nicht {LAGER_SIZE}.",
    ),
    "cc.lager-unique": (
        "C) Auswahl der Spielvariante",
        "Every card may be in a camp only once: {card} is there {count} times.",
        "Jede Karte darf nur einmal im Lager sein: {card} ist {count}-mal darin.",
    ),
    "cc.opening-draw": (
        "B) Schlachtvorbereitung",
        f"Before the first round each player takes exactly {OPENING_HAND} cards; "
        "{player} took {count}.",
        f"Vor der ersten Runde nimmt jeder Spieler genau {OPENING_HAND} Karten; "
        "{player} nahm {count}.",
    ),
    "cc.opening-missing": (
        "B) Schlachtvorbereitung",
        f"{{player}} still takes the top {OPENING_HAND} camp cards before the first round.",
        f"{{player}} nimmt vor der ersten Runde noch die obersten {OPENING_HAND} Lagerkarten.",
    ),
    "cc.draw-once": (
        "Phase 1: Startphase",
        "Only one card is drawn in the start phase (no effect allows more now).",
        "In der Startphase wird nur eine Karte gezogen (kein Effekt erlaubt jetzt mehr).",
    ),
    "cc.draw-phase": (
        "Phase 1: Startphase",
        "{player} may draw only in their own start phase (or by an effect), not now "
        "({active}'s turn, {phase}).",
        "{player} darf nur in der eigenen Startphase ziehen (oder durch einen Effekt), "
        "nicht jetzt ({active} am Zug, {phase}).",
    ),
    "cc.lager-empty": (
        "Phase 1: Startphase",
        "The camp (Lager) of {player} is empty.",
        "Das Lager von {player} ist leer.",
    ),
    "cc.must-draw": (
        "Phase 1: Startphase",
        "Draw a card before leaving the start phase.",
        "Ziehe eine Karte, bevor die Startphase endet.",
    ),
    "cc.must-roll": (
        "Phase 1: Startphase",
        "Roll your start dice before leaving the start phase.",
        "Würfle deine Startwürfel, bevor die Startphase endet.",
    ),
    "cc.roll-once": (
        "Phase 1: Startphase",
        "The start dice are rolled once per turn, in the start phase.",
        "Die Startwürfel werden einmal pro Zug in der Startphase geworfen.",
    ),
    "cc.roll-count": (
        "Phase 1: Startphase",
        "{count} start dice were rolled, the rules give {expected} ({why}).",
        "{count} Startwürfel wurden geworfen, die Regeln erlauben {expected} ({why_de}).",
    ),
    "cc.roll-white": (
        "Die Würfel",
        "Start dice are the white dice: {dice} is not one of {player}'s white dice.",
        "Startwürfel sind die weißen Würfel: {dice} ist kein weißer Würfel von {player}.",
    ),
    "cc.die-unavailable": (
        "Die Würfel",
        "Die {dice} is not an unused start die of {player} this turn.",
        "Würfel {dice} ist kein unverbrauchter Startwürfel von {player} in diesem Zug.",
    ),
    "cc.not-in-hand": (
        "Creatures beschwören",
        "{card} cannot come from {player}'s hand.",
        "{card} kann nicht aus der Hand von {player} kommen.",
    ),
    "cc.hand-empty": (
        "CRUSH Karten",
        "{player} has no card in hand.",
        "{player} hat keine Handkarte.",
    ),
    "cc.not-creature": (
        "Creatures beschwören",
        "{card} is not a creature: only creatures are summoned to the A and B zones.",
        "{card} ist keine Creature: nur Creatures werden in die A- und B-Zone beschworen.",
    ),
    "cc.bad-place": (
        "A) Das Spielfeld",
        "{zone} is not a place on {player}'s field for this.",
        "{zone} ist dafür kein Platz auf dem Spielfeld von {player}.",
    ),
    "cc.creature-in-c": (
        "A) Das Spielfeld",
        "{card} is a creature and the C zone is reserved for crush cards: {zone} is no place "
        "for it (creatures stand in the A and B zones).",
        "{card} ist eine Creature, und die C-Zone ist den Crushkarten vorbehalten: {zone} ist "
        "kein Platz für sie (Creatures stehen in der A- und B-Zone).",
    ),
    "cc.place-taken": (
        "A) Das Spielfeld",
        "{zone} is already taken by {other}.",
        "{zone} ist schon von {other} besetzt.",
    ),
    "cc.a-needs-b": (
        "Creatures beschwören",
        "A creature enters {zone} only while the adjacent place {b} is occupied.",
        "Eine Creature kommt nur nach {zone}, wenn der angrenzende Platz {b} besetzt ist.",
    ),
    "cc.cannot-pay": (
        "Phase 2: Kampfphase",
        "{what} costs {cost}{unit}: the unused start dice ({dice}) cannot pay it.",
        "{what} kostet {cost}{unit_de}: die unverbrauchten Startwürfel ({dice}) können das "
        "nicht bezahlen.",
    ),
    "cc.wrong-payment": (
        "Phase 2: Kampfphase",
        "{what} costs {cost}: the burned dice ({dice}) do not add up to exactly {cost}.",
        "{what} kostet {cost}: die verbrannten Würfel ({dice}) ergeben nicht genau {cost}.",
    ),
    "cc.wrong-count": (
        "CRUSH Karten",
        "{what} needs {cost:die|dice} (any values); {count} were burned.",
        "{what} braucht {cost} Würfel (beliebige Augenzahl); {count} wurden verbrannt.",
    ),
    "cc.unpaid": (
        "Die Würfel",
        "{what} is not paid yet: burn dice for its cost {cost}{unit}.",
        "{what} ist noch nicht bezahlt: verbrenne Würfel für die Kosten {cost}{unit_de}.",
    ),
    "cc.acted": (
        "CREATURE Karten",
        "{card} already acted this turn (attack, summoning or moving: one action per turn).",
        "{card} hat in diesem Zug schon eine Aktion ausgeführt (Angreifen, Beschwören oder "
        "Verschieben: eine pro Zug).",
    ),
    "cc.not-own-creature": (
        "CREATURE Karten",
        "{card} is not a creature on {player}'s field.",
        "{card} ist keine Creature auf dem Spielfeld von {player}.",
    ),
    "cc.zero-attack": (
        "Wer kann wen angreifen?",
        "{card} has 0 attack and cannot attack.",
        "{card} hat 0 Angriff und kann nicht angreifen.",
    ),
    "cc.bad-target": (
        "Wer kann wen angreifen?",
        "{card} in {zone} can attack only {allowed}; {target} is not one of them.",
        "{card} in {zone} kann nur {allowed_de} angreifen; {target} gehört nicht dazu.",
    ),
    "cc.direct-blocked": (
        "Wer kann wen angreifen?",
        "{card} cannot attack {player} directly: {target} lies opposite in the B zone.",
        "{card} kann {player} nicht direkt angreifen: {target} liegt gegenüber in der B-Zone.",
    ),
    "cc.direct-from-b": (
        "Wer kann wen angreifen?",
        "Creatures in the B zone never attack the player directly ({card}).",
        "Creatures in der B-Zone greifen nie direkt an ({card}).",
    ),
    "cc.attack-blocked": (
        "3. Die Effekte",
        "{card} cannot attack this turn: {source} forbids it.",
        "{card} kann in diesem Zug nicht angreifen: {source} verbietet es.",
    ),
    "cc.move-taken": (
        "Phase 3: Taktikphase",
        "{card} can only move to a free place; {zone} holds {other}.",
        "{card} kann nur auf einen freien Platz; auf {zone} liegt {other}.",
    ),
    "cc.swap-own": (
        "Phase 3: Taktikphase",
        "A swap exchanges two of your own creatures on your field ({card}).",
        "Ein Tausch betrifft zwei eigene Creatures auf deinem Feld ({card}).",
    ),
    "cc.crush-face-down": (
        "CRUSH Karten",
        "Crush cards are laid face down into the C zone first; {card} went to {zone} face up.",
        "Crushkarten werden zuerst verdeckt in die C-Zone gelegt; {card} kam offen nach {zone}.",
    ),
    "cc.face-down-place": (
        "CRUSH Karten",
        "Only crush cards lie face down, and only in your C zone (not {zone}).",
        "Nur Crushkarten liegen verdeckt, und nur in deiner C-Zone (nicht {zone}).",
    ),
    "cc.not-crush": (
        "CRUSH Karten",
        "{card} lay face down in the C zone but is not a crush card.",
        "{card} lag verdeckt in der C-Zone, ist aber keine Crushkarte.",
    ),
    "cc.crush-cost": (
        "CRUSH Karten",
        "{card} costs {cost:die|dice}; {paid} were burned when it was laid.",
        "{card} kostet {cost} Würfel; beim Legen wurden {paid} verbrannt.",
    ),
    "cc.flip-not-down": (
        "CRUSH Karten",
        "{card} is not a face-down crush card of {player}.",
        "{card} ist keine verdeckte Crushkarte von {player}.",
    ),
    "cc.flip-phase": (
        "CRUSH Karten",
        "{card} has no flip condition: it is flipped only in its owner's Kampfphase.",
        "{card} hat keine Voraussetzung: sie wird nur in der Kampfphase ihres Besitzers "
        "umgedreht.",
    ),
    "cc.crush-left": (
        "CRUSH Karten",
        "{card} was flipped but still lies in the C zone: after its effect it goes to hell.",
        "{card} wurde umgedreht, liegt aber noch in der C-Zone: nach dem Effekt kommt sie in "
        "die Hölle.",
    ),
    "cc.not-flipped": (
        "CRUSH Karten",
        "{card} goes to hell only after it was flipped and its effect resolved.",
        "{card} kommt erst in die Hölle, nachdem sie umgedreht und abgehandelt wurde.",
    ),
    "cc.effect-dice": (
        "Glossar: Mit „X“ Würfeln",
        "{source} asks for a roll of {expected:die|dice}; {count} were rolled.",
        "{source} verlangt einen Würfelwurf mit {expected} Würfeln; {count} wurden geworfen.",
    ),
    "cc.dice-unrolled": (
        "Glossar: Mit „X“ Würfeln",
        "{source} chooses its target with {count:die|dice}: roll them before {card} is "
        "destroyed.",
        "{source} bestimmt sein Ziel mit {count} Würfeln: würfle sie, bevor {card} zerstört "
        "wird.",
    ),
    "cc.dice-target": (
        "Glossar: Mit „X“ Würfeln",
        "{card} costs {cost}: {source} destroys only a target whose cost the dice ({dice}) "
        "show, one or several added: {allowed}.",
        "{card} kostet {cost}: {source} zerstört nur ein Ziel, dessen Kosten den Augenzahlen "
        "der Würfel ({dice}) entsprechen, einzeln oder addiert: {allowed_de}.",
    ),
    "cc.not-destroyed": (
        "Angreifen und Verteidigen",
        "{card} went to hell with {damage} damage and {life} life: it was not destroyed.",
        "{card} kam mit {damage} Schaden und {life} Leben in die Hölle: sie war nicht "
        "zerstört.",
    ),
    "cc.damage-mismatch": (
        "Angreifen und Verteidigen",
        "The red dice on {card} show {shown} damage; the rules give {expected}.",
        "Die roten Würfel auf {card} zeigen {shown} Schaden; nach den Regeln sind es {expected}.",
    ),
    "cc.wrong-hell": (
        "A) Das Spielfeld",
        "{card} belongs in the hell of {player}, its last owner, not in {zone}.",
        "{card} gehört in die Hölle von {player}, seinem letzten Besitzer, nicht nach {zone}.",
    ),
    "cc.unexplained": (
        "D) Der Spielablauf",
        "{card} moved to {zone} without a rule or effect that allows it.",
        "{card} kam ohne Regel oder Effekt, der es erlaubt, nach {zone}.",
    ),
    "cc.no-draw-offer": (
        "A) Eine Schlacht gewinnen",
        "A draw needs both players' agreement: {player} already agreed.",
        "Ein Unentschieden braucht die Zustimmung beider Spieler: {player} hat schon "
        "zugestimmt.",
    ),
}

def _derive(fill: MutableMapping[str, Any]) -> None:
    """German twins of English-only values: the dice unit, allowed places, reasons."""
    fill.setdefault("unit", "")
    fill.setdefault("unit_de", " Würfel" if fill["unit"] else "")
    fill.setdefault("allowed_de", fill.get("allowed", "-"))
    fill.setdefault("why_de", fill.get("why", "-"))


ACTIONS: dict[str, tuple[str, str]] = {
    "roll": ("rolling the start dice", "Startwürfel werfen"),
    "burn": ("burning a die", "Würfel verbrennen"),
    "set-crush": ("laying a crush card face down", "Crushkarte verdeckt legen"),
    "flip": ("turning a crush card over", "Crushkarte aufdecken"),
    "move": ("moving a creature", "Creature verschieben"),
    "swap": ("swapping two allies", "Zwei Verbündete tauschen"),
    "mark": ("marking damage", "Schaden markieren"),
    "to-hell": ("putting a card into hell", "Karte in die Hölle legen"),
    "revive": ("reviving a creature", "Creature wiederbeleben"),
    "control": ("taking control of a creature", "Kontrolle übernehmen"),
    "to-hand": ("taking a card into the hand", "Karte auf die Hand nehmen"),
    "agree-draw": ("agreeing to a draw", "Unentschieden vereinbaren"),
    "settle": ("settling the table", "Tisch angleichen"),
    "summon": ("summoning a creature", "Creature beschwören"),
}
"""How a violation names each move kind of this game (see `CORE_ACTIONS` for the rest)."""

SECTIONS_EN: dict[str, str] = {
    '3. Die Effekte': '3. The effects',
    'A) Das Spielfeld': 'A) The playing field',
    'A) Eine Schlacht gewinnen': 'A) Winning a battle',
    'Angreifen und Verteidigen': 'Attacking and defending',
    'B) Schlachtvorbereitung': 'B) Battle preparation',
    'C) Auswahl der Spielvariante': 'C) Choosing the variant',
    'CREATURE Karten': 'CREATURE cards',
    'CRUSH Karten': 'CRUSH cards',
    'Creatures beschwören': 'Summoning creatures',
    'D) Der Spielablauf': 'D) Course of play',
    'Die Würfel': 'The dice',
    'Glossar: Mit „X“ Würfeln': 'Glossary: with “X” dice',
    'Phase 1: Startphase': 'Phase 1: Start phase',
    'Phase 2: Kampfphase': 'Phase 2: Combat phase',
    'Phase 3: Taktikphase': 'Phase 3: Tactics phase',
    'Wer kann wen angreifen?': 'Who can attack whom?',
}
"""The rulebook's (German) section names in English, for rule references on an
English page."""

CATALOG = ViolationCatalog(RULEBOOK, VIOLATIONS, derive=_derive, game="creature-crush",
                           actions=ACTIONS, sections_en=SECTIONS_EN)
violation = CATALOG.violation
