"""Mutation testing in CI: the recorded score keeps its floor, and bugs stay caught.

The full and sampled runs (`make mutation`, `make mutation-sample`) take long; CI instead
checks their recorded result (tests/mutation/result.json) against the floor
(tests/mutation/floor.txt, a history that may only rise), puts each of the four bugs issue 12
planted (which no test caught then) back into a copy of the package and sees its test fail,
and does the same for the killed mutants the last run recorded as sentinels.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.mutation.patching import Patch, broken_copy, fails

HERE = Path(__file__).resolve().parent
RESULT = json.loads((HERE / "result.json").read_text(encoding="utf-8"))
FLOORS = [float(line.split()[0]) for line in (HERE / "floor.txt").read_text().splitlines()
          if line.strip() and not line.startswith("#")]

PLANTED = [
    (Patch("planted: Trick or Beat attack bonus from 3 trick cards",
           "companion/games/trick_or_beat/numbers.py", "attack_bonus_for",
           "return ATTACK_BONUS if trick_cards >= TRICK_ATTACK_BONUS_AT else 0",
           "return ATTACK_BONUS if trick_cards >= 3 else 0"),
     "tests/rulebook/test_trick_or_beat_numbers.py::test_attack_bonus_from_four_trick_cards"
     "[3-False]"),
    (Patch("planted: the tracker's stacking tie-break inverted",
           "companion/vision/tracker.py", "_above",
           "return (a.since, a.x_mm + a.y_mm) > (b.since, b.x_mm + b.y_mm)",
           "return (a.since, a.x_mm + a.y_mm) < (b.since, b.x_mm + b.y_mm)"),
     "tests/vision/test_tracker_stacking.py::test_cards_confirmed_together_stack_as_they_lie"
     "[equipment-False]"),
    (Patch("planted: Creature Crush effect permits outlive the turn",
           "companion/games/creature_crush/rules.py", "_turn_ends",
           'flags(state)["permits"] = []', "pass"),
     "tests/rulebook/test_creature_crush_numbers.py::"
     "test_an_effect_not_carried_out_lapses_with_the_turn"),
    (Patch("planted: the interpreter's player hint inverted",
           "companion/engine/interpreter.py", "_observe",
           "plans = [p for p in plans if all(m.player == by for m in p.moves)] or plans",
           "plans = [p for p in plans if all(m.player != by for m in p.moves)] or plans"),
     "tests/engine/test_interpreter_hints.py::test_the_named_player_is_the_one_who_moved[p2]"),
]


def test_the_floor_only_rises_and_the_recorded_score_keeps_it() -> None:
    assert sorted(FLOORS) == FLOORS, "the floor history may only rise"
    assert RESULT["score"] >= FLOORS[-1]
    status = RESULT["status"]
    run = sum(v for k, v in status.items() if k not in ("skipped", "not run"))
    assert RESULT["score"] == pytest.approx((status.get("killed", 0)
                                             + status.get("timeout", 0)) / run, abs=1e-4)
    assert status.get("not run", 0) == 0 and len(RESULT["survivors"]) == status.get("survived",
                                                                                      0)


@pytest.mark.parametrize(("patch", "test"), PLANTED, ids=[p.name for p, _ in PLANTED])
def test_each_planted_bug_is_caught(patch: Patch, test: str) -> None:
    with broken_copy(patch) as root:
        assert fails(root, [test]) == test


@pytest.mark.parametrize("sentinel", RESULT["sentinels"], ids=lambda s: s["name"])
def test_recorded_kills_are_still_kills(sentinel: dict[str, str]) -> None:
    patch = Patch(**{k: v for k, v in sentinel.items() if k != "test"})
    with broken_copy(patch) as root:
        assert fails(root, [sentinel["test"]]) == sentinel["test"]
