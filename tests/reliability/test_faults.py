"""Fault injection: the game library turns full or read-only under a running game. Nothing
shown is lost, nothing unrecorded is shown, and recording resumes by itself."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.record.store import Store, WriteFailedError
from companion.server.session import LiveSession
from tests.reliability.conftest import new_session, read_only
from tests.server.fakes import table


def play(session: LiveSession) -> None:
    session.observe(table())
    session.observe(table(("T1#1", "p1.A1")))


def test_read_only_medium_pauses_and_resumes(session: LiveSession) -> None:
    play(session)
    before = session.state()
    read_only(session.store)
    with pytest.raises(WriteFailedError, match="read-only"):
        session.act("pass")
    session.observe(table(("T1#1", "p1.A1"), ("T2#1", "p1.A2")))
    state = session.state()
    assert state["recording"] == {"status": "paused",
                                  "message_en": "read-only storage",
                                  "message_de": "Speicher schreibgeschützt",
                                  "waiting": 1}  # the table the camera saw, kept
    assert state["table"] == before["table"] and state["status"] == before["status"]
    read_only(session.store, on=False)
    session._last_retry = 0.0
    session.tick()
    assert session.state()["recording"]["status"] == "ok"
    assert {c["uid"] for c in session.state()["table"]["cards"]} == {"T1#1", "T2#1"}
    again = new_session(session.store, resume=session.game_id)
    assert again.state()["table"] == session.state()["table"]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 600 KB file system (tmpfs; needs mount rights, skipped otherwise)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_real_full_disk(small_disk: Path) -> None:
    store = Store(small_disk / "games.db")
    session = new_session(store)
    play(session)
    ballast = small_disk / "ballast"
    fd = os.open(ballast, os.O_WRONLY | os.O_CREAT)  # the rest of the disk fills up
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    shown_before = session.state()["table"]
    paused = False
    for i in range(40):  # some writes may still fit into free pages: go on until one fails
        try:
            session.act("declare", value=f"{i} " + "x" * 150)
        except WriteFailedError as exc:
            assert "disk full" in str(exc)
            paused = True
            break
    assert paused and session.state()["recording"]["status"] == "paused"
    assert session.state()["table"] == shown_before
    recorded = store.log_stamp(session.game_id)
    shown = session.state()["seq"]
    assert shown == recorded[0]  # the page shows exactly what the file holds
    ballast.unlink()
    session._last_retry = 0.0
    session.tick()
    assert session.state()["recording"]["status"] == "ok"
    session.act("pass")
    store.close()
    with Store(small_disk / "games.db", read_only=True) as check:
        kinds = [e.kind for e in check.events(session.game_id)]
    assert kinds[-2:] == ["action", "phase"]
