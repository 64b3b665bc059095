"""What the rules know, shown beside each player's half: counts and public numbers only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.record.wording import Namer
from companion.server.facts import facts
from tests.live_tables import scripted

LAYOUT = {"zones": [
    {"id": "p1.deck", "owner": "p1", "kind": "pile", "label_en": "Deck", "label_de": "Deck"},
    {"id": "p1.discard", "owner": "p1", "kind": "pile", "label_en": "Discard pile",
     "label_de": "Ablagestapel"},
    {"id": "p1.bench1", "owner": "p1", "kind": "pile", "label_en": "Bench seat 1",
     "label_de": "Bank Sitz 1"},
    {"id": "p1.home", "owner": "p1", "kind": "area", "label_en": "Home", "label_de": "Zuhause"},
    {"id": "p2.deck", "owner": "p2", "kind": "pile", "label_en": "Deck", "label_de": "Deck"},
]}
NAMER = Namer(lambda _: None, ("Ada", "Bo"), LAYOUT)


def rows(found: list[dict]) -> list[tuple[str, object]]:
    return [(f["label_en"], f["value"]) for f in found]


def test_hand_first_then_the_rules_numbers_then_the_piles() -> None:
    view = {
        "zones": {"p1.hand": {"hidden": True, "count": 5, "seen": []},
                  "p1.deck": {"hidden": True, "count": 31, "seen": []},
                  "p1.discard": {"hidden": False, "count": 2, "cards": []},
                  "p1.bench1": {"hidden": False, "count": 1, "cards": []},
                  "p1.home": {"hidden": False, "count": 3, "cards": []},
                  "p2.deck": {"hidden": True, "count": 40, "seen": []}},
        "extra": {"p1": {"action_tokens": 2, "home_limit": 3, "friends_at_home": 4},
                  "p2": {"action_tokens": 0}},
    }
    found = facts("my-little-pony-ccg", view, NAMER, LAYOUT)
    assert rows(found["p1"]) == [("Hand", 5), ("Action tokens", 2), ("Friends at home", "4 / 3"),
                                 ("Deck", 31), ("Discard pile", 2)]
    assert [f["label_de"] for f in found["p1"]][:2] == ["Hand", "Aktionspunkte"]
    assert next(f for f in found["p1"] if f["key"] == "home").get("warn") is True  # over limit
    assert rows(found["p2"]) == [("Action tokens", 0), ("Deck", 40)]  # p2 has no hand zone


def test_creature_crush_dice_are_said_with_their_colours() -> None:
    view = {"zones": {}, "extra": {"start_dice": {"p1": {"p1.w2": 5, "p1.w1": 3}, "p2": {}},
                                   "burned_unassigned": {}, "unpaid": [{"player": "p2"}]}}
    found = facts("creature-crush", view, NAMER, LAYOUT)
    dice = next(f for f in found["p1"] if f["key"] == "start_dice")
    assert (dice["value"], dice["value_de"]) == ("white 3, white 5", "weiß 3, weiß 5")
    assert [f["key"] for f in found["p2"]] == ["unpaid"]


@pytest.mark.parametrize("game", ["trick-or-beat", "fire-emblem-cipher", "my-little-pony-ccg",
                                  "challengers", "creature-crush"])
def test_live_facts_name_no_hidden_card_and_count_hands_as_the_table_has_them(
    game: str, tmp_path: Path
) -> None:
    with scripted(game, tmp_path / "g.db") as table:
        table.play(8)
        shown = table.session.state()["facts"]
        truth = table.truth[table.done]
        text = json.dumps(shown)
        for p in ("p1", "p2"):
            for uid in truth.hand(p):
                assert uid not in text and uid.split("#")[0] not in text
            hand = [f["value"] for f in shown[p] if f["key"] == "hand"]
            if hand:
                assert hand == [len(truth.hand(p))]
