"""DeckScanner on synthetic sequences: snapshots and per-frame sticker texts."""

from __future__ import annotations

import pytest

from companion.cardsets import load_cardset
from companion.decks.rules import check_deck
from companion.decks.scanner import DeckScanner
from companion.markers.payload import encode_back, encode_front
from companion.snapshot import SeenCard, TableSnapshot

GAME = "creature-crush"


def front(card_id: str, copy: int, game: str = GAME) -> str:
    number = load_cardset(game).get(card_id).number
    return encode_front({"creature-crush": 5, "my-little-pony-ccg": 3}[game], number, copy)


def snap(*cards: SeenCard, unknown: tuple[str, ...] = ()) -> TableSnapshot:
    return TableSnapshot(GAME, cards=cards, unknown_markers=unknown)


@pytest.fixture
def scanner() -> DeckScanner:
    return DeckScanner(load_cardset(GAME), zone="p1.lager")


def test_cards_laid_one_by_one_on_a_pile_are_registered_once(scanner: DeckScanner) -> None:
    kinds = []
    # each new card covers the last one in the pile: the zone shows one card at a time
    for uid in ["CC-001#1", "CC-006#1", "CC-006#1", "CC-011#2"]:
        kinds += [e.kind for e in scanner.see_snapshot(snap(SeenCard(uid, "p1.lager")))]
    assert kinds == ["added", "added", "added"]
    assert scanner.registered == [("CC-001", 1), ("CC-006", 1), ("CC-011", 2)]


def test_the_same_copy_laid_again_is_a_repeat(scanner: DeckScanner) -> None:
    scanner.see_snapshot(snap(SeenCard("CC-001#1", "p1.lager")))
    scanner.see_snapshot(snap(SeenCard("CC-006#1", "p1.lager")))
    events = scanner.see_snapshot(snap(SeenCard("CC-001#1", "p1.lager")))
    assert [e.kind for e in events] == ["repeat"]
    assert scanner.registered == [("CC-001", 1), ("CC-006", 1)]


def test_other_zones_face_down_and_unknown_markers(scanner: DeckScanner) -> None:
    events = scanner.see_snapshot(
        snap(
            SeenCard("CC-001#1", "p1.hell"),
            SeenCard("back:12", "p1.lager", face_up=False),
            SeenCard("NOPE-1#1", "p1.lager"),
            unknown=("http://example.com",),
        )
    )
    assert sorted(e.kind for e in events) == ["face-down", "unknown", "unknown"]
    assert scanner.registered == []
    assert set(scanner.unknown) == {"NOPE-1#1", "http://example.com"}


def test_frames_of_sticker_texts(scanner: DeckScanner) -> None:
    frames = [
        [front("CC-001", 1)],
        [front("CC-001", 1)],  # still there
        [],  # taken away
        [front("CC-006", 3), encode_back(7)],
        ["12345678"],  # bad check digit
        [front("PR4", 1, "my-little-pony-ccg")],
        [front("CC-001", 1)],  # laid again
    ]
    kinds = [[e.kind for e in scanner.see_texts(f)] for f in frames]
    assert kinds == [
        ["added"],
        [],
        [],
        ["added", "face-down"],
        ["unknown"],
        ["other-game"],
        ["repeat"],
    ]
    assert scanner.registered == [("CC-001", 1), ("CC-006", 3)]


def test_scanned_camp_becomes_a_legal_deck_with_pinned_copies() -> None:
    scanner = DeckScanner(load_cardset(GAME), zone=None)
    from companion.cardsets import load_deck

    camp = load_deck(GAME, "glutlager")
    for card_id in camp.cards:
        scanner.see_texts([front(card_id, 2)])
    found = scanner.deck("scanned")
    assert found.deck.cards == camp.cards
    assert all(c == (2,) for c in found.copies.values())
    assert check_deck(found.deck, load_cardset(GAME)) == []


def test_my_little_pony_mane_and_problems_are_sorted_by_type() -> None:
    game = "my-little-pony-ccg"
    scanner = DeckScanner(load_cardset(game))
    for card_id in ["PR4", "PR22", "PR22", "PR162"]:
        scanner.see_texts([front(card_id, 1 + len(scanner.registered), game)])
    found = scanner.deck("t")
    assert found.deck.mane == "PR4"
    assert found.deck.cards == {"PR22": 2}
    assert found.deck.problems == {"PR162": 1}
    assert found.copies == {"PR4": (1,), "PR22": (2, 3), "PR162": (4,)}
