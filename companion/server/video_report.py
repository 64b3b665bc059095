"""What a refereed video came to, set against the script's truth.

Kept apart from rendering and refereeing (video_check) so that the comparison itself is
tested on tables made by hand, and the end-to-end bench (companion.benchmarks.e2e) reads one
report kind for every game and camera.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.snapshot import TableSnapshot

PERSONS = ("script", "none")
"""Who sits at the page: the script's person (declares, answers) or nobody at all."""


@dataclass(frozen=True)
class FinalState:
    """Where a game stands: scores, phase, turn, active player, winner."""

    scores: tuple[tuple[str, int], ...]
    phase: str
    turn: int
    active: str
    winner: str | None = None

    @classmethod
    def from_page(cls, state: Mapping[str, Any]) -> FinalState:
        """As the live page shows it (`LiveSession.state()`)."""
        status = dict(state.get("status", {}).get("en", {}))
        scores = tuple(sorted((str(s["player"]), int(s["value"]))
                              for s in status.get("scores", ())))
        outcome = state.get("outcome") or {}
        winner = outcome.get("winner") if isinstance(outcome, Mapping) else None
        return cls(scores, str(status.get("phase", "")), int(status.get("turn", 0) or 0),
                   str(status.get("active", "")), None if winner is None else str(winner))

    @classmethod
    def from_step(cls, step: Any) -> FinalState:
        """As the engine's own referee has it after a script step (`StepReport`)."""
        scores = tuple(sorted((str(p), int(v)) for p, v in dict(step.scores).items()))
        return cls(scores, str(step.phase), int(step.turn), str(step.active),
                   None if step.winner is None else str(step.winner))

    def differences(self, truth: FinalState) -> list[str]:
        """Each part that differs from `truth`, as 'what: shown (truth)'."""
        out = [f"score {p}: {v} ({dict(truth.scores).get(p)})"
               for p, v in self.scores if dict(truth.scores).get(p) != v]
        out += [f"score {p}: missing ({v})" for p, v in truth.scores
                if p not in dict(self.scores)]
        for name in ("phase", "turn", "active", "winner"):
            shown, true = getattr(self, name), getattr(truth, name)
            if shown != true:
                out.append(f"{name}: {shown} ({true})")
        return out

    def brief(self) -> str:
        scores = " ".join(f"{p}={v}" for p, v in self.scores)
        won = f", {self.winner} won" if self.winner else ""
        return f"turn {self.turn} {self.active} {self.phase}, {scores}{won}"


@dataclass(frozen=True)
class Settled:
    """A settled table the eye gave, with the frame it came from and the script step that
    frame shows (numbered as the script numbers its steps, from 1; 0: before the first)."""

    frame: int
    step: int
    snapshot: TableSnapshot


@dataclass(frozen=True)
class Shown:
    """A violation on the page, with the script step (from 1) of the input that raised it."""

    code: str
    step: int
    source: str  # "camera" (a settled table) or "person" (a declaration or an answer)


@dataclass(frozen=True)
class Asked:
    """A question the page asked, at the script step (from 1) whose table raised it."""

    step: int
    text: str
    answered: bool


@dataclass
class VideoReport:
    """What the live session made of a video, and the script's truth beside it."""

    violations: list[str]
    expected: list[str]
    frames: int
    snapshots: int
    status: dict[str, Any] = field(default_factory=dict)
    person: str = "script"
    final: FinalState | None = None
    truth: FinalState | None = None
    questions: int = 0
    unanswered: int = 0
    settled: list[Settled] = field(default_factory=list)
    shown: list[Shown] = field(default_factory=list)
    named: list[tuple[int, str]] = field(default_factory=list)
    """(script step, code) of every violation the script names."""
    asked: list[Asked] = field(default_factory=list)
    log: list[tuple[int, str]] = field(default_factory=list)
    """The page's log: (script step of the input, what happened) for every derived event."""
    unsure: list[str] = field(default_factory=list)
    """Rules shown as "not sure": a card under the lamp's reflection could explain them."""

    @property
    def extra(self) -> list[str]:
        return sorted((Counter(self.violations) - Counter(self.expected)).elements())

    @property
    def missing(self) -> list[str]:
        return sorted((Counter(self.expected) - Counter(self.violations)).elements())

    @property
    def final_wrong(self) -> list[str]:
        """How the final state on the page differs from the script's (empty: right)."""
        if self.final is None or self.truth is None:
            return ["no final state"]
        return self.final.differences(self.truth)

    @property
    def ok(self) -> bool:
        return not self.extra and not self.missing


def question_counts(events: Sequence[Any]) -> tuple[int, int]:
    """(questions asked, questions nobody answered) in a session's events: an answer names
    its question; a question the next table change replaced was left unanswered too."""
    asked = [e.seq for e in events if e.kind == "question"]
    answered = {int(e.payload.get("question", -1)) for e in events if e.kind == "answer"}
    return len(asked), sum(1 for q in asked if q not in answered)


def input_steps(events: Sequence[Any], step_of_snapshot: Mapping[int, int],
                marks: Sequence[tuple[int, int]] = ()) -> dict[int, tuple[int, str]]:
    """Event seq -> (script step, source) of every input and question. An observation: the
    step its table shows (by the snapshot's seq). A question: its input's. An answer: its
    question's. A declaration: the step the video had reached when it was made (`marks`:
    (last event seq before the person acted, step), in order); without marks, the step
    after the table seen last."""
    inputs: dict[int, tuple[int, str]] = {}
    seen = 0
    for e in events:
        if e.kind == "observation":
            seq = int(dict(e.payload.get("snapshot") or {}).get("seq", -1))
            seen = step_of_snapshot.get(seq, seen)
            inputs[e.seq] = (seen, "camera")
        elif e.kind == "question":
            inputs[e.seq] = inputs.get(int(e.payload.get("input", -1)), (seen, "camera"))
        elif e.kind == "answer":
            asked = inputs.get(int(e.payload.get("question", -1)), (seen, "person"))
            inputs[e.seq] = (asked[0], "person")
        elif e.source == "person":
            reached = [step for before, step in marks if before < e.seq]
            inputs[e.seq] = (reached[-1] if reached else seen + 1, "person")
    return inputs


def shown_violations(events: Sequence[Any], step_of_snapshot: Mapping[int, int],
                     marks: Sequence[tuple[int, int]] = ()) -> list[Shown]:
    """Every violation event with the script step of its input (`input_steps`)."""
    inputs = input_steps(events, step_of_snapshot, marks)
    return [Shown(str(e.payload.get("code", "")), *inputs.get(int(e.payload.get("input", -1)),
                                                              (0, "?")))
            for e in events if e.kind == "violation"]


def questions_asked(events: Sequence[Any], step_of_snapshot: Mapping[int, int]
                    ) -> list[Asked]:
    """Every question with the step whose table raised it and whether anyone answered."""
    inputs = input_steps(events, step_of_snapshot)
    answered = {int(e.payload.get("question", -1)) for e in events if e.kind == "answer"}
    return [Asked(inputs.get(e.seq, (0, ""))[0], _question_text(e.payload), e.seq in answered)
            for e in events if e.kind == "question"]


LOGGED = ("move", "phase", "violation", "question", "answer", "action", "note")


def page_log(events: Sequence[Any], step_of_snapshot: Mapping[int, int],
             marks: Sequence[tuple[int, int]] = ()) -> list[tuple[int, str]]:
    """Each move, phase end, violation, question and person input with the step of the
    input behind it, as the page's log says it (for reading a run back)."""
    inputs = input_steps(events, step_of_snapshot, marks)
    out = []
    for e in events:
        if e.kind not in LOGGED:
            continue
        step = inputs.get(int(e.payload.get("input", e.seq)), (0, ""))[0]
        said = e.payload.get("code") if e.kind == "violation" else e.payload.get("text_en")
        out.append((step, f"{e.kind} [{e.source}] {said or ''}".rstrip()))
    return out


def _question_text(payload: Mapping[str, Any]) -> str:
    choices = [str(c.get("label_en", "")) for c in payload.get("choices", ())
               if isinstance(c, Mapping)]
    return " ".join([str(payload.get("text_en", "")), *(f"[{i}] {c}" for i, c in
                                                          enumerate(choices))])


def named_violations(report: Any) -> list[tuple[int, str]]:
    """(step, code) of every violation the engine's referee finds on the true table."""
    return sorted((s.index, v.code) for s in report.steps for e in s.moves for v in e.violations)
