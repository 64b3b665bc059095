"""The one interface every game implements, with the parts all games share.

A ruleset is stateless: it sets up a `GameState` from a `GameConfig` and then answers
questions about a state (legal moves, violations of a move, prompt, scores, outcome, views)
and applies moves to it. The `Game` facade (companion.engine.game) adds the log, undo and
replay on top, so a ruleset only has to know its game's rules.

Shared here: phase and turn moves ("next-phase", "pass"), "concede", the generic checks (is
it your turn, is the game over, is the move kind known), the guard that a move after the end
changes nothing, legal moves as the game's candidates that check clean, running the game's
declared move table (`companion.engine.moves`: each kind's check, apply, texts and phases),
`expect` keys, the mid-game start, views that
never leak hidden cards, and the invariants the conformance test checks for every game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from companion.engine.api import (
    OBSERVERS,
    PLAYERS,
    GameConfig,
    Move,
    MoveFormatError,
    ObserverError,
    Outcome,
    Prompt,
    Score,
    SetupError,
    Violation,
    blocking,
    other,
)
from companion.engine.cards import Catalog
from companion.engine.effects import check_hooks
from companion.engine.flow import Flow
from companion.engine.moves import MoveTable
from companion.engine.state import GameState, core_flags

if TYPE_CHECKING:
    from companion.engine.snapshot_diff import SnapshotDiff

GENERIC = "Grundregeln / general rules"
MAX_MOVE_VALUE = 10_000
"""No count, die or number on a table comes near this: a larger value is a malformed move."""
UNKNOWN_CARD = "?"
CORE_KINDS: tuple[str, ...] = ("next-phase", "pass", "concede", "declare", "misplace")
"""Move kinds every game knows; the core applies them. "misplace" is no player's move: the
interpreter records it when the camera sees a card where no reading of the change put it (a
creature laid on the dice, a card dropped on a draw pile), so the referee is never silent
about a card the game cannot account for."""


class _NoExpectKey:
    """The type of `NO_EXPECT_KEY` (compare with `is`)."""

    def __repr__(self) -> str:
        return "NO_EXPECT_KEY"


NO_EXPECT_KEY: Any = _NoExpectKey()
"""What `Ruleset.expect_value` returns for a key the game does not know (None is a value)."""


def general_violation(code: str, en: str, de: str, **kw: Any) -> Violation:
    return Violation(code=code, message_en=en, message_de=de, rule=GENERIC, **kw)


def misplaced(move: Move) -> Violation:
    """The violation of a "misplace" record: the card named, the place it lies in."""
    zone = move.option("zone") or "?"
    cards = ", ".join(move.cards)
    return general_violation(
        "game.misplaced",
        f"{cards} lies in {zone}, where no move of the game puts it: put it back where it was.",
        f"{cards} liegt in {zone}, wohin kein Zug des Spiels sie legt: leg sie zurück, wo sie "
        f"lag.",
        cards=move.cards, zones=(zone,),
    )


class Ruleset(ABC):
    """One game's rules behind the engine's common interface."""

    game_id: str = ""
    rulebook: str = ""
    moves: MoveTable[Any] = MoveTable()
    """The game's own move kinds, declared once: check, apply, texts, phases."""
    expect_keys: tuple[str, ...] = ()
    """The game's own table-script `expect` keys (answered by `expect_value`)."""
    report_kinds: tuple[str, ...] = ()
    """Kinds (of `move_kinds`) that only report where a marker was seen (a flag token): they
    change nothing, so once the game is over they are no move after the end."""
    flow: Flow

    @property
    def move_kinds(self) -> tuple[str, ...]:
        """The game's own kinds (besides next-phase, pass, concede, declare): its table's."""
        return self.moves.kinds

    @property
    def move_texts(self) -> tuple[tuple[str, str, str], ...]:
        """(kind, English, German) templates of the game's own kinds (`describe` uses them)."""
        return tuple((kind, en, de) for kind, (en, de) in self.moves.texts.items())

    @cached_property
    def known_kinds(self) -> frozenset[str]:
        """The core kinds and the game's own."""
        return frozenset((*CORE_KINDS, *self.move_kinds))

    def require_known(self, move: Move) -> None:
        """A move of a kind this game does not have cannot be applied (MoveFormatError)."""
        if move.kind not in self.known_kinds:
            raise MoveFormatError(
                f"{self.game_id} has no move {move.kind!r}; "
                f"its moves: {', '.join(sorted(self.known_kinds))}"
            )

    @cached_property
    def _texts(self) -> dict[str, tuple[str, str]]:
        return self.moves.texts

    def describe(self, move: Move, lang: str = "en") -> str:
        """`move` in words with this game's own texts (several games share kind names)."""
        return move.describe(lang, self._texts)

    # ------------------------------------------------------------------ setup
    def new_state(self, config: GameConfig) -> GameState:
        """A fresh state (catalog, seeded random source); `setup` fills it."""
        if config.first not in PLAYERS:
            raise SetupError(f"first player must be p1 or p2, not {config.first!r}")
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
    def legal_moves(self, state: GameState) -> list[Move]:
        """Every legal move now: the game's candidates that check without a blocking
        violation (none once the game is over)."""
        if state.outcome is not None:
            return []
        return [m for m in self.candidate_moves(state) if not blocking(self.check(state, m))]

    @abstractmethod
    def candidate_moves(self, state: GameState) -> list[Move]:
        """The moves worth offering now (for a camera-driven game: the physical moves);
        `legal_moves` keeps those that are legal."""

    def check(self, state: GameState, move: Move) -> list[Violation]:
        """Violations of `move` in `state` (empty when legal)."""
        found = self.check_common(state, move)
        if found and found[0].code in ("game.over", "game.unknown-move"):
            return found
        if move.kind == "misplace":
            return [*found, misplaced(move)]
        malformed = self.malformed(state, move)
        if malformed:
            return found + malformed
        return found + self.check_specific(state, move)

    def malformed(self, state: GameState, move: Move) -> list[Violation]:
        """What makes `move` no possible table change: a card or zone this game does not
        have, a number no table shows. Such a move is recorded with these violations and
        changes nothing."""
        found: list[Violation] = []
        unknown = [c for c in move.cards if c != UNKNOWN_CARD and c not in state.where]
        if unknown:
            found.append(general_violation(
                "game.unknown-card",
                f"No card {', '.join(unknown)} is in this game.",
                f"Keine Karte {', '.join(unknown)} ist in diesem Spiel.",
                cards=tuple(unknown),
            ))
        if move.to is not None and move.to not in state.zones:
            found.append(general_violation(
                "game.unknown-zone",
                f"This game has no zone {move.to!r}.",
                f"Dieses Spiel hat keinen Bereich {move.to!r}.",
                zones=(str(move.to),),
            ))
        if isinstance(move.value, int) and abs(move.value) > MAX_MOVE_VALUE:
            found.append(general_violation(
                "game.bad-value",
                f"The value {move.value} is beyond anything on a table.",
                f"Der Wert {move.value} liegt jenseits von allem auf einem Tisch.",
            ))
        return found

    def check_specific(self, state: GameState, move: Move) -> list[Violation]:
        """The game's own checks of `move` (also called for the core kinds): by default
        none for a core kind, else what the move table says. Games override it for checks
        before the table's (whose turn it is) and call `self.moves.check` themselves."""
        if move.kind in CORE_KINDS:
            return []
        return self.moves.check(self, state, move)

    def apply(self, state: GameState, move: Move) -> None:
        """Apply `move`, legal or not: the table is what it is.

        After the end of the game a move changes nothing (it is recorded with `game.over`);
        a move of a kind the game does not have raises MoveFormatError.
        """
        self.require_known(move)
        if state.outcome is not None or move.player not in PLAYERS:
            return  # after the end, or nobody's move (recorded with game.unknown-move)
        if self.malformed(state, move):
            return  # no table change can look like this
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
            core_flags(state).setdefault("declared", []).append([move.player, str(move.value)])
        elif move.kind == "misplace":
            pass  # the game keeps the card where its rules hold it until it is put back
        else:
            self.apply_specific(state, move)
        if state.outcome is None:
            self.after_move(state)

    def apply_specific(self, state: GameState, move: Move) -> None:
        """Apply one of the game's own moves (its kind is one of `move_kinds`) with the move
        table; games override it for bookkeeping around every move."""
        self.moves.apply(self, state, move)

    def after_move(self, state: GameState) -> None:  # noqa: B027 (optional hook)
        """Hook after every move that left the game going (win checks, automatic steps);
        games override it when they need it."""

    def check_common(self, state: GameState, move: Move) -> list[Violation]:
        if state.outcome is not None and move.kind in self.report_kinds \
                and move.player in PLAYERS:
            return []
        if state.outcome is not None:
            return [
                general_violation(
                    "game.over",
                    "The game is over.",
                    "Das Spiel ist vorbei.",
                )
            ]
        if move.kind not in self.known_kinds or move.player not in PLAYERS:
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

    def doubtful_reading(self, state: GameState, seen: tuple[tuple[Move, str], ...]) -> bool:
        """True when reading a table change as moves made after the players moved on (each
        with the phase it would happen in) rests on something the camera cannot see, so a
        person is asked instead (My Little Pony: a draw read as one paid with hidden action
        tokens in the main phase). The default: never."""
        return False

    def unconfirmed_reading(self, state: GameState, seen: tuple[tuple[Move, str], ...]) -> bool:
        """True when the one legal reading of a table change (each move with its phase), legal
        where the game is and not the change as seen, would decide the game on something the
        camera cannot confirm (Trick or Beat: a trick card that wins, where the same change may
        be the pile's top taken back). A person is asked, the reading as seen first and the
        legal one the default (never assumed: it ends the game). The default: never."""
        return False

    def expect_value(self, state: GameState, key: str) -> Any:
        """The value a table script's game-specific `expect` key (one of `expect_keys`)
        checks; `NO_EXPECT_KEY` for a key the game does not know. None is a value ("none",
        nothing yet).

        Return a {player: value} dict for per-player keys, a list for "includes" keys.
        """
        return NO_EXPECT_KEY

    # ------------------------------------------------------------------ mid-game start
    def start_midgame(
        self, state: GameState, setup: Mapping[str, Any], phase: str, turn: int
    ) -> None:
        """Begin the turn a `setup` names (DESIGN.md): `phase`, `turn`, `active` as given,
        else the defaults; the turn's begin hook runs, then the phase is set as given."""
        chosen = str(setup.get("phase", phase))
        turn_phases = [p.id for p in self.flow.spec.turn_phases]
        if chosen not in turn_phases:
            raise SetupError(
                f"setup: unknown phase {chosen!r}; use {', '.join(turn_phases)}"
            )
        active = str(setup.get("active", state.first))
        if active not in PLAYERS:
            raise SetupError(f"setup: active must be p1 or p2, not {active!r}")
        state.turn = int(setup.get("turn", turn)) - 1
        self.flow.begin_turn(state, active, first=state.turn == 0)
        state.phase = chosen

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
