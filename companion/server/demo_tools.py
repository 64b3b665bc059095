"""The demo's extras: any bundled table script by name, and "play again" from the page.

Kept apart from `live_setup` (whose director plays a script's person-side steps) so that
both can change on their own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, jsonify

from companion.errors import CompanionError

bp = Blueprint("demo", __name__, url_prefix="/api/demo")


class ScriptNotFoundError(CompanionError):
    """A `--script` that names no bundled script and no file."""


def bundled_scripts() -> list[str]:
    """Every bundled table script as "<game>/<name>", sorted."""
    from companion.sim.script import bundled_scripts_dir as scripts_dir

    root = scripts_dir()
    return sorted(f"{p.parent.name}/{p.stem}" for p in root.glob("*/*.yaml"))


def find_script(name: str) -> Path:
    """A bundled script by "<game>/<name>" (or a unique "<name>"), or a YAML file's path."""
    from companion.sim.script import bundled_scripts_dir as scripts_dir

    given = Path(name)
    if given.suffix in (".yaml", ".yml") and given.is_file():
        return given
    key = name.removesuffix(".yaml")
    known = bundled_scripts()
    if key in known:
        return scripts_dir() / f"{key}.yaml"
    matches = [k for k in known if k.split("/", 1)[1] == key]
    if len(matches) == 1:
        return scripts_dir() / f"{matches[0]}.yaml"
    if len(matches) > 1:
        raise ScriptNotFoundError(
            f"script {name!r} exists for several games: {', '.join(matches)}; name one")
    raise ScriptNotFoundError(
        f"no bundled script {name!r} and no such file; `companion demo --list-scripts` "
        "shows all of them")


def script_game(path: Path) -> str:
    from companion.sim.script import load_script

    return str(load_script(path).game)


def play_again(live: Any, rebuild: Callable[[], Any]) -> None:
    """Replace the finished demo by a new game of the same script, on the same page: the old
    feed stops, its game stays recorded, the page follows the new session (its stream
    reconnects by itself)."""
    lock: threading.Lock = live.extra.setdefault("again_lock", threading.Lock())
    with lock:
        fresh = rebuild()
        old_session, old_runner, old_store = live.session, live.runner, live.store
        old_runner.stop()
        old_session.close()
        fresh.session.bus.continue_after(old_session.bus.last_id)
        live.app.config["SESSION"] = fresh.session
        live.app.extensions["companion.store"] = fresh.store
        live.session, live.runner, live.store = fresh.session, fresh.runner, fresh.store
        live.extra.update({k: v for k, v in fresh.extra.items() if k != "again_lock"})
        old_session.bus.close()
        old_store.close()
        fresh.runner.start()


@bp.post("/again")
def again() -> Any:
    """Start the demo's script again (only in `companion demo`)."""
    restart = current_app.config.get("DEMO_AGAIN")
    if restart is None:
        abort(404, description="only the demo can be played again")
    restart()
    return jsonify(ok=True, record_id=current_app.config["SESSION"].game_id)
