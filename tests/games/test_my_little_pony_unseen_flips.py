"""A faceoff decided by a flip nobody saw (declared without its card or power): the result
the engine applied is its belief of the deck's top, so the table or a person may still show
another one that the cards left unseen allow. Hand-worked on one challenge.

Ada (p1) challenges Yellow Parasprite (PR160, power 4, 1 point) with three power-1 friends
(PR52, PR26, PR25) and flips a 3 that everybody saw: 3 + 3 = 6. Bo (p2) flips without
naming the card; his deck holds powers 1, 1, 2, 4, 2, 2, so his side totals 4 + 1, 4 + 2
or 4 + 4: Ada may have won (6 > 5), tied (6 = 6) or lost (6 < 8).
"""

from __future__ import annotations

from companion.engine.api import Move, Violation
from companion.engine.game import Game
from companion.games.my_little_pony import effects as fx
from tests.games.test_my_little_pony_rules import DECKS, position

TROUBLEMAKER = "PR160#1"
FRIEND = "PR52#1"


def challenge(bo_names: int | None = None, ada_points: int = 0, bo_top: str = "") -> Game:
    """`bo_top`: the card the engine believes on top of Bo's deck (its guess of his flip)."""
    decks = {**DECKS, "p1": [*DECKS["p1"], "PR52"], "p2": [*DECKS["p2"], "PR160"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR26", "PR25", "PR160"]}, decks=decks,
                 phase="troublemaker", score={"p1": ada_points})
    if bo_top:
        deck = g.state.zones["p2.deck"]
        deck.remove(bo_top)
        deck.append(bo_top)
    assert g.push(Move("challenge", "p1", target=TROUBLEMAKER)) == []
    assert g.push(Move("flip", "p1", value=3)) == []
    assert g.push(Move("flip", "p2", value=bo_names)) == []
    return g


def codes(violations: list[Violation]) -> list[str]:
    return [v.code for v in violations if v.blocking]


def test_every_result_the_unseen_cards_allow_stays_open() -> None:
    g = challenge()
    record = g.state.flags["unseen_faceoff"]
    assert record is not None and record["results"] == ["none", "p1", "p2"]


def test_a_character_sent_home_says_the_challenger_lost() -> None:
    g = challenge()
    assert g.push(Move("send-home", "p1", (FRIEND,))) == []
    assert g.state.where[FRIEND] == "p1.home"
    assert g.state.where[TROUBLEMAKER] == "p1.problem"
    assert fx.points(g.state, "p1") == 0 and g.state.flags["last_faceoff"] == "p2"


def test_the_troublemaker_defeated_says_the_challenger_won() -> None:
    g = challenge()
    assert g.push(Move("faceoff-won", "p1")) == []
    assert g.state.where[TROUBLEMAKER] == "p2.discard"
    assert fx.points(g.state, "p1") == 1 and g.state.flags["send_home"] is None
    assert g.push(Move("faceoff-tied", "p1")) == []  # and back: the troublemaker returns
    assert g.state.where[TROUBLEMAKER] == "p1.problem" and fx.points(g.state, "p1") == 0


def test_the_phase_ended_without_a_send_home_says_nobody_lost() -> None:
    g = challenge()
    g.push(Move("faceoff-won", "p2"))  # as if the guess were Bo's 4
    assert g.state.flags["send_home"] is not None
    assert codes(g.check(Move("next-phase", "p1"))) == []
    assert g.push(Move("next-phase", "p1")) == []
    assert g.state.phase == "main" and g.state.flags["send_home"] is None
    assert g.state.flags["last_faceoff"] is None and fx.points(g.state, "p1") == 0
    # the game went on: the result stands
    assert codes(g.check(Move("faceoff-won", "p1"))) == ["mlp.faceoff-result"]


def test_flips_everybody_saw_leave_nothing_open() -> None:
    g = challenge(bo_names=4)  # 6 against 8: Ada lost, as everybody saw
    assert g.state.flags["unseen_faceoff"] is None
    assert codes(g.check(Move("next-phase", "p1"))) == ["mlp.send-home-due"]
    assert codes(g.check(Move("faceoff-tied", "p1"))) == ["mlp.faceoff-result"]
    assert codes(g.check(Move("faceoff-won", "p1"))) == ["mlp.faceoff-result"]


def test_a_flip_nobody_named_shows_no_card_as_seen() -> None:
    g = challenge()
    assert not any(g.state.known(u) for u in g.state.cards_in("p2.deck"))


def test_a_guessed_win_wins_the_game_only_once_confirmed() -> None:
    """Ada at 14: the guess (Bo flipped Sweetie Sunrise, power 1: 6 > 5) gives her the
    troublemaker's point, but not the game until the table shows the troublemaker defeated
    (or the game goes on with it so)."""
    g = challenge(ada_points=14, bo_top="PR20#1")
    assert fx.points(g.state, "p1") == 15 and g.state.where[TROUBLEMAKER] == "p2.discard"
    assert g.outcome() is None
    g.push(Move("faceoff-won", "p1"))
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == "p1"
    g = challenge(ada_points=14, bo_top="PR20#1")
    g.push(Move("faceoff-tied", "p1"))  # the table shows the troublemaker still there
    assert fx.points(g.state, "p1") == 14 and g.outcome() is None
    g = challenge(ada_points=14, bo_top="PR20#1")
    g.push(Move("next-phase", "p1"))  # the game went on: the guessed result stands
    assert g.outcome() is not None
