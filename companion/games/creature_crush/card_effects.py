"""Creature Crush: card texts compiled to the engine's effect vocabulary, once, at load.

The (made-up) cards write their effects as German sentences ("Aktion: ziehe 1 Karte."). A
sentence is read only when its whole wording is known (`SENTENCES`, matched against the whole
sentence, not a part of it); any other stays a `Prompt` the players carry out. The keyword in
front says when it works: Aktion (the creature is summoned), Hölle (it is destroyed), Falle
(it is sprung from the hell); a crush card's effect works when it is played. A card may instead
carry a structured `effects` list in the engine's YAML form (`companion.engine.effects.parse`).

Named by the game's spec (`card_effects`) and run only by the engine's catalog and the cardset
loader: the rules never see card text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from companion.engine.cards import CardFacts
from companion.engine.effects import (
    EACH,
    Ability,
    CardAbilities,
    Damage,
    Destroy,
    Draw,
    Effect,
    Gain,
    Heal,
    Permit,
    Prevent,
    Return,
    Selector,
)
from companion.engine.effects.compiling import compile_text, read_known_sentence
from companion.engine.effects.vocabulary import When
from companion.games.creature_crush.effects import KEYWORD_OF_WHEN

TRIGGERS: dict[str, When] = {keyword.lower(): when for when, keyword in KEYWORD_OF_WHEN.items()}
"""The keyword in front of a creature's sentence (lower case), and when the effect works."""

ENEMY = Selector(side="enemy")
ALLY = Selector(side="ally")

_N = r"(\d+)"
SENTENCES: tuple[tuple[str, Callable[[int], Effect]], ...] = (
    (rf"ziehe {_N} karten? aus deiner hölle", lambda n: Draw(n, source="hell")),
    (rf"ziehe {_N} karten?", lambda n: Draw(n)),
    (rf"verursache {_N} schaden an jedem feind",
     lambda n: Damage(n, Selector(side="enemy", count=EACH))),
    (rf"jeder feind in der a-zone erleidet {_N} schaden",
     lambda n: Damage(n, Selector(side="enemy", count=EACH, zone="A"))),
    (rf"verursache {_N} schaden an einem feind", lambda n: Damage(n, ENEMY)),
    (rf"verursache {_N} schaden an einem beliebigen ziel",
     lambda n: Damage(n, Selector(side="any"))),
    (rf"heile {_N} schaden an einem verbündeten", lambda n: Heal(n, ALLY)),
    (r"beschwöre diese creature aus deiner hölle",
     lambda n: Return(Selector(side="self", zone="hell"), to="field")),
    (r"beschwöre eine creature aus deiner hölle",
     lambda n: Return(Selector(side="ally", zone="hell", card_type="creature"), to="field")),
    (r"verschiebe einen verbündeten, ohne einen würfel zu verbrennen",
     lambda n: Permit("move", ALLY)),
    (r"tausche die plätze zweier verbündeter", lambda n: Permit("swap", Selector("ally", 2))),
    (rf"zerstöre diesen feind mit {_N} würfeln?",
     lambda n: Destroy(Selector(side="enemy", role="summoned"), dice=n)),
    (rf"zerstöre einen feind mit {_N} würfeln?", lambda n: Destroy(ENEMY, dice=n)),
    (r"der angriff verursacht keinen schaden",
     lambda n: Prevent("damage", Selector(side="enemy", role="attacker"))),
    (r"verhindere diesen schaden",
     lambda n: Prevent("damage", Selector(side="ally", role="damaged"))),
    (rf"der angreifer erleidet {_N} schaden",
     lambda n: Damage(n, Selector(side="enemy", role="attacker"))),
    (rf"dieser feind erleidet {_N} schaden",
     lambda n: Damage(n, Selector(side="enemy", role="moved"))),
    (rf"übernimm die kontrolle über einen feind mit kosten {_N} oder weniger",
     lambda n: Permit("control", Selector(side="enemy", max_cost=n))),
    (rf"durchsuche dein lager nach einer creature mit kosten {_N} oder weniger",
     lambda n: Permit("search", Selector(side="ally", zone="camp", card_type="creature",
                                         max_cost=n))),
    (rf"erhalte startwürfel \+{_N} für deinen nächsten zug", lambda n: Gain("start-dice", n)),
    (r"ein feind kann in seinem nächsten zug nicht angreifen",
     lambda n: Prevent("attack", ENEMY, until="next-turn")),
)
_COMPILED = tuple((re.compile(p), build) for p, build in SENTENCES)


def read_sentence(sentence: str) -> Effect:
    """The effect of one sentence (without its keyword), or a `Prompt` holding it."""
    return read_known_sentence(sentence, _COMPILED)


def _trigger(facts: CardFacts, text: str) -> tuple[When, str]:
    """When the card's effect works, and its sentence without the keyword in front."""
    head, sep, tail = text.partition(":")
    if sep and head.strip().lower() in TRIGGERS:
        return TRIGGERS[head.strip().lower()], tail.strip()
    for word, when in TRIGGERS.items():
        if facts.type == "creature" and facts.has_keyword(word):
            return when, text
    if sep and facts.type == "crush":  # "Beleben: ..." names the effect, it is no keyword
        return "play", tail.strip()
    return "play", text


def _ability(facts: CardFacts, text: str) -> Ability:
    when, sentence = _trigger(facts, text)
    return Ability(when, read_sentence(sentence), text=text)


def compile_card(facts: CardFacts) -> CardAbilities:
    """The card's abilities: its structured `effects` when given, else its sentence."""
    return compile_text(facts, _ability)
