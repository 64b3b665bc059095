"""Property, for every game: a card put where no rule of the game puts it is never read
silently as a legal game.

A random legal game is followed through the camera's view (as in `test_camera_property`);
then one face-up card on the table is laid face up on a draw pile, or on a place of the mat
that holds no cards at all (Creature Crush's dice). No rulebook of the five games puts a card
from the table face up onto a draw pile (drawn cards leave it; cards going back are shuffled
in or put under it face down) or among the dice: that is the oracle. The follower must say
so, with a violation or a question, and never record the change as legal moves alone.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.engine.game import Game
from companion.engine.interpreter import Interpreter
from companion.games import game_ids, game_spec
from companion.layouts import load_layout
from companion.sim.table_state import TruthTable, visible_snapshot
from tests.interpretation.test_camera_property import (
    BUTTONS,
    Table,
    declared,
    leader_and_follower,
    same,
)


def _no_card_places(game_id: str) -> list[str]:
    """Mat places the game keeps no cards in (dice areas), and its draw piles."""
    spec = game_spec(game_id)
    layout = load_layout(game_id)
    zones = set(Game.new(game_id, ("A", "B"), seed=0).state.zones)
    return sorted(z for z in layout.zones if z not in zones or spec.is_draw_pile(z))


def _follow(game_id: str, seed: int, steps: int) -> tuple[Game, Game, Table, Interpreter]:
    person = game_spec(game_id).person_moves | BUTTONS
    leader, follower = leader_and_follower(game_id, seed)
    table = Table(game_id)
    interp = Interpreter(follower, table.seen(leader.state))
    rng = random.Random(seed)
    for _ in range(steps):
        legal = leader.legal_moves
        if not legal or leader.outcome():
            break
        move = rng.choice(legal)
        leader.push(move, "automatic")
        if move.kind in person:
            interp.person(declared(move))
        seen = interp.observe(table.seen(leader.state), "camera")
        if seen.question is not None:
            fits = [i for i, c in enumerate(seen.question.choices)
                    if any(same(m, move) for m in c.moves)]
            interp.answer(fits[0] if fits else 0)
    return leader, follower, table, interp


CASES = [(g, s) for g in game_ids() for s in (0, 1, 2)]


@pytest.mark.parametrize(("game_id", "seed"), CASES)
def test_a_card_laid_where_no_rule_puts_it_is_never_read_as_legal(game_id: str,
                                                                   seed: int) -> None:
    for steps in (12, 20, 6, 30):  # a point of the game with a face-up card alone on the table
        leader, follower, table, interp = _follow(game_id, seed, steps)
        truth = table.truth(leader.state)
        lying = sorted(c.uid for c in truth.cards.values() if c.zone is not None and c.face_up
                       and c.on is None and not any(o.on == c.uid for o in truth.cards.values()))
        if lying and not leader.outcome():
            break
    else:
        pytest.fail("no point of the random game has a face-up card alone on the table")
    rng = random.Random(seed)
    uid = rng.choice(lying)
    dest = rng.choice(_no_card_places(game_id))
    card = truth.cards[uid]
    cards = {**truth.cards, uid: replace(card, zone=dest, face_up=True, tapped=False)}
    zones = {z: tuple(u for u in us if u != uid) for z, us in truth.zones.items()}
    pile = table.layout.zones[dest].kind != "area"
    zones[dest] = (uid, *zones.get(dest, ())) if pile else (*zones.get(dest, ()), uid)
    dice = {d: (replace(ds, zone=dest) if ds.on == uid else ds) for d, ds in truth.dice.items()}
    after = visible_snapshot(TruthTable(truth.game, cards, {z: u for z, u in zones.items() if u},
                                        dice, dict(truth.tokens)))
    before = len(follower.log)
    seen = interp.observe(after, "camera")
    new = follower.log[before:]
    said = seen.question is not None or any(not e.legal for e in new)
    assert said, (uid, card.zone, dest, [(e.move.kind, e.move.cards) for e in new])
