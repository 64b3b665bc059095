"""The stable picture of the table that vision emits and the interpreter consumes.

A `TableSnapshot` holds only what a camera above the table can see: face-up cards by identity,
face-down cards by their anonymous back serial, only the top card of a pile, dice with their
values, and tokens. The same type is produced from a table script (ground truth made visible)
and from camera frames, so everything downstream is tested once for both.

Identities:
- a face-up card is `"<card id>#<copy>"` (for example `"B01-001#2"`),
- a face-down card is `"back:<serial>"`, the serial printed on its back sticker,
- a die is `"<owner>.<kind><n>"` (for example `"p1.w2"`: player 1's second white die),
- a token is its name (for example `"flag"`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

BACK_PREFIX = "back:"
UNREADABLE_CAUSES = ("glare", "far", "unidentified")  # `Unreadable.cause`; "far" and
# "unidentified" are a card seen where no sticker read, not yet identified


def card_uid(card_id: str, copy: int) -> str:
    """The physical card `copy` (1-based) of card `card_id`."""
    return f"{card_id}#{copy}"


def split_uid(uid: str) -> tuple[str, int]:
    """Inverse of `card_uid`: ("B01-001", 2) from "B01-001#2"."""
    card_id, sep, copy = uid.rpartition("#")
    if not sep or not copy.isdigit():
        raise ValueError(f"not a card uid: {uid!r}")
    return card_id, int(copy)


def back_uid(serial: int | str) -> str:
    return f"{BACK_PREFIX}{serial}"


def is_back(uid: str) -> bool:
    return uid.startswith(BACK_PREFIX)


@dataclass(frozen=True)
class SeenCard:
    """A card the camera sees: by identity when face up, by back serial when face down."""

    uid: str
    zone: str
    face_up: bool = True
    tapped: bool = False
    on: str | None = None
    x_mm: float | None = None
    y_mm: float | None = None
    angle_deg: float = 0.0
    confidence: float = 1.0


@dataclass(frozen=True)
class Unreadable:
    """A place the camera sees a card at but cannot read it. `cause` says why:

    - "glare": the lamp's reflection in the card's sleeve clipped its sticker white;
    - "far": a card-shaped thing lies in the zone where no sticker read, and the place is too
      far from the camera for a sticker to read (a laptop's far half): a card, not yet
      identified; a second camera nearer that side reads it;
    - "unidentified": the same, near enough to read, its sticker hidden or turned away.

    `card` is the card the tracker read there before, when it did (glare only); None when
    nobody knows which card it is. The eye never guesses an identity here: the referee may
    infer one, and says so (companion/server/glare_reading.py)."""

    zone: str
    x_mm: float
    y_mm: float
    cause: str = "glare"  # UNREADABLE_CAUSES
    card: str | None = None


@dataclass(frozen=True)
class SeenDie:
    """A die on the table. `unread`: the eye sees the die where it was read (its place looks
    as it did then) but has not read its face since a hand passed over it, so `value` is the
    last value read, not a new reading: downstream it tells nothing new (a die the eye did
    not read is not a die that shows another face, nor one that is gone)."""

    die: str
    value: int
    zone: str
    on: str | None = None
    x_mm: float | None = None
    y_mm: float | None = None
    confidence: float = 1.0
    rolls: int = 0  # times this die was lifted (hidden under a hand) and settled again
    unread: bool = False


@dataclass(frozen=True)
class SeenToken:
    token: str
    zone: str
    on: str | None = None
    x_mm: float | None = None
    y_mm: float | None = None
    confidence: float = 1.0


@dataclass(frozen=True)
class TableSnapshot:
    """Everything visible on the settled table at one moment."""

    game: str
    seq: int = 0
    time_s: float = 0.0
    cards: tuple[SeenCard, ...] = ()
    dice: tuple[SeenDie, ...] = ()
    tokens: tuple[SeenToken, ...] = ()
    unknown_markers: tuple[str, ...] = field(default=())
    unreadable: tuple[Unreadable, ...] = field(default=())

    def card(self, uid: str) -> SeenCard | None:
        return next((c for c in self.cards if c.uid == uid), None)

    def die(self, name: str) -> SeenDie | None:
        return next((d for d in self.dice if d.die == name), None)

    def in_zone(self, zone: str) -> list[SeenCard]:
        return [c for c in self.cards if c.zone == zone]

    def with_seq(self, seq: int, time_s: float) -> TableSnapshot:
        return replace(self, seq=seq, time_s=time_s)

    def to_dict(self) -> dict[str, Any]:
        """The contract's form; a die's `unread` (an open extension) only where it is true,
        so a table with every die read is written as before it existed."""
        data = asdict(self)
        for die in data["dice"]:
            if not die["unread"]:
                del die["unread"]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSnapshot:
        return cls(
            game=str(data["game"]),
            seq=int(data.get("seq", 0)),
            time_s=float(data.get("time_s", 0.0)),
            cards=tuple(SeenCard(**c) for c in data.get("cards", ())),
            dice=tuple(SeenDie(**d) for d in data.get("dice", ())),
            tokens=tuple(SeenToken(**t) for t in data.get("tokens", ())),
            unknown_markers=tuple(data.get("unknown_markers", ())),
            unreadable=tuple(Unreadable(**u) for u in data.get("unreadable", ())),
        )

    @classmethod
    def from_json(cls, text: str) -> TableSnapshot:
        return cls.from_dict(json.loads(text))

    def same_table(self, other: TableSnapshot) -> bool:
        """True when both show the same items in the same places (positions ignored)."""
        return _essence(self) == _essence(other)


def _essence(s: TableSnapshot) -> tuple[frozenset[Any], ...]:
    def cards(items: Iterable[SeenCard]) -> frozenset[Any]:
        return frozenset((c.uid, c.zone, c.face_up, c.tapped, c.on) for c in items)

    return (
        cards(s.cards),
        frozenset((d.die, d.value, d.zone, d.on, d.rolls) for d in s.dice),
        frozenset((t.token, t.zone, t.on) for t in s.tokens),
        frozenset((u.zone, u.cause, u.card) for u in s.unreadable),
    )
