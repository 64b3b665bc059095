"""Positions written out by hand with the moves the rulebook allows in them, compared with the
game's list of legal moves of those kinds (the whole set: nothing missing, nothing extra)."""

from __future__ import annotations

from companion.engine.game import Game
from tests.rulebook import test_trick_or_beat_numbers as tob


def listed(game: Game, kind: str) -> set[tuple[object, ...]]:
    return {(m.cards, m.to, m.target) for m in game.legal_moves if m.kind == kind}


def test_trick_or_beat_main_phase() -> None:
    """p1: A4 on the active lane, A1 on the passive lane, A2 and a tactic in hand; p2: S5 on
    the active lane, S3 on the passive lane. Summon: only onto the passive lane (1 of 2
    places taken). Attack: only from the active lane, only the active S5 (S3 is protected
    while p2's active lane is occupied)."""
    g = tob.position(p1_active=["A4#1"], p1_passive=["A1#1"], p2_active=["S5#1"],
                     p2_passive=["S3#1"], deck=("A2#1",), hands={"p1": 2, "p2": 2})
    assert g.state.resolve("A2#1", "p1.hand")
    g.state.public.add("A2#1")
    assert listed(g, "summon") == {(("A2#1",), "p1.passive", None)}
    assert listed(g, "attack") == {(("A4#1",), None, "S5#1")}


def test_trick_or_beat_any_group_of_attackers() -> None:
    """"Bestimme beliebig viele Angreifer": with A1, A2 and A3 ready on p1's active lane (1
    trick card: 3 per lane) and S4 and S9 on p2's active lane, each of the 7 groups (3 alone,
    3 pairs, all three) may attack each of the 2 targets."""
    g = tob.position(p1_active=["A1#1", "A2#1", "A3#1"], p1_trick=1,
                     p2_active=["S4#1", "S9#1"])
    groups = [("A1#1",), ("A2#1",), ("A3#1",), ("A1#1", "A2#1"), ("A1#1", "A3#1"),
              ("A2#1", "A3#1"), ("A1#1", "A2#1", "A3#1")]
    assert listed(g, "attack") == {(group, None, t) for group in groups
                                   for t in ("S4#1", "S9#1")}


def test_creature_crush_kampfphase_with_the_rulebooks_dice() -> None:
    """Dice 2, 4 and 5 (the rulebook's example) pay 2, 4, 5, 6, 7, 9 or 11. Free places: B1,
    B3, and A2 (its B place is taken). The hand holds creatures costing 1, 3, 6 and 11."""
    cards = [{"id": f"K{c}", "name": f"Kosten {c}", "type": "creature", "cost": c,
              "attack": 1, "life": 9} for c in (1, 3, 6, 11)]
    setup = {"turn": 3, "active": "p1", "phase": "start", "hands": {"p1": 4, "p2": 4},
             "table": {"p1.B2": ["CC-002"]}}
    from tests.games.test_creature_crush_rules import P1_CAMP, P2_CAMP, roll

    camp = [*(f"K{c}" for c in (1, 3, 6, 11)), *(c for c in P1_CAMP if c != "CC-002")]
    g = Game.new("creature-crush", ("Ada", "Bo"), {"p1": camp, "p2": P2_CAMP}, "p1", 1, setup,
                 cards)
    for c in (1, 3, 6, 11):  # the hand holds them (known, so later resolving keeps them)
        assert g.state.resolve(f"K{c}#1", "p1.hand")
        g.state.public.add(f"K{c}#1")
    roll(g, 2, 4, 5)
    payable = {6, 11}  # of 1, 3, 6, 11
    expected = {((f"K{c}#1",), place, None) for c in payable
                for place in ("p1.B1", "p1.B3", "p1.A2")}
    summons = {(m.cards, m.to, m.target) for m in g.legal_moves
               if m.kind == "summon" and m.cards[0].startswith("K")}
    assert summons == expected
