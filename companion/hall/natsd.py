"""A local `nats-server` with JetStream, for `companion hall` without `--nats`, tests, bench.

The server is Debian's `nats-server` package (`make` installs it). A missing binary is an
error naming the install command, never a silent fallback: the hall without a broker would
lose exactly what it exists to keep.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

from companion.errors import CompanionError

INSTALL_HINT = "install it with: sudo apt-get install nats-server  (or: make system-deps)"
DEFAULT_PORT = 4222
BINARY_FOLDERS = ("/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/local/sbin")
_LISTENING = re.compile(r"Listening for client connections on (\S+):(\d+)")


class NatsServerError(CompanionError):
    """nats-server is missing, cannot start, or its port is taken."""


def find_nats_server() -> str:
    """The nats-server binary (PATH, then /usr/sbin and /usr/bin, where Debian puts it)."""
    found = shutil.which("nats-server")
    if found:
        return found
    for folder in BINARY_FOLDERS:
        candidate = Path(folder) / "nats-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise NatsServerError(f"nats-server is not installed; {INSTALL_HINT}")


def _die_with_parent() -> None:
    """Linux: the broker ends when the hall does, even a killed hall (no orphan holding the
    port and the stream's files when the hall is restarted)."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def port_taken(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) == 0


class NatsServer:
    """One nats-server process with JetStream, its data in `store_dir`.

    `port=0` lets the server pick a free port (read back from its log). `stop()` ends it;
    `kill()` ends it without a goodbye (tests of a crashed broker)."""

    def __init__(self, store_dir: Path, port: int = DEFAULT_PORT, host: str = "127.0.0.1",
                 name: str = "companion-hall", config: Path | None = None,
                 tls: bool = False) -> None:
        self.store_dir = Path(store_dir)
        self.config = config
        self.tls = tls
        self.host = host
        self.requested_port = port
        self.port = port
        self.name = name
        self.process: subprocess.Popen[bytes] | None = None
        self.log: deque[str] = deque(maxlen=200)

    @property
    def url(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return f"{'tls' if self.tls else 'nats'}://{shown}:{self.port}"

    def start(self, timeout: float = 15.0) -> NatsServer:
        binary = find_nats_server()
        if self.requested_port and port_taken("127.0.0.1" if self.host == "0.0.0.0"
                                              else self.host, self.requested_port):
            raise NatsServerError(
                f"port {self.requested_port} is in use: another NATS server (the system's "
                "nats-server service?) or program. Join a running JetStream server with "
                f"--nats nats://HOST:{self.requested_port}, or stop the other one "
                "(sudo systemctl disable --now nats-server)")
        self.store_dir.mkdir(parents=True, exist_ok=True)
        args = [binary, "-js", "-sd", str(self.store_dir), "-a", self.host,
                "-p", str(self.requested_port or -1), "-n", self.name]
        if self.config is not None:  # accounts, users, permissions, TLS (credentials.py)
            args[1:1] = ["-c", str(self.config)]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        ready = threading.Event()
        threading.Thread(target=self._read_log, args=(ready,), daemon=True,
                         name="nats-server-log").start()
        deadline = time.monotonic() + timeout
        while not ready.wait(0.05):
            if self.process.poll() is not None or time.monotonic() > deadline:
                tail = "\n  ".join(list(self.log)[-5:])
                self.stop()
                raise NatsServerError(f"nats-server did not start:\n  {tail}")
        return self

    def _read_log(self, ready: threading.Event) -> None:
        assert self.process is not None and self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode(errors="replace").rstrip()
            self.log.append(line)
            found = _LISTENING.search(line)
            if found:
                self.port = int(found.group(2))
            if "Server is ready" in line:
                ready.set()

    def stop(self, timeout: float = 10.0) -> None:
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout)

    def kill(self) -> None:
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(10)

    def __enter__(self) -> NatsServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
