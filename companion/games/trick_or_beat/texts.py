"""Every Trick or Beat violation: stable code, rulebook section, English and German message.

Messages are templates filled with the cards, zones and numbers of the case at hand.
"""

from __future__ import annotations

from companion.engine.texts import ViolationCatalog
from companion.games.trick_or_beat.numbers import DEAL, KEEP, REDRAW_FRESH_FEWER, REDRAW_SHOW_BELOW

RULEBOOK = "Trick or Beat rules"

# code -> (rulebook section, English template, German template)
VIOLATIONS: dict[str, tuple[str, str, str]] = {
    "tob.not-in-hand": (
        "Beschwören / Einsatz von Taktikkarten",
        "{card} cannot come from {player}'s hand.",
        "{card} kann nicht aus der Hand von {player} kommen.",
    ),
    "tob.not-own-card": (
        "Lanes",
        "{card} is not one of {player}'s creatures on the table.",
        "{card} ist kein liegendes Wesen von {player}.",
    ),
    "tob.wrong-phase": (
        "Zugablauf",
        "{action} is not allowed in this phase ({phase}).",
        "{action} ist in dieser Phase nicht erlaubt ({phase}).",
    ),
    "tob.not-creature": (
        "Beschwören",
        "{card} is not a creature.",
        "{card} ist kein Wesen.",
    ),
    "tob.summon-active": (
        "Beschwören",
        "Creatures are summoned onto the passive lane only, not onto {zone}.",
        "Wesen werden nur auf die passive Lane beschworen, nicht auf {zone}.",
    ),
    "tob.lane-full": (
        "Lanes",
        "{zone} already holds {count:creature|creatures} (limit {limit}).",
        "Auf {zone} liegen schon {count} Wesen (Limit {limit}).",
    ),
    "tob.bad-lane": (
        "Lanes",
        "{zone} is not a lane of {player}.",
        "{zone} ist keine Lane von {player}.",
    ),
    "tob.draw-once": (
        "Nachschubphase",
        "Only one card is drawn in the supply phase.",
        "In der Nachschubphase wird nur eine Karte gezogen.",
    ),
    "tob.must-draw": (
        "Nachschubphase",
        "Draw a card from the draw pile before leaving the supply phase.",
        "Ziehe eine Karte vom Nachziehstapel, bevor die Nachschubphase endet.",
    ),
    "tob.first-turn-draw": (
        "Erster Zug",
        "The starting player begins in the lane phase and draws no card.",
        "Der beginnende Spieler beginnt in der Lanephase und zieht keine Karte.",
    ),
    "tob.deck-empty": (
        "Nachschubphase",
        "The draw pile is empty.",
        "Der Nachziehstapel ist leer.",
    ),
    "tob.attacker-passive": (
        "Angriffe",
        "{card} is not on the active lane and cannot attack.",
        "{card} liegt nicht auf der aktiven Lane und kann nicht angreifen.",
    ),
    "tob.attacker-used": (
        "Angriffe",
        "{card} has already attacked this turn.",
        "{card} hat in diesem Zug schon angegriffen.",
    ),
    "tob.attacker-twice": (
        "Angriffe",
        "{card} is named more than once as an attacker: each attacker counts once.",
        "{card} ist mehrmals als Angreifer genannt: jeder Angreifer zählt einmal.",
    ),
    "tob.no-attackers": (
        "Angriffe",
        "An attack needs at least one attacker.",
        "Ein Angriff braucht mindestens einen Angreifer.",
    ),
    "tob.bad-target": (
        "Angriffe",
        "{card} is not an opposing creature on the table.",
        "{card} ist kein liegendes Wesen des Gegners.",
    ),
    "tob.target-protected": (
        "Angriffe",
        "{card} lies on the passive lane while the opponent's active lane is not empty.",
        "{card} liegt auf der passiven Lane, die aktive Lane des Gegners ist aber nicht leer.",
    ),
    "tob.combat-once": (
        "Fähigkeiten",
        "The combat ability {ability} of {card} is used once per attack.",
        "Die kämpferische Fähigkeit {ability} von {card} wirkt einmal pro Angriff.",
    ),
    "tob.combat-side": (
        "Fähigkeiten",
        "The combat ability {ability} of {card} helps only {player}'s own attackers or "
        "attacked creature.",
        "Die kämpferische Fähigkeit {ability} von {card} hilft nur den Angreifern oder dem "
        "angegriffenen Wesen von {player}.",
    ),
    "tob.ability-once": (
        "Fähigkeiten",
        "The activatable ability {ability} of {card} was already used this turn.",
        "Die aktivierbare Fähigkeit {ability} von {card} wurde in diesem Zug schon eingesetzt.",
    ),
    "tob.ability-lane": (
        "Fähigkeiten",
        "{card} lies on the passive lane: only its passive abilities work.",
        "{card} liegt auf der passiven Lane: nur passive Fähigkeiten wirken.",
    ),
    "tob.no-such-ability": (
        "Fähigkeiten",
        "{card} has no {kind} ability {ability}.",
        "{card} hat keine {kind} Fähigkeit {ability}.",
    ),
    "tob.effect-target": (
        "Fähigkeiten / Einsatz von Taktikkarten",
        "{target} is not a valid target ({kind}) for {card}.",
        "{target} ist kein gültiges Ziel ({kind}) für {card}.",
    ),
    "tob.effect-no-target": (
        "Fähigkeiten / Einsatz von Taktikkarten",
        "{card} needs a target ({kind}): name the creature its effect works on.",
        "{card} braucht ein Ziel ({kind}): nenne das Wesen, auf das der Effekt wirkt.",
    ),
    "tob.not-tactic": (
        "Einsatz von Taktikkarten",
        "{card} is not a tactic card.",
        "{card} ist keine Taktikkarte.",
    ),
    "tob.supply-once": (
        "Nachschubkarten",
        "Only one supply card may be played per turn.",
        "Pro Zug darf nur eine Nachschubkarte gespielt werden.",
    ),
    "tob.no-supply-draw": (
        "Nachschubkarten",
        "No supply card allows a face-up draw now.",
        "Keine Nachschubkarte erlaubt jetzt ein offenes Ziehen.",
    ),
    "tob.extra-draw": (
        "Zugablauf",
        "Drawing a card is only allowed in the supply phase.",
        "Karten werden nur in der Nachschubphase gezogen.",
    ),
    "tob.equip-not-equipment": (
        "Ausrüstung",
        "{card} is not an equipment card.",
        "{card} ist keine Ausrüstung.",
    ),
    "tob.equipment-one": (
        "Ausrüstung",
        "{target} already carries an equipment.",
        "{target} trägt schon eine Ausrüstung.",
    ),
    "tob.equip-target": (
        "Ausrüstung",
        "Equipment goes on one of your own creatures, not on {target}.",
        "Ausrüstung wird an eines deiner Wesen angelegt, nicht an {target}.",
    ),
    "tob.equipment-as-tactic": (
        "Ausrüstung",
        "{card} is an equipment: it is put on a creature, not discarded.",
        "{card} ist eine Ausrüstung: sie wird angelegt, nicht abgelegt.",
    ),
    "tob.trick-once": (
        "Trickstapel",
        "Only one card goes on the trick pile per end phase.",
        "Pro Endphase kommt nur eine Karte auf den Trickstapel.",
    ),
    "tob.trick-face-up": (
        "Zugablauf, Endphase",
        "{card} lies face up on the trick pile: trick cards are laid face down.",
        "{card} liegt offen auf dem Trickstapel: Trickkarten werden verdeckt gelegt.",
    ),
    "tob.trick-not-own": (
        "Zugablauf, Endphase",
        "{player} lays a card on {owner}'s trick pile: each player lays on their own.",
        "{player} legt eine Karte auf den Trickstapel von {owner}: jeder legt auf den eigenen.",
    ),
    "tob.trick-final": (
        "Trickstapel",
        "Cards are never taken back from the trick pile.",
        "Karten werden nie vom Trickstapel zurückgeholt.",
    ),
    "tob.hand-empty": (
        "Trickstapel",
        "{player} has no card in hand.",
        "{player} hat keine Handkarte.",
    ),
    "tob.draft-only": (
        "Draft",
        "{action} only happens during the draft.",
        "{action} gibt es nur im Draft.",
    ),
    "tob.draft-discard-too-many": (
        "Draft",
        f"{{player}} keeps {KEEP} cards: only {{limit}} may be discarded.",
        f"{{player}} behält {KEEP} Karten: nur {{limit}} dürfen abgelegt werden.",
    ),
    "tob.deal-unfinished": (
        "Vor dem Spiel",
        f"{{player}} still gets {{count:card|cards}} dealt ({DEAL} each).",
        f"{{player}} bekommt noch {{count:Karte|Karten}} ({DEAL} pro Spieler).",
    ),
    "tob.deal-too-many": (
        "Vor dem Spiel",
        "{player} is owed {limit:card|cards}, not {count}.",
        "{player} stehen {limit:Karte|Karten} zu, nicht {count}.",
    ),
    "tob.draft-unfinished": (
        "Draft",
        f"{{player}} still has to discard {{count:card|cards}} to keep {KEEP}.",
        f"{{player}} muss noch {{count:Karte|Karten}} ablegen, um {KEEP} zu behalten.",
    ),
    "tob.draft-not-creature": (
        "Draft",
        "{card} was placed face down on a lane but is not a creature.",
        "{card} wurde verdeckt auf eine Lane gelegt, ist aber kein Wesen.",
    ),
    "tob.reveal-early": (
        "Draft",
        "Face-down creatures are revealed together when both players have finished.",
        "Verdeckte Wesen werden gemeinsam aufgedeckt, wenn beide Spieler fertig sind.",
    ),
    "tob.unrevealed": (
        "Draft",
        "Reveal every face-down creature before the first turn.",
        "Deckt alle verdeckten Wesen vor dem ersten Zug auf.",
    ),
    "tob.not-face-down": (
        "Draft",
        "{card} is not a face-down card on {player}'s lanes.",
        "{card} ist keine verdeckte Karte auf den Lanes von {player}.",
    ),
    "tob.redraw-late": (
        "Redraw Rule",
        "A redraw is only possible before keeping or discarding any card.",
        "Ein Redraw ist nur vor dem Behalten oder Ablegen möglich.",
    ),
    "tob.redraw-creatures": (
        "Redraw Rule",
        "The shown hand has {count:creature|creatures}: showing and redrawing needs fewer "
        f"than {REDRAW_SHOW_BELOW}.",
        "Die gezeigte Hand hat {count} Wesen: Zeigen und neu ziehen geht nur mit weniger als "
        f"{REDRAW_SHOW_BELOW}.",
    ),
    "tob.redraw-hand": (
        "Redraw Rule",
        "A redraw discards the whole hand ({count:card|cards}), not {shown}.",
        "Beim Redraw wird die ganze Hand ({count:Karte|Karten}) abgelegt, nicht {shown}.",
    ),
    "tob.redraw-kind": (
        "Redraw Rule",
        f"A redraw is 'show' (fewer than {REDRAW_SHOW_BELOW} creatures) or 'fresh' "
        f"({REDRAW_FRESH_FEWER} cards fewer), not {{value}}.",
        f"Ein Redraw ist 'show' (weniger als {REDRAW_SHOW_BELOW} Wesen) oder 'fresh' "
        f"({REDRAW_FRESH_FEWER} weniger), nicht {{value}}.",
    ),
    "tob.redraw-too-small": (
        "Redraw Rule",
        "A hand of {count:card|cards} cannot be redrawn "
        f"{REDRAW_FRESH_FEWER} cards smaller and still keep {KEEP}.",
        "Eine Hand mit {count:Karte|Karten} kann nicht "
        f"{REDRAW_FRESH_FEWER} Karten kleiner neu gezogen werden.",
    ),
    "tob.unexplained": (
        "Zugablauf",
        "{card} moved to {zone} without a rule that allows it.",
        "{card} kam ohne Regel, die es erlaubt, nach {zone}.",
    ),
    "tob.not-defeated": (
        "Angriffe",
        "{card} was removed but was not defeated (attack {attack} < survival {survival}).",
        "{card} wurde entfernt, aber nicht besiegt (Angriff {attack} < Überleben {survival}).",
    ),
    "tob.face-down": (
        "Zugablauf",
        "Face-down cards go only on lanes during the draft or on the trick pile.",
        "Verdeckte Karten kommen nur im Draft auf Lanes oder auf den Trickstapel.",
    ),
}


ACTIONS: dict[str, tuple[str, str]] = {
    "redraw": ("redrawing", "Neu ziehen"),
    "place-down": ("placing a creature face down", "Wesen verdeckt hinlegen"),
    "shift": ("rearranging creatures on the lanes", "Wesen auf den Lanes umordnen"),
    "tactic": ("playing a tactic card", "Taktikkarte spielen"),
    "supply-draw": ("drawing a supply card", "Nachschubkarte ziehen"),
    "equip": ("equipping a creature", "Wesen ausrüsten"),
    "activate": ("activating an ability", "Fähigkeit aktivieren"),
    "trick": ("putting a card on the trick pile", "Karte auf den Trickstapel legen"),
    "untrick": ("taking a card from the trick pile", "Karte vom Trickstapel nehmen"),
}
"""How a violation names each move kind of this game (see `CORE_ACTIONS` for the rest)."""

SECTIONS_EN: dict[str, str] = {
    'Angriffe': 'Attacks',
    'Ausrüstung': 'Equipment',
    'Beschwören': 'Summoning',
    'Beschwören / Einsatz von Taktikkarten': 'Summoning / Playing tactic cards',
    'Draft': 'Draft',
    'Einsatz von Taktikkarten': 'Playing tactic cards',
    'Erster Zug': 'First turn',
    'Fähigkeiten': 'Abilities',
    'Fähigkeiten / Einsatz von Taktikkarten': 'Abilities / Playing tactic cards',
    'Lanes': 'Lanes',
    'Nachschubkarten': 'Supply cards',
    'Nachschubphase': 'Supply phase',
    'Redraw Rule': 'Redraw rule',
    'Trickstapel': 'Trick pile',
    'Vor dem Spiel': 'Before the game',
    'Zugablauf': 'Turn sequence',
}
"""The rulebook's (German) section names in English, for rule references on an
English page."""

CATALOG = ViolationCatalog(RULEBOOK, VIOLATIONS, game="trick-or-beat", actions=ACTIONS,
                           sections_en=SECTIONS_EN)
violation = CATALOG.violation
