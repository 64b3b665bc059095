"""A real nats-server with JetStream for the hall tests, on a free loopback port.

`make test` installs nats-server; a machine without it fails here with the install command,
never skips: the hall's guarantees (nothing lost, nothing doubled) are about the real broker.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.hall.loop import LoopThread
from companion.hall.natsd import NatsServer, NatsServerError, find_nats_server


@pytest.fixture
def nats_server(tmp_path: Path) -> Iterator[NatsServer]:
    try:
        find_nats_server()
    except NatsServerError as exc:
        pytest.fail(f"{exc} -- the hall tests need a real nats-server", pytrace=False)
    server = NatsServer(tmp_path / "nats", port=0, host="127.0.0.1").start()
    yield server
    server.stop()


@pytest.fixture
def loop() -> Iterator[LoopThread]:
    thread = LoopThread("test-nats").start()
    yield thread
    thread.stop()


@pytest.fixture
def stop_event(loop: LoopThread) -> asyncio.Event:
    async def make() -> asyncio.Event:
        return asyncio.Event()

    return loop.run(make())


def wait_until(condition: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
    """Poll a condition (never a fixed sleep: CI is a busy 2-core machine)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what or condition}")
