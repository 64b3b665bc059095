"""Who may drive the table and read the recordings.

- Localhost never needs the PIN; from another device every action (POST) and every recording
  (review pages, /api/games) needs the six-digit PIN printed in the terminal, given as header
  `X-Companion-PIN`, JSON field `pin`, or once on /unlock (a cookie then stands for it).
- Wrong PINs are limited per client: three free tries, then a growing wait (2 s, 4 s, ... up to
  5 minutes) during which that client's guesses are refused unchecked; each failure is logged.
- The Host header must name the address the server listens on (or, on 0.0.0.0, any address of
  the machine): a web site that rebinds its own DNS name to 127.0.0.1 gets nothing. A POST
  from a browser must come from such an origin too.
- No page may be framed (clickjacking); responses say so.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import secrets
import socket
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from html import escape
from typing import Any
from urllib.parse import quote, urlsplit

from flask import Flask, Response, abort, jsonify, redirect, request

from companion.server.body import json_object_or_none

log = logging.getLogger("companion.security")

PIN_HEADER = "X-Companion-PIN"
UNLOCK_COOKIE = "companion_unlock"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
FREE_TRIES = 3
MAX_DELAY_S = 300.0
MAX_CLIENTS = 10_000
MAX_TOKENS = 1_000
PROTECTED_READS = ("/review", "/api/games")


def new_pin() -> str:
    """A six-digit PIN, printed in the terminal when the page is served to the LAN."""
    return f"{secrets.randbelow(1_000_000):06d}"


def needs_pin(host: str) -> bool:
    return host not in LOCAL_HOSTS


class PinGuard:
    """Wrong-PIN bookkeeping per client address, with a growing wait after `FREE_TRIES`."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, tuple[int, float]] = OrderedDict()

    def wait_s(self, client: str) -> float:
        """Seconds before `client` may try again (0: now)."""
        with self._lock:
            _fails, until = self._clients.get(client, (0, 0.0))
            return max(0.0, until - self._clock())

    def failed(self, client: str) -> float:
        with self._lock:
            fails, _until = self._clients.pop(client, (0, 0.0))
            fails += 1
            delay = 0.0 if fails < FREE_TRIES else min(2.0 ** (fails - FREE_TRIES + 1),
                                                       MAX_DELAY_S)
            self._clients[client] = (fails, self._clock() + delay)
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
        log.warning("wrong PIN from %s (%d in a row; next try in %.0f s)", client, fails, delay)
        return delay

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)


def is_loopback(address: str | None) -> bool:
    """A loopback address (127.x, ::1, or 127.x mapped into IPv6)."""
    try:
        ip = ipaddress.ip_address((address or "").split("%")[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool(ip.is_loopback or (mapped is not None and mapped.is_loopback))


def is_local_request() -> bool:
    """The request comes from this machine (loopback), not from another device."""
    return is_loopback(request.remote_addr)


def pin_required(app: Flask) -> bool:
    """Whether the current request's page must ask for the PIN before an action."""
    return bool(app.config.get("PIN")) and not is_local_request()


def _split_host(value: str) -> str:
    """The host part of a Host header or URL netloc, without port and brackets, lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def _ip(value: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(value.split("%")[0])
    except ValueError:
        return None


def host_allowed(host: str, bind: str, extra: tuple[str, ...] = ()) -> bool:
    """May a request name `host` (from its Host or Origin header) on a server bound to
    `bind`? IP literals cannot be rebound by a foreign DNS name; names must be ours."""
    name = _split_host(host)
    if not name:
        return False
    if name in (e.lower() for e in extra):
        return True
    bind = _split_host(bind)
    bind_ip = _ip(bind) if bind not in WILDCARD_HOSTS else None
    wildcard = bind in WILDCARD_HOSTS
    local_bind = bind == "localhost" or (bind_ip is not None and bind_ip.is_loopback)
    address = _ip(name)
    if address is not None:
        if wildcard:
            return True
        if local_bind:
            return address.is_loopback
        return address == bind_ip
    if name == "localhost":
        return wildcard or local_bind
    if wildcard or not local_bind:
        own = socket.gethostname().lower()
        return name in (own, f"{own}.local", bind)
    return False


def install(app: Flask) -> None:
    guard = PinGuard()
    tokens: OrderedDict[str, float] = OrderedDict()
    tokens_lock = threading.Lock()
    app.extensions["companion.pin_guard"] = guard

    def bind() -> str:
        return str(app.config.get("BIND_HOST") or "127.0.0.1")

    def extra_hosts() -> tuple[str, ...]:
        return tuple(app.config.get("ALLOWED_HOSTS") or ())

    def client() -> str:
        return request.remote_addr or "?"

    def unlocked_by_cookie() -> bool:
        token = request.cookies.get(UNLOCK_COOKIE, "")
        with tokens_lock:
            return bool(token) and any(hmac.compare_digest(token, t) for t in tokens)

    def given_pin() -> str:
        given = request.headers.get(PIN_HEADER, "")
        if not given:
            body = json_object_or_none()  # a 30k-deep or broken body simply carries no PIN
            if body is not None and isinstance(body.get("pin"), str | int):
                given = str(body["pin"])
        return given

    def check_pin(given: str) -> None:
        """Refuses (403/429) unless `given` is the PIN; counts and logs wrong guesses."""
        pin = str(app.config.get("PIN") or "")
        wait = guard.wait_s(client())
        if wait > 0:
            response = jsonify(error=f"too many wrong PINs from this device: try again in"
                                     f" {wait:.0f} s",
                               error_de=f"zu viele falsche PINs von diesem Gerät: in {wait:.0f} s"
                                        " noch einmal versuchen")
            response.status_code = 429
            response.headers["Retry-After"] = str(int(wait) + 1)
            abort(response)
        if not given:
            abort(403, description="PIN required: enter the PIN shown in the terminal")
        if not hmac.compare_digest(given.encode("utf-8", "surrogatepass"), pin.encode()):
            delay = guard.failed(client())
            more = f" (wait {delay:.0f} s before the next try)" if delay else ""
            abort(403, description=f"wrong PIN: enter the PIN shown in the terminal{more}")
        guard.succeeded(client())

    @app.before_request
    def check_host_and_origin() -> Any:
        host = request.host or ""
        if not host_allowed(host, bind(), extra_hosts()):
            log.warning("refused request for host %r from %s", host, client())
            abort(403, description=f"unexpected host {host!r}: open the page by the address"
                                   " the companion printed")
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            origin = request.headers.get("Origin")
            if origin is not None:
                parts = urlsplit(origin)
                if parts.scheme not in ("http", "https") or not host_allowed(
                        parts.netloc, bind(), extra_hosts()) or _netloc(
                        parts.netloc, parts.scheme) != _netloc(host, request.scheme):
                    log.warning("refused %s from origin %r (%s)", request.path, origin, client())
                    abort(403, description=f"requests from {origin!r} are not accepted")
            if request.headers.get("Sec-Fetch-Site") == "cross-site":
                abort(403, description="cross-site requests are not accepted")
        return None

    @app.before_request
    def require_pin() -> Any:
        if not app.config.get("PIN") or is_loopback(request.remote_addr):
            return None
        if request.path == "/unlock":
            return None
        reading = request.method in ("GET", "HEAD", "OPTIONS")
        if reading and not request.path.startswith(PROTECTED_READS):
            return None
        if unlocked_by_cookie():
            return None
        if reading and request.headers.get(PIN_HEADER) is None and \
                not request.path.startswith("/api/"):
            return redirect("/unlock?next=" + quote(request.path, safe="/"))
        check_pin(given_pin())
        return None

    @app.get("/unlock")
    def unlock_form() -> Any:
        target = _safe_next(request.args.get("next", "/"))
        return Response(_UNLOCK_PAGE.format(next=escape(target), error=""),
                        mimetype="text/html")

    @app.post("/unlock")
    def unlock() -> Any:
        target = _safe_next(request.form.get("next") or request.args.get("next") or "/")
        if not app.config.get("PIN") or is_loopback(request.remote_addr):
            return redirect(target)
        given = (request.form.get("pin") or given_pin()).strip()
        check_pin(given)
        token = secrets.token_urlsafe(24)
        with tokens_lock:
            tokens[token] = time.time()
            while len(tokens) > MAX_TOKENS:
                tokens.popitem(last=False)
        response = redirect(target) if request.form else jsonify(ok=True)
        response.set_cookie(UNLOCK_COOKIE, token, httponly=True, samesite="Strict")
        return response

    @app.after_request
    def protect(response: Response) -> Response:
        response.headers["X-Frame-Options"] = "DENY"
        response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        return response


def _netloc(value: str, scheme: str) -> str:
    """host:port in lower case, the scheme's default port written out."""
    value = value.strip().lower()
    host_part = value.rsplit("]", 1)[-1] if value.startswith("[") else value
    if ":" not in host_part:
        value += ":443" if scheme == "https" else ":80"
    return value


def _safe_next(target: str) -> str:
    """Only a path on this server, else "/". A browser drops tabs and newlines inside a URL
    and reads a backslash as a slash, so "/<tab>/evil.example" would be "//evil.example" (another
    site): any control character, space or backslash refuses the target outright, and so does
    anything with a scheme or a host."""
    if any(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in target):
        return "/"
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


_UNLOCK_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PIN · Table companion</title>
<body style="font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem">
<h1>Enter the PIN</h1>
<p>Recordings are only shown on this device with the PIN printed in the companion's terminal.
<br><i>Aufzeichnungen gibt es auf diesem Gerät nur mit der PIN aus dem Terminal.</i></p>
<form method="post" action="/unlock">{error}
<input type="hidden" name="next" value="{next}">
<input name="pin" inputmode="numeric" autocomplete="off" maxlength="12" autofocus
 aria-label="PIN" style="font-size:1.5rem;width:8em">
<button type="submit" style="font-size:1.2rem">Unlock</button>
</form></body></html>
"""
