"""Referee a table script: true table -> visible snapshot -> interpreter -> ruleset, per step.

Each step's physical changes reach the rules only as the camera would see them (a
`TableSnapshot`); what a person tells the page comes from the step's `declare`, `phase` and
`pass`. Order within a step: a named `phase: <id>` first (the step happens in that phase),
then declared moves (an attack, an activation, a redraw), then the table change, then
`phase: true` and `pass`. Every `expect` is checked and reported with file:line.

Declare vocabulary: `attack: [attackers]` with `target`, optional `combat: ["uid/index"]`;
`activate: uid` with `ability: n` and optional `target`; `redraw: show|fresh`;
`concede: true`; `move: {kind, player, cards, to, target, value}` for any other move;
`player` and `target` alone are hints that settle an ambiguous table change;
`choice: n` answers the question an ambiguous change raised.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.api import GameConfig, GameOverError, LogEntry, Move, blocking
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter
from companion.engine.ruleset import NO_EXPECT_KEY
from companion.engine.state import hand_zone

MAX_PHASE_STEPS = 8


@dataclass
class StepReport:
    """What the referee found at one step."""

    index: int
    line: int
    moves: list[LogEntry] = field(default_factory=list)
    question: str | None = None
    phase: str = ""
    active: str = ""
    turn: int = 0
    scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    """The winner, "p1" or "p2"; "draw" for a game that ended without one; None meanwhile."""
    failures: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    """Presses and declarations the engine refused (the game was over)."""

    @property
    def legal(self) -> bool:
        return all(not blocking(list(e.violations)) for e in self.moves)

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.index,
            "line": self.line,
            "moves": [e.to_dict() for e in self.moves],
            "legal": self.legal,
            "question": self.question,
            "phase": self.phase,
            "active": self.active,
            "turn": self.turn,
            "scores": self.scores,
            "winner": self.winner,
            "failures": self.failures,
            "refused": self.refused,
        }


@dataclass
class RefereeReport:
    path: str
    game: str
    steps: list[StepReport]

    @property
    def failures(self) -> list[str]:
        return [f for s in self.steps for f in s.failures]

    def to_dict(self) -> dict[str, Any]:
        return {
            "script": self.path,
            "game": self.game,
            "ok": not self.failures,
            "steps": [s.to_dict() for s in self.steps],
        }


def config_from_script(script: Any) -> GameConfig:
    """The engine's game config from a loaded `TableScript`."""
    setup = None
    if script.setup is not None:
        s = script.setup
        table = {zone: list(reversed(uids)) for zone, uids in s.table.items()}
        setup = {
            "table": table,
            "face_down": list(s.face_down),
            "tapped": list(s.tapped),
            "hands": dict(s.hands),
            "on": dict(s.on),
            "dice": {die: {"value": d.value, "zone": d.zone} for die, d in s.dice.items()},
            **({"turn": s.turn} if s.turn is not None else {}),
            **({"active": s.active} if s.active is not None else {}),
            **({"phase": s.phase} if s.phase is not None else {}),
            **{role: dict(holders) for role, holders in s.roles.items()},
            **dict(s.extra),
        }
    cards = tuple(c.to_mapping() if hasattr(c, "to_mapping") else dict(c) for c in script.cards)
    return GameConfig(
        game=script.game,
        players=(str(script.players[0]), str(script.players[1])),
        decks={k: tuple(v) for k, v in script.decks.items()},
        first=script.first,
        seed=script.seed,
        setup=setup,
        cards=cards,
        owners=dict(getattr(script, "owners", {}) or {}),
    )


def declared_moves(game: Game, declare: Mapping[str, Any], truth_hand: list[str]) -> list[Move]:
    """Moves a person declared with a step (see the module docstring)."""
    player = str(declare.get("player", game.active))
    moves: list[Move] = []
    if "attack" in declare:
        attack = declare["attack"]
        spec = dict(attack) if isinstance(attack, Mapping) else {"attackers": attack}
        for key in ("target", "combat"):
            spec.setdefault(key, declare.get(key))
        attackers = spec.get("attackers") or spec.get("attacker") or []
        attackers = [attackers] if isinstance(attackers, str) else list(attackers)
        combat = spec.get("combat") or []
        options = (("combat", ",".join(combat)),) if combat else ()
        attacker = _owner_of(game, attackers[0]) if attackers else None
        moves.append(Move("attack", str(declare.get("player", attacker or player)),
                          tuple(attackers),
                          target=_opt(spec.get("target")), options=options))
    if "activate" in declare:
        moves.append(Move("activate", player, (str(declare["activate"]),),
                          target=_opt(declare.get("target")),
                          value=int(declare.get("ability", 0))))
    if "redraw" in declare:
        kind = str(declare["redraw"])
        cards = tuple(truth_hand) if kind == "show" else ()
        moves.append(Move("redraw", player, cards, value=kind))
    if declare.get("concede"):
        moves.append(Move("concede", player))
    if "move" in declare:
        data = dict(declare["move"])
        data.setdefault("player", player)
        moves.append(Move.from_dict(data))
    return moves


def _owner_of(game: Game, ref: str) -> str | None:
    """Whose card `ref` (an id or uid) is, when the game knows: the attacker's owner
    attacks, whatever the engine believes about the turn."""
    uid = resolve_refs(game, Move("declare", "p1", (str(ref),))).cards[0]
    owner = game.state.owner.get(uid)
    return owner if owner in ("p1", "p2") else None


def _opt(value: Any) -> str | None:
    return None if value is None else str(value)


def resolve_refs(game: Game, move: Move) -> Move:
    """Card ids written without a copy ("TOB-006") become the uid of the copy in play."""

    def uid(ref: str) -> str:
        if "#" in ref or ref in game.state.where:
            return ref
        copies = [u for u in game.state.where if u.rpartition("#")[0] == ref]
        shown = [u for u in copies if u in game.state.public]
        return (shown or copies or [ref])[0]

    def option(key: str, value: str) -> str:
        if key != "combat":
            return value
        picks = [p.strip().rpartition("/") for p in value.split(",") if p.strip()]
        return ",".join(f"{uid(ref)}/{index}" for ref, _, index in picks)

    return Move(
        kind=move.kind,
        player=move.player,
        cards=tuple(uid(c) for c in move.cards),
        to=move.to,
        target=uid(move.target) if move.target else None,
        value=move.value,
        options=tuple((k, option(k, v)) for k, v in move.options),
    )


def _resolved_hints(game: Game, declare: Mapping[str, Any]) -> dict[str, Any]:
    """The declaration as hints for the table change, a `target` written as a card id
    ("TOB-012") turned into the uid of its copy in play, as the page would send it."""
    hints = dict(declare)
    target = hints.get("target")
    if isinstance(target, str) and target:
        hints["target"] = resolve_refs(game, Move("declare", "p1", target=target)).target
    return hints


def camera_steps(steps: Any) -> list[tuple[Any, list[Any]]]:
    """The steps a camera sees, each with the steps left out before it.

    `phase` and `pass` are presses nobody can see: they are dropped from every step, and a
    step that held nothing else (no table change, no declaration) is left out; its `expect`
    is checked with the next step that is seen (see `referee_script`). A press the script
    itself marks as breaking a rule (`legal: false` or violations named) is the rule case
    under test, a person's wrong press at the page: it stays.
    """
    from dataclasses import replace

    out: list[tuple[Any, list[Any]]] = []
    skipped: list[Any] = []
    for step in steps:
        if _breaks_a_rule(step.expect):
            out.append((step, skipped))
            skipped = []
            continue
        seen = replace(step, phase=False, pass_turn=False)
        if not _physical(seen) and not seen.declare and (step.phase or step.pass_turn):
            skipped.append(step)
            continue
        out.append((seen, skipped))
        skipped = []
    if skipped:
        out.append((None, skipped))
    return out


def _breaks_a_rule(expect: Mapping[str, Any]) -> bool:
    return expect.get("legal") is False or bool(expect.get("violations"))


def _physical(step: Any) -> bool:
    from companion.sim.table_state import PHYSICAL_VERBS

    return any(getattr(step, verb) for verb in PHYSICAL_VERBS)


def referee_script(path: str, camera_only: bool = False) -> RefereeReport:
    """Run one table script through interpreter and ruleset; check every `expect`.

    With `camera_only` the script's `phase` and `pass` presses are left out (see
    `camera_steps`): the engine must infer them from what the camera sees."""
    from companion.sim.script import load_script
    from companion.sim.table_state import apply_step, initial_table, visible_snapshot

    script = load_script(path)
    table = initial_table(script)
    game = Game(config_from_script(script))
    interpreter = Interpreter(game, visible_snapshot(table, 0, 0.0))
    plan = camera_steps(script.steps) if camera_only else [(s, []) for s in script.steps]
    reports: list[StepReport] = []
    for step, skipped in plan:
        if step is None:  # presses at the end of the script: nothing more is seen
            last = skipped[-1]
            report = StepReport(index=last.index, line=last.line)
            _fill_state(game, report)
        else:
            presses = not camera_only or _breaks_a_rule(step.expect)
            report = _referee_step(game, interpreter, table, step, presses)
            table = apply_step(table, step)
        report.failures += [
            f"{script.path}:{line}: step {index} (a press, checked with step {report.index}): "
            f"{problem}"
            for index, line, problem in check_skipped(game, report, skipped)
        ]
        if step is not None:
            report.failures += [
                f"{script.path}:{step.line}: step {step.index}: {problem}"
                for problem in check_expect(game, report, step.expect)
            ]
        reports.append(report)
    return RefereeReport(path=str(script.path), game=script.game, steps=reports)


def check_skipped(game: Game, report: StepReport, skipped: list[Any]
                  ) -> list[tuple[int, int, str]]:
    """The `expect`s of presses left out (camera only), checked with the next step seen.

    Each press's expect is checked where its press would have been: at the first point on
    the way to the next step (the inferred ends of phases are where the presses were) that
    has its phase, active player and turn; without those, just before the step's first
    move that was seen. `legal` and `violations` belonged to the press itself (which was
    legal, or it would not have been left out)."""
    entries = report.moves
    start = entries[0].seq - 1 if entries else len(game.log)
    where = [game.positions[e.seq - 1] for e in entries] + [
        (game.state.turn, game.state.active, game.phase)]
    first_seen = next((i for i, e in enumerate(entries) if e.source != "automatic"),
                      len(entries))
    at = 0
    problems: list[tuple[int, int, str]] = []
    for step in skipped:
        position = {k: v for k, v in step.expect.items() if k in ("phase", "active", "turn")}
        rest = {k: v for k, v in step.expect.items()
                if k not in position and k not in ("legal", "violations")}
        point = first_seen
        if position:
            match = next((i for i in range(at, len(where)) if _at(where[i], position)), None)
            if match is None:
                passed = ", ".join(f"turn {t} {a} {p}" for t, a, p in where[at:])
                problems.append((step.index, step.line,
                                 f"expected {position} on the way, passed {passed}"))
                continue
            at = point = match
        if rest:
            then = Game.replay(game.log[:start + point], game.config, game.ruleset)
            there = StepReport(index=report.index, line=report.line)
            _fill_state(then, there)
            problems += [(step.index, step.line, p)
                         for p in check_expect(then, there, rest, strict=False)]
    return problems


def _at(position: tuple[int, str, str], want: Mapping[str, Any]) -> bool:
    turn, active, phase = position
    got = {"turn": str(turn), "active": active, "phase": phase}
    return all(got[k] == str(v) for k, v in want.items())


def _referee_step(
    game: Game, interpreter: Interpreter, table: Any, step: Any, presses: bool
) -> StepReport:
    """One step: named phase, declarations, the table change, presses (when `presses`)."""
    from companion.sim.table_state import apply_step, visible_snapshot

    report = StepReport(index=step.index, line=step.line)
    start = len(game.log)
    declare = dict(step.declare)
    if isinstance(step.phase, str) and presses:
        _advance_to(interpreter, step.phase)
    player = str(declare.get("player", game.active))
    hand = list(table.hand(player)) if hasattr(table, "hand") else []
    for move in declared_moves(game, declare, hand):
        _press(interpreter, resolve_refs(game, move), report)
    table = apply_step(table, step)
    observed = interpreter.observe(
        visible_snapshot(table, step.index, float(step.index)), "script",
        _resolved_hints(game, declare),
    )
    if observed.question is not None:
        choice = int(declare.get("choice", 0))
        report.question = observed.question.text_en + " " + " | ".join(
            f"[{i}] {c.label_en}" for i, c in enumerate(observed.question.choices)
        )
        interpreter.answer(min(choice, len(observed.question.choices) - 1))
    if step.phase is True and presses:
        _press(interpreter, Move("next-phase", game.active), report)
    if step.pass_turn and presses:
        _press(interpreter, Move("pass", game.active), report)
    report.moves = game.log[start:]
    _fill_state(game, report)
    return report


def _press(interpreter: Interpreter, move: Move, report: StepReport) -> None:
    """A person's input; one the engine refuses (the game is over) is reported."""
    try:
        interpreter.person(move)
    except GameOverError as exc:
        report.refused.append(str(exc))


def _advance_to(interpreter: Interpreter, phase: str) -> None:
    game = interpreter.game
    for _ in range(MAX_PHASE_STEPS):
        if game.phase == phase or game.outcome() is not None:
            return
        try:
            interpreter.person(Move("next-phase", game.active))
        except GameOverError:
            return


def _fill_state(game: Game, report: StepReport) -> None:
    report.phase = game.phase
    report.active = game.active
    report.turn = game.state.turn
    report.scores = {p: s.value for p, s in game.scores().items()}
    report.winner = winner_of(game)


def winner_of(game: Game) -> str | None:
    """The winner as a script writes it: an ended game without a winner (`Outcome.winner`
    None) is a draw, which `expect: {winner: draw}` must tell from a game still going on."""
    outcome = game.outcome()
    if outcome is None:
        return None
    return outcome.winner or "draw"


def check_expect(game: Game, report: StepReport, expect: Mapping[str, Any], strict: bool = True
                 ) -> list[str]:
    """Each `expect` key that does not hold, as a sentence. `strict`: a violation the
    step's `expect` does not name (with `legal` or `violations`) is a problem too."""
    problems: list[str] = []
    codes = [v.code for e in report.moves for v in e.violations if v.blocking]
    if strict and codes and "legal" not in expect and "violations" not in expect:
        problems.append(f"unexpected violations {sorted(set(codes))} (say `expect: "
                        "{violations: [...]}` where a step is meant to break a rule)")
    for key, want in expect.items():
        got: Any
        if key == "note":
            continue
        if key == "legal":
            got = report.legal
            if bool(want) != got:
                detail = "; ".join(codes) or "no violation"
                problems.append(f"expected legal: {bool(want)}, got {got} ({detail})")
        elif key == "violations":
            wanted = [want] if isinstance(want, str) else list(want or [])
            missing = [c for c in wanted if c not in codes]
            extra = sorted({c for c in codes if c not in wanted})
            if missing or extra:
                problems.append(f"expected violations {sorted(set(wanted)) or 'none'}, got "
                                f"{sorted(set(codes)) or 'none'}")
        elif key == "refused":
            if bool(want) != bool(report.refused):
                problems.append(f"expected refused: {bool(want)}, got "
                                f"{report.refused or 'nothing refused'}")
        elif key in ("phase", "active", "turn"):
            got = {"phase": report.phase, "active": report.active, "turn": report.turn}[key]
            if str(got) != str(want):
                problems.append(f"expected {key} {want!r}, got {got!r}")
        elif key == "winner":
            got = report.winner
            if str(got).lower() != str(want).lower():
                problems.append(f"expected winner {want!r}, got {got!r}")
        elif key == "score":
            problems += _per_player(key, want, report.scores)
        elif key == "hands":
            counts = {p: game.state.count(hand_zone(p)) for p in ("p1", "p2")}
            problems += _per_player(key, want, counts)
        else:
            values = game.ruleset.expect_value(game.state, key)
            if values is NO_EXPECT_KEY:
                problems.append(f"expect key {key!r} is not known to the {game.config.game} rules")
            elif values is None:
                if want not in (None, "none"):  # scripts may write "none" for nothing
                    problems.append(f"expected {key} {want!r}, got none")
            elif isinstance(values, dict) and isinstance(want, Mapping):
                problems += _per_player(key, want, values)
            elif isinstance(values, list | set | tuple):
                names = set(values) | {str(v).rpartition("#")[0] for v in values}
                missing = [w for w in ([want] if isinstance(want, str) else want)
                           if w not in names]
                if missing:
                    problems.append(f"expected {key} to include {missing}, got {sorted(values)}")
            elif values != want:
                problems.append(f"expected {key} {want!r}, got {values!r}")
    return problems


def _per_player(key: str, want: Any, got: Mapping[str, Any]) -> list[str]:
    if not isinstance(want, Mapping):
        return [f"expect {key} must map players to values, got {want!r}"]
    return [
        f"expected {key} of {p} = {v!r}, got {got.get(p)!r}"
        for p, v in want.items()
        if got.get(p) != v
    ]
