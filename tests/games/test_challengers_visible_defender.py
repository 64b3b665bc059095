"""Challengers!: the one visible card of the flag holder's stack defends (rulebook: "Die
Verteidigungsstärke bestimmt sich nur durch die 1 sichtbare Karte ... aber NICHT durch die
verdeckten Karten")."""

from __future__ import annotations

from companion.engine.api import Move
from tests.games.test_challengers_rules import new_game, reveal


def test_the_card_the_holder_leaves_on_top_is_the_one_that_defends() -> None:
    game = new_game(["CH-002#1", "CH-001#1"], ["CH-001#2", "CH-002#2", "CH-001#3"])
    assert reveal(game, "p1", "CH-002#1") == []
    assert reveal(game, "p2", "CH-001#2") == [] and reveal(game, "p2", "CH-002#2") == []
    game.push(Move("bench", "p1", ("CH-002#1",), to="p1.bench1"))
    assert (game.state.flags["holder"], game.state.flags["flag_card"]) == ("p2", "CH-002#2")
    game.push(Move("stack", "p2", ("CH-001#2", "CH-002#2")))  # Bo lays the first card on top
    assert game.state.flags["flag_card"] == "CH-001#2"
    assert game.state.cards_in("p2.play")[-1] == "CH-001#2"
