"""Toy Duel's rules (see the package docstring), on the engine's `Ruleset` interface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.api import PLAYERS, GameConfig, Move, Outcome, Score, Violation, other
from companion.engine.flow import Flow, FlowSpec, PhaseSpec, Text
from companion.engine.moves import MoveRule, MoveTable
from companion.engine.ruleset import NO_EXPECT_KEY, Ruleset
from companion.engine.setup import deal_hands, sample_decks
from companion.engine.snapshot_diff import SnapshotDiff
from companion.engine.state import GameState, hand_zone
from tests.toy_game.texts import RULEBOOK, violation

HAND = 3
WIN_POWER = 6


def deck(player: str) -> str:
    return f"{player}.deck"


def field(player: str) -> str:
    return f"{player}.field"


MAIN = PhaseSpec(
    "main",
    Text("Main phase", "Hauptphase"),
    may=(Text("enlist one fighter from your hand", "einen Kämpfer aus der Hand einsetzen"),),
    ends=Text("the player ends the turn", "der Spieler beendet den Zug"),
)


class ToyDuel(Ruleset):
    game_id = "toy-duel"
    rulebook = RULEBOOK
    expect_keys = ("power",)
    flow = Flow(FlowSpec(setup_phases=(), turn_phases=(MAIN,),
                         on_turn_begin=lambda s: s.reset_counters("turn")))

    def setup(self, config: GameConfig) -> GameState:
        state = self.new_state(config)
        decks = dict(config.decks) or sample_decks(self.game_id, {p: "standard" for p in PLAYERS})
        for p in PLAYERS:
            state.add_zone(deck(p), hidden=True)
            state.add_zone(hand_zone(p), hidden=True)
            state.add_zone(field(p))
            for uid in reversed(list(decks.get(p, ()))):  # listed top first
                state.register(uid, deck(p), p)
            state.shuffle(deck(p))
        deal_hands(state, {"hands": {p: HAND for p in PLAYERS}}, deck)
        self.flow.start(state)
        return state

    def power(self, state: GameState, player: str) -> int:
        return sum(int(state.facts(u).get("power") or 0) for u in state.cards_in(field(player)))

    # ------------------------------------------------------------------ moves
    def candidate_moves(self, state: GameState) -> list[Move]:
        p = state.active
        enlist = [Move("enlist", p, cards=(u,), to=field(p)) for u in state.cards_in(hand_zone(p))]
        return [*enlist, Move("pass", p)]

    def _check_enlist(self, state: GameState, move: Move) -> list[Violation]:
        found: list[Violation] = []
        if move.player != state.active:
            found.append(violation("toy.not-your-turn", player=move.player, active=state.active))
        if state.counter("turn", f"enlisted-{move.player}"):
            found.append(violation("toy.once-per-turn", player=move.player))
        for uid in move.cards:
            if not state.can_resolve(uid, hand_zone(move.player)):
                found.append(violation("toy.not-in-hand", cards=(uid,), player=move.player))
        if move.to != field(move.player):
            found.append(violation("toy.wrong-field", to=move.to))
        return found

    def _apply_enlist(self, state: GameState, move: Move) -> None:
        for uid in move.cards:
            state.take(uid, hand_zone(move.player))
            state.move(uid, move.to or field(move.player))
        state.bump("turn", f"enlisted-{move.player}")

    def after_move(self, state: GameState) -> None:
        for p in PLAYERS:
            if self.power(state, p) >= WIN_POWER:
                state.outcome = Outcome(p, "power", f"{p} has power {WIN_POWER}",
                                        f"{p} hat Stärke {WIN_POWER}")
                return

    # ------------------------------------------------------------------ reading
    def scores(self, state: GameState) -> dict[str, Score]:
        return {p: Score(p, self.power(state, p), "power", "Stärke") for p in PLAYERS}

    def expect_value(self, state: GameState, key: str) -> Any:
        if key == "power":
            return {p: self.power(state, p) for p in PLAYERS}
        return NO_EXPECT_KEY

    def pile_zones(self) -> list[str]:
        return [deck(p) for p in PLAYERS]

    def explain(self, state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
                ) -> list[list[Move]]:
        moves = [Move("enlist", c.zone.split(".")[0], cards=(c.uid,), to=c.zone)
                 for c in diff.appeared if c.face_up and c.zone.endswith(".field")]
        return [moves] if moves else []

    def illegal_examples(self, state: GameState) -> list[Move]:
        examples = super().illegal_examples(state)
        idle = other(state.active)
        for uid in state.cards_in(hand_zone(idle))[:1]:
            examples.append(Move("enlist", idle, cards=(uid,), to=field(idle)))
        return examples


ToyDuel.moves = MoveTable(
    MoveRule("enlist", ToyDuel._check_enlist, ToyDuel._apply_enlist,
             "{player} enlists {cards}", "{player} setzt {cards} ein"),
)
