"""`/overlay` on a table's own page server: names, scores, phase, the last move and a
violation banner on a transparent background, for an OBS browser source."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template

bp = Blueprint("overlay", __name__)


@bp.get("/overlay")
def overlay() -> Any:
    session = current_app.config.get("SESSION")
    initial = session.state() if session is not None else {}
    return render_template("overlay.html", source="table", table="", initial=initial)
