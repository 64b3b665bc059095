"""`companion serve --phone` / `--https`: the HTTPS server beside the plain one, and what the
terminal says about it.

The table's own page stays on plain HTTP (this laptop's browser never sees a certificate
warning); the same app is served over HTTPS on a second port (`--https-port`, default the
next port) for the page that needs a secure origin: a phone's camera (/camera/phone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from companion.server.tls import Certificate, default_names, ensure_certificate, how_to_accept


@dataclass
class HttpsPlan:
    """What `--https` decided before anything was started."""

    cert: Certificate
    port: int
    phone: bool  # the pipeline's frames come from a phone (--phone)
    lan: str | None  # this machine's address on the network


def plan_https(host: str, port: int, https_port: int | None, phone: bool,
               lan: str | None) -> HttpsPlan:
    """`lan`: this machine's address on the network (commands.lan_address())."""
    from companion.server.live_setup import check_port

    chosen = https_port if https_port is not None else (port + 1 if port else 0)
    check_port(host, chosen)
    cert = ensure_certificate(default_names(lan, extra=(host,)))
    return HttpsPlan(cert, chosen, phone, lan)


def phone_url(host: str, port: int, lan: str | None) -> str:
    """The phone page's address for another device of the network."""
    if host in ("0.0.0.0", "::", ""):
        where = lan or "127.0.0.1"
    else:
        where = f"[{host}]" if ":" in host else host
    return f"https://{where}:{port}/camera/phone"


def start_https(app: Any, host: str, plan: HttpsPlan) -> Any:
    """Serve `app` over HTTPS too, and say in the terminal how a phone joins; returns the
    server (shut it down with the other)."""
    from companion.server.live_setup import serve_in_thread

    try:
        server, _thread = serve_in_thread(app, host, plan.port,
                                          ssl_context=plan.cert.ssl_context())
    except OSError as exc:
        from companion.errors import CompanionError

        raise CompanionError(f"cannot listen on {host}:{plan.port} for HTTPS: "
                             f"{exc.strerror or exc}") from None
    url = phone_url(host, server.server_port, plan.lan)
    app.config["PHONE_URL"] = url
    if plan.phone:
        click.echo(how_to_accept(url, plan.cert), nl=False)
        click.echo(_qr_text(url), nl=False)
        if app.config.get("PIN"):
            click.echo(f"  on the phone, enter the PIN {app.config['PIN']} and tap "
                       "\"Start the camera\"")
        if host in ("127.0.0.1", "localhost", "::1"):
            click.echo("  (only this laptop can open it: --host 0.0.0.0 lets the phone join)")
        click.echo("  the table waits for the phone's first frame "
                   "(the page says \"reconnecting\" until then)")
    else:
        click.echo(f"  over HTTPS (self-made certificate, SHA-256 {plan.cert.fingerprint}): "
                   f"{url.rsplit('/camera/phone', 1)[0]}/")
    return server


def _qr_text(url: str) -> str:
    """The QR code of `url` in block characters, drawn as commands.qr_text draws it (not
    imported from there: commands imports this module)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()
