"""The live game: one log that is also the state.

One `LiveSession` per watched table. Every input (a settled camera snapshot, a person's press,
a declared or entered move, an answer, a decision, undo, redo) is written to the recording
first and then applied *from the stored event* by `_apply`, the same function that rebuilds
the game after an undo, a failed write or a restart (`_replay`). What the engine made of the
input (moves, inferred phase steps, violations, a question) is written in the same
transaction, each with its source and reason. If the transaction fails, the session rebuilds
itself from what the file holds, the page is unchanged, and the caller hears why.

Undo takes back the last input that changed the game (and any camera observation after it
that changed nothing); redo puts it back. Both are inputs too, and name what they toggle, so
review and export read the same main line without the engine.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import logging
import threading
import time
from collections import ChainMap, OrderedDict, deque
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Concatenate, ParamSpec, TypeVar

from companion.engine.api import Move, Question, Violation, blocking
from companion.errors import CompanionError
from companion.games import game_info
from companion.record.checkpoints import CHECKPOINT_EVERY, Checkpoints
from companion.record.line_index import LineIndex
from companion.record.replay import main_line
from companion.record.store import (
    DECISIONS,
    Event,
    GameHeader,
    RecordError,
    Store,
    WriteFailedError,
)
from companion.server import glare_reading, unidentified
from companion.server.bus import EventBus
from companion.server.facts import facts_of
from companion.server.names import Namer
from companion.server.offers import Offers
from companion.server.putback import instructions, restore
from companion.server.rebuilds import REBUILD_EVERY, shared_prefix
from companion.server.referee import Applied, Reaction, Referee
from companion.snapshot import SeenCard, TableSnapshot, Unreadable

log = logging.getLogger(__name__)
_T = TypeVar("_T")
_P = ParamSpec("_P")

LOG_TAIL = 40
VIOLATIONS_SHOWN = 200
"""The newest violations a state message lists (every message went on growing with the game:
an input cost more the longer the log). Older ones stay in the record (review, export)."""
PERSON_ACTIONS = ("next-phase", "pass", "declare")
HEALTH_EVERY_S = 1.0
LIBRARY_WAIT_S = 0.1
"""How long one write waits for a library another program has locked (then it queues)."""
PERSON_WAIT_S = 10.0
"""How long a person's press waits in the queue for a locked library before it is refused
("nothing changed; try again"); the page answers meanwhile."""
TABLES_WAITING = 1000
"""Settled tables kept in memory, in order, while the library refuses writes (a full disk,
a lock): each is written as its own step once it takes them again. Beyond this many the
newest replaces the last one waiting (only the outage's end is merged into one step); only
the newest waiting table keeps its keyframe (pictures are large)."""
STALL_S = 2.0
RETRY_S = 1.0
CLIENT_IDS_KEPT = 4096
GAME_INPUTS = ("observation", "action", "answer", "decision")
CAMERA_DE = {"ok": "ok", "starting": "startet", "reconnecting": "verbindet neu",
             "stopped": "angehalten", "finished": "fertig", "lost": "verloren",
             "stalled": "hängt"}


class ActionError(CompanionError):
    """A referee action that does not fit the game right now (no such violation, ...)."""


class GameOverError(ActionError):
    """An action that would change a game that is already decided."""


class ReplayError(RecordError):
    """A recording that the engine does not rebuild to what was recorded (other rules?)."""


CardInfo = Callable[[str], Mapping[str, Any] | None]


@dataclass
class Health:
    """Camera health as the page shows it; `extra` passes the pipeline's own figures and
    messages through untouched."""

    status: str = "starting"
    fps: float = 0.0
    markers: int = 0
    calibrated: bool = False
    detail: str = ""
    updated: float = field(default_factory=time.time)
    detail_de: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.extra,
            "status": self.status,
            "fps": round(self.fps, 1),
            "markers": self.markers,
            "calibrated": self.calibrated,
            "detail": self.detail,
            "detail_de": self.detail_de or self.detail,
        }


@dataclass
class Recording:
    """Whether inputs reach the file right now."""

    status: str = "ok"
    message_en: str = ""
    message_de: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "message_en": self.message_en,
                "message_de": self.message_de}


@dataclass
class _Asked:
    """A question the page asked, kept until a person answers it: play going on never
    drops it. `assumed` holds the steps its default reading put on the record meanwhile."""

    question: Question
    assumed: list[int] = field(default_factory=list)
    taken: int = 0
    """The choice on the record meanwhile: the default, or the one hindsight put in its
    place (the question stays open until a person answers)."""


@dataclass
class _Model:
    """What the log says the game is, besides the referee's own state."""

    table: TableSnapshot | None = None
    question: tuple[int, Question] | None = None
    asked: dict[int, _Asked] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None
    before: dict[int, TableSnapshot | None] = field(default_factory=dict)
    after: dict[int, TableSnapshot] = field(default_factory=dict)


@dataclass(frozen=True)
class _Saved:
    """A checkpoint of the live game: the referee's copy, the model's, the newest event."""

    referee: object
    model: _Model
    now: int


def _copied_model(model: _Model) -> _Model:
    """An independent copy (the tables in it never change: they are shared)."""
    return _Model(table=model.table, question=model.question,
                  asked={seq: _Asked(a.question, list(a.assumed), a.taken)
                         for seq, a in model.asked.items()},
                  outcome=dict(model.outcome) if model.outcome is not None else None,
                  before=dict(model.before), after=dict(model.after))


def _waits_its_turn(
    method: Callable[Concatenate[LiveSession, _P], _T]
) -> Callable[Concatenate[LiveSession, _P], _T]:
    """A person's input: run in its turn, waiting for a locked library (`_in_turn`)."""

    @functools.wraps(method)
    def in_turn(self: LiveSession, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        return self._in_turn(lambda: method(self, *args, **kwargs))

    return in_turn


class LiveSession:
    """Holds one game being played and keeps recording, engine and page in step.

    `resume` continues a game already in `store` (after a restart or a kill): its log is
    replayed through the referee before anything new is taken. `checkpoint_every`: events
    between two copies of the game that replays start from (0: every replay from the start).
    """

    def __init__(
        self,
        referee: Referee,
        store: Store,
        bus: EventBus,
        header: GameHeader,
        layout: Mapping[str, Any],
        card_info: CardInfo,
        resume: int | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
    ) -> None:
        self.referee = referee
        self.store = store
        self.bus = bus
        self.layout = dict(layout)
        self.card_info = card_info
        self.header = header
        self.namer = Namer(card_info, header.players, layout)
        self.health = Health()
        self.recording = Recording()
        self._lock = threading.RLock()
        self._events: list[Event] = []
        self._index = LineIndex()
        """The log's main line, undone inputs, decisions and standing violations, kept up to
        date event by event (`_append`): an input costs the same at any length of the log."""
        self._model = _Model()
        self._checkpoints: Checkpoints[_Saved] = Checkpoints(checkpoint_every)
        """Copies of the game every so many events: an undo, redo or a log cut back replays
        from the newest one before its change, not from the first table (issue 34)."""
        self._client_ids: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._seen: TableSnapshot | None = None
        self._hold: TableSnapshot | None = None
        self._waiting: deque[tuple[TableSnapshot, bytes | None]] = deque()
        """Settled tables not yet recorded (the library refused them), oldest first."""
        self._turns = threading.Condition()
        self._queue: deque[object] = deque()  # people's inputs waiting their turn, in order
        self._refusal: WriteFailedError | None = None  # the library's last refusal
        self.person_wait_s = PERSON_WAIT_S
        self._frame: bytes | None = None
        self._last_frame: float | None = None
        self._last_health_pub = 0.0
        self._last_retry = 0.0
        self._replaying: deque[Event] | None = None
        self.second_look_s = 0.0
        """Camera time a table with something gone waits for a second look (0: none)."""
        self._second_look: tuple[TableSnapshot, bytes | None] | None = None
        self._unsure: dict[str, dict[str, str]] = {}
        """Rules the step being derived breaks that a card under the lamp's reflection could
        explain (code -> the place, in words): shown as "not sure", not as violations."""
        self._now = 0
        """The newest event applied or derived so far (in a replay: of the events replayed)."""
        self._memo: dict[str, Any] = {}
        self._memo_key: tuple[int, int, int] = (0, 0, 0)
        self._memo_last: Event | None = None
        self._named: dict[int, tuple[Event, dict[str, Any]]] = {}
        self._moves: dict[int, tuple[dict[str, Any], Move]] = {}
        """Moves on the line as read from their recorded form, by that form (rebuilds read
        them all; the form is kept, so its id stays its own)."""
        """A violation's payload in the players' names, per event (recorded: it never changes)."""
        self._line_read: tuple[list[dict[str, Any]], list[Move | None]] = ([], [])
        """The line (each step's `LineEntry.move`) as a rebuild last read it, and its moves."""
        self._unread_steps = 0  # steps appended since the line was last read
        self.resumed_at = 0
        if resume is None:
            self.game_id = store.start_game(header)
        else:
            self.game_id = resume
            self._events = store.events(resume)
            self._index.rebuild(self._events)
            self._check_resumable()
            self._replay(strict=True)
            self._remember_all()
            self._seen = self._model.table
            self.resumed_at = self._last_seq()
        if not store.read_only:  # (starting may wait as long as SQLite likes: nothing to show)
            store.wait_at_most(LIBRARY_WAIT_S)
        self._publish_state()

    # --- inputs from the table ---------------------------------------------------------------

    def observe(self, snapshot: TableSnapshot, frame_jpeg: bytes | None = None) -> None:
        """A settled table arrived: record it, then interpret it from the record.

        With `second_look_s` set (a camera feed), a table on which a card or die the game
        has on the table is gone (seen nowhere) waits for a second look: the next settled
        table, or that much camera time. If the thing is back by then, the camera merely
        missed it for a moment (a hand's shadow, a die on its sticker, glare) and the table
        without it is never recorded; otherwise it is recorded as it was seen."""
        with self._lock:
            if self._seen is not None and snapshot.same_table(self._seen):
                return
            self._seen = snapshot
            if self._hold is not None:
                if snapshot.same_table(self._hold):
                    return
                self._hold = None
            held, self._second_look = self._second_look, None
            if held is not None and _gone(self._model.table, snapshot) & _gone(
                    self._model.table, held[0]):
                self._observe(*held)  # still gone at the second look: it happened
            if self.second_look_s > 0 and self._model.outcome is None and _gone(
                    self._model.table, snapshot):
                self._second_look = (snapshot, frame_jpeg)
                self._publish_state()  # "checking ...", quietly
                return
            self._observe(snapshot, frame_jpeg)

    def camera_time(self, time_s: float) -> None:
        """The camera's clock (each frame's time): a table waiting for its second look is
        recorded once it has waited `second_look_s` with nothing new settling."""
        with self._lock:
            held = self._second_look
            if held is not None and time_s - held[0].time_s >= self.second_look_s:
                self._second_look = None
                self._observe(*held)

    def flush(self) -> None:
        """The feed ended: a table still waiting for its second look is recorded."""
        with self._lock:
            held, self._second_look = self._second_look, None
            if held is not None:
                self._observe(*held)

    def _observe(self, snapshot: TableSnapshot, frame_jpeg: bytes | None) -> None:
        """A settled table goes to the end of the tables waiting to be recorded, which are
        then recorded in order while the library takes them."""
        waiting = self._waiting
        if len(waiting) >= TABLES_WAITING:
            waiting.pop()  # the outage's end merges into one step (bounded memory)
        if waiting and waiting[-1][1] is not None:
            waiting[-1] = (waiting[-1][0], None)  # only the newest keeps its picture
        waiting.append((snapshot, frame_jpeg))
        if self._refusal is not None:  # the library refuses: tick() tries again, once a second
            self._publish_state()
            return
        self._record_waiting()

    def _record_waiting(self) -> WriteFailedError | None:
        """Record the waiting tables in order, each as its own step; stop at the first the
        library refuses (it stays first, and the refusal is returned). A table the rules
        could not apply stays for `tick()` to try again only while no newer one waits."""
        while self._waiting:
            snapshot, frame_jpeg = self._waiting[0]
            outcome = self._record_table(snapshot, frame_jpeg)
            if isinstance(outcome, WriteFailedError):
                return outcome
            if outcome or len(self._waiting) > 1:
                self._waiting.popleft()
            else:
                return None
        return None

    def _record_table(self, snapshot: TableSnapshot, frame_jpeg: bytes | None
                      ) -> bool | WriteFailedError:
        """One settled table on the record: True when done, the library's refusal, or False
        when the rules could not apply it (nothing recorded either way)."""
        table = self._model.table
        if table is not None and snapshot.same_table(table):
            self._publish_state()  # the players put the table back as the game has it
            return True
        if self._model.outcome is not None:
            self._publish_state()  # the game is decided: what the camera sees changes nothing
            return True
        hints = getattr(self.referee, "hints", None)
        payload = {
            "snapshot": snapshot.to_dict(),
            "hints": dict(hints) if isinstance(hints, dict) else {},
            "text_en": "The camera saw the table change",
            "text_de": "Die Kamera sah den Tisch sich ändern",
        }
        try:
            _event, derived = self._commit("observation", "camera", payload)
        except WriteFailedError as exc:
            self._publish_state()  # tick() tries again
            return exc
        except Exception as exc:  # the camera path outlives a rules error (nothing recorded)
            if self.recording.status == "ok":
                log.exception("a table change could not be applied")
            self.recording = Recording(
                "paused", f"the last table change could not be applied: {exc}",
                f"die letzte Änderung am Tisch ließ sich nicht anwenden: {exc}")
            self._publish_state()
            return False
        if frame_jpeg is not None and any(e.kind in ("move", "phase") for e in derived):
            try:
                self.store.save_keyframe(self.game_id, derived[-1].seq, frame_jpeg)
            except WriteFailedError as exc:
                log.warning("keyframe dropped: %s", exc)
                self._pause(exc, keyframe=True)
        self._publish_state()
        return True

    def camera(
        self,
        status: str,
        fps: float = 0.0,
        markers: int = 0,
        calibrated: bool = False,
        detail: str = "",
        frame_jpeg: bytes | None = None,
        detail_de: str = "",
        frame_arrived: bool = False,
        **extra: Any,
    ) -> None:
        """Camera health; a status change is recorded, numbers are published once a second.

        `frame_arrived` marks a real frame: when none comes for `STALL_S` while the status is
        "ok", `tick()` says "stalled".
        """
        with self._lock:
            if frame_arrived:
                self._last_frame = time.monotonic()
            elif status == "ok" and self.health.status == "stalled":
                status = "stalled"  # only a frame ends a stall
            changed = status != self.health.status
            self.health = Health(status, fps, markers, calibrated, detail, detail_de=detail_de,
                                 extra=_plain(extra))
            if frame_jpeg is not None:
                self._frame = frame_jpeg
            if changed:
                said = f"Camera {status}" + (f": {detail}" if detail else "")
                try:
                    event = self.store.append(self.game_id, "camera", "automatic", {
                        **self.health.to_dict(), "text_en": said,
                        "text_de": f"Kamera {CAMERA_DE.get(status, status)}"
                        + (f": {detail_de or detail}" if detail else ""),
                    })
                except WriteFailedError as exc:
                    log.warning("camera status not recorded: %s", exc)
                    self._pause(exc)
                else:
                    self._append(event)
                    self.bus.publish("log", {"seq": event.seq, **event.to_dict()})
            now = time.monotonic()
            if changed or now - self._last_health_pub >= HEALTH_EVERY_S:
                self._last_health_pub = now
                self.bus.publish("health", self.health.to_dict())

    def tick(self) -> None:
        """Called a few times a second by the feed's watchdog: stall detection, and a paused
        recording tries again (the unrecorded table first)."""
        with self._lock:
            now = time.monotonic()
            if (self.health.status == "ok" and self._last_frame is not None
                    and now - self._last_frame > STALL_S):
                waited = now - self._last_frame
                self.camera("stalled", calibrated=self.health.calibrated,
                            detail=f"no picture for {waited:.0f} s",
                            detail_de=f"seit {waited:.0f} s kein Bild")
            if (self.recording.status == "ok" and not self._waiting) or (
                    now - self._last_retry < RETRY_S):
                return
            self._last_retry = now
            if self._waiting:
                self._record_waiting()
                return
            try:
                event = self.store.append(self.game_id, "note", "automatic", {
                    "text_en": "Recording resumed", "text_de": "Aufzeichnung läuft wieder"})
            except WriteFailedError:
                return
            self._append(event)
            self.bus.publish("log", {"seq": event.seq, **event.to_dict()})
            self._recording_ok()
            self._publish_state()

    def _in_turn(self, attempt: Callable[[], _T]) -> _T:
        """Run a person's input in its turn. While another program holds the library's lock
        the input waits, in the order pressed, with the session's lock free (the page and
        the state answer meanwhile, saying that saving waits); tables the camera saw before
        are recorded first. Refused like any failed write after `person_wait_s`."""
        deadline = time.monotonic() + self.person_wait_s
        ticket = object()
        with self._turns:
            self._queue.append(ticket)
        try:
            with self._turns:  # the inputs pressed before go first
                while self._queue[0] is not ticket:
                    if not self._turns.wait(max(0.0, deadline - time.monotonic())):
                        raise self._refusal or ActionError(
                            "saving is waiting for the library: try again",
                            de="Speichern wartet auf die Bibliothek: bitte noch einmal")
            while True:
                with self._lock:
                    refused = self._record_waiting()
                    if refused is None:
                        try:
                            return attempt()
                        except WriteFailedError as exc:
                            refused = exc
                    if not refused.busy or time.monotonic() >= deadline:
                        raise refused
                time.sleep(LIBRARY_WAIT_S)  # the page's reads get the session's lock
        finally:
            with self._turns:
                self._queue.remove(ticket)
                self._turns.notify_all()

    def latest_frame(self) -> bytes | None:
        with self._lock:
            return self._frame

    # --- inputs from people ------------------------------------------------------------------

    @_waits_its_turn
    def decide(
        self, violation_seq: int, decision: str, client_id: str | None = None
    ) -> dict[str, Any]:
        """Mark a violation "stands" or "corrected"; a correction takes its move off the line,
        a later "stands" puts it back. Deciding what is already decided changes nothing."""
        if decision not in DECISIONS:
            raise ActionError(f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}")
        signature = f"decision:{violation_seq}:{decision}"
        with self._lock:
            repeated = self._repeated(client_id, signature)
            if repeated is not None:
                return repeated
            violation = self._event(violation_seq, "violation")
            if self._input_of(violation) in self._undone():
                raise ActionError(f"violation #{violation_seq} was undone",
                                  de=f"Verstoß #{violation_seq} wurde rückgängig gemacht")
            move_seq = _as_int(violation.payload.get("move_seq"))
            on_line = self._indexed().on_line(move_seq)
            shown = self._decision_shown(violation_seq, move_seq, on_line)
            if shown == decision:
                return {"seq": self._last_seq(), "unchanged": True}
            payload: dict[str, Any] = {
                "violation": violation_seq, "decision": decision, "move_seq": move_seq,
                "off": [], "on": [],
            }
            changes_game = (decision == "corrected" and on_line) or (
                decision == "stands" and not on_line)
            if changes_game:  # after the end too: the outcome follows the decision
                payload["off" if decision == "corrected" else "on"] = [move_seq]
            de = {"stands": "bleibt", "corrected": "wurde korrigiert"}[decision]
            text_en, text_de = f"Violation #{violation_seq} {decision}", \
                f"Verstoß #{violation_seq} {de}"
            if payload["off"]:
                text_en += f": move #{move_seq} taken off the line"
                text_de += f": Zug #{move_seq} zurückgenommen"
            elif payload["on"]:
                text_en += f": move #{move_seq} back on the line"
                text_de += f": Zug #{move_seq} gilt wieder"
            payload.update(text_en=text_en, text_de=text_de)
            if changes_game:
                draft = Event(self.game_id, self._last_seq() + 1, 0.0, "decision", "person",
                              payload)
                wanted = self._table_after([*self._events, draft], self._undone())
                put_en, put_de = instructions(self._seen or self._model.table, wanted)
                payload.update(put_back_en=put_en, put_back_de=put_de)
            return self._person_input("decision", payload, client_id, signature)

    @_waits_its_turn
    def answer(self, question_seq: int, choice: int, client_id: str | None = None
               ) -> dict[str, Any]:
        """A person picked one explanation of an ambiguous table change."""
        signature = f"answer:{question_seq}:{choice}"
        with self._lock:
            repeated = self._repeated(client_id, signature)
            if repeated is not None:
                return repeated
            self._refuse_when_over("answer a question")
            asked = self._model.asked.get(question_seq)
            if asked is None:
                raise ActionError(f"question {question_seq} is not open",
                                  de=f"Frage {question_seq} ist nicht mehr offen")
            question = asked.question
            if not 0 <= choice < len(question.choices):
                raise ActionError(
                    f"choice must be 0..{len(question.choices) - 1}, not {choice}"
                )
            picked = question.choices[choice]
            payload: dict[str, Any] = {
                "question": question_seq, "choice": choice,
                "moves": [m.to_dict() for m in picked.moves],
                "text_en": f"Answer: {picked.label_en}", "text_de": f"Antwort: {picked.label_de}",
            }
            if asked.assumed and choice == asked.taken:
                payload.update(confirms=True, text_en=f"Answer: {picked.label_en} (as assumed)",
                               text_de=f"Antwort: {picked.label_de} (wie angenommen)")
            elif asked.assumed:
                payload.update(off=list(asked.assumed),
                               text_en=f"Answer: {picked.label_en} (instead of the assumed "
                                       f"{question.choices[asked.taken].label_en})",
                               text_de=f"Antwort: {picked.label_de} (statt der angenommenen "
                                       f"Lesart {question.choices[asked.taken].label_de})")
            return self._person_input("answer", payload, client_id, signature)

    @_waits_its_turn
    def act(self, action: str, value: str | None = None, target: str | None = None,
            client_id: str | None = None) -> dict[str, Any]:
        """next-phase, pass (end turn), or declare what the camera cannot see."""
        if action not in PERSON_ACTIONS:
            raise ActionError(f"action must be one of {', '.join(PERSON_ACTIONS)}, not {action!r}")
        if action == "declare" and not (value or target):
            raise ActionError("declare needs a value (a chosen effect) or a target card",
                              de="Ansage braucht einen Wert (den gewählten Effekt) "
                                 "oder eine Zielkarte")
        signature = f"action:{action}:{value or ''}:{target or ''}"
        with self._lock:
            repeated = self._repeated(client_id, signature)
            if repeated is not None:
                return repeated
            self._refuse_when_over(action)
            active = str(self.referee.status("en").get("active") or "p1")
            move = Move(kind=action, player=active, value=value or None, target=target or None)
            return self._moves_input(action, (move,), client_id, signature)

    @_waits_its_turn
    def enter(self, data: Mapping[str, Any], client_id: str | None = None) -> Move:
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
        signature = f"enter:{sorted(move.to_dict().items())!r}"
        with self._lock:
            if self._repeated(client_id, signature) is not None:
                return move
            self._refuse_when_over("enter a move")
            if move.kind in ("next-phase", "pass"):
                raise ActionError(f"use the {move.kind!r} button (action), not a move",
                                  de="dafür gibt es den eigenen Knopf "
                                     "(nächste Phase / Zug beenden)")
            if move not in self._offers():
                raise ActionError(
                    f"{self._describe(move, 'en')} is not among the moves offered now "
                    "(the game may have moved on: reload the list)",
                    de=f"{self._describe(move, 'de')} ist gerade kein angebotener Zug "
                    "(die Partie ist vielleicht weiter: Liste neu laden)")
            self._moves_input("enter", (move,), client_id, signature)
        return move

    @_waits_its_turn
    def person_moves(self, moves: tuple[Move, ...]) -> None:
        """Moves a person stated (a declared attack, a chosen effect), recorded as such."""
        with self._lock:
            if self._model.outcome is not None:
                return
            self._moves_input("moves", moves, None, "")

    @_waits_its_turn
    def undo(self, client_id: str | None = None) -> dict[str, Any]:
        """Take back the last input that changed the game (a camera move, a press, an
        answer, a decision), rebuilt by replaying the log without it."""
        with self._lock:
            repeated = self._repeated(client_id, "undo")
            if repeated is not None:
                return repeated
            suffix = self._undo_suffix()
            if not suffix:
                raise ActionError("nothing to undo yet", de="noch nichts rückgängig zu machen")
            target = suffix[0]
            draft = self._draft("undo", [s.seq for s in suffix])
            off, on = self._toggles(draft)
            wanted = self._table_after([*self._events, draft],
                                       self._indexed().undone_after(draft))
            said_en, said_de = self._input_text(target)
            put_en, put_de = instructions(self._seen or self._model.table, wanted)
            payload = {
                "inputs": [s.seq for s in suffix], "target": target.seq,
                "off": off, "on": on,
                "text_en": f"Undone: {said_en}", "text_de": f"Rückgängig: {said_de}",
                "put_back_en": put_en, "put_back_de": put_de,
            }
            return self._person_input("undo", payload, client_id, "undo")

    @_waits_its_turn
    def redo(self, client_id: str | None = None) -> dict[str, Any]:
        """Put back what the last undo took back (only until something new happens)."""
        with self._lock:
            repeated = self._repeated(client_id, "redo")
            if repeated is not None:
                return repeated
            stack = self._redo_stack()
            if not stack:
                raise ActionError("nothing to redo", de="nichts wiederherzustellen")
            undo = stack[-1]
            before = self._events[:bisect.bisect_left(self._events, undo.seq, key=_seq)]
            off, on = self._toggles(self._draft("redo", _ints(undo.payload.get("inputs"))))
            wanted = self._table_after(before, self._indexed().undone_upto(undo.seq - 1))
            target = self._find(_as_int(undo.payload.get("target")))
            said_en, said_de = self._input_text(target) if target else ("", "")
            put_en, put_de = instructions(self._seen or self._model.table, wanted)
            payload = {
                "inputs": list(undo.payload.get("inputs") or []), "undo": undo.seq,
                "target": undo.payload.get("target"), "off": off, "on": on,
                "text_en": f"Redone: {said_en}", "text_de": f"Wiederhergestellt: {said_de}",
                "put_back_en": put_en, "put_back_de": put_de,
            }
            return self._person_input("redo", payload, client_id, "redo")

    @_waits_its_turn
    def note(self, text: str, client_id: str | None = None) -> dict[str, Any]:
        signature = f"note:{text}"
        with self._lock:
            repeated = self._repeated(client_id, signature)
            if repeated is not None:
                return repeated
            payload: dict[str, Any] = {"text": text}
            if client_id:
                payload.update(client_id=client_id, signature=signature)
            try:
                event = self.store.append(self.game_id, "note", "person", payload)
            except WriteFailedError as exc:
                self._pause(exc)
                self._publish_state()
                raise
            self._append(event)
            self._remember(event)
            self._recording_ok()
            self.bus.publish("log", {"seq": event.seq, **event.to_dict()})
            self._publish_state()
            return {"seq": event.seq}

    def close(self) -> None:
        """Nothing to flush: every input is on disk when it is shown."""

    # --- state for the page ------------------------------------------------------------------

    def state(self, lang: str = "en") -> dict[str, Any]:
        """Everything the live page shows, JSON-ready (both languages where text is shown)."""
        with self._lock:
            events = self._events
            index = self._indexed()
            undone = index.undone
            decisions = index.decisions
            named = self.namer.payload
            standing, standing_total = index.standing(VIOLATIONS_SHOWN)
            violations = []
            for e in standing:
                move_seq = _as_int(e.payload.get("move_seq"))
                shown = self._shown(decisions.get(e.seq), index.on_line(move_seq))
                violations.append({**self._named_violation(e), "seq": e.seq,
                                   "decision": shown, "source": e.source})
            if len(self._named) > 2 * VIOLATIONS_SHOWN:  # only the ones shown are kept
                listed = {v["seq"] for v in violations}
                self._named = {k: v for k, v in self._named.items() if k in listed}
            game_over = self._model.outcome is not None
            return {
                "game": self.header.game,
                "game_name": game_info(self.header.game).name,
                "players": list(self.header.players),
                "record_id": self.game_id,
                "seq": events[-1].seq if events else 0,
                "bus_id": self.bus.last_id,
                "layout": self.layout,
                "table": self.table_view(self._model.table),
                "status": {
                    "en": self._status("en"),
                    "de": self._status("de"),
                },
                "violations": violations,
                "violations_total": standing_total,
                "question": None if game_over else self._question_view(),
                "unanswered": self._unanswered_view(),
                "checking": self._checking_view(),
                "unreadable": self._unreadable_view(),
                "unidentified": self._unidentified_view(),
                "log": [self._log_entry(entry) for entry in index.tail(LOG_TAIL)],
                "health": self.health.to_dict(),
                "outcome": named(self._model.outcome) if self._model.outcome else None,
                "game_over": game_over,
                "moves": self._offers_view(),
                "history": self._history(undone),
                "recording": self._recording_view(),
                "facts": facts_of(self.referee, self.namer, self.layout),
            }

    def table_view(self, snapshot: TableSnapshot | None) -> dict[str, Any]:
        return table_view(snapshot, self.card_info)

    def _recording_view(self) -> dict[str, Any]:
        """Whether inputs reach the file, and how many wait to be written (the tables, and
        while the library refuses, the presses waiting their turn)."""
        presses = len(self._queue) if self.recording.status != "ok" else 0
        return {**self.recording.to_dict(), "waiting": len(self._waiting) + presses}

    @property
    def checkpoints_kept(self) -> int:
        """Copies of the game kept for replays (what they cost: docs/benchmarks.md)."""
        return len(self._checkpoints)

    @property
    def model_table(self) -> TableSnapshot | None:
        """The table as the game has it (the mat), not necessarily as the camera sees it."""
        with self._lock:
            return self._model.table

    # --- the one log: commit, apply, replay -------------------------------------------------

    def _person_input(self, kind: str, payload: dict[str, Any], client_id: str | None,
                      signature: str) -> dict[str, Any]:
        if client_id:
            payload = {**payload, "client_id": client_id, "signature": signature}
        try:
            event, _derived = self._commit(kind, "person", payload)
        except WriteFailedError:
            self._publish_state()
            raise
        if kind in ("undo", "redo") or payload.get("put_back_en"):
            self._hold = self._seen
        self._publish_state()
        return {"seq": event.seq}

    def _moves_input(self, action: str, moves: tuple[Move, ...], client_id: str | None,
                     signature: str) -> dict[str, Any]:
        texts_en = [self.namer.text(self._describe(m, "en"), "en") for m in moves]
        return self._person_input("action", {
            "action": action, "moves": [m.to_dict() for m in moves],
            "text_en": "; ".join(texts_en),
            "text_de": "; ".join(self._describe(m, "de") for m in moves),
        }, client_id, signature)

    def _commit(self, kind: str, source: str, payload: Mapping[str, Any]
                ) -> tuple[Event, list[Event]]:
        """Write the input, apply it from the written event, write what it led to: all in one
        transaction. On any failure the file keeps nothing of it and the session rebuilds
        itself from the file, so the page never shows what the file does not hold."""
        mark = len(self._events)
        self._keep_checkpoint(mark)
        started = False
        try:
            with self.store.transaction():
                event = self.store.append(self.game_id, kind, source, payload)
                self._append(event)
                started = True
                self._apply(event, live=True)
        except BaseException as exc:
            if started:  # (a library refused at once, busy or full: nothing to undo)
                del self._events[mark:]
                self._index.rebuild(self._events)
                self._replay(strict=False)
                self._remember_all()
            if isinstance(exc, WriteFailedError):
                self._pause(exc)
            raise
        new = self._events[mark:]
        self._remember(new[0])
        self._recording_ok()
        for e in new:
            self.bus.publish("log", _log_message(e))
        return new[0], new[1:]

    def _apply(self, event: Event, live: bool) -> None:
        """Apply one recorded input to the referee and the model (live or in a replay)."""
        p = event.payload
        model = self._model
        self._now = event.seq
        if event.kind == "observation":
            snapshot = TableSnapshot.from_dict(p["snapshot"])
            before = model.table
            model.before[event.seq] = before
            model.after[event.seq] = snapshot
            if hasattr(self.referee, "hints"):
                self.referee.hints = dict(p.get("hints") or {})
            reaction = self.referee.observe(before, snapshot)
            model.table = snapshot
            self._unsure = self._not_sure(event, snapshot, reaction)
            try:
                last = self._derive(event, reaction, "camera")
            finally:
                self._unsure = {}
            if _breaks_rules(reaction):
                self._revise_assumed(event)
                last = self._now
            if self._read_late(event, before, snapshot):
                last = self._now
            if live:
                self.store.save_snapshot(self.game_id, last, snapshot)
        elif event.kind == "answer":
            self._apply_answer(event)
        elif event.kind == "action":
            moves = tuple(Move.from_dict(m) for m in p.get("moves", ()))
            reaction = self.referee.apply(moves, "person")
            self._derive(event, reaction, "person")
            if _breaks_rules(reaction):
                self._revise_assumed(event)
        elif event.kind == "decision":
            self._apply_decision(event)
            self._outcome_after_decision(event, live)
        elif event.kind in ("undo", "redo") and live:
            self._replay(strict=False)
            self._finish_or_reopen(live)

    def _apply_decision(self, event: Event) -> None:
        p = event.payload
        if not (_ints(p.get("off")) or _ints(p.get("on"))):
            return
        self.referee.rebuild(list(filter(None, self._parsed_line(self._line_moves(event.seq)))))
        model = self._model
        model.table = _corrected_table(model.table, event, self._events, model.before,
                                       model.after)

    def _outcome_after_decision(self, event: Event, live: bool) -> None:
        """A referee's decision after the end (a winning move corrected, say) may reopen the
        game or change how it ended, and a winning move put back ends it again: the outcome
        follows the rebuilt game."""
        if self._model.outcome is None:
            self._game_over_check(event)
            return
        now = self.referee.finished()
        if now == self._model.outcome:
            return
        self._model.outcome = now
        if live:
            if now is None:
                self.store.unfinish(self.game_id)
            else:
                self.store.finish(self.game_id, now)

    def _apply_answer(self, event: Event) -> None:
        """A person's answer. To the open question: its moves are played now. To a question
        whose default play already went on with: "as assumed" changes nothing; another
        reading stands in the assumed one's place and the changes seen since are read again
        from it (`_alternative`); where the log holds what such a replay cannot redo, the
        game is rebuilt around it and the steps since are kept as recorded (`_in_place`)."""
        p = event.payload
        model = self._model
        asked = _as_int(p.get("question"))
        model.asked.pop(asked, None)
        if model.question is not None and model.question[0] == asked:
            model.question = None
        moves = tuple(Move.from_dict(m) for m in p.get("moves", ()))
        if p.get("confirms"):
            return
        if not _ints(p.get("off")):
            self._derive(event, self.referee.apply(moves, "person"), "person")
            return
        origin = self._question_input(asked)
        choice = _as_int(p.get("choice"))
        other = self._alternative(asked, origin, choice, event.seq - 1, "person")
        if other is not None:  # the changes seen since read again with the answer
            line = main_line([e for e in self._events if e.seq < event.seq])
            self._rewrite(event, asked, choice, other, line, origin,
                          "Read again from the answer on", "Ab der Antwort neu gelesen")
            return
        self._in_place(event, event, moves, "person")  # kept as recorded since
        self._game_over_check(event)

    def _in_place(self, toggle: Event, owner: Event, moves: tuple[Move, ...], source: str
                  ) -> list[int]:
        """`moves` stand where the steps `toggle` took off stood: the game is rebuilt around
        them, their own violations recorded, and the violations of later steps that no
        longer hold (or newly do) recorded with the step they belong to."""
        off = _ints(toggle.payload.get("off"))
        anchor = min(off)
        earlier = main_line([e for e in self._events if e.seq < toggle.seq])
        at = next((x.position for x in earlier if x.seq == anchor), float(anchor))
        line = [x for x in self._line_upto(toggle.seq)
                if isinstance(x.move.get("move"), dict)]
        before = [Move.from_dict(x.move["move"]) for x in line if x.position < at]
        later = [x for x in line if x.position > at]
        applied, now = self.referee.rebuild_around(
            before, moves, [Move.from_dict(x.move["move"]) for x in later])
        placed = [self._derive_step(owner, step, source, in_place_of=anchor)
                  for step in applied]
        cleared: list[int] = []
        for entry, violations in zip(later, now, strict=True):
            codes = {v.code for v in violations}
            had = {str(v.payload.get("code")) for v in entry.violations}
            cleared += [v.seq for v in entry.violations if v.payload.get("code") not in codes]
            for v in violations:
                if v.code not in had:
                    self._emit_violation(v, entry.seq, entry.move, owner)
        if cleared:
            self._emit("revision", "automatic", {
                "cleared": cleared, "input": owner.seq,
                "text_en": "Later steps checked again with the new reading",
                "text_de": "Spätere Schritte mit der neuen Lesart neu geprüft"})
        return placed

    def _revise_assumed(self, event: Event) -> None:
        """Hindsight: the steps the camera saw after an assumed reading break rules that they
        would not break had the question been answered otherwise (and the table agrees with
        that answer as well). Then the other answer is the better explanation of the whole
        table: the game is replayed with it, its steps stand in place of the old ones,
        marked automatic with the reason; the question stays open for a person to settle."""
        if not any(asked.assumed for asked in self._model.asked.values()):
            return  # no reading assumed: nothing to weigh again
        line = self._line_upto(self._now)
        for seq, asked in sorted(self._model.asked.items(), reverse=True):
            if not asked.assumed:
                continue
            origin = self._question_input(seq)
            mine = set(asked.assumed)
            later = [x for x in line if (_input_of(x.event) or 0) > origin and x.seq not in mine]
            now = sum(_blocking_events(x.violations) for x in later)
            if now == 0:
                continue
            disagree = self._disagreement(self.referee)
            for i in range(len(asked.question.choices)):
                if i == asked.taken:
                    continue
                other = self._alternative(seq, origin, i, self._now)  # nobody answered
                if other is None:
                    return  # the log holds what a replay cannot redo: leave it to a person
                fork, steps, forced = other
                broken = sum(len(blocking(list(a.violations))) for a, _src in steps[forced:])
                if broken < now and self._disagreement(fork) <= disagree:
                    picked = asked.question.choices[i]
                    self._rewrite(event, seq, i, other, line, origin,
                                  f"Revised: {picked.label_en} (the steps seen since break "
                                  f"fewer rules that way: {broken} instead of {now})",
                                  f"Neu gelesen: {picked.label_de} (die Schritte danach "
                                  f"brechen so weniger Regeln: {broken} statt {now})")
                    return
            return  # only the newest assumed reading is weighed again

    def _replayable(self, upto: int) -> list[Event] | None:
        """The inputs up to `upto` when a replay beside the record can redo them (no
        decision, no late answer); None otherwise."""
        undone = self._undone()
        inputs = [e for e in self._events
                  if e.seq <= upto and e.kind in GAME_INPUTS and e.seq not in undone]
        if any(e.kind == "decision" or (e.kind == "answer" and (
                e.payload.get("off") or e.payload.get("confirms"))) for e in inputs):
            return None
        return inputs

    def _not_sure(self, event: Event, table: TableSnapshot, reaction: Reaction
                  ) -> dict[str, dict[str, str]]:
        """The rules this step breaks that some card lying unread under the lamp's reflection
        would make legal (`glare_reading`): code -> the place, in words."""
        codes = {v.code for a in reaction.applied for v in blocking(list(a.violations))}
        spots = glare_reading.unknown_spots(table)
        fork = getattr(self.referee, "fork", None)
        if not codes or not spots or fork is None:
            return {}
        inputs = self._replayable(event.seq)
        if inputs is None:  # no replay can weigh it: the camera did not see clearly
            return {code: self._unreadable_text(spots[0]) for code in codes}
        out: dict[str, dict[str, str]] = {}
        deadline = time.thread_time() + glare_reading.BUDGET_S  # (CPU: not the load)
        observations = _observations(inputs)
        game = getattr(self.referee, "engine", None)
        decks = getattr(getattr(self.referee, "config", None), "decks", {}) or {}
        for spot in {u.zone: u for u in spots}.values():
            place = self._unreadable_text(spot)
            start = glare_reading.run_start(observations, spot.zone)
            if start is None:
                continue
            for uid in glare_reading.candidates(game, spot.zone, table, decks):
                if time.thread_time() > deadline:  # a long game: not ruled out in time
                    return {code: place for code in codes}
                card = SeenCard(uid, spot.zone, x_mm=spot.x_mm, y_mm=spot.y_mm)
                replayed = glare_reading.replay_with(fork, inputs, card, start)
                for code in codes - replayed.codes.get(event.seq, set()):
                    out.setdefault(code, place)
                if codes <= set(out):
                    return out
        return out

    def _read_late(self, event: Event, before: TableSnapshot | None,
                   table: TableSnapshot) -> bool:
        """A card read for the first time where an unread card lay under the reflection: the
        game read again as if it had lain there since the reflection covered it, kept when
        the steps since break fewer rules and the game still agrees with the table."""
        fork = getattr(self.referee, "fork", None)
        late = glare_reading.read_late(before, table)
        inputs = self._replayable(event.seq) if late and fork is not None else None
        if inputs is None or fork is None:
            return False
        observations = _observations([e for e in inputs if e.seq < event.seq])
        for card in late:
            start = glare_reading.run_start(observations, card.zone)
            if start is None:
                continue
            replayed = glare_reading.replay_with(fork, inputs, card, start)
            line = self._line_upto(self._now)
            gone = [x for x in line if (_input_of(x.event) or 0) >= start]
            now = sum(_blocking_events(x.violations) for x in gone)
            if replayed.broken() >= now or (self._disagreement(replayed.referee)
                                             > self._disagreement(self.referee)):
                continue
            name_en, name_de = self.namer.text(card.uid, "en"), self.namer.text(card.uid, "de")
            zone_en = self.namer.zone(card.zone, "en")
            zone_de = self.namer.zone(card.zone, "de")
            cause = next((u.cause for u in glare_reading.unknown_spots(before)
                          if u.zone == card.zone), "glare")
            how_en, how_de = (("under the lamp's reflection", "im Spiegelbild der Lampe")
                              if cause == "glare" else
                              ("seen but not yet identified", "gesehen, noch nicht erkannt"))
            self._emit("revision", "automatic", {
                "input": event.seq, "off": [x.seq for x in gone],
                "cleared": [v.seq for x in gone for v in x.violations],
                "text_en": f"Read again: {name_en} lay in {zone_en} {how_en} before the "
                           "camera could read it (the steps since break fewer rules so: "
                           f"{replayed.broken()} instead of {now})",
                "text_de": f"Neu gelesen: {name_de} lag in {zone_de} {how_de}, bevor die "
                           "Kamera sie lesen konnte (die Schritte danach brechen so weniger "
                           f"Regeln: {replayed.broken()} statt {now})"})
            for applied, source in replayed.steps:
                self._derive_step(event, applied, source, in_place_of=start)
            self.referee.adopt(replayed.referee)  # type: ignore[attr-defined]
            self._game_over_check(event)
            return True
        return False

    def _unreadable_text(self, spot: Unreadable) -> dict[str, str]:
        """Where a card lies unread under the reflection (or seen but not yet identified:
        `unidentified`), and what to do, in words."""
        if spot.cause in unidentified.UNREAD_CAUSES:
            return unidentified.spot_text(self.namer, spot)
        zone_en, zone_de = self.namer.zone(spot.zone, "en"), self.namer.zone(spot.zone, "de")
        if spot.card is not None:
            what_en = f"{self.namer.text(spot.card, 'en')} in {zone_en}"
            what_de = f"{self.namer.text(spot.card, 'de')} in {zone_de}"
        else:
            what_en, what_de = f"a card in {zone_en}", f"eine Karte in {zone_de}"
        return {
            "zone": spot.zone, "card": spot.card or "",
            "text_en": f"{what_en} lies under the lamp's reflection: the camera cannot read "
                       "it. Tilt the lamp or move the card a little.",
            "text_de": f"{what_de} liegt im Spiegelbild der Lampe: die Kamera kann sie nicht "
                       "lesen. Lampe kippen oder die Karte etwas verschieben.",
        }

    def _question_input(self, question_seq: int) -> int:
        """The input whose table change raised the question."""
        found = self._find(question_seq)
        return (_input_of(found) or question_seq) if found is not None else question_seq

    def _disagreement(self, referee: Any) -> int:
        """Face-up cards the camera sees now that the referee's game places elsewhere."""
        count = getattr(referee, "disagreement", None)
        return int(count(self._model.table)) if count is not None else 0

    def _alternative(self, question_seq: int, origin: int, choice: int, upto: int,
                     answered_by: str = "assumed"
                     ) -> tuple[Any, list[tuple[Applied, str]], int] | None:
        """The game replayed from its first input with the question answered `choice` at once:
        a fresh referee, the steps from the answer on (with the source each came from) and
        how many of them are the answer's own. None when the log holds what such a replay
        cannot redo the same way (a decision, a late answer, another question since)."""
        fork = getattr(self.referee, "fork", None)
        if fork is None:
            return None
        if any(e.kind == "question" and question_seq < e.seq <= upto for e in self._events):
            return None
        inputs = self._replayable(upto)
        if inputs is None:
            return None
        referee = fork()
        table: TableSnapshot | None = None
        steps: list[tuple[Applied, str]] = []
        forced = 0
        for e in inputs:
            if e.kind == "observation":
                snapshot = TableSnapshot.from_dict(e.payload["snapshot"])
                referee.hints = dict(e.payload.get("hints") or {})
                reaction, source = referee.observe(table, snapshot), "camera"
                table = snapshot
            else:
                moves = tuple(Move.from_dict(m) for m in e.payload.get("moves", ()))
                reaction, source = referee.apply(moves, "person"), "person"
            if e.seq > origin:
                steps += [(a, source) for a in reaction.applied]
            if e.seq == origin:
                question = reaction.question
                if question is None or choice >= len(question.choices):
                    return None
                answered = referee.apply(question.choices[choice].moves, "person")
                steps = [(a, answered_by) for a in answered.applied]
                forced = len(steps)
        return referee, steps, forced

    def _rewrite(self, owner: Event, question_seq: int, choice: int,
                 other: tuple[Any, list[tuple[Applied, str]], int], line: list[Any],
                 origin: int, text_en: str, text_de: str) -> None:
        """Put the replayed game on the record: every step since the question off the line
        (their violations no longer shown), the replay's steps in their place, the referee
        now the replay's."""
        fork, steps, forced = other
        gone = [x for x in line if (_input_of(x.event) or 0) > origin]
        self._emit("revision", "automatic", {
            "question": question_seq, "choice": choice, "input": owner.seq,
            "off": [x.seq for x in gone],
            "cleared": [v.seq for x in gone for v in x.violations],
            "text_en": text_en, "text_de": text_de})
        placed = [self._derive_step(owner, applied, source, in_place_of=question_seq)
                  for applied, source in steps]
        asked = self._model.asked.get(question_seq)
        if asked is not None:
            asked.assumed, asked.taken = placed[:forced], choice
        self.referee.adopt(fork)  # type: ignore[attr-defined]
        self._game_over_check(owner)

    def _derive(self, event: Event, reaction: Reaction, source: str) -> int:
        """Record what the referee made of `event`: each step with its own source and reason,
        its violations, a question; the outcome when the game just ended. A question still
        open when play goes on stays asked: the steps its default put on the record
        ("assumed") are noted with it, so a later answer can replace them."""
        last = event.seq
        model = self._model
        open_question = model.question
        for i, applied in enumerate(reaction.applied):
            last = self._derive_step(event, applied, source)
            if i < reaction.assumed and open_question is not None:
                asked = model.asked.get(open_question[0])
                if asked is not None:
                    asked.assumed.append(last)
        if reaction.question is not None:
            q = reaction.question
            question = self._emit("question", "automatic", {**q.to_dict(), "input": event.seq})
            model.question = (question.seq, q)
            model.asked[question.seq] = _Asked(q, taken=q.default)
            last = question.seq
        elif reaction.applied or event.kind != "observation":
            model.question = None
        return self._game_over_check(event, last)

    def _game_over_check(self, event: Event, last: int | None = None) -> int:
        """The outcome, once, when the game just ended."""
        last = event.seq if last is None else last
        outcome = self.referee.finished()
        if outcome is not None and self._model.outcome is None:
            self._model.outcome = outcome
            last = self._emit("note", "automatic", {
                "text_en": "Game over", "text_de": "Spiel vorbei", **outcome,
                "input": event.seq}).seq
            if self._replaying is None:
                self.store.finish(self.game_id, outcome)
        return last

    def _describe(self, move: Move, lang: str) -> str:
        """The move in words with its game's own texts (the referee knows the game)."""
        describe = getattr(self.referee, "describe", None)
        return str(describe(move, lang)) if describe is not None else move.describe(lang)

    def _derive_step(self, event: Event, applied: Applied, source: str,
                     in_place_of: int | None = None) -> int:
        move = applied.move
        kind = "phase" if move.kind in ("next-phase", "pass") else "move"
        payload: dict[str, Any] = {
            "move": move.to_dict(),
            "text_en": self._describe(move, "en"),
            "text_de": self._describe(move, "de"),
            "legal": not any(v.blocking for v in applied.violations),
            "state": applied.state,
            "input": event.seq,
        }
        if applied.reason_en or applied.reason_de:
            payload.update(reason_en=applied.reason_en,
                           reason_de=applied.reason_de or applied.reason_en)
        if in_place_of is not None:
            payload["in_place_of"] = in_place_of
        step = self._emit(kind, applied.source or source, payload, move)
        for v in applied.violations:
            self._emit_violation(v, step.seq, payload, event)
        return step.seq

    def _emit_violation(self, violation: Violation, move_seq: int, move: Mapping[str, Any],
                        owner: Event) -> None:
        """A rule the step `move_seq` (payload `move`) breaks, derived from input `owner`."""
        unsure = self._unsure.get(violation.code)
        self._emit("violation", "automatic", {
            **violation.to_dict(), **({"unsure": unsure} if unsure else {}),
            "move_seq": move_seq,
            "move_text_en": move.get("text_en", ""), "move_text_de": move.get("text_de", ""),
            "input": owner.seq,
        })

    def _emit(self, kind: str, source: str, payload: Mapping[str, Any],
              move: Move | None = None) -> Event:
        """A derived event: written (live) or matched against the recorded one (replay).
        `move`: the engine's move a step stands for (read back as that very object)."""
        if self._replaying is None:
            event = self.store.append(self.game_id, kind, source, payload)
            if move is not None:
                self._same_move(event, move)
            self._append(event)
            self._now = event.seq
            return event
        if not self._replaying:
            raise ReplayError(f"replay made a {kind} that the recording does not have "
                              f"({payload.get('text_en', '')})")
        recorded = self._replaying.popleft()
        self._now = recorded.seq
        if recorded.kind != kind or recorded.payload.get("move") != payload.get("move"):
            raise ReplayError(
                f"event #{recorded.seq}: the recording has {recorded.kind}"
                f" {recorded.payload.get('text_en', '')!r}, the replay {kind}"
                f" {payload.get('text_en', '')!r}"
            )
        return recorded

    def _replay(self, strict: bool) -> None:
        """Rebuild referee and model from the log: every input not undone, in order, through
        `_apply`. `strict`: a difference from the recording is an error (resume); otherwise it
        is logged and the recording wins for the page (never expected)."""
        hints = getattr(self.referee, "hints", None)
        pending = dict(hints) if isinstance(hints, dict) else None
        undone = self._undone()
        start = self._checkpoints.start(self._events, undone) if self._checkpointing() \
            else None
        first = 0
        if start is None:
            self.referee.reset()
            self._model = _Model()
        else:
            self._restore(start.state)
            first = start.at
        derived: dict[int, list[Event]] = {}
        for e in self._events[first:]:
            owner = self._input_of(e)
            if owner is not None:
                derived.setdefault(owner, []).append(e)
        try:
            for at in range(first, len(self._events)):
                e = self._events[at]
                if e.kind not in GAME_INPUTS or e.seq in undone:
                    continue
                self._keep_checkpoint(at)
                self._replaying = deque(derived.get(e.seq, []))
                try:
                    self._apply(e, live=False)
                    if self._replaying:
                        raise ReplayError(
                            f"event #{self._replaying[0].seq}: the recording has"
                            f" {self._replaying[0].kind} that the replay does not make")
                except ReplayError:
                    if strict:
                        raise
                    log.exception("replay differs from the recording; going on")
        finally:
            self._replaying = None
        if pending is not None:
            self.referee.hints = pending  # type: ignore[attr-defined]

    def _remember_all(self) -> None:
        """The repeated requests to recognise, read again from the log (a resumed game, a
        log cut back)."""
        self._client_ids.clear()
        for e in self._events:
            self._remember(e)

    def _checkpointing(self) -> bool:
        return hasattr(self.referee, "checkpoint") and hasattr(self.referee, "restore")

    def _keep_checkpoint(self, at: int) -> None:
        """A copy of the game as it stands, when it is the game after the log's first `at`
        events (before the input there is applied) and one is due."""
        if not self._checkpointing() or not self._checkpoints.due(at):
            return
        saved = _Saved(self.referee.checkpoint(),  # type: ignore[attr-defined]
                       _copied_model(self._model), self._now)
        self._checkpoints.add(self._events, at, self._undone(), saved)

    def _restore(self, saved: _Saved) -> None:
        self.referee.restore(saved.referee)  # type: ignore[attr-defined]
        self._model = _copied_model(saved.model)
        self._now = saved.now

    def _finish_or_reopen(self, live: bool) -> None:
        """After undo/redo: the file's finished mark follows the rebuilt game."""
        if not live:
            return
        outcome = self._model.outcome
        if outcome is None:
            self.store.unfinish(self.game_id)
        else:
            self.store.finish(self.game_id, outcome)

    def _check_resumable(self) -> None:
        header = self.store.game(self.game_id)
        if header.game != self.header.game:
            raise RecordError(
                f"game #{self.game_id} is {header.game}, not {self.header.game}")
        for e in self._events:
            if e.kind in ("move", "phase") and "input" not in e.payload:
                raise RecordError(
                    f"game #{self.game_id} was recorded by an older companion (no inputs in"
                    " its log): it can be reviewed and exported, not resumed")

    # --- the log's bookkeeping ---------------------------------------------------------------

    @staticmethod
    def _input_of(event: Event) -> int | None:
        return _input_of(event)

    def _cached(self, name: str, compute: Callable[[], Any]) -> Any:
        """`compute()` once per state of the log (the log only grows, or is rebuilt as a new
        list or cut back and grown again: its last event object tells them apart)."""
        events = self._events
        last = events[-1] if events else None
        key = (id(events), len(events), id(last))
        if key != self._memo_key or last is not self._memo_last:
            self._memo, self._memo_key, self._memo_last = {}, key, last
        if name not in self._memo:
            self._memo[name] = compute()
        return self._memo[name]

    def _append(self, event: Event) -> None:
        """An event written to the file goes on the log in memory and into its index (a
        step's move is read at once; the line every `REBUILD_EVERY` steps: a decision's
        rebuild reads the moves on the line after the part read before)."""
        self._events.append(event)
        self._index.append(event, self._events)
        move = event.payload.get("move")
        if event.kind in ("move", "phase") and isinstance(move, dict):
            self._unread_steps += 1
            with contextlib.suppress(TypeError, ValueError):  # (the rebuild says what is wrong)
                self._parsed_move(move)
                if self._unread_steps >= REBUILD_EVERY:
                    self._unread_steps = 0
                    self._parsed_line(self._index.moves_upto(len(self._events), self._events))

    def _indexed(self) -> LineIndex:
        """The index, rebuilt first should the log have changed behind it (never expected:
        every append goes through `_append`, every cut rebuilds)."""
        if len(self._index) != len(self._events):
            self._index.rebuild(self._events)
        return self._index

    def _undone(self) -> frozenset[int]:
        return self._indexed().undone

    def _line_upto(self, seq: int) -> list[Any]:
        """The main line of the log up to event `seq`: the index's when that is the whole log
        (live), read from the log otherwise (inside a replay)."""
        if self._events and self._events[-1].seq == seq:
            return self._indexed().line()
        return main_line([e for e in self._events if e.seq <= seq])

    def _line_moves(self, seq: int) -> list[dict[str, Any]]:
        """What the steps on the main line of the log up to event `seq` stand for: the index's,
        wound back to `seq` where that is the same line (the inputs taken back up to there
        are those the log up to there takes back), read from the log otherwise."""
        upto = bisect.bisect_right(self._events, seq, key=_seq)
        index = self._indexed()
        if index.undone_upto(seq) == {u for u in index.undone if u <= seq}:
            return index.moves_upto(upto, self._events)
        return [entry.move for entry in main_line(self._events[:upto])]

    def _parsed_line(self, line: list[dict[str, Any]]) -> list[Move | None]:
        """The moves the steps of a line stand for (`LineEntry.move` each; None: a step
        without a move), read again only after where it parts from the line read last (a
        decision's rebuild: thousands of steps, the last few new)."""
        read, moves = self._line_read
        shared = shared_prefix(line, read)
        parsed = moves[:shared] + [self._step_move(step) for step in line[shared:]]
        self._line_read = (line, parsed)
        return parsed

    def _step_move(self, step: dict[str, Any]) -> Move | None:
        data = step.get("move")
        return self._parsed_move(data) if isinstance(data, dict) else None

    def _same_move(self, step: Event, move: Move) -> None:
        """`step`'s move reads back as the engine's own `move` object where the two are
        equal: a rebuild then finds the person's line and the engine's moves the same
        objects and compares them at once."""
        data = step.payload.get("move")
        if not isinstance(data, dict):
            return
        with contextlib.suppress(TypeError, ValueError):
            if Move.from_dict(data) == move:
                self._moves[id(data)] = (data, move)

    def _parsed_move(self, data: dict[str, Any]) -> Move:
        """A move on the line, read from its recorded form once."""
        known = self._moves.get(id(data))
        if known is None or known[0] is not data:
            known = (data, Move.from_dict(data))
            self._moves[id(data)] = known
        return known[1]

    def _named_violation(self, event: Event) -> dict[str, Any]:
        known = self._named.get(event.seq)
        if known is None or known[0] is not event:  # (a seq written again after a rollback)
            known = (event, self.namer.payload(event.payload))
            self._named[event.seq] = known
        return known[1]

    def _draft(self, kind: str, inputs: list[int]) -> Event:
        """An undo or redo of `inputs` as it will stand on the log."""
        return Event(self.game_id, self._last_seq() + 1, 0.0, kind, "person",
                     {"inputs": inputs})

    def _toggles(self, draft: Event) -> tuple[list[int], list[int]]:
        """Steps to take off and put back so the main line is the one of the log with `draft`
        (an undo or redo) on it."""
        return self._indexed().line_change(draft, self._events)

    def _table_after(self, events: Sequence[Event], undone: frozenset[int]
                     ) -> TableSnapshot | None:
        """The game's table after `events`, the log with a draft of an undo, redo or decision
        on it or a part of the log (what that input will rebuild), `undone` the inputs that
        `events` take back: the same table steps as `_apply`, without the engine, from the
        newest checkpoint that holds for `events`."""
        start = self._checkpoints.find(events, undone)
        table: TableSnapshot | None = start.state.model.table if start else None
        before: MutableMapping[int, TableSnapshot | None] = \
            ChainMap({}, start.state.model.before) if start else {}
        after: MutableMapping[int, TableSnapshot] = \
            ChainMap({}, start.state.model.after) if start else {}
        parsed = self._model.after  # (the tables of the log applied now: read once)
        for e in events[start.at if start else 0:]:
            if e.kind not in GAME_INPUTS or e.seq in undone:
                continue
            if e.kind == "observation":
                known = parsed.get(e.seq)
                snapshot = known if known is not None else \
                    TableSnapshot.from_dict(e.payload["snapshot"])
                before[e.seq], after[e.seq] = table, snapshot
                table = snapshot
            elif e.kind == "decision":
                table = _corrected_table(table, e, events, before, after)
        return table

    def _undo_suffix(self) -> list[Event]:
        suffix: list[Event] = self._cached("undo_suffix", self._find_undo_suffix)
        return list(suffix)

    def _find_undo_suffix(self) -> list[Event]:
        """The inputs in force from the last one that changed the game on (read from the end:
        what an input led to is recorded right after it)."""
        undone = self._undone()
        derived: set[int] = set()
        suffix: list[Event] = []
        for e in reversed(self._events):
            owner = _input_of(e)
            if owner is not None:
                derived.add(owner)
            if e.kind not in GAME_INPUTS or e.seq in undone:
                continue
            suffix.append(e)
            if e.kind != "observation" or e.seq in derived:
                return suffix[::-1]
        return []

    def _redo_stack(self) -> list[Event]:
        found: list[Event] = self._cached("redo_stack", self._find_redo_stack)
        return list(found)

    def _find_redo_stack(self) -> list[Event]:
        """Undos a redo may take back: those since the last input (a new input ends them)."""
        start = len(self._events)
        while start > 0 and self._events[start - 1].kind not in GAME_INPUTS:
            start -= 1
        stack: list[Event] = []
        for e in self._events[start:]:
            if e.kind == "undo":
                stack.append(e)
            elif e.kind == "redo":
                wanted = e.payload.get("undo")
                stack = [u for u in stack if u.seq != wanted]
            elif e.kind in GAME_INPUTS:
                stack.clear()
        return stack

    def _history(self, undone: frozenset[int]) -> dict[str, Any]:
        last = None
        for e in reversed(self._events):
            if e.kind in ("undo", "redo") or (e.kind == "decision"
                                               and e.payload.get("put_back_en")):
                put_en = list(e.payload.get("put_back_en") or [])
                put_de = list(e.payload.get("put_back_de") or [])
                text_en, text_de = str(e.payload.get("text_en", "")), \
                    str(e.payload.get("text_de", ""))
                if put_en:
                    text_en += ". Put back on the table: " + "; ".join(put_en)
                    text_de += ". Auf dem Tisch zurücklegen: " + "; ".join(put_de)
                last = {"kind": e.kind, "seq": e.seq,
                        "text_en": self.namer.text(text_en, "en"),
                        "text_de": self.namer.text(text_de, "de"),
                        "put_back_en": [self.namer.text(t, "en") for t in put_en],
                        "put_back_de": [self.namer.text(t, "de") for t in put_de]}
                break
            if e.kind in GAME_INPUTS and e.seq not in undone:
                break
        return {"can_undo": bool(self._undo_suffix()), "can_redo": bool(self._redo_stack()),
                "last": last}

    def _input_text(self, event: Event) -> tuple[str, str]:
        """How an input reads in the undo/redo line: the steps it made, or its own text."""
        after = self._events[bisect.bisect_left(self._events, event.seq, key=_seq):]
        steps = [e for e in after if self._input_of(e) == event.seq
                 and e.kind in ("move", "phase")]
        if steps:
            en = "; ".join(str(e.payload.get("text_en", "")) for e in steps)
            de = "; ".join(str(e.payload.get("text_de", "")) for e in steps)
            if event.kind == "observation":
                return f"camera: {en}", f"Kamera: {de}"
            return en, de
        return str(event.payload.get("text_en", event.kind)), \
            str(event.payload.get("text_de", event.kind))

    def _decision_shown(self, violation_seq: int, move_seq: int, on_line: bool) -> str | None:
        return self._shown(self._indexed().decisions.get(violation_seq), on_line)

    @staticmethod
    def _shown(latest: str | None, on_line: bool) -> str | None:
        """A violation's decision as shown: its move off the line is "corrected"; a move on
        the line that someone decided about "stands"."""
        if not on_line:
            return "corrected"
        return "stands" if latest is not None else None

    def _repeated(self, client_id: str | None, signature: str) -> dict[str, Any] | None:
        if not client_id:
            return None
        known = self._client_ids.get(client_id)
        if known is None:
            return None
        if known["signature"] != signature:
            raise ActionError(f"request id {client_id!r} was already used for another action")
        return {"seq": known["seq"], "repeated": True}

    def _remember(self, event: Event) -> None:
        client_id = event.payload.get("client_id")
        if isinstance(client_id, str) and client_id:
            self._client_ids[client_id] = {"signature": event.payload.get("signature", ""),
                                           "seq": event.seq}
            self._client_ids.move_to_end(client_id)
            while len(self._client_ids) > CLIENT_IDS_KEPT:
                self._client_ids.popitem(last=False)

    def _refuse_when_over(self, what: str) -> None:
        outcome = self._model.outcome
        if outcome is None:
            return
        reason = outcome.get("reason_en") or outcome.get("reason") or ""
        reason_de = outcome.get("reason_de") or reason
        winner = outcome.get("winner")
        name = self.namer.player(str(winner)) if winner else ""
        said = f"{name} won" if winner else "it ended in a draw"
        said_de = f"{name} hat gewonnen" if winner else "unentschieden"
        reason, reason_de = self.namer.text(str(reason), "en"), self.namer.text(
            str(reason_de), "de")
        raise GameOverError(
            f"the game is over ({said}{': ' + str(reason) if reason else ''}): cannot {what};"
            " undo the last step to play on",
            de=f"Die Partie ist vorbei ({said_de}{': ' + str(reason_de) if reason_de else ''});"
            " zum Weiterspielen den letzten Schritt rückgängig machen")

    def _pause(self, exc: WriteFailedError, keyframe: bool = False) -> None:
        """The page says "Recording paused: <message>"; the message is the reason. A library
        another program has locked only makes saving wait (status "waiting")."""
        self._refusal = exc
        if exc.busy:
            self.recording = Recording("waiting", "saving is waiting for the library",
                                       "Speichern wartet auf die Bibliothek")
        elif keyframe:
            self.recording = Recording("paused", f"{exc.reason_en} (keyframe dropped)",
                                       f"{exc.reason_de} (Standbild verworfen)")
        else:
            self.recording = Recording("paused", exc.reason_en, exc.reason_de)

    def _recording_ok(self) -> None:
        self._refusal = None
        if self.recording.status != "ok":
            self.recording = Recording()

    def _last_seq(self) -> int:
        return self._events[-1].seq if self._events else 0

    def _find(self, seq: int | None) -> Event | None:
        if seq is None:
            return None
        for e in reversed(self._events):
            if e.seq == seq:
                return e
        return None

    def _event(self, seq: int, kind: str) -> Event:
        found = self._find(seq)
        if found is None or found.kind != kind:
            raise ActionError(f"there is no {kind} #{seq} in this game",
                              de=f"#{seq} gibt es in dieser Partie nicht")
        return found

    # --- page helpers ------------------------------------------------------------------------

    def _log_entry(self, entry: Any) -> dict[str, Any]:
        """A main-line step as the page's log gets it: its move and the violations it
        raised in names (a log entry is read as much as the violation list)."""
        data = entry.to_dict()
        data["move"] = self.namer.payload(entry.move)
        data["violations"] = self.namer.deep(list(data.get("violations") or ()))
        return dict(data)

    def _status(self, lang: str) -> dict[str, Any]:
        status = dict(self.referee.status(lang, self._visible()))
        if isinstance(status.get("outcome"), Mapping):  # in names and in `lang` only
            other = "_en" if lang == "de" else "_de"
            status["outcome"] = {k: v for k, v in self.namer.payload(status["outcome"]).items()
                                 if not k.endswith(other)}
        if status.get("next"):
            status["next"] = self.namer.text(str(status["next"]), lang)
        status["legal"] = [self.namer.text(m, lang) for m in status.get("legal", [])]
        prompt = dict(status.get("prompt") or {})
        for key in ("must", "may", "automatic"):
            prompt[key] = [self.namer.text(t, lang) for t in prompt.get(key, [])]
        status["prompt"] = prompt
        return status

    def _visible(self) -> frozenset[str]:
        table = self._model.table
        return frozenset(c.uid for c in (table.cards if table else ()) if c.face_up)

    def _offers(self) -> Offers:
        if self._model.outcome is not None:
            return Offers()
        offered = getattr(self.referee, "offers", None)
        return offered(self._visible()) if offered is not None else Offers()

    def _offers_view(self) -> dict[str, Any]:
        """Offered moves with their texts in both languages, ready to post back as they are."""
        found = self._offers()

        def rows(moves: tuple[Move, ...]) -> list[dict[str, Any]]:
            return [{"move": m.to_dict(), "kind": m.kind,
                     "text_en": self.namer.text(self._describe(m, "en"), "en"),
                     "text_de": self.namer.text(self._describe(m, "de"), "de")} for m in moves]

        return {"person": rows(found.person), "table": rows(found.table), "hidden": found.hidden}

    def _question_view(self) -> dict[str, Any] | None:
        if self._model.question is None:
            return None
        seq, q = self._model.question
        data = q.to_dict()
        data["choices"] = [self.namer.payload(c) for c in data["choices"]]
        return {"seq": seq, **self.namer.payload(data)}

    def _checking_view(self) -> dict[str, str] | None:
        """What the camera is taking a second look at (quietly: not yet a move, no alert)."""
        held = self._second_look
        gone = sorted(_gone(self._model.table, held[0])) if held is not None else []
        if not gone:
            return None
        en = ", ".join(self.namer.text(uid, "en") for uid in gone)
        de = ", ".join(self.namer.text(uid, "de") for uid in gone)
        return {"text_en": f"Checking: {en} not seen; the camera looks again",
                "text_de": f"Wird geprüft: {de} nicht gesehen; die Kamera schaut noch einmal"}

    def _unreadable_view(self) -> list[dict[str, str]]:
        """Cards the camera sees under the lamp's reflection and cannot read, named where the
        game knows them, with what to do."""
        table = self._model.table
        seen = self._seen if self._seen is not None else table
        spots = seen.unreadable if seen is not None else ()
        return [self._unreadable_text(u) for u in spots if u.cause == "glare"]

    def _unidentified_view(self) -> dict[str, list[dict[str, Any]]]:
        """Cards the camera sees but has not identified (too far, sticker hidden): drawn as
        "?" cards, named per zone with what to do; a card named only when the game leaves
        one possibility, marked as inferred."""
        seen = self._seen if self._seen is not None else self._model.table
        decks = getattr(getattr(self.referee, "config", None), "decks", {}) or {}
        return unidentified.view(self.namer, seen, getattr(self.referee, "engine", None), decks)

    def _unanswered_view(self) -> list[dict[str, Any]]:
        """Questions nobody answered while play went on, newest first, each with the reading
        the record assumed (it can still be changed)."""
        shown = []
        current = self._model.question[0] if self._model.question else None
        for seq, asked in sorted(self._model.asked.items(), reverse=True):
            if seq == current:
                continue
            data = asked.question.to_dict()
            data["choices"] = [self.namer.payload(c) for c in data["choices"]]
            shown.append({"seq": seq, **self.namer.payload(data),
                          "assumed": asked.taken if asked.assumed else None,
                          "steps": list(asked.assumed)})
        return shown

    def _publish_state(self) -> None:
        self.bus.publish("state", self.state())


def _observations(inputs: Sequence[Event]) -> list[tuple[int, TableSnapshot]]:
    """The tables the camera saw among `inputs`, with their input's seq."""
    return [(e.seq, TableSnapshot.from_dict(e.payload["snapshot"]))
            for e in inputs if e.kind == "observation"]


def _log_message(event: Event) -> dict[str, Any]:
    """An event as the page's log gets it: an observation without its (large) snapshot."""
    data = event.to_dict()
    if event.kind == "observation":
        payload = dict(event.payload)
        snapshot = payload.pop("snapshot", {}) or {}
        payload["cards"] = len(snapshot.get("cards", ()))
        data["payload"] = payload
    return {"seq": event.seq, **data}


def _input_of(event: Event) -> int | None:
    owner = event.payload.get("input")
    return owner if isinstance(owner, int) and not isinstance(owner, bool) else None


def _corrected_table(
    table: TableSnapshot | None, decision: Event, events: Sequence[Event],
    before: Mapping[int, TableSnapshot | None], after: Mapping[int, TableSnapshot],
) -> TableSnapshot | None:
    """The game's table after a decision that takes a camera move off the line (its cards go
    back where they were) or puts it back on; a person's move leaves the table alone. `events`:
    the log (in seq order) as far as the decision at least; what comes after it is not read."""
    off, on = _ints(decision.payload.get("off")), _ints(decision.payload.get("on"))
    if table is None or not (off or on):
        return table
    move_event = _event_at(events, _as_int(decision.payload.get("move_seq")))
    origin = _event_at(events, _input_of(move_event) or -1) if move_event else None
    if move_event is None or origin is None or origin.kind != "observation":
        return table
    start = bisect.bisect_left(events, origin.seq, key=_seq)
    end = bisect.bisect_right(events, decision.seq, key=_seq)
    steps = [e for e in events[start:end] if _input_of(e) == origin.seq
             and e.kind in ("move", "phase") and e.source != "automatic"]
    only = None if len(steps) <= 1 else _cards_of(move_event)
    seen_before, seen_after = before.get(origin.seq), after.get(origin.seq)
    if off:
        return restore(table, seen_after, seen_before, only)
    return restore(table, seen_before, seen_after, only)


def _seq(event: Event) -> int:
    return event.seq


def _event_at(events: Sequence[Event], seq: int) -> Event | None:
    """The event `seq` of a log in seq order (bisected, not searched)."""
    at = bisect.bisect_left(events, seq, key=_seq)
    return events[at] if at < len(events) and events[at].seq == seq else None


def _gone(table: TableSnapshot | None, seen: TableSnapshot) -> frozenset[str]:
    """Cards and dice the game's table has that `seen` shows nowhere."""
    if table is None:
        return frozenset()
    cards = {c.uid for c in seen.cards}
    dice = {d.die for d in seen.dice}
    return frozenset({c.uid for c in table.cards if c.uid not in cards}
                     | {d.die for d in table.dice if d.die not in dice})


def _breaks_rules(reaction: Reaction) -> bool:
    return any(blocking(list(a.violations)) for a in reaction.applied)


def _blocking_events(violations: Sequence[Event]) -> int:
    """How many rules a recorded step breaks (its blocking violation events)."""
    return sum(1 for v in violations if not v.payload.get("lifted_by"))


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _ints(value: Any) -> list[int]:
    return [v for v in value if isinstance(v, int)] if isinstance(value, list) else []


def _cards_of(event: Event) -> list[str]:
    move = event.payload.get("move") or {}
    cards = [c for c in move.get("cards", []) if isinstance(c, str)]
    if isinstance(move.get("target"), str):
        cards.append(move["target"])
    return cards


def _plain(extra: Mapping[str, Any]) -> dict[str, Any]:
    """Pipeline figures as JSON-safe values (numbers, text, flags, lists of those)."""
    out: dict[str, Any] = {}
    for key, value in extra.items():
        if isinstance(value, bool | int | str) or value is None:
            out[key] = value
        elif isinstance(value, float):
            out[key] = round(value, 3) if value == value and abs(value) != float("inf") else None
        elif isinstance(value, list | tuple) and all(isinstance(v, str | int | float)
                                                       for v in value):
            out[key] = list(value)
    return out


def table_view(snapshot: TableSnapshot | None, card_info: CardInfo) -> dict[str, Any]:
    """Cards with their names and types, dice and tokens: what the SVG mat draws."""
    from companion.record.wording import table_view as shown

    return shown(snapshot, card_info)
