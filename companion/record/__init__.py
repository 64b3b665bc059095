"""Recording: every game as an append-only SQLite log, with replay and export."""

from companion.record.store import (
    EVENT_KINDS,
    EVENT_SOURCES,
    INPUT_KINDS,
    SCHEMA_VERSION,
    Event,
    GameHeader,
    GameNotFoundError,
    RecordError,
    Store,
    WriteFailedError,
)

__all__ = [
    "EVENT_KINDS",
    "EVENT_SOURCES",
    "INPUT_KINDS",
    "SCHEMA_VERSION",
    "Event",
    "GameHeader",
    "GameNotFoundError",
    "RecordError",
    "Store",
    "WriteFailedError",
]
