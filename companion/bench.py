"""`companion bench ...`: the measured speed and accuracy targets, one verb per part."""

from __future__ import annotations

import click

from companion.lazy_group import LazyGroup

BENCHES: dict[str, tuple[str, str]] = {
    "vision": ("companion.benchmarks.vision:bench_vision",
               "The eye on every simulated camera: recall, dice, wrong ids, fps."),
    "unread": ("companion.benchmarks.unread:bench_unread",
               "Cards a camera sees but cannot read: found as not yet identified, false ones."),
    "engine": ("companion.benchmarks.engine:bench_engine", "Check/apply latency and replay speed."),
    "page": ("companion.server.bench:bench_page", "Settled table to page latency, memory."),
    "long-game": ("companion.server.long_bench:bench_long_game",
                  "Cost of one input and memory as the game's log grows."),
    "slow-clients": ("companion.server.slow_bench:bench_slow_clients",
                     "Slowloris and unread streams from one address: does the page answer?"),
    "e2e": ("companion.benchmarks.e2e:bench_e2e",
            "Whole games at realistic cameras: violations, final state, questions."),
    "hall": ("companion.hall.bench:bench_hall", "Tables -> NATS -> hall page: lag, faults."),
    "battery": ("companion.benchmarks.battery:bench_battery",
                "CPU on a still table and a laid card's read, motion gate on and off."),
}


@click.group(cls=LazyGroup, lazy_subcommands=BENCHES)
def bench() -> None:
    """Benchmarks that check the speed and accuracy targets (the headline figures go in the
    README, every table in docs/benchmarks.md)."""
