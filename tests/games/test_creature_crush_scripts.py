"""Creature Crush end to end: every table script referees cleanly; random games keep the rules.

The rule-case scripts (companion/sim/scripts/creature-crush/rules-*.yaml) carry the legal and
illegal case of each rule as `expect`s; here they run through the interpreter and ruleset.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.game import Game
from companion.games.creature_crush import board as bd
from companion.games.creature_crush.numbers import MAX_START_DICE
from companion.referee.script import referee_script

SCRIPTS = sorted((Path(__file__).parents[2] / "companion/sim/scripts/creature-crush").glob(
    "*.yaml"))


def test_rule_scripts_exist_for_every_rule_group() -> None:
    names = {p.stem for p in SCRIPTS}
    for group in ("lager", "opening", "summon", "attack", "taktik", "crush", "keywords", "end",
                  "agreement", "concede", "effects", "stalemate", "c-zone", "dice-target",
                  "hell-to-hand"):
        assert f"rules-{group}" in names


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_referees_without_failures(path: Path) -> None:
    report = referee_script(str(path))
    assert report.failures == []
    if path.stem.startswith("rules-"):
        steps = [s for s in report.steps if s.moves]
        assert any(s.legal for s in steps) and any(not s.legal for s in steps)


def rule_errors(game: Game) -> list[str]:
    """Creature Crush invariants on top of the engine's: places, damage, dice."""
    s = game.state
    errors = []
    for p in ("p1", "p2"):
        for zone in bd.all_places(p):
            if len(s.cards_in(zone)) > 1:
                errors.append(f"{zone} holds {s.cards_in(zone)}")
        for uid in bd.creatures_of(s, p):
            if s.facts(uid).type != "creature":
                errors.append(f"{uid} on {s.where[uid]} is no creature")
            damage = s.flags["damage"].get(uid, 0)
            if not 0 <= damage < s.facts(uid).number("life", 1):
                errors.append(f"{uid} lives with {damage} damage")
        for zone in bd.crush_places(p):
            if any(u not in s.face_down for u in s.cards_in(zone)):
                errors.append(f"a face-up card stays in {zone}")
        if len(s.flags["dice"][p]) + len(s.flags["pool"][p]) > MAX_START_DICE:
            errors.append(f"{p} has more than 5 start dice")
    return errors


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000))
def test_random_games_play_legally_and_keep_the_rules(seed: int) -> None:
    game = Game.new("creature-crush", ("A", "B"), seed=seed)
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(400):
        legal = game.legal_moves
        if not legal:
            break
        move = rng.choice(legal)
        kinds.add(move.kind)
        game.push(move, "automatic")  # legal by the rulebook: tests/rulebook
        assert game.ruleset.invariant_errors(game.state, game.card_total) == []
        assert rule_errors(game) == []
    assert {"draw", "roll", "summon", "attack"} <= kinds
