"""The live game: snapshots in, referee verdicts recorded and published to the page.

One `LiveSession` per watched table. Every input (a settled snapshot from the camera, a
referee's button) goes through here, is committed to the recording first and then published
on the bus, so what the page shows is always already on disk.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.api import Move, Question
from companion.errors import CompanionError
from companion.games import game_info
from companion.record.replay import main_line
from companion.record.store import DECISIONS, Event, GameHeader, Store
from companion.server.bus import EventBus
from companion.server.facts import facts_of
from companion.server.names import Namer
from companion.server.offers import Offers
from companion.server.referee import Applied, Reaction, Referee
from companion.snapshot import TableSnapshot

LOG_TAIL = 40
PERSON_ACTIONS = ("next-phase", "pass", "declare")
HEALTH_EVERY_S = 1.0
REASONS_DE = {"undo": "rückgängig", "violation corrected": "Verstoß korrigiert"}
CAMERA_DE = {"ok": "ok", "starting": "startet", "reconnecting": "verbindet neu",
             "stopped": "angehalten", "finished": "fertig", "lost": "verloren"}


class ActionError(CompanionError):
    """A referee action that does not fit the game right now (no such violation, ...)."""


CardInfo = Callable[[str], Mapping[str, Any] | None]


@dataclass
class Health:
    """Camera health as the page shows it."""

    status: str = "starting"
    fps: float = 0.0
    markers: int = 0
    calibrated: bool = False
    detail: str = ""
    updated: float = field(default_factory=time.time)
    detail_de: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "fps": round(self.fps, 1),
            "markers": self.markers,
            "calibrated": self.calibrated,
            "detail": self.detail,
            "detail_de": self.detail_de or self.detail,
        }


class LiveSession:
    """Holds one game being played and keeps recording, engine and page in step."""

    def __init__(
        self,
        referee: Referee,
        store: Store,
        bus: EventBus,
        header: GameHeader,
        layout: Mapping[str, Any],
        card_info: CardInfo,
    ) -> None:
        self.referee = referee
        self.store = store
        self.bus = bus
        self.layout = dict(layout)
        self.card_info = card_info
        self.header = header
        self.namer = Namer(card_info, header.players, layout)
        self.game_id = store.start_game(header)
        self.health = Health()
        self._lock = threading.RLock()
        self._events: list[Event] = []
        self._table: TableSnapshot | None = None
        self._baseline: TableSnapshot | None = None
        self._ignore: TableSnapshot | None = None
        self._before_move: dict[int, TableSnapshot | None] = {}
        self._question: tuple[int, Question] | None = None
        self._frame: bytes | None = None
        self._last_health_pub = 0.0
        self._outcome: dict[str, Any] | None = None
        self._publish_state()

    # --- inputs from the table ---------------------------------------------------------------

    def observe(self, snapshot: TableSnapshot, frame_jpeg: bytes | None = None) -> None:
        """A settled table arrived: interpret the change, record it, publish it."""
        with self._lock:
            if self._table is not None and snapshot.same_table(self._table):
                return
            self._table = snapshot
            if self._ignore is not None and snapshot.same_table(self._ignore):
                self._publish_state()
                return
            self._ignore = None
            before = self._baseline
            reaction = self.referee.observe(before, snapshot)
            self._baseline = snapshot
            last = self._record_reaction(reaction, "camera", before)
            self.store.save_snapshot(self.game_id, last, snapshot)
            if frame_jpeg is not None and reaction.applied:
                self.store.save_keyframe(self.game_id, last, frame_jpeg)
            self._publish_state()

    def camera(
        self,
        status: str,
        fps: float = 0.0,
        markers: int = 0,
        calibrated: bool = False,
        detail: str = "",
        frame_jpeg: bytes | None = None,
        detail_de: str = "",
    ) -> None:
        """Camera health; a status change is recorded, numbers are published once a second."""
        with self._lock:
            changed = status != self.health.status
            self.health = Health(status, fps, markers, calibrated, detail, detail_de=detail_de)
            if frame_jpeg is not None:
                self._frame = frame_jpeg
            if changed:
                said = f"Camera {status}" + (f": {detail}" if detail else "")
                self._append("camera", "automatic", {
                    **self.health.to_dict(), "text_en": said,
                    "text_de": f"Kamera {CAMERA_DE.get(status, status)}"
                    + (f": {detail_de or detail}" if detail else ""),
                })
            now = time.monotonic()
            if changed or now - self._last_health_pub >= HEALTH_EVERY_S:
                self._last_health_pub = now
                self.bus.publish("health", self.health.to_dict())

    def latest_frame(self) -> bytes | None:
        with self._lock:
            return self._frame

    # --- inputs from people ------------------------------------------------------------------

    def decide(self, violation_seq: int, decision: str) -> None:
        """Mark a violation "stands" or "corrected"; a correction takes its move off the line."""
        if decision not in DECISIONS:
            raise ActionError(f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}")
        with self._lock:
            violation = self._event(violation_seq, "violation")
            de = {"stands": "bleibt", "corrected": "wurde korrigiert"}[decision]
            self._append("decision", "person", {
                "violation": violation_seq, "decision": decision,
                "text_en": f"Violation #{violation_seq} {decision}",
                "text_de": f"Verstoß #{violation_seq} {de}",
            })
            if decision == "corrected":
                move_seq = int(violation.payload["move_seq"])
                if any(e.seq == move_seq for e in self._line_events()):
                    self._take_back(move_seq, "violation corrected")
            self._publish_state()

    def answer(self, question_seq: int, choice: int) -> None:
        """A person picked one explanation of an ambiguous table change."""
        with self._lock:
            if self._question is None or self._question[0] != question_seq:
                raise ActionError(f"question {question_seq} is not open")
            question = self._question[1]
            if not 0 <= choice < len(question.choices):
                raise ActionError(
                    f"choice must be 0..{len(question.choices) - 1}, not {choice}"
                )
            self._question = None
            picked = question.choices[choice]
            self._append(
                "decision",
                "person",
                {"question": question_seq, "choice": choice,
                 "text_en": f"Answer: {picked.label_en}", "text_de": f"Antwort: {picked.label_de}"},
            )
            reaction = self.referee.apply(picked.moves, "person")
            self._record_reaction(reaction, "person", self._baseline)
            self._publish_state()

    def act(self, action: str, value: str | None = None, target: str | None = None) -> None:
        """next-phase, pass (end turn), or declare what the camera cannot see."""
        if action not in PERSON_ACTIONS:
            raise ActionError(f"action must be one of {', '.join(PERSON_ACTIONS)}, not {action!r}")
        if action == "declare" and not (value or target):
            raise ActionError("declare needs a value (a chosen effect) or a target card")
        with self._lock:
            active = str(self.referee.status("en").get("active") or "p1")
            move = Move(kind=action, player=active, value=value or None, target=target or None)
            reaction = self.referee.apply((move,), "person")
            self._record_reaction(reaction, "person", self._baseline)
            self._publish_state()

    def enter(self, data: Mapping[str, Any]) -> Move:
        """A referee entered one of the offered legal moves (source "person").

        Only moves the page offers right now are taken: anything else (a stale page, a made-up
        move, a move naming a hidden card) is refused with the reason and changes nothing.
        """
        try:
            move = Move.from_dict(data)
        except (TypeError, ValueError) as exc:
            if isinstance(exc, CompanionError):
                raise
            raise ActionError(f"not a move: {exc}") from None
        with self._lock:
            if move.kind in ("next-phase", "pass"):
                raise ActionError(f"use the {move.kind!r} button (action), not a move")
            if move not in self._offers():
                raise ActionError(
                    f"{move.describe('en')} is not among the moves offered now "
                    "(the game may have moved on: reload the list)"
                )
            reaction = self.referee.apply((move,), "person")
            self._record_reaction(reaction, "person", self._baseline)
            self._publish_state()
        return move

    def person_moves(self, moves: tuple[Move, ...]) -> None:
        """Moves a person stated (a declared attack, a chosen effect), recorded as such."""
        with self._lock:
            reaction = self.referee.apply(moves, "person")
            self._record_reaction(reaction, "person", self._baseline)
            self._publish_state()

    def undo(self) -> None:
        """Take the last move off the main line (recorded as a correction)."""
        with self._lock:
            line = self._line_events()
            moves = [e for e in line if e.kind == "move"]
            if not moves:
                raise ActionError("nothing to undo yet")
            self._take_back(moves[-1].seq, "undo")
            self._publish_state()

    def note(self, text: str) -> None:
        with self._lock:
            self._append("note", "person", {"text": text})
            self._publish_state()

    def close(self) -> None:
        with self._lock:
            outcome = self.referee.finished()
            if outcome is not None and self._outcome is None:
                self._outcome = outcome
                self.store.finish(self.game_id, outcome)

    # --- state for the page ------------------------------------------------------------------

    def state(self, lang: str = "en") -> dict[str, Any]:
        """Everything the live page shows, JSON-ready (both languages where text is shown)."""
        with self._lock:
            events = list(self._events)
            decisions = {
                int(e.payload["violation"]): e.payload["decision"]
                for e in events
                if e.kind == "decision" and "violation" in e.payload
            }
            line = main_line(events)
            named = self.namer.payload
            return {
                "game": self.header.game,
                "game_name": game_info(self.header.game).name,
                "players": list(self.header.players),
                "record_id": self.game_id,
                "seq": events[-1].seq if events else 0,
                "bus_id": self.bus.last_id,
                "layout": self.layout,
                "table": self.table_view(self._table),
                "status": {
                    "en": self._status("en"),
                    "de": self._status("de"),
                },
                "violations": [
                    {
                        **named(e.payload),
                        "seq": e.seq,
                        "decision": decisions.get(e.seq),
                        "source": e.source,
                    }
                    for e in events
                    if e.kind == "violation"
                ],
                "question": self._question_view(),
                "log": [
                    {**entry.to_dict(), "move": named(entry.move)} for entry in line[-LOG_TAIL:]
                ],
                "health": self.health.to_dict(),
                "outcome": named(self._outcome) if self._outcome else None,
                "moves": self._offers_view(),
                "facts": facts_of(self.referee, self.namer, self.layout),
            }

    def table_view(self, snapshot: TableSnapshot | None) -> dict[str, Any]:
        return table_view(snapshot, self.card_info)

    # --- internals ---------------------------------------------------------------------------

    def _status(self, lang: str) -> dict[str, Any]:
        status = dict(self.referee.status(lang, self._visible()))
        if status.get("next"):
            status["next"] = self.namer.text(str(status["next"]), lang)
        status["legal"] = [self.namer.text(m, lang) for m in status.get("legal", [])]
        prompt = dict(status.get("prompt") or {})
        for key in ("must", "may", "automatic"):
            prompt[key] = [self.namer.text(t, lang) for t in prompt.get(key, [])]
        status["prompt"] = prompt
        return status

    def _visible(self) -> frozenset[str]:
        return frozenset(c.uid for c in (self._table.cards if self._table else ()) if c.face_up)

    def _offers(self) -> Offers:
        offered = getattr(self.referee, "offers", None)
        return offered(self._visible()) if offered is not None else Offers()

    def _offers_view(self) -> dict[str, Any]:
        """Offered moves with their texts in both languages, ready to post back as they are."""
        found = self._offers()

        def rows(moves: tuple[Move, ...]) -> list[dict[str, Any]]:
            return [{"move": m.to_dict(), "kind": m.kind,
                     "text_en": self.namer.text(m.describe("en"), "en"),
                     "text_de": self.namer.text(m.describe("de"), "de")} for m in moves]

        return {"person": rows(found.person), "table": rows(found.table), "hidden": found.hidden}

    def _question_view(self) -> dict[str, Any] | None:
        if self._question is None:
            return None
        seq, q = self._question
        data = q.to_dict()
        data["choices"] = [self.namer.payload(c) for c in data["choices"]]
        return {"seq": seq, **self.namer.payload(data)}

    def _record_reaction(
        self, reaction: Reaction, source: str, before: TableSnapshot | None
    ) -> int:
        last = self._events[-1].seq if self._events else 0
        for applied in reaction.applied:
            last = self._record_applied(applied, source, before)
        if reaction.question is not None:
            q = reaction.question
            event = self._append("question", "automatic", q.to_dict())
            self._question = (event.seq, q)
            last = event.seq
        outcome = self.referee.finished()
        if outcome is not None and self._outcome is None:
            self._outcome = outcome
            self.store.finish(self.game_id, outcome)
            last = self._append("note", "automatic", {"text_en": "Game over", **outcome}).seq
        return last

    def _record_applied(self, applied: Applied, source: str, before: TableSnapshot | None) -> int:
        move = applied.move
        kind = "phase" if move.kind in ("next-phase", "pass") else "move"
        payload = {
            "move": move.to_dict(),
            "text_en": move.describe("en"),
            "text_de": move.describe("de"),
            "legal": not any(v.blocking for v in applied.violations),
            "state": applied.state,
        }
        event = self._append(kind, source, payload)
        self._before_move[event.seq] = before
        for v in applied.violations:
            self._append(
                "violation",
                "automatic",
                {**v.to_dict(), "move_seq": event.seq, "move_text_en": payload["text_en"],
                 "move_text_de": payload["text_de"]},
            )
        return event.seq

    def _take_back(self, move_seq: int, reason: str) -> None:
        line = self._line_events()
        self._append("correction", "person", {
            "target": move_seq, "replacement": None, "reason": reason,
            "text_en": f"Move #{move_seq} taken back ({reason})",
            "text_de": f"Zug #{move_seq} zurückgenommen ({REASONS_DE.get(reason, reason)})",
        })
        remaining = [e for e in line if e.seq != move_seq]
        self.referee.rebuild([Move.from_dict(e.payload["move"]) for e in remaining])
        if move_seq in self._before_move and line and line[-1].seq == move_seq:
            self._ignore = self._table
            self._baseline = self._before_move[move_seq]

    def _line_events(self) -> list[Event]:
        return [entry.event for entry in main_line(self._events)]

    def _event(self, seq: int, kind: str) -> Event:
        for e in self._events:
            if e.seq == seq and e.kind == kind:
                return e
        raise ActionError(f"there is no {kind} #{seq} in this game")

    def _append(self, kind: str, source: str, payload: Mapping[str, Any]) -> Event:
        event = self.store.append(self.game_id, kind, source, payload)
        self._events.append(event)
        self.bus.publish("log", {"seq": event.seq, **event.to_dict()})
        return event

    def _publish_state(self) -> None:
        self.bus.publish("state", self.state())


def table_view(snapshot: TableSnapshot | None, card_info: CardInfo) -> dict[str, Any]:
    """Cards with their names and types, dice and tokens: what the SVG mat draws."""
    from companion.record.wording import table_view as shown

    return shown(snapshot, card_info)
