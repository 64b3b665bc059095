"""Phases and turns as declarative specs, run by one flow engine for every game.

A game lists its phases (texts in English and German, what may and must be done, what ends
the phase, hooks run when a phase begins or ends, and checks that say what is still missing
before the phase may end). `Flow` moves a `GameState` through them: the next phase, the end
of a turn, the start of the opponent's turn. Setup phases (a draft, a mulligan) come before
the first turn and are played by both players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from companion.engine.api import Prompt, Violation, other
from companion.engine.state import GameState

Hook = Callable[[GameState], None]
EndCheck = Callable[[GameState], list[Violation]]


@dataclass(frozen=True)
class Text:
    en: str
    de: str

    def get(self, lang: str) -> str:
        return self.de if lang == "de" else self.en


@dataclass(frozen=True)
class PhaseSpec:
    """One phase: names, prompts, hooks and the check that guards leaving it."""

    id: str
    name: Text
    may: tuple[Text, ...] = ()
    must: tuple[Text, ...] = ()
    ends: Text = Text("the player ends the phase", "der Spieler beendet die Phase")
    automatic: tuple[Text, ...] = ()
    on_begin: Hook | None = None
    on_end: Hook | None = None
    end_check: EndCheck | None = None
    setup: bool = False
    moves: tuple[str, ...] = ()
    """The game's own move kinds that can happen in this phase (empty: not declared). The
    interpreter's phase inference skips phases that do not list a kind some phase lists;
    legality itself is always the rules' check."""


@dataclass(frozen=True)
class FlowSpec:
    """The whole shape of a game: setup phases, then the phases of every turn."""

    setup_phases: tuple[PhaseSpec, ...]
    turn_phases: tuple[PhaseSpec, ...]
    first_turn_start: str | None = None
    on_turn_begin: Hook | None = None
    on_turn_end: Hook | None = None
    extra: dict[str, str] = field(default_factory=dict)


class Flow:
    """Runs a `FlowSpec` on a state."""

    def __init__(self, spec: FlowSpec) -> None:
        self.spec = spec
        self._by_id = {p.id: p for p in (*spec.setup_phases, *spec.turn_phases)}

    def phase(self, phase_id: str) -> PhaseSpec:
        return self._by_id[phase_id]

    def knows(self, phase_id: str) -> bool:
        return phase_id in self._by_id

    def start(self, state: GameState) -> None:
        """Enter the first setup phase, or the first turn when the game has none."""
        if self.spec.setup_phases:
            self._enter(state, self.spec.setup_phases[0])
        else:
            self.begin_turn(state, state.first, first=True)

    def begin_turn(self, state: GameState, player: str, first: bool = False) -> None:
        state.turn += 1
        state.active = player
        if self.spec.on_turn_begin:
            self.spec.on_turn_begin(state)
        start = self.spec.turn_phases[0]
        if first and self.spec.first_turn_start:
            start = self._by_id[self.spec.first_turn_start]
        self._enter(state, start)

    def end_setup(self, state: GameState, player: str) -> None:
        """Leave the setup phases now and give the first turn to `player`: for a game whose
        setup decides who plays first (Challengers!: the starter's opponent attacks first),
        where `advance` would start with `state.first`."""
        spec = self._by_id.get(state.phase)
        if spec is not None and spec.setup and spec.on_end:
            spec.on_end(state)
        self.begin_turn(state, player, first=True)

    def end_check(self, state: GameState) -> list[Violation]:
        """What is still missing before the current phase may end."""
        spec = self._by_id.get(state.phase)
        if spec is None or spec.end_check is None:
            return []
        return spec.end_check(state)

    def advance(self, state: GameState) -> None:
        """Leave the current phase: the next phase, or the opponent's next turn."""
        spec = self._by_id[state.phase]
        if spec.on_end:
            spec.on_end(state)
        if spec.setup:
            phases = self.spec.setup_phases
            idx = phases.index(spec)
            if idx + 1 < len(phases):
                self._enter(state, phases[idx + 1])
            else:
                self.begin_turn(state, state.first, first=True)
            return
        phases = self.spec.turn_phases
        idx = phases.index(spec)
        if idx + 1 < len(phases):
            self._enter(state, phases[idx + 1])
            return
        self.end_turn(state)

    def end_turn(self, state: GameState) -> None:
        spec = self._by_id.get(state.phase)
        if spec is not None and spec is not self.spec.turn_phases[-1] and spec.on_end:
            spec.on_end(state)
        if self.spec.on_turn_end:
            self.spec.on_turn_end(state)
        self.begin_turn(state, other(state.active))

    def _enter(self, state: GameState, spec: PhaseSpec) -> None:
        state.phase = spec.id
        if spec.on_begin:
            spec.on_begin(state)

    def prompt(self, state: GameState, lang: str, may_extra: tuple[str, ...] = ()) -> Prompt:
        spec = self._by_id[state.phase]
        return Prompt(
            lang=lang,
            turn=state.turn,
            active=state.active,
            phase=spec.id,
            phase_name=spec.name.get(lang),
            may=tuple(t.get(lang) for t in spec.may) + may_extra,
            must=tuple(v.message(lang) for v in self.end_check(state))
            if spec.end_check is not None
            else tuple(t.get(lang) for t in spec.must),
            ends=spec.ends.get(lang),
            automatic=tuple(t.get(lang) for t in spec.automatic),
        )
