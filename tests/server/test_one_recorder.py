"""`--resume` refuses a game another live process records: two recorders on one game would
interleave one log without a word. The holder is a real second process; when it ends (here
cleanly; after a kill -9 the kernel does the same) the game can be resumed again."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.record.game_lock import GameHeldError

HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tests.server.test_one_recorder import live
    try:
        table = live(Path(sys.argv[1]), resume=sys.argv[2] == "resume")
    except Exception as exc:
        print("refused:", exc, flush=True)
        raise SystemExit(1)
    print(table.session.game_id, flush=True)
    sys.stdin.read()
    table.close()
    """
)


def live(db: Path, resume: bool = False) -> Any:
    """A live table recording a Trick or Beat game to `db`, as `serve`/`demo` build it."""
    from companion.referee.script import config_from_script
    from companion.server.feeds import SnapshotFeed
    from companion.server.live_setup import build_live, demo_script_path
    from companion.sim.script import load_script

    config = config_from_script(load_script(demo_script_path("trick-or-beat")))
    return build_live(config, SnapshotFeed([]), db, "held", resume=resume)


def holder(db: Path, resume: bool = False) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), "resume" if resume else "new"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            cwd=os.getcwd())
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def stop(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=30)


def test_resume_refuses_a_game_another_process_records(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    proc, said = holder(db)
    try:
        assert said.isdigit(), said
        with pytest.raises(GameHeldError, match=f"game #{said} .* another companion"
                                                f" \\(process {proc.pid}\\)") as refused:
            live(db, resume=True)
        assert isinstance(refused.value, CompanionError)  # the CLI shows it in one line
    finally:
        stop(proc)
    again = live(db, resume=True)
    try:
        assert again.session.game_id == int(said)
    finally:
        again.close()


def test_a_resumed_game_is_held_too(tmp_path: Path) -> None:
    """This process resumed the game: a second process's resume is refused."""
    db = tmp_path / "games.db"
    first = live(db)
    game_id = first.session.game_id
    first.close()
    mine = live(db, resume=True)
    try:
        proc, said = holder(db, resume=True)
        stop(proc)
        assert proc.returncode == 1
        assert said.startswith(f"refused: game #{game_id}") and "another companion" in said
    finally:
        mine.close()
