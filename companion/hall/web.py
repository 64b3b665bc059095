"""The hall's pages: every table for the referees, the tournament, an overlay per table.

Read-only by design: the hall changes nothing at a table (actions need that table's own page
and PIN), so it needs no PIN itself. The page follows the hall over server-sent events, the
same bus and stream format as the live table page.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)

from companion.hall.view import HallView
from companion.server.bus import EventBus, sse_stream

bp = Blueprint("hall", __name__, url_prefix="/hall")
HALL_BUS_CAPACITY = 4096


class HallState:
    """What the hall pages read: the view, the bus it rings, the tournament, the status."""

    def __init__(self, view: HallView, tournament: Callable[[], dict[str, Any] | None],
                 status: Callable[[], dict[str, Any]]) -> None:
        self.view = view
        self.tournament = tournament
        self.status = status
        self.bus = EventBus(HALL_BUS_CAPACITY)
        view.listeners.append(self._row_changed)

    def _row_changed(self, row: dict[str, Any]) -> None:
        self.bus.publish("table", row)

    def tournament_changed(self) -> None:
        self.bus.publish("tournament", self.tournament())

    def snapshot(self) -> dict[str, Any]:
        return {"tables": self.view.snapshot(), "tournament": self.tournament(),
                "status": self.status(), "counts": self.view.counts()}


def _state() -> HallState:
    hall: HallState = current_app.extensions["companion.hall"]
    return hall


@bp.get("/")
def page() -> Any:
    return render_template("hall.html", live=False, initial=_state().snapshot())


@bp.get("/api/state")
def state() -> Any:
    return jsonify(_state().snapshot())


@bp.get("/api/table/<name>")
def table(name: str) -> Any:
    row = _state().view.table(name)
    if row is None:
        abort(404, description=f"no table {name!r} at this hall")
    return jsonify(row)


@bp.get("/api/stream")
def stream() -> Response:
    hall = _state()
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_id")
    last_id: int | None = None
    if raw:
        try:
            last_id = int(raw)
        except ValueError:
            abort(400, description=f"Last-Event-ID must be a number, not {raw!r}")
    body = sse_stream(hall.bus, last_id, hall.snapshot,
                      heartbeat_s=float(current_app.config["HEARTBEAT_S"]),
                      max_messages=request.args.get("limit", type=int))
    return Response(stream_with_context(body), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/overlay/<name>")
def overlay(name: str) -> Any:
    """The broadcast overlay of one table, fed by the hall (for a stream of the whole hall)."""
    row = _state().view.table(name)
    return render_template("overlay.html", source="hall", table=name,
                           initial=row or {"table": name})


def create_hall_app(db: Path, hall: HallState, heartbeat_s: float = 15.0) -> Flask:
    """The hall's web app: the hall pages, plus the review pages of its library (the copied
    games of every table) from the common app factory; `/` goes to the hall."""
    from companion.server.app import create_app

    app = create_app({"DATABASE": db, "SESSION": None, "HEARTBEAT_S": heartbeat_s})
    app.extensions["companion.hall"] = hall
    app.register_blueprint(bp)
    app.view_functions["live.index"] = lambda: redirect(url_for("hall.page"))
    return app
