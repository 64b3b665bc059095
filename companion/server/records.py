"""JSON endpoints for the records and the cards: name a game, finish or abandon it, note
things on it, and read a card's full data for the card panel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, current_app, jsonify

from companion.record import library
from companion.record.store import Store
from companion.record.wording import card_detail
from companion.server.body import json_object

bp = Blueprint("records", __name__, url_prefix="/api")


def _store() -> Store:
    return current_app.extensions["companion.store"]


def _body() -> Mapping[str, Any]:
    return json_object()


def _live_id() -> int | None:
    session = current_app.config.get("SESSION")
    return int(session.game_id) if session is not None else None


@bp.post("/games/<id:game_id>/title")
def rename(game_id: int) -> Any:
    title = _body().get("title", "")
    if not isinstance(title, str):
        abort(400, description="'title' must be text")
    library.rename(_store(), game_id, title)
    return jsonify(ok=True, title=_store().game(game_id).title)


@bp.post("/games/<id:game_id>/status")
def set_status(game_id: int) -> Any:
    body = _body()
    status = body.get("status")
    winner = body.get("winner") or None
    if not isinstance(status, str):
        abort(400, description="'status' must be finished or abandoned")
    outcome = library.set_status(_store(), game_id, status, winner, live_id=_live_id())
    return jsonify(ok=True, outcome=outcome)


@bp.post("/games/<id:game_id>/notes")
def add_note(game_id: int) -> Any:
    text = _body().get("text", "")
    if not isinstance(text, str) or not text.strip():
        abort(400, description="a note needs some text")
    session = current_app.config.get("SESSION")
    if session is not None and game_id == session.game_id:
        session.note(text.strip()[: library.MAX_NOTE])  # the live log and page follow
    else:
        library.add_note(_store(), game_id, text)
    return jsonify(ok=True)


@bp.get("/cards/<card_id>")
def card(card_id: str) -> Any:
    """Everything the live game's cardset knows about one card (name, title, type, colours,
    all fields). Only cards the table has shown face up are answered."""
    session = current_app.config.get("SESSION")
    if session is None:
        abort(404, description="no live game")
    shown = {c.get("id") for c in session.state()["table"]["cards"] if c.get("face_up")}
    if card_id not in shown:
        abort(404, description=f"no card {card_id!r} face up on the table")
    detail = card_detail(card_id, session.card_info)
    if detail is None:
        abort(404, description=f"no card {card_id!r} in this game's cardset")
    return jsonify(detail)
