"""Live sessions on the real engine driven step by step from a bundled table script.

No camera and no clock: each script step's visible table goes to `LiveSession.observe` and
what a person would press (phase, declarations, end of turn, answers) goes through the same
session calls as the page's buttons. Browser tests use this to reach a game position, then
check what the page shows against `session.state()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine.api import Move
from companion.server.feeds import SnapshotFeed
from companion.server.live_setup import Live, build_live, scripts_dir
from companion.server.session import LiveSession


@dataclass
class ScriptedTable:
    live: Live
    script: Any
    snapshots: list[Any]
    truth: list[Any]
    done: int = 0
    asked: list[dict[str, Any]] = field(default_factory=list)
    """Every question the page was asked, as it showed it, before the script answered it."""

    @property
    def session(self) -> LiveSession:
        return self.live.session

    def engine(self) -> Any:
        return self.session.referee.engine  # type: ignore[attr-defined]

    def step(self, answer: bool = True) -> bool:
        """Play the next script step; False when the script is over. With `answer` False, a
        question the step raises stays open (the rest of the step waits for its answer)."""
        from companion.referee.script import declared_moves, resolve_refs

        if self.done >= len(self.script.steps):
            return False
        i = self.done
        step = self.script.steps[i]
        session = self.session
        if isinstance(step.phase, str):
            for _ in range(12):
                game = self.engine()
                if game.phase == step.phase or game.outcome() is not None:
                    break
                session.act("next-phase")
        declare = dict(step.declare)
        game = self.engine()
        player = str(declare.get("player", game.active))
        hand = list(self.truth[i].hand(player))
        moves = tuple(resolve_refs(game, m) for m in declared_moves(game, declare, hand))
        if moves:
            session.person_moves(moves)
        hints = getattr(session.referee, "hints", None)
        if isinstance(hints, dict):
            hints.clear()
            hints.update(declare)
        session.observe(self.snapshots[i + 1])
        question = session.state()["question"]
        if question is not None:
            self.asked.append(question)
            if not answer:
                return True
            choice = min(int(declare.get("choice", 0)), len(question["choices"]) - 1)
            session.answer(question["seq"], choice)
        if step.phase is True:
            session.act("next-phase")
        if step.pass_turn:
            session.act("pass")
        self.done += 1
        return True

    def play(self, steps: int | None = None) -> None:
        for _ in range(len(self.script.steps) if steps is None else steps):
            if not self.step():
                break

    def illegal(self) -> Move | None:
        """A move the rules refuse right now (the ruleset's own examples), or None."""
        game = self.engine()
        for move in game.ruleset.illegal_examples(game.state):
            try:
                game.ruleset.require_known(move)
            except ValueError:
                continue
            named = [*move.cards, *([move.target] if move.target else [])]
            if any(c != "?" and c not in game.state.where for c in named):
                continue  # a made-up card: the camera never reports one
            if move.kind not in ("next-phase", "pass") and game.check(move):
                return move
        real = sorted(u for u in game.state.public if u in game.state.where)
        for move in game.ruleset.illegal_examples(game.state):  # made-up cards made real
            if move.kind in ("next-phase", "pass") or not real:
                continue
            swap = {c: real[i % len(real)] for i, c in enumerate(move.cards)
                    if c != "?" and c not in game.state.where}
            if not swap:
                continue
            try:
                game.ruleset.require_known(move)
            except ValueError:
                continue
            fixed = Move(move.kind, move.player, tuple(swap.get(c, c) for c in move.cards),
                         move.to, None if move.target and move.target not in game.state.where
                         else move.target, move.value, move.options)
            if game.check(fixed):
                return fixed
        for move in game.legal_moves:  # a legal move made by the player not at turn
            other = "p2" if move.player == "p1" else "p1"
            swapped = Move(move.kind, other, move.cards, move.to, move.target, move.value,
                           move.options)
            if move.kind not in ("next-phase", "pass") and game.check(swapped):
                return swapped
        return None


def script_path(game: str, name: str = "opening") -> Path:
    return scripts_dir() / game / f"{name}.yaml"


@contextmanager
def scripted(game: str, db: Path, name: str = "opening", source: Path | None = None
             ) -> Iterator[ScriptedTable]:
    """The bundled script `name` of `game` (or the script file `source`) at a live session."""
    from companion.referee.script import config_from_script
    from companion.sim.script import load_script
    from companion.sim.table_state import snapshots, truth_tables

    script = load_script(source or script_path(game, name))
    live = build_live(config_from_script(script), SnapshotFeed([]), db, f"test: {name}",
                      app_config={"HEARTBEAT_S": 0.5})
    table = ScriptedTable(live, script, snapshots(script), truth_tables(script))
    live.session.observe(table.snapshots[0])
    try:
        yield table
    finally:
        live.session.close()
        live.session.bus.close()
        live.store.close()
