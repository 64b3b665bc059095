"""Property: what a camera sees of a random Trick or Beat game is enough to follow it.

A random legal game is played on one `Game`; after every move its table is projected to a
`TableSnapshot` (only what a camera sees: lanes, pile tops, backs). A second `Game` follows
through the `Interpreter`, getting only the moves a person would declare (attacks,
activations, phase buttons). Both must show the same public table, and the follower must
find every physical move legal.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.api import Move
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter
from companion.engine.state import GameState
from companion.snapshot import SeenCard, TableSnapshot
from tests.engine.tob_fixtures import CARDS, DECK

DECLARED = {"attack", "activate", "next-phase", "pass", "redraw", "concede"}
PILES = ("shared.deck", "shared.discard", "p1.trick", "p2.trick")
SETUP = {
    "turn": 3, "active": "p1", "phase": "supply",
    "table": {"p1.active": ["XA#1", "XC#1"], "p1.passive": ["XB#1"],
              "p2.active": ["XA#2", "XB#2"], "p2.passive": ["XD#1"]},
    "hands": {"p1": 5, "p2": 5},
}


def back(uid: str) -> str:
    return f"back:{DECK.index(uid) + 100}"


def camera(state: GameState) -> TableSnapshot:
    cards: list[SeenCard] = []
    covered = set(state.attached.values())
    for zone, uids in sorted(state.zones.items()):
        if zone.endswith(".hand") or not uids:
            continue
        shown = uids[-1:] if zone in PILES else [u for u in uids if u not in covered]
        for uid in shown:
            up = uid in state.public and uid not in state.face_down and zone != "shared.deck"
            if zone.endswith(".trick") or zone == "shared.deck":
                up = False
            cards.append(SeenCard(uid if up else back(uid), zone, face_up=up))
    return TableSnapshot(game="trick-or-beat", cards=tuple(cards))


def public_table(game: Game) -> dict[str, object]:
    view = game.view("table")
    return {z: (v["count"], [c.get("uid") for c in v.get("cards", [])])
            for z, v in view["zones"].items() if not z.endswith(".hand") and z != "shared.discard"}


def leader_and_follower(seed: int) -> tuple[Game, Game, Interpreter]:
    """A random game to play (the fixture cards) and a game that follows it from the
    camera's view alone (another seed: it cannot know the leader's shuffle)."""
    leader = Game.new("trick-or-beat", decks={"shared": DECK}, seed=seed, setup=SETUP,
                      cards=CARDS)
    follower = Game.new("trick-or-beat", decks={"shared": DECK}, seed=seed + 1, setup=SETUP,
                        cards=CARDS)
    return leader, follower, Interpreter(follower, camera(leader.state))


def play(seed: int) -> None:
    leader, follower, interp = leader_and_follower(seed)
    rng = random.Random(seed)
    for _ in range(80):
        legal = leader.legal_moves
        if not legal or leader.outcome():
            break
        move = rng.choice(legal)
        leader.push(move)
        if move.kind in DECLARED:
            interp.person(move)
        seen = interp.observe(camera(leader.state), "camera")
        assert seen.question is None, (move, seen.question)
        assert all(e.legal for e in seen.entries), (move, [e.to_dict() for e in seen.entries])
        assert public_table(follower) == public_table(leader), move
        assert follower.phase == leader.phase and follower.active == leader.active


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 100_000))
def test_interpreter_follows_random_games(seed: int) -> None:
    play(seed)


def play_without_presses(seed: int) -> int:
    """The follower is told attacks, activations and redraws, never "next phase" or "end
    turn". A question (who drew from the shared pile) is answered as the players moved on.
    The players resolve a supply card's face-up draws at once (the camera cannot tell a
    draw left for later from the next player's draw). Returns how many ends it inferred."""
    leader, follower, interp = leader_and_follower(seed)
    rng = random.Random(seed)
    visible = False
    for _ in range(80):
        legal = leader.legal_moves
        if not legal or leader.outcome():
            break
        owed = [m for m in legal if m.kind == "supply-draw"]
        move = rng.choice(owed or legal)
        turn = leader.state.turn
        leader.push(move)
        if leader.state.turn != turn and not visible:
            # a whole turn the camera saw nothing of (an empty deck, nothing played): only
            # a person can say it ended
            interp.person(Move("pass", move.player))
        visible = visible and leader.state.turn == turn
        if move.kind in DECLARED - {"next-phase", "pass"}:
            seen = interp.person(move)
            if seen.question is not None:
                seen = interp.answer(len(seen.question.choices) - 1)
            assert all(e.legal for e in seen.entries), (move, [e.to_dict() for e in seen.entries])
        seen = interp.observe(camera(leader.state), "camera")
        visible = visible or bool(seen.entries) or seen.question is not None
        if seen.question is not None:
            seen = interp.answer(len(seen.question.choices) - 1)
        assert all(e.legal for e in seen.entries), (move, [e.to_dict() for e in seen.entries])
        assert public_table(follower) == public_table(leader), move
        assert follower.state.turn <= leader.state.turn
    return sum(1 for e in follower.log if e.source == "automatic")


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 100_000))
def test_interpreter_follows_random_games_without_presses(seed: int) -> None:
    play_without_presses(seed)


def test_camera_reads_a_destroying_tactic_on_top_of_its_target() -> None:
    """A tactic that destroys ("Lege ein gegnerisches Wesen auf den Ablagestapel") goes to the
    discard pile after its effect ("Lege die Taktikkarte auf den Ablagestapel, nachdem sie
    gespielt wurde"), on top of its target: the camera sees the target leave the lane and the
    tactic on the pile. The follower reads it as the tactic played on that creature, legal."""
    leader = Game.new("trick-or-beat", decks={"shared": DECK}, seed=3, setup={
        **SETUP, "phase": "main"}, cards=CARDS)
    follower = Game.new("trick-or-beat", decks={"shared": DECK}, seed=4, setup={
        **SETUP, "phase": "main"}, cards=CARDS)
    interp = Interpreter(follower, camera(leader.state))
    assert leader.state.resolve("XT#1", "p1.hand")
    assert leader.push(Move("tactic", "p1", ("XT#1",), target="XA#2")) == []
    seen = interp.observe(camera(leader.state), "camera")
    assert [(m.kind, m.target) for m in seen.moves] == [("tactic", "XA#2")]
    assert all(e.legal for e in seen.entries)
    assert public_table(follower) == public_table(leader)


@pytest.mark.parametrize("seed", [143, 176])
def test_interpreter_follows_games_where_tactics_destroy(seed: int) -> None:
    """Games (found by the random test) where destroying tactics were played: the tactic,
    seen on the discard pile over its target, is the copy played."""
    play(seed)


@pytest.mark.parametrize("seed", [19, 32, 56])
def test_interpreter_follows_games_where_tactics_destroy_without_presses(seed: int) -> None:
    play_without_presses(seed)
