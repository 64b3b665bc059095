"""`companion hall` as the real process: killed with SIGKILL and started again, it rebuilds
its view from the stream and its library holds every table's events exactly once; with its own
broker, the broker dies with it and comes back with the stream's files."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.cli import cli
from companion.hall.loop import LoopThread
from companion.hall.natsd import NatsServer
from companion.record.store import Store
from tests.hall.conftest import wait_until
from tests.hall.helpers import Table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def state(port: int) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/hall/api/state",
                                    timeout=5) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data
    except (urllib.error.URLError, OSError, ValueError):
        return None


def seqs(port: int) -> dict[str, int]:
    data = state(port) or {"tables": []}
    return {r["table"]: r["seq"] for r in data["tables"]}


def start_hall(args: list[str], home: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "COMPANION_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "companion.cli", "hall", *args,
                             "--duration", "300"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)


def kill(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)


def archived(db: Path, table: Table) -> list[int]:
    with Store(db) as store:
        games = [g for g in store.games() if g.title.startswith(f"{table.name}:")]
        assert len(games) == 1, f"{table.name} copied {len(games)} times"
        assert games[0].id is not None
        return [e.seq for e in store.events(games[0].id)]


def test_a_killed_hall_comes_back_with_everything_once(
        nats_server: NatsServer, loop: LoopThread, tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "hall.db"
    args = ["--nats", nats_server.url, "--port", str(port), "--db", str(db)]
    tables = [Table(tmp_path, f"t{i}", loop, nats_server.url) for i in range(3)]
    for t in tables:
        t.start()
    hall = start_hall(args, tmp_path)
    try:
        for n in range(10):
            for t in tables:
                t.move(n)
        wait_until(lambda: seqs(port) == {"t0": 10, "t1": 10, "t2": 10}, what="the hall")
        kill(hall)
        for n in range(10, 25):  # the tables play on while the hall is dead
            for t in tables:
                t.move(n)
        hall = start_hall(args, tmp_path)
        wait_until(lambda: seqs(port) == {"t0": 25, "t1": 25, "t2": 25}, what="the rebuild")
        data = state(port)
        assert data is not None and data["counts"]["duplicates"] == 0
        assert data["counts"]["applied"] == 3 * (1 + 25)
        hall.send_signal(signal.SIGINT)
        hall.wait(20)
        for t in tables:
            assert archived(db, t) == t.seqs()
    finally:
        if hall.poll() is None:
            kill(hall)
        for t in tables:
            t.close()


def test_the_own_broker_dies_and_comes_back_with_the_hall(loop: LoopThread,
                                                          tmp_path: Path) -> None:
    port, nats_port = free_port(), free_port()
    args = ["--nats-port", str(nats_port), "--port", str(port), "--tables", "solo",
            "--db", str(tmp_path / "hall.db")]
    hall = start_hall(args, tmp_path)
    wait_until(lambda: state(port) is not None, what="the hall page")
    # the table's own user, from the credentials the hall made (and printed)
    password = json.loads((tmp_path / "nats" / "credentials.json").read_text())["tables"]["solo"]
    url = f"nats://solo:{password}@127.0.0.1:{nats_port}"
    table = Table(tmp_path, "solo", loop, url)
    try:
        table.start()
        for n in range(5):
            table.move(n)
        wait_until(lambda: seqs(port) == {"solo": 5}, what="five events")
        kill(hall)  # its nats-server must not outlive it (else the port stays taken)
        assert table.publisher is not None
        wait_until(lambda: table.publisher is not None
                   and table.publisher.stats.status == "offline", what="the broker to go")
        for n in range(5, 9):
            table.move(n)
        hall = start_hall(args, tmp_path)
        wait_until(lambda: seqs(port) == {"solo": 9}, what="the stream back from disk")
        data = state(port)
        assert data is not None and data["counts"]["duplicates"] == 0
        assert (tmp_path / "nats" / "jetstream").is_dir()  # the broker's data, in the home
    finally:
        if hall.poll() is None:
            kill(hall)
        table.close()


def test_a_missing_nats_server_names_the_install_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.hall.natsd as natsd

    monkeypatch.setattr(natsd.shutil, "which", lambda name: None)
    monkeypatch.setattr(natsd, "BINARY_FOLDERS", (str(tmp_path),))
    out = CliRunner().invoke(cli, ["hall", "--db", str(tmp_path / "h.db"), "--port", "0",
                                   "--nats-port", "0", "--duration", "1"])
    assert out.exit_code == 1
    assert "nats-server is not installed" in out.output
    assert "apt-get install nats-server" in out.output
