"""The hall's picture of every table, rebuilt from the stream's messages alone.

Each table shows its current game: players, turn, phase, scores (the state the last move on
the main line recorded), the last move, open violations (not yet decided "stands" or
"corrected", and not lifted by a card), an open question, the outcome. A message whose place is
not beyond what the hall already holds for that recording is a duplicate: counted, never
applied. Rows needing a referee (an open violation or question) sort first.

Refused and shown to the judges (`refusals()`, the hall page's "Refused" list): a message whose
body names another table or recording than the subject it came on (the broker lets a table's
user publish only on its own subjects, so the subject is who sent it: a forgery), a recording
that first came from one table and now comes from another, and a message at or before the
place the hall holds for its recording (a replay).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.hall.naming import Rename
from companion.hall.wire import EVENT, FINISH, HEADER, NOTHING, Place, TableMessage
from companion.record.line_index import LineIndex
from companion.record.store import Event

LINE_KINDS = ("move", "phase")
REOPENED = ("reopened its game: result withdrawn", "hat seine Partie wieder geöffnet: "
            "Ergebnis zurückgenommen")
CHANGED = ("changed its result", "hat sein Ergebnis geändert")
"""What the judges read of a table whose game was reopened or now ends another way."""
FORGED, OTHER_TABLE, REPLAYED, UNREADABLE = "forged", "other-table", "replayed", "unreadable"
REFUSALS = (FORGED, OTHER_TABLE, REPLAYED, UNREADABLE)
REFUSALS_KEPT = 200


@dataclass
class TableRow:
    """One table as the hall knows it."""

    table: str
    db: str = ""
    game: int = 0
    header: dict[str, Any] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    last_move: dict[str, Any] | None = None
    violations: dict[int, dict[str, Any]] = field(default_factory=dict)
    decided: set[int] = field(default_factory=set)
    question: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None
    seq: int = 0
    commit: float = 0.0
    heard: float = 0.0
    messages: int = 0
    notice: str = ""
    notice_de: str = ""
    """The hall's remark in German (`notice` is the English one)."""
    rename: Rename = dict
    started_at: float = 0.0
    """Hall time of the game's first message (the broker's time of storing it)."""
    ended_at: float = 0.0
    """Hall time of the game's finish message."""
    line: LineIndex = field(default_factory=LineIndex)
    """The table's main line, kept up to date event by event: an undo or a correction reads
    its end, not the whole log again (issue 34)."""

    @property
    def alert(self) -> bool:
        return bool(self.open_violations()) or self.question is not None

    def open_violations(self) -> list[dict[str, Any]]:
        return [v for s, v in sorted(self.violations.items())
                if s not in self.decided and not v.get("lifted_by")]

    def start(self, db: str, game: int, header: dict[str, Any]) -> None:
        self.db, self.game, self.header = db, game, dict(header)
        self.events, self.state, self.last_move = [], {}, None
        self.violations, self.decided, self.question, self.outcome = {}, set(), None, None
        self.seq, self.commit, self.notice, self.notice_de = 0, 0.0, "", ""
        self.started_at, self.ended_at = 0.0, 0.0
        self.line = LineIndex()

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.line.append(event, self.events)
        self.seq, self.commit = event.seq, event.time
        payload = event.payload
        if event.kind in LINE_KINDS:
            self._line_entry(payload)
        elif event.kind in ("correction", "undo", "redo") or (
                event.kind == "decision" and (payload.get("off") or payload.get("on"))):
            self._recompute_line()  # the table's log took steps off the line or put them back
            if event.kind == "decision" and "violation" in payload:
                self.decided.add(int(payload["violation"]))
            if event.kind in ("undo", "redo"):
                self._recompute_open(event)
        elif event.kind == "violation":  # who it is about: looked up once, as it comes
            self.violations[event.seq] = {"seq": event.seq, **payload,
                                          "seat": self.seat_of(payload.get("move_seq"))}
        elif event.kind == "decision":
            if "violation" in payload:
                self.decided.add(int(payload["violation"]))
            if "question" in payload and self.question is not None \
                    and self.question.get("seq") == int(payload["question"]):
                self.question = None
        elif event.kind == "question":
            self.question = {"seq": event.seq, **payload}
        elif event.kind == "answer" and self.question is not None \
                and self.question.get("seq") == payload.get("question"):
            self.question = None

    def _line_entry(self, payload: dict[str, Any]) -> None:
        state = payload.get("state")
        if isinstance(state, dict):
            self.state = dict(state)
        self.last_move = {"text_en": payload.get("text_en", ""),
                          "text_de": payload.get("text_de", ""),
                          "legal": payload.get("legal", True)}

    def _recompute_open(self, event: Event) -> None:
        """After undo/redo: violations and decisions of inputs now taken back do not count."""
        undone = self.line.undone
        self.violations = {e.seq: {"seq": e.seq, **e.payload,
                                   "seat": self.seat_of(e.payload.get("move_seq"))}
                           for e in self.events
                           if e.kind == "violation" and e.payload.get("input") not in undone}
        self.decided = set(self.line.decisions)
        if self.question is not None and self.question.get("input") in undone:
            self.question = None

    def _recompute_line(self) -> None:
        """The state and last move of the line's end (the state of the newest step that
        has one)."""
        self.state, self.last_move = {}, None
        count = 1
        while True:
            tail = self.line.tail(count)
            if any(isinstance(e.move.get("state"), dict) for e in tail) or \
                    len(tail) < count:
                break
            count *= 4
        for entry in tail:
            self._line_entry(entry.move)

    def seat_of(self, move_seq: Any) -> str | None:
        """Who made the move `move_seq` (else whose turn it was then)."""
        if not isinstance(move_seq, int):
            return None
        for event in reversed(self.events):
            if event.seq > move_seq or event.kind not in LINE_KINDS:
                continue
            move = event.payload.get("move")
            seat = move.get("player") if isinstance(move, dict) else None
            state = event.payload.get("state")
            if not isinstance(seat, str) and isinstance(state, dict):
                seat = state.get("active")
            if isinstance(seat, str):
                return seat
        return None

    def _moment(self, item: dict[str, Any]) -> dict[str, Any]:
        """A violation or question with who it is about and links to its recorded moment."""
        from companion.hall.judges import moment_path, review_path

        seq = int(item.get("seq") or 0)
        seat = item.get("seat")
        players = list(self.header.get("players") or [])
        named = self.rename(item)
        if isinstance(item.get("choices"), list):  # a question's readings, in names too
            named["choices"] = [self.rename(c) if isinstance(c, dict) else c
                                for c in item["choices"]]
        return {**named, "seat": seat,
                "player": _seat_name(seat, players) if seat else None,
                "review": review_path(self.game, seq),
                "moment": moment_path(self.table, self.db, self.game, seq)}

    def _phase_words(self) -> dict[str, Any]:
        """The current phase's name in both languages (the recorded state has English)."""
        from companion.hall.naming import phase_names

        phase = self.state.get("phase")
        en, de = phase_names(str(self.header.get("game", ""))).get(str(phase), (None, None))
        shown = self.state.get("phase_name")
        return {"phase_name_en": en or shown, "phase_name_de": de or shown}

    def to_dict(self) -> dict[str, Any]:
        players = list(self.header.get("players") or [])
        named = self.rename
        scores = self.state.get("scores") or {}
        return {
            "table": self.table,
            "db": self.db,
            "game_ref": self.game,
            "game": self.header.get("game", ""),
            "game_name": _game_name(str(self.header.get("game", ""))),
            "players": players,
            "title": self.header.get("title", ""),
            "url": self.header.get("url", ""),
            "turn": self.state.get("turn"),
            "active": self.state.get("active"),
            "phase": self.state.get("phase"),
            "phase_name": self.state.get("phase_name"),
            **self._phase_words(),
            "scores": [{"seat": seat, "name": _seat_name(seat, players), "value": value}
                       for seat, value in sorted(scores.items())],
            "last_move": named(self.last_move) if self.last_move else None,
            "violations": [self._moment(v) for v in self.open_violations()],
            "question": self._moment(self.question) if self.question else None,
            "outcome": named(self.outcome) if self.outcome else None,
            "seq": self.seq,
            "commit": self.commit,
            "heard": self.heard,
            "messages": self.messages,
            "alert": self.alert,
            "notice": self.notice,
            "notice_en": self.notice,
            "notice_de": self.notice_de or self.notice,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
        }


def _game_name(game: str) -> str:
    from companion.games import GAMES

    info = GAMES.get(game)
    return info.name if info else game


def _seat_name(seat: str, players: list[str]) -> str:
    if seat.startswith("p") and seat[1:].isdigit() and int(seat[1:]) <= len(players):
        return str(players[int(seat[1:]) - 1])
    return seat


def sort_key(row: dict[str, Any]) -> tuple[int, str]:
    """Tables needing a referee first, then by name."""
    return (0 if row["alert"] else 1, str(row["table"]))


class HallView:
    """Every table's row; thread-safe. `listeners` hear each changed row (for the page)."""

    def __init__(self, namer: Callable[[dict[str, Any]], Rename] | None = None) -> None:
        self.namer = namer
        self._lock = threading.Lock()
        self.rows: dict[str, TableRow] = {}
        self.high: dict[str, Place] = {}
        self.applied = 0
        self.duplicates = 0
        self.stream_seq = 0
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.message_listeners: list[Callable[[TableMessage, float], None]] = []
        """Hear every applied message with its hall time (the judges' history)."""
        self.refused_listeners: list[Callable[[dict[str, Any]], None]] = []
        self.owners: dict[str, str] = {}
        self.refused: deque[dict[str, Any]] = deque(maxlen=REFUSALS_KEPT)
        self.refused_counts: dict[str, int] = dict.fromkeys(REFUSALS, 0)

    def refuse(self, reason: str, sender: str, message: TableMessage | None,
               detail: str, detail_de: str = "") -> dict[str, Any]:
        """Count and keep a refused message for the judges, with what is wrong in English and
        German (caller holds no lock)."""
        entry = {"time": time.time(), "reason": reason, "sender": sender, "detail": detail,
                 "detail_en": detail, "detail_de": detail_de or detail,
                 "claimed": message.table if message else "",
                 "place": list(message.key) if message else None}
        with self._lock:
            self.refused_counts[reason] = self.refused_counts.get(reason, 0) + 1
            self.refused.append(entry)
        for listener in list(self.refused_listeners):
            listener(entry)
        return entry

    def refusals(self) -> dict[str, Any]:
        with self._lock:
            return {"counts": dict(self.refused_counts), "recent": list(self.refused)}

    def apply(self, message: TableMessage, stream_seq: int = 0,
              subject: str | None = None, stamp: float | None = None
              ) -> dict[str, Any] | None:
        """Apply one message; returns the table's new row, or None for a duplicate or a
        refused message. `subject`: the stream subject it came on (`<stream>.<table>.<db>`),
        which says which table's credentials sent it. `stamp`: when the broker stored it
        (hall time; default now)."""
        stamp = time.time() if stamp is None else stamp
        sender, refusal = message.table, None
        if subject is not None:
            tokens = subject.split(".")
            sender = tokens[1] if len(tokens) == 3 else subject
            if len(tokens) != 3 or (tokens[1], tokens[2]) != (message.table, message.db):
                refusal = (FORGED, f"sent as {subject}, claims table {message.table} "
                                   f"recording {message.db}",
                           f"gesendet als {subject}, gibt Tisch {message.table} Aufzeichnung "
                           f"{message.db} an")
        data = None
        if refusal is None:
            with self._lock:
                self.stream_seq = max(self.stream_seq, stream_seq)
                owner = self.owners.setdefault(message.db, message.table)
                high = self.high.get(message.db, NOTHING)
                if owner != message.table:
                    refusal = (OTHER_TABLE, f"recording {message.db} belongs to table {owner}",
                               f"Aufzeichnung {message.db} gehört zu Tisch {owner}")
                elif message.place <= high:
                    self.duplicates += 1
                    refusal = (REPLAYED, f"{message.type} {message.place.msg_id} again (the "
                                         f"hall holds {high.msg_id})",
                               f"Nachricht {message.place.msg_id} noch einmal (die Halle hat "
                               f"schon {high.msg_id})")
                else:
                    data = self._apply_locked(message, stamp)
        if data is None:
            if refusal is not None:
                self.refuse(refusal[0], sender, message, refusal[1], refusal[2])
            return None
        for heard in list(self.message_listeners):
            heard(message, stamp)
        for listener in list(self.listeners):
            listener(data)
        return data

    def _apply_locked(self, message: TableMessage, stamp: float) -> dict[str, Any]:
        """A message beyond the hall's place in its recording, from its own table."""
        self.high[message.db] = message.place
        row = self.rows.setdefault(message.table, TableRow(message.table))
        current = (row.db, row.game)
        ours = (message.db, message.place.game)
        if message.type == HEADER:
            if ours != current:
                row.start(message.db, message.place.game, dict(message.body))
                row.rename = self.namer(row.header) if self.namer else dict
                row.started_at = stamp
        elif ours != current:
            pass  # a message of an older recording at this table: counted, not shown
        elif message.type == EVENT:
            body = message.body
            row.add(Event(message.place.game, int(body["seq"]), float(body["time"]),
                          str(body["kind"]), str(body["source"]), dict(body["payload"])))
        elif message.type == FINISH:
            outcome = message.body.get("outcome")
            before = row.outcome
            row.outcome = dict(outcome) if isinstance(outcome, dict) else None
            row.ended_at = stamp if row.outcome else 0.0
            if before is not None and row.outcome is None:
                row.notice, row.notice_de = REOPENED
            elif before is not None and row.outcome is not None \
                    and before.get("winner") != row.outcome.get("winner"):
                row.notice, row.notice_de = CHANGED
        row.messages += 1
        row.heard = time.time()
        self.applied += 1
        return row.to_dict()

    def note(self, table: str, text: str, text_de: str = "") -> dict[str, Any] | None:
        """A hall remark on a table (a result the tournament could not take, ...), in English
        and German."""
        with self._lock:
            row = self.rows.get(table)
            if row is None or (row.notice, row.notice_de) == (text, text_de):
                return None
            row.notice, row.notice_de = text, text_de
            data = row.to_dict()
        for listener in list(self.listeners):
            listener(data)
        return data

    def table(self, name: str) -> dict[str, Any] | None:
        with self._lock:
            row = self.rows.get(name)
            return row.to_dict() if row else None

    def snapshot(self) -> list[dict[str, Any]]:
        """Every table, those needing a referee first."""
        with self._lock:
            rows = [r.to_dict() for r in self.rows.values()]
        return sorted(rows, key=sort_key)

    def counts(self) -> dict[str, Any]:
        with self._lock:
            return {"tables": len(self.rows), "applied": self.applied,
                    "duplicates": self.duplicates, "stream_seq": self.stream_seq,
                    "refused": sum(self.refused_counts.values())}
