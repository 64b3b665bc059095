"""What the rules know, shown beside each player's half: counts and public numbers only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from companion import games
from companion.games.spec import GameSpecError, TableFact
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


# ----- a game's own facts come from its spec's hook; the page words them -----------------------

TOY_NAMER = Namer(lambda card: {"name": "Moth Knight"} if card == "TOY-002" else None,
                  ("Ada", "Bo"), LAYOUT)


def toy_facts(view: dict) -> dict[str, list[TableFact]]:
    """A toy game's hook: what it reports, in the engine's words."""
    extra = view["extra"]
    return {
        "p1": [TableFact("champion", "Champion", "Champion", extra["champion"], words="engine"),
               TableFact("dice", "Dice", "Würfel", extra["dice"], words="dice"),
               TableFact("owed", "Owed", "Geschuldet", 2, warn=True)],
        "shared": [TableFact("lead", "Lead", "Führung", "p2 leads p1", words="engine"),
                   TableFact("mood", "Mood", "Stimmung", "calm", "ruhig")],
    }


@pytest.fixture
def toy_game() -> Iterator[str]:
    from tests.toy_game.spec import SPEC

    spec = replace(SPEC, table_facts="tests.server.test_facts:toy_facts")
    games.register(spec)
    yield spec.id
    games.unregister(spec.id)


def test_a_new_game_brings_its_facts_in_its_own_spec_and_the_page_words_them(
        toy_game: str) -> None:
    view = {"zones": {"p1.hand": {"hidden": True, "count": 4, "seen": []},
                      "p1.deck": {"hidden": True, "count": 9, "seen": []}},
            "extra": {"champion": "TOY-002#1", "dice": {"p1.r2": 6, "p1.w1": 1}}}
    found = facts(toy_game, view, TOY_NAMER, LAYOUT)
    p1 = {f["key"]: f for f in found["p1"]}
    assert [f["key"] for f in found["p1"]] == ["hand", "champion", "dice", "owed", "deck"]
    assert p1["champion"]["value"] == p1["champion"]["value_de"] == "Moth Knight"
    assert (p1["dice"]["value"], p1["dice"]["value_de"]) == ("red 6, white 1", "rot 6, weiß 1")
    assert p1["owed"]["warn"] is True and "warn" not in p1["dice"]
    assert [(f["value"], f.get("value_de")) for f in found["shared"]] == [
        ("Bo leads Ada", "Bo leads Ada"), ("calm", "ruhig")]
    assert found["p2"] == []


def test_a_game_without_the_hook_shows_hand_and_piles_only() -> None:
    from tests.toy_game.spec import SPEC

    games.register(SPEC)
    try:
        view = {"zones": {"p1.hand": {"hidden": True, "count": 4, "seen": []},
                          "p1.deck": {"hidden": True, "count": 9, "seen": []}},
                "extra": {"champion": "TOY-002#1"}}
        found = facts(SPEC.id, view, TOY_NAMER, LAYOUT)
    finally:
        games.unregister(SPEC.id)
    assert found == {"shared": [], "p1": [{"key": "hand", "label_en": "Hand", "label_de": "Hand",
                                           "value": 4},
                                          {"key": "deck", "label_en": "Deck", "label_de": "Deck",
                                           "value": 9}], "p2": []}


def bad_side_facts(view: dict) -> dict[str, list[TableFact]]:
    return {"p3": [TableFact("x", "X", "X", 1)]}


def test_facts_for_no_side_of_the_table_or_misworded_are_refused() -> None:
    from tests.toy_game.spec import SPEC

    with pytest.raises(GameSpecError, match="no side of the table"):
        replace(SPEC, table_facts="tests.server.test_facts:bad_side_facts").facts_of({})
    with pytest.raises(GameSpecError, match="unknown wording"):
        TableFact("x", "X", "X", 1, words="loud")
    with pytest.raises(GameSpecError, match="dice"):
        TableFact("x", "X", "X", "p1.w1", words="dice")


def test_each_game_says_its_own_numbers() -> None:
    found = facts("trick-or-beat", {"extra": {
        "p1": {"lane_limit": 3, "attack_bonus": 2, "trick_win_blocked_for_opponent": True},
        "p2": {"lane_limit": 2, "survival_bonus": 1}}}, NAMER, None)
    assert rows(found["p1"]) == [("Creatures per lane", 3), ("Attack bonus", "+2"),
                                 ("Opponent cannot win by tricks", "✓")]
    assert rows(found["p2"]) == [("Creatures per lane", 2), ("Survival bonus", "+1")]

    namer = Namer(lambda c: {"name": "Marth", "title": "Prince of Altea"} if c == "B01-001"
                  else None, ("Ada", "Bo"), None)
    found = facts("fire-emblem-cipher", {"extra": {
        "p1": {"bonds": 3, "symbols": ["Red", "Blue"], "lord": "B01-001", "draws_owed": 1}}},
        namer, None)
    p1 = {f["key"]: f for f in found["p1"]}
    assert (p1["symbols"]["value"], p1["symbols"]["value_de"]) == ("Red, Blue", "Rot, Blau")
    assert p1["lord"]["value"] == "Marth, Prince of Altea" and p1["draws_owed"]["warn"] is True
    assert rows(found["p2"]) == [("Bonds", 0)]

    found = facts("challengers", {"extra": {
        "round": 4, "flag": {"holder": "p2"}, "defence": 5, "rest_pending": {"p1": 2},
        "attack": {"player": "p1", "cards": ["x"], "total": 7}}}, NAMER, None)
    assert rows(found["p1"]) == [("Bench cards to rest", 2), ("Attack strength", 7)]
    assert rows(found["p2"]) == [("Defence strength", 5), ("Holds the flag", "⚑")]
    assert rows(found["shared"]) == [("Round", 4)]

    found = facts("my-little-pony-ccg", {"extra": {"faceoff": {"totals": {"p1": 3, "p2": 5}}}},
                  NAMER, None)
    assert rows(found["shared"]) == [("Faceoff", "Ada 3 : Bo 5")]
