"""Cameras on other devices (`companion join`): their settled readings arrive here, never video.

- `GET /api/cameras`: the game, the cameras (the table's own first when it has one; joined
  ones live or not), what each reads and which halves of the mat it sees, which half no live
  camera watches, and the players' names (player 1 first) for the page.
- `POST /api/cameras/readings`: one camera's latest settled table in mat coordinates, how
  clearly it sees the mat (a grid of pixels per mm) and the corner markers its mat fit stands
  on; from another device behind the table's PIN, like every POST. The readings of all joined
  cameras are fused (`companion.vision.multicam.RemoteCameras`: the clearer view wins, views
  that disagree are left out) and the fused table goes to `CAMERA_FUSED` when the app was
  given one (a callable taking the `FusedTable`; the table's own camera loop decides how it
  joins its own eye's reading).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, current_app, jsonify

from companion.server.api import _body
from companion.snapshot import SeenCard, SeenDie, SeenToken, TableSnapshot
from companion.vision.multicam import RemoteCameras

bp = Blueprint("cameras", __name__, url_prefix="/api/cameras")

MAX_NAME = 40


def _game() -> str | None:
    session = current_app.config.get("SESSION")
    header = getattr(session, "header", None)
    game = getattr(header, "game", None) or current_app.config.get("GAME")
    return str(game) if game else None


def _hub() -> RemoteCameras:
    hub = current_app.extensions.get("companion.cameras")
    if hub is None:
        game = _game()
        if game is None:
            abort(404, description="no live game: cameras join a table that is being played")
        from companion.layouts import load_layout

        hub = RemoteCameras(game, load_layout(game), time.monotonic)
        current_app.extensions["companion.cameras"] = hub
    return hub


@bp.get("")
def cameras() -> Any:
    """The joined cameras; on a table with its own camera (`TableCameras`) that one first,
    each with what it reads and the halves it sees, and the players' names for the halves."""
    hub = _hub()
    fused = hub.fused()
    table = current_app.extensions.get("companion.table_cameras")
    session = current_app.config.get("SESSION")
    players = list(getattr(getattr(session, "header", None), "players", ()) or ())
    if table is not None:
        status = table.status()
        return jsonify(game=hub.game, cameras=status["cameras"], unwatched=status["unwatched"],
                       note=fused.note(), players=players)
    return jsonify(game=hub.game, cameras=hub.status(), unwatched=list(fused.unwatched_halves),
                   note=fused.note(), players=players)


@bp.post("/readings")
def readings() -> Any:
    body = _body()
    hub = _hub()
    name = body.get("camera")
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        abort(400, description=f"name the camera (text of 1-{MAX_NAME} characters)")
    snapshot = _snapshot(body.get("snapshot"), hub.game)
    grid = body.get("clarity")
    anchors = body.get("anchors")
    try:
        if grid is not None and not _numbers(grid):
            raise ValueError("clarity must be rows of numbers")
        if anchors is not None and not (anchors == [] or (
                _numbers(anchors) and all(len(a) == 2 for a in anchors))):
            raise ValueError("anchors must be [x_mm, y_mm] pairs")
        fused = hub.receive(name, snapshot, grid,
                            None if anchors is None else [(a[0], a[1]) for a in anchors])
    except ValueError as exc:
        abort(400, description=str(exc))
    hook = current_app.config.get("CAMERA_FUSED")
    if callable(hook):
        hook(fused)
    return jsonify(ok=True, live=list(fused.live), unwatched=list(fused.unwatched_halves),
                   unsure=len(fused.unsure), cards=len(fused.snapshot.cards),
                   dice=len(fused.snapshot.dice))


def _snapshot(data: Any, game: str) -> TableSnapshot | None:
    if data is None:
        return None  # the camera has not found the mat yet
    if not isinstance(data, Mapping):
        abort(400, description="snapshot must be a table (TableSnapshot.to_dict)")
    try:
        snapshot = TableSnapshot.from_dict(data)
    except (KeyError, TypeError, ValueError) as exc:
        abort(400, description=f"snapshot is not a table: {exc}")
    items: list[SeenCard | SeenDie | SeenToken] = [*snapshot.cards, *snapshot.dice,
                                                    *snapshot.tokens]
    for item in items:
        numbers = (item.x_mm, item.y_mm, item.confidence)
        if not all(v is None or (isinstance(v, int | float) and not isinstance(v, bool)
                                 and abs(v) < 1e6) for v in numbers):
            abort(400, description="snapshot places and confidences must be numbers")
        if not isinstance(item.zone, str):
            abort(400, description="snapshot zones must be text")
    if snapshot.game != game:
        abort(409, description=f"this table plays {game}, the camera reads {snapshot.game}")
    return snapshot


def _numbers(rows: Any) -> bool:
    """A list of lists of numbers (bools refused), the outer one not empty."""
    if not isinstance(rows, list) or not rows:
        return False
    return all(isinstance(row, list) and row and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in row) for row in rows)
