"""Deck-building rules: every bundled sample deck is legal, and each fault gets its code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.cardsets import CardSet, DeckList, card_from_mapping, list_decks, load_cardset
from companion.cardsets import load_deck as load_sample
from companion.decks.rules import check_deck


def codes(deck: DeckList, cardset: CardSet | None = None) -> list[str]:
    return [p.code for p in check_deck(deck, cardset or load_cardset(deck.game))]


def with_cards(deck: DeckList, **changes: int) -> DeckList:
    """`deck` with card counts changed (0 removes); ids given with '_' for '-'."""
    cards = dict(deck.cards)
    for key, n in changes.items():
        card_id = key.replace("_", "-")
        if n:
            cards[card_id] = n
        else:
            cards.pop(card_id, None)
    return replace(deck, cards=cards)


@pytest.mark.parametrize(
    ("game", "name"),
    [
        (g, n)
        for g in ("fire-emblem-cipher", "my-little-pony-ccg", "creature-crush")
        for n in list_decks(g)
    ]
    + [("challengers", "starter"), ("challengers", "bot")],
)
def test_bundled_sample_decks_are_legal(game: str, name: str) -> None:
    assert codes(load_sample(game, name)) == []


def test_every_problem_has_both_languages() -> None:
    deck = replace(load_sample("my-little-pony-ccg", "twilight-sparkle"), mane=None, problems={})
    problems = check_deck(deck, load_cardset("my-little-pony-ccg"))
    assert problems
    for p in problems:
        assert p.en and p.de and p.en != p.de and p.rule
        assert p.line("de").startswith(p.code)


class TestMyLittlePony:
    @pytest.fixture
    def deck(self) -> DeckList:
        return load_sample("my-little-pony-ccg", "twilight-sparkle")

    def test_draw_deck_below_45(self, deck: DeckList) -> None:
        first = next(iter(deck.cards))
        assert codes(with_cards(deck, **{first.replace("-", "_"): 0})) == ["mlp.deck-too-small"]

    def test_four_copies(self, deck: DeckList) -> None:
        first = next(iter(deck.cards))
        assert codes(with_cards(deck, **{first: 4})) == ["mlp.too-many-copies"]

    def test_mane_missing_or_wrong(self, deck: DeckList) -> None:
        assert codes(replace(deck, mane=None)) == ["mlp.no-mane"]
        assert codes(replace(deck, mane="PR22")) == ["mlp.mane-not-mane"]

    def test_mane_inside_the_draw_deck(self, deck: DeckList) -> None:
        assert "mlp.mane-in-deck" in codes(with_cards(deck, PR1=1))

    def test_problem_in_the_draw_deck(self, deck: DeckList) -> None:
        problem = next(iter(deck.problems))
        assert "mlp.problem-in-deck" in codes(with_cards(deck, **{problem: 1}))

    def test_problem_deck_size_and_copies(self, deck: DeckList) -> None:
        problems = dict(deck.problems)
        first = next(iter(problems))
        assert codes(replace(deck, problems={**problems, first: 3})) == [
            "mlp.problem-deck-size",
            "mlp.too-many-problem-copies",
        ]
        assert codes(replace(deck, problems={"PR22": 10})) == ["mlp.not-a-problem"]

    def test_problem_deck_without_a_starting_problem(self, deck: DeckList) -> None:
        # rulebook "Starting Problem": a problem with this keyword "muss ... aus dem Problem
        # Card Deck ausgewählt werden"; PR175 and PR189 are no Starting Problems
        assert codes(replace(deck, problems={"PR175": 2, "PR189": 2, "PR163": 2, "PR166": 2,
                                             "PR167": 2})) == ["mlp.no-starting-problem"]
        assert codes(replace(deck, problems={"PR175": 2, "PR189": 2, "PR163": 2, "PR166": 2,
                                             "PR177": 2})) == []

    def test_unique_card_only_once(self, deck: DeckList) -> None:
        cards = load_cardset("my-little-pony-ccg")
        friend = cards.get(next(iter(deck.cards))).to_mapping()
        unique = card_from_mapping(
            "my-little-pony-ccg",
            {**friend, "id": "TEST-U1", "number": 9990, "keywords": ["Unique"]},
            "test",
        )
        extended = cards.extended([unique])
        assert codes(with_cards(deck, TEST_U1=2), extended) == ["mlp.unique-twice"]
        assert codes(with_cards(deck, TEST_U1=1), extended) == []


class TestFireEmblem:
    @pytest.fixture
    def deck(self) -> DeckList:
        return load_sample("fire-emblem-cipher", "marth-red")

    def test_below_50(self, deck: DeckList) -> None:
        assert codes(with_cards(deck, B01_001=0)) == ["fe.deck-too-small"]

    def test_five_copies(self, deck: DeckList) -> None:
        assert codes(with_cards(deck, B01_001=5)) == ["fe.too-many-copies"]

    def test_lord(self, deck: DeckList) -> None:
        assert codes(replace(deck, lord=None)) == ["fe.no-lord"]
        assert codes(replace(deck, lord="B01-001")) == ["fe.lord-cost"]  # Marth, cost 5
        outside = next(
            c.id
            for c in load_cardset("fire-emblem-cipher")
            if c.get("cost") == 1 and c.id not in deck.cards
        )
        assert codes(replace(deck, lord=outside)) == ["fe.lord-not-in-deck"]

    def test_unknown_card_and_foreign_field(self, deck: DeckList) -> None:
        assert codes(with_cards(deck, NOPE=1)) == ["deck.unknown-card"]
        assert codes(replace(deck, mane="B01-003")) == ["deck.field-not-used"]


class TestCreatureCrush:
    @pytest.fixture
    def deck(self) -> DeckList:
        return load_sample("creature-crush", "glutlager")

    def test_exactly_twenty(self, deck: DeckList) -> None:
        first = next(iter(deck.cards))
        assert codes(with_cards(deck, **{first.replace("-", "_"): 0})) == ["cc.deck-size"]

    def test_each_card_once(self, deck: DeckList) -> None:
        first = next(iter(deck.cards))
        assert codes(with_cards(deck, **{first.replace("-", "_"): 2})) == [
            "cc.deck-size",
            "cc.card-twice",
        ]


class TestChallengers:
    def test_starter_composition(self) -> None:
        deck = load_sample("challengers", "starter")
        first = next(iter(deck.cards))
        assert codes(with_cards(deck, **{first.replace("-", "_"): 0})) == ["ch.starter-missing"]
        assert codes(with_cards(deck, **{first.replace("-", "_"): 3})) == ["ch.starter-count"]
        recruit = load_cardset("challengers").of_type("recruit")[0].id
        assert codes(with_cards(deck, **{recruit.replace("-", "_"): 1})) == ["ch.not-a-start-card"]


class TestTrickOrBeat:
    def test_the_whole_pile_is_legal_and_parts_are_not(self) -> None:
        cards = load_cardset("trick-or-beat")
        pile = DeckList(
            "pile", "pile", "trick-or-beat", {c.id: int(c.get("copies", 1)) for c in cards}
        )
        assert codes(pile) == []
        first = next(iter(pile.cards))
        assert codes(with_cards(pile, **{first.replace("-", "_"): 0})) == [
            "tob.pile-size",
            "tob.cards-missing",
        ]
        assert codes(with_cards(pile, **{first.replace("-", "_"): 2})) == [
            "tob.pile-size",
            "tob.card-count",
        ]
