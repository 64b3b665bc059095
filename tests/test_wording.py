"""The words people read: plural forms, no internal ids in violation texts, phases and moves
named as the rulebooks name them, no line said twice in a prompt."""

from __future__ import annotations

import importlib
import re
from string import Formatter

import pytest

from companion.engine.api import GameConfig, Move
from companion.engine.game import Game
from companion.games import get_ruleset

GAMES = {
    "trick-or-beat": "trick_or_beat",
    "fire-emblem-cipher": "fire_emblem_cipher",
    "my-little-pony-ccg": "my_little_pony",
    "challengers": "challengers",
    "creature-crush": "creature_crush",
}
WRONG_PLURAL = re.compile(
    r"\b1 (cards|Karten|action tokens|Aktionspunkte|bench cards|Bankkarten|orbs|Juwelen|"
    r"starting cards|Startkarten)\b|\(s\)|\(n\)|Karte\(n\)")
MOVE_ID = re.compile(r"\b[a-z]+-[a-z]+(?:-[a-z]+)*\b")  # "set-crush", "send-home": a move kind


def catalog(game: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"companion.games.{GAMES[game]}.texts").CATALOG


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [1, 2])
def test_violation_texts_say_plurals_right(game: str, n: int) -> None:
    cat = catalog(game)
    for code, (_section, en, de) in cat.entries.items():
        values = {k: n for k in fields(en) | fields(de)
                  if k in ("count", "limit", "cost", "tokens", "value", "have", "need")}
        v = cat.violation(code, **values)
        for message in (v.message_en, v.message_de):
            assert not WRONG_PLURAL.search(message), (code, message)


@pytest.mark.parametrize("game", GAMES)
def test_wrong_phase_names_the_phase_and_the_move_in_words(game: str) -> None:
    ruleset = get_ruleset(game)
    Game(GameConfig(game=game, players=("Ada", "Bo")), ruleset)  # a started game names phases
    cat = catalog(game)
    code = next((c for c in cat.entries if c.endswith("wrong-phase")), None)
    if code is None:
        pytest.skip(f"{game} has no wrong-phase violation")
    spec = ruleset.flow.spec
    for phase in (*spec.setup_phases, *spec.turn_phases):
        for kind in sorted(ruleset.known_kinds):
            v = cat.violation(code, action=kind, phase=phase.id)
            assert phase.name.en in v.message_en, (phase.id, v.message_en)
            assert phase.name.de in v.message_de, (phase.id, v.message_de)
            en, de = cat.actions[kind]
            assert v.message_en.startswith(en[0].upper() + en[1:]), v.message_en
            assert v.message_de.startswith(de[0].upper() + de[1:]), v.message_de
            for message in (v.message_en, v.message_de):
                assert not MOVE_ID.search(message), message


@pytest.mark.parametrize("game", GAMES)
def test_every_move_kind_has_words_for_violations(game: str) -> None:
    ruleset, cat = get_ruleset(game), catalog(game)
    for kind in ruleset.known_kinds:
        assert kind in cat.actions, f"{game}: no words for the move kind {kind!r}"
        en, de = cat.actions[kind]
        assert en and de and not MOVE_ID.search(en) and not MOVE_ID.search(de), (kind, en, de)


@pytest.mark.parametrize("game", GAMES)
def test_no_prompt_line_is_said_twice(game: str) -> None:
    spec = get_ruleset(game).flow.spec
    for phase in (*spec.setup_phases, *spec.turn_phases):
        for lang in ("en", "de"):
            lines = [t.get(lang) for t in (*phase.must, *phase.may, *phase.automatic)]
            assert len(lines) == len(set(lines)), (phase.id, lines)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [1, 3])
def test_move_texts_say_plurals_right(game: str, n: int) -> None:
    ruleset = get_ruleset(game)
    for kind in ruleset.known_kinds:
        move = Move(kind, "p1", ("X-1#1",), to="p1.hand", target="X-2#1", value=n)
        for lang in ("en", "de"):
            said = ruleset.describe(move, lang)
            assert not WRONG_PLURAL.search(said), (kind, said)
