"""Trick or Beat card effects, scenario by scenario, each against the rulebook's words.

Written to catch plausible planted bugs (a mutant that survived before): an effect that moves
a creature to its other lane must respect that lane's limit like any other move.
"""

from __future__ import annotations

from typing import Any

from companion.engine.api import Move
from companion.engine.game import Game
from tests.engine.tob_fixtures import CARDS, DECK

MOVER = {"id": "XM", "name": "Mover", "type": "tactic", "category": "other",
         "effects": [{"kind": "play", "do": "move", "target": "opponent_creature"}]}
"""A tactic that moves an opposing creature to its other lane (as Geheime Finte)."""
PUSHER = {"id": "XK", "name": "Pusher", "type": "creature", "attack": 1, "survival": 4,
          "faction": "Gehirn",
          "effects": [{"kind": "activatable", "lane": "active", "do": "move",
                       "target": "opponent_creature"}]}
"""A creature whose activatable ability does the same (as Logikkauz)."""


def position(table: dict[str, Any]) -> Game:
    """Ada's main phase with the mover in her hand."""
    setup = {"turn": 3, "active": "p1", "phase": "main", "table": table,
             "hands": {"p1": 3, "p2": 3}}
    g = Game.new("trick-or-beat", ("Ada", "Bo"), {"shared": [*DECK, "XM#1", "XK#1"]}, "p1", 1,
                 setup, [*CARDS, MOVER, PUSHER])
    assert g.state.resolve("XM#1", "p1.hand")
    return g


def test_an_effect_does_not_move_a_creature_into_a_full_lane() -> None:
    """"Auf jeder Lane können maximal 2 Wesen liegen": Bo's passive lane holds two, so the
    tactic's move of his active creature to it does nothing; the tactic is still played
    (it lies on the discard pile)."""
    g = position({"p1.active": ["XA#1"], "p2.active": ["XA#2"],
                  "p2.passive": ["XB#2", "XD#1"]})
    g.push(Move("tactic", "p1", ("XM#1",), target="XA#2"))
    assert g.state.where["XA#2"] == "p2.active"
    assert g.state.count("p2.passive") == 2
    assert g.state.where["XM#1"] == "shared.discard"


def test_an_effect_moves_a_creature_where_the_trick_pile_raised_the_limit() -> None:
    """"Das Limit lässt sich mit dem Trickstapel auf bis zu 5 erhöhen" - "1. Auf jeder deiner
    Lanes können 3 Wesen liegen": with one card on Bo's trick pile his passive lane takes a
    third creature, so the same move happens."""
    g = position({"p1.active": ["XA#1"], "p2.active": ["XA#2"],
                  "p2.passive": ["XB#2", "XD#1"], "p2.trick": 1})
    g.push(Move("tactic", "p1", ("XM#1",), target="XA#2"))
    assert g.state.where["XA#2"] == "p2.passive"
    assert g.state.count("p2.passive") == 3


def test_an_effect_moves_a_creature_to_a_lane_with_room() -> None:
    """The card's own effect (an opposing creature to its other lane): with room there the
    creature goes, and Bo's active lane is left empty."""
    g = position({"p1.active": ["XA#1"], "p2.active": ["XA#2"], "p2.passive": ["XB#2"]})
    g.push(Move("tactic", "p1", ("XM#1",), target="XA#2"))
    assert g.state.where["XA#2"] == "p2.passive"
    assert g.state.count("p2.active") == 0


def test_an_activated_ability_does_not_move_a_creature_into_a_full_lane() -> None:
    """"Fähigkeiten haben Vorrang vor den Grundregeln des Spiels" lets an ability move a
    creature, not break the lane limit it does not name: Bo's full passive lane takes no
    third creature from Ada's Pusher either."""
    g = position({"p1.active": ["XK#1"], "p2.active": ["XA#2"],
                  "p2.passive": ["XB#2", "XD#1"]})
    assert g.push(Move("activate", "p1", ("XK#1",), value=0, target="XA#2")) == []
    assert g.state.where["XA#2"] == "p2.active"
    assert g.state.count("p2.passive") == 2
