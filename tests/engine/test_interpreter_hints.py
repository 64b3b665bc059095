"""A person's hint settles a table change that several legal moves explain.

The camera cannot see whose hand a card came from. When the game's reading leaves more than one
legal explanation, the player a person named (`declare: {player: p2}`) decides; without a hint
the companion asks. Tested on a game where any player may put a card on a shared field (the toy
game, adapted) and on Trick or Beat's draft, where both players discard at the same time.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from companion import games
from companion.engine.api import GameConfig, Move, Violation
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter
from companion.engine.snapshot_diff import SnapshotDiff
from companion.engine.state import GameState
from companion.snapshot import SeenCard, TableSnapshot
from tests.engine.tob_fixtures import game as tob_game
from tests.toy_game.rules import ToyDuel


class EitherPlayer(ToyDuel):
    """Toy Duel where a card laid on a field may come from either player's hand."""

    def check_specific(self, state: GameState, move: Move) -> list[Violation]:
        return []

    def explain(self, state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
                ) -> list[list[Move]]:
        return [[Move("enlist", p, cards=(c.uid,), to=c.zone)]
                for c in diff.appeared for p in ("p1", "p2")]


@pytest.fixture
def toy() -> Iterator[None]:
    games.register("tests.toy_game.spec:SPEC")
    yield
    games.unregister("toy-duel")


def either(active: str = "p1", seed: int = 3) -> tuple[Game, Interpreter, str]:
    """The toy game in `active`'s turn, a card of p2's hand to be seen on p1's field."""
    config = GameConfig(game="toy-duel", players=("A", "B"), decks={}, first=active, seed=seed)
    game = Game(config, EitherPlayer())
    card = game.state.cards_in("p2.hand")[0]
    return game, Interpreter(game, TableSnapshot(game="toy-duel")), card


def laid(card: str) -> TableSnapshot:
    return TableSnapshot(game="toy-duel", cards=(SeenCard(card, "p1.field"),))


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("hint", ["p1", "p2"])
def test_the_named_player_is_the_one_who_moved(hint: str) -> None:
    """In the named player's own turn (in the other's, the change might also show the other
    player's turn begun, and the companion asks)."""
    _game, interp, card = either(active=hint)
    seen = interp.observe(laid(card), "camera", {"player": hint})
    assert seen.question is None
    assert [(m.kind, m.player) for m in seen.moves] == [("enlist", hint)]


@pytest.mark.usefixtures("toy")
def test_without_a_hint_a_person_is_asked() -> None:
    _game, interp, card = either()
    seen = interp.observe(laid(card), "camera", {})
    assert seen.moves == [] and seen.question is not None
    assert sorted(c.moves[0].player for c in seen.question.choices) == ["p1", "p2"]


@pytest.mark.parametrize("hint", ["p1", "p2"])
def test_a_draft_discard_is_the_named_players(hint: str) -> None:
    game = tob_game()
    game.push(Move("deal", "p1", value=15))
    game.push(Move("deal", "p2", value=15))
    interp = Interpreter(game, TableSnapshot(game="trick-or-beat"))
    card = game.state.cards_in(f"{hint}.hand")[0]
    shown = TableSnapshot(game="trick-or-beat", cards=(SeenCard(card, "shared.discard"),))
    seen = interp.observe(shown, "camera", {"player": hint})
    assert [(m.kind, m.player) for m in seen.moves] == [("discard", hint)]
    assert game.state.where[card] == "shared.discard"
