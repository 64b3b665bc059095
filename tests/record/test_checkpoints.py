"""Which checkpoints a replay may start from (issue 34), worked by hand: a copy of the game
after the log's first `at` events holds while those events stand and the inputs taken back up
to there are the same; a log cut back and written again has other events at the same seqs."""

from __future__ import annotations

from companion.record.checkpoints import Checkpoints
from companion.record.store import Event


def log(count: int, tag: str = "") -> list[Event]:
    return [Event(1, seq, 0.0, "observation", "camera", {"tag": tag})
            for seq in range(1, count + 1)]


def test_one_is_due_every_so_many_events() -> None:
    points: Checkpoints[str] = Checkpoints(every=3)
    events = log(9)
    assert [at for at in range(10) if points.due(at)] == [3, 4, 5, 6, 7, 8, 9]
    points.add(events, 3, frozenset(), "after 3")
    assert [at for at in range(10) if points.due(at)] == [6, 7, 8, 9]
    assert not Checkpoints(every=0).due(5)


def test_a_replay_starts_from_the_newest_that_holds() -> None:
    points: Checkpoints[str] = Checkpoints(every=3)
    events = log(9)
    for at in (3, 6, 9):
        points.add(events, at, frozenset(), f"after {at}")
    start = points.start(events, frozenset())
    assert start is not None and start.state == "after 9"
    # input 5 taken back: the copies after events 6 and 9 include it, the one after 3 holds
    found = points.find(events, frozenset({5}))
    assert found is not None and found.state == "after 3"
    assert len(points) == 3  # `find` keeps them all
    start = points.start(events, frozenset({5}))
    assert start is not None and start.state == "after 3"
    assert len(points) == 1  # `start` drops the ones that no longer hold


def test_an_input_taken_back_after_the_copy_leaves_it_standing() -> None:
    points: Checkpoints[str] = Checkpoints(every=3)
    events = log(9)
    points.add(events, 6, frozenset({2}), "after 6, input 2 taken back")
    assert points.find(events, frozenset({2, 7})) is not None  # 7 comes after the copy
    assert points.find(events, frozenset()) is None  # input 2 put back: it no longer holds


def test_a_log_cut_back_and_written_again_is_another_log() -> None:
    points: Checkpoints[str] = Checkpoints(every=3)
    events = log(9)
    points.add(events, 3, frozenset(), "after 3")
    points.add(events, 6, frozenset(), "after 6")
    rewritten = events[:4] + log(9, "again")[4:]  # events 5.. written again after a failure
    start = points.start(rewritten, frozenset())
    assert start is not None and start.state == "after 3"
    assert points.start(events[:5], frozenset()) is not None  # shorter than the copy: dropped
    assert len(points) == 1
