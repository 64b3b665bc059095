"""One record (issue 34): whatever order decisions, undos, redos, answers, presses and camera
changes come in, after every step the live referee holds exactly the moves of the recorded
main line (pushed into a fresh referee), and a session resumed from the same file shows the
same state.

CI runs `ONE_RECORD_EXAMPLES` (default 300) derandomized sequences, enough to find the
issue's split again; the issue's target of 10,000 random ones is run by hand:
`ONE_RECORD_EXAMPLES=10000 python -m pytest tests/server/test_one_record.py -q`.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.api import Move, Violation
from companion.record.replay import main_line
from companion.record.store import GameHeader, Store
from companion.server.bus import EventBus
from companion.server.referee import Applied, Reaction
from companion.server.session import LOG_TAIL, ActionError, LiveSession
from companion.snapshot import SeenCard, TableSnapshot
from tests.server.fakes import LAYOUT, FakeReferee, card_info

EXAMPLES = int(os.environ.get("ONE_RECORD_EXAMPLES", "300"))
HEADER = GameHeader(game="creature-crush", players=("Ada", "Bo"), ruleset_version="fake-1")
CARDS = ("T1#1", "T2#1", "T3#1", "T1#2")
ZONES = ("p1.A1", "p1.forbidden", "p2.forbidden", "shared.unsure", "p1.cheat-win", None)
SCRATCH = Path("/dev/shm") if Path("/dev/shm").is_dir() else None


class Referee(FakeReferee):
    """The fake referee with a late answer's rebuild (a reading in place of the assumed one),
    and a question that plays nothing (the fake pushes the cards before the unsure one)."""

    def observe(self, before: TableSnapshot | None, after: TableSnapshot) -> Reaction:
        old = {c.uid: c.zone for c in (before.cards if before else ())}
        if any(c.zone == "shared.unsure" and old.get(c.uid) != c.zone for c in after.cards):
            moves = list(self.moves)
            reaction = super().observe(before, after)
            self.moves = moves
            return reaction
        return super().observe(before, after)

    def rebuild_around(self, before: list[Move], chosen: tuple[Move, ...], after: list[Move]
                       ) -> tuple[tuple[Applied, ...], tuple[tuple[Violation, ...], ...]]:
        self.rebuild(before)
        placed = tuple(self._push(m) for m in chosen)
        later = tuple(self._push(m).violations for m in after)
        return placed, later


def position(referee: FakeReferee) -> tuple[Any, ...]:
    return (tuple(referee.moves), referee.phase, referee.active, referee.turn)


def replayed_record(store: Store, game_id: int) -> tuple[Any, ...]:
    """The recorded main line's moves pushed into a fresh referee: the game as review,
    export and the hall read it."""
    fresh = Referee()
    fresh.rebuild([Move.from_dict(entry.move["move"]) for entry in main_line(
        store.events(game_id)) if isinstance(entry.move.get("move"), dict)])
    return position(fresh)


SAME = ("table", "status", "violations", "log", "question", "unanswered", "outcome",
        "game_over", "history", "seq", "moves")

KINDS = ("observe", "observe", "corrected", "corrected", "stands", "stands", "undo", "undo",
         "undo", "redo", "redo", "answer", "pass", "next-phase")
"""Drawn evenly: decisions, undos and redos weigh most (camera changes make the violations)."""
step = st.tuples(st.sampled_from(KINDS), st.integers(0, 7), st.integers(0, len(ZONES) - 1))


def run(session: LiveSession, placed: dict[str, str], op: tuple[str, int, int]) -> None:
    kind, a, b = op
    if kind == "observe":
        zone = ZONES[b]
        if b == len(ZONES) - 1 and a % 2:
            zone = "p1.forbidden"  # a rule broken half as often again
        if zone is None:
            placed.pop(CARDS[a % len(CARDS)], None)
        else:
            placed[CARDS[a % len(CARDS)]] = zone
        session.observe(TableSnapshot(game="creature-crush", cards=tuple(
            SeenCard(uid, z) for uid, z in sorted(placed.items()))))
        return
    state = session.state()
    try:
        if kind in ("corrected", "stands"):
            shown = state["violations"]
            if shown:
                session.decide(shown[a % len(shown)]["seq"], kind)
        elif kind == "undo":
            session.undo()
        elif kind == "redo":
            session.redo()
        elif kind == "answer":
            asked = ([state["question"]] if state["question"] else []) + state["unanswered"]
            if asked:
                session.answer(asked[a % len(asked)]["seq"], b)
        else:
            session.act(kind)
    except ActionError:
        pass  # nothing to undo, a game already over, ...: refused, nothing recorded


def check(session: LiveSession) -> None:
    live = position(session.referee)  # type: ignore[arg-type]
    assert live == replayed_record(session.store, session.game_id)
    again = LiveSession(Referee(), session.store, EventBus(), HEADER, LAYOUT, card_info,
                        resume=session.game_id)
    assert position(again.referee) == live  # type: ignore[arg-type]
    mine, theirs = session.state(), again.state()
    recorded = main_line(session.store.events(session.game_id))  # read from scratch
    assert [x["seq"] for x in mine["log"]] == [x.seq for x in recorded[-LOG_TAIL:]]
    for key in SAME:
        assert mine[key] == theirs[key], key


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=14), st.sampled_from([0, 1, 2, 5]))
def test_the_live_game_is_always_the_recorded_game(ops: list[tuple[str, int, int]],
                                                   every: int) -> None:
    """`every`: events between the live session's checkpoints (0: none), so its undos and
    redos replay from a checkpoint where the resumed session replays from the start."""
    with tempfile.TemporaryDirectory(dir=SCRATCH) as folder:
        store = Store(Path(folder) / "g.db")
        session = LiveSession(Referee(), store, EventBus(), HEADER, LAYOUT, card_info,
                              checkpoint_every=every)
        placed: dict[str, str] = {}
        try:
            session.observe(TableSnapshot(game="creature-crush", cards=()))
            for op in ops:
                run(session, placed, op)
                check(session)
        finally:
            session.bus.close()
            store.close()


@pytest.mark.parametrize("ops", [
    # the issue's own sequence, and its mirror
    [("observe", 0, 1), ("corrected", 0, 0), ("stands", 0, 0), ("undo", 0, 0), ("undo", 0, 0)],
    [("observe", 0, 1), ("stands", 0, 0), ("corrected", 0, 0), ("undo", 0, 0), ("undo", 0, 0),
     ("redo", 0, 0), ("redo", 0, 0)],
    # a winning move corrected after the end, put back, both undone
    [("observe", 0, 4), ("corrected", 0, 0), ("stands", 0, 0), ("undo", 0, 0),
     ("undo", 0, 0), ("redo", 0, 0)],
])
def test_known_sequences(ops: list[tuple[str, int, int]], tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    session = LiveSession(Referee(), store, EventBus(), HEADER, LAYOUT, card_info)
    session.observe(TableSnapshot(game="creature-crush", cards=()))
    placed: dict[str, str] = {}
    for op in ops:
        run(session, placed, op)
        check(session)

