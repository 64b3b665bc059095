"""A bundled opening rendered to a video file and refereed as `companion serve --video` does.

Nobody presses "next phase" or "end turn"; the script's person only declares (an attack's
target) and answers the page's questions. The session must show exactly the violations the
script's `expect`s name: no false one from a missed phase, none missing.

The default run takes Creature Crush (the opening the issue measured: 23 false violations
before the engine inferred phases); COMPANION_ALL_SCRIPTS=1 takes every game's opening.
The camera is the physical simulator's default kind (an overhead 1080p USB webcam at 53 cm,
30 degrees: 3D dice, card art, glossy sleeves, Bayer noise, JPEG; docs/simulator.md).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.server.video_check import check_video, expected_violations
from companion.sim.script import load_script

SCRIPTS = Path(__file__).resolve().parent.parent / "companion" / "sim" / "scripts"
CAMERA_PRESETS = ("overhead-webcam-1080p",)
ALL = bool(os.environ.get("COMPANION_ALL_SCRIPTS"))
GAMES = ("creature-crush", "trick-or-beat", "fire-emblem-cipher", "my-little-pony-ccg",
         "challengers") if ALL else ("creature-crush",)


@pytest.mark.slow
@pytest.mark.parametrize("camera", CAMERA_PRESETS)
@pytest.mark.parametrize("game", GAMES)
def test_opening_video_shows_exactly_the_named_violations(
    game: str, camera: str, tmp_path: Path
) -> None:
    path = SCRIPTS / game / "opening.yaml"
    report = check_video(path, camera, tmp_path)
    assert report.snapshots > 0 and report.frames > 0
    assert report.extra == [], f"violations nobody named: {report.extra}"
    assert report.missing == [], f"violations not shown: {report.missing}"
    assert report.final_wrong == [], f"final state: {report.final_wrong}"
    assert report.unanswered == 0  # the script's person answers every question
    status = report.status.get("en", {})
    assert status.get("turn", 0) > 1  # the game went on without a press


@pytest.mark.parametrize("game", ("creature-crush", "trick-or-beat", "fire-emblem-cipher",
                                  "my-little-pony-ccg", "challengers"))
def test_the_expected_violations_are_those_the_script_names(game: str) -> None:
    """The harness's yardstick is the script itself: every illegal step names its codes."""
    path = SCRIPTS / game / "opening.yaml"
    named = sorted({code for s in load_script(path).steps
                    for code in s.expect.get("violations", [])})
    assert sorted(set(expected_violations(path))) == named
