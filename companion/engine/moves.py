"""A game's moves as declared data: one row per kind, run by the engine.

Each game lists its move kinds once in a `MoveTable`: for every kind the function that checks
a move of it, the function that applies it, its English and German texts and the phases it
belongs to. The `Ruleset` runs the table (`check_specific`, `apply_specific`, `describe`,
`move_kinds`), so a kind cannot be half there (a check without an apply, a kind without its
words) and nothing is looked up by method name.

A kind outside its declared phases gets the game's wrong-phase violation (or what its
`off_phase` says a move of that kind there is instead) without running its check. The three
games with a setup phase (Trick or Beat's draft, Fire Emblem's and My Little Pony's setup)
each refused the turn's moves there this way by hand; now their tables say it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.engine.api import Move, MoveFormatError, Violation
from companion.engine.rule_helpers import RuleChecks
from companion.engine.state import GameState

R = TypeVar("R")
"""The game's ruleset class: a rule's functions are its methods, called with the instance."""

Check = Callable[[R, GameState, Move], list[Violation]]
Apply = Callable[[R, GameState, Move], None]


class MoveTableError(ValueError):
    """A game's move table is malformed (found when the game's module loads)."""


@dataclass(frozen=True)
class MoveRule(Generic[R]):
    """One move kind of a game: how it is checked, applied and said, and when it belongs."""

    kind: str
    check: Check[R]
    """The violations of a move of this kind (empty: legal); runs only inside `phases`."""
    apply: Apply[R]
    """Apply a move of this kind, legal or not (the table is what it is)."""
    en: str
    """The English text template (`Move.describe`: {player}, {cards}, {to}, {value} ...)."""
    de: str
    """The German text template."""
    phases: tuple[str, ...] = ()
    """The phases a move of this kind may happen in; empty: any phase (the check decides)."""
    off_phase: Check[R] | None = None
    """What a move of this kind outside `phases` is, when not the game's plain wrong-phase
    violation (Fire Emblem: "only during the setup")."""


class MoveTable(Generic[R]):
    """A game's own move kinds (besides the core's next-phase, pass, concede, declare)."""

    def __init__(self, *rules: MoveRule[R], checks: RuleChecks | None = None) -> None:
        """`checks` give the game's wrong-phase violation (needed when a rule has `phases`)."""
        self._rules: dict[str, MoveRule[R]] = {}
        for rule in rules:
            if rule.kind in self._rules:
                raise MoveTableError(f"move kind {rule.kind!r} is declared twice")
            if not rule.en.strip() or not rule.de.strip():
                raise MoveTableError(f"move kind {rule.kind!r} needs an English and a German "
                                     "text")
            if rule.phases and rule.off_phase is None and (checks is None
                                                           or not checks.wrong_phase):
                raise MoveTableError(f"move kind {rule.kind!r} has phases but the table no "
                                     "wrong-phase violation")
            self._rules[rule.kind] = rule
        self.checks = checks

    def __iter__(self) -> Iterator[MoveRule[R]]:
        return iter(self._rules.values())

    def __contains__(self, kind: object) -> bool:
        return kind in self._rules

    @property
    def kinds(self) -> tuple[str, ...]:
        """The declared kinds, in declaration order."""
        return tuple(self._rules)

    @property
    def texts(self) -> dict[str, tuple[str, str]]:
        """Kind -> (English, German) text template."""
        return {rule.kind: (rule.en, rule.de) for rule in self}

    def rule(self, kind: str) -> MoveRule[R]:
        """The rule of `kind`; a kind the game does not have is a MoveFormatError."""
        try:
            return self._rules[kind]
        except KeyError:
            raise MoveFormatError(
                f"no move {kind!r} in this game; its moves: {', '.join(sorted(self._rules))}"
            ) from None

    def check(self, rules: R, state: GameState, move: Move) -> list[Violation]:
        """The violations of `move`: wrong phase, or what its kind's check finds."""
        rule = self.rule(move.kind)
        if rule.phases and state.phase not in rule.phases:
            if rule.off_phase is not None:
                return rule.off_phase(rules, state, move)
            assert self.checks is not None  # the constructor makes sure
            return self.checks.in_phase(state, move, *rule.phases)
        return rule.check(rules, state, move)

    def apply(self, rules: R, state: GameState, move: Move) -> None:
        """Apply `move` with its kind's apply (in any phase: the table is what it is)."""
        self.rule(move.kind).apply(rules, state, move)


__all__ = ["Apply", "Check", "MoveRule", "MoveTable", "MoveTableError"]
