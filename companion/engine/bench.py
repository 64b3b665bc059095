"""`companion bench engine`: check/apply latency and replay speed of every ruleset.

Random games by a seeded random player (legal moves only, like a real game): the latency of
`Game.check` and of `Game.push` per move (targets: p99 < 1 ms), and the time to replay
10,000 logged events (target: < 1 s).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import dataclass

import click

from companion.engine.api import LogEntry
from companion.engine.game import Game
from companion.games import RULESETS

REPLAY_EVENTS = 10_000
MAX_MOVES_PER_GAME = 1_500


@dataclass
class EngineFigures:
    game: str
    moves: int
    check_p50_ms: float
    check_p99_ms: float
    apply_p50_ms: float
    apply_p99_ms: float
    replay_events: int
    replay_s: float

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return ordered[index]


def random_game(game_id: str, seed: int, check_times: list[float],
                apply_times: list[float]) -> Game:
    """Play one game with a seeded random player, timing every check and push."""
    game = Game.new(game_id, seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_MOVES_PER_GAME):
        moves = game.legal_moves
        if not moves:
            break
        move = rng.choice(moves)
        t0 = time.perf_counter()
        game.check(move)
        t1 = time.perf_counter()
        game.push(move, "automatic")
        t2 = time.perf_counter()
        check_times.append((t1 - t0) * 1000)
        apply_times.append((t2 - t1) * 1000)
    return game


def measure(game_id: str, events: int = REPLAY_EVENTS) -> EngineFigures:
    check_times: list[float] = []
    apply_times: list[float] = []
    logs: list[tuple[Game, list[LogEntry]]] = []
    total = 0
    seed = 0
    while total < events:
        game = random_game(game_id, seed, check_times, apply_times)
        logs.append((game, list(game.log)))
        total += len(game.log)
        seed += 1
    t0 = time.perf_counter()
    for game, log in logs:
        Game.replay(log, game.config, game.ruleset)
    replay_s = time.perf_counter() - t0
    return EngineFigures(
        game=game_id,
        moves=len(apply_times),
        check_p50_ms=round(statistics.median(check_times), 4),
        check_p99_ms=round(_percentile(check_times, 0.99), 4),
        apply_p50_ms=round(statistics.median(apply_times), 4),
        apply_p99_ms=round(_percentile(apply_times, 0.99), 4),
        replay_events=total,
        replay_s=round(replay_s, 3),
    )


@click.command("engine")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--game", "games", multiple=True, help="Only these games (default: all with rules).")
@click.option("--events", default=REPLAY_EVENTS, show_default=True, help="Events to replay.")
def bench_engine(as_json: bool, games: tuple[str, ...], events: int) -> None:
    """Check/apply latency p50/p99 (target < 1 ms p99) and replay of 10,000 events (< 1 s)."""
    figures = [measure(g, events) for g in (games or tuple(RULESETS))]
    if as_json:
        click.echo(json.dumps([f.to_dict() for f in figures], indent=2))
        return
    for f in figures:
        ok_latency = f.check_p99_ms < 1 and f.apply_p99_ms < 1
        ok_replay = f.replay_s < 1 or f.replay_events < events
        click.echo(
            f"{f.game}: {f.moves} moves; check p50 {f.check_p50_ms} ms p99 {f.check_p99_ms} ms; "
            f"apply p50 {f.apply_p50_ms} ms p99 {f.apply_p99_ms} ms "
            f"[{'ok' if ok_latency else 'SLOW'}]; replay of {f.replay_events} events "
            f"{f.replay_s} s [{'ok' if ok_replay else 'SLOW'}]"
        )
