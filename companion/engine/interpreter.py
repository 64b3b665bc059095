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

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.engine.api import PLAYERS, Choice, LogEntry, Move, Question, Violation, blocking
from companion.engine.game import Game
from companion.engine.inference import Automatic, Explain, Inference, Plan, PlannedStep
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
        and not _unread(new_dice.get(name))
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
        visible=frozenset(new),
    )


def _token_key(token: SeenToken | None) -> tuple[str, str | None] | None:
    return None if token is None else (token.zone, token.on)


def _unread(die: SeenDie | None) -> bool:
    """A die the eye sees but did not read again (`SeenDie.unread`): no change to explain;
    what the rules last knew of it stands until the eye reads it."""
    return die is not None and die.unread


def _die_key(die: SeenDie | None) -> tuple[Any, ...] | None:
    return None if die is None else (die.value, die.zone, die.on, die.rolls)


def automatic_steps_show(diff: SnapshotDiff) -> Callable[[GameState, GameState], bool]:
    """Whether the engine's own steps between two states changed every card the camera
    saw change (its place, tapping or side), and no die: then the camera saw those steps
    being carried out, not a move."""
    cards = [*diff.appeared, *diff.vanished, *(new for _, new in diff.moved), *diff.flipped,
             *diff.tapped, *diff.untapped, *diff.laid_on]

    def shown(before: GameState, after: GameState) -> bool:
        if diff.dice or diff.tokens or not cards:
            return False
        for card in cards:
            uid = before.backs.get(card.uid, card.uid)
            if uid not in before.where:
                return False
            if (before.where[uid], uid in before.tapped, uid in before.face_down) == (
                    after.where.get(uid), uid in after.tapped, uid in after.face_down):
                return False
        return True

    return shown


def candidate_product(slots: list[list[Move]]) -> list[list[Move]]:
    """All ways to pick one alternative per slot (capped), keeping slot order."""
    filled = [s for s in slots if s]
    combos = itertools.islice(itertools.product(*filled), MAX_CANDIDATES)
    return [list(c) for c in combos]


@dataclass(frozen=True)
class Observation:
    """What the interpreter made of one snapshot (or one person's input).

    `absorbed` is a person's press the engine had already inferred from the table: it
    changes nothing (no second end of phase). The first `assumed` entries are an open
    question's default reading, taken because play went on (its ends of phases too)."""

    entries: tuple[LogEntry, ...] = ()
    question: Question | None = None
    unexplained: bool = False
    absorbed: bool = False
    assumed: int = 0

    @property
    def violations(self) -> list[Violation]:
        return [v for e in self.entries for v in e.violations]

    def after(self, assumed: tuple[LogEntry, ...]) -> Observation:
        """This observation preceded by the steps an open question's default put first."""
        if not assumed:
            return self
        return Observation(assumed + self.entries, self.question, self.unexplained,
                           self.absorbed, len(assumed))

    @property
    def moves(self) -> list[Move]:
        return [e.move for e in self.entries]


PRESSES = ("next-phase", "pass")


class Interpreter:
    """Feeds snapshots (camera or script) and person inputs into a `Game`.

    Everything it remembers (the last snapshot, the pile tops seen, the pending question,
    the ends of phases it inferred and nobody has pressed yet) follows from the inputs in
    order, so replaying the same snapshots and presses rebuilds the same game.
    """

    def __init__(self, game: Game, first: TableSnapshot | None = None) -> None:
        self.game = game
        self.previous = first
        self.memory = PileMemory()
        self.pending: Question | None = None
        self._plans: list[Plan] = []
        self.piles = frozenset(game.ruleset.pile_zones())
        self.inference = Inference(game.ruleset)
        self.unpressed: list[tuple[str, int, str]] = []
        """(phase, turn, player) left by each end of phase inferred last, not yet pressed by
        anyone; valid while the log ends with that inference (`_inferred_at`)."""
        self._inferred_at = -1
        self._observed_at = len(game.log)
        """Log length after the last snapshot: entries after it belong to the coming change."""
        if first is not None:
            diff_snapshots(first, first, self.piles, self.memory)

    def legal_plan(self, moves: list[Move]) -> Plan | None:
        """The moves in an order in which all are legal now (things seen at once happened in
        some order), or None. Small lists only: larger ones are tried as given. Moves after
        one that ended the game are part of the winning step."""
        state = self.game.state
        orders = [tuple(moves)]
        if len(moves) <= MAX_REORDER:
            orders += list(itertools.permutations(moves))[1:]
        for order in orders:
            steps = self.inference.walk(state, list(order), 0, state.turn)
            if steps is not None:
                return Plan(tuple(steps))
        return None

    def legal_order(self, moves: list[Move]) -> list[Move] | None:
        """`legal_plan`'s moves, or None."""
        plan = self.legal_plan(moves)
        return None if plan is None else list(plan.moves)

    def observe(
        self, snapshot: TableSnapshot, source: str = "camera", hints: dict[str, Any] | None = None
    ) -> Observation:
        """Explain the change from the previous snapshot and apply it (or ask)."""
        before = self.previous or TableSnapshot(game=snapshot.game)
        diff = diff_snapshots(before, snapshot, self.piles, self.memory)
        self.previous = snapshot
        observed_at, self._observed_at = self._observed_at, len(self.game.log)
        if diff.empty:
            return Observation()
        assumed = self.assume_pending()  # never ends the game: `ended` below is not its
        ended = self.game.ended_at
        if ended is not None and ended > observed_at:  # a declaration just before ended it
            found = self._winning_step(diff, source, hints or {})
            self._observed_at = len(self.game.log)
            if found is not None:
                return found.after(assumed)
        seen = self._observe(diff, source, hints)
        if seen.question is None:
            stray = self._misplaced(diff, source, seen.entries)
            if stray:
                seen = Observation(seen.entries + stray, None, seen.unexplained, seen.absorbed,
                                   seen.assumed)
        self._observed_at = len(self.game.log)
        return seen.after(assumed)

    def _misplaced(self, diff: SnapshotDiff, source: str, read: tuple[LogEntry, ...]
                    ) -> tuple[LogEntry, ...]:
        """A face-up card the camera sees arrive where the game, after reading the change,
        does not hold it, and that no move read from the change names: nothing accounted for
        it (a creature laid on the dice, a card dropped on a draw pile). Each is recorded
        as "misplace" with `game.misplaced`, never left unsaid; the game keeps the card where
        its rules hold it, so putting it back reads as no change."""
        state = self.game.state
        if state.outcome is not None:
            return ()
        named = {u for e in read for u in (*e.move.cards, e.move.target) if u}
        entries: list[LogEntry] = []
        for card in (*diff.appeared, *(new for _, new in diff.moved)):
            if not card.zone or is_back(card.uid) or not card.face_up \
                    or card.uid not in state.where \
                    or state.where[card.uid] == card.zone or card.uid in named:
                continue
            owner = state.owner.get(card.uid)
            player = owner if owner in PLAYERS else state.active
            self.game.push(Move("misplace", player, (card.uid,),
                                options=(("zone", card.zone),)), source,
                           ("no reading puts the card there",),
                           same_step=bool(read or entries))
            entries.append(self.game.log[-1])
        return tuple(entries)

    def assume_pending(self) -> tuple[LogEntry, ...]:
        """Play went on while a question was open: its default reading (the most likely legal
        one) goes on the record as "assumed", so the change it asked about is never lost and
        the next change is read from where the game really is. A person may still answer;
        the record then takes their reading instead. A reading that would end the game is
        never assumed: a win needs an answer (the question stays open, nothing is applied)."""
        question = self.pending
        if question is None:
            return ()
        plans = self._plans
        self.pending, self._plans = None, []
        index = question.default if question.default < len(plans) else 0
        if not plans or self.game.state.outcome is not None:
            return ()
        mark = len(self.game.log)
        label_en = question.choices[index].label_en
        label_de = question.choices[index].label_de
        entries = self._push_plan(
            plans[index], "assumed", "assumed: nobody answered",
            f"nobody answered the question yet; taken as the most likely legal reading "
            f"({label_en}); a person can still change it",
            f"niemand hat die Frage beantwortet; als wahrscheinlichste regelgerechte Lesart "
            f"genommen ({label_de}); eine Person kann das noch ändern")
        if self.game.state.outcome is not None:
            self.game.take_back_to(mark)
            self.unpressed = []
            return ()
        return entries

    def _winning_step(self, diff: SnapshotDiff, source: str, hints: dict[str, Any]
                      ) -> Observation | None:
        """The table change that goes with the declaration that ended the game (the attack
        that beat the last creature, and what the players did in the same step): its moves
        are the winning step's own, legal as they would have been, and change nothing."""
        ruleset = self.game.ruleset
        probe = self.game.state.clone()
        probe.outcome = None
        for reading in ruleset.explain(probe, diff, hints):
            if not reading or not all(m.kind in ruleset.known_kinds for m in reading):
                continue
            steps = self.inference.walk(probe, reading, 0, probe.turn)
            if steps is not None:
                entries = []
                for step in steps:
                    self.game.push(step.move, source, ("the winning step",), same_step=True)
                    entries.append(self.game.log[-1])
                return Observation(tuple(entries))
        return None

    def _observe(self, diff: SnapshotDiff, source: str, hints: dict[str, Any] | None
                 ) -> Observation:
        ruleset = self.game.ruleset
        hints = hints or {}
        candidates = [c for c in ruleset.explain(self.game.state, diff, hints) if c]
        if not candidates:
            return Observation()
        known = ruleset.known_kinds
        literal = candidates[-1]
        candidates = [c for c in candidates if all(m.kind in known for m in c)]
        by = hints.get("player")
        plans = [p for p in (self.legal_plan(c) for c in candidates) if p is not None]
        if len(plans) > 1 and by:
            plans = [p for p in plans if all(m.player == by for m in p.moves)] or plans

        def explain(state: GameState) -> list[list[Move]]:
            return [c for c in ruleset.explain(state, diff, hints)
                    if all(m.kind in known for m in c)]

        if len(plans) == 1 and self._by_the_other(plans[0]):
            movers = {m.player for m in plans[0].seen}
            later = [p for p in self.inference.plans(self.game.state, explain, at_least=1)
                     if any(s.turn_to for s in p.steps) and p.seen
                     and all(m.player in movers for m in p.seen)]
            # an effect's draw in this turn, or the other player's own turn: a reading in
            # which the same player moves after a new turn began (not the active player's)
            if later:
                return Observation(question=self._ask([plans[0], later[0]]))
        if not plans and candidates and self.game.state.outcome is None:
            plans = self._infer(explain, by, automatic_steps_show(diff))
            if len(plans) == 1 and candidates[-1] is literal and self._doubtful(
                    literal, plans[0]):
                return Observation(question=self._ask([self._as_seen(literal), *plans], 1))
        if len(plans) == 1 and self._unconfirmed(literal, plans[0]):
            return Observation(question=self._ask([self._as_seen(literal), plans[0]], 1))
        if len(plans) == 1:
            return Observation(self._push_plan(plans[0], source, "the only legal explanation"))
        if len(plans) > 1:
            return Observation(question=self._ask(plans))
        if not candidates or candidates[-1] is not literal:
            return Observation(unexplained=True)  # no move of this game says what happened
        moved_on = None
        if self.game.state.outcome is None:
            moved_on = self.inference.least_broken(self.game.state, lambda state: [
                c for c in ruleset.explain(state, diff, hints)
                if c and all(m.kind in known for m in c)
            ])
        if moved_on is not None:
            if self._doubtful(literal, moved_on):
                return Observation(question=self._ask([self._as_seen(literal), moved_on], 1))
            return Observation(
                self._push_plan(moved_on, source, "no legal explanation: recorded as seen "
                                "after the inferred ends of phases"),
                unexplained=True,
            )
        return Observation(
            self._push_all(literal, source, "no legal explanation: recorded as seen"),
            unexplained=True,
        )

    def _infer(self, explain: Explain, by: Any = None,
               automatic: Automatic | None = None) -> list[Plan]:
        """Readings that are legal once the players have moved on (fewest ends of phases)."""
        plans = self.inference.plans(self.game.state, explain, automatic=automatic)
        if len(plans) > 1 and by:
            plans = [p for p in plans if all(m.player == by for m in p.seen)] or plans
        return plans

    def _by_the_other(self, plan: Plan) -> bool:
        """A legal reading whose moves are all the non-active player's (a card effect lets
        them act in this turn): the same change may show their own turn having begun."""
        state = self.game.state
        return state.outcome is None and bool(plan.seen) and all(
            m.player != state.active for m in plan.seen)

    def _doubtful(self, literal: list[Move], plan: Plan) -> bool:
        """True when the move as seen (against the rules where it happened) fits as well as
        the players having moved on: it is the active player's, and this turn shows nothing
        else of theirs, only the same kind of move again (a second card from a shared pile,
        a second draw that could be a paid one). An inferred end of turn is doubtful even
        when the turn shows nothing at all: the camera cannot see who took a card from a
        shared pile, and a turn without a move is rarer than a late one. Only a person can
        tell."""
        active = self.game.state.active
        if not all(m.player == active for m in literal):
            return False
        if plan.advances and self.game.ruleset.doubtful_reading(self.game.state, plan.seen_in):
            return True
        kinds = {m.kind for m in literal}
        seen = self.game.seen_this_turn()
        if not plan.seen:  # the engine's own steps showed it: no repetition to doubt
            return not seen
        if not all(m.kind in kinds for m in seen):
            return False
        return bool(seen) or any(s.turn_to is not None for s in plan.steps)

    def _unconfirmed(self, literal: list[Move], plan: Plan) -> bool:
        """The one legal reading is not the change as seen and would decide the game on
        something the camera cannot confirm (`Ruleset.unconfirmed_reading`): only a person
        can tell, whether or not the players moved on."""
        return self.game.state.outcome is None and plan.moves != tuple(literal) \
            and self.game.ruleset.unconfirmed_reading(self.game.state, plan.seen_in)

    def _as_seen(self, literal: list[Move]) -> Plan:
        return Plan(tuple(PlannedStep(m) for m in literal))

    def _ask(self, plans: list[Plan], default: int = 0) -> Question:
        """One question naming every reading; `default` is the one play goes on with when
        nobody answers (callers put the reading as seen, against the rules, first and pass
        the first legal one here)."""
        self._plans = plans
        choices = tuple(Choice(label_en=self._label(p, "en"), label_de=self._label(p, "de"),
                               moves=p.moves) for p in plans)
        self.pending = Question(
            text_en=_which([c.label_en for c in choices], "Which was it: ", "or",
                           "Several moves explain what happened on the table. "
                           "Which one was it?"),
            text_de=_which([c.label_de for c in choices], "Was war es: ", "oder",
                           "Mehrere Züge erklären, was auf dem Tisch geschah. Welcher war es?"),
            choices=choices,
            default=default,
        )
        return self.pending

    def _label(self, plan: Plan, lang: str) -> str:
        """A reading in words as a player says it: inferred ends of phases in a row read
        "p1 ends the turn" (or "p1 ends 3 phases"), not one "ends the phase" each."""
        parts: list[str] = []
        describe = self.game.ruleset.describe
        for (automatic, who), group in itertools.groupby(
                plan.steps, key=lambda s: (s.automatic, s.move.player)):
            run, who = list(group), who or ""
            if not automatic:
                parts += [describe(s.move, lang) for s in run]
            elif any(s.turn_to for s in run):
                parts.append(f"{who} beendet den Zug" if lang == "de" else f"{who} ends the turn")
            elif len(run) == 1:
                parts.append(describe(run[0].move, lang))
            else:
                parts.append(f"{who} beendet {len(run)} Phasen" if lang == "de"
                             else f"{who} ends {len(run)} phases")
        return "; ".join(parts)

    def answer(self, choice: int, source: str = "person") -> Observation:
        """A person picked choice `choice` (0-based) of the pending question."""
        if self.pending is None:
            return Observation()
        plan = self._plans[choice] if choice < len(self._plans) else Plan(
            tuple(PlannedStep(m) for m in self.pending.choices[choice].moves))
        self.pending = None
        self._plans = []
        return Observation(self._push_plan(plan, source, "chosen by a person"))

    def person(self, move: Move, source: str = "person") -> Observation:
        """A person's input (phase button, end turn, declaration) as a move.

        A press the engine already inferred from the table changes nothing (`absorbed`);
        a press with option `from` (the phase the person saw) counts only from that phase.
        A declared move that is legal only once the player has moved on (an attack declared
        while the game still shows the start phase) is preceded by the inferred ends of
        phases, as a table change would be. Anything else is taken as given: a person's word
        beats the engine's guess.
        """
        if move.kind in PRESSES and self._absorbs(move):
            return Observation(absorbed=True)
        game = self.game
        state = game.state
        if (state.outcome is None and move.kind in game.ruleset.known_kinds
                and blocking(game.check(move))):
            if move.kind not in PRESSES:
                plans = self._infer(lambda state: [[move]])
                if len(plans) == 1 and self._doubtful([move], plans[0]):
                    return Observation(question=self._ask([self._as_seen([move]), *plans], 1))
                if len(plans) == 1 and plans[0].advances:
                    return Observation(self._push_plan(plans[0], source, "declared"))
                placed = self.inference.phase_of(state, move) if not plans else None
                if placed is not None:  # a declared challenge happens in its phase
                    return Observation(self._push_plan(placed, source, "declared"))
            if move.player != state.active and move.player in PLAYERS:
                turn = self.inference.turn_of(state, move.player, move)
                if turn is not None:  # "Bo ends his turn": then it is Bo's turn
                    return Observation(self._push_plan(turn, source, "declared"))
        if move.kind == "pass" and move.player == state.active and state.outcome is None:
            return Observation(self._end_turn(move, source))
        game.push(move, source)
        self.unpressed = []
        return Observation((game.log[-1],))

    def _end_turn(self, move: Move, source: str) -> tuple[LogEntry, ...]:
        """"End turn" pressed before the last phase: the phases left run first, each as its
        own automatic step (their automatic steps happen: a score phase scores), as far as
        each may end; then the press ends the turn from where it got."""
        game = self.game
        flow = game.ruleset.flow
        entries: list[LogEntry] = []
        phases = flow.spec.turn_phases
        while (game.state.outcome is None and phases
               and flow.phase(game.state.phase) is not phases[-1]):
            end = self.inference.end_of_phase(game.state, game.state.turn)
            if end is None or end.player != move.player:
                break
            name = flow.phase(game.state.phase).name
            game.push(end, "automatic", ("inferred",),
                      f"{move.player} pressed \"end turn\" in the {name.en} phase: the phases "
                      "left run first",
                      f"{move.player} hat in der Phase {name.de} „Zug beenden“ gedrückt: die "
                      "übrigen Phasen laufen zuerst")
            entries.append(game.log[-1])
        if game.state.outcome is None or not entries:
            game.push(move, source)
            entries.append(game.log[-1])
        self.unpressed = []
        return tuple(entries)

    def _absorbs(self, move: Move) -> bool:
        """True when a person's press only confirms ends of phases inferred just before."""
        if not self.unpressed or len(self.game.log) != self._inferred_at:
            self.unpressed = []
            return False
        seen_in = move.option("from")
        if seen_in is not None and seen_in == self.game.state.phase:
            return False  # pressed knowing where the game is: a real end of this phase
        if move.player != self.unpressed[0][2]:
            return False  # not the player who moved on
        if move.kind == "next-phase":
            self.unpressed.pop(0)
            return True
        turn = self.unpressed[0][1]
        ended = [u for u in self.unpressed if u[1] == turn]
        if len(ended) == len(self.unpressed) and self.game.state.turn == turn:
            return False  # the inferred ends stayed inside this turn: "end turn" is new
        del self.unpressed[: len(ended)]
        return True

    def _push_plan(self, plan: Plan, source: str, why: str, reason_en: str = "",
                   reason_de: str = "") -> tuple[LogEntry, ...]:
        entries = []
        unpressed: list[tuple[str, int, str]] = []
        for step in plan.steps:
            if step.automatic:
                state = self.game.state
                unpressed.append((state.phase, state.turn, state.active))
                self.game.push(step.move, "automatic", ("inferred",), step.reason_en,
                               step.reason_de)
            else:
                self.game.push(step.move, source, (why,), reason_en, reason_de,
                               same_step=step.same_step)
            entries.append(self.game.log[-1])
        if unpressed:
            self.unpressed, self._inferred_at = unpressed, len(self.game.log)
        elif entries:
            self.unpressed = []
        return tuple(entries)

    def _push_all(self, moves: list[Move], source: str, why: str) -> tuple[LogEntry, ...]:
        """The moves as seen, none of them legal together: each with its violations."""
        entries = []
        for move in moves:
            self.game.push(move, source, (why,))
            entries.append(self.game.log[-1])
        self.unpressed = []
        return tuple(entries)


QUESTION_MAX_CHARS = 180  # longer, the readings are left to the buttons


def _which(labels: list[str], head: str, word: str, generic: str) -> str:
    """The question in words naming its readings ("Which was it: p1 draws a card, or p2 draws
    a card?"); the generic sentence when they are too long to read as one."""
    if not labels:
        return generic
    said = labels[0] if len(labels) == 1 else (
        ", ".join(labels[:-1]) + f", {word} " + labels[-1])
    text = f"{head}{said}?"
    return text if len(text) <= QUESTION_MAX_CHARS else generic
