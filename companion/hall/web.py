"""The hall's pages: every table for the referees, the tournament, an overlay per table.

The hall changes nothing at a table (actions need that table's own page and PIN). Its own
library (the copied games: titles, notes, finished with a winner) is written only with the
hall's PIN from another device, exactly as a table's page (companion.server.security). The
page follows the hall over server-sent events, the same bus and stream format as the live
table page; each client address may hold a few such streams at once (429 beyond), so one
device cannot take every worker of the hall's web server.
"""

from __future__ import annotations

import time
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

from companion.hall.judges import PlayerHistory, RoundClocks, Rounds
from companion.hall.view import HallView
from companion.server.bus import EventBus, sse_stream
from companion.server.streams import StreamSlots

bp = Blueprint("hall", __name__, url_prefix="/hall")
HALL_BUS_CAPACITY = 4096
STREAMS_PER_CLIENT = 8
"""Live streams one client address may hold (a browser keeps one per open hall page)."""
MAX_STREAMS = 192
"""All live streams of the hall: below the web server's workers, so that pages, the state and
every button still get one (companion.server.httpd)."""


class HallState:
    """What the hall pages read: the view, the bus it rings, the tournament, the status; for
    the judges the players' history, the round clocks and where each game's copy is."""

    def __init__(self, view: HallView, tournament: Callable[[], dict[str, Any] | None],
                 status: Callable[[], dict[str, Any]], history: PlayerHistory | None = None,
                 clocks: RoundClocks | None = None, rounds: Rounds | None = None,
                 local_game: Callable[[str, int], int | None] | None = None) -> None:
        self.view = view
        self.tournament = tournament
        self.status = status
        self.history = history or PlayerHistory(getattr(view, "namer", None))
        heard = getattr(view, "message_listeners", None)  # a stand-in view may hear none
        if history is None and heard is not None:
            heard.append(self.history.feed)
        self.clocks = clocks or RoundClocks()
        self.rounds = rounds
        self.local_game = local_game
        self.bus = EventBus(HALL_BUS_CAPACITY)
        self.streams = StreamSlots(STREAMS_PER_CLIENT, MAX_STREAMS)
        self._last_tournament: dict[str, Any] | None = None
        self._tournament_read = False
        view.listeners.append(self._row_changed)
        view.refused_listeners.append(self._refused)

    def with_clock(self, row: dict[str, Any], tournament: dict[str, Any] | None
                   ) -> dict[str, Any]:
        return {**row, "clock": self.clocks.for_row(row, tournament)}

    def _row_changed(self, row: dict[str, Any]) -> None:
        # the tournament as last read (every message must not cost a query of the library)
        if not self._tournament_read:
            self._last_tournament, self._tournament_read = self.tournament(), True
        self.bus.publish("table", self.with_clock(row, self._last_tournament))

    def _refused(self, entry: dict[str, Any]) -> None:
        self.bus.publish("refused", entry)

    def tournament_changed(self) -> None:
        self._last_tournament, self._tournament_read = self.tournament(), True
        self.bus.publish("tournament", self._last_tournament)

    def snapshot(self) -> dict[str, Any]:
        tournament = self.tournament()
        return {"tables": [self.with_clock(r, tournament) for r in self.view.snapshot()],
                "tournament": tournament, "status": self.status(),
                "counts": self.view.counts(), "refused": self.view.refusals(),
                "now": time.time(), "round_minutes": self.clocks.length / 60.0}

    def judges(self) -> dict[str, Any]:
        """The judges' phone view: every table (open violations and questions first) with
        its clock, every player's history, the round's state."""
        data = self.snapshot()
        data["players"] = self.history.players(self.rounds)
        data.pop("refused", None)
        return data


def _state() -> HallState:
    hall: HallState = current_app.extensions["companion.hall"]
    return hall


@bp.get("/")
def page() -> Any:
    return render_template("hall.html", live=False, initial=_state().snapshot())


@bp.get("/api/state")
def state() -> Any:
    return jsonify(_state().snapshot())


@bp.get("/judge")
def judge_page() -> Any:
    """The floor judges' phone view."""
    return render_template("hall_judge.html", live=False, initial=_state().judges())


@bp.get("/api/judge")
def judge_state() -> Any:
    return jsonify(_state().judges())


@bp.get("/moment/<table>/<db>/<int:game>/<int:seq>")
def moment(table: str, db: str, game: int, seq: int) -> Any:
    """A recorded moment of a table's game in the hall's own copy: its review page at the
    step (the recordings need the hall's PIN from other devices, as every review page)."""
    hall = _state()
    local = hall.local_game(db, game) if hall.local_game is not None else None
    if local is None:
        abort(404, description=f"the hall has no copy of game {game} of table {table!r} "
                               "(yet): open it on the table's own page")
    return redirect(url_for("review.game", game_id=local, step=seq) + f"#step={seq}")


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
    client = request.remote_addr or "?"
    release = hall.streams.take(client)
    if isinstance(release, str):
        most = hall.streams.per_client
        response = jsonify(
            error=f"too many live hall pages from this device ({most} at most): close some "
                  "tabs", error_de=f"zu viele offene Hallenseiten auf diesem Gerät (höchstens "
                                   f"{most}): Tabs schließen"
        ) if release == "client" else jsonify(
            error="the hall serves as many live pages as it can: try again shortly",
            error_de="die Halle bedient schon so viele Live-Seiten wie sie kann: gleich noch "
                     "einmal versuchen")
        response.status_code = 429
        response.headers["Retry-After"] = "5"
        return response
    try:
        body = sse_stream(hall.bus, last_id, hall.snapshot,
                          heartbeat_s=float(current_app.config["HEARTBEAT_S"]),
                          max_messages=request.args.get("limit", type=int))
        response = Response(stream_with_context(body), mimetype="text/event-stream",
                            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    except BaseException:
        release()
        raise
    response.call_on_close(release)  # the server closes every response, streamed or not
    return response


@bp.get("/overlay/<name>")
def overlay(name: str) -> Any:
    """The broadcast overlay of one table, fed by the hall (for a stream of the whole hall)."""
    row = _state().view.table(name)
    return render_template("overlay.html", source="hall", table=name,
                           initial=row or {"table": name})


def create_hall_app(db: Path, hall: HallState, heartbeat_s: float = 15.0,
                    pin: str | None = None) -> Flask:
    """The hall's web app: the hall pages, plus the review pages of its library (the copied
    games of every table) from the common app factory; `/` goes to the hall. With `pin`,
    every write and every recording from another device needs it (as at a table)."""
    from companion.server.app import create_app

    app = create_app({"DATABASE": db, "SESSION": None, "HEARTBEAT_S": heartbeat_s,
                      "PIN": pin})
    app.extensions["companion.hall"] = hall
    app.register_blueprint(bp)
    app.view_functions["live.index"] = lambda: redirect(url_for("hall.page"))
    return app
