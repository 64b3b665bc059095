"""My Little Pony CCG, Caretaker in a scoring scenario (issue 31: a planted bug survived).

Rulebook, Schlüsselwörter: "Caretaker: Charaktere mit diesem Schlüsselwort erhalten +1
Kraftwert, solange sie sich gemeinsam mit mindestens einem deiner Kleintierfreunde auf einem
Problem befinden." Only the Caretaker's own player's Critter friends count: an opponent's
Critter at the same problem gives nothing. The bonus decides here whether Ada's friends reach
the 4 power Bo's Cloudbursting asks of an opponent (1 point and the bonus 1 when they do).
"""

from __future__ import annotations

from companion.engine.api import Move
from companion.games.my_little_pony import effects as fx
from tests.games.test_my_little_pony_rules import DECKS, position

AMETHYST = "PR80"  # Amethyst Star, Kindness 2, Caretaker
GUARD = "PR14"  # Pegasus Royal Guard, Loyalty 1, no Critter
MOUSE = "PR86"  # House Mouse, Kindness 1, Critter
CLOUDBURSTING = "PR168"  # Bo's problem: an opponent needs 4 power, bonus 1


def score_phase(at_problem: list[str], ada: list[str], bo: list[str]) -> int:
    """Ada's points after her score phase, her and Bo's friends at Bo's problem."""
    decks = {**DECKS, "p1": [*ada, *DECKS["p1"]], "p2": [*bo, *DECKS["p2"]]}
    g = position({"p2.problem": [CLOUDBURSTING, *at_problem]}, decks=decks)
    g.push(Move("next-phase", "p1"))
    return fx.points(g.state, "p1")


def test_an_opponents_critter_gives_the_caretaker_nothing() -> None:
    # Ada's 2 + 1 = 3 < 4; Bo's House Mouse is no Critter friend of Ada's: no point
    assert score_phase([AMETHYST, GUARD, MOUSE], ada=[AMETHYST, GUARD], bo=[MOUSE]) == 0


def test_her_own_critter_gives_the_caretaker_one_and_the_problem_is_solved() -> None:
    # Ada's 2 + 1 + Caretaker 1 = 4: solved first, 1 point and the bonus 1
    assert score_phase([AMETHYST, MOUSE], ada=[AMETHYST, MOUSE], bo=[]) == 2


def test_the_caretakers_power_counts_only_her_players_critters() -> None:
    decks = {**DECKS, "p1": [AMETHYST, GUARD, *DECKS["p1"]], "p2": [MOUSE, *DECKS["p2"]]}
    g = position({"p2.problem": [CLOUDBURSTING, AMETHYST, GUARD, MOUSE]}, decks=decks)
    assert g.state.owner["PR86#1"] == "p2" and g.state.owner["PR80#1"] == "p1"
    assert fx.power(g.state, "PR80#1") == 2
