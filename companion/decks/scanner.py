"""Register a deck by laying its cards one by one in a scan zone in front of the camera.

`DeckScanner` is fed what the camera sees, either settled `TableSnapshot`s (the cards face up
in the scan zone) or the raw sticker texts found in one frame (image folders, close-ups without
the mat). Each card copy is registered once, in the order first seen; a copy seen again later
is reported as a repeat and not counted twice; stickers that are not cards of this game are
reported as unknown. `deck()` turns what was registered into a deck list (with the physical
copies pinned), sorting My Little Pony manes and problems into their places by card type.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from companion.cardsets import CardSet, DeckList, UnknownCardError
from companion.cardsets.games import schema_for
from companion.decks.listfile import DeckFile
from companion.games import game_info
from companion.markers.payload import BackPayload, PayloadError, decode
from companion.snapshot import TableSnapshot, is_back, split_uid

EventKind = Literal["added", "repeat", "unknown", "other-game", "face-down"]


@dataclass(frozen=True)
class ScanEvent:
    kind: EventKind
    text: str  # card uid ("PR12#2") or the marker text as read
    message: str


class DeckScanner:
    """Collects the card copies laid in the scan zone (`zone`; None accepts every zone)."""

    def __init__(self, cardset: CardSet, zone: str | None = None) -> None:
        self.cardset = cardset
        self.game = cardset.game
        self.zone = zone
        self.registered: list[tuple[str, int]] = []
        self._known: set[tuple[str, int]] = set()
        self._visible: set[str] = set()  # what the previous observation showed
        self.unknown: list[str] = []

    # --- observations ------------------------------------------------------------------------

    def see_snapshot(self, snapshot: TableSnapshot) -> list[ScanEvent]:
        """Register the face-up cards of the scan zone in a settled snapshot."""
        seen: list[str] = []
        backs: list[str] = []
        for card in snapshot.cards:
            if self.zone is not None and card.zone != self.zone:
                continue
            (backs if not card.face_up or is_back(card.uid) else seen).append(card.uid)
        return self._observe([*seen, *backs], list(snapshot.unknown_markers), uids=True)

    def see_texts(self, texts: Iterable[str]) -> list[ScanEvent]:
        """Register the card stickers read in one frame (payload texts, already zone-filtered)."""
        return self._observe(list(texts), [], uids=False)

    # --- result --------------------------------------------------------------------------------

    def deck(self, name: str, lord: str | None = None) -> DeckFile:
        """The registered copies as a deck list, copies pinned to their sticker numbers."""
        cards: dict[str, int] = {}
        problems: dict[str, int] = {}
        copies: dict[str, list[int]] = {}
        mane: str | None = None
        slot_of = {s.card_type: name for name, s in schema_for(self.game).deck_slots.items()
                   if s.card_type is not None}  # a mane character, problem cards
        for card_id, copy in self.registered:
            slot = slot_of.get(self.cardset.get(card_id).type)
            if slot == "mane" and mane is None:
                mane = card_id
            elif slot == "problems":
                problems[card_id] = problems.get(card_id, 0) + 1
            else:
                cards[card_id] = cards.get(card_id, 0) + 1
            copies.setdefault(card_id, []).append(copy)
        deck = DeckList(
            slug=name,
            name=name,
            game=self.game,
            cards=cards,
            mane=mane,
            problems=problems,
            lord=lord,
        )
        return DeckFile(deck, {k: tuple(v) for k, v in copies.items()})

    # --- internals -----------------------------------------------------------------------------

    def _observe(self, texts: list[str], unknown: list[str], uids: bool) -> list[ScanEvent]:
        events: list[ScanEvent] = []
        visible: set[str] = set()
        for text in texts:
            visible.add(text)
            if text in self._visible:
                continue  # still lying there since the last look
            events.append(self._register(text, uids))
        for text in unknown:
            visible.add(text)
            if text not in self._visible:
                events.append(self._unknown(text, "not a card sticker"))
        self._visible = visible
        return events

    def _register(self, text: str, uids: bool) -> ScanEvent:
        if uids and is_back(text):
            return ScanEvent("face-down", text, "a card lies face down: turn it face up")
        try:
            card_id, copy = split_uid(text) if uids else self._from_payload(text)
        except (ValueError, PayloadError) as exc:
            return self._unknown(text, str(exc))
        except _BackSticker:
            return ScanEvent("face-down", text, "a card back: turn the card face up")
        except _OtherGame as exc:
            return ScanEvent("other-game", text, str(exc))
        try:
            card = self.cardset.get(card_id)
        except UnknownCardError as exc:
            return self._unknown(text, str(exc))
        uid = f"{card.id}#{copy}"
        if (card.id, copy) in self._known:
            return ScanEvent("repeat", uid, f"{uid} ({card.name}) is already registered")
        self._known.add((card.id, copy))
        self.registered.append((card.id, copy))
        return ScanEvent("added", uid, f"added {uid} ({card.name}), {len(self.registered)} cards")

    def _from_payload(self, text: str) -> tuple[str, int]:
        meaning = decode(text)
        if isinstance(meaning, BackPayload):
            raise _BackSticker()
        code = game_info(self.game).code
        if meaning.game_code != code:
            raise _OtherGame(
                f"sticker {text} belongs to another game (code {meaning.game_code}, "
                f"{self.game} is {code})"
            )
        return self.cardset.by_number(meaning.number).id, meaning.copy

    def report_unknown(self, text: str, why: str) -> ScanEvent:
        """Note a marker that is not a card sticker (a stray code seen in the frame)."""
        return self._unknown(text, why)

    def _unknown(self, text: str, why: str) -> ScanEvent:
        self.unknown.append(text)
        return ScanEvent("unknown", text, f"unknown marker {text!r}: {why}")


class _BackSticker(Exception):
    pass


class _OtherGame(Exception):
    pass
