"""From two table snapshots to the move(s) that explain the change.

The shared part is the diff: which cards appeared, vanished, moved, turned over, changed
tapping or what they lie on; which dice and tokens changed; what the top of each pile was
before. Each
ruleset turns a diff into *candidate explanations* (`Ruleset.explain`): lists of moves, the
most literal reading last. The interpreter then
- applies the one legal explanation,
- asks a person (a `Question`) when several are legal,
- records the most literal one with its violations when none is legal.
A candidate with a move kind the game does not have is dropped; when the literal reading has
one, nothing is applied and the observation is marked unexplained.
Person inputs (next phase, end turn, declarations) come in as moves through `person`.
Snapshots from a camera and from a table script are the same type, so both run through here.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from typing import Any

from companion.engine.api import Choice, LogEntry, Move, Question, Violation, blocking
from companion.engine.game import Game
from companion.engine.snapshot_diff import SnapshotDiff
from companion.engine.state import GameState
from companion.snapshot import SeenCard, SeenDie, SeenToken, TableSnapshot, is_back

MAX_CANDIDATES = 32
MAX_REORDER = 5


@dataclass
class PileMemory:
    """Tops seen on each pile, in order, so that a pile top going back down is noticed."""

    stacks: dict[str, list[str]] = field(default_factory=dict)

    def update(self, zone: str, top: str | None) -> tuple[bool, list[str]]:
        """Record the new top; return (covered, uncovered uids) relative to the old top."""
        stack = self.stacks.setdefault(zone, [])
        if top is None:
            gone = list(reversed(stack))
            stack.clear()
            return False, gone
        if stack and stack[-1] == top:
            return False, []
        if top in stack:
            index = stack.index(top)
            gone = list(reversed(stack[index + 1:]))
            del stack[index + 1:]
            return False, gone
        covered = bool(stack)
        stack.append(top)
        return covered, []


def diff_snapshots(
    before: TableSnapshot, after: TableSnapshot, piles: frozenset[str] = frozenset(),
    memory: PileMemory | None = None,
) -> SnapshotDiff:
    """Differences between two snapshots; `piles` are zones where only the top is seen."""
    old = {c.uid: c for c in before.cards}
    new = {c.uid: c for c in after.cards}
    appeared, vanished, moved, tapped, untapped, laid_on = [], [], [], [], [], []
    covered: list[SeenCard] = []
    uncovered: list[SeenCard] = []
    for uid, card in new.items():
        prev = old.get(uid)
        if prev is None:
            appeared.append(card)
            continue
        if prev.zone != card.zone:
            moved.append((prev, card))
        if card.tapped and not prev.tapped:
            tapped.append(card)
        if prev.tapped and not card.tapped:
            untapped.append(card)
        if card.on != prev.on and card.on is not None:
            laid_on.append(card)
    for uid, card in old.items():
        if uid not in new:
            vanished.append(card)
    if memory is not None:
        for zone in sorted(piles):
            top = next((c for c in after.cards if c.zone == zone), None)
            was_covered, gone = memory.update(zone, top.uid if top else None)
            if was_covered and top is not None:
                covered.append(top)
            uncovered += [SeenCard(uid=u, zone=zone, face_up=not is_back(u)) for u in gone]
    flipped = [
        c for c in appeared if c.face_up and any(
            is_back(v.uid) and v.zone == c.zone for v in vanished
        )
    ]
    old_dice = {d.die: d for d in before.dice}
    new_dice = {d.die: d for d in after.dice}
    dice = [
        (old_dice.get(name), new_dice.get(name))
        for name in sorted(set(old_dice) | set(new_dice))
        if old_dice.get(name) != new_dice.get(name)
        and _die_key(old_dice.get(name)) != _die_key(new_dice.get(name))
    ]
    old_tokens = {t.token: t for t in before.tokens}
    new_tokens = {t.token: t for t in after.tokens}
    tokens = [
        (old_tokens.get(name), new_tokens.get(name))
        for name in sorted(set(old_tokens) | set(new_tokens))
        if _token_key(old_tokens.get(name)) != _token_key(new_tokens.get(name))
    ]
    return SnapshotDiff(
        appeared=tuple(appeared),
        vanished=tuple(vanished),
        moved=tuple(moved),
        flipped=tuple(flipped),
        tapped=tuple(tapped),
        untapped=tuple(untapped),
        laid_on=tuple(laid_on),
        dice=tuple(dice),
        covered=tuple(covered),
        uncovered=tuple(uncovered),
        tokens=tuple(tokens),
    )


def _token_key(token: SeenToken | None) -> tuple[str, str | None] | None:
    return None if token is None else (token.zone, token.on)


def _die_key(die: SeenDie | None) -> tuple[Any, ...] | None:
    return None if die is None else (die.value, die.zone, die.on)


def candidate_product(slots: list[list[Move]]) -> list[list[Move]]:
    """All ways to pick one alternative per slot (capped), keeping slot order."""
    filled = [s for s in slots if s]
    combos = itertools.islice(itertools.product(*filled), MAX_CANDIDATES)
    return [list(c) for c in combos]


@dataclass(frozen=True)
class Observation:
    """What the interpreter made of one snapshot."""

    entries: tuple[LogEntry, ...] = ()
    question: Question | None = None
    unexplained: bool = False

    @property
    def violations(self) -> list[Violation]:
        return [v for e in self.entries for v in e.violations]

    @property
    def moves(self) -> list[Move]:
        return [e.move for e in self.entries]


def _clone(state: GameState) -> GameState:
    return copy.deepcopy(state, {id(state.catalog): state.catalog})


class Interpreter:
    """Feeds snapshots (camera or script) and person inputs into a `Game`."""

    def __init__(self, game: Game, first: TableSnapshot | None = None) -> None:
        self.game = game
        self.previous = first
        self.memory = PileMemory()
        self.pending: Question | None = None
        self.piles = frozenset(game.ruleset.pile_zones())
        if first is not None:
            diff_snapshots(first, first, self.piles, self.memory)

    def legal_sequence(self, moves: list[Move]) -> bool:
        """True when the moves, applied in order from the current state, are all legal."""
        ruleset = self.game.ruleset
        state = _clone(self.game.state) if len(moves) > 1 else self.game.state
        for i, move in enumerate(moves):
            if blocking(ruleset.check(state, move)):
                return False
            if i + 1 < len(moves):
                ruleset.apply(state, move)
        return True

    def legal_order(self, moves: list[Move]) -> list[Move] | None:
        """The moves in an order in which all are legal (things seen at once happened in
        some order), or None. Small lists only: larger ones are tried as given."""
        if self.legal_sequence(moves):
            return moves
        if len(moves) > MAX_REORDER:
            return None
        for order in itertools.permutations(moves):
            if self.legal_sequence(list(order)):
                return list(order)
        return None

    def observe(
        self, snapshot: TableSnapshot, source: str = "camera", hints: dict[str, Any] | None = None
    ) -> Observation:
        """Explain the change from the previous snapshot and apply it (or ask)."""
        before = self.previous or TableSnapshot(game=snapshot.game)
        diff = diff_snapshots(before, snapshot, self.piles, self.memory)
        self.previous = snapshot
        if diff.empty:
            return Observation()
        ruleset = self.game.ruleset
        candidates = ruleset.explain(self.game.state, diff, hints or {})
        candidates = [c for c in candidates if c]
        if not candidates:
            return Observation()
        known = ruleset.known_kinds
        literal = candidates[-1]
        candidates = [c for c in candidates if all(m.kind in known for m in c)]
        legal = [o for o in (self.legal_order(c) for c in candidates) if o is not None]
        by = (hints or {}).get("player")
        if len(legal) > 1 and by:
            legal = [c for c in legal if all(m.player == by for m in c)] or legal
        if len(legal) == 1:
            return Observation(self._push_all(legal[0], source, "the only legal explanation"))
        if len(legal) > 1:
            self.pending = Question(
                text_en="Several moves explain what happened on the table. Which one was it?",
                text_de="Mehrere Züge erklären, was auf dem Tisch geschah. Welcher war es?",
                choices=tuple(
                    Choice(
                        label_en="; ".join(ruleset.describe(m, "en") for m in c),
                        label_de="; ".join(ruleset.describe(m, "de") for m in c),
                        moves=tuple(c),
                    )
                    for c in legal
                ),
            )
            return Observation(question=self.pending)
        if not candidates or candidates[-1] is not literal:
            return Observation(unexplained=True)  # no move of this game says what happened
        return Observation(
            self._push_all(literal, source, "no legal explanation: recorded as seen"),
            unexplained=True,
        )

    def answer(self, choice: int, source: str = "person") -> Observation:
        """A person picked choice `choice` (0-based) of the pending question."""
        if self.pending is None:
            return Observation()
        picked = self.pending.choices[choice]
        self.pending = None
        return Observation(self._push_all(list(picked.moves), source, "chosen by a person"))

    def person(self, move: Move) -> Observation:
        """A person's input (phase button, end turn, declaration) as a move."""
        self.game.push(move, "person")
        return Observation((self.game.log[-1],))

    def _push_all(self, moves: list[Move], source: str, why: str) -> tuple[LogEntry, ...]:
        entries = []
        for move in moves:
            self.game.push(move, source, (why,))
            entries.append(self.game.log[-1])
        return tuple(entries)
