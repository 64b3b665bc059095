"""The LAN PIN: on a tablet anyone on the network could press buttons, so actions need it.

The laptop's own browser (a request from the loopback address) never needs it: whoever sits
at the laptop already controls the companion.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from flask import Flask, abort, request

PIN_HEADER = "X-Companion-PIN"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def new_pin() -> str:
    """A six-digit PIN, printed in the terminal when the page is served to the LAN."""
    return f"{secrets.randbelow(1_000_000):06d}"


def needs_pin(host: str) -> bool:
    return host not in LOCAL_HOSTS


def is_local_request() -> bool:
    """The request comes from this machine (loopback), not from another device."""
    addr = (request.remote_addr or "").removeprefix("::ffff:")
    return addr in ("127.0.0.1", "::1") or addr.startswith("127.")


def pin_required(app: Flask) -> bool:
    """Whether the current request's page must ask for the PIN before an action."""
    return bool(app.config.get("PIN")) and not is_local_request()


def install(app: Flask) -> None:
    @app.before_request
    def require_pin() -> Any:
        pin = app.config.get("PIN")
        if not pin or request.method in ("GET", "HEAD", "OPTIONS") or is_local_request():
            return None
        given = request.headers.get(PIN_HEADER, "")
        if not given and request.is_json:
            body = request.get_json(silent=True)
            if isinstance(body, dict):
                given = str(body.get("pin", ""))
        if not hmac.compare_digest(given.encode(), str(pin).encode()):
            abort(403, description="PIN required: enter the PIN shown in the terminal")
        return None
