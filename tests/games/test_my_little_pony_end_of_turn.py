"""My Little Pony CCG, "Zug Ende", at and around each limit (issue 31: boundary mutants).

Rulebook: "Hat man mehr als 8 Handkarten, muss man so viele Karten auf den Ablagestapel
abwerfen, bis es nur noch 8 Handkarten sind. Dann wird die Anzahl der Freundekarten im Zuhause
kontrolliert. Sind es mehr, als der Zuhausewert auf deinem Hauptcharakter erlaubt, werden
überschüssige Freunde auf den Ablagestapel gelegt."

So with 8 cards nothing is discarded and with 9 one is; with friends at home up to the home
value (3 for Ada's unboosted mane here) none is retired, with one more one is.
"""

from __future__ import annotations

import pytest

from companion.engine.api import Move
from tests.games.test_my_little_pony_rules import DECKS, codes, position

MANE = ["PR4"]
FRIENDS = ["PR22", "PR26", "PR28", "PR29"]


@pytest.mark.parametrize("hand", [7, 8, 9, 10])
def test_cards_are_discarded_only_above_eight(hand: int) -> None:
    g = position({}, phase="end", hands={"p1": hand}, decks={**DECKS, "p1": DECKS["p1"] * 2})
    over = hand > 8
    card = g.state.cards_in("p1.hand")[0]
    assert codes(g.check(Move("discard", "p1", (card,)))) == ([] if over else ["mlp.no-reason"])
    assert codes(g.check(Move("pass", "p1"))) == (["mlp.hand-limit"] if over else [])


@pytest.mark.parametrize("friends", [2, 3, 4])
def test_friends_are_retired_only_above_the_home_value(friends: int) -> None:
    g = position({"p1.home": [*MANE, *FRIENDS[:friends]]}, phase="end", hands={"p1": 4})
    over = friends > 3
    retire = Move("retire", "p1", (f"{FRIENDS[0]}#1",))
    assert codes(g.check(retire)) == ([] if over else ["mlp.no-reason"])
    assert codes(g.check(Move("pass", "p1"))) == (["mlp.home-limit"] if over else [])


def test_only_the_active_player_discards_and_only_in_the_end_phase() -> None:
    """Bo holds 10 cards in Ada's end phase, Ada 10 in her main phase: neither may discard
    for the hand limit, which is checked at the end of one's own turn."""
    decks = {**DECKS, "p1": DECKS["p1"] * 2, "p2": DECKS["p2"] * 2}
    g = position({}, phase="end", hands={"p1": 4, "p2": 10}, decks=decks)
    bo_card = g.state.cards_in("p2.hand")[0]
    assert codes(g.check(Move("discard", "p2", (bo_card,)))) == ["mlp.no-reason"]
    g = position({}, phase="main", hands={"p1": 10}, decks=decks)
    ada_card = g.state.cards_in("p1.hand")[0]
    assert codes(g.check(Move("discard", "p1", (ada_card,)))) == ["mlp.no-reason"]
