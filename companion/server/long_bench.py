"""`companion bench long-game`: what one input costs as the game's log grows (issue 34).

A real engine, a real recording (SQLite on disk) and the live session: the bundled demo's
tables are played, then the camera keeps seeing the table change between its last two tables
(each change is a move that breaks a rule, so the log grows by moves, violations and
observations as in a long, messy game). When the log reaches each mark the next
`--inputs` table changes are timed one by one (recording, engine, the state message; by the
wall clock and by the process's processor time, which other jobs disturb less) and the
process's resident memory is read. A flat cost is the target: an input at 10,000 events should
cost what it costs at 100.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import click

from companion.record.checkpoints import CHECKPOINT_EVERY

MARKS = (100, 1_000, 10_000)


def run_long_game(game: str, marks: tuple[int, ...], inputs: int, db: Path,
                  people: bool = True, rounds: int = 5,
                  checkpoint_every: int = CHECKPOINT_EVERY) -> list[dict[str, Any]]:
    """Per mark: events in the log, p50/p95/max per input (ms), resident memory (MiB),
    and with `people` the same for `rounds` of a person's decisions, undos and redos."""
    from companion.record.store import Store
    from companion.server.bench import _session, rss_mb
    from companion.server.live_setup import demo_script_path
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    script = load_script(demo_script_path(game))
    tables = script_snapshots(script)
    store = Store(db)
    session = _session(script, store, checkpoint_every=checkpoint_every)
    rows: list[dict[str, Any]] = []
    count = 0

    def one() -> tuple[float, float]:
        nonlocal count
        table = tables[count] if count < len(tables) else tables[-1 - count % 2]
        start, processor = time.perf_counter(), time.process_time()
        session.observe(table.with_seq(count, float(count)))
        count += 1
        return ((time.perf_counter() - start) * 1000.0,
                (time.process_time() - processor) * 1000.0)

    try:
        for mark in sorted(marks):
            while len(session._events) < mark:
                one()
            at = len(session._events)
            timed = [one() for _ in range(inputs)]
            times, cpu = sorted(w for w, _ in timed), sorted(c for _, c in timed)
            rows.append({
                "events": at, "inputs": inputs,
                "p50_ms": statistics.median(times),
                "p95_ms": _p95(times),
                "max_ms": times[-1], "rss_mib": rss_mb(),
                "cpu_p50_ms": statistics.median(cpu),
                "cpu_p95_ms": _p95(cpu),
                "game_over": session.model_table is not None and session.state()["game_over"],
                "checkpoints": session.checkpoints_kept,
                **(_person_inputs(session, rounds) if people else {}),
            })
    finally:
        session.bus.close()
        store.close()
    return rows


PRESSES = ("stands", "corrected", "undo", "redo")


def _person_inputs(session: Any, rounds: int) -> dict[str, float]:
    """A person's inputs that cost more than a table change, `rounds` of each, timed one by
    one (ms, p50/p95/max): a decision that changes nothing on the line ("stands"), one that
    takes the move off it ("corrected": the engine's game is rebuilt from the line), the undo
    of that and its redo (the game is replayed from the newest checkpoint before the change).
    Each round decides about another of the newest violations."""
    timed: dict[str, list[tuple[float, float]]] = {name: [] for name in PRESSES}
    violations = session.state()["violations"]
    for i in range(min(rounds, len(violations))):
        seq = violations[-1 - i]["seq"]
        for name, press in (("stands", lambda s=seq: session.decide(s, "stands")),
                            ("corrected", lambda s=seq: session.decide(s, "corrected")),
                            ("undo", session.undo), ("redo", session.redo)):
            start, processor = time.perf_counter(), time.process_time()
            press()
            timed[name].append(((time.perf_counter() - start) * 1000.0,
                                (time.process_time() - processor) * 1000.0))
    out: dict[str, float] = {}
    for name, pairs in timed.items():
        if not pairs:
            continue
        wall, cpu = sorted(w for w, _ in pairs), sorted(c for _, c in pairs)
        out.update({f"{name}_p50_ms": statistics.median(wall), f"{name}_p95_ms": _p95(wall),
                    f"{name}_max_ms": wall[-1], f"cpu_{name}_p50_ms": statistics.median(cpu),
                    f"cpu_{name}_p95_ms": _p95(cpu)})
    return out


def _p95(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


@click.command("long-game")
@click.option("--game", default="creature-crush", show_default=True)
@click.option("--inputs", type=int, default=40, show_default=True,
              help="Table changes timed at each mark.")
@click.option("--events", "marks", default="100,1000,10000", show_default=True,
              help="Marks: log lengths (events) at which inputs are timed.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Record into this library (default: a temporary file).")
@click.option("--people/--no-people", default=True, show_default=True,
              help="Also time decisions, undos and redos at each mark.")
@click.option("--rounds", type=int, default=5, show_default=True,
              help="Decisions ('stands', 'corrected'), undos and redos timed at each mark.")
@click.option("--checkpoint-every", type=int, default=CHECKPOINT_EVERY, show_default=True,
              help="Events between two checkpoints that undo and redo replay from (0: none, "
                   "every replay from the first table; to see what checkpoints cost).")
def bench_long_game(game: str, inputs: int, marks: str, db: Path | None, people: bool,
                    rounds: int, checkpoint_every: int) -> None:
    """Cost of one input (p50/p95 ms) and memory at 100, 1,000 and 10,000 events."""
    lengths = tuple(int(m) for m in marks.split(",") if m.strip())
    with tempfile.TemporaryDirectory() as tmp:
        rows = run_long_game(game, lengths, inputs, db or Path(tmp) / "long.db", people,
                             rounds, checkpoint_every)
    for row in rows:
        click.echo(f"{row['events']:>6} events: p50 {row['p50_ms']:.1f} ms, p95 "
                   f"{row['p95_ms']:.1f} ms, max {row['max_ms']:.1f} ms per input "
                   f"({row['inputs']} table changes; processor time p50 {row['cpu_p50_ms']:.1f}"
                   f" ms, p95 {row['cpu_p95_ms']:.1f} ms), memory {row['rss_mib']:.0f} MiB,"
                   f" {row['checkpoints']} checkpoints"
                   + (" [game over: inputs change nothing]" if row["game_over"] else ""))
        for name in PRESSES:
            if f"{name}_p50_ms" in row:
                click.echo(f"        {name}: p50 {row[name + '_p50_ms']:.1f} ms, p95 "
                           f"{row[name + '_p95_ms']:.1f} ms, max {row[name + '_max_ms']:.1f} ms"
                           f" (processor p50 {row['cpu_' + name + '_p50_ms']:.1f} ms, p95 "
                           f"{row['cpu_' + name + '_p95_ms']:.1f} ms)")
