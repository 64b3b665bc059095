"""The one interface every game implements, with the parts all games share.

A ruleset is stateless: it sets up a `GameState` from a `GameConfig` and then answers
questions about a state (legal moves, violations of a move, prompt, scores, outcome, views)
and applies moves to it. The `Game` facade (companion.engine.game) adds the log, undo and
replay on top, so a ruleset only has to know its game's rules.

Shared here: phase and turn moves ("next-phase", "pass"), "concede", the generic checks (is
it your turn, is the game over), views that never leak hidden cards, and the invariants the
conformance test checks for every game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.engine.api import (
    OBSERVERS,
    PLAYERS,
    GameConfig,
    Move,
    ObserverError,
    Outcome,
    Prompt,
    Score,
    Violation,
    other,
)
from companion.engine.cards import Catalog
from companion.engine.effects import check_hooks
from companion.engine.flow import Flow
from companion.engine.state import GameState

if TYPE_CHECKING:
    from companion.engine.interpreter import SnapshotDiff

GENERIC = "Grundregeln / general rules"


def general_violation(code: str, en: str, de: str, **kw: Any) -> Violation:
    return Violation(code=code, message_en=en, message_de=de, rule=GENERIC, **kw)


class Ruleset(ABC):
    """One game's rules behind the engine's common interface."""

    game_id: str = ""
    rulebook: str = ""
    move_kinds: tuple[str, ...] = ()
    flow: Flow

    # ------------------------------------------------------------------ setup
    def new_state(self, config: GameConfig) -> GameState:
        """A fresh state (catalog, seeded random source); `setup` fills it."""
        state = GameState(
            game=self.game_id,
            catalog=Catalog.for_game(self.game_id, config.cards),
            players=config.players,
            first=config.first,
            active=config.first,
            seed=config.seed,
            rng=random.Random(config.seed),
        )
        catalog = state.catalog
        check_hooks((cid, catalog.card(cid).get("hook")) for cid in catalog.ids())
        return state

    @abstractmethod
    def setup(self, config: GameConfig) -> GameState:
        """Set a game up: decks, starting player, seed, optional mid-game `setup`."""

    # ------------------------------------------------------------------ moves
    @abstractmethod
    def legal_moves(self, state: GameState) -> list[Move]:
        """Every legal move now (for a camera-driven game: the physical moves that are legal)."""

    def check(self, state: GameState, move: Move) -> list[Violation]:
        """Violations of `move` in `state` (empty when legal)."""
        found = self.check_common(state, move)
        if found and found[0].code in ("game.over", "game.unknown-move"):
            return found
        return found + self.check_specific(state, move)

    @abstractmethod
    def check_specific(self, state: GameState, move: Move) -> list[Violation]:
        """The game's own checks of `move`."""

    def apply(self, state: GameState, move: Move) -> None:
        """Apply `move`, legal or not: the table is what it is."""
        if move.kind == "next-phase":
            self.flow.advance(state)
        elif move.kind == "pass":
            self.flow.end_turn(state)
        elif move.kind == "concede":
            state.outcome = Outcome(
                other(move.player),
                "concede",
                f"{move.player} conceded",
                f"{move.player} hat aufgegeben",
            )
        elif move.kind == "declare":
            state.flags.setdefault("declared", []).append([move.player, str(move.value)])
        else:
            self.apply_specific(state, move)
        self.after_move(state)

    @abstractmethod
    def apply_specific(self, state: GameState, move: Move) -> None:
        """Apply one of the game's own moves."""

    def after_move(self, state: GameState) -> None:  # noqa: B027 (optional hook)
        """Hook after every move (win checks); games override it when they need it."""

    def check_common(self, state: GameState, move: Move) -> list[Violation]:
        if state.outcome is not None:
            return [
                general_violation(
                    "game.over",
                    "The game is over.",
                    "Das Spiel ist vorbei.",
                )
            ]
        known = {"next-phase", "pass", "concede", "declare", *self.move_kinds}
        if move.kind not in known or move.player not in PLAYERS:
            return [
                general_violation(
                    "game.unknown-move",
                    f"Unknown move {move.kind!r} by {move.player!r}.",
                    f"Unbekannter Zug {move.kind!r} von {move.player!r}.",
                )
            ]
        found: list[Violation] = []
        if move.kind in ("next-phase", "pass"):
            found += self.turn_violations(state, move)
            found += self.flow.end_check(state)
        return found

    def turn_violations(self, state: GameState, move: Move) -> list[Violation]:
        """Acting out of turn (setup phases are played by both players)."""
        if self.flow.phase(state.phase).setup or move.player == state.active:
            return []
        return [
            general_violation(
                "game.not-your-turn",
                f"It is {state.active}'s turn, not {move.player}'s.",
                f"{state.active} ist am Zug, nicht {move.player}.",
            )
        ]

    # ------------------------------------------------------------------ interpreter
    def pile_zones(self) -> list[str]:
        """Zones where the camera sees only the top card (draw piles, discard piles)."""
        return []

    def explain(
        self, state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
    ) -> list[list[Move]]:
        """Candidate explanations of a table change, each a list of moves.

        Put the most literal reading (what physically happened, legal or not) last: the
        interpreter records it with its violations when no candidate is legal. `hints` are
        what a person declared with the step (for example {"player": "p2"}).
        """
        return []

    def expect_value(self, state: GameState, key: str) -> Any:
        """The value a table script's game-specific `expect` key checks (None: unknown key).

        Return a {player: value} dict for per-player keys, a list for "includes" keys.
        """
        return None

    # ------------------------------------------------------------------ reading
    def prompt(self, state: GameState, lang: str = "en") -> Prompt:
        return self.flow.prompt(state, lang)

    @abstractmethod
    def scores(self, state: GameState) -> dict[str, Score]:
        """Each player's standing in the game's own terms."""

    def outcome(self, state: GameState) -> Outcome | None:
        return state.outcome

    def view(self, state: GameState, observer: str) -> dict[str, Any]:
        """What `observer` may know: hidden zones as counts plus cards seen there."""
        if observer not in OBSERVERS:
            raise ObserverError(f"unknown observer {observer!r}; use one of {list(OBSERVERS)}")
        zones: dict[str, Any] = {}
        for zone, cards in sorted(state.zones.items()):
            if state.is_hidden(zone):
                zones[zone] = {
                    "hidden": True,
                    "count": len(cards),
                    "seen": [c for c in cards if c in state.public],
                }
                continue
            items = []
            for uid in cards:
                if uid in state.face_down and uid not in state.public:
                    items.append({"face_down": True})
                    continue
                if uid not in state.public:
                    items.append({"unseen": True})
                    continue
                item: dict[str, Any] = {"uid": uid, "name": state.facts(uid).name}
                if uid in state.face_down:
                    item["face_down"] = True
                if uid in state.tapped:
                    item["tapped"] = True
                if uid in state.attached:
                    item["on"] = state.attached[uid]
                items.append(item)
            zones[zone] = {"hidden": False, "count": len(cards), "cards": items}
        outcome = self.outcome(state)
        return {
            "game": state.game,
            "observer": observer,
            "players": list(state.players),
            "turn": state.turn,
            "active": state.active,
            "phase": state.phase,
            "zones": zones,
            "scores": {p: s.to_dict() for p, s in self.scores(state).items()},
            "outcome": outcome.to_dict() if outcome else None,
            "extra": self.view_extra(state, observer),
        }

    def view_extra(self, state: GameState, observer: str) -> dict[str, Any]:
        """Game-specific public facts for the page (bonuses, limits)."""
        return {}

    # ------------------------------------------------------------------ checks for tests
    def invariant_errors(self, state: GameState, expected_cards: int) -> list[str]:
        """Broken invariants: card conservation, index consistency, sane phase."""
        errors: list[str] = []
        if state.total_cards() != expected_cards:
            errors.append(f"{state.total_cards()} cards in play, expected {expected_cards}")
        seen: set[str] = set()
        for zone, cards in state.zones.items():
            for uid in cards:
                if uid in seen:
                    errors.append(f"{uid} is in two places")
                seen.add(uid)
                if state.where.get(uid) != zone:
                    errors.append(f"{uid} indexed at {state.where.get(uid)}, lies in {zone}")
        if not self.flow.knows(state.phase):
            errors.append(f"unknown phase {state.phase!r}")
        return errors

    def illegal_examples(self, state: GameState) -> list[Move]:
        """Moves that must be illegal now (for the conformance test)."""
        wrong = other(state.active)
        examples = [Move("next-phase", "p3"), Move("teleport", state.active)]
        if not self.flow.phase(state.phase).setup:
            examples.append(Move("pass", wrong))
        return examples
