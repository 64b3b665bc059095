"""Creature Crush: how a battle ends, as a script's report says it (issue 31).

Rulebook, "A) Eine Schlacht gewinnen": "Eine Schlacht endet unentschieden, wenn sich beide
Spieler darauf einigen oder wenn es zu einer Patt-Situation kommt." A draw is an ending, so a
report must tell it from a battle still going on (`expect: {winner: draw}` against `null`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.api import Move
from companion.referee.script import StepReport, check_expect, referee_script, winner_of
from tests.games.test_creature_crush_rules import position

SCRIPTS = Path(__file__).parents[2] / "companion/sim/scripts/creature-crush"


def test_a_draw_by_agreement_is_reported_as_a_draw_only_when_both_agree() -> None:
    g = position()
    assert winner_of(g) is None
    g.push(Move("agree-draw", "p1"))
    assert winner_of(g) is None  # one player's word: the battle goes on
    g.push(Move("agree-draw", "p2"))
    assert winner_of(g) == "draw"


def test_a_stalemate_is_reported_as_a_draw_and_expect_tells_it_from_no_end() -> None:
    stale = position(p1_B1=["CC-011"], p2_B1=["CC-008"], hands={"p1": 0, "p2": 0},
                     camps={"p1": [], "p2": []})
    stale.push(Move("declare", "p1", value="nothing left"))
    report = StepReport(index=1, line=1, winner=winner_of(stale))
    assert report.winner == "draw"
    assert check_expect(stale, report, {"winner": "draw"}) == []
    assert check_expect(stale, report, {"winner": None}) != []  # ended: not "nobody yet"


def test_a_won_battle_still_names_its_winner() -> None:
    g = position()
    g.push(Move("concede", "p2"))
    assert winner_of(g) == "p1"


@pytest.mark.parametrize("camera_only", [False, True])
@pytest.mark.parametrize("name", ["rules-agreement", "rules-stalemate"])
def test_the_rulebook_scripts_of_both_draws_end_in_a_draw(name: str, camera_only: bool) -> None:
    report = referee_script(str(SCRIPTS / f"{name}.yaml"), camera_only)
    assert report.failures == []
    assert report.steps[-1].winner == "draw"
    assert report.to_dict()["steps"][-1]["winner"] == "draw"
