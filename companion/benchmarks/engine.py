"""`companion bench engine`: check/apply latency, replay speed and interpretation per snapshot.

Random games by a seeded random player (legal moves only, like a real game): the latency of
`Game.check` and of `Game.push` per move (targets: p99 < 1 ms), and the time to replay
10,000 logged events (target: < 1 s). Interpretation: each game's bundled opening read from
its snapshots as a camera would give them, with the script's declarations but no phase or
turn presses (the engine infers those): the time of each `Interpreter.observe` and
`Interpreter.person` call (target: p99 < 1 ms per snapshot).
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


INTERPRET_ROUNDS = 20
"""Times each opening is read (a round is a whole game from its first snapshot)."""


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
    snapshots: int = 0
    interpret_p50_ms: float = 0.0
    interpret_p99_ms: float = 0.0
    interpret_cpu_p99_ms: float = 0.0
    """The same in this process's CPU time: on a machine shared with other work the wall
    clock also counts the time other processes had the CPU."""
    inferred: int = 0

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


def interpret_opening(game_id: str, times: list[float], cpu: list[float] | None = None) -> int:
    """Read `game_id`'s bundled opening from its snapshots, timing every call that a
    snapshot or a declaration makes; returns the ends of phases the engine inferred."""
    from pathlib import Path

    from companion.engine.interpreter import Interpreter
    from companion.referee.script import config_from_script, declared_moves, resolve_refs
    from companion.sim.script import load_script
    from companion.sim.table_state import truth_tables, visible_snapshot

    path = Path(__file__).resolve().parent.parent / "sim" / "scripts" / game_id / "opening.yaml"
    script = load_script(path)
    tables = truth_tables(script)
    shots = [visible_snapshot(t, i, float(i)) for i, t in enumerate(tables)]
    game = Game(config_from_script(script))
    interpreter = Interpreter(game, shots[0])
    for step, shot in zip(script.steps, shots[1:], strict=True):
        declare = dict(step.declare)
        hand = list(tables[step.index - 1].hand(str(declare.get("player", game.active))))
        t0, c0 = time.perf_counter(), time.process_time()
        for move in declared_moves(game, declare, hand):
            interpreter.person(resolve_refs(game, move))
        seen = interpreter.observe(shot, "camera", declare)
        if seen.question is not None:
            interpreter.answer(min(int(declare.get("choice", 0)),
                                   len(seen.question.choices) - 1))
        times.append((time.perf_counter() - t0) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c0) * 1000)
    return sum(1 for e in game.log if e.source == "automatic")


def measure(game_id: str, events: int = REPLAY_EVENTS,
            rounds: int = INTERPRET_ROUNDS) -> EngineFigures:
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
    interpret_times: list[float] = []
    interpret_cpu: list[float] = []
    inferred = 0
    for _ in range(rounds):
        inferred = interpret_opening(game_id, interpret_times, interpret_cpu)
    return EngineFigures(
        game=game_id,
        moves=len(apply_times),
        check_p50_ms=round(statistics.median(check_times), 4),
        check_p99_ms=round(_percentile(check_times, 0.99), 4),
        apply_p50_ms=round(statistics.median(apply_times), 4),
        apply_p99_ms=round(_percentile(apply_times, 0.99), 4),
        replay_events=total,
        replay_s=round(replay_s, 3),
        snapshots=len(interpret_times),
        interpret_p50_ms=round(statistics.median(interpret_times), 4) if interpret_times else 0,
        interpret_p99_ms=round(_percentile(interpret_times, 0.99), 4),
        interpret_cpu_p99_ms=round(_percentile(interpret_cpu, 0.99), 4),
        inferred=inferred,
    )


@click.command("engine")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--game", "games", multiple=True, help="Only these games (default: all with rules).")
@click.option("--events", default=REPLAY_EVENTS, show_default=True, help="Events to replay.")
@click.option("--rounds", default=INTERPRET_ROUNDS, show_default=True,
              help="Times each opening is read from its snapshots.")
def bench_engine(as_json: bool, games: tuple[str, ...], events: int, rounds: int) -> None:
    """Check/apply latency p50/p99 (target < 1 ms p99), replay of 10,000 events (< 1 s),
    and reading a whole opening from snapshots without presses (p99 < 1 ms per snapshot)."""
    figures = [measure(g, events, rounds) for g in (games or tuple(RULESETS))]
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
        ok_read = f.interpret_p99_ms < 1
        click.echo(
            f"{f.game}: opening read from {f.snapshots} snapshots without presses "
            f"({f.inferred} ends of phases inferred per game); per snapshot p50 "
            f"{f.interpret_p50_ms} ms p99 {f.interpret_p99_ms} ms (CPU time p99 "
            f"{f.interpret_cpu_p99_ms} ms) [{'ok' if ok_read else 'SLOW'}]"
        )
