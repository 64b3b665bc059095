"""Each phase's declared moves (what the camera's inference lets happen there) are the
rulebook's: "Hauptphase: Spiele Taktikkarten, greife an, beschwöre Wesen", "Kampfphase"
summons, attacks and lays crush cards, and so on (the timing tables in oracles.py quote them).

A few kinds are declared in no phase on purpose: they are side steps of another move (a
supply card's face-up draws, a discard, a support flip, a character sent home) and may be
seen in any phase. A draw in the Trick or Beat draft is a deal of one card.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import companion.games  # noqa: F401  (registers the games)
from companion.engine.game import Game
from companion.engine.inference import Inference
from tests.rulebook import oracles

TIMING: dict[str, Mapping[str, tuple[str, ...]]] = {
    "trick-or-beat": oracles.TOB_TIMING, "creature-crush": oracles.CC_TIMING,
    "fire-emblem-cipher": oracles.FE_TIMING, "my-little-pony-ccg": oracles.MLP_TIMING,
}
SIDE_STEPS = {
    "trick-or-beat": {"supply-draw", "discard"},
    "fire-emblem-cipher": {"support", "end-combat", "critical", "evade"},
    "my-little-pony-ccg": {"send-home", "new-problem"},
    "creature-crush": set(),
}
ALSO = {("trick-or-beat", "draw"): {"draft"}}


@pytest.mark.parametrize("game_id", sorted(TIMING))
def test_every_move_is_declared_in_the_phases_its_rulebook_names(game_id: str) -> None:
    inference = Inference(Game.new(game_id).ruleset)
    declared_in: dict[str, set[str]] = {}
    for phase, kinds in inference.phase_moves.items():
        for kind in kinds:
            declared_in.setdefault(kind, set()).add(phase)
    for kind, phases in TIMING[game_id].items():
        if kind in SIDE_STEPS[game_id]:
            assert kind not in declared_in, kind
            continue
        assert declared_in.get(kind) == set(phases) | ALSO.get((game_id, kind), set()), kind
