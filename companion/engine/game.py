"""`Game`: one game in progress, its log, undo and deterministic replay.

The facade over a ruleset and its state, in the style of python-chess: `legal_moves`,
`check`, `push`, `undo`, `outcome`. `push` never refuses a move: an illegal one that happened
on the table is applied and logged with its violations. Every entry of `log` can be replayed
(`Game.replay`) to the same state, because all chance comes from the config's seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.engine.api import (
    SOURCES,
    GameConfig,
    GameOverError,
    LogEntry,
    Move,
    MoveFormatError,
    NothingToUndoError,
    Outcome,
    Prompt,
    Score,
    Violation,
    blocking,
)
from companion.engine.registry import ruleset_for
from companion.engine.ruleset import Ruleset
from companion.engine.state import GameState
from companion.engine.texts import register_flow


def _ruleset(game_id: str) -> Ruleset:
    """The game's ruleset through the engine's registry hook (filled by companion.games)."""
    return ruleset_for(game_id)


class Game:
    """A game: config, ruleset, current state and the log of every move."""

    def __init__(self, config: GameConfig, ruleset: Ruleset | None = None) -> None:
        self.config = config
        self.ruleset = ruleset or _ruleset(config.game)
        register_flow(self.ruleset.game_id, getattr(self.ruleset, "flow", None))
        self.state: GameState = self.ruleset.setup(config)
        self.setup_chance = tuple(self.state.pending_chance)  # the opening shuffle, etc.
        self.state.pending_chance.clear()
        self.log: list[LogEntry] = []
        self.ended_at: int | None = None
        """The seq of the log entry that ended the game (None while it goes on)."""
        self.positions: list[tuple[int, str, str]] = []
        """(turn, active player, phase) when each log entry was made, in log order."""
        self.card_total = self.state.total_cards()

    @classmethod
    def new(
        cls,
        game_id: str,
        players: Sequence[str] = ("Player 1", "Player 2"),
        decks: Mapping[str, Iterable[str]] | None = None,
        first: str = "p1",
        seed: int = 0,
        setup: Mapping[str, Any] | None = None,
        cards: Iterable[Mapping[str, Any]] = (),
    ) -> Game:
        config = GameConfig(
            game=game_id,
            players=(str(players[0]), str(players[1])),
            decks={k: tuple(v) for k, v in (decks or {}).items()},
            first=first,
            seed=seed,
            setup=setup,
            cards=tuple(cards),
        )
        return cls(config)

    # ------------------------------------------------------------------ moves
    @property
    def legal_moves(self) -> list[Move]:
        if self.state.outcome is not None:
            return []
        return self.ruleset.legal_moves(self.state)

    def legal_moves_for(self, observer: str) -> list[Move]:
        """Legal moves as `observer` may see them: unseen cards in them become "?".

        The engine's placement of unseen cards is a belief, not knowledge; a page must not
        show it. Moves that differ only in unseen cards collapse into one.
        """
        seen: list[Move] = []
        for move in self.legal_moves:
            masked = replace(move, cards=tuple(
                c if c in self.state.public or c not in self.state.where else "?"
                for c in move.cards
            ))
            if masked not in seen:
                seen.append(masked)
        return seen

    def check(self, move: Move) -> list[Violation]:
        """All violations of `move` now (lifted ones included, marked `lifted_by`)."""
        return self.ruleset.check(self.state, move)

    def is_legal(self, move: Move) -> bool:
        return not blocking(self.check(move))

    def push(
        self,
        move: Move,
        source: str = "person",
        decisions: Iterable[str] = (),
        reason_en: str = "",
        reason_de: str = "",
        same_step: bool = False,
    ) -> list[Violation]:
        """Apply `move` (legal or not), log it, and return its violations.

        A move of a kind the game does not have is refused (MoveFormatError): it is no
        table reality, just a malformed request. Once the outcome is known, "next phase" and
        "end turn" are refused too (GameOverError): they lead nowhere. Any other move is
        recorded with `game.over` and changes nothing. `same_step` marks a move seen in the
        same table change as the move that ended the game (legal, changes nothing).
        """
        if source not in SOURCES:
            raise MoveFormatError(f"unknown move source {source!r}; use one of {list(SOURCES)}")
        self.ruleset.require_known(move)
        if self.refuses(move, source):
            outcome = self.state.outcome
            assert outcome is not None
            raise GameOverError(
                f"the game is over ({outcome.reason_en}): "
                f"{self.ruleset.describe(move, 'en')} is not taken"
            )
        same_step = same_step and self.state.outcome is not None
        violations = [] if same_step else self.check(move)
        self.state.pending_chance.clear()
        self.positions.append((self.state.turn, self.state.active, self.state.phase))
        self.ruleset.apply(self.state, move)
        entry = LogEntry(
            seq=len(self.log) + 1,
            move=move,
            source=source,
            violations=tuple(violations),
            decisions=tuple(decisions),
            chance=tuple(self.state.pending_chance),
            reason_en=reason_en,
            reason_de=reason_de,
            same_step=same_step,
        )
        self.state.pending_chance.clear()
        self.log.append(entry)
        if self.ended_at is None and self.state.outcome is not None:
            self.ended_at = entry.seq
        return violations

    PRESSES: tuple[str, ...] = ("next-phase", "pass")

    def refuses(self, move: Move, source: str) -> bool:
        """True when `push` would refuse `move` because the game is over: "next phase" and
        "end turn" lead nowhere then. Anything else is recorded with `game.over`."""
        return self.state.outcome is not None and move.kind in self.PRESSES

    def undo(self) -> LogEntry:
        """Take back the last move (rebuilt by replaying the rest of the log)."""
        if not self.log:
            raise NothingToUndoError("nothing to undo: no move has been made yet")
        last = self.log[-1]
        self.take_back_to(len(self.log) - 1)
        return last

    def take_back_to(self, length: int) -> None:
        """Only the first `length` moves stand (rebuilt by replaying them)."""
        rebuilt = Game.replay(self.log[:length], self.config, self.ruleset)
        self.state, self.log, self.positions = rebuilt.state, rebuilt.log, rebuilt.positions
        self.ended_at = rebuilt.ended_at

    def seen_this_turn(self) -> list[Move]:
        """The moves the active player made in the current turn (not the engine's own
        steps, not phase or turn presses), oldest first."""
        now = (self.state.turn, self.state.active)
        moves: list[Move] = []
        for entry, when in zip(reversed(self.log), reversed(self.positions), strict=True):
            if when[:2] != now:
                break
            if entry.source != "automatic" and entry.move.kind not in ("next-phase", "pass") \
                    and entry.move.player == now[1]:
                moves.append(entry.move)
        return moves[::-1]

    # ------------------------------------------------------------------ reading
    def prompt(self, lang: str = "en") -> Prompt:
        return self.ruleset.prompt(self.state, lang)

    def scores(self) -> dict[str, Score]:
        return self.ruleset.scores(self.state)

    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    def view(self, observer: str = "table") -> dict[str, Any]:
        return self.ruleset.view(self.state, observer)

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def active(self) -> str:
        return self.state.active

    # ------------------------------------------------------------------ record / replay
    def record(self) -> dict[str, Any]:
        """Config and log as JSON-ready data: `Game.replay(record)` rebuilds the game."""
        return {
            "config": self.config.to_dict(),
            "setup_chance": [c.to_dict() for c in self.setup_chance],
            "log": [e.to_dict() for e in self.log],
        }

    @classmethod
    def replay(
        cls,
        log: Mapping[str, Any] | Sequence[LogEntry],
        config: GameConfig | None = None,
        ruleset: Ruleset | None = None,
    ) -> Game:
        """Rebuild a game from a `record()` or from log entries plus their config."""
        if isinstance(log, Mapping):
            config = GameConfig.from_dict(log["config"])
            entries = [LogEntry.from_dict(e) for e in log["log"]]
        else:
            entries = list(log)
        if config is None:
            raise MoveFormatError("replaying log entries needs the game's config")
        game = cls(config, ruleset)
        for entry in entries:
            if game.refuses(entry.move, entry.source):
                continue  # an old recording's press after the end: it changed nothing
            game.push(entry.move, entry.source, entry.decisions, entry.reason_en,
                      entry.reason_de, entry.same_step)
        return game
