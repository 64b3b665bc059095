"""Reading a `GameConfig`'s decks and mid-game `setup` (DESIGN.md) the same way in every game.

What differs per game (zones, owners of table cards, defaults) stays in the game; the common
parts live here: card references without a copy number, the cards a setup lays on the table,
hands dealt from a pile, face-down, tapped and attached cards, copy numbers for repeated
card ids, and the bundled sample decks a game starts with when no decks are given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.engine.api import PLAYERS, SetupError
from companion.engine.effect_words import draw_cards
from companion.engine.state import GameState, hand_zone
from companion.snapshot import card_uid

Setup = Mapping[str, Any]


def card_ref(item: object) -> str:
    """A card uid from a reference: "TOB-006" means copy 1, "TOB-006#2" stays."""
    text = str(item)
    return text if "#" in text else card_uid(text, 1)


def table_cards(setup: Setup | None) -> set[str]:
    """The uids a setup lays out on the table (piles given by a count hold none)."""
    table = (setup or {}).get("table") or {}
    return {card_ref(u) for cards in table.values() if isinstance(cards, list) for u in cards}


def deal_hands(state: GameState, setup: Setup, pile_of: Callable[[str], str]) -> None:
    """`hands: {p1: n}`: n cards from the player's pile into the (hidden) hand."""
    for p, count in (setup.get("hands") or {}).items():
        if p not in PLAYERS:
            raise SetupError(f"setup: hands are for p1 and p2, not {p!r}")
        if len(draw_cards(state, pile_of(p), hand_zone(p), int(count))) < int(count):
            raise SetupError(f"setup: {pile_of(p)} is too small for the hand of {p}")


def lay_face_down(state: GameState, setup: Setup) -> list[str]:
    """`face_down`: table cards lying face down (their identity unseen); returns them."""
    laid = []
    for item in setup.get("face_down") or []:
        uid = card_ref(item)
        if uid in state.where and not state.is_hidden(state.where[uid]):
            state.face_down.add(uid)
            state.public.discard(uid)
            laid.append(uid)
    return laid


def tap_cards(state: GameState, setup: Setup) -> None:
    """`tapped`: table cards turned sideways."""
    for item in setup.get("tapped") or []:
        uid = card_ref(item)
        if uid in state.where:
            state.tapped.add(uid)


def attach_cards(state: GameState, setup: Setup) -> None:
    """`on: {item: holder}`: cards lying on (attached to) other cards."""
    for item, holder in dict(setup.get("on") or {}).items():
        state.attached[card_ref(item)] = card_ref(holder)


class CopyNumbers:
    """Gives bare card ids the next free copy number; written uids ("X#2") stay and are
    never handed out again."""

    def __init__(self, written: Iterable[str] = ()) -> None:
        self.taken = {u for u in written if "#" in u}
        self.copies: dict[str, int] = {}

    def uid(self, ref: str) -> str:
        uid = ref
        while "#" not in uid or (uid != ref and uid in self.taken):
            self.copies[ref] = self.copies.get(ref, 0) + 1
            uid = card_uid(ref, self.copies[ref])
        self.taken.add(uid)
        return uid


def sample_decks(
    game: str, names: Mapping[str, str], ids_of: Callable[[Any], list[str]] | None = None
) -> dict[str, list[str]]:
    """Each player's bundled sample deck as uids, copies numbered across both players.

    `ids_of(deck)` lists a deck's card ids (default: its `cards` with their counts).
    """
    from companion.cardsets import load_deck

    def counted(deck: Any) -> list[str]:
        return [cid for cid, n in deck.cards.items() for _ in range(n)]

    numbers = CopyNumbers()
    return {
        p: [numbers.uid(cid) for cid in (ids_of or counted)(load_deck(game, name))]
        for p, name in names.items()
    }


def lay_table(
    state: GameState,
    setup: Setup,
    owner_of: Callable[[str, str], str],
    pile_of: Callable[[str], str],
    game_name: str,
) -> None:
    """`table: {zone: [cards] | n}`: cards laid out (moved there when already in a pile,
    else registered to `owner_of(zone, uid)`), or n unseen cards from `pile_of(zone)` (orbs,
    a trick pile given by its size). Hands are dealt by `deal_hands`, not here."""
    for zone, cards in (setup.get("table") or {}).items():
        if zone not in state.zones or zone.endswith(".hand"):
            raise SetupError(f"setup: unknown zone {zone!r} for {game_name}")
        if isinstance(cards, int):
            if len(draw_cards(state, pile_of(zone), zone, cards)) < cards:
                raise SetupError(f"setup: {pile_of(zone)} is too small for {zone}")
            continue
        for item in cards:
            uid = card_ref(item)
            if uid in state.where:
                state.move(uid, zone)
            else:
                state.register(uid, zone, owner_of(zone, uid))
                if not state.is_hidden(zone):
                    state.public.add(uid)
