"""The web server: a bounded number of threads, and idle connections that time out.

Werkzeug's threaded server starts a thread per connection and keeps it as long as the
connection stays open, so a thousand idle (or half-open) connections hold a thousand threads.
Here an accepted connection first waits in a "waiting room" (one selector, no thread); only
once its request starts to arrive does a worker from a fixed pool serve it. A connection that
sends nothing for `IDLE_TIMEOUT_S` is closed; the waiting room has a size limit (the oldest
idle connection makes room). Each response closes its connection (HTTP/1.0), and every socket
read or write gives up after `IO_TIMEOUT_S`, so a stuck client frees its worker too.
Live streams (SSE) hold a worker each; the API caps them below the pool size, so the
referee's buttons always find a free worker.
"""

from __future__ import annotations

import contextlib
import logging
import resource
import selectors
import socket
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler

log = logging.getLogger(__name__)

MAX_STREAMS = 256
WORKERS = MAX_STREAMS + 32
IDLE_TIMEOUT_S = 10.0
IO_TIMEOUT_S = 20.0
MAX_WAITING = 2_000
PLAIN_ON_HTTPS = (b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                  b"Connection: close\r\n\r\nThis port speaks HTTPS: open the address with "
                  b"https:// instead of http:// (as the companion printed it).\n")


class QuietHandler(WSGIRequestHandler):
    """One request per connection, socket timeouts, no line per request in the terminal
    (it would bury the URL and the PIN)."""

    protocol_version = "HTTP/1.0"
    timeout = IO_TIMEOUT_S

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


class BoundedWSGIServer(BaseWSGIServer):
    """A WSGI server with a waiting room for idle connections and a fixed worker pool."""

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
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        super().__init__(host, port, app, handler=handler)
        # HTTPS: the TLS handshake happens in a worker with the socket's timeout, never in
        # the accepting thread (werkzeug's way), where one silent client would stop them all
        self.ssl_context = ssl_context
        self.idle_timeout_s = idle_timeout_s
        self.max_waiting = max_waiting or _fd_room()
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="companion-http")
        self._selector = selectors.DefaultSelector()
        self._waiting: dict[socket.socket, tuple[float, Any]] = {}
        self._room_lock = threading.Lock()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._closing = False
        self._room = threading.Thread(target=self._watch_room, name="companion-http-room",
                                      daemon=True)
        self._room.start()

    # called by serve_forever() for each accepted connection
    def process_request(self, request: Any, client_address: Any) -> None:
        with self._room_lock:
            if len(self._waiting) >= self.max_waiting:
                oldest = min(self._waiting, key=lambda s: self._waiting[s][0])
                self._drop(oldest)
            self._waiting[request] = (time.monotonic(), client_address)
            self._selector.register(request, selectors.EVENT_READ, client_address)
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    def _drop(self, sock: socket.socket) -> None:
        self._waiting.pop(sock, None)
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(sock)
        self.shutdown_request(sock)

    def _watch_room(self) -> None:
        next_sweep = 0.0
        while not self._closing:
            try:
                ready = self._selector.select(timeout=0.5)
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
                    address = self._waiting.pop(sock, (now, key.data))[1]
                    self._selector.unregister(sock)
                    try:
                        self._pool.submit(self._serve, sock, address)
                    except RuntimeError:  # the pool is shut down
                        self.shutdown_request(sock)
                if now >= next_sweep:
                    next_sweep = now + 0.25
                    for sock, (since, _address) in list(self._waiting.items()):
                        if now - since > self.idle_timeout_s:
                            self._drop(sock)

    def _serve(self, request: Any, client_address: Any) -> None:
        try:
            request.settimeout(IO_TIMEOUT_S)
            if self.ssl_context is not None:
                if request.recv(1, socket.MSG_PEEK) not in (b"\x16", b""):  # no TLS hello
                    request.sendall(PLAIN_ON_HTTPS)
                    return
                request = self.ssl_context.wrap_socket(request, server_side=True)
            self.finish_request(request, client_address)
        except Exception:  # one broken connection must not take the worker down
            log.debug("connection from %s failed", client_address, exc_info=True)
        finally:
            self.shutdown_request(request)

    @property
    def waiting(self) -> int:
        with self._room_lock:
            return len(self._waiting)

    def server_close(self) -> None:
        if self._closing:
            return
        self._closing = True
        self._wake()
        self._room.join(2.0)
        with self._room_lock:
            for sock in list(self._waiting):
                self._drop(sock)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._selector.close()
        self._wake_r.close()
        self._wake_w.close()
        super().server_close()

    def shutdown(self) -> None:
        super().shutdown()
        self.server_close()
