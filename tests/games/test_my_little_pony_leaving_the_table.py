"""My Little Pony: a card leaving the table takes what is attached to it along, a new problem
comes from the own problem deck, the opening hand is filled up to six (not from an empty
deck), and a position may name action tokens for one player only (rulebook: "Zunächst kehren
alle auf dem Problem befindlichen Charaktere zurück ins Zuhause und alle Ressourcen werden von
dem Problem entfernt"; "Ziehe 6 Karten").
"""

from __future__ import annotations

from companion.engine.api import Move
from companion.engine.game import Game
from companion.games.my_little_pony import effects as fx
from tests.games.test_my_little_pony_rules import DECKS, GAME, faceoff_position, position

FRIEND, RESOURCE = "PR54#1", "PR136#1"  # Comet Tail, Foal Free Press


def test_a_friend_taken_off_the_table_takes_its_resource_to_the_discard_pile() -> None:
    g = position({"p1.home": ["PR4", FRIEND, RESOURCE]}, on={RESOURCE: FRIEND},
                 decks={**DECKS, "p1": [*DECKS["p1"], "PR136"]})
    g.push(Move("remove", "p1", (FRIEND,)))
    assert g.state.where[FRIEND] == "p1.discard"
    assert g.state.where[RESOURCE] == "p1.discard" and RESOURCE not in g.state.attached


def test_the_opening_hand_drawn_in_two_grabs_is_six_cards() -> None:
    g = Game.new(GAME, seed=4)
    g.push(Move("draw", "p1", value=2))
    g.push(Move("draw", "p1"))
    assert g.state.count("p1.hand") == 6


def test_a_position_with_tokens_for_one_player_gives_the_other_none() -> None:
    g = position({}, phase="main", active="p1", action_tokens={"p1": 3})
    assert (fx.tokens(g.state, "p1"), fx.tokens(g.state, "p2")) == (3, 0)


def test_a_new_problem_comes_from_the_own_problem_deck() -> None:
    """"Das Problem wandert dann unter das Problem Deck und dessen oberste Problem Card wird
    ins Spiel gebracht": the opponent's problem card is not it."""
    g = faceoff_position((5, 0))
    wrong = [v for v in g.check(Move("new-problem", "p1", ("PR168#1",))) if v.blocking]
    assert [(v.code, v.cards) for v in wrong] == [("mlp.not-from-problem-deck", ("PR168#1",))]


def test_an_opening_draw_from_an_empty_deck_is_refused_as_such() -> None:
    """A deck of two cards (besides the mane) gives no third opening card."""
    g = Game.new(GAME, ("Ada", "Bo"), decks={**DECKS, "p1": ["PR4", "PR54", "PR63"]}, seed=3)
    g.push(Move("draw", "p1", value=2))
    assert [v.code for v in g.check(Move("draw", "p1")) if v.blocking] == ["mlp.deck-empty"]
