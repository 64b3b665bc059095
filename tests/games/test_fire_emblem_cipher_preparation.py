"""Fire Emblem Cipher: the preparation's five orbs and its lord, and where a deployed unit
stands when no row is named (rulebook: "Der Hauptcharakter hat fünf Juwelen"; a new unit
comes onto the field, the front row unless the player names the back row).
"""

from __future__ import annotations

from companion.engine.api import Move
from companion.engine.game import Game
from tests.games.test_fire_emblem_cipher_rules import CHROM, MARTH, codes, position, uid


def prepared_to_the_orbs() -> Game:
    """Both lords chosen and six cards dealt to each player: the orbs come next."""
    g = Game.new("fire-emblem-cipher", ("A", "B"), seed=4)
    for p, lord in (("p1", MARTH), ("p2", CHROM)):
        assert g.push(Move("choose-lord", p, (uid(lord),), to=f"{p}.front")) == []
        assert g.push(Move("deal", p, value=6)) == []
    return g


def test_no_more_than_five_orbs_are_laid() -> None:
    g = prepared_to_the_orbs()
    assert codes(g.check(Move("orbs", "p1", value=6))) == ["fe.orbs-too-many"]
    assert g.push(Move("orbs", "p1", value=3)) == []
    assert codes(g.check(Move("orbs", "p1", value=3))) == ["fe.orbs-too-many"]
    assert codes(g.check(Move("orbs", "p1", value=2))) == []


def test_the_preparation_does_not_end_without_a_lord() -> None:
    g = Game.new("fire-emblem-cipher", ("A", "B"), seed=4)
    missing = {v.code for v in g.check(Move("next-phase", "p1"))}
    assert "fe.lord-missing" in missing


def test_a_unit_deployed_without_a_named_row_stands_in_the_front_row() -> None:
    g = position({"p1.front": [uid(MARTH)]}, decks={"p1": ["FX-VER#1"]})
    g.push(Move("deploy", "p1", ("FX-VER#1",)))
    assert g.state.where.get("FX-VER#1") == "p1.front"
