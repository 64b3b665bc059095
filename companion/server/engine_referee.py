"""`EngineReferee`: the live session's referee on the real rules engine and interpreter."""

from __future__ import annotations

import copy
from typing import Any, cast

from companion.engine.api import GameConfig, LogEntry, Move, Violation
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter, Observation
from companion.server.offers import Offers, offers
from companion.server.rebuilds import PersonLine, copy_game
from companion.server.referee import Applied, Reaction
from companion.snapshot import TableSnapshot


class EngineReferee:
    """Owns the `Game` and its `Interpreter`; never refuses what happened on the table.

    The first settled table is the starting position (nothing to explain). `hints` carries
    what a person declared for the next change (attack target, chosen effect), as the
    interpreter expects it.
    """

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.game = config.game
        self._game = Game(config)
        self._interpreter: Interpreter | None = None
        self.ruleset_version = str(getattr(self._game.ruleset, "version", "") or "1")
        self.hints: dict[str, Any] = {}
        self._line = PersonLine(config)
        """The game's moves pushed as a person's: what `rebuild` starts from."""

    @property
    def engine(self) -> Game:
        return self._game

    # --- moves -------------------------------------------------------------------------------

    def _applied(self, entries: tuple[LogEntry, ...]) -> tuple[Applied, ...]:
        state = self._state()
        return tuple(
            Applied(e.move, e.violations, self._state_after(e.seq, state),
                    source=e.source if e.source in ("automatic", "assumed") else None,
                    reason_en=e.reason_en, reason_de=e.reason_de)
            for e in entries
        )

    def _reaction(self, observation: Observation) -> Reaction:
        return Reaction(applied=self._applied(observation.entries), question=observation.question,
                        assumed=observation.assumed)

    def observe(self, before: TableSnapshot | None, after: TableSnapshot) -> Reaction:
        if self._interpreter is None:
            self._interpreter = Interpreter(self._game, after)
            return Reaction()
        interpreter = self._interpreter
        if before is not None and (
            interpreter.previous is None or not before.same_table(interpreter.previous)
        ):
            interpreter.previous = before  # a correction put the table back
        hints, self.hints = self.hints, {}
        mark = self._mark()
        try:
            return self._reaction(interpreter.observe(after, "camera", hints or None))
        finally:
            self._follow(mark)

    def apply(self, moves: tuple[Move, ...], source: str) -> Reaction:
        """Moves a person entered or declared, and presses. Through the interpreter once
        it exists: a press the engine already inferred changes nothing, a declared move that
        fits only a later phase brings the ends of phases before it, "end turn" runs the
        phases left. After the end of the game a press is refused (GameOverError)."""
        mark = self._mark()
        try:
            return self._apply(moves, source)
        finally:
            self._follow(mark)

    def _apply(self, moves: tuple[Move, ...], source: str) -> Reaction:
        interpreter = self._interpreter
        if interpreter is not None and interpreter.pending is not None:
            choices = [c.moves for c in interpreter.pending.choices]
            if tuple(moves) in choices:  # the answer to the open question, as the page posts it
                seen = interpreter.answer(choices.index(tuple(moves)), source)
                return Reaction(applied=self._applied(seen.entries))
        entries: list[LogEntry] = []
        if interpreter is not None:  # play goes on: an open question's default is assumed
            entries += interpreter.assume_pending()
        assumed = len(entries)
        question = None
        for move in moves:
            if interpreter is None:
                self._game.push(move, source)
                entries.append(self._game.log[-1])
                continue
            seen = interpreter.person(move, source)
            entries += seen.entries
            question = seen.question or question
        return Reaction(applied=self._applied(tuple(entries)), question=question,
                        assumed=assumed)

    def _mark(self) -> tuple[int, LogEntry | None]:
        log = self._game.log
        return len(log), log[-1] if log else None

    def _follow(self, mark: tuple[int, LogEntry | None]) -> None:
        """The moves the game's log gained since `mark` go on the person's line too (a log
        that took moves back or was replaced leaves the line behind until a rebuild)."""
        length, last = mark
        log = self._game.log
        if len(log) < length or (length and log[length - 1] is not last):
            self._line.stop()
        else:
            self._line.extend(e.move for e in log[length:])

    def reset(self) -> None:
        self._game = Game(self.config)
        self._interpreter = None
        self.hints = {}
        self._line = PersonLine(self.config)

    def rebuild(self, moves: list[Move]) -> None:
        """A fresh game with `moves` pushed as a person's, built from the newest copy on the
        person's line that they share (companion/server/rebuilds.py)."""
        game = self._line.rebuilt(moves)
        self._game = game
        if self._interpreter is not None:
            self._interpreter.game = game

    def fork(self) -> EngineReferee:
        """A fresh referee of the same game (to replay another history beside this one)."""
        return EngineReferee(self.config)

    def adopt(self, other: EngineReferee) -> None:
        """Take over `other`'s game and interpreter (a history replayed beside this one)."""
        self._game, self._interpreter, self.hints = other._game, other._interpreter, {}
        self._line = other._line

    def checkpoint(self) -> object:
        """An independent copy of the game and interpreter as they stand (a replay starts
        from it instead of the first table: companion/record/checkpoints.py)."""
        return _copied(self._game, self._interpreter, self._line)

    def restore(self, saved: object) -> None:
        """Play on from a `checkpoint()`; the checkpoint itself stays as it was."""
        game, interpreter, line = cast(tuple[Game, Interpreter | None, PersonLine], saved)
        self._game, self._interpreter, self._line = _copied(game, interpreter, line)
        self.hints = {}

    def disagreement(self, table: TableSnapshot | None) -> int:
        """Face-up cards of `table` that the game places in another zone than the camera
        sees them: how badly a reading of the past fits the table now."""
        if table is None:
            return 0
        where = self._game.state.where
        return sum(1 for c in table.cards
                   if c.face_up and c.uid in where and where[c.uid] != c.zone)

    def rebuild_around(self, before: list[Move], chosen: tuple[Move, ...], after: list[Move]
                       ) -> tuple[tuple[Applied, ...], tuple[tuple[Violation, ...], ...]]:
        """The game rebuilt with `chosen` in the place of an assumed reading; the steps after
        it are kept as recorded (a later answer does not rewrite the rest). Returns what
        `chosen` led to and the violations each later move has now."""
        game = Game(self.config)
        _push_as_person(game, before)
        entries = tuple(e for e in _push_as_person(game, chosen) if e is not None)
        later = _push_as_person(game, after)
        self._game = game
        self._line.stop()
        if self._interpreter is not None:
            self._interpreter.game = game
        return self._applied(entries), tuple(e.violations if e else () for e in later)

    # --- reading -----------------------------------------------------------------------------

    def describe(self, move: Move, lang: str) -> str:
        """`move` in words with this game's own texts."""
        return self._game.ruleset.describe(move, lang)

    def _state_after(self, seq: int, now: dict[str, Any]) -> dict[str, Any]:
        """Turn, player and phase right after log entry `seq`: several steps taken at once
        (phases ended one by one) each show where that step led, not where all of them did."""
        positions = self._game.positions
        if seq >= len(positions):
            return now
        turn, active, phase = positions[seq]  # the position the next entry started from
        return {**now, "turn": turn, "active": active, "phase": phase,
                "phase_name": self._game.ruleset.flow.phase(phase).name.get("en") if phase else ""}

    def _state(self) -> dict[str, Any]:
        prompt = self._game.prompt("en")
        scores = {p: s.value for p, s in self._game.scores().items()}
        return {"turn": prompt.turn, "active": prompt.active, "phase": prompt.phase,
                "phase_name": prompt.phase_name, "scores": scores}

    def _legal(self, lang: str, visible: frozenset[str] | None) -> list[str]:
        shown: set[str] = set()
        hidden = 0
        for move in self._game.legal_moves:
            named = [*move.cards, *([move.target] if move.target else [])]
            if visible is not None and any(c != "?" and c not in visible for c in named):
                hidden += 1
            else:
                shown.add(self.describe(move, lang))
        out = sorted(shown)
        if hidden:
            out.append(f"… und {hidden} Züge mit Karten, die nicht offen liegen" if lang == "de"
                       else f"… and {hidden} moves with cards that are not face up")
        return out

    def offers(self, visible: frozenset[str] | None = None) -> Offers:
        """Legal moves a referee may enter now. Moves naming a card nobody has seen are only
        counted; a known card that a hand or another card covers from the camera is named."""
        if self._game.outcome() is not None:
            return Offers()
        known = None if visible is None else visible | frozenset(self._game.state.public)
        return offers(self.game, self._game.legal_moves_for("table"), known)

    def _next(self, lang: str) -> str:
        """What "next phase" leads to: the next phase's name, or the opponent's turn."""
        flow = getattr(self._game.ruleset, "flow", None)
        spec = getattr(flow, "spec", None)
        if spec is None:
            return ""
        setup, turn = list(spec.setup_phases), list(spec.turn_phases)
        phase = self._game.state.phase
        ids = [p.id for p in setup]
        if phase in ids:
            i = ids.index(phase)
            if i + 1 < len(setup):
                return str(setup[i + 1].name.get(lang))
            start = spec.first_turn_start or (turn[0].id if turn else None)
            nxt = next((p for p in turn if p.id == start), None)
            return str(nxt.name.get(lang)) if nxt else ""
        ids = [p.id for p in turn]
        if phase in ids and ids.index(phase) + 1 < len(turn):
            return str(turn[ids.index(phase) + 1].name.get(lang))
        opponent = "p2" if self._game.state.active == "p1" else "p1"
        return f"Zug von {opponent}" if lang == "de" else f"{opponent}'s turn"

    def status(self, lang: str, visible: frozenset[str] | None = None) -> dict[str, Any]:
        prompt = self._game.prompt(lang)
        outcome = self._game.outcome()
        return {
            "next": self._next(lang),
            "turn": prompt.turn,
            "active": prompt.active,
            "phase": prompt.phase,
            "phase_name": prompt.phase_name,
            "prompt": {
                "must": list(prompt.must),
                "may": list(prompt.may),
                "ends": prompt.ends,
                "automatic": list(prompt.automatic),
            },
            "scores": [
                {
                    "player": s.player,
                    "value": s.value,
                    "label": s.label_de if lang == "de" else s.label_en,
                    "details": dict(s.details),
                }
                for s in self._game.scores().values()
            ],
            "legal": self._legal(lang, visible),
            "outcome": outcome.to_dict() if outcome else None,
        }

    def finished(self) -> dict[str, Any] | None:
        outcome = self._game.outcome()
        return outcome.to_dict() if outcome else None


def _push_as_person(game: Game, moves: list[Move] | tuple[Move, ...]) -> list[LogEntry | None]:
    """`moves` pushed as a person's, each with its log entry (None for a press the ended game
    refuses)."""
    entries: list[LogEntry | None] = []
    for move in moves:
        if game.refuses(move, "person"):
            entries.append(None)
            continue
        game.push(move, "person")
        entries.append(game.log[-1])
    return entries


def _copied(game: Game, interpreter: Interpreter | None, line: PersonLine
            ) -> tuple[Game, Interpreter | None, PersonLine]:
    """An independent copy of a game, its interpreter and the person's line: the game as
    `copy_game` copies it, the interpreter deep (on the copied game), sharing the rules and
    the interpreter's search, a cache of the states it was asked about (a copy asks about
    its own)."""
    copied = copy_game(game)
    memo: dict[int, Any] = {id(game): copied, id(game.ruleset): game.ruleset,
                            id(game.config): game.config}
    if interpreter is not None:
        memo[id(interpreter.inference)] = interpreter.inference
    return copied, copy.deepcopy(interpreter, memo), copy.deepcopy(line)
