"""`companion bench hall`: many tables, one hall, through a real nats-server.

Tables are simulated without frames: every bundled demo script is played once through a live
session on the real rules engine (snapshots in, with the demo's director pressing what a
person presses), and the events each table change produced are kept. A simulated table then
commits those events to its own SQLite file (the real store) at K times game speed, one table
change every `STEP_S / K` seconds, and its real publisher takes them from there. The hall is
the real `companion hall` process; the clock stops when the hall page's event stream (SSE,
read by a client here) shows the table's row at that event: lag = page arrival - commit time.

Faults: one table's connection is cut (a relay drops it and refuses reconnects) for `cut_s`
seconds mid-game, then restored; later the hall process is killed (SIGKILL) and started
again. Zero lost or doubled is checked against the tables' own files: the hall's library
must hold each table's events exactly once, the hall's view must end at every table's last
event and report no duplicate.
"""

from __future__ import annotations

import asyncio
import heapq
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

from companion.games import game_ids
from companion.hall.loop import LoopThread
from companion.hall.natsd import NatsServer
from companion.hall.netcut import CutRelay
from companion.hall.outbox import Outbox
from companion.hall.publisher import TablePublisher
from companion.record.store import GameHeader, Store

STEP_S = 4.0
"""Game speed: one settled table change every 4 s (a brisk real game)."""
TARGET_P99_MS = 500.0
GAMES = tuple(game_ids())


@dataclass
class ScriptGame:
    """A demo script as recorded events, grouped by the table change that produced them."""

    game: str
    header: GameHeader
    steps: list[list[tuple[str, str, dict[str, Any]]]]

    @property
    def events(self) -> int:
        return sum(len(s) for s in self.steps)


def record_script(game: str, tmp: Path) -> ScriptGame:
    """Play a game's demo script through the live session once; keep what it recorded."""
    from companion.referee.script import config_from_script
    from companion.server.bus import EventBus
    from companion.server.engine_referee import EngineReferee
    from companion.server.gamedata import card_lookup, layout_dict
    from companion.server.live_setup import ScriptDirector, demo_script_path, header_for
    from companion.server.session import LiveSession
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    script = load_script(demo_script_path(game))
    config = config_from_script(script)
    header = header_for(config, f"bench: {game}")
    with Store(tmp / f"script-{game}.db") as store:
        session = LiveSession(EngineReferee(config), store, EventBus(), header,
                              layout_dict(game), card_lookup(game, config.cards))
        director = ScriptDirector(script, session)
        cuts: list[int] = []

        def last() -> int:
            events = store.events(session.game_id)
            return events[-1].seq if events else 0

        for i, snap in enumerate(script_snapshots(script)):
            director.on_frame(SimpleNamespace(step=i - 1))
            session.observe(snap.with_seq(i, float(i)))
            cuts.append(last())
        director.on_end()
        session.close()
        cuts[-1] = last()
        events = store.events(session.game_id)
    steps: list[list[tuple[str, str, dict[str, Any]]]] = []
    start = 0
    for cut in cuts:
        steps.append([(e.kind, e.source, e.payload) for e in events if start < e.seq <= cut])
        start = cut
    return ScriptGame(game, header, [s for s in steps if s])


class SimTable:
    """One table: its own library and publisher; plays script games one after the other."""

    def __init__(self, name: str, folder: Path, games: list[ScriptGame], first: int,
                 loop: LoopThread, url: str) -> None:
        self.name = name
        self.store = Store(folder / f"{name}.db")
        self.outbox = Outbox(self.store)
        self.games = games
        self.index = first
        self.loop = loop
        self.publisher = TablePublisher(self.outbox, name, url, poll_s=1.0)
        self.commits: dict[tuple[int, int], float] = {}
        self.game_id = 0
        self.step = 0
        self.changes = 0
        self._lock = threading.Lock()
        self._start_game()

    def _start_game(self) -> None:
        script = self.games[self.index % len(self.games)]
        self.index += 1
        self.current = script
        self.game_id = self.store.start_game(script.header)
        self.outbox.register(self.game_id, self.name)
        self.step = 0

    def advance(self) -> int:
        """Commit the next table change's events (a new game after the last); ring."""
        if self.step >= len(self.current.steps):
            self._start_game()
        written = 0
        for kind, source, payload in self.current.steps[self.step]:
            event = self.store.append(self.game_id, kind, source, payload)
            with self._lock:
                self.commits[(self.game_id, event.seq)] = event.time
            written += 1
        self.step += 1
        self.changes += 1
        self.loop.call(self.publisher.wake)
        return written

    def seqs(self) -> dict[int, list[int]]:
        return {g: [e.seq for e in self.store.events(g)]
                for g, _ in self.outbox.games(self.name)}

    def close(self) -> None:
        self.outbox.close()
        self.store.close()


@dataclass
class Deliveries:
    """Page arrivals per table: the lag of every committed event, duplicates on the page."""

    lags_ms: list[float] = field(default_factory=list)
    shown: dict[str, tuple[int, int]] = field(default_factory=dict)
    first: float = 0.0
    last: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


class PageClient:
    """Reads the hall page's SSE stream; turns each table row into delivered events."""

    def __init__(self, port: int, tables: dict[str, SimTable], out: Deliveries) -> None:
        self.tables = tables
        self.out = out
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", "/hall/api/stream")
        self.response = self.conn.getresponse()
        self._thread = threading.Thread(target=self._read, daemon=True, name="page-client")
        self._thread.start()

    def _row(self, row: dict[str, Any], at: float) -> None:
        table = self.tables.get(str(row.get("table")))
        if table is None:
            return
        game, seq = int(row.get("game_ref") or 0), int(row.get("seq") or 0)
        with self.out.lock:
            before = self.out.shown.get(table.name, (0, 0))
            if (game, seq) <= before:
                return
            self.out.shown[table.name] = (game, seq)
        with table._lock:
            due = [(k, t) for k, t in table.commits.items() if k <= (game, seq)]
            for k, _ in due:
                del table.commits[k]
        with self.out.lock:
            for _, committed in due:
                self.out.lags_ms.append((at - committed) * 1000.0)
            if due:
                self.out.first = self.out.first or at
                self.out.last = at

    def _read(self) -> None:
        event, data = "message", list[str]()
        try:
            while True:
                raw = self.response.fp.readline()
                if not raw:
                    return
                line = raw.decode().rstrip("\n")
                if line == "":
                    if data:
                        at = time.time()
                        body = json.loads("\n".join(data))
                        if event == "table":
                            self._row(body, at)
                        elif event == "state":
                            for row in body.get("tables", []):
                                self._row(row, at)
                    event, data = "message", []
                elif line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
        except (OSError, ValueError):
            return

    def close(self) -> None:
        self.conn.close()


class HallProcess:
    """`companion hall` in its own process, joined to the bench's broker."""

    def __init__(self, url: str, db: Path, home: Path) -> None:
        self.url, self.db, self.home = url, db, home
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> float:
        env = {**os.environ, "COMPANION_HOME": str(self.home)}
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "hall", "--nats", self.url, "--port",
             str(self.port), "--db", str(self.db)], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        while time.monotonic() - started < timeout:
            if self.state() is not None:
                return time.monotonic() - started
            time.sleep(0.05)
        raise RuntimeError("the hall did not come up")

    def state(self) -> dict[str, Any] | None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/hall/api/state",
                                        timeout=10) as response:
                data: dict[str, Any] = json.loads(response.read())
                return data
        except (urllib.error.URLError, OSError, ValueError):
            return None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


class Bench:
    """Broker, simulated tables on one loop thread, driver thread, hall process, page client."""

    def __init__(self, n: int, speed: float, folder: Path, games: list[ScriptGame],
                 nats: str | None = None, cut_table: bool = False) -> None:
        self.folder = folder
        self.broker = None if nats else NatsServer(folder / "nats", port=0,
                                                   host="127.0.0.1").start()
        self.url = nats or (self.broker.url if self.broker else "")
        self.loop = LoopThread("bench-tables").start()
        self.relay: CutRelay | None = None
        if cut_table:
            host, port = self.url.rsplit("/", 1)[-1].rsplit(":", 1)
            self.relay = self.loop.run(CutRelay(host, int(port)).start())
        self.tables: dict[str, SimTable] = {}
        for i in range(n):
            name = f"table-{i + 1:03d}"
            url = self.relay.url if self.relay and i == 0 else self.url
            self.tables[name] = SimTable(name, folder, games, i, self.loop, url)
        self.interval = STEP_S / speed
        self.hall = HallProcess(self.url, folder / "hall.db", folder)
        self.deliveries = Deliveries()
        self.client: PageClient | None = None
        self.committed = 0
        self._stop = threading.Event()
        self._driver: threading.Thread | None = None
        self._tasks: list[Any] = []
        self._loop_stop: asyncio.Event | None = None

    def start(self) -> None:
        self.hall.start()
        self.client = PageClient(self.hall.port, self.tables, self.deliveries)

        async def make() -> asyncio.Event:
            return asyncio.Event()

        self._loop_stop = self.loop.run(make())
        for table in self.tables.values():
            self._tasks.append(self.loop.submit(table.publisher.run(self._loop_stop)))
        self._driver = threading.Thread(target=self._drive, daemon=True, name="bench-driver")
        self._driver.start()

    def _drive(self) -> None:
        """Each table changes every `interval` seconds, the tables spread evenly over it."""
        now = time.monotonic()
        names = list(self.tables)
        heap = [(now + self.interval * (i + 1) / len(names), name)
                for i, name in enumerate(names)]
        heapq.heapify(heap)
        while not self._stop.is_set():
            due, name = heap[0]
            delay = due - time.monotonic()
            if delay > 0 and self._stop.wait(delay):
                return
            heapq.heapreplace(heap, (due + self.interval, name))
            self.committed += self.tables[name].advance()

    def pause(self) -> None:
        self._stop.set()
        if self._driver is not None:
            self._driver.join(10)

    def drained(self, timeout: float) -> bool:
        """Until the page showed every committed event."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(not t.commits for t in self.tables.values()):
                return True
            time.sleep(0.05)
        return False

    def close(self) -> None:
        self.pause()
        if self._loop_stop is not None:
            self.loop.call(self._loop_stop.set)
            for t in self.tables.values():
                self.loop.call(t.publisher.wake)
            for task in self._tasks:
                try:
                    task.result(15)
                except Exception:  # a publisher that failed: reported by the checks
                    continue
        if self.client is not None:
            self.client.close()
        self.hall.stop()
        if self.relay is not None:
            self.loop.run(self.relay.close())
        self.loop.stop()
        for t in self.tables.values():
            t.close()
        if self.broker is not None:
            self.broker.stop()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def run_load(n: int, speed: float, seconds: float, games: list[ScriptGame],
             nats: str | None = None) -> dict[str, Any]:
    """N tables for `seconds` at `speed`: events/s through the hall page, lag p50/p99."""
    with tempfile.TemporaryDirectory(prefix=f"bench-hall-{n}-") as tmp:
        bench = Bench(n, speed, Path(tmp), games, nats)
        try:
            bench.start()
            time.sleep(seconds)
            bench.pause()
            drained = bench.drained(60.0)
            d = bench.deliveries
            with d.lock:
                lags = list(d.lags_ms)
                span = max(d.last - d.first, 1e-9)
            undelivered = sum(len(t.commits) for t in bench.tables.values())
            state = bench.hall.state() or {"counts": {}}
        finally:
            bench.close()
    return {"tables": n, "speed": speed, "seconds": seconds, "committed": bench.committed,
            "delivered": len(lags), "undelivered": undelivered, "drained": drained,
            "events_per_s": len(lags) / span, "p50_ms": percentile(lags, 0.5),
            "p99_ms": percentile(lags, 0.99), "max_ms": max(lags) if lags else float("nan"),
            "duplicates": state["counts"].get("duplicates")}


def _archive_check(db: Path, tables: dict[str, SimTable]) -> tuple[int, int, int]:
    """(events expected, missing, doubled) in the hall's library against the tables' files."""
    import sqlite3

    expected = missing = doubled = 0
    conn = sqlite3.connect(str(db))
    copies = {(str(d), int(g)): int(local)
              for d, g, local in conn.execute("SELECT db, game, local_game FROM hall_games")}
    conn.close()
    with Store(db) as store:
        for table in tables.values():
            for game_id, seqs in table.seqs().items():
                expected += len(seqs)
                local = copies.get((table.outbox.db_id, game_id))
                got = [e.seq for e in store.events(local)] if local is not None else []
                doubled += len(got) - len(set(got))
                missing += len(set(seqs) - set(got))
    return expected, missing, doubled


def run_faults(n: int, speed: float, cut_s: float, games: list[ScriptGame],
               nats: str | None = None, lead_s: float = 10.0) -> dict[str, Any]:
    """Cut one table's line for `cut_s` mid-game, then kill and restart the hall."""
    with tempfile.TemporaryDirectory(prefix="bench-hall-faults-") as tmp:
        bench = Bench(n, speed, Path(tmp), games, nats, cut_table=True)
        result: dict[str, Any] = {"tables": n, "speed": speed, "cut_s": cut_s}
        try:
            bench.start()
            time.sleep(lead_s)
            cut = next(iter(bench.tables.values()))
            assert bench.relay is not None
            bench.loop.run(bench.relay.cut())
            played_before = cut.changes
            time.sleep(cut_s)
            result["cut_table_changes_during_cut"] = cut.changes - played_before
            result["cut_table_pending_at_restore"] = len(cut.commits)
            restored = time.monotonic()
            bench.loop.run(bench.relay.restore())
            while cut.commits and time.monotonic() - restored < 60:
                time.sleep(0.02)
            result["catch_up_s"] = time.monotonic() - restored
            time.sleep(lead_s / 2)
            bench.hall.kill()
            if bench.client is not None:
                bench.client.close()
            time.sleep(lead_s / 2)  # the tables play on while the hall is dead
            bench.pause()
            restart = bench.hall.start()
            last = {name: max((g, s[-1]) for g, s in t.seqs().items() if s)
                    for name, t in bench.tables.items()}
            started = time.monotonic()
            while time.monotonic() - started < 120:
                state = bench.hall.state()
                rows = {r["table"]: (r["game_ref"], r["seq"]) for r in (state or {}).get(
                    "tables", [])}
                if all(rows.get(name) == at for name, at in last.items()):
                    break
                time.sleep(0.1)
            result["hall_restart_s"] = restart
            result["rebuild_s"] = time.monotonic() - started
            state = bench.hall.state() or {"counts": {}, "tables": []}
            result["view_complete"] = all(
                any((r["table"], r["game_ref"], r["seq"]) == (name, *at)
                    for r in state["tables"]) for name, at in last.items())
            result["view_duplicates"] = state["counts"].get("duplicates")
            bench.hall.stop()
            expected, missing, doubled = _archive_check(bench.hall.db, bench.tables)
            result.update(events=expected, lost=missing, doubled=doubled)
        finally:
            bench.close()
    return result


@click.command("hall")
@click.option("--tables", "counts", default="8,64,256", show_default=True,
              help="Numbers of simulated tables, comma separated.")
@click.option("--speed", type=float, default=10.0, show_default=True,
              help=f"Times game speed (1 = one table change every {STEP_S:g} s per table).")
@click.option("--seconds", type=float, default=20.0, show_default=True,
              help="Play time per table count.")
@click.option("--cut", "cut_s", type=float, default=30.0, show_default=True,
              help="Seconds one table's connection is cut in the fault run (0: no fault run).")
@click.option("--fault-tables", type=int, default=8, show_default=True)
@click.option("--nats", default=None, help="Use this broker instead of a fresh local one.")
def bench_hall(counts: str, speed: float, seconds: float, cut_s: float, fault_tables: int,
               nats: str | None) -> None:
    """Tables -> NATS -> hall page: events/s, lag p50/p99 (target p99 < 500 ms at 64 tables),
    a cut line and a killed hall: zero events lost or doubled."""
    with tempfile.TemporaryDirectory(prefix="bench-hall-scripts-") as tmp:
        games = [record_script(g, Path(tmp)) for g in GAMES]
    per_game = ", ".join(f"{g.game} {len(g.steps)} changes/{g.events} events" for g in games)
    click.echo(f"script games: {per_game}")
    click.echo(f"game speed: one table change every {STEP_S:g} s; running at {speed:g}x "
               f"(every {STEP_S / speed:.2f} s per table)")
    click.echo("tables | events/s | lag p50 | lag p99 | max | delivered | lost | dup on page")
    for n in [int(c) for c in counts.split(",") if c.strip()]:
        r = run_load(n, speed, seconds, games, nats)
        mark = ""
        if n == 64:
            mark = " [target p99 < 500 ms: " + ("ok" if r["p99_ms"] < TARGET_P99_MS
                                                else "MISSED") + "]"
        click.echo(f"{n:6d} | {r['events_per_s']:8.0f} | {r['p50_ms']:5.0f} ms | "
                   f"{r['p99_ms']:5.0f} ms | {r['max_ms']:5.0f} ms | {r['delivered']:9d} | "
                   f"{r['undelivered']:4d} | {r['duplicates']}{mark}")
    if cut_s > 0:
        f = run_faults(fault_tables, speed, cut_s, games, nats)
        click.echo(f"faults ({f['tables']} tables at {f['speed']:g}x): one line cut for "
                   f"{f['cut_s']:g} s ({f['cut_table_changes_during_cut']} table changes "
                   f"played meanwhile), caught up {f['catch_up_s']:.1f} s after restore; hall "
                   f"killed and restarted: up in {f['hall_restart_s']:.1f} s, view rebuilt "
                   f"from the stream in {f['rebuild_s']:.1f} s "
                   f"({'complete' if f['view_complete'] else 'INCOMPLETE'}); "
                   f"{f['events']} events: {f['lost']} lost, {f['doubled']} doubled "
                   f"(hall's library vs the tables' files), "
                   f"{f['view_duplicates']} duplicates in the view")
