"""The review pages: the recorded games (searched and filtered), and one game as a timeline to
step through, play, link to, annotate and download as one HTML file."""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request

from companion.games import GAMES
from companion.record import library
from companion.record.export import started_label
from companion.record.redact import game_index
from companion.record.store import Store
from companion.record.timeline import game_record, inline_cards
from companion.record.timeline import timeline as record_timeline
from companion.record.wording import CardInfo, safe_card_lookup, safe_layout
from companion.server.security import pin_required

bp = Blueprint("review", __name__, url_prefix="/review")

PAGE = 500
MAX_PAGE = 2000


def _store() -> Store:
    return current_app.extensions["companion.store"]


def live_id() -> int | None:
    session = current_app.config.get("SESSION")
    return int(session.game_id) if session is not None else None


def layout_for(game: str) -> dict[str, Any] | None:
    custom = current_app.config.get("LAYOUT_FOR")
    if custom is not None:
        return custom(game)
    return safe_layout(game)


def card_info_for(game: str, inline: list[Mapping[str, Any]]) -> CardInfo:
    custom = current_app.config.get("CARD_INFO_FOR")
    if custom is not None:
        return custom(game)
    return safe_card_lookup(game, inline)


def timeline(
    store: Store, game_id: int, layout: dict[str, Any] | None = None,
    after: int = 0, limit: int | None = None,
) -> list[dict[str, Any]]:
    """Events after seq `after` (at most `limit`) with the mat as it was then and the nearest
    keyframe."""
    header = store.game(game_id)
    return record_timeline(store, game_id, layout,
                           card_info_for(header.game, inline_cards(header)), after, limit,
                           redact=True)


@bp.get("/")
def games() -> Any:
    query = library.Query.from_args(request.args)
    rows = library.rows(_store(), query, live_id())
    for row in rows:
        row["started_label"] = started_label(row["started"])
        out = row.get("outcome") or {}
        row["winner_name"] = (row["players"][0] if out.get("winner") == "p1" else
                              row["players"][1] if out.get("winner") == "p2" else None)
    total = len(_store().games())
    return render_template(
        "review_list.html", games=rows, total=total, query=query,
        game_choices=[(gid, info.name) for gid, info in GAMES.items()],
        statuses=library.STATUSES, live=current_app.config["SESSION"] is not None,
        pin_required=pin_required(current_app),
    )


def review_data(store: Store, game_id: int, static: bool = False, after: int = 0,
                limit: int | None = None) -> dict[str, Any]:
    """What the review page (and the HTML export) shows of one game; cards nobody had seen
    on the table yet, and the deck lists, never leave the server."""
    header = store.game(game_id)
    return game_record(store, game_id, layout_for(header.game),
                       card_info_for(header.game, inline_cards(header)),
                       None if static else live_id(), static, after, limit, redact=True)


@bp.get("/<id:game_id>")
def game(game_id: int) -> Any:
    """One game, `PAGE` steps a page (`?page=N`), so a long game stays a small page;
    `?step=SEQ` (without a page) opens the page holding that step (the hall's links)."""
    store = _store()
    starts = game_index(store, game_id).page_starts or [0]
    step = request.args.get("step", type=int)
    if "page" not in request.args and step is not None:
        page = max(0, bisect.bisect_left(starts, step) - 1)
    else:
        page = request.args.get("page", 0, type=int) or 0
    page = min(max(0, page), len(starts) - 1)
    data = review_data(store, game_id, after=starts[page], limit=PAGE)
    return render_template(
        "review_game.html", data=data, header=data["header"], name=data["name"],
        steps=data["steps"], live=current_app.config["SESSION"] is not None,
        pin_required=pin_required(current_app), page=page, pages=len(starts),
    )


@bp.get("/<id:game_id>/export.html")
def download(game_id: int) -> Response:
    """The game as one self-contained HTML file to send to someone."""
    from companion.record.html import export_html

    lang = "de" if request.args.get("lang") == "de" else "en"
    html = export_html(_store(), game_id, lang, data=review_data(_store(), game_id, True))
    return Response(html, mimetype="text/html", headers={
        "Content-Disposition": f'attachment; filename="game-{game_id}.html"'})
