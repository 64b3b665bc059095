"""Snapshot diffs, pile memory and the interpreter's apply / ask / record decisions."""

from __future__ import annotations

from companion.engine.api import Move
from companion.engine.interpreter import Interpreter, PileMemory, diff_snapshots
from companion.snapshot import SeenCard, TableSnapshot
from tests.engine.tob_fixtures import position

GAME = "trick-or-beat"


def snap(*cards: SeenCard) -> TableSnapshot:
    return TableSnapshot(game=GAME, cards=cards)


def test_diff_finds_appeared_vanished_moved_and_flipped() -> None:
    before = snap(SeenCard("A#1", "p1.passive"), SeenCard("back:7", "p1.active", face_up=False))
    after = snap(SeenCard("A#1", "p1.active"), SeenCard("B#1", "p1.active"))
    diff = diff_snapshots(before, after)
    assert [c.uid for c in diff.appeared] == ["B#1"]
    assert [c.uid for c in diff.vanished] == ["back:7"]
    assert [(a.zone, b.zone) for a, b in diff.moved] == [("p1.passive", "p1.active")]
    assert [c.uid for c in diff.flipped] == ["B#1"]
    assert diff_snapshots(after, after).empty


def test_pile_memory_tells_covered_from_taken_back() -> None:
    memory = PileMemory()
    assert memory.update("p1.trick", "back:1") == (False, [])
    assert memory.update("p1.trick", "back:2") == (True, [])
    assert memory.update("p1.trick", "back:1") == (False, ["back:2"])
    assert memory.update("p1.trick", None) == (False, ["back:1"])


def test_one_legal_explanation_is_applied() -> None:
    game = position(p1_active=["XB#1"])
    table = snap(SeenCard("XB#1", "p1.active"))
    interp = Interpreter(game, table)
    seen = interp.observe(snap(SeenCard("XB#1", "p1.active"), SeenCard("XA#1", "p1.passive")))
    assert seen.moves == [Move("summon", "p1", ("XA#1",), to="p1.passive")]
    assert seen.violations == [] and game.state.where["XA#1"] == "p1.passive"


def test_no_legal_explanation_is_recorded_with_violations() -> None:
    game = position(p1_active=["XB#1"])
    interp = Interpreter(game, snap(SeenCard("XB#1", "p1.active")))
    seen = interp.observe(snap(SeenCard("XB#1", "p1.active"), SeenCard("XA#1", "p1.active")))
    assert seen.unexplained and [v.code for v in seen.violations] == ["tob.summon-active"]
    assert game.log[-1].source == "camera" and not game.log[-1].legal


def test_several_legal_explanations_ask_a_person() -> None:
    game = position(p1_active=["XB#1"])
    interp = Interpreter(game, snap(SeenCard("XB#1", "p1.active")))
    # a tactic with a pending face-up supply draw: the deck top vanishing could be either
    game.state.flags["supply_draws"] = 1
    game.state.flags["lifts"] = {"draw": ["XC#1"]}
    interp.observe(snap(SeenCard("XB#1", "p1.active"), SeenCard("back:5", "shared.deck",
                                                                face_up=False)))
    seen = interp.observe(snap(SeenCard("XB#1", "p1.active"),
                               SeenCard("back:6", "shared.deck", face_up=False)))
    assert seen.question is not None and len(seen.question.choices) == 2
    before = len(game.log)
    answered = interp.answer(1)
    assert len(game.log) == before + 1 and answered.entries[0].source == "person"


def test_person_input_is_a_move() -> None:
    game = position(phase="supply")
    interp = Interpreter(game)
    seen = interp.person(Move("next-phase", "p1"))
    assert [v.code for v in seen.violations] == ["tob.must-draw"]
