"""The bundled cardsets and decks: they load, have the promised counts, and keep the contracts."""

from __future__ import annotations

import copy
import csv
import pickle
from collections import Counter
from pathlib import Path

import pytest

from companion.cardsets import (
    SCHEMAS,
    Card,
    CardsetError,
    UnknownCardError,
    UnknownDeckError,
    card_from_mapping,
    list_decks,
    load_cardset,
    load_deck,
)
from companion.markers.payload import decode, encode_front

EXPECTED_COUNTS = {
    "fire-emblem-cipher": {"unit": 110},
    "my-little-pony-ccg": {
        "mane": 6, "friend": 42, "problem": 35, "event": 14, "resource": 12, "troublemaker": 10,
    },
    "trick-or-beat": {"creature": 90, "tactic": 60},
    "creature-crush": {"creature": 80, "crush": 20},
    "challengers": {"start": 4, "recruit": 105, "bot": 6},
}  # fmt: skip


@pytest.mark.parametrize("game", list(SCHEMAS))
def test_every_bundled_cardset_loads_with_expected_counts(game: str) -> None:
    cards = load_cardset(game)
    assert cards.type_counts() == EXPECTED_COUNTS[game]
    assert len(cards) == sum(EXPECTED_COUNTS[game].values())
    assert cards.sample == (game not in ("fire-emblem-cipher", "my-little-pony-ccg"))
    assert len({c.number for c in cards}) == len(cards)


@pytest.mark.parametrize("game", list(SCHEMAS))
def test_every_card_number_fits_a_sticker_payload(game: str) -> None:
    for card in load_cardset(game):
        payload = decode(encode_front(3, card.number, 2))
        assert payload.number == card.number  # type: ignore[union-attr]


@pytest.mark.parametrize("game", list(SCHEMAS))
def test_every_bundled_deck_loads(game: str) -> None:
    cards = load_cardset(game)
    for name in list_decks(game):
        deck = load_deck(game, name)
        assert deck.game == game and deck.slug == name
        assert all(card_id in cards for card_id in deck.cards)
        uids = deck.uids()
        assert len(uids) == len(set(uids))


def test_cardset_is_cached_and_ordered() -> None:
    first = load_cardset("fire-emblem-cipher")
    assert load_cardset("fire-emblem-cipher") is first
    assert list(first.cards)[:3] == ["B01-001", "B01-002", "B01-003"]


def test_card_reads_fields_like_a_mapping() -> None:
    marth = load_cardset("fire-emblem-cipher").get("B01-003")
    assert marth["name"] == "Marth" and marth["id"] == "B01-003" and marth["type"] == "unit"
    assert marth["attack"] == 40 and marth["cost"] == 1 and marth["range"] == [1]
    assert marth.get("title") == "Altean Prince"
    assert marth.get("cc_cost", None) is None
    assert "support" in marth and "nonsense" not in marth
    with pytest.raises(KeyError, match="nonsense"):
        marth["nonsense"]
    with pytest.raises(TypeError):
        marth.fields["attack"] = 99  # type: ignore[index]
    assert hash(marth) == hash(load_cardset("fire-emblem-cipher").get("B01-003"))
    assert pickle.loads(pickle.dumps(marth)) == marth == copy.deepcopy(marth)


def test_unknown_card_suggests_close_ids() -> None:
    cards = load_cardset("creature-crush")
    with pytest.raises(UnknownCardError, match=r"unknown card 'CC-17' in creature-crush.*CC-017"):
        cards.get("CC-17")
    assert cards.by_number(17).id == "CC-017"
    with pytest.raises(UnknownCardError, match="no card in creature-crush has number 4321"):
        cards.by_number(4321)


def test_fe_cards_match_the_reference_csv(shared_dir: Path) -> None:
    rows = list(csv.DictReader((shared_dir / "cardsets-reference/fire-emblem-cipher.csv").open()))
    cards = load_cardset("fire-emblem-cipher")
    assert {r["id"] for r in rows} == set(cards.cards)
    for row in rows:
        card = cards.get(row["id"])
        assert (card.name, card["title"], card["cost"]) == (
            row["name"],
            row["title"],
            int(row["cost"]),
        )
        assert card["attack"] == int(row["attack"]) and card["support"] == int(row["support"])
        expected_range = {"": [], "1": [1], "2": [2], "1-2": [1, 2]}[row["range"]]
        assert card["range"] == expected_range
        assert card.get("cc_cost") == (int(row["cc_cost"]) if row["cc_cost"] else None)
        prefix, n = row["id"].split("-")
        assert card.number == {"B01": 1000, "S01": 2000, "S02": 3000}[prefix] + int(n)


def test_mlp_cards_match_the_reference_csv(shared_dir: Path) -> None:
    rows = list(csv.DictReader((shared_dir / "cardsets-reference/my-little-pony-ccg.csv").open()))
    cards = load_cardset("my-little-pony-ccg")
    assert {r["id"] for r in rows} == set(cards.cards)
    thorn = cards.get("PR161")
    assert thorn["own"] == [
        {"power": 4, "color": "Kindness"},
        {"power": 3, "color": "any", "except": "Kindness"},
    ]
    assert (thorn["opponent"], thorn["bonus"]) == (8, 3)
    assert thorn.has_keyword("Starting Problem")
    dash = cards.get("PR1")
    assert (dash["power"], dash["boosted_power"], dash["home_limit"]) == (1, 3, 3)
    assert dash["boosted_keywords"] == ["Swift"] and dash["color"] == "Loyalty"
    assert cards.get("PR7")["play_requirement"] == {"power": 1, "color": "Loyalty"}
    assert cards.get("PR210")["points"] == 3 and cards.get("PR210").has_keyword("Villain")


@pytest.mark.parametrize(("slug", "lord"), [("marth-red", "B01-003"), ("chrom-blue", "B01-053")])
def test_fe_sample_decks_are_legal(slug: str, lord: str) -> None:
    cards = load_cardset("fire-emblem-cipher")
    deck = load_deck("fire-emblem-cipher", slug)
    assert deck.size == 50 and deck.lord == lord
    assert max(deck.cards.values()) <= 4
    assert cards.get(lord)["cost"] == 1
    colours = {tuple(cards.get(c)["symbols"]) for c in deck.cards}
    assert len(colours) == 1


def test_mlp_theme_decks_match_the_reference(shared_dir: Path) -> None:
    rows = list(csv.DictReader((shared_dir / "cardsets-reference/my-little-pony-ccg.csv").open()))
    expected: dict[str, Counter[str]] = {}
    for row in rows:
        for part in filter(None, row["theme_decks"].split(";")):
            name, count = part.rsplit(" x", 1)
            expected.setdefault(name, Counter())[row["id"]] += int(count)
    cards = load_cardset("my-little-pony-ccg")
    assert len(list_decks("my-little-pony-ccg")) == 6
    for name, counts in expected.items():
        deck = load_deck("my-little-pony-ccg", name.lower().replace(" ", "-"))
        assert deck.size == 45 and sum(deck.problems.values()) == 10
        assert deck.mane is not None and cards.get(deck.mane)["type"] == "mane"
        got = Counter({**deck.cards, **deck.problems})
        got[deck.mane] += 1
        assert got == counts
        assert max(deck.cards.values()) <= 3 and max(deck.problems.values()) <= 2
    twilight = load_deck("my-little-pony-ccg", "twilight-sparkle")
    dash = load_deck("my-little-pony-ccg", "rainbow-dash")
    assert not set(twilight.uids()) & set(dash.uids())


def test_trick_or_beat_pile_supports_the_draft() -> None:
    cards = load_cardset("trick-or-beat")
    creatures = cards.of_type("creature")
    assert 0.55 <= len(creatures) / len(cards) <= 0.65
    assert {c["faction"] for c in creatures} == {"Gehirn", "Herocorps"}
    assert {c["category"] for c in cards.of_type("tactic")} == {"supply", "equipment", "other"}
    with_effects = [c for c in creatures if "effects" in c]
    assert len(with_effects) > len(creatures) / 2
    lanes = {e["lane"] for c in with_effects for e in c["effects"]}
    assert lanes == {"active", "passive"}


def test_creature_crush_camps_are_twenty_unique_cards() -> None:
    cards = load_cardset("creature-crush")
    assert {c["cost"] for c in cards.of_type("creature")} == set(range(1, 13))
    assert {c["cost"] for c in cards.of_type("crush")} <= set(range(5))
    camps = [load_deck("creature-crush", name) for name in list_decks("creature-crush")]
    assert len(camps) == 2
    for camp in camps:
        assert camp.size == 20 and set(camp.cards.values()) == {1}
    assert not set(camps[0].cards) & set(camps[1].cards)


def test_challengers_levels_sets_and_copies() -> None:
    cards = load_cardset("challengers")
    limits = {"A": 3, "B": 5, "C": 10}
    for card in cards:
        if card["level"] in limits:
            assert card["strength"] <= limits[card["level"]]
        assert card["copies"] >= 1
    assert len({c["set"] for c in cards}) == 8  # Stadt, six themed sets, Bot
    assert any(c["copies"] < 4 for c in cards) and any(c["copies"] > 4 for c in cards)
    starter = load_deck("challengers", "starter")
    assert all(cards.get(c)["level"] == "S" for c in starter.cards)


def test_unknown_deck_lists_the_known_ones() -> None:
    with pytest.raises(UnknownDeckError, match="marth-red"):
        load_deck("fire-emblem-cipher", "nobody")
    with pytest.raises(UnknownDeckError):
        load_deck("fire-emblem-cipher", "../decks/marth-red")


def test_inline_card_from_a_table_script() -> None:
    card = card_from_mapping(
        "creature-crush",
        {"id": "T1", "name": "Testling", "type": "creature", "cost": 7, "attack": 3, "life": 4},
        source="scripts/demo.yaml",
        line=12,
    )
    assert isinstance(card, Card) and card.sample
    assert card["life"] == 4 and 9000 <= card.number <= 9999
    extended = load_cardset("creature-crush").extended([card])
    assert extended.get("T1") is card and len(extended) == 101
    with pytest.raises(CardsetError) as info:
        card_from_mapping(
            "creature-crush",
            {"id": "T2", "name": "X", "type": "creature", "cost": 7, "attack": "x", "life": 4},
            source="scripts/demo.yaml",
            line=12,
        )
    assert str(info.value) == (
        "scripts/demo.yaml:12: card T2: field 'attack' must be an integer 0-99, got 'x'"
    )
