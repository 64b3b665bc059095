"""My Little Pony: in a troublemaker faceoff only the challenger's characters take part
(rulebook, Konfrontationen: "An einer Wiedersacher-Konfrontation nehmen alle deine Charaktere
teil, die sich auf demselben Problem wie der Wiedersacher befinden ... Gegnerische Charakters
nehmen jedoch nicht teil")."""

from __future__ import annotations

from companion.engine.api import Move
from companion.games.my_little_pony import faceoff as fo
from tests.games.test_my_little_pony_rules import DECKS, position


def test_the_opponents_character_on_the_problem_does_not_take_part() -> None:
    decks = {**DECKS, "p2": [*DECKS["p2"], "PR160", "PR7"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR160", "PR7"]}, decks=decks,
                 phase="troublemaker")
    assert g.push(Move("challenge", "p1", target="PR160#1")) == []
    sides = fo.current(g.state)["sides"]  # type: ignore[index]
    assert sides["p1"] == ["PR52#1"] and sides["p2"] == []
