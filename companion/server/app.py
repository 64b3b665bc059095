"""Flask app factory: `create_app(config)` wires store, session, bus and the blueprints.

Config keys (all optional except DATABASE):
- DATABASE: path of the game library (SQLite) shown on the review page,
- READ_ONLY: open DATABASE read-only (a library on read-only media: shown, never changed),
- SESSION: the `LiveSession` of the table being watched (None: review only),
- PIN: when set, every POST and every recording read from another device needs it (header
  `X-Companion-PIN`, field `pin`, or the /unlock cookie); localhost never needs it,
- BIND_HOST: the address the server listens on (Host and Origin headers are checked against
  it; default 127.0.0.1), ALLOWED_HOSTS: further host names to accept,
- HEARTBEAT_S: seconds between SSE heartbeat comments,
- CAMERA_FUSED: called with each `FusedTable` of the cameras that joined from other devices
  (`companion join`, companion/server/cameras.py); GAME: the game they read when no SESSION,
- PHONE_SOURCE / PHONE_URL: the push source a phone's frames go to, and the phone page's
  address for other devices (`companion serve --phone`, companion.server.phone),
- LAYOUT_FOR / CARD_INFO_FOR: game -> layout dict / card lookup (review page; defaults read
  the layouts and cardsets packages).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from companion.errors import CompanionError
from companion.paths import web_dir
from companion.record.store import Store, WriteFailedError


class IdConverter(BaseConverter):
    """A seq or game id in a URL: digits, below 2^62 (anything else is simply not found)."""

    regex = r"\d{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: object) -> str:
        return str(int(str(value)))


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
    app.url_map.converters["id"] = IdConverter
    session = app.config["SESSION"]
    app.extensions["companion.store"] = (
        session.store if session is not None else
        Store(app.config["DATABASE"], read_only=bool(app.config.get("READ_ONLY")))
    )

    from companion.server import (
        api,
        calibration,
        cameras,
        demo_tools,
        live,
        records,
        review,
        security,
    )
    from companion.server.streams import StreamSlots

    app.extensions["companion.streams"] = StreamSlots()

    security.install(app)
    app.register_blueprint(live.bp)
    app.register_blueprint(review.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(calibration.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(demo_tools.bp)
    app.register_blueprint(cameras.bp)
    from companion.server import phone

    app.register_blueprint(phone.bp)  # a phone's browser as the camera (serve --phone)
    from companion.hall import overlay

    app.register_blueprint(overlay.bp)
    _install_error_handlers(app)
    return app


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.method != "GET"


def _install_error_handlers(app: Flask) -> None:
    from companion.record.store import GameNotFoundError
    from companion.server.session import GameOverError

    @app.errorhandler(CompanionError)
    def user_error(exc: CompanionError) -> Any:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        german = exc.message_de or message
        message, german = _hide_library(app, message), _hide_library(app, german)
        if isinstance(exc, WriteFailedError):
            return jsonify(error=f"{message} - nothing changed; try again",
                           error_de=f"{german} - nichts geändert; bitte noch einmal",
                           recording="paused"), 503
        if isinstance(exc, GameOverError):
            return jsonify(error=message, error_de=german, game_over=True), 409
        if isinstance(exc, GameNotFoundError):
            return jsonify(error=message, error_de=german), 404
        return jsonify(error=message, error_de=german), 400

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if _wants_json():
            code = exc.code or 500
            return jsonify(error=exc.description or exc.name,
                           error_de=HTTP_ERRORS_DE.get(code, exc.description or exc.name)), code
        return exc

    @app.errorhandler(sqlite3.DatabaseError)
    def damaged_library(exc: sqlite3.DatabaseError) -> Any:
        app.logger.error("the game library cannot be read: %s", exc)
        return jsonify(error=f"the game library cannot be read ({exc}); it may be damaged",
                       error_de=f"die Spielebibliothek ist nicht lesbar ({exc}); vielleicht"
                                " beschädigt"), 503

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        app.logger.exception("unexpected error")
        # no class name on the page: people read what to do, the terminal has the details
        return jsonify(error="something went wrong inside the companion "
                             "(the terminal where it runs shows the details)",
                       error_de="im Begleiter ist etwas schiefgegangen "
                                "(das Terminal, in dem er läuft, zeigt die Einzelheiten)"), 500


def _hide_library(app: Flask, message: str) -> str:
    """`message` without the library's place on disk: the page (perhaps on another device)
    has no use for it and should not learn the user's folders; the terminal keeps it."""
    store = app.extensions.get("companion.store")
    path = getattr(store, "path", None)
    if path is None:
        return message
    file, folder = Path(path), Path(path).parent
    for shown, said in ((file.resolve(), "the game library"), (file, "the game library"),
                        (folder.resolve(), "the library's folder"),
                        (folder, "the library's folder")):
        if len(str(shown)) > 1:
            message = message.replace(str(shown), said)
    return message


# What the page says in German for HTTP errors that carry no German text of their own.
HTTP_ERRORS_DE: dict[int, str] = {
    400: "ungültige Anfrage (die Seite neu laden)",
    403: "nicht erlaubt: PIN nötig (im Terminal angezeigt)",
    404: "nicht gefunden",
    405: "so nicht möglich",
    409: "geht gerade nicht",
    413: "Anfrage zu groß",
    415: "falsches Format (JSON erwartet)",
    429: "zu viele Versuche: bitte kurz warten",
}
