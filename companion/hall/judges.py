"""What the judges read besides the tables' rows: every player's violations with the
referees' decisions, across games and rounds, and a round clock per table.

Both are rebuilt from the stream like the rest of the hall (a restarted hall reads every
message again and ends with the same history). The clocks run on the hall's clock: a match's
clock starts at the time the broker stored the first message of its game (JetStream keeps that
time with the message, so a restart reads the same start again), and the first start of a
tournament match is also written to the hall's library (`hall_clocks`), so a table that starts
a second recording for the same match (its companion restarted) keeps the match's clock.
"""

from __future__ import annotations

import bisect
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.hall.naming import Rename
from companion.hall.wire import EVENT, FINISH, HEADER, TableMessage
from companion.record.redact import light_event, shown_decisions
from companion.record.store import Event, undone_inputs

DEFAULT_ROUND_MINUTES = 50.0
OPEN, STANDS, CORRECTED = "open", "stands", "corrected"

Rounds = Callable[[str, str, int, tuple[str, ...]], int | None]
"""(table, recording, game, players) -> the tournament round that game belongs to, or None."""


def review_path(game_ref: int, seq: int) -> str:
    """A table's review page of its game `game_ref` at event `seq` (relative to the table's
    address): the page holding that step opens at it (`?step=`), and the address names it
    (`#step=`), as the review page itself writes it."""
    return f"review/{game_ref}?step={seq}#step={seq}"


def moment_path(table: str, db: str, game_ref: int, seq: int) -> str:
    """The same moment in the hall's own copy of the game (see web.moment)."""
    return f"/hall/moment/{table}/{db}/{game_ref}/{seq}"


@dataclass
class _Recording:
    """One game of one table, as far as the history needs it."""

    table: str
    db: str
    game: int
    players: tuple[str, ...] = ()
    title: str = ""
    url: str = ""
    stamp: float = 0.0
    rename: Rename = dict
    light: list[Event] = field(default_factory=list)
    seats: dict[int, str] = field(default_factory=dict)
    violations: dict[int, dict[str, Any]] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None
    seqs: list[int] = field(default_factory=list)
    _cache: tuple[tuple[int, int | None], list[dict[str, Any]]] | None = None

    def add(self, event: Event) -> None:
        if event.kind in ("move", "phase"):
            move = event.payload.get("move")
            seat = move.get("player") if isinstance(move, dict) else None
            state = event.payload.get("state")
            if not isinstance(seat, str) and isinstance(state, dict):
                seat = state.get("active")
            if isinstance(seat, str):
                self.seats[event.seq] = seat
                self.seqs.append(event.seq)
        if event.kind == "violation" and not event.payload.get("lifted_by"):
            keep = ("code", "message_en", "message_de", "rule", "move_seq", "move_text_en",
                    "move_text_de", "unsure")
            self.violations[event.seq] = {"seq": event.seq, "time": event.time,
                                          **{k: event.payload[k] for k in keep
                                             if k in event.payload}}
        small = light_event(event)
        if small is not None:
            self.light.append(small)

    def seat_of(self, move_seq: Any) -> str | None:
        """Who made the move a violation is about (else whose turn it was then)."""
        if not isinstance(move_seq, int):
            return None
        if move_seq in self.seats:
            return self.seats[move_seq]
        at = bisect.bisect_right(self.seqs, move_seq)
        return self.seats[self.seqs[at - 1]] if at else None

    def name_of(self, seat: str | None) -> str | None:
        if seat and seat.startswith("p") and seat[1:].isdigit() \
                and 0 < int(seat[1:]) <= len(self.players):
            return self.players[int(seat[1:]) - 1]
        return None

    def entries(self, round_no: int | None) -> list[dict[str, Any]]:
        """Its violations with their decisions (worked out again only when the game grew)."""
        if not self.violations:
            return []
        key = (len(self.light), round_no)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        out = self._entries(round_no)
        self._cache = (key, out)
        return out

    def _entries(self, round_no: int | None) -> list[dict[str, Any]]:
        undone = undone_inputs(self.light)
        owners = {e.seq: e.payload.get("input") for e in self.light if e.kind == "violation"}
        decided = shown_decisions(self.light)
        out = []
        for seq, v in sorted(self.violations.items()):
            if owners.get(seq) in undone and owners.get(seq) is not None:
                continue  # taken back at the table (undo): never happened
            seat = self.seat_of(v.get("move_seq"))
            named = self.rename(v)
            out.append({
                **named, "player": self.name_of(seat) or seat or "?", "seat": seat,
                "decision": decided.get(seq) or OPEN, "table": self.table, "db": self.db,
                "game_ref": self.game, "title": self.title, "url": self.url,
                "round": round_no, "players": list(self.players),
                "moment": moment_path(self.table, self.db, self.game, seq),
                "review": review_path(self.game, seq),
            })
        return out


class PlayerHistory:
    """Every violation heard from every table, per player (by name), oldest first."""

    def __init__(self, namer: Callable[[dict[str, Any]], Rename] | None = None) -> None:
        self.namer = namer
        self._lock = threading.Lock()
        self._recordings: dict[tuple[str, int], _Recording] = {}

    def feed(self, message: TableMessage, stamp: float) -> None:
        """One applied message (in stream order)."""
        key = (message.db, message.place.game)
        with self._lock:
            if message.type == HEADER:
                if key in self._recordings:
                    return
                h = message.body
                rec = _Recording(message.table, message.db, message.place.game,
                                 tuple(str(p) for p in h.get("players") or ()),
                                 str(h.get("title") or ""), str(h.get("url") or ""), stamp)
                self._recordings[key] = rec
            rec_or_none = self._recordings.get(key)
        if rec_or_none is None:
            return
        rec = rec_or_none
        if message.type == HEADER:
            if self.namer is not None:
                rec.rename = self.namer(dict(message.body))
            return
        with self._lock:
            if message.type == EVENT:
                body = message.body
                rec.add(Event(message.place.game, int(body["seq"]), float(body["time"]),
                              str(body["kind"]), str(body["source"]), dict(body["payload"])))
            elif message.type == FINISH:
                outcome = message.body.get("outcome")
                rec.outcome = dict(outcome) if isinstance(outcome, dict) else None

    def players(self, rounds: Rounds | None = None) -> list[dict[str, Any]]:
        """[{name, entries, counts}] by name; each entry a violation with its decision."""
        with self._lock:
            recordings = sorted((r for r in self._recordings.values() if r.violations),
                                key=lambda r: (r.stamp, r.db, r.game))
        # the tournament's rounds are read without holding the lock the stream reader needs
        round_of = [rounds(r.table, r.db, r.game, r.players) if rounds else None
                    for r in recordings]
        found: dict[str, list[dict[str, Any]]] = {}
        with self._lock:
            for rec, round_no in zip(recordings, round_of, strict=True):
                for entry in rec.entries(round_no):
                    found.setdefault(str(entry["player"]), []).append(entry)
        out = []
        for name in sorted(found, key=str.casefold):
            entries = found[name]
            counts = {d: sum(1 for e in entries if e["decision"] == d)
                      for d in (OPEN, STANDS, CORRECTED)}
            out.append({"name": name, "entries": entries, "counts": counts,
                        "total": len(entries)})
        return out


_SCHEMA = """
CREATE TABLE IF NOT EXISTS hall_clocks (
    clock TEXT PRIMARY KEY,
    started REAL NOT NULL
);
"""


class RoundClocks:
    """The clock of each table's match: started (hall time), length, ended, on the hall's
    clock. `started_at(key, t)` keeps the first start of a key (in the hall's library when it
    has one)."""

    def __init__(self, minutes: float = DEFAULT_ROUND_MINUTES, db: Path | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.length = float(minutes) * 60.0
        self.clock = clock
        self._lock = threading.Lock()
        self._known: dict[str, float] = {}
        self._conn: sqlite3.Connection | None = None
        if db is not None:
            self._conn = sqlite3.connect(str(db), check_same_thread=False,
                                         isolation_level=None, timeout=30.0)
            self._conn.executescript(_SCHEMA)
            self._known = {str(k): float(v) for k, v in
                           self._conn.execute("SELECT clock, started FROM hall_clocks")}

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def started_at(self, key: str, when: float) -> float:
        """The start of clock `key`: the first one given (kept across restarts)."""
        with self._lock:
            known = self._known.get(key)
            if known is not None:
                return known
            self._known[key] = when
            if self._conn is not None:
                self._conn.execute("INSERT OR IGNORE INTO hall_clocks (clock, started)"
                                   " VALUES (?, ?)", (key, when))
            return when

    def for_row(self, row: Mapping[str, Any], tournament: Mapping[str, Any] | None
                ) -> dict[str, Any] | None:
        """The clock of a table's row: the tournament's match there when the row's game seats
        its players (one clock per match, whatever recordings it takes), else the game's."""
        started = row.get("started_at")
        if not started:
            return None
        key = f"game:{row.get('db')}:{row.get('game_ref')}"
        round_no = None
        match = match_of_row(row, tournament)
        if match is not None and tournament is not None:
            round_no = int(match["round"])
            key = f"round:{tournament.get('id')}:{round_no}:{row.get('table')}"
        start = self.started_at(key, float(started))
        ended = row.get("ended_at") if row.get("outcome") else None
        return {"key": key, "started": start, "length": self.length,
                "ended": float(ended) if ended else None, "round": round_no}

    def remaining(self, clock: Mapping[str, Any], now: float | None = None) -> float:
        """Seconds left (negative: over time); a finished match's clock stops at its end."""
        at = clock.get("ended") or (self.clock() if now is None else now)
        return float(clock["started"]) + float(clock["length"]) - float(at)


def match_of_row(row: Mapping[str, Any], tournament: Mapping[str, Any] | None
                 ) -> dict[str, Any] | None:
    """The tournament's current match at the row's table, if the row's game seats it."""
    if not tournament or tournament.get("stage") not in ("match", "final", "over"):
        return None
    for match in tournament.get("matches") or ():
        if match.get("table") == row.get("table") and \
                list(row.get("players") or ()) == [match.get("p1"), match.get("p2")]:
            return dict(match)
    return None
