"""JSON and SSE endpoints: the live state, the stream, referee actions, recorded games.

Every POST is validated before anything changes; bad input is a 4xx JSON `{"error": ...}`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, stream_with_context

from companion.record.redact import game_index, public_header
from companion.record.store import Store
from companion.server.body import json_object
from companion.server.bus import sse_stream
from companion.server.session import LiveSession
from companion.server.streams import StreamSlots

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_TEXT = 200
CLIENT_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def _session() -> LiveSession:
    session = current_app.config["SESSION"]
    if session is None:
        abort(404, description="no live game: this server only shows recorded games")
    return session


def _store() -> Store:
    return current_app.extensions["companion.store"]


def _body() -> Mapping[str, Any]:
    """The JSON object of a POST, within limits (nesting, numbers, text)."""
    return json_object()


def _client_id(body: Mapping[str, Any]) -> str | None:
    """The client's own id for this request: a repeated request is answered, not applied."""
    value = body.get("id")
    if value is None:
        return None
    if not isinstance(value, str) or not CLIENT_ID.fullmatch(value):
        abort(400, description="'id' must be 1-64 letters, digits or _.:- (a request id)")
    return value


def _int(body: Mapping[str, Any], key: str, low: int = 0, high: int = 2**31) -> int:
    value = body.get(key)
    if isinstance(value, bool) or value is None:
        abort(400, description=f"{key!r} is required and must be a whole number")
    if isinstance(value, float):
        abort(400, description=f"{key!r} must be a whole number, not {value!r}")
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,10}", value.strip()):
        value = int(value)
    if not isinstance(value, int):
        abort(400, description=f"{key!r} must be a whole number, not {value!r}")
    if not low <= value <= high:
        abort(400, description=f"{key!r} must be {low}..{high}, not {value}")
    return value


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


def _ok(result: Mapping[str, Any] | None = None, **extra: Any) -> Any:
    return jsonify(ok=True, **{k: v for k, v in (result or {}).items()}, **extra)


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
    slots: StreamSlots = current_app.extensions["companion.streams"]
    release = slots.take(request.remote_addr or "?")
    if isinstance(release, str):
        return _streams_refused(slots, release)
    try:
        body = sse_stream(
            session.bus,
            last_id,
            session.state,
            heartbeat_s=float(current_app.config["HEARTBEAT_S"]),
            max_messages=limit,
        )
        response = Response(
            stream_with_context(body),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
    except BaseException:
        release()
        raise
    response.call_on_close(release)  # the server closes every response it sent
    return response


def _streams_refused(slots: StreamSlots, why: str) -> Response:
    """429 when this device holds all the live pages it may, 503 when the server does."""
    if why == "client":
        most = slots.per_client
        response = jsonify(
            error=f"too many live pages from this device ({most} at most): close some tabs "
                  "and reload",
            error_de=f"zu viele offene Live-Seiten auf diesem Gerät (höchstens {most}): Tabs "
                     "schließen und neu laden")
        response.status_code = 429
    else:
        response = jsonify(
            error="too many live pages open at once: close one and reload",
            error_de="zu viele offene Live-Seiten: eine schließen und neu laden")
        response.status_code = 503
    response.headers["Retry-After"] = "5"
    return response


@bp.post("/violations/<id:seq>/decision")
def decide(seq: int) -> Any:
    body = _body()
    decision = _text(body, "decision", required=True)
    return _ok(_session().decide(seq, str(decision), _client_id(body)))


@bp.post("/questions/<id:seq>/answer")
def answer(seq: int) -> Any:
    body = _body()
    choice = _int(body, "choice", 0, 1000)
    return _ok(_session().answer(seq, choice, _client_id(body)))


@bp.post("/undo")
def undo() -> Any:
    body = _body()
    return _ok(_session().undo(_client_id(body)))


@bp.post("/redo")
def redo() -> Any:
    body = _body()
    return _ok(_session().redo(_client_id(body)))


@bp.post("/action")
def action() -> Any:
    body = _body()
    name = _text(body, "action", required=True)
    result = _session().act(str(name), _text(body, "value"), _text(body, "target"),
                            _client_id(body))
    return _ok(result)


@bp.post("/moves")
def enter_move() -> Any:
    """A referee enters one of the offered legal moves: body {"move": {...}} as offered."""
    body = _body()
    move = body.get("move")
    if not isinstance(move, dict):
        abort(400, description="'move' must be an object, one of state.moves as offered")
    entered = _session().enter(move, _client_id(body))
    return _ok(move=entered.to_dict(), seq=_session().state()["seq"])


@bp.post("/note")
def note() -> Any:
    body = _body()
    return _ok(_session().note(str(_text(body, "text", required=True)), _client_id(body)))


@bp.get("/games")
def games() -> Any:
    return jsonify(games=[public_header(h.to_dict()) for h in _store().games()])


@bp.get("/games/<id:game_id>")
def game(game_id: int) -> Any:
    """One recorded game, a page at a time: `after` (a seq, from `page.next_after`) and
    `limit` (steps, at most 2,000). Cards nobody had seen yet are masked."""
    from companion.server.review import MAX_PAGE, PAGE, layout_for, timeline

    store = _store()
    header = store.game(game_id)
    after = request.args.get("after", 0, type=int) or 0
    limit = request.args.get("limit", PAGE, type=int) or PAGE
    if not 0 <= after < 2**62 or not 1 <= limit <= MAX_PAGE:
        abort(400, description=f"'after' must be a seq >= 0 and 'limit' 1..{MAX_PAGE}")
    index = game_index(store, game_id)
    steps = timeline(store, game_id, layout_for(header.game), after=after, limit=limit)
    last_seq, count = store.log_stamp(game_id)
    more = bool(steps) and steps[-1]["seq"] < last_seq
    return jsonify(
        header=public_header(header.to_dict()),
        timeline=steps,
        main_line=sorted(s for s in index.on_line if steps and
                         steps[0]["seq"] <= s <= steps[-1]["seq"]),
        decisions={str(k): v for k, v in index.decisions.items() if v is not None},
        page={"after": after, "limit": limit, "events": count,
              "next_after": steps[-1]["seq"] if more else None},
    )


@bp.get("/games/<id:game_id>/keyframes/<id:seq>.jpg")
def keyframe(game_id: int, seq: int) -> Response:
    jpeg = _store().keyframe(game_id, seq)
    if jpeg is None:
        abort(404, description=f"no keyframe #{seq} in game {game_id}")
    return Response(jpeg, mimetype="image/jpeg")
