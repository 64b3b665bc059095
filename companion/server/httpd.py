"""The web server: slow clients cost a buffer, never a thread; every client address is capped.

Werkzeug's threaded server starts a thread per connection and keeps it while the request
trickles in, so a few hundred slow clients (slowloris: a header line every few seconds) hold
every thread and the page stops answering. Here an accepted connection waits in a "waiting
room" (one selector thread, no worker) until its whole request has arrived: the head within
`HEADER_TIMEOUT_S` of the connection (408 otherwise, or a silent close when nothing came at
all within `IDLE_TIMEOUT_S`), the body within `BODY_TIMEOUT_S` after the head. Only a complete
request goes to a worker of a fixed pool, which reads it from memory; every write of the
answer gives up after `IO_TIMEOUT_S` (in total, not per packet). Each response closes its
connection (HTTP/1.0).

HTTPS (`ssl_context`, a phone's camera page): the TLS handshake happens in the waiting room
too, without blocking, within the same deadlines; plain HTTP on that port gets a plain answer
saying to use https://.

Caps, each refused at once from the waiting room with a short JSON answer (no worker):
- `CONNECTIONS_PER_CLIENT` open connections per client address (429 beyond; a browser opens
  at most 6 per server), so one address cannot fill the waiting room (`MAX_WAITING`, or half
  the process's file limit; when it is full anyway the oldest connection of the address
  holding the most makes room);
- a head over `MAX_HEAD_BYTES` (431), a body over `MAX_BODY_BYTES` (413; the app itself
  refuses more than 64 KB except for a phone's camera frames), a chunked body (411: send a
  Content-Length), and bodies over 64 KB beyond `MAX_LARGE_BYTES` being received at once (503).
Live streams (SSE) hold a worker each: the API caps them per client address
(`STREAMS_PER_CLIENT`, 429) and in all (`MAX_STREAMS`, below the pool size), so the
referee's buttons always find a free worker. Measured: docs/benchmarks.md, "Slow clients".
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import resource
import selectors
import socket
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler

log = logging.getLogger(__name__)

MAX_STREAMS = 256
"""Live streams of the whole server (below WORKERS: pages and buttons always find a worker)."""
STREAMS_PER_CLIENT = 8
"""Live streams one client address may hold (a browser keeps one per open page)."""
WORKERS = MAX_STREAMS + 32
CONNECTIONS_PER_CLIENT = 32
"""Open connections one client address may hold, streams included."""
IDLE_TIMEOUT_S = 10.0
"""A connection that sends nothing is closed (silently) after this long."""
HEADER_TIMEOUT_S = 10.0
"""The whole request head must arrive within this long of the connection (else 408)."""
BODY_TIMEOUT_S = 10.0
"""The whole body must arrive within this long after the head (else 408)."""
IO_TIMEOUT_S = 10.0
"""Each write of an answer (sendall) gives up after this long in total."""
MAX_HEAD_BYTES = 32 * 1024
MAX_BODY_BYTES = 4 * 1024 * 1024
"""The largest body the waiting room receives: a phone's camera frame (companion.server.phone);
the app refuses more than 64 KB on every other route."""
SMALL_BODY_BYTES = 64 * 1024
MAX_LARGE_BYTES = 32 * 1024 * 1024
"""Bodies over SMALL_BODY_BYTES being received at once, in all (503 beyond, try again)."""
PLAIN_ON_HTTPS = (b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                  b"Connection: close\r\n\r\nThis port speaks HTTPS: open the address with "
                  b"https:// instead of http:// (as the companion printed it).\n")
MAX_WAITING = 2_000
MAX_LINGERING = 512
"""Refused connections drained for a moment (so that the client reads the refusal rather
than a reset); beyond this many they are closed at once."""
LINGER_S = 2.0

REASONS = {400: "Bad Request", 408: "Request Timeout", 411: "Length Required",
           413: "Content Too Large", 429: "Too Many Requests",
           431: "Request Header Fields Too Large", 503: "Service Unavailable"}


def refusal(code: int, english: str, german: str, retry_after: int | None = None) -> bytes:
    """A complete HTTP/1.0 answer with a JSON body `{"error", "error_de"}`, as the app's."""
    body = json.dumps({"error": english, "error_de": german}, ensure_ascii=False).encode()
    lines = [f"HTTP/1.0 {code} {REASONS.get(code, 'Error')}",
             "Content-Type: application/json", f"Content-Length: {len(body)}",
             "Connection: close", "Cache-Control: no-store"]
    if retry_after is not None:
        lines.append(f"Retry-After: {retry_after}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class QuietHandler(WSGIRequestHandler):
    """One request per connection, read from memory (the waiting room received it whole),
    socket timeouts for the answer, no line per request in the terminal (it would bury the
    URL and the PIN)."""

    protocol_version = "HTTP/1.0"
    timeout = IO_TIMEOUT_S

    def setup(self) -> None:
        super().setup()
        received = getattr(self.server, "received", None)
        data = received() if callable(received) else None
        if data is not None:
            self.rfile.close()
            self.rfile = io.BytesIO(data)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return


def _fd_room() -> int:
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ValueError, OSError):
        return MAX_WAITING
    if soft == resource.RLIM_INFINITY:
        return MAX_WAITING
    return max(16, min(MAX_WAITING, soft // 2))


def _head_end(data: bytes | bytearray) -> int | None:
    """The offset just past the blank line that ends a request head, if it has arrived."""
    ends = [i + n for i, n in ((data.find(b"\r\n\r\n"), 4), (data.find(b"\n\n"), 2))
            if i >= 0]
    return min(ends) if ends else None


def body_length(head: bytes) -> int | str:
    """The body's length from a request head, or the refusal's reason (a word)."""
    length = 0
    for line in head.split(b"\n")[1:]:
        name, sep, value = line.partition(b":")
        if not sep:
            continue
        name = name.strip().lower()
        if name == b"transfer-encoding" and value.strip().lower() != b"identity":
            return "chunked"
        if name == b"content-length":
            text = value.strip()
            if not text.isdigit() or len(text) > 18:
                return "length"
            length = int(text)
    return length


@dataclass(eq=False)
class Waiting:
    """A connection in the waiting room: what it sent so far, and by when the rest is due."""

    sock: socket.socket
    address: Any
    client: str
    since: float
    data: bytearray = field(default_factory=bytearray)
    need: int | None = None  # bytes of head + body, once the head is in
    body_due: float = 0.0
    reserved: int = 0  # of the large-body budget
    secure: bool = False  # the TLS handshake is done (HTTPS)


class BoundedWSGIServer(BaseWSGIServer):
    """A WSGI server with a waiting room that receives whole requests, per-address caps and a
    fixed worker pool."""

    multithread = True
    multiprocess = False
    request_queue_size = 1024  # a burst of connections waits in the kernel, not dropped

    def __init__(
        self,
        host: str,
        port: int,
        app: Any,
        handler: type[WSGIRequestHandler] = QuietHandler,
        workers: int = WORKERS,
        idle_timeout_s: float = IDLE_TIMEOUT_S,
        max_waiting: int | None = None,
        per_client: int = CONNECTIONS_PER_CLIENT,
        header_timeout_s: float = HEADER_TIMEOUT_S,
        body_timeout_s: float = BODY_TIMEOUT_S,
        max_body: int | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        super().__init__(host, port, app, handler=handler)
        # HTTPS: the TLS handshake happens in the waiting room, without blocking (werkzeug
        # would do it in the accepting thread, where one silent client would stop them all)
        self.ssl_context = ssl_context
        self._large_bytes = 0
        self.idle_timeout_s = idle_timeout_s
        self.header_timeout_s = header_timeout_s
        self.body_timeout_s = body_timeout_s
        self.per_client = per_client
        self.max_body = max_body or MAX_BODY_BYTES
        self.max_waiting = max_waiting or _fd_room()
        self.refused: dict[int, int] = {}  # status -> how many, for tests and the bench
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="companion-http")
        self._selector = selectors.DefaultSelector()
        self._waiting: dict[socket.socket, Waiting] = {}
        self._lingering: dict[socket.socket, float] = {}
        self._clients: dict[str, int] = {}  # client address -> open connections
        self._room_lock = threading.Lock()
        self._received = threading.local()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._closing = False
        self._room = threading.Thread(target=self._watch_room, name="companion-http-room",
                                      daemon=True)
        self._room.start()

    # called by serve_forever() for each accepted connection
    def process_request(self, request: Any, client_address: Any) -> None:
        client = str(client_address[0]) if isinstance(client_address, tuple) else "?"
        now = time.monotonic()
        with self._room_lock:
            if self._closing:
                self.shutdown_request(request)
                return
            if self._clients.get(client, 0) >= self.per_client:
                if self.ssl_context is not None:  # no answer is readable before TLS
                    self.refused[429] = self.refused.get(429, 0) + 1
                    self.shutdown_request(request)
                    return
                self._refuse(request, refusal(
                    429, f"too many connections from this device ({self.per_client} at most):"
                         " close some pages and try again",
                    f"zu viele Verbindungen von diesem Gerät (höchstens {self.per_client}): "
                    "Seiten schließen und noch einmal versuchen", retry_after=5))
                return
            if len(self._waiting) >= self.max_waiting:
                self._make_room()
            self._clients[client] = self._clients.get(client, 0) + 1
            request.setblocking(False)
            self._waiting[request] = Waiting(request, client_address, client, now)
            self._selector.register(request, selectors.EVENT_READ, "waiting")
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    def _make_room(self) -> None:
        """The waiting room is full: the oldest connection of the busiest address goes."""
        busiest = max(self._clients, key=lambda c: self._clients[c])
        mine = [w for w in self._waiting.values() if w.client == busiest]
        victim = min(mine or self._waiting.values(), key=lambda w: w.since)
        self._drop(victim.sock)

    def _release(self, client: str) -> None:
        left = self._clients.get(client, 0) - 1
        if left > 0:
            self._clients[client] = left
        else:
            self._clients.pop(client, None)

    def _unwait(self, sock: socket.socket) -> Waiting | None:
        waiting = self._waiting.pop(sock, None)
        if waiting is not None:
            self._large_bytes -= waiting.reserved
            waiting.reserved = 0
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(sock)
        return waiting

    def _drop(self, sock: socket.socket) -> None:
        """Close a waiting connection without a word (it sent nothing, or went away)."""
        waiting = self._unwait(sock)
        if waiting is not None:
            self._release(waiting.client)
        self.shutdown_request(sock)

    def _refuse(self, sock: socket.socket, answer: bytes) -> None:
        """Answer `answer` from the waiting room (no worker), then drain the socket briefly so
        that the client reads the answer instead of a reset, and close it."""
        waiting = self._unwait(sock)
        if waiting is not None:
            self._release(waiting.client)
        code = int(answer.split(b" ", 2)[1])
        self.refused[code] = self.refused.get(code, 0) + 1
        try:
            sock.setblocking(False)
            sock.send(answer)  # small: fits in the socket's buffer
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            self.shutdown_request(sock)
            return
        if len(self._lingering) >= MAX_LINGERING:
            sock.close()
            return
        self._lingering[sock] = time.monotonic() + LINGER_S
        try:
            self._selector.register(sock, selectors.EVENT_READ, "lingering")
        except (KeyError, ValueError, OSError):
            self._lingering.pop(sock, None)
            sock.close()

    def _end_linger(self, sock: socket.socket) -> None:
        self._lingering.pop(sock, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(sock)
        sock.close()

    def _watch_room(self) -> None:
        next_sweep = 0.0
        while not self._closing:
            try:
                ready = self._selector.select(timeout=0.25)
            except OSError:
                if self._closing:
                    return
                continue
            now = time.monotonic()
            with self._room_lock:
                for key, _mask in ready:
                    sock = key.fileobj
                    if sock is self._wake_r:
                        with contextlib.suppress(OSError):
                            self._wake_r.recv(4096)
                        continue
                    assert isinstance(sock, socket.socket)
                    if key.data == "lingering":
                        self._drain(sock)
                    elif sock in self._waiting:
                        self._receive(self._waiting[sock], now)
                if now >= next_sweep:
                    next_sweep = now + 0.25
                    self._sweep(now)

    def _drain(self, sock: socket.socket) -> None:
        try:
            if sock.recv(65536):
                return
        except BlockingIOError:
            return
        except OSError:
            pass
        self._end_linger(sock)

    def _receive(self, waiting: Waiting, now: float) -> None:
        sock = waiting.sock
        if self.ssl_context is not None and not waiting.secure:
            if not isinstance(sock, ssl.SSLSocket):
                try:
                    first = sock.recv(1, socket.MSG_PEEK)
                except BlockingIOError:
                    return
                except OSError:
                    first = b""
                if not first:
                    self._drop(sock)
                    return
                if first != b"\x16":  # no TLS hello: plain HTTP on the HTTPS port
                    self._refuse(sock, PLAIN_ON_HTTPS)
                    return
                wrapped = self._wrap(waiting)
                if wrapped is None:
                    return
                sock = wrapped
            assert isinstance(sock, ssl.SSLSocket)
            try:
                sock.do_handshake()
            except ssl.SSLWantReadError:
                self._selector.modify(sock, selectors.EVENT_READ, "waiting")
                return
            except ssl.SSLWantWriteError:
                self._selector.modify(sock, selectors.EVENT_WRITE, "waiting")
                return
            except OSError:  # not TLS after all, or a broken handshake
                self._drop(sock)
                return
            waiting.secure = True
            self._selector.modify(sock, selectors.EVENT_READ, "waiting")
        while True:
            try:
                chunk = sock.recv(65536)
            except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._drop(sock)  # the client went away before its request was complete
                return
            waiting.data += chunk
            if self._advance(waiting, now):
                return

    def _wrap(self, waiting: Waiting) -> ssl.SSLSocket | None:
        """The connection's socket wrapped for TLS (the handshake still to come)."""
        raw = waiting.sock
        assert self.ssl_context is not None
        self._waiting.pop(raw, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(raw)
        try:
            wrapped = self.ssl_context.wrap_socket(raw, server_side=True,
                                                   do_handshake_on_connect=False)
        except OSError:
            self._release(waiting.client)
            raw.close()
            return None
        waiting.sock = wrapped
        self._waiting[wrapped] = waiting
        self._selector.register(wrapped, selectors.EVENT_READ, "waiting")
        return wrapped

    def _advance(self, waiting: Waiting, now: float) -> bool:
        """Look at what arrived: True when the connection left the waiting room (its whole
        request went to a worker, or it was refused)."""
        sock = waiting.sock
        if waiting.need is None:
            end = _head_end(waiting.data)
            if end is None or end > MAX_HEAD_BYTES:
                if len(waiting.data) > MAX_HEAD_BYTES:
                    self._refuse(sock, refusal(
                        431, f"the request's head is longer than {MAX_HEAD_BYTES} bytes",
                        f"der Kopf der Anfrage ist länger als {MAX_HEAD_BYTES} Bytes"))
                    return True
                return False
            length = body_length(bytes(waiting.data[:end]))
            if length == "chunked":
                self._refuse(sock, refusal(
                    411, "send the body with a Content-Length (chunked bodies are not read)",
                    "den Inhalt mit Content-Length senden (chunked wird nicht gelesen)"))
                return True
            if isinstance(length, str):
                self._refuse(sock, refusal(400, "Content-Length must be a whole number",
                                           "Content-Length muss eine ganze Zahl sein"))
                return True
            if length > self.max_body:
                self._refuse(sock, refusal(
                    413, f"the request's body is larger than {self.max_body} bytes",
                    f"der Inhalt der Anfrage ist größer als {self.max_body} Bytes"))
                return True
            if length > SMALL_BODY_BYTES:
                if self._large_bytes + length > MAX_LARGE_BYTES:
                    self._refuse(sock, refusal(
                        503, "the server is receiving too many large requests at once: "
                             "try again in a moment",
                        "der Server empfängt gerade zu viele große Anfragen: gleich noch "
                        "einmal versuchen", retry_after=1))
                    return True
                waiting.reserved = length
                self._large_bytes += length
            waiting.need = end + length
            waiting.body_due = now + self.body_timeout_s
        if len(waiting.data) < waiting.need:
            return False
        self._unwait(sock)  # still counted for its client until it is closed
        data = bytes(waiting.data[:waiting.need])
        try:
            self._pool.submit(self._serve, sock, waiting.address, waiting.client, data)
        except RuntimeError:  # the pool is shut down
            self._release(waiting.client)
            self.shutdown_request(sock)
        return True

    def _sweep(self, now: float) -> None:
        for sock, waiting in list(self._waiting.items()):
            if waiting.need is not None:
                if now > waiting.body_due:
                    self._refuse(sock, refusal(
                        408, f"the request's body did not arrive within "
                             f"{self.body_timeout_s:.0f} s",
                        f"der Inhalt der Anfrage kam nicht innerhalb von "
                        f"{self.body_timeout_s:.0f} s"))
            elif not waiting.data:
                if now - waiting.since > self.idle_timeout_s:
                    self._drop(sock)
            elif now - waiting.since > self.header_timeout_s:
                self._refuse(sock, refusal(
                    408, f"the request's head did not arrive within "
                         f"{self.header_timeout_s:.0f} s",
                    f"der Kopf der Anfrage kam nicht innerhalb von "
                    f"{self.header_timeout_s:.0f} s"))
        for sock, until in list(self._lingering.items()):
            if now > until:
                self._end_linger(sock)

    def received(self) -> bytes | None:
        """The request the waiting room received for the connection this thread serves."""
        data: bytes | None = getattr(self._received, "data", None)
        self._received.data = None
        return data

    def _serve(self, request: socket.socket, client_address: Any, client: str,
               data: bytes) -> None:
        try:
            request.setblocking(True)
            request.settimeout(IO_TIMEOUT_S)
            self._received.data = data
            self.finish_request(request, client_address)
        except Exception:  # one broken connection must not take the worker down
            log.debug("connection from %s failed", client_address, exc_info=True)
        finally:
            self._received.data = None
            self.shutdown_request(request)
            with self._room_lock:
                self._release(client)

    @property
    def waiting(self) -> int:
        with self._room_lock:
            return len(self._waiting)

    def connections(self, client: str) -> int:
        """Open connections of one client address (waiting or being served)."""
        with self._room_lock:
            return self._clients.get(client, 0)

    def server_close(self) -> None:
        if self._closing:
            return
        self._closing = True
        self._wake()
        self._room.join(2.0)
        with self._room_lock:
            for sock in list(self._waiting):
                self._drop(sock)
            for sock in list(self._lingering):
                self._end_linger(sock)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._selector.close()
        self._wake_r.close()
        self._wake_w.close()
        super().server_close()

    def shutdown(self) -> None:
        super().shutdown()
        self.server_close()
