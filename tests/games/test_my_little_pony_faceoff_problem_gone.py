"""A faceoff is for the problem(s) it started on, even when the table no longer shows them.

The camera may record the problem card leaving during a faceoff (an illegal move, kept with its
violations: a move is never refused). The next, legal `flip` then resolved the faceoff with no
problem at its zone and crashed (`max()` of nothing), and so did every replay of the saved game.
Rulebook "Konfrontationen" / "Score Phase": the winner gets the bonus printed on the problem
faced off for; so the oracle is the same faceoff with the problem left in place.
"""

from __future__ import annotations

import json

import pytest

from companion.engine.api import Move
from companion.engine.game import Game
from companion.games.my_little_pony import effects as fx
from companion.games.my_little_pony import faceoff as fo
from tests.games.test_my_little_pony_rules import DECKS, codes, position

LEAVES = [Move("discard", "p1", ("PR177#1",)), Move("retire", "p2", ("PR177#1",)),
          Move("move", "p1", ("PR177#1",), to="p1.home"),
          Move("starting-problem", "p2", ("PR177#1",))]


def in_faceoff() -> Game:
    g = position({"p1.problem": ["PR177", "PR52", "PR22", "PR7", "PR12"]},
                 decks={**DECKS, "p2": [*DECKS["p2"], "PR7", "PR12"]})
    g.push(Move("next-phase", "p1"))
    assert fo.current(g.state) is not None
    return g


@pytest.mark.parametrize("leave", LEAVES, ids=lambda m: m.kind)
@pytest.mark.parametrize("flips", [(5, 0), (0, 5), (2, 0)], ids=["p1", "p2", "tie"])
def test_a_legal_flip_after_the_problem_left_resolves_for_that_problem(
        leave: Move, flips: tuple[int, int]) -> None:
    plain, g = in_faceoff(), in_faceoff()
    assert codes(g.push(leave)), "the problem leaving mid-faceoff is not legal"
    assert fx.problem_at(g.state, "p1.problem") is None
    for game in (plain, g):
        for player, power in zip(("p1", "p2"), flips, strict=True):
            flip = Move("flip", player, value=power)
            assert codes(game.check(flip)) == []
            game.push(flip)
        assert fo.current(game.state) is None
    assert g.state.flags["last_faceoff"] == plain.state.flags["last_faceoff"]
    assert {p: fx.points(g.state, p) for p in ("p1", "p2")} == \
        {p: fx.points(plain.state, p) for p in ("p1", "p2")}
    again = Game.replay(json.loads(json.dumps(g.record())))
    assert again.state.flags["last_faceoff"] == g.state.flags["last_faceoff"]
    assert {p: fx.points(again.state, p) for p in ("p1", "p2")} == \
        {p: fx.points(g.state, p) for p in ("p1", "p2")}
