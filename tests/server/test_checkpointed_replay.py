"""Checkpoints (issue 34): an undo, redo or correction replays the game from the newest copy
kept before its change. On the real rules engine and a bundled demo game, a session with a
copy every few events must hold exactly the game of a session that replays every time from
the first table, and of one resumed from the file (a replay from the start), after every
one of a random sequence of table changes, decisions, undos and redos."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.engine.game import Game
from companion.record.store import Store
from companion.referee.script import config_from_script
from companion.server.bus import EventBus
from companion.server.engine_referee import EngineReferee
from companion.server.gamedata import card_lookup, layout_dict
from companion.server.live_setup import demo_script_path, header_for
from companion.server.rebuilds import PersonLine
from companion.server.session import ActionError, LiveSession
from companion.sim.script import load_script
from companion.sim.source import script_snapshots

OPS = ("observe", "observe", "corrected", "stands", "undo", "undo", "redo")
SAME = ("table", "status", "violations", "log", "question", "unanswered", "outcome",
        "game_over", "history", "seq", "moves", "facts")


def engine_position(session: LiveSession) -> tuple[Any, ...]:
    """The engine's game: every move on its log with its violations, and the state."""
    game = session.referee.engine  # type: ignore[attr-defined]
    state = game.state
    return (tuple((e.move, e.violations) for e in game.log), state.zones, state.where,
            state.public, state.face_down, state.tapped, state.counters, state.turn,
            state.active, state.phase, state.flags, state.outcome)


def timeless(value: Any) -> Any:
    """`value` without the wall-clock times of recording (two files, two clocks)."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k != "time"}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


@pytest.mark.parametrize("seed", [1, 2])
def test_replay_from_a_checkpoint_is_the_replay_from_the_start(seed: int,
                                                               tmp_path: Path) -> None:
    script = load_script(demo_script_path("creature-crush"))
    tables = script_snapshots(script)
    config = config_from_script(script)
    chance = random.Random(seed)

    def session(db: str, every: int, resume: int | None = None) -> LiveSession:
        return LiveSession(EngineReferee(config), Store(tmp_path / db), EventBus(),
                           header_for(config, "test"), layout_dict(config.game),
                           card_lookup(config.game, config.cards), resume=resume,
                           checkpoint_every=every)

    pair = [session("copies.db", every=7), session("start.db", every=0)]
    for n, table in enumerate(tables[:4]):
        for s in pair:
            s.observe(table.with_seq(n, float(n)))
    for n in range(4, 28):
        op = chance.choice(OPS)
        pick = chance.random()
        for s in pair:
            try:
                if op == "observe":
                    s.observe(tables[-1 - n % 2].with_seq(n, float(n)))
                elif op in ("corrected", "stands"):
                    shown = s.state()["violations"]
                    if shown:
                        s.decide(shown[int(pick * len(shown))]["seq"], op)
                else:
                    getattr(s, op)()
            except ActionError:
                pass  # nothing to undo or redo: refused alike by both
        copies, start = pair
        assert engine_position(copies) == engine_position(start), (n, op)
        mine, theirs = copies.state(), start.state()
        for key in SAME:
            assert timeless(mine[key]) == timeless(theirs[key]), (n, op, key)
    assert copies.checkpoints_kept > 0  # the replays did start from checkpoints
    again = session("copies.db", every=0, resume=copies.game_id)
    assert engine_position(again) == engine_position(copies)


def game_position(game: Game) -> tuple[Any, ...]:
    state = game.state
    return (tuple((e.move, e.source, e.violations, e.chance) for e in game.log), game.positions,
            state.zones, state.where, state.public, state.face_down, state.tapped,
            state.counters, state.turn, state.active, state.phase, state.flags, state.outcome,
            state.rng.getstate())


def test_a_rebuild_from_the_person_line_is_the_fresh_game(tmp_path: Path) -> None:
    """A decision rebuilds the engine's game from the main line: started from the newest copy
    the line shares, the result must be the game of a fresh push of every move, whichever
    move was taken off or put back."""
    script = load_script(demo_script_path("creature-crush"))
    config = config_from_script(script)
    played = LiveSession(EngineReferee(config), Store(tmp_path / "g.db"), EventBus(),
                         header_for(config, "test"), layout_dict(config.game),
                         card_lookup(config.game, config.cards))
    tables = script_snapshots(script)
    for n, table in enumerate(tables + [tables[-2], tables[-1]] * 4):
        played.observe(table.with_seq(n, float(n)))
    moves = [e.move for e in played.referee.engine.log]  # type: ignore[attr-defined]
    assert len(moves) > 20
    line = PersonLine(config, every=4)
    line.extend(moves)
    middle = len(moves) // 2
    for variant in (moves, moves[:middle] + moves[middle + 1:], moves, moves[:-1],
                    moves[:5], moves[:middle] + moves[middle + 2:], moves):
        fresh = Game(config)
        for move in variant:
            fresh.push(move, "person")
        assert game_position(line.rebuilt(variant)) == game_position(fresh)
