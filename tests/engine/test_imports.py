"""The rules core stays free of Flask and OpenCV (DESIGN.md)."""

from __future__ import annotations

import subprocess
import sys

ENGINE_MODULES = [
    "companion.engine.api",
    "companion.engine.cards",
    "companion.engine.state",
    "companion.engine.flow",
    "companion.engine.ruleset",
    "companion.engine.game",
    "companion.engine.interpreter",
    "companion.referee.script",
    "companion.benchmarks.engine",
    "companion.referee.commands",
    "companion.games",
    "companion.games.trick_or_beat.rules",
]


def test_engine_imports_neither_flask_nor_opencv() -> None:
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in ENGINE_MODULES)
        + "from companion.engine.game import Game\n"
        + "Game.new('trick-or-beat', seed=1)\n"
        + "bad = [m for m in ('flask', 'cv2', 'werkzeug') if m in sys.modules]\n"
        + "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
