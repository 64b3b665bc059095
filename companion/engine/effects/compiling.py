"""Where card texts become typed abilities: once, when a game's cards are loaded.

The engine knows no game; each game names its compiler in its spec (`GameSpec.card_effects`,
a function `(CardFacts) -> tuple[Ability, ...]`), and the registry above installs the lookup
here (`install_effect_compilers`). `Catalog.for_game` compiles every card it loads through
`compile_card` and keeps the result in `CardFacts.abilities`; rules read that and never the
card's text. A compiler raises `EffectError` naming the card for a malformed structured effect,
and turns a sentence it does not know into a `Prompt` (never a guess).

`compile_card` is the only caller of a game's compiler (tests/architecture checks that no rule
module imports a compiler), so no card text is matched during play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from companion.engine.card_facts import CardFacts
from companion.engine.effects.parse import EffectError, parse_abilities
from companion.engine.effects.vocabulary import Ability, CardAbilities, Effect, Prompt

EffectCompiler = Callable[[CardFacts], CardAbilities]
CompilerLookup = Callable[[str], EffectCompiler | None]

_lookup: CompilerLookup | None = None


def install_effect_compilers(lookup: CompilerLookup | None) -> None:
    """Compile the cards of game `g` with `lookup(g)` (None: that game has no compiler)."""
    global _lookup
    _lookup = lookup


def compiler_for(game: str) -> EffectCompiler | None:
    """The installed compiler of `game` (None without a registry or for a game without one)."""
    return _lookup(game) if _lookup is not None else None


def compile_card(facts: CardFacts, compiler: EffectCompiler | None) -> CardFacts:
    """`facts` with its abilities compiled (unchanged without a compiler)."""
    if compiler is None:
        return facts
    try:
        abilities = compiler(facts)
    except EffectError:
        raise
    except (ValueError, TypeError, KeyError) as exc:  # a compiler's own slip: still name the card
        raise EffectError(facts.id, "effects", str(exc)) from exc
    return replace(facts, abilities=tuple(abilities))


def compile_text(facts: CardFacts, read: Callable[[CardFacts, str], Ability]
                 ) -> CardAbilities:
    """What every game's compiler does around its own reading: a structured `effects` list in
    the engine's YAML form when the card has one, else the card's `text` read by `read` into
    one ability, nothing for a card without text."""
    if facts.effects:
        return parse_abilities(facts.id, list(facts.effects))
    text = str(facts.get("text") or "").strip()
    return (read(facts, text),) if text else ()


class Wording(Protocol):
    """A known sentence's whole wording (a compiled regular expression, as a game's compiler
    makes it; the engine itself matches no text)."""

    def fullmatch(self, string: str) -> Any: ...


def read_known_sentence(sentence: str,
                        known: Sequence[tuple[Wording, Callable[[int], Effect]]]) -> Effect:
    """The effect of the one known wording the whole sentence matches (lower case, spaces
    collapsed, the final full stop dropped), built from the number in its first group (a
    word such as "eine", or no group: 1), or a `Prompt` holding the sentence."""
    low = " ".join(sentence.lower().split()).rstrip(".")
    for wording, build in known:
        match = wording.fullmatch(low)
        if match:
            word = match[1] if match.groups() else None
            return build(int(word) if word is not None and word.isdigit() else 1)
    return Prompt(sentence.strip())


def structured_abilities(facts: CardFacts) -> CardAbilities:
    """The compiler of a game whose cards write no sentences the companion reads (My Little
    Pony, Fire Emblem Cipher: their keywords are rules of their own): a structured `effects`
    list in the engine's YAML form, else the card's `text` as one `Prompt` (shown to the
    players, never applied)."""
    return compile_text(facts, lambda _, text: Ability("play", Prompt(text), text=text))
