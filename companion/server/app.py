"""Flask app factory: `create_app(config)` wires store, session, bus and the four blueprints.

Config keys (all optional except DATABASE):
- DATABASE: path of the game library (SQLite) shown on the review page,
- SESSION: the `LiveSession` of the table being watched (None: review only),
- PIN: when set, every POST must carry it (header `X-Companion-PIN` or field `pin`),
- HEARTBEAT_S: seconds between SSE heartbeat comments,
- LAYOUT_FOR / CARD_INFO_FOR: game -> layout dict / card lookup (review page; defaults read
  the layouts and cardsets packages).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import CompanionError
from companion.paths import web_dir
from companion.record.store import Store


def create_app(config: Mapping[str, Any]) -> Flask:
    if "DATABASE" not in config:
        raise CompanionError("the web app needs a DATABASE (path of the game library)")
    root = web_dir()
    app = Flask(
        "companion",
        template_folder=str(root / "templates"),
        static_folder=str(root / "static"),
        static_url_path="/static",
    )
    app.config.update(HEARTBEAT_S=15.0, PIN=None, SESSION=None, MAX_CONTENT_LENGTH=64 * 1024)
    app.config.update(dict(config))
    session = app.config["SESSION"]
    app.extensions["companion.store"] = (
        session.store if session is not None else Store(app.config["DATABASE"])
    )

    from companion.server import api, calibration, demo_tools, live, records, review, security

    security.install(app)
    app.register_blueprint(live.bp)
    app.register_blueprint(review.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(calibration.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(demo_tools.bp)
    from companion.hall import overlay

    app.register_blueprint(overlay.bp)
    _install_error_handlers(app)
    return app


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.method != "GET"


def _install_error_handlers(app: Flask) -> None:
    @app.errorhandler(CompanionError)
    def user_error(exc: CompanionError) -> Any:
        return jsonify(error=str(exc)), 400

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if _wants_json():
            return jsonify(error=exc.description or exc.name), exc.code or 500
        return exc

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        app.logger.exception("unexpected error")
        # no class name on the page: people read what to do, the terminal has the details
        return jsonify(error="something went wrong inside the companion "
                             "(the terminal where it runs shows the details)"), 500
