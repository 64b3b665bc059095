"""`Game.push` never refuses a move of a known kind, and never breaks on one.

Random moves of every kind every game knows, with fields that make no sense (a player "p3",
cards the game does not have, a zone "p2" or "p1.nowhere", a count of 10^12, option text
that names no die) and plain odd ones (no cards where one is needed, a real card in the
wrong place), pushed into fresh and half-played games. Each push must come back quickly with
violations, never with an exception or a hang, and leave every card in exactly one place; a
move naming something that does not exist must change nothing.
"""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.api import GameOverError, Move, blocking
from companion.engine.game import Game
from companion.games import RULESETS

GAMES = sorted(RULESETS)
PUSH_SECONDS = 5
ODD_TEXT = ("", "zzz", "back:5", "p1.w9=99,p2.w1=1", "a=b=c", "p1.w1=abc", "ZZZ#1/1",
            ",".join(f"p1.w{n}=1" for n in range(1, 60)))
ODD_ZONES = ("p2", "p1", "", "p1.nowhere", "shared", "p3.hand")
ODD_CARDS = ("ZZZ#9", "nope", "back:1", "", "TOB-999#9")
ODD_VALUES = (10**12, -10**12, 10_001)


class Hang(Exception):
    """A push that did not come back in time."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: object) -> None:
        raise Hang(f"push took longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@st.composite
def malformed(draw: st.DrawFn, game: Game) -> tuple[Move, bool]:
    """A move of a kind `game` knows; the flag says whether it names something that cannot
    exist (then it must be refused as a table change)."""
    state = game.state
    uids = sorted(state.where)
    zones = sorted(state.zones)
    kind = draw(st.sampled_from(sorted(game.ruleset.known_kinds)))
    player = draw(st.sampled_from(["p1", "p2"]))
    cards = tuple(draw(st.lists(st.sampled_from([*uids[:40], "?"]), max_size=3)))
    to = draw(st.sampled_from([None, *zones]))
    target = draw(st.sampled_from([None, *uids[:20], "p1", "p2", "ZZZ#1"]))
    value = draw(st.sampled_from([None, 0, 1, 2, 3, 6, -3, "abc", "show", "fresh", "lager"]))
    options = tuple(sorted(draw(st.dictionaries(
        st.sampled_from(["dice", "back", "combat", "gone", "from", "face_up", "x"]),
        st.sampled_from(ODD_TEXT), max_size=2)).items()))
    fault = draw(st.sampled_from(["none", "player", "card", "zone", "value"]))
    if fault == "player":
        player = draw(st.sampled_from(["p3", "", "P1", "referee"]))
    elif fault == "card":
        cards = (*cards, draw(st.sampled_from(ODD_CARDS)))
    elif fault == "zone":
        to = draw(st.sampled_from(ODD_ZONES))
    elif fault == "value":
        value = draw(st.sampled_from(ODD_VALUES))
    return Move(kind, player, cards, to, target, value, options), fault != "none"


def half_played(game_id: str, seed: int, moves: int) -> Game:
    game = Game.new(game_id, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves
        if not legal:
            break
        game.push(rng.choice(legal), "automatic")
    return game


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 50), played=st.integers(0, 25), data=st.data())
def test_push_takes_any_move_of_a_known_kind(
    game_id: str, seed: int, played: int, data: st.DataObject
) -> None:
    game = half_played(game_id, seed, played)
    for _ in range(8):
        move, impossible = data.draw(malformed(game))
        zones_before = {z: list(c) for z, c in game.state.zones.items()}
        outcome_before = game.state.outcome
        try:
            with time_limit(PUSH_SECONDS):
                violations = game.push(move, "camera")
        except GameOverError:
            assert outcome_before is not None  # only presses after the end are refused
            continue
        assert game.ruleset.invariant_errors(game.state, game.card_total) == []
        if impossible:
            assert blocking(violations), f"{move} was taken as legal"
            assert {z: list(c) for z, c in game.state.zones.items()} == zones_before
            assert game.state.outcome == outcome_before


@pytest.mark.parametrize("move,game_id", [
    (Move("summon", "p1", ("CC-006#1",), to="p2"), "creature-crush"),
    (Move("stack", "p2", ("CH-002#1", "CH-511#1")), "challengers"),
    (Move("deal", "p1", value=10**12), "trick-or-beat"),
    (Move("draw", "p1", value=10**12), "my-little-pony-ccg"),
])
def test_the_reported_moves_are_violations_not_crashes(move: Move, game_id: str) -> None:
    """The moves issue 15 found raising or hanging (IndexError, endless loops)."""
    game = Game.new(game_id, seed=1)
    with time_limit(PUSH_SECONDS):
        violations = game.push(move, "camera")
    assert blocking(violations)
    assert game.ruleset.invariant_errors(game.state, game.card_total) == []
