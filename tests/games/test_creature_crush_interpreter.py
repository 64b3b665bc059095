"""Property: what a camera sees of a random Creature Crush game is enough to follow it.

A random legal game is played on one `Game`; after every move its table is projected to a
`TableSnapshot` (what a camera sees: field places, backs in the C zone, camp and hell tops,
white dice in `pN.dice` / `pN.burned`, red damage dice on creatures). A second `Game` follows
through the `Interpreter`, getting only what a person declares (attacks without the dice, the
phase buttons). Both must show the same public table, and every seen move must be legal.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.api import Move
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter
from companion.engine.state import GameState
from companion.games.creature_crush import board as bd
from companion.snapshot import SeenCard, SeenDie, TableSnapshot

DECLARED = {"attack", "next-phase", "pass", "concede", "agree-draw"}
RED = [f"{p}.r{n}" for p in ("p1", "p2") for n in range(1, 7)]


class Camera:
    """Projects the leader's state; keeps dice where a tidy player leaves them."""

    def __init__(self) -> None:
        self.white: dict[str, tuple[str, int]] = {}
        self.red: dict[str, list[str]] = {}  # creature -> its red dice

    def back(self, state: GameState, uid: str) -> str:
        return f"back:{sorted(state.where).index(uid) + 100}"

    def snapshot(self, state: GameState) -> TableSnapshot:
        cards: list[SeenCard] = []
        for zone, uids in sorted(state.zones.items()):
            if (state.is_hidden(zone) and not zone.endswith(".lager")) or not uids:
                continue
            if zone.endswith(".lager"):
                cards.append(SeenCard(self.back(state, uids[-1]), zone, face_up=False))
                continue
            for uid in uids[-1:]:
                down = uid in state.face_down
                cards.append(SeenCard(self.back(state, uid) if down else uid, zone,
                                      face_up=not down))
        return TableSnapshot(game="creature-crush", cards=tuple(cards),
                             dice=tuple(self.dice(state)))

    def dice(self, state: GameState) -> list[SeenDie]:
        for p in ("p1", "p2"):
            avail = state.flags["dice"][p]
            for die, (_, value) in list(self.white.items()):
                if bd.die_owner(die) == p and die not in avail:
                    self.white[die] = (f"{p}.burned", value)
            for die, value in avail.items():
                self.white[die] = (f"{p}.dice", value)
        seen = [SeenDie(d, v, z) for d, (z, v) in sorted(self.white.items())]
        damage = {u: d for u, d in state.flags["damage"].items()
                  if d > 0 and bd.is_field(state.where.get(u))}
        for uid in list(self.red):
            if uid not in damage:
                del self.red[uid]
        used = {d for dice in self.red.values() for d in dice}
        for uid, amount in sorted(damage.items()):
            values = [6] * (amount // 6) + ([amount % 6] if amount % 6 else [])
            mine = self.red.setdefault(uid, [])
            while len(mine) > len(values):
                used.discard(mine.pop())
            while len(mine) < len(values):
                free = next(d for d in RED if d not in used)
                used.add(free)
                mine.append(free)
            zone = state.where[uid]
            seen += [SeenDie(d, v, zone, on=uid) for d, v in zip(mine, values, strict=True)]
        return seen


def public_table(game: Game) -> dict[str, object]:
    view = game.view("table")
    table = {z: (v["count"], [c.get("uid") for c in v.get("cards", [])])
             for z, v in view["zones"].items()}
    return {**table, "damage": view["extra"]["damage"]}


def differences(leader: Game, follower: Game) -> list[str]:
    """Zones where the follower's public table contradicts the leader's. The follower may
    know more: it saw the camp card a direct attack destroyed, the leader only moved it."""
    lead, follow = public_table(leader), public_table(follower)
    found = []
    for zone in sorted(set(lead) | set(follow)):
        a, b = lead.get(zone), follow.get(zone)
        if zone == "damage" or not isinstance(a, tuple) or not isinstance(b, tuple):
            if a != b:
                found.append(f"{zone}: {a} / {b}")
            continue
        if a[0] != b[0] or any(x is not None and x != y for x, y in zip(a[1], b[1], strict=True)):
            found.append(f"{zone}: {a} / {b}")
    return found


def declared(move: Move) -> Move:
    """What a person tells the page: the attack without the dice (the camera sees those)."""
    return Move(move.kind, move.player, move.cards, move.to, move.target, move.value)


def play(seed: int, moves: int = 120) -> None:
    leader = Game.new("creature-crush", ("A", "B"), seed=seed)
    follower = Game.new("creature-crush", ("A", "B"), seed=seed + 1)
    camera = Camera()
    interp = Interpreter(follower, camera.snapshot(leader.state))
    rng = random.Random(seed)
    for _ in range(moves):
        legal = leader.legal_moves
        if not legal or leader.outcome():
            break
        move = rng.choice(legal)
        leader.push(move)
        if move.kind in DECLARED:
            interp.person(declared(move))
        seen = interp.observe(camera.snapshot(leader.state), "camera")
        assert seen.question is None, (move, seen.question)
        assert all(e.legal for e in seen.entries), (move, [e.to_dict() for e in seen.entries])
        assert differences(leader, follower) == [], move
        assert (follower.phase, follower.active) == (leader.phase, leader.active)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 100_000))
def test_interpreter_follows_random_games(seed: int) -> None:
    play(seed)


def play_without_presses(seed: int, moves: int = 150) -> int:
    """The follower is told attacks and concessions, never "next phase" or "end turn": it
    must infer them from the table. Returns how many ends it inferred."""
    leader = Game.new("creature-crush", ("A", "B"), seed=seed)
    follower = Game.new("creature-crush", ("A", "B"), seed=seed + 1)
    camera = Camera()
    interp = Interpreter(follower, camera.snapshot(leader.state))
    rng = random.Random(seed)
    visible = False
    for _ in range(moves):
        legal = leader.legal_moves
        if not legal or leader.outcome():
            break
        move = rng.choice(legal)
        turn = leader.state.turn
        leader.push(move)
        if leader.state.turn != turn and not visible:
            # a whole turn the camera saw nothing of (an empty deck, nothing played): only
            # a person can say it ended
            interp.person(Move("pass", move.player))
        visible = visible and leader.state.turn == turn
        if move.kind in DECLARED - {"next-phase", "pass"}:
            seen = interp.person(declared(move))
            assert all(e.legal for e in seen.entries), (move, [e.to_dict() for e in seen.entries])
        seen = interp.observe(camera.snapshot(leader.state), "camera")
        visible = visible or bool(seen.entries) or seen.question is not None
        if seen.question is not None:
            seen = interp.answer(len(seen.question.choices) - 1)  # the players moved on
        assert all(e.legal for e in seen.entries), (move, [e.to_dict() for e in seen.entries])
        assert differences(leader, follower) == [], move
        assert follower.state.turn <= leader.state.turn
    return sum(1 for e in follower.log if e.source == "automatic")


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 100_000))
def test_interpreter_follows_random_games_without_presses(seed: int) -> None:
    play_without_presses(seed)
