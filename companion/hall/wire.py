"""What travels from a table to the hall: subjects, message ids and message bodies.

One JetStream stream per event (tournament day, convention), one subject per table and
recording (`<stream>.<table>.<db>`), so "the last message this table got into the stream" is a
single `get_last_msg` and tells the table where to resume. Every message carries its place in
the table's recording, `(game, seq, part)`: part 0 is a game's header (seq 0), part 1 an event,
part 2 the game's outcome as of event `seq`. The JetStream message id (`Nats-Msg-Id`) is that
place, so a message sent twice is stored once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError

WIRE_VERSION = 1
DEFAULT_STREAM = "companion"
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
HEADER, EVENT, FINISH = "game", "event", "finish"
PARTS = {HEADER: 0, EVENT: 1, FINISH: 2}
MSG_ID_HEADER = "Nats-Msg-Id"


class WireError(CompanionError):
    """A name that cannot be a NATS subject token, or a message the hall cannot read."""


def check_name(kind: str, name: str) -> str:
    """Stream and table names are subject tokens: 1-64 letters, digits, '-' or '_'."""
    if not name or len(name) > 64 or not set(name) <= NAME_CHARS:
        raise WireError(f"{kind} name {name!r}: use 1-64 letters, digits, '-' or '_'")
    return name


def stream_subjects(stream: str) -> str:
    return f"{check_name('stream', stream)}.>"


def table_subject(stream: str, table: str, db: str) -> str:
    return f"{check_name('stream', stream)}.{check_name('table', table)}.{check_name('db', db)}"


@dataclass(frozen=True, order=True)
class Place:
    """Where a message sits in one table recording; messages are published in this order."""

    game: int
    seq: int
    part: int

    @property
    def msg_id(self) -> str:
        return f"{self.game}.{self.seq}.{self.part}"


NOTHING = Place(0, 0, 0)
"""Before the first message of a recording (game ids start at 1)."""


@dataclass(frozen=True)
class TableMessage:
    """One message as the hall reads it."""

    type: str
    table: str
    db: str
    place: Place
    body: Mapping[str, Any]
    sent: float

    @property
    def key(self) -> tuple[str, int, int, int]:
        """Unique over the whole stream: the recording plus the place in it."""
        return (self.db, self.place.game, self.place.seq, self.place.part)

    def msg_id(self) -> str:
        return f"{self.db}.{self.place.msg_id}"


def encode(type_: str, table: str, db: str, place: Place, body: Mapping[str, Any],
           sent: float) -> bytes:
    data = {"v": WIRE_VERSION, "type": type_, "table": table, "db": db, "game": place.game,
            "seq": place.seq, "part": place.part, "sent": sent, "body": dict(body)}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def decode(raw: bytes) -> TableMessage:
    """A message from the stream; anything else is a `WireError` naming what is wrong."""
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WireError(f"not a table message (bad JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("v") != WIRE_VERSION:
        raise WireError(f"not a version-{WIRE_VERSION} table message")
    try:
        type_ = str(data["type"])
        if type_ not in PARTS:
            raise WireError(f"unknown message type {type_!r}")
        place = Place(int(data["game"]), int(data["seq"]), int(data["part"]))
        if place.part != PARTS[type_]:
            raise WireError(f"a {type_} message has part {PARTS[type_]}, not {place.part}")
        body = data["body"]
        if not isinstance(body, dict):
            raise WireError("the message body is not an object")
        return TableMessage(type_, check_name("table", str(data["table"])),
                            check_name("db", str(data["db"])), place, body,
                            float(data.get("sent") or 0.0))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, WireError):
            raise
        raise WireError(f"incomplete table message ({type(exc).__name__}: {exc})") from None
