"""Every My Little Pony CCG violation: stable code, rulebook section, English and German text.

Sections name the German rulebook (`my-little-pony-ccg.de.txt`) where it says the rule; rules
the German text leaves out (action tokens per turn, the first turn, costs of drawing and of
troublemakers) name the official Enterplay rules they come from (see rules.py, "Sources").
"""

from __future__ import annotations

from companion.engine.api import Violation
from companion.engine.texts import ViolationCatalog
from companion.games.my_little_pony.numbers import (
    DRAW_COST,
    HAND_LIMIT,
    OPENING_HAND,
    RANDOM_REFLIP_POWER,
)

RULEBOOK = "My Little Pony CCG rules"
OFFICIAL = "official Enterplay rules"

# code -> (rulebook section, English template, German template)
VIOLATIONS: dict[str, tuple[str, str, str]] = {
    "mlp.not-your-turn": (
        "Zeit-Regeln",
        "{player} acts in {active}'s turn; only faceoff and reaction cards may do that.",
        "{player} handelt im Zug von {active}; das dürfen nur Faceoff- und Reaktionskarten.",
    ),
    "mlp.wrong-phase": (
        "Zugablauf",
        "{action} is not allowed in this phase ({phase}).",
        "{action} ist in dieser Phase nicht erlaubt ({phase}).",
    ),
    "mlp.not-in-hand": (
        "Main Phase",
        "{card} cannot come from {player}'s hand.",
        "{card} kann nicht aus der Hand von {player} kommen.",
    ),
    "mlp.not-own-card": (
        "Bewegen",
        "{card} is not a card {player} has in play.",
        "{card} ist keine Karte, die {player} im Spiel hat.",
    ),
    "mlp.cost": (
        f"{OFFICIAL}: Action Tokens",
        "{action} costs {cost:action token|action tokens}; {player} has {tokens}.",
        "{action_de} kostet {cost:Aktionspunkt|Aktionspunkte}; {player} hat {tokens}.",
    ),
    "mlp.requirement": (
        f"{OFFICIAL}: Play Requirement",
        "{card} needs {need} {color} power in play; {player} has {have}.",
        "{card} braucht {need} Kraft in {color} im Spiel; {player} hat {have}.",
    ),
    "mlp.bad-destination": (
        "Karten Arten",
        "A {kind} cannot be put at {zone}.",
        "Ein(e) {kind} kann nicht nach {zone} gelegt werden.",
    ),
    "mlp.unique-in-play": (
        "Schlüsselwörter: Unique",
        "{card} is Unique and {player} already has a copy in play.",
        "{card} ist Unique und {player} hat schon ein Exemplar im Spiel.",
    ),
    "mlp.not-character": (
        "Bewegen",
        "Only characters move between home and problems; {card} is a {kind}.",
        "Nur Charaktere bewegen sich zwischen Zuhause und Problemen; {card} ist ein(e) {kind}.",
    ),
    "mlp.mane-stays": (
        "Karten Arten",
        "The mane character {card} never leaves play.",
        "Der Hauptcharakter {card} verlässt nie das Spiel.",
    ),
    "mlp.first-turn-draw": (
        f"{OFFICIAL}: Draw Deck",
        "The first player draws no card in the first turn of the game.",
        "Der Startspieler zieht im ersten Zug des Spiels keine Karte.",
    ),
    "mlp.draw-once": (
        f"{OFFICIAL}: Ready Phase",
        "The ready phase draws one card; more cards cost "
        f"{DRAW_COST} action token each in the main phase.",
        "In der Ready Phase wird eine Karte gezogen; weitere kosten in der Main Phase je "
        f"{DRAW_COST} Aktionspunkt.",
    ),
    "mlp.must-draw": (
        f"{OFFICIAL}: Ready Phase",
        "Draw a card before leaving the ready phase.",
        "Ziehe eine Karte, bevor die Ready Phase endet.",
    ),
    "mlp.deck-empty": (
        "Keine Karten mehr übrig haben",
        "{player}'s deck is empty: the draw is skipped.",
        "Das Deck von {player} ist leer: das Ziehen entfällt.",
    ),
    "mlp.setup-hand": (
        f"{OFFICIAL}: Game Setup",
        f"The opening hand has {OPENING_HAND} cards; {{player}} would have {{count}}.",
        f"Die Starthand hat {OPENING_HAND} Karten; {{player}} hätte {{count}}.",
    ),
    "mlp.setup-missing": (
        f"{OFFICIAL}: Game Setup",
        f"{{player}} still needs a starting problem in play and {OPENING_HAND} cards in hand.",
        f"{{player}} braucht noch ein Startproblem im Spiel und {OPENING_HAND} Handkarten.",
    ),
    "mlp.starting-problem": (
        "Schlüsselwörter: Starting Problem",
        "{card} is not a Starting Problem of {player}'s problem deck.",
        "{card} ist kein Startproblem aus dem Problemdeck von {player}.",
    ),
    "mlp.problem-in-play": (
        "Spielziel",
        "{player} already has a problem in play.",
        "{player} hat schon ein Problem im Spiel.",
    ),
    "mlp.no-problem-due": (
        "Problems ersetzen",
        "No problem of {player} was replaced: {card} cannot come into play now.",
        "Kein Problem von {player} wurde ersetzt: {card} kann jetzt nicht ins Spiel kommen.",
    ),
    "mlp.not-from-problem-deck": (
        "Problems ersetzen",
        "{card} is not the top card of {player}'s problem deck.",
        "{card} ist nicht die oberste Karte des Problemdecks von {player}.",
    ),
    "mlp.problem-due": (
        "Problems ersetzen",
        "{player} must bring the top card of the problem deck into play.",
        "{player} muss die oberste Karte des Problemdecks ins Spiel bringen.",
    ),
    "mlp.troublemaker-face-down": (
        "Troublemaker Phase",
        "Troublemakers are played face down at a problem.",
        "Widersacher werden verdeckt an ein Problem gelegt.",
    ),
    "mlp.troublemaker-limit": (
        f"{OFFICIAL}: Troublemakers",
        "{player} already has a troublemaker at {zone}.",
        "{player} hat schon einen Widersacher an {zone}.",
    ),
    "mlp.reveal-not-own": (
        "Troublemaker Phase",
        "Only the active player's face-down troublemakers are uncovered, in the troublemaker "
        "phase.",
        "Nur die verdeckten Widersacher des aktiven Spielers werden in der Troublemaker Phase "
        "aufgedeckt.",
    ),
    "mlp.villain-blocks": (
        "Schlüsselwörter: Villain",
        "A Villain at {zone} keeps face-down troublemakers there face down.",
        "Ein Villain an {zone} verhindert, dass verdeckte Widersacher dort aufgedeckt werden.",
    ),
    "mlp.must-reveal": (
        "Troublemaker Phase",
        "Uncover your face-down troublemakers first (step 1).",
        "Decke zuerst deine verdeckten Widersacher auf (Schritt 1).",
    ),
    "mlp.challenge-target": (
        "Troublemaker Phase",
        "{card} is not a face-up troublemaker {player} may challenge.",
        "{card} ist kein offener Widersacher, den {player} herausfordern darf.",
    ),
    "mlp.challenge-own": (
        "Troublemaker Phase",
        "You cannot challenge your own troublemaker unless it is a Villain.",
        "Den eigenen Widersacher kann man nur herausfordern, wenn er ein Villain ist.",
    ),
    "mlp.challenge-alone": (
        "Troublemaker Phase",
        "{player} has no character at {zone}, so cannot challenge the troublemaker there.",
        "{player} hat keinen Charakter an {zone} und kann den Widersacher dort nicht "
        "herausfordern.",
    ),
    "mlp.faceoff-pending": (
        "Konfrontationen",
        "Finish the faceoff first (both players flip, then the result).",
        "Beende zuerst die Konfrontation (beide Spieler decken auf, dann das Ergebnis).",
    ),
    "mlp.no-faceoff": (
        "Konfrontationen",
        "There is no faceoff to flip for.",
        "Es gibt keine Konfrontation, für die aufgedeckt wird.",
    ),
    "mlp.flipped": (
        "Schlüsselwörter: Random",
        "{player} has flipped already; only a flipped "
        f"{RANDOM_REFLIP_POWER} may be flipped again with Random "
        "({left} left).",
        "{player} hat schon aufgedeckt; nur eine aufgedeckte "
        f"{RANDOM_REFLIP_POWER} darf mit Random neu aufgedeckt "
        "werden (noch {left}).",
    ),
    "mlp.send-home-due": (
        "Troublemaker Phase",
        "{player} lost the faceoff and sends one character at {zone} home first.",
        "{player} hat die Konfrontation verloren und schickt zuerst einen Charakter von {zone} "
        "nach Hause.",
    ),
    "mlp.send-home-wrong": (
        "Troublemaker Phase",
        "{card} was not in the lost faceoff at {zone}.",
        "{card} war nicht an der verlorenen Konfrontation an {zone} beteiligt.",
    ),
    "mlp.faceoff-result": (
        "Konfrontationen",
        "The last faceoff cannot have ended so: its flips were seen, or no unseen card of "
        "the deck gives that result.",
        "So kann die letzte Konfrontation nicht ausgegangen sein: ihre Aufdeckungen wurden "
        "gesehen, oder keine ungesehene Karte im Deck ergibt dieses Ergebnis.",
    ),
    "mlp.hand-limit": (
        "Zug Ende",
        f"{{player}} has {{count:card|cards}} in hand; discard down to {HAND_LIMIT}.",
        f"{{player}} hat {{count}} Handkarten; lege bis auf {HAND_LIMIT} ab.",
    ),
    "mlp.home-limit": (
        "Zuhause (Home)",
        "{player} has {count:friend|friends} at home; the home limit is {limit}.",
        "{player} hat {count:Freund|Freunde} im Zuhause; das Limit ist {limit}.",
    ),
    "mlp.hand-limit-first": (
        "Zug Ende",
        f"{{player}} has {{count:card|cards}} in hand: first discard down to {HAND_LIMIT}, "
        "then retire friends from home.",
        f"{{player}} hat {{count}} Handkarten: zuerst bis auf {HAND_LIMIT} ablegen, dann "
        "Freunde aus dem Zuhause ablegen.",
    ),
    "mlp.no-reason": (
        "Zug Ende",
        "{card} goes to the discard pile only for the hand limit or the home limit.",
        "{card} kommt nur wegen Handlimit oder Zuhauselimit auf den Ablagestapel.",
    ),
    "mlp.skip-score": (
        "Score Phase",
        "The turn ends after the score phase; it comes before the end of the turn.",
        "Der Zug endet nach der Score Phase; sie kommt vor dem Zugende.",
    ),
    "mlp.event-timing": (
        "Zeit-Regeln",
        "Events are played in your main phase, or during a faceoff (Faceoff) or as a Reaction.",
        "Events spielt man in der eigenen Main Phase, während einer Konfrontation (Faceoff) "
        "oder als Reaktion.",
    ),
    "mlp.unexplained": (
        "Zugablauf",
        "{card} moved to {zone} without a rule that allows it.",
        "{card} kam ohne Regel, die es erlaubt, nach {zone}.",
    ),
    "mlp.boosted": (
        "Karten Arten",
        "{card} is not {player}'s unboosted mane character.",
        "{card} ist nicht der ungeboostete Hauptcharakter von {player}.",
    ),
    "mlp.not-seen-there": (
        "Zugablauf",
        "{card} cannot be the unseen card at {zone}: it was seen elsewhere.",
        "{card} kann nicht die ungesehene Karte an {zone} sein: sie wurde anderswo gesehen.",
    ),
}


ACTIONS: dict[str, tuple[str, str]] = {
    "starting-problem": ("bringing in the starting problem", "Startproblem ins Spiel bringen"),
    "challenge": ("challenging a troublemaker", "Widersacher herausfordern"),
    "play": ("playing a card", "Karte spielen"),
    "play-troublemaker": ("playing a troublemaker", "Widersacher legen"),
    "retire": ("retiring a friend from home", "Freund aus dem Zuhause ablegen"),
    "new-problem": ("bringing in a new problem", "Neues Problem ins Spiel bringen"),
    "flip": ("flipping for a faceoff", "Für die Konfrontation aufdecken"),
    "keep": ("keeping the flipped card", "Aufgedeckte Karte behalten"),
    "send-home": ("sending a card home", "Karte nach Hause schicken"),
    "exhaust": ("exhausting a card", "Karte erschöpfen"),
    "ready": ("readying a card", "Karte bereit machen"),
    "boost": ("boosting the mane character", "Hauptcharakter boosten"),
    "modify": ("changing a card's power", "Kraft ändern"),
    "identify": ("identifying a card", "Karte erkennen"),
    "faceoff-won": ("saying who won a faceoff", "Sieger einer Konfrontation nennen"),
    "faceoff-tied": ("saying a faceoff was a tie", "Gleichstand einer Konfrontation nennen"),
}
"""How a violation names each move kind of this game (see `CORE_ACTIONS` for the rest)."""

SECTIONS_EN: dict[str, str] = {
    'Bewegen': 'Moving',
    'Karten Arten': 'Card types',
    'Keine Karten mehr übrig haben': 'Running out of cards',
    'Konfrontationen': 'Faceoffs',
    'Main Phase': 'Main phase',
    'Problems ersetzen': 'Replacing problems',
    'Schlüsselwörter: Random': 'Keywords: Random',
    'Schlüsselwörter: Starting Problem': 'Keywords: Starting Problem',
    'Schlüsselwörter: Unique': 'Keywords: Unique',
    'Schlüsselwörter: Villain': 'Keywords: Villain',
    'Score Phase': 'Score phase',
    'Spielziel': 'Object of the game',
    'Troublemaker Phase': 'Troublemaker phase',
    'Zeit-Regeln': 'Timing rules',
    'Zug Ende': 'End of turn',
    'Zugablauf': 'Turn sequence',
    'Zuhause (Home)': 'Home',
}
"""The rulebook's (German) section names in English, for rule references on an
English page."""

CATALOG = ViolationCatalog(RULEBOOK, VIOLATIONS, standalone=(OFFICIAL,),
                           game="my-little-pony-ccg", actions=ACTIONS, sections_en=SECTIONS_EN)
violation = CATALOG.violation


def deck_violation(code: str, en: str, de: str, cards: tuple[str, ...], rule: str) -> Violation:
    """A deck-building fault found by `companion.decks.rules.check_mlp`, as a violation."""
    return Violation(code=code, message_en=en, message_de=de,
                     rule=rule or f"{RULEBOOK}, Was brauche ich zum Spielen?", cards=cards)
