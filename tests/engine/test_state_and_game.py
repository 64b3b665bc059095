"""Hidden cards as belief, undo, replay, observer views."""

from __future__ import annotations

import json

import pytest

from companion.engine.api import Move, NothingToUndoError, ObserverError, UnknownRulesetError
from companion.engine.game import Game
from companion.engine.state import hand_zone
from companion.games import get_ruleset
from tests.engine.tob_fixtures import position


def test_unseen_card_played_from_hand_swaps_belief() -> None:
    g = position(p1_active=["XB#1"])
    s = g.state
    in_deck = next(u for u in s.cards_in("shared.deck") if s.facts(u).type == "creature")
    assert in_deck not in s.cards_in(hand_zone("p1"))
    hand_before = s.count(hand_zone("p1"))
    assert g.push(Move("summon", "p1", (in_deck,), to="p1.passive")) == []
    assert s.where[in_deck] == "p1.passive"
    assert s.count(hand_zone("p1")) == hand_before - 1
    assert g.ruleset.invariant_errors(s, g.card_total) == []


def test_seen_card_cannot_come_from_hand() -> None:
    g = position(p1_active=["XB#1"], shared_discard=["XA#1"])
    bad = g.check(Move("summon", "p1", ("XA#1",), to="p1.passive"))
    assert [v.code for v in bad] == ["tob.not-in-hand"]


def test_undo_and_replay() -> None:
    g = position(phase="supply")
    with pytest.raises(NothingToUndoError):
        g.undo()
    g.push(Move("draw", "p1"))
    g.push(Move("next-phase", "p1"))
    assert g.phase == "lane"
    undone = g.undo()
    assert undone.move == Move("next-phase", "p1") and g.phase == "supply"
    again = Game.replay(json.loads(json.dumps(g.record())))
    assert again.view("referee") == g.view("referee")


def test_views_and_masked_legal_moves() -> None:
    g = position(p1_active=["XB#1"])
    with pytest.raises(ObserverError):
        g.view("spectator")
    view = g.view("p2")
    assert view["zones"]["p1.hand"] == {"hidden": True, "count": 4, "seen": []}
    assert view["zones"]["p1.active"]["cards"][0]["uid"] == "XB#1"
    masked = g.legal_moves_for("p1")
    assert Move("summon", "p1", ("?",), to="p1.passive") in masked
    assert all(c in ("?", "XB#1") for m in masked for c in m.cards if m.kind == "summon")


def test_unknown_ruleset_is_a_clear_error() -> None:
    with pytest.raises(UnknownRulesetError, match="no ruleset for game 'chess'"):
        get_ruleset("chess")


def test_card_hook_runs_and_unknown_hook_is_clear() -> None:
    from companion.engine.effects import HOOKS, UnknownHookError, register_hook
    from companion.engine.game import Game
    from tests.engine.tob_fixtures import CARDS, DECK

    calls: list[str] = []

    @register_hook("test.note")
    def note(state, move, card) -> None:  # type: ignore[no-untyped-def]
        calls.append(card)

    cards = [*CARDS, {"id": "XH", "name": "Hooked", "type": "tactic", "category": "other",
                      "hook": "test.note"}]
    setup = {"turn": 3, "active": "p1", "phase": "main", "table": {}, "hands": {"p1": 2}}
    g = Game.new("trick-or-beat", decks={"shared": [*DECK, "XH#1"]}, seed=1,
                 setup=setup, cards=cards)
    g.push(Move("tactic", "p1", ("XH#1",)))
    assert calls == ["XH#1"]
    HOOKS.pop("test.note")
    unknown = [*CARDS, {"id": "XU", "name": "U", "type": "tactic", "category": "other",
                        "hook": "test.missing"}]
    with pytest.raises(UnknownHookError, match=r"XU names hook 'test\.missing'"):
        Game.new("trick-or-beat", decks={"shared": DECK}, cards=unknown)
