"""`companion bench slow-clients`: does the page still answer while one address starves it?

One address (the "attacker", 127.0.0.1) opens `streams` live streams it never reads and
`trickle` connections that each send one header line every `interval` seconds and never finish
their request (slowloris). Meanwhile another address (the "referee", 127.0.0.2, another loopback
address: no PIN needed) loads the page and presses a button (a GET of `/`, a POST of
`/api/action`) once a second; each answer is timed. Everything runs on loopback, in this
process, bounded in time: `--duration` seconds of probing after the load is in place.

`--server` picks the web server measured: `companion` (companion.server.httpd, what
`companion serve` runs), `werkzeug` (Werkzeug's plain threaded server) or `waitress` (when
installed; poll() instead of select(), else its defaults, `--waitress-threads` and
`--waitress-connections`).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

ATTACKER = "127.0.0.1"
REFEREE = "127.0.0.2"
TARGET_S = 1.0


@dataclass
class Probe:
    method: str
    path: str
    status: int | None  # None: no answer (timeout, reset)
    seconds: float


@dataclass
class SlowResult:
    server: str
    trickle: int
    streams: int
    probes: list[Probe] = field(default_factory=list)
    stream_status: dict[str, int] = field(default_factory=dict)
    trickle_closed: int = 0
    threads: int = 0
    setup_s: float = 0.0

    def answered(self, method: str) -> tuple[int, int]:
        """(answered within TARGET_S, asked) for one method."""
        mine = [p for p in self.probes if p.method == method]
        ok = [p for p in mine if p.status is not None and p.status < 500
              and p.seconds <= TARGET_S]
        return len(ok), len(mine)

    @property
    def worst_s(self) -> float:
        return max((p.seconds for p in self.probes), default=0.0)

    @property
    def median_ms(self) -> float:
        done = [p.seconds for p in self.probes if p.status is not None]
        return statistics.median(done) * 1000.0 if done else float("nan")

    def summary(self) -> dict[str, Any]:
        gets, posts = self.answered("GET"), self.answered("POST")
        return {"server": self.server, "trickle": self.trickle, "streams": self.streams,
                "get_ok": gets[0], "get_asked": gets[1], "post_ok": posts[0],
                "post_asked": posts[1], "median_ms": round(self.median_ms, 1),
                "worst_s": round(self.worst_s, 2), "stream_status": self.stream_status,
                "trickle_closed_by_server": self.trickle_closed, "threads": self.threads,
                "setup_s": round(self.setup_s, 1)}


def probe(port: int, method: str, path: str, timeout: float, source: str = REFEREE) -> Probe:
    """One request from `source`, timed; status None when no answer came within `timeout`."""
    body = json.dumps({"action": "next-phase"}) if method == "POST" else None
    headers = {"Content-Type": "application/json"} if body else {}
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        answer.read()
        status: int | None = answer.status
    except (OSError, http.client.HTTPException):
        status = None
    finally:
        conn.close()
    return Probe(method, path, status, time.perf_counter() - started)


class Attack:
    """The slow address: `streams` unread live streams and `trickle` never-finished requests."""

    def __init__(self, port: int, trickle: int, streams: int, interval: float,
                 sources: Sequence[str] = (ATTACKER,)) -> None:
        self.port = port
        self.sources = list(sources)
        self._next = 0
        self.interval = interval
        self.trickling: list[socket.socket] = []
        self.streaming: list[socket.socket] = []
        self.closed_by_server = 0
        self._stop = threading.Event()
        self._want_trickle = trickle
        self._want_streams = streams
        self._thread = threading.Thread(target=self._trickle, name="slow-bench-trickle",
                                        daemon=True)

    def _connect(self) -> socket.socket | None:
        source = self.sources[self._next % len(self.sources)]
        self._next += 1
        try:
            return socket.create_connection(("127.0.0.1", self.port), timeout=5,
                                            source_address=(source, 0))
        except OSError:
            return None

    def start(self) -> None:
        host = f"127.0.0.1:{self.port}".encode()
        for _ in range(self._want_streams):
            sock = self._connect()
            if sock is None:
                continue
            with contextlib.suppress(OSError):
                sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
            self.streaming.append(sock)
        for _ in range(self._want_trickle):
            sock = self._connect()
            if sock is None:
                continue
            with contextlib.suppress(OSError):
                sock.sendall(b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n")
            self.trickling.append(sock)
        self._thread.start()

    def _trickle(self) -> None:
        """One header line per connection every `interval` s, spread over the interval."""
        n = 0
        while not self._stop.is_set():
            alive = [s for s in self.trickling if s.fileno() >= 0]
            if not alive:
                self._stop.wait(self.interval)
                continue
            pause = self.interval / len(alive)
            for sock in alive:
                if self._stop.is_set():
                    return
                n += 1
                try:
                    sock.settimeout(0)
                    sock.send(f"X-Slow-{n}: {n}\r\n".encode())
                except OSError:
                    self.closed_by_server += 1
                    sock.close()
                self._stop.wait(pause)

    def stream_statuses(self) -> dict[str, int]:
        """What each stream got first: 200, 429, 503, ... or 'none' (nothing yet)."""
        counts: dict[str, int] = {}
        for sock in self.streaming:
            key = "none"
            with contextlib.suppress(OSError, ValueError, IndexError):
                sock.settimeout(0.2)
                head = sock.recv(64)
                key = head.split(b" ", 2)[1].decode() if head else "closed"
            counts[key] = counts.get(key, 0) + 1
        return counts

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)
        for sock in self.trickling + self.streaming:
            sock.close()


@contextlib.contextmanager
def running_server(kind: str, app: Any, waitress_threads: int = 16,
                   waitress_connections: int = 100) -> Iterator[int]:
    """A server of `kind` for `app` on 127.0.0.1 in a thread; yields its port."""
    stop: Callable[[], None]
    if kind == "companion":
        from companion.server.live_setup import serve_in_thread

        server, thread = serve_in_thread(app, "127.0.0.1", 0)
        port = server.server_port
        stop = server.shutdown
    elif kind == "werkzeug":
        from werkzeug.serving import WSGIRequestHandler, make_server

        class Quiet(WSGIRequestHandler):
            def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
                return

        app.config["BIND_HOST"] = "127.0.0.1"
        plain = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
        thread = threading.Thread(target=plain.serve_forever, daemon=True)
        thread.start()
        port = plain.server_port
        stop = plain.shutdown
    elif kind == "waitress":
        try:
            import waitress
        except ImportError:
            raise click.ClickException("waitress is not installed (pip install waitress)"
                                       ) from None
        app.config["BIND_HOST"] = "127.0.0.1"
        served = waitress.create_server(app, host="127.0.0.1", port=0,
                                        threads=waitress_threads,
                                        connection_limit=waitress_connections,
                                        asyncore_use_poll=True)  # select() stops at fd 1024
        thread = threading.Thread(target=served.run, daemon=True)
        thread.start()
        port = served.effective_port
        stop = served.close
    else:
        raise click.BadParameter(f"unknown server {kind!r}")
    try:
        yield port
    finally:
        stop()
        thread.join(5)


def spread(addresses: int) -> list[str]:
    """`addresses` loopback addresses for the slow clients (127.0.1.1, 127.0.1.2, ...), or
    just ATTACKER for 1."""
    if addresses <= 1:
        return [ATTACKER]
    return [f"127.0.{1 + i // 250}.{1 + i % 250}" for i in range(addresses)]


def run_slow_clients(app: Any, kind: str = "companion", trickle: int = 500, streams: int = 300,
                     duration: float = 20.0, interval: float = 5.0, timeout: float = 5.0,
                     settle: float | None = None, waitress_threads: int = 16,
                     addresses: int = 1, waitress_connections: int = 100) -> SlowResult:
    """Put the load in place (from `addresses` loopback addresses), wait `settle` s (default:
    one trickle interval plus a second), then probe from another address once a second for
    `duration` s."""
    result = SlowResult(kind, trickle, streams)
    with running_server(kind, app, waitress_threads, waitress_connections) as port:
        attack = Attack(port, trickle, streams, interval, spread(addresses))
        started = time.monotonic()
        try:
            attack.start()
            result.setup_s = time.monotonic() - started
            time.sleep(interval + 1.0 if settle is None else settle)
            end = time.monotonic() + duration
            methods = ("GET", "POST")
            i = 0
            while time.monotonic() < end:
                tick = time.monotonic()
                method = methods[i % 2]
                result.probes.append(probe(port, method, "/" if method == "GET"
                                           else "/api/action", timeout))
                i += 1
                time.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
            result.threads = threading.active_count()
            result.stream_status = attack.stream_statuses()
            result.trickle_closed = attack.closed_by_server
        finally:
            attack.stop()
    return result


def bench_app(db: Path, game: str = "trick-or-beat") -> tuple[Any, Callable[[], None]]:
    """The live app of a real game (engine referee, recording) and its closer."""
    from companion.record.store import Store
    from companion.server.app import create_app
    from companion.server.bench import _session
    from companion.server.live_setup import demo_script_path
    from companion.sim.script import load_script

    store = Store(db)
    session = _session(load_script(demo_script_path(game)), store)
    app = create_app({"DATABASE": db, "SESSION": session, "HEARTBEAT_S": 5.0})

    def close() -> None:
        session.bus.close()
        session.close()
        store.close()

    return app, close


@click.command("slow-clients")
@click.option("--server", "kinds", multiple=True, default=("companion",), show_default=True,
              type=click.Choice(["companion", "werkzeug", "waitress"]),
              help="The web server(s) to measure (repeat the option for several).")
@click.option("--trickle", type=int, default=500, show_default=True,
              help="Connections that send a header line every --interval s, never finishing.")
@click.option("--streams", type=int, default=300, show_default=True,
              help="Live streams opened from the same address and never read.")
@click.option("--duration", type=float, default=20.0, show_default=True,
              help="Seconds of probing (a GET of the page or a POST of a button each second).")
@click.option("--interval", type=float, default=5.0, show_default=True)
@click.option("--settle", type=float, default=None,
              help="Seconds between the load in place and the first probe (default: one "
                   "interval and a second).")
@click.option("--timeout", type=float, default=5.0, show_default=True,
              help="How long one probe waits for its answer.")
@click.option("--addresses", type=int, default=1, show_default=True,
              help="Spread the slow clients over this many loopback addresses (127.0.1.x): "
                   "many slow devices, each under the per-address caps.")
@click.option("--waitress-threads", type=int, default=16, show_default=True)
@click.option("--waitress-connections", type=int, default=100, show_default=True,
              help="waitress's connection_limit (its default: 100).")
@click.option("--json", "as_json", is_flag=True)
def bench_slow_clients(kinds: tuple[str, ...], trickle: int, streams: int, duration: float,
                       interval: float, settle: float | None, timeout: float, addresses: int,
                       waitress_threads: int,
                       waitress_connections: int, as_json: bool) -> None:
    """Slow clients from one address; the page and a button timed from another (target 1 s)."""
    rows = []
    for kind in kinds:
        with tempfile.TemporaryDirectory() as tmp:
            app, close = bench_app(Path(tmp) / "slow.db")
            try:
                result = run_slow_clients(app, kind, trickle, streams, duration, interval,
                                          timeout, settle, waitress_threads=waitress_threads,
                                          addresses=addresses,
                                          waitress_connections=waitress_connections)
            finally:
                close()
        row = result.summary()
        rows.append(row)
        if not as_json:
            click.echo(
                f"{kind}: {trickle} trickling + {streams} streams from "
                f"{ATTACKER if addresses <= 1 else f'{addresses} addresses'}; from "
                f"{REFEREE}: GET / {row['get_ok']}/{row['get_asked']} and POST "
                f"{row['post_ok']}/{row['post_asked']} answered within {TARGET_S:.0f} s "
                f"(median {row['median_ms']} ms, worst {row['worst_s']} s); streams got "
                f"{row['stream_status']}; trickling closed by the server: "
                f"{row['trickle_closed_by_server']}; threads {row['threads']}")
    if as_json:
        click.echo(json.dumps(rows, indent=2))
