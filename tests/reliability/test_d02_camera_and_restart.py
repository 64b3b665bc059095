"""Defect 2: one keyframe that could not be written (full disk) stopped the camera feed for
good; freeing space did not bring it back; a restart began a new game record."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.record.store import Store
from companion.referee.script import config_from_script, referee_script
from companion.server.feeds import FeedRunner
from companion.server.session import LiveSession
from tests.reliability.conftest import fill_up, make_room
from tests.server.fakes import table


def wait_for(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(0.02)


class GatedFeed:
    """Snapshots with a keyframe each, released one at a time by the test."""

    def __init__(self, snapshots: list[Any]) -> None:
        self.snapshots = snapshots
        self.go = threading.Semaphore(0)
        self.done = 0

    def run(self, session: LiveSession, stop: threading.Event) -> None:
        for snap in self.snapshots:
            while not self.go.acquire(timeout=0.05):
                if stop.is_set():
                    return
            session.camera("ok", fps=10.0, frame_arrived=True)
            session.observe(snap, b"\xff\xd8" + b"k" * 4000)
            self.done += 1
        while not stop.wait(0.05):
            session.camera("ok", fps=10.0, frame_arrived=True)


def test_the_camera_path_survives_a_full_disk_and_recording_resumes_by_itself(
    session: LiveSession,
) -> None:
    feed = GatedFeed([table(), table(("T1#1", "p1.A1")),
                      table(("T1#1", "p1.A1"), ("T2#1", "p1.A2"))])
    runner = FeedRunner(feed, session).start()
    try:
        feed.go.release()
        wait_for(lambda: feed.done == 1)
        fill_up(session.store, session.game_id)
        session._events = session.store.events(session.game_id)
        feed.go.release()
        feed.go.release()
        wait_for(lambda: feed.done == 3)
        state = session.state()
        assert runner.alive and runner.error is None
        assert state["health"]["status"] == "ok"
        assert state["recording"]["status"] == "paused"
        assert state["recording"]["message_en"] == "disk full"  # "Recording paused: disk full"
        assert state["recording"]["message_de"] == "Speicher voll"
        assert state["table"]["cards"] == []  # nothing shown that the file does not hold
        make_room(session.store)
        # no button, no new table: the watchdog retries and the last table is recorded
        wait_for(lambda: session.state()["recording"]["status"] == "ok")
        cards = {c["uid"] for c in session.state()["table"]["cards"]}
        assert cards == {"T1#1", "T2#1"}
        moves = [e for e in session.store.events(session.game_id) if e.kind == "move"]
        assert [m.payload["move"]["cards"] for m in moves] == [["T1#1"], ["T2#1"]]
        # each table the camera saw during the outage is its own step (issue 34), not one jump
        observed = [e for e in session.store.events(session.game_id) if e.kind == "observation"]
        assert [len(e.payload["snapshot"]["cards"]) for e in observed] == [0, 1, 2]
        assert [m.payload["input"] for m in moves] == [e.seq for e in observed[1:]]
    finally:
        runner.stop()


PLAYER = textwrap.dedent(
    """
    import sys
    from types import SimpleNamespace
    from companion.referee.script import config_from_script
    from companion.server.live_setup import ScriptDirector, build_live, demo_script_path
    from companion.server.feeds import SnapshotFeed
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    game, db = sys.argv[1], sys.argv[2]
    script = load_script(demo_script_path(game))
    live = build_live(config_from_script(script), SnapshotFeed([]), db, "demo: kill")
    director = ScriptDirector(script, live.session)
    snaps = script_snapshots(script)
    live.session.observe(snaps[0])
    for k in range(1, len(snaps)):
        director.on_frame(SimpleNamespace(step=k - 1))
        live.session.observe(snaps[k].with_seq(k, float(k)))
        print(k, flush=True)
    director.on_end()
    print("end", flush=True)
    """
)


@pytest.mark.parametrize("game", ["trick-or-beat", "creature-crush"])
def test_kill_9_mid_game_then_resume_finishes_the_same_game(game: str, tmp_path: Path) -> None:
    from companion.server.feeds import SnapshotFeed
    from companion.server.live_setup import (
        ScriptDirector,
        SkipFrames,
        _continue_demo,
        build_live,
        demo_script_path,
    )
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    db = tmp_path / "games.db"
    script = load_script(demo_script_path(game))
    snaps = script_snapshots(script)
    stop_at = max(2, len(snaps) // 2)
    proc = subprocess.Popen([sys.executable, "-c", PLAYER, game, str(db)],
                            stdout=subprocess.PIPE, text=True, cwd=os.getcwd())
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip() == str(stop_at):
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=20)
    with Store(db, read_only=True) as before:
        (header,) = before.games()
        recorded = before.log_stamp(header.id or 0)
    assert recorded[1] > 0 and header.finished is None

    live = build_live(config_from_script(script), SnapshotFeed([]), db, "demo: kill",
                      resume=True, title_prefix="demo: kill")
    try:
        session = live.session
        assert session.game_id == header.id and session.resumed_at == recorded[0]
        director = ScriptDirector(script, session)
        _continue_demo(session, director, SkipFrames(None))
        for k in range(director.last + 2, len(snaps)):
            director.on_frame(SimpleNamespace(step=k - 1))
            session.observe(snaps[k].with_seq(k, float(k)))
        director.on_end()
        report = referee_script(str(demo_script_path(game)))
        last = report.steps[-1]
        status = session.state()["status"]["en"]
        assert (status["phase"], status["active"], status["turn"]) == (
            last.phase, last.active, last.turn)
        wanted = sorted(v.code for s in report.steps for e in s.moves for v in e.violations)
        assert sorted(v["code"] for v in session.state()["violations"]) == wanted
        assert len(live.store.games()) == 1
    finally:
        live.close()


def test_resume_without_an_open_game_is_a_one_line_error(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from companion.cli import cli

    result = CliRunner().invoke(cli, ["demo", "--resume", "--no-browser", "--port", "0",
                                      "--db", str(tmp_path / "g.db"), "--duration", "0"])
    assert result.exit_code != 0
    assert "no unfinished trick-or-beat game" in result.output
    assert "Traceback" not in result.output


def test_demo_resume_picks_up_where_the_table_was(tmp_path: Path) -> None:
    """`demo --resume` skips the simulated camera to the step the recorded game reached."""
    from companion.server.live_setup import ScriptDirector, build_demo, demo_script_path
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    db = tmp_path / "games.db"
    first = build_demo("trick-or-beat", 1.0, db)
    script = load_script(demo_script_path("trick-or-beat"))
    snaps = script_snapshots(script)
    director = ScriptDirector(script, first.session)
    first.session.observe(snaps[0])
    for k in range(1, 4):
        director.on_frame(SimpleNamespace(step=k - 1))
        first.session.observe(snaps[k].with_seq(k, float(k)))
    game_id = first.session.game_id
    first.close()
    again = build_demo("trick-or-beat", 1.0, db, resume=True)
    try:
        assert again.session.game_id == game_id
        assert again.extra["director"].last == 2
        frame = again.extra["feed"].source.source.read()
        assert frame.step >= 2
    finally:
        again.close()

