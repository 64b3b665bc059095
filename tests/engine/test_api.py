"""Moves, violations and log entries are plain JSON values that survive a round trip."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.api import (
    GameConfig,
    LogEntry,
    Move,
    MoveFormatError,
    Violation,
    blocking,
)

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
moves = st.builds(
    Move,
    kind=st.sampled_from(["summon", "attack", "pass", "next-phase", "x"]),
    player=st.sampled_from(["p1", "p2"]),
    cards=st.lists(texts, max_size=3).map(tuple),
    to=st.none() | texts,
    target=st.none() | texts,
    value=st.none() | st.integers(-5, 99) | texts,
    options=st.dictionaries(texts, texts, max_size=2).map(lambda d: tuple(sorted(d.items()))),
)


@given(moves)
def test_move_json_round_trip(move: Move) -> None:
    assert Move.from_dict(json.loads(json.dumps(move.to_dict()))) == move
    assert isinstance(move.describe("en"), str) and isinstance(move.describe("de"), str)


@pytest.mark.parametrize(
    "bad",
    [{}, {"kind": "summon"}, {"kind": 3, "player": "p1"}, {"kind": "a", "player": "p1",
                                                            "cards": "A#1"},
     {"kind": "a", "player": "p1", "value": [1]}],
)
def test_malformed_moves_are_precise_errors(bad: dict) -> None:
    with pytest.raises(MoveFormatError):
        Move.from_dict(bad)


def test_violation_and_log_entry_round_trip() -> None:
    lifted = Violation("tob.draw-once", "en", "de", "Trick or Beat rules, X", ("A#1",),
                       ("shared.deck",), lifted_by="C#1")
    plain = Violation("tob.lane-full", "en", "de", "rule")
    assert blocking([lifted, plain]) == [plain]
    entry = LogEntry(1, Move("draw", "p1"), "camera", (lifted, plain), ("why",))
    again = LogEntry.from_dict(json.loads(json.dumps(entry.to_dict())))
    assert again.violations == entry.violations and again.move == entry.move
    assert not again.legal


def test_describe_in_both_languages() -> None:
    assert Move("pass", "p1").describe("en") == "p1 ends the turn"
    assert Move("pass", "p1").describe("de") == "p1 beendet den Zug"
    texts = {"summon": ("{player} summons {cards}", "{player} beschwört {cards}")}
    move = Move("summon", "p1", ("XA#1",), to="p1.passive")
    assert move.describe("en", texts) == "p1 summons XA#1"
    assert move.describe("de", texts) == "p1 beschwört XA#1"


def test_a_game_kind_without_its_game_reads_as_it_is() -> None:
    """No global registry: importing every game must not give one game another's words."""
    import companion.games  # noqa: F401
    from companion.games import RULESETS, get_ruleset

    for game in RULESETS:
        get_ruleset(game)
    move = Move("summon", "p1", ("XA#1",), to="p1.passive")
    assert move.describe("en") == "p1: summon XA#1 -> p1.passive"


def test_config_round_trip() -> None:
    config = GameConfig("trick-or-beat", ("A", "B"), {"shared": ("X#1",)}, "p2", 4,
                        {"phase": "main"}, ({"id": "X", "name": "X", "type": "creature"},))
    assert GameConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
