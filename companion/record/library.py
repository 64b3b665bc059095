"""The game library as people use it: name a game, finish or abandon it by hand, note things
about it, and find games by game, player, violations or any word.

A game whose process was killed stays unfinished in the file; the list calls it
"interrupted" (not "open") unless it is the game being played right now, and a person can
mark it finished (with a winner or a draw) or abandoned. The log stays append-only: a status
is the game's outcome, a note is a "note" event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError
from companion.games import GAMES
from companion.record.redact import public_header
from companion.record.store import GameHeader, Store

STATUSES = ("live", "finished", "abandoned", "interrupted")
STATUS_WORDS = {
    "live": ("being played", "läuft"),
    "finished": ("finished", "beendet"),
    "abandoned": ("abandoned", "abgebrochen"),
    "interrupted": ("interrupted", "unterbrochen"),
}
MAX_TITLE = 120
MAX_NOTE = 2000


class LibraryError(CompanionError):
    """A change to the library that does not fit (abandoning the live game, a bad winner)."""


def status_of(header: GameHeader, live_id: int | None = None) -> str:
    if header.id is not None and header.id == live_id and header.finished is None:
        return "live"
    if header.finished is None:
        return "interrupted"
    if isinstance(header.outcome, dict) and header.outcome.get("abandoned"):
        return "abandoned"
    return "finished"


def game_name(game: str) -> str:
    return GAMES[game].name if game in GAMES else game


@dataclass(frozen=True)
class Query:
    """What the list of games is filtered by; empty fields filter nothing."""

    game: str = ""
    player: str = ""
    violations: str = ""  # "", "with", "without"
    status: str = ""
    text: str = ""

    @classmethod
    def from_args(cls, args: Any) -> Query:
        def get(key: str) -> str:
            return str(args.get(key) or "").strip()[:MAX_TITLE]

        return cls(get("game"), get("player"), get("violations"), get("status"), get("q"))


def notes_of(store: Store, game_id: int) -> list[str]:
    """The notes people wrote on a game (during or after it)."""
    return [str(e.payload["text"]) for e in store.events(game_id)
            if e.kind == "note" and e.source == "person" and e.payload.get("text")]


def rows(store: Store, query: Query | None = None, live_id: int | None = None
         ) -> list[dict[str, Any]]:
    """The games matching `query`, newest first, with what the list shows of each."""
    query = query or Query()
    counts = store.event_counts()
    found = []
    for h in reversed(store.games()):
        gid = int(h.id or 0)
        kinds = counts.get(gid, {})
        status = status_of(h, live_id)
        violations = kinds.get("violation", 0)
        if query.game and h.game != query.game:
            continue
        if query.player and not any(query.player.lower() in p.lower() for p in h.players):
            continue
        if query.violations == "with" and not violations:
            continue
        if query.violations == "without" and violations:
            continue
        if query.status and status != query.status:
            continue
        notes = notes_of(store, gid) if kinds.get("note") else []
        if query.text:
            haystack = " ".join([h.title, game_name(h.game), *h.players, *notes]).lower()
            if not all(word in haystack for word in query.text.lower().split()):
                continue
        found.append({
            **public_header(h.to_dict()),  # deck lists in draw order stay in the file
            "name": game_name(h.game),
            "status": status,
            "events": sum(kinds.values()),
            "moves": kinds.get("move", 0),
            "violations": violations,
            "notes": notes,
        })
    return found


def rename(store: Store, game_id: int, title: str) -> None:
    title = " ".join(str(title).split())
    if len(title) > MAX_TITLE:
        raise LibraryError(f"a game's name is at most {MAX_TITLE} characters")
    store.set_title(game_id, title)


def add_note(store: Store, game_id: int, text: str) -> None:
    text = str(text).strip()
    if not text:
        raise LibraryError("a note needs some text")
    if len(text) > MAX_NOTE:
        raise LibraryError(f"a note is at most {MAX_NOTE} characters")
    store.append(game_id, "note", "person", {"text": text})


def set_status(store: Store, game_id: int, status: str, winner: str | None = None,
               live_id: int | None = None) -> dict[str, Any]:
    """Finish a game by hand (winner "p1", "p2" or None for a draw) or abandon it."""
    header = store.game(game_id)
    if game_id == live_id and header.finished is None:
        raise LibraryError("this game is being played now: end it at the table (or concede)")
    if header.finished is not None:
        raise LibraryError(f"game {game_id} is already {status_of(header)}")
    if status == "abandoned":
        outcome: dict[str, Any] = {"abandoned": True, "winner": None,
                                   "reason_en": "abandoned", "reason_de": "abgebrochen",
                                   "by_hand": True}
    elif status == "finished":
        if winner not in ("p1", "p2", None):
            raise LibraryError(f"winner must be p1, p2 or none (a draw), not {winner!r}")
        outcome = {"winner": winner, "by_hand": True,
                   "reason_en": "entered by hand", "reason_de": "von Hand eingetragen"}
    else:
        raise LibraryError(f"status must be finished or abandoned, not {status!r}")
    store.finish(game_id, outcome)
    store.append(game_id, "note", "person", {
        "text_en": f"Marked {STATUS_WORDS[status][0]}", "text_de":
        f"Als {STATUS_WORDS[status][1]} markiert", "status": status, "winner": winner})
    return outcome
