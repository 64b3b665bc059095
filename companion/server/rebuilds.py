"""The engine's game rebuilt from a line of moves without pushing the whole line again.

A decision that takes a move off the main line (or puts it back) rebuilds the engine's game
from the line: every move pushed as a person's into a fresh game (issue 34: 0.5 s at 10,000
events). `PersonLine` keeps that game for the moves seen so far, grown move by move as play
goes on, with a copy every `every` moves; a rebuild starts from the newest copy whose moves
its line begins with and pushes only the rest. The result is the fresh game's, move for move:
a game's state follows from its config and its moves alone.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from companion.engine.api import GameConfig, Move
from companion.engine.game import Game
from companion.errors import CompanionError

REBUILD_EVERY = 50
"""Moves between two copies: a rebuild pushes at most about this many after the last shared
one."""


class PersonLine:
    """A game with `moves` pushed as a person's from the first, and copies along the way."""

    def __init__(self, config: GameConfig, every: int = REBUILD_EVERY) -> None:
        self.config = config
        self.every = every
        self.moves: list[Move] = []
        self.game = Game(config)
        self.copies: list[tuple[int, Game]] = []
        """(how many of `moves`, the game after them), oldest first; never changed."""
        self.current = True
        """False once the moves of play went a way the line cannot follow (a move the engine
        refused, the game taking moves back): the line waits for the next rebuild."""

    def extend(self, moves: Iterable[Move]) -> None:
        """Play went on with `moves`."""
        if not self.current:
            return
        try:
            for move in moves:
                self._push(self.game, move)
        except (CompanionError, ValueError):
            self.current = False

    def stop(self) -> None:
        """Play went a way the line cannot follow."""
        self.current = False

    def rebuilt(self, moves: Sequence[Move]) -> Game:
        """A fresh game with `moves` pushed as a person's (errors as such a push raises);
        the line goes on from it."""
        shared = shared_prefix(moves, self.moves) if self.current else 0
        self.copies = [(n, g) for n, g in self.copies if n <= shared]
        game = copy_game(self.copies[-1][1]) if self.copies else Game(self.config)
        self.moves = self.moves[:self.copies[-1][0]] if self.copies else []
        self.current = True
        try:
            for move in moves[len(self.moves):]:
                self._push(game, move)
        except BaseException:
            self.current = False
            raise
        self.game = copy_game(game)
        self.moves = list(moves)  # (the same moves: the next rebuild compares them quickest)
        return game

    def _push(self, game: Game, move: Move) -> None:
        game.push(move, "person")
        self.moves.append(move)
        if self.every > 0 and len(self.moves) % self.every == 0:
            self.copies.append((len(self.moves), copy_game(game)))

    def __deepcopy__(self, memo: dict[int, Any]) -> PersonLine:
        """A copy for a checkpoint: the copies along the line never change, they are
        shared; the growing game is copied."""
        other = PersonLine.__new__(PersonLine)
        other.config, other.every, other.current = self.config, self.every, self.current
        other.moves = list(self.moves)
        other.copies = list(self.copies)
        other.game = copy_game(self.game)
        return other


def shared_prefix(first: Sequence[Any], second: Sequence[Any]) -> int:
    """How many leading items `first` and `second` share (the same object or equal). The
    halves are compared as slices, item by item in C (an object is equal to itself at once):
    a line of thousands of moves costs microseconds, not a loop in Python."""
    length = min(len(first), len(second))
    if list(first[:length]) == list(second[:length]):
        return length
    low, high = 0, length  # first[:low] == second[:low]; first[:high] differs
    while high - low > 1:
        middle = (low + high) // 2
        if list(first[low:middle]) == list(second[low:middle]):
            low = middle
        else:
            high = middle
    return low


def copy_game(game: Game) -> Game:
    """An independent copy of `game` that shares what never changes once made (config, rules,
    card catalog, the log's entries): a pointer per log entry, not the entries. Its random
    source is copied where it stands (the original goes on drawing from its own)."""
    copied = copy.copy(game)
    copied.state = game.state.clone()
    copied.state.rng = copy.deepcopy(game.state.rng)
    copied.log = list(game.log)
    copied.positions = list(game.positions)
    return copied
