"""`demo --resume` goes on in every game (issue 34: it refused in 2 of 5 games and recorded
nothing after resuming in 2 more).

The resumed demo used to find its place by the last table the game had: the first run's
latest script table equal to it. Tables repeat (Trick or Beat's empty table after every
trick), so the camera skipped far ahead (to the end: nothing more recorded); and a camera
that sees the lamp's reflection never reads a script's table exactly (My Little Pony:
refused). And the resumed camera began in the middle of a change, a hand in its first
picture: to the camera that hand never left, and no table settled again. Now the camera's
own clock says where it stopped (the frame plan knows which step each frame showed), a feed
without a plan matches the tables in order, reflections left out, and the camera starts on
the stopped step's table with no hand over it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.games import GAMES
from companion.referee.script import referee_script
from companion.server.live_setup import (
    _as_seen,
    _step_of_tables,
    build_demo,
    demo_script_path,
)
from companion.sim.script import load_script
from companion.sim.source import script_snapshots
from companion.snapshot import TableSnapshot, Unreadable


def script_source(live: Any) -> Any:
    """The simulated camera under the pacing and the resume's frame skipping."""
    return live.extra["feed"].source.source.source


def seen_at(live: Any, count: int) -> list[float]:
    """For each script table, the camera time of the last frame that shows it."""
    times = [0.0] * count
    fps = script_source(live).player.timing.fps
    for index, (shown, *_rest) in enumerate(script_source(live).player.plan()):
        times[shown] = index / fps
    return times


def stop_point(snaps: list[TableSnapshot]) -> int:
    """A table in the middle of the script, one that comes again later where there is one."""
    middle = max(2, len(snaps) // 2)
    for k in range(middle, len(snaps) - 1):
        if any(snaps[k].same_table(s) for s in snaps[k + 1:]):
            return k
    return middle


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_resumed_demo_goes_on_from_where_it_stopped(game: str, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    script = load_script(demo_script_path(game))
    snaps = script_snapshots(script)
    stop = stop_point(snaps)
    first = build_demo(game, 1.0, db)
    times = seen_at(first, len(snaps))
    director = first.extra["director"]
    first.session.observe(replace(snaps[0], time_s=times[0]))
    for k in range(1, stop + 1):
        director.on_frame(SimpleNamespace(step=k - 1))
        first.session.observe(replace(snaps[k], seq=k, time_s=times[k]))
    game_id = first.session.game_id
    first.close()

    again = build_demo(game, 1.0, db, resume=True)
    try:
        session, director = again.session, again.extra["director"]
        assert session.game_id == game_id
        tables = [e for e in session.store.events(game_id) if e.kind == "observation"]
        # the step of the last table the camera recorded (a change it cannot see records
        # none), not a later table that looks the same
        assert director.last == tables[-1].payload["snapshot"]["seq"] - 1
        assert director.last >= stop - 2
        recorded = len(session.store.events(game_id))
        for k in range(stop + 1, len(snaps)):
            director.on_frame(SimpleNamespace(step=k - 1))
            session.observe(replace(snaps[k], seq=k, time_s=times[k]))
        director.on_end()
        assert len(session.store.events(game_id)) > recorded  # it goes on recording
        last = referee_script(str(demo_script_path(game))).steps[-1]
        status = session.state()["status"]["en"]
        assert (status["phase"], status["active"], status["turn"]) == (
            last.phase, last.active, last.turn)
    finally:
        again.close()


def test_a_resumed_demo_camera_starts_at_the_step_it_stopped(tmp_path: Path) -> None:
    """The frames after a resume are the stopped step's, not a later repeat's."""
    db = tmp_path / "games.db"
    snaps = script_snapshots(load_script(demo_script_path("trick-or-beat")))
    stop = stop_point(snaps)
    assert any(snaps[stop].same_table(s) for s in snaps[stop + 1:])  # the trap is there
    first = build_demo("trick-or-beat", 1.0, db)
    times = seen_at(first, len(snaps))
    first.session.observe(replace(snaps[0], time_s=times[0]))
    for k in range(1, stop + 1):
        first.extra["director"].on_frame(SimpleNamespace(step=k - 1))
        first.session.observe(replace(snaps[k], seq=k, time_s=times[k]))
    first.close()
    again = build_demo("trick-or-beat", 1.0, db, resume=True)
    try:
        frame = again.extra["feed"].source.source.read()
        assert frame.step == stop - 1
    finally:
        again.close()


def test_tables_without_a_frame_plan_are_matched_in_order_reflections_left_out() -> None:
    snaps = script_snapshots(load_script(demo_script_path("trick-or-beat")))
    stop = stop_point(snaps)
    assert _step_of_tables(snaps[: stop + 1], snaps) == stop - 1
    truth = snaps[stop]
    card = truth.cards[0]
    glared = replace(truth, cards=tuple(c for c in truth.cards if c.uid != card.uid),
                     unreadable=(Unreadable(card.zone, 0.0, 0.0),))
    assert not glared.same_table(truth) and _as_seen(glared, truth)
    moved = replace(glared, cards=(*glared.cards, replace(card, zone="elsewhere")))
    assert not _as_seen(moved, truth)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_resumed_demo_camera_sees_tables_settle_again(game: str, tmp_path: Path) -> None:
    """The resumed camera's first frame is the stopped step's table with no hand over it: a
    hand in the camera's first picture stayed a "hand" for good and no table settled again
    (the demo recorded nothing after resuming)."""
    db = tmp_path / "games.db"
    snaps = script_snapshots(load_script(demo_script_path(game)))
    stop = stop_point(snaps)
    first = build_demo(game, 1.0, db)
    times = seen_at(first, len(snaps))
    first.session.observe(replace(snaps[0], time_s=times[0]))
    for k in range(1, stop + 1):
        first.extra["director"].on_frame(SimpleNamespace(step=k - 1))
        first.session.observe(replace(snaps[k], seq=k, time_s=times[k]))
    first.close()
    again = build_demo(game, 1.0, db, resume=True)
    try:
        frames, pipeline = again.extra["feed"].source.source, again.extra["feed"].pipeline
        settled = None
        for _ in range(20):
            frame = frames.read()
            assert frame is not None
            settled = pipeline.process(frame).snapshot
            if settled is not None:
                break
        assert settled is not None
    finally:
        again.close()
