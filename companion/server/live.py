"""The live table page."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, url_for

from companion.server.security import pin_required

bp = Blueprint("live", __name__)


@bp.get("/")
def index() -> Any:
    session = current_app.config["SESSION"]
    if session is None:
        return redirect(url_for("review.games"))
    return render_template(
        "live.html",
        state=session.state(),
        pin_required=pin_required(current_app),
        demo_again=current_app.config.get("DEMO_AGAIN") is not None,
    )
