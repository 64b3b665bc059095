"""JSON and SSE endpoints: the live state, the stream, referee actions, recorded games.

Every POST is validated before anything changes; bad input is a 4xx JSON `{"error": ...}`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, stream_with_context

from companion.record.export import export_dict
from companion.record.store import Store
from companion.server.bus import sse_stream
from companion.server.session import LiveSession

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_TEXT = 200


def _session() -> LiveSession:
    session = current_app.config["SESSION"]
    if session is None:
        abort(404, description="no live game: this server only shows recorded games")
    return session


def _store() -> Store:
    return current_app.extensions["companion.store"]


def _body() -> Mapping[str, Any]:
    """The JSON object of a POST. JSON only: a form post from another web site (which a
    browser sends without asking) must not be able to press the referee's buttons."""
    if not request.is_json:
        abort(415, description="send a JSON object (Content-Type: application/json)")
    body = request.get_json(silent=True)
    if body is None:
        abort(400, description="the request body is not valid JSON")
    if not isinstance(body, dict):
        abort(400, description="the request body must be a JSON object")
    return body


def _int(body: Mapping[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or value is None:
        abort(400, description=f"{key!r} is required and must be a whole number")
    try:
        return int(value)
    except (TypeError, ValueError):
        abort(400, description=f"{key!r} must be a whole number, not {value!r}")


def _text(body: Mapping[str, Any], key: str, required: bool = False) -> str | None:
    value = body.get(key)
    if value is None or value == "":
        if required:
            abort(400, description=f"{key!r} is required")
        return None
    if not isinstance(value, str | int) or isinstance(value, bool):
        abort(400, description=f"{key!r} must be text")
    text = str(value).strip()
    if len(text) > MAX_TEXT:
        abort(400, description=f"{key!r} is longer than {MAX_TEXT} characters")
    return text


@bp.get("/state")
def state() -> Any:
    return jsonify(_session().state())


@bp.get("/stream")
def stream() -> Response:
    session = _session()
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_id")
    last_id: int | None = None
    if raw:
        try:
            last_id = int(raw)
        except ValueError:
            abort(400, description=f"Last-Event-ID must be a number, not {raw!r}")
    limit = request.args.get("limit", type=int)
    body = sse_stream(
        session.bus,
        last_id,
        session.state,
        heartbeat_s=float(current_app.config["HEARTBEAT_S"]),
        max_messages=limit,
    )
    return Response(
        stream_with_context(body),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@bp.post("/violations/<int:seq>/decision")
def decide(seq: int) -> Any:
    body = _body()
    decision = _text(body, "decision", required=True)
    _session().decide(seq, str(decision))
    return jsonify(ok=True, seq=_session().state()["seq"])


@bp.post("/questions/<int:seq>/answer")
def answer(seq: int) -> Any:
    choice = _int(_body(), "choice")
    _session().answer(seq, choice)
    return jsonify(ok=True)


@bp.post("/undo")
def undo() -> Any:
    _body()
    _session().undo()
    return jsonify(ok=True)


@bp.post("/action")
def action() -> Any:
    body = _body()
    name = _text(body, "action", required=True)
    _session().act(str(name), _text(body, "value"), _text(body, "target"))
    return jsonify(ok=True)


@bp.post("/moves")
def enter_move() -> Any:
    """A referee enters one of the offered legal moves: body {"move": {...}} as offered."""
    body = _body()
    move = body.get("move")
    if not isinstance(move, dict):
        abort(400, description="'move' must be an object, one of state.moves as offered")
    entered = _session().enter(move)
    return jsonify(ok=True, move=entered.to_dict(), seq=_session().state()["seq"])


@bp.post("/note")
def note() -> Any:
    _session().note(str(_text(_body(), "text", required=True)))
    return jsonify(ok=True)


@bp.get("/games")
def games() -> Any:
    return jsonify(games=[h.to_dict() for h in _store().games()])


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> Any:
    from companion.server.review import layout_for, timeline

    store = _store()
    data = export_dict(store, game_id)
    data["timeline"] = timeline(store, game_id, layout_for(data["header"]["game"]))
    return jsonify(data)


@bp.get("/games/<int:game_id>/keyframes/<int:seq>.jpg")
def keyframe(game_id: int, seq: int) -> Response:
    jpeg = _store().keyframe(game_id, seq)
    if jpeg is None:
        abort(404, description=f"no keyframe #{seq} in game {game_id}")
    return Response(jpeg, mimetype="image/jpeg")
