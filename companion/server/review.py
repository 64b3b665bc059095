"""The review pages: every recorded game, and one game as a timeline to scrub through."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, current_app, render_template

from companion.games import GAMES
from companion.record.export import started_label
from companion.record.replay import describe, main_line
from companion.record.store import Store
from companion.server.names import Namer
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


def timeline(
    store: Store, game_id: int, layout: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Every event in order with the mat as it was then and the nearest keyframe."""
    header = store.game(game_id)
    events = store.events(game_id)
    snapshots = store.snapshots(game_id)
    keyframes = store.keyframe_seqs(game_id)
    inline = list(header.cardsets.get("inline_cards", []))
    info = card_info_for(header.game, inline)
    namer = Namer(info, header.players, layout)
    on_line = {entry.seq for entry in main_line(events)}
    decisions: dict[int, str] = {}
    for e in events:
        if e.kind == "decision" and "violation" in e.payload:
            decisions[int(e.payload["violation"])] = str(e.payload["decision"])
    steps: list[dict[str, Any]] = []
    table: dict[str, Any] = table_view(None, info)
    frame: int | None = None
    for e in events:
        if e.seq in snapshots:
            table = table_view(snapshots[e.seq], info)
        if e.seq in keyframes:
            frame = e.seq
        steps.append(
            {
                "seq": e.seq,
                "kind": e.kind,
                "source": e.source,
                "time": e.time,
                "text_en": namer.text(describe(e.payload, "en"), "en"),
                "text_de": namer.text(describe(e.payload, "de"), "de"),
                "payload": namer.payload(e.payload),
                "on_main_line": e.seq in on_line if e.kind in ("move", "phase") else None,
                "decision": decisions.get(e.seq) if e.kind == "violation" else None,
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
            **h.to_dict(),
            "name": GAMES[h.game].name if h.game in GAMES else h.game,
            "started_label": started_label(h.started),
            "events": len(_store().events(h.id or 0)),
        }
        for h in reversed(headers)
    ]
    return render_template(
        "review_list.html", games=rows, live=current_app.config["SESSION"] is not None
    )


@bp.get("/<int:game_id>")
def game(game_id: int) -> Any:
    store = _store()
    header = store.game(game_id)
    layout = layout_for(header.game)
    shown = header.to_dict()
    if shown.get("outcome"):
        inline = list(header.cardsets.get("inline_cards", []))
        namer = Namer(card_info_for(header.game, inline), header.players, layout)
        shown["outcome"] = namer.payload(shown["outcome"])
    return render_template(
        "review_game.html",
        header=shown,
        name=GAMES[header.game].name if header.game in GAMES else header.game,
        layout=layout,
        steps=timeline(store, game_id, layout),
        live=current_app.config["SESSION"] is not None,
    )
