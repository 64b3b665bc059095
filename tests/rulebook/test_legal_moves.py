"""Listed legal moves against the rulebook oracles (tests/rulebook/oracles.py), not against the
check that built the list; and moves the rulebook forbids are flagged by the game."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.engine.api import Move, other
from companion.engine.game import Game
from tests.rulebook.oracles import ORACLES

STEPS = 150


def variants(game: Game, move: Move) -> list[Move]:
    """Moves next to a listed one: the other player, another place, another target."""
    zones = [z for z in game.state.zones if not z.endswith(".hand")]
    out = [replace(move, player=other(move.player))] if move.player in ("p1", "p2") else []
    if move.to:
        out += [replace(move, to=z) for z in zones if z != move.to]
    if move.target:
        out += [replace(move, target=u) for z in zones for u in game.state.cards_in(z)
                if u != move.target and u in game.state.public][:12]
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("game_id", sorted(ORACLES))
def test_every_listed_legal_move_keeps_the_rulebook(game_id: str, seed: int) -> None:
    oracle = ORACLES[game_id]
    game = Game.new(game_id, ("A", "B"), seed=seed)
    rng = random.Random(seed)
    for _ in range(STEPS):
        legal = game.legal_moves
        if not legal:
            break
        for move in legal:
            assert oracle(game.state, move) == [], (game.phase, game.active, move)
        game.push(rng.choice(legal), "automatic")


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("game_id", sorted(ORACLES))
def test_moves_the_rulebook_forbids_are_flagged(game_id: str, seed: int) -> None:
    oracle = ORACLES[game_id]
    game = Game.new(game_id, ("A", "B"), seed=seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(STEPS):
        legal = game.legal_moves
        if not legal:
            break
        for move in rng.sample(legal, min(4, len(legal))):
            for bad in variants(game, move):
                if oracle(game.state, bad):
                    checked += 1
                    found = [v.code for v in game.check(bad) if v.blocking]
                    assert found, (game.phase, game.active, bad, oracle(game.state, bad))
        game.push(rng.choice(legal), "automatic")
    assert checked > 0
