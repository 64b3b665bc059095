"""Challengers!: card texts compiled to the engine's effect vocabulary, once, at load.

The sample cards write effects as rulebook text ("Im Angriff: +1 Stärke für jede weitere
aufgedeckte Karte."). The keyword in front says when it works (`WHEN_OF_KEYWORD`; none: at once
when revealed, `play`); the rest is read only when its whole wording is known (`SENTENCES`),
else it stays a `Prompt`. A card may instead carry a structured `effects` list in the engine's
YAML form (`companion.engine.effects.parse`).

Named by the game's spec (`card_effects`) and run only by the engine's catalog and the cardset
loader: the rules never see card text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from companion.engine.cards import CardFacts
from companion.engine.effects import (
    EACH,
    SELF,
    Ability,
    CardAbilities,
    Effect,
    Gain,
    Modify,
    Move,
    Selector,
)
from companion.engine.effects.compiling import compile_text, read_known_sentence
from companion.engine.effects.vocabulary import When

WHEN_OF_KEYWORD: dict[str, When] = {
    "im angriff": "attack",
    "von der bank": "bench",
    "im fahnenbesitz": "flag",
    "fahnenverlust": "flag-loss",
    "ausgewählt": "chosen",
}

_N = r"(eine|einen|ein|\d+)"
SENTENCES: tuple[tuple[str, Callable[[int], Effect]], ...] = (
    (rf"erhalte {_N} fans?", lambda n: Gain("fans", n)),
    (r"lege die oberste karte deiner bank auf den ruhestapel",
     lambda n: Move(Selector(side="ally", zone="bench", top=True), to="rest")),
    (rf"lege {_N} karten? von deiner bank auf den ruhestapel",
     lambda n: Move(Selector(side="ally", count=n, zone="bench"), to="rest")),
    (r"\+(\d+) stärke für jede weitere aufgedeckte karte",
     lambda n: Modify("strength", n, SELF, per="other-revealed")),
    (r"deine karten mit gleichem namen \+(\d+) stärke",
     lambda n: Modify("strength", n, Selector(side="ally", count=EACH, same_name=True))),
    (r"\+(\d+) stärke für deine aufgedeckte karte",
     lambda n: Modify("strength", n, Selector(side="ally", role="revealed"))),
    (rf"entferne {_N} karten? aus deinem deck",
     lambda n: Move(Selector(side="ally", count=n, zone="deck"), to="box")),
    (r"\+(\d+) stärke", lambda n: Modify("strength", n, SELF)),
)
_COMPILED = tuple((re.compile(p), build) for p, build in SENTENCES)


def read_sentence(sentence: str) -> Effect:
    """The effect of one sentence (without its keyword), or a `Prompt` holding it."""
    return read_known_sentence(sentence, _COMPILED)


def _when(facts: CardFacts, text: str) -> tuple[When, str]:
    head, sep, tail = text.partition(":")
    if sep and head.strip().lower() in WHEN_OF_KEYWORD:
        return WHEN_OF_KEYWORD[head.strip().lower()], tail.strip()
    if len(facts.keywords) == 1 and facts.keywords[0].lower() in WHEN_OF_KEYWORD:
        return WHEN_OF_KEYWORD[facts.keywords[0].lower()], text
    return "play", text


def _ability(facts: CardFacts, text: str) -> Ability:
    when, sentence = _when(facts, text)
    return Ability(when, read_sentence(sentence), text=text)


def compile_card(facts: CardFacts) -> CardAbilities:
    """The card's abilities: its structured `effects` when given, else its text."""
    return compile_text(facts, _ability)
