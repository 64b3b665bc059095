"""Trick or Beat: permanent bonuses add up, removed cards go to the shared discard pile, an
equipment from an empty hand is put nowhere (rulebook: "Wenn die gesamte Angriffstärke mindestens
so groß ist wie die Überlebenspunkte des Zieles, lege das Ziel auf den Ablagestapel";
"Ausrüstung kannst du dauerhaft an eines deiner Wesen anlegen": from the hand), and a redraw
belongs to the draft.

Made-up cards, each hand-worked: Guard (survival 3, "Aktiv, permanent: dieses Wesen +2
Überleben") beside Herald ("permanent: deine Wesen +1 Überleben") survives 3 + 1 + 2 = 6.
"""

from __future__ import annotations

from typing import Any

from companion.engine.api import Move
from companion.engine.game import Game
from tests.engine.tob_fixtures import CARDS, DECK

GUARD_AND_HERALD: list[dict[str, Any]] = [
    {"id": "XG", "name": "Guard", "type": "creature", "attack": 1, "survival": 3,
     "faction": "Gehirn",
     "effects": [{"kind": "permanent", "lane": "active", "do": "modify_survival", "amount": 2,
                  "target": "self"}]},
    {"id": "XH", "name": "Herald", "type": "creature", "attack": 1, "survival": 1,
     "faction": "Gehirn",
     "effects": [{"kind": "permanent", "lane": "active", "do": "modify_survival", "amount": 1,
                  "target": "own_creatures"}]},
    {"id": "XF", "name": "Fighter", "type": "creature", "attack": 5, "survival": 9,
     "faction": "Herocorps"},
    {"id": "XO", "name": "Ogre", "type": "creature", "attack": 6, "survival": 9,
     "faction": "Herocorps"},
]


def guarded(attacker: str, hand: int = 4) -> Game:
    """Ada's `attacker` against Bo's Herald and Guard in Bo's active lane (Herald first)."""
    cards = [*CARDS, *GUARD_AND_HERALD]
    deck = [*DECK, *(f"{c['id']}#1" for c in GUARD_AND_HERALD)]
    setup = {"turn": 3, "active": "p1", "phase": "main", "hands": {"p1": hand, "p2": 4},
             "table": {"p1.active": [attacker], "p2.active": ["XH#1", "XG#1"]}}
    return Game.new("trick-or-beat", ("Ada", "Bo"), {"shared": deck}, "p1", 1, setup, cards)


def test_a_guard_with_its_own_and_an_allys_permanent_bonus_survives_five() -> None:
    g = guarded("XF#1")
    assert g.push(Move("attack", "p1", ("XF#1",), target="XG#1")) == []
    assert g.state.where["XG#1"] == "p2.active"


def test_the_same_guard_falls_to_six() -> None:
    g = guarded("XO#1")
    assert g.push(Move("attack", "p1", ("XO#1",), target="XG#1")) == []
    assert g.state.where["XG#1"] == "shared.discard"


def test_a_card_removed_without_a_named_place_goes_to_the_discard_pile() -> None:
    g = guarded("XF#1")
    g.push(Move("remove", "p2", ("XH#1",)))
    assert g.state.where["XH#1"] == "shared.discard"


def test_an_unseen_equipment_from_an_empty_hand_changes_nothing() -> None:
    g = guarded("XF#1", hand=0)
    before = dict(g.state.where)
    found = g.push(Move("equip", "p1", ("?",), target="XF#1"))
    assert found and g.state.where == before and not g.state.attached


def test_a_redraw_after_the_draft_is_refused_as_a_draft_only_move() -> None:
    """Rulebook "Redraw Rule": "Wenn dir deine Karten nicht gefallen, darfst du alle ablegen
    und 3 Karten weniger neu ziehen": while drafting, not in a turn."""
    g = guarded("XF#1")
    found = [v for v in g.check(Move("redraw", "p1", value="fresh")) if v.blocking]
    assert [v.code for v in found] == ["tob.draft-only"]
    assert "Neu ziehen" in found[0].message("de") and "Redrawing" in found[0].message("en")
