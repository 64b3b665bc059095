"""The review pages: every recorded game, and one game as a timeline to scrub through."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, current_app, render_template, request

from companion.games import GAMES
from companion.record.export import started_label
from companion.record.replay import describe
from companion.record.store import Store
from companion.server.names import Namer
from companion.server.redact import game_index, mask, public_header, visible_uids
from companion.server.session import CardInfo, table_view

bp = Blueprint("review", __name__, url_prefix="/review")


def _store() -> Store:
    return current_app.extensions["companion.store"]


def layout_for(game: str) -> dict[str, Any] | None:
    custom = current_app.config.get("LAYOUT_FOR")
    if custom is not None:
        return custom(game)
    from companion.server.gamedata import layout_dict

    try:
        return layout_dict(game)
    except (ImportError, FileNotFoundError, ValueError) as exc:
        current_app.logger.warning("no mat layout for %s: %s", game, exc)
        return None


def card_info_for(game: str, inline: list[Mapping[str, Any]]) -> CardInfo:
    custom = current_app.config.get("CARD_INFO_FOR")
    if custom is not None:
        return custom(game)
    from companion.server.gamedata import card_lookup

    try:
        return card_lookup(game, inline)
    except (ImportError, FileNotFoundError, ValueError) as exc:
        current_app.logger.warning("no cardset for %s: %s", game, exc)
        known = {str(c["id"]): c for c in inline}
        return known.get


PAGE = 500
MAX_PAGE = 2000
SILENT_KINDS = ("observation", "action")
"""Inputs the timeline shows through what they led to (the table, the moves)."""


def timeline(
    store: Store, game_id: int, layout: dict[str, Any] | None = None,
    after: int = 0, limit: int | None = None,
) -> list[dict[str, Any]]:
    """Events after seq `after` (at most `limit` shown steps) with the mat as it was then and
    the nearest keyframe. Card identities nobody had seen yet (deck order, hands) are
    masked, so a recording reveals no more than the table did."""
    header = store.game(game_id)
    index = game_index(store, game_id)
    inline = list(header.cardsets.get("inline_cards", []))
    info = card_info_for(header.game, inline)
    namer = Namer(info, header.players, layout)
    base = store.snapshot_at(game_id, after)
    table: dict[str, Any] = table_view(base, info)
    keyframes = store.keyframe_seqs(game_id)
    frame = max((k for k in keyframes if k <= after), default=None)
    seen = set(index.seen_before(store, game_id, after + 1))
    saved = set(store.snapshot_seqs(game_id))
    steps: list[dict[str, Any]] = []
    for e in store.iter_events(game_id, after):
        if limit is not None and len(steps) >= limit:
            break
        snapshot = store.snapshot_at(game_id, e.seq) if e.seq in saved else None
        seen |= visible_uids(e, snapshot)
        if snapshot is not None:
            table = table_view(snapshot, info)
        if e.seq in keyframes:
            frame = e.seq
        if e.kind in SILENT_KINDS:
            continue
        payload = mask(e.payload, index.hidden - seen)
        steps.append(
            {
                "seq": e.seq,
                "kind": e.kind,
                "source": e.source,
                "time": e.time,
                "text_en": namer.text(describe(payload, "en"), "en"),
                "text_de": namer.text(describe(payload, "de"), "de"),
                "payload": namer.payload(payload),
                "on_main_line": e.seq in index.on_line if e.kind in ("move", "phase") else None,
                "decision": index.decisions.get(e.seq) if e.kind == "violation" else None,
                "table": table,
                "keyframe": frame,
            }
        )
    return steps


@bp.get("/")
def games() -> Any:
    headers = _store().games()
    rows = [
        {
            **public_header(h.to_dict()),
            "name": GAMES[h.game].name if h.game in GAMES else h.game,
            "started_label": started_label(h.started),
            "events": _store().count_events(h.id or 0),
        }
        for h in reversed(headers)
    ]
    return render_template(
        "review_list.html", games=rows, live=current_app.config["SESSION"] is not None
    )


@bp.get("/<id:game_id>")
def game(game_id: int) -> Any:
    store = _store()
    header = store.game(game_id)
    layout = layout_for(header.game)
    shown = public_header(header.to_dict())
    page = max(0, request.args.get("page", 0, type=int) or 0)
    starts = game_index(store, game_id).page_starts
    page = min(page, max(len(starts) - 1, 0))
    if shown.get("outcome"):
        inline = list(header.cardsets.get("inline_cards", []))
        namer = Namer(card_info_for(header.game, inline), header.players, layout)
        shown["outcome"] = namer.payload(shown["outcome"])
    return render_template(
        "review_game.html",
        header=shown,
        name=GAMES[header.game].name if header.game in GAMES else header.game,
        layout=layout,
        steps=timeline(store, game_id, layout, after=starts[page] if starts else 0,
                       limit=PAGE),
        live=current_app.config["SESSION"] is not None,
        page=page,
        pages=max(len(starts), 1),
    )
