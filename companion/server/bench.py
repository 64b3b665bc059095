"""`companion bench page`: settled table -> change at a browser (SSE), and memory over time.

Latency: real engine, real recording (SQLite on disk), real HTTP server and an SSE client on a
socket; the clock starts when a settled snapshot is handed to the session (the moment vision
emits it) and stops when the client has read the resulting `state` event. Memory: RSS after
every game of an accelerated run of many games; the target is no growth after warm-up.
"""

from __future__ import annotations

import gc
import http.client
import json
import queue
import resource
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import click

TARGET_P99_MS = 200.0


def rss_mb() -> float:
    """Resident memory of this process now (Linux /proc), else the peak."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


class SSEClient:
    """Reads an SSE stream on its own thread; puts (event, data, arrival time) on a queue."""

    def __init__(self, port: int) -> None:
        self.events: queue.Queue[tuple[str, str, float]] = queue.Queue()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", "/api/stream")
        self.response = self.conn.getresponse()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

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
                        self.events.put((event, "\n".join(data), time.perf_counter()))
                    event, data = "message", []
                elif line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
        except (OSError, ValueError):
            return

    def next_state(self, timeout: float = 10.0) -> tuple[dict[str, Any], float]:
        while True:
            event, data, at = self.events.get(timeout=timeout)
            if event == "state":
                return json.loads(data), at

    def drain(self) -> None:
        while not self.events.empty():
            self.events.get_nowait()

    def close(self) -> None:
        self.conn.close()


def _session(script: Any, store: Any, **options: Any) -> Any:
    from companion.referee.script import config_from_script
    from companion.server.bus import EventBus
    from companion.server.engine_referee import EngineReferee
    from companion.server.gamedata import card_lookup, layout_dict
    from companion.server.live_setup import header_for
    from companion.server.session import LiveSession

    config = config_from_script(script)
    return LiveSession(EngineReferee(config), store, EventBus(), header_for(config, "bench"),
                       layout_dict(config.game), card_lookup(config.game, config.cards),
                       **options)


def run_page_bench(game: str, rounds: int, db: Path) -> dict[str, Any]:
    from companion.record.store import Store
    from companion.server.app import create_app
    from companion.server.live_setup import demo_script_path, serve_in_thread
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    script = load_script(demo_script_path(game))
    snapshots = script_snapshots(script)
    store = Store(db)
    session = _session(script, store)
    app = create_app({"DATABASE": db, "SESSION": session, "HEARTBEAT_S": 5.0})
    server, _ = serve_in_thread(app, "127.0.0.1", 0)
    latencies: list[float] = []
    memory: list[float] = []
    try:
        for _ in range(rounds):
            session = _session(script, store)
            app.config["SESSION"] = session
            client = SSEClient(server.server_port)
            client.next_state()  # the full state a new client gets first
            for i, snap in enumerate(snapshots):
                before = session.bus.last_id
                start = time.perf_counter()
                session.observe(snap.with_seq(i, float(i)))
                if session.bus.last_id == before:
                    continue  # nothing changed on the table: nothing to send
                _, arrived = client.next_state()
                latencies.append((arrived - start) * 1000.0)
                client.drain()
            session.close()
            session.bus.close()
            client.close()
            memory.append(rss_mb())
    finally:
        server.shutdown()
        store.close()
    latencies.sort()
    warm = memory[len(memory) // 4:] or memory
    return {
        "game": game,
        "rounds": rounds,
        "samples": len(latencies),
        "p50_ms": statistics.median(latencies),
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "max_ms": latencies[-1],
        "rss_start_mb": warm[0],
        "rss_end_mb": warm[-1],
        "rss_growth_mb": warm[-1] - warm[0],
    }


def run_demo_memory(game: str, rounds: int, db: Path) -> list[float]:
    """RSS after each full demo (simulated frames, vision, engine, recording) at top speed."""
    from companion.server.live_setup import build_demo

    memory = []
    for _ in range(rounds):
        live = build_demo(game, speed=1000.0, db=db)
        live.extra["feed"].run(live.session, threading.Event())
        live.close()
        del live
        gc.collect()  # a finished demo leaves cycles (renderer caches); count only what stays
        memory.append(rss_mb())
    return memory


@click.command("page")
@click.option("--game", default="trick-or-beat", show_default=True)
@click.option("--rounds", type=int, default=40, show_default=True,
              help="Games played back to back (accelerated).")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Record into this library (default: a temporary file).")
@click.option("--demo-rounds", type=int, default=0, show_default=True,
              help="Also play the full frame demo this many times and report RSS after each.")
def bench_page(game: str, rounds: int, db: Path | None, demo_rounds: int) -> None:
    """Settled table to SSE client latency (p50/p99, target < 200 ms) and RSS over time."""
    with tempfile.TemporaryDirectory() as tmp:
        result = run_page_bench(game, rounds, db or Path(tmp) / "bench.db")
        demo_memory = run_demo_memory(game, demo_rounds, db or Path(tmp) / "demo.db")
    ok = result["p99_ms"] < TARGET_P99_MS
    click.echo(f"page latency ({result['game']}, {result['samples']} table changes over "
               f"{result['rounds']} games): p50 {result['p50_ms']:.1f} ms, "
               f"p99 {result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms "
               f"[target p99 < {TARGET_P99_MS:.0f} ms: {'ok' if ok else 'MISSED'}]")
    click.echo(f"memory (RSS after warm-up): {result['rss_start_mb']:.1f} MB -> "
               f"{result['rss_end_mb']:.1f} MB ({result['rss_growth_mb']:+.1f} MB)")
    if demo_memory:
        trail = ", ".join(f"{m:.0f}" for m in demo_memory)
        click.echo(f"memory after each full frame demo (MB): {trail}")
