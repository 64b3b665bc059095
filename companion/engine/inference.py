"""Phase and turn inference: the ends of phases and turns that what was seen implies.

Nobody presses "next phase" at a real table. When the camera sees something that is legal
only later (a summon while the game is still in the start phase, the other player's draw, an
attack, a roll), the players have moved on. The search is the same for every game and reads
only the flow spec and the rules' own checks:

- from the current state, end phases one by one as a press would (`next-phase`, running each
  phase's hooks), but only while ending the phase is itself legal (its `end_check` is met:
  a player who still owes a draw has not moved on) and never past the end of the opponent's
  next turn;
- at each of those states ask the game again what the table change means
  (`Ruleset.explain`: the same draw reads as the other player's draw once it is their turn),
  and walk each reading: a move that is not legal yet may be preceded by further ends of
  phases (one table change can span two phases);
- keep the readings with the fewest inferred ends. None: the change is a real violation and
  is recorded as seen, where it happened. One: it is applied, each inferred end logged as
  its own automatic step with its reason. Several: a person is asked.

A phase's declared `moves` (PhaseSpec.moves) let the walk skip phases where a move kind cannot
happen without asking the rules; kinds no phase declares are tried everywhere.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.api import Move, blocking
from companion.engine.ruleset import Ruleset
from companion.engine.state import GameState

MAX_ADVANCES = 16
"""Ends of phases searched at most (the horizon is the end of the opponent's next turn)."""
MAX_REORDER = 3
"""Readings of up to this many moves are also tried in other orders when phases must end
between them."""

Explain = Callable[[GameState], list[list[Move]]]
Automatic = Callable[[GameState, GameState], bool]


@dataclass(frozen=True)
class PlannedStep:
    """One step of a reading: a seen move, or an end of phase the engine inferred."""

    move: Move
    automatic: bool = False
    reason_en: str = ""
    reason_de: str = ""
    same_step: bool = False
    turn_to: str | None = None
    """For an inferred end that began a turn: whose turn it began."""
    phase: str = ""
    """The phase the step happens in (filled for plans with inferred ends)."""


@dataclass(frozen=True)
class Plan:
    """A legal reading of one table change, with the inferred ends of phases before moves."""

    steps: tuple[PlannedStep, ...]

    @property
    def advances(self) -> int:
        return sum(1 for s in self.steps if s.automatic)

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(s.move for s in self.steps)

    @property
    def seen(self) -> tuple[Move, ...]:
        return tuple(s.move for s in self.steps if not s.automatic)

    @property
    def seen_in(self) -> tuple[tuple[Move, str], ...]:
        """The seen moves with the phase each happens in."""
        return tuple((s.move, s.phase) for s in self.steps if not s.automatic)

    @property
    def admissible(self) -> bool:
        """Every end it infers is followed by a move of the player who moved on: another
        player's move is no sign that the active player's phase or turn ended."""
        return _evidenced(self, set(range(len(self.seen))))


class Inference:
    """The search of this module for one ruleset (stateless, deterministic)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.phase_moves = {
            p.id: frozenset(p.moves)
            for p in (*ruleset.flow.spec.setup_phases, *ruleset.flow.spec.turn_phases)
        }
        self.declared = frozenset(k for kinds in self.phase_moves.values() for k in kinds)
        self._memo: tuple[Any, ...] | None = None

    # ------------------------------------------------------------------ the search
    def plans(self, state: GameState, explain: Explain, max_advances: int = MAX_ADVANCES,
              automatic: Automatic | None = None, at_least: int = 0) -> list[Plan]:
        """The legal readings with the fewest inferred ends of phases (0 = legal as it is).

        A reading may be empty once phases have ended, when their own automatic steps (a
        start phase untapping, a forced march) did what the camera saw: `automatic(before,
        after)` says whether the steps from state `before` to `after` changed everything
        the camera saw change. `at_least`: only readings with at least that many ends."""
        best: int | None = None
        found: list[Plan] = []
        seen: set[tuple[str, ...]] = set()
        horizon = state.turn + 1
        for k, (here, ends, given) in enumerate(self._read(state, explain, max_advances)):
            if best is not None and k > best:
                break
            readings = [r for r in given if r]
            if k and len(readings) < len(given) and automatic is not None \
                    and automatic(state, here):
                readings = [[]]  # the automatic steps of the phases passed show it all
            for reading in readings:
                if not self._has_place(here, reading):
                    continue  # these moves have no place in this phase
                budget = (max_advances if best is None else best) - k
                if not self._spans_phases(reading):
                    budget = 0  # all in one phase: the ends of phases before it are the k
                walked = self._walk_orders(here, reading, budget, horizon)
                if walked is None:
                    continue
                total = k + sum(1 for s in walked if s.automatic)
                if total < at_least:
                    continue
                plan = Plan((*ends, *walked))
                if reading and not plan.admissible:
                    continue
                if best is None or total < best:
                    best, found, seen = total, [], set()
                same = tuple(sorted(repr(m) for m in plan.seen))  # order of ends aside
                if total == best and same not in seen:
                    seen.add(same)
                    found.append(plan)
        return [self.reasoned(state, p) for p in found]

    def least_broken(self, state: GameState, explain: Explain,
                     max_advances: int = MAX_ADVANCES) -> Plan | None:
        """When no reading is legal: the reading that breaks the fewest rules once the
        players have moved on, if that is fewer than where the game stands (a new turn that
        begins with a wrong roll still began). None when moving on does not help.

        An inferred end of turn needs a legal move of the new player as its evidence."""
        best: tuple[tuple[int, int], Plan] | None = None
        for k, (here, ends, given) in enumerate(self._read(state, explain, max_advances)):
            for reading in given:
                plan = Plan((*ends, *(PlannedStep(m) for m in reading)))
                if k and here.outcome is not None and state.outcome is None:
                    # the phases passed ended the game (a score phase reached 15 points):
                    # the other player's move shows that they did, and comes after the end
                    if reading and all(m.player != state.active for m in reading):
                        best = ((0, k), plan) if best is None or (0, k) < best[0] else best
                    continue
                if k and not self._has_place(here, reading):
                    continue  # these moves have no place in this phase
                broken, legal = self._broken(here, reading)
                if not _evidenced(plan, legal):
                    continue
                if best is None or (broken, k) < best[0]:
                    best = ((broken, k), plan)
        if best is None or best[0][1] == 0:
            return None
        return self.reasoned(state, best[1])

    def phase_of(self, state: GameState, move: Move) -> Plan | None:
        """A person's word that the active player makes `move`, whose kind the flow spec
        places in a later phase of this turn: the ends of phases up to there (each legal),
        then the move, legal or not. None when the kind has its place here already, none
        later in this turn, or the phase cannot end."""
        if move.kind not in self.declared or move.player != state.active:
            return None
        if move.kind in self.phase_moves.get(state.phase, frozenset()):
            return None
        for here, ends in self.advanced(state, MAX_ADVANCES, state.turn):
            if ends and move.kind in self.phase_moves.get(here.phase, frozenset()):
                return self.reasoned(state, Plan((*ends, PlannedStep(move))))
        return None

    def turn_of(self, state: GameState, player: str, move: Move) -> Plan | None:
        """A person's word that `player` (not the active player) makes `move`: the ends of
        phases up to the start of their turn, then the move (legal or not). None when the
        active player cannot have ended the turn."""
        horizon = state.turn + 1
        for here, ends in self.advanced(state, MAX_ADVANCES, horizon):
            if here.active == player and ends:
                return self.reasoned(state, Plan((*ends, PlannedStep(move))))
        return None

    def _broken(self, state: GameState, reading: list[Move]) -> tuple[int, set[int]]:
        """Rules broken by `reading` applied in order from `state`, and the indexes of its
        legal moves."""
        work = state.clone()
        broken = 0
        legal: set[int] = set()
        for i, move in enumerate(reading):
            if work.outcome is not None:
                legal.add(i)
                continue
            found = len(blocking(self.ruleset.check(work, move)))
            broken += found
            if not found:
                legal.add(i)
            self.ruleset.apply(work, move)
        return broken, legal

    def _read(self, state: GameState, explain: Explain, limit: int
              ) -> Iterator[tuple[GameState, tuple[PlannedStep, ...], list[list[Move]]]]:
        """The states `advanced` reaches, each with what `explain` reads there; one table
        change is read once for both searches (`plans`, then `least_broken`). The states
        are never changed: readings are tried on copies."""
        memo = self._memo
        if memo is None or memo[0] is not state or memo[1] is not explain or memo[2] != limit:
            chain = self.advanced(state, limit, state.turn + 1)
            memo = self._memo = (state, explain, limit, [], chain)
        done, chain = memo[3], memo[4]
        i = 0
        while True:
            if i < len(done):
                yield done[i]
            else:
                step = next(chain, None)
                if step is None:
                    return
                here, ends = step
                done.append((here, ends, explain(here)))
                yield done[i]
            i += 1

    def advanced(self, state: GameState, limit: int, horizon: int
                 ) -> Iterator[tuple[GameState, tuple[PlannedStep, ...]]]:
        """The state itself, then the states after ending 1, 2, ... phases (each end legal,
        never past turn `horizon`), each with the ends taken."""
        yield state, ()
        here = state
        ends: tuple[PlannedStep, ...] = ()
        for _ in range(limit):
            end = self.end_of_phase(here, horizon)
            if end is None:
                return
            turn = here.turn
            here = here.clone()
            self.ruleset.apply(here, end)
            began = here.active if here.turn != turn else None
            ends = (*ends, PlannedStep(end, automatic=True, turn_to=began))
            yield here, ends

    def end_of_phase(self, state: GameState, horizon: int) -> Move | None:
        """The press that ends the current phase, when it is legal and stays in the horizon."""
        if state.outcome is not None:
            return None
        end = Move("next-phase", state.active)
        if blocking(self.ruleset.check(state, end)):
            return None
        spec = self.ruleset.flow.phase(state.phase)
        phases = self.ruleset.flow.spec.turn_phases
        last = bool(phases) and spec is phases[-1]
        if last and state.turn + 1 > horizon:
            return None
        return end

    def _walk_orders(self, state: GameState, reading: list[Move], budget: int, horizon: int
                     ) -> list[PlannedStep] | None:
        walked = self.walk(state, reading, 0, horizon)
        if walked is not None:
            return walked
        orders: list[tuple[Move, ...]] = []
        if 1 < len(reading) <= MAX_REORDER:
            orders = list(itertools.permutations(reading))[1:]
        for order in orders:
            walked = self.walk(state, list(order), 0, horizon)
            if walked is not None:
                return walked
        if budget <= 0:
            return None
        # things seen at once happened in some order, across phases too (a bond laid, then
        # the phase ended and a unit deployed with it): the order needing fewest ends wins
        best: list[PlannedStep] | None = None
        for order in [tuple(reading), *orders]:
            walked = self.walk(state, list(order), budget, horizon)
            if walked is not None and (best is None or _ends(walked) < _ends(best)):
                best = walked
        return best

    def walk(self, state: GameState, moves: list[Move], budget: int, horizon: int
             ) -> list[PlannedStep] | None:
        """`moves` in order from `state`, each preceded by as few ends of phases as make it
        legal (at most `budget` in all); None when one stays illegal. Moves after one that
        ended the game belong to the winning step."""
        ruleset = self.ruleset
        work = state
        private = False
        steps: list[PlannedStep] = []
        over = state.outcome is not None  # moves after an earlier end are no winning step
        for i, move in enumerate(moves):
            if work.outcome is not None and not over:
                if blocking(ruleset.check(_unended(work), move)):
                    return None  # not legal even had the game gone on
                steps.append(PlannedStep(move, same_step=True))
                continue
            moved_on = False
            while ((moved_on and not self._may_happen(work, move))
                   or blocking(ruleset.check(work, move))):
                moved_on = True
                end = self.end_of_phase(work, horizon) if budget > 0 else None
                if end is None:
                    return None
                if not private:
                    work, private = work.clone(), True
                turn = work.turn
                ruleset.apply(work, end)
                began = work.active if work.turn != turn else None
                steps.append(PlannedStep(end, automatic=True, turn_to=began))
                budget -= 1
            steps.append(PlannedStep(move))
            if i + 1 < len(moves):
                if not private:
                    work, private = work.clone(), True
                ruleset.apply(work, move)
        return steps

    def _evidence(self, phase: str, later: tuple[PlannedStep, ...]) -> Move | None:
        """The seen move that shows `phase` is over: the first that has no place in it
        (by the flow spec's moves), else the first seen move."""
        seen = [s.move for s in later if not s.automatic]
        allowed = self.phase_moves.get(phase, frozenset())
        return next((m for m in seen if m.kind in self.declared and m.kind not in allowed),
                    seen[0] if seen else None)

    def _has_place(self, state: GameState, reading: list[Move]) -> bool:
        """Whether the flow spec lets `reading` happen in the current phase: every move of
        a declared kind has its place here; a reading that spans phases (a summon and a
        move seen at once) needs one of them to."""
        if not reading:
            return True
        if self._spans_phases(reading):
            return any(self._may_happen(state, m) for m in reading)
        return all(self._may_happen(state, m) for m in reading)

    def _spans_phases(self, reading: list[Move]) -> bool:
        """True when no single phase has a place for every declared kind of `reading` (a
        summon and a move seen at once): only then may phases end between its moves."""
        declared = {m.kind for m in reading if m.kind in self.declared}
        if len(reading) < 2 or len(declared) < 2:
            return False
        return not any(declared <= kinds for kinds in self.phase_moves.values())

    def _may_happen(self, state: GameState, move: Move) -> bool:
        """False when the flow spec says this kind has no place in the current phase."""
        if move.kind not in self.declared:
            return True
        return move.kind in self.phase_moves.get(state.phase, frozenset())

    # ------------------------------------------------------------------ reasons
    def reasoned(self, state: GameState, plan: Plan) -> Plan:
        """`plan` with each inferred end given its reason: the seen move it makes possible."""
        if not plan.advances:
            return plan
        flow = self.ruleset.flow
        work = state.clone()
        steps: list[PlannedStep] = []
        for i, step in enumerate(plan.steps):
            if step.automatic:
                evidence = self._evidence(work.phase, plan.steps[i + 1:])
                name = flow.phase(work.phase).name
                seen_en = self.ruleset.describe(evidence, "en") if evidence else "the table"
                seen_de = self.ruleset.describe(evidence, "de") if evidence else "den Tisch"
                step = PlannedStep(
                    step.move,
                    automatic=True,
                    turn_to=step.turn_to,
                    reason_en=(f"{work.active} has moved on from “{name.en}” (turn {work.turn}):"
                               f" the camera saw “{seen_en}”, which fits only after it"),
                    reason_de=(f"{work.active} ist über „{name.de}“ (Zug {work.turn}) hinaus: "
                               f"Die Kamera sah „{seen_de}“, das passt erst danach"),
                )
            steps.append(replace(step, phase=work.phase))
            if work.outcome is None:
                self.ruleset.apply(work, step.move)
        return Plan(tuple(steps))


def _ends(steps: list[PlannedStep]) -> int:
    return sum(1 for s in steps if s.automatic)


def _unended(state: GameState) -> GameState:
    """A copy of `state` as if the game had not ended (to check the winning step's moves)."""
    probe = state.clone()
    probe.outcome = None
    return probe


def _evidenced(plan: Plan, legal: set[int]) -> bool:
    """Every inferred end is followed by a move of the player who moved on (for an end of
    turn: a legal move of the player whose turn began; `legal` holds the indexes of the
    legal ones among the seen moves)."""
    seen: list[tuple[int, Move]] = []
    for step in plan.steps:
        if not step.automatic:
            seen.append((len(seen), step.move))
    position = 0
    for n, step in enumerate(plan.steps):
        if not step.automatic:
            position += 1
            continue
        later = seen[position:]
        if step.turn_to is not None:
            if not any(m.player == step.turn_to and i in legal for i, m in later):
                return False
        elif not any(m.player == step.move.player for _, m in later) and not any(
                s.turn_to is not None for s in plan.steps[n + 1:]):
            return False  # ends of phases on the way to an end of turn need no own sign
    return True
