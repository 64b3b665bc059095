"""The main line kept up to date event by event (issue 34) equals the one read from the whole
log: after every event of random logs of steps, violations, decisions, answers, revisions,
undos and redos, `LineIndex` holds what `main_line`, `decisions_of`, `cleared_violations` and
`undone_inputs` compute from scratch (the definitions the index replaces on the live path),
and what an undo or redo would take off the line and put back is the difference of the two
lines read from scratch."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record.line_index import LineIndex
from companion.record.replay import cleared_violations, main_line
from companion.record.store import Event, decisions_of, undone_inputs

OPS = ("input", "input", "input", "violation", "violation", "decide", "decide", "answer",
       "revision", "undo", "undo", "redo", "correction", "note")
op = st.tuples(st.sampled_from(OPS), st.integers(0, 9), st.integers(0, 9))


class Log:
    """A log written the way a live session writes one: inputs with the steps they led to."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.inputs: list[int] = []
        self.undos: list[Event] = []

    def add(self, kind: str, payload: dict[str, Any]) -> Event:
        event = Event(1, len(self.events) + 1, 0.0, kind, "automatic", payload)
        self.events.append(event)
        return event

    def seqs(self, kind: str) -> list[int]:
        return [e.seq for e in self.events if e.kind == kind]

    def pick(self, kind: str, a: int) -> int:
        found = self.seqs(kind)
        return found[a % len(found)] if found else a

    def run(self, what: str, a: int, b: int) -> None:
        if what == "input":
            source = self.add("observation" if a % 2 else "action", {})
            self.inputs.append(source.seq)
            for i in range(b % 3):
                payload: dict[str, Any] = {"move": {"kind": "play", "n": i}, "input": source.seq}
                if a % 3 == 0:
                    payload["in_place_of"] = self.pick("move", a)
                self.add("phase" if i == 2 else "move", payload)
        elif what == "violation":
            self.add("violation", {"code": f"R{a}", "move_seq": self.pick("move", a),
                                   "input": self.pick("move", b)})
        elif what == "decide":
            move = self.pick("move", b)
            self.add("decision", {"violation": self.pick("violation", a),
                                  "decision": ("stands", "corrected")[b % 2],
                                  "off" if b % 2 else "on": [move]})
        elif what == "answer":
            self.add("answer", {"question": a, "off": [self.pick("move", a)],
                                "on": [self.pick("move", b)] if b % 3 == 0 else []})
        elif what == "revision":
            self.add("revision", {"cleared": [self.pick("violation", a)],
                                  "off": [self.pick("move", b)] if b % 2 else [],
                                  "input": self.pick("observation", a)})
        elif what == "undo" and self.inputs:
            taken = self.inputs[-1 - a % min(3, len(self.inputs)):]
            self.undos.append(self.add("undo", {"inputs": taken, "off": [], "on": []}))
        elif what == "redo" and self.undos:
            undo = self.undos[a % len(self.undos)]
            self.add("redo", {"inputs": undo.payload["inputs"], "undo": undo.seq})
        elif what == "correction":
            replacement = {"move": {"kind": "fixed"}} if b % 2 else None
            self.add("correction", {"target": self.pick("move", a), "replacement": replacement})
        else:
            self.add("note", {"text": "a note"})


def drawn(entries: list[Any]) -> list[tuple[Any, ...]]:
    return [(e.position, e.to_dict(), e.decisions) for e in entries]


def agrees(index: LineIndex, events: list[Event]) -> None:
    line = main_line(events)
    assert drawn(index.line()) == drawn(line)
    assert drawn(index.tail(3)) == drawn(line[-3:])
    assert index.line_seqs() == {e.seq for e in line}
    assert all(index.on_line(e.seq) == (e.seq in index.line_seqs()) for e in events)
    assert index.undone == undone_inputs(events)
    assert index.decisions == decisions_of(events)
    assert index.cleared == cleared_violations(events)
    standing = [e for e in events if e.kind == "violation" and e.seq not in index.cleared
                and e.payload.get("input") not in index.undone]
    assert index.standing(2) == (standing[-2:], len(standing))


@settings(max_examples=100, deadline=None)
@given(st.lists(op, min_size=1, max_size=30))
def test_the_index_is_the_line_read_from_scratch(ops: list[tuple[str, int, int]]) -> None:
    log = Log()
    index = LineIndex()
    for what, a, b in ops:
        start = len(log.events)
        log.run(what, a, b)
        for event in log.events[start:]:
            before = log.events[:event.seq - 1]
            if event.kind in ("undo", "redo"):  # what the session asks before writing one
                then = {x.event.seq for x in main_line(log.events[:event.seq])}
                now = {x.event.seq for x in main_line(before)}
                assert index.line_change(event, before) == (sorted(now - then),
                                                            sorted(then - now))
                assert index.undone_after(event) == undone_inputs(log.events[:event.seq])
                agrees(index, before)  # (and the index is left as it was)
            index.append(event, log.events[:event.seq])
        agrees(index, log.events)
        upto = a % (len(log.events) + 1)  # the line as it was then, where the undone agree
        assert index.undone_upto(upto) == undone_inputs(log.events[:upto])
        if undone_inputs(log.events[:upto]) == {u for u in index.undone if u <= upto}:
            assert index.moves_upto(upto, log.events) == [
                x.move for x in main_line(log.events[:upto])]
            agrees(index, log.events)  # (and the index is left as it was)
    again = LineIndex(log.events)  # a resumed game: rebuilt from the log
    assert drawn(again.line()) == drawn(index.line())


def test_a_hand_worked_log() -> None:
    """Two steps, the first breaks a rule that a referee then corrects (the step goes off the
    line), a revision clears nothing, the decision is undone: the step is back."""
    log = Log()
    log.run("input", 1, 2)          # 1 observation, 2 and 3 moves
    log.add("violation", {"code": "R", "move_seq": 2, "input": 1})           # 4
    log.add("decision", {"violation": 4, "decision": "corrected", "off": [2]})  # 5
    index = LineIndex(log.events)
    assert [e.seq for e in index.line()] == [3]
    assert index.decisions == {4: "corrected"} and not index.on_line(2)
    undo = log.add("undo", {"inputs": [5], "off": [], "on": [2]})           # 6
    index.append(undo, log.events)
    assert [e.seq for e in index.line()] == [2, 3]
    assert index.decisions == {} and index.on_line(2)
    assert [v.seq for v in index.line()[0].violations] == [4]
    assert index.standing(10) == ([log.events[3]], 1)


def test_old_corrections_replace_and_remove_steps() -> None:
    """Older recordings' `correction` events: one stands in for its step (in its place), one
    without a replacement takes its step off; worked by hand."""
    log = Log()
    log.run("input", 1, 2)  # 1 observation, 2 and 3 moves
    log.add("correction", {"target": 2, "replacement": {"move": {"kind": "fixed"}}})  # 4
    log.add("correction", {"target": 3, "replacement": None})  # 5
    index = LineIndex()
    for event in log.events:
        index.append(event, log.events[:event.seq])
    (only,) = index.line()
    assert (only.seq, only.position, only.move) == (4, 2, {"move": {"kind": "fixed"}})
    assert only.corrected_from is log.events[1]
    assert index.on_line(4) and not index.on_line(2) and not index.on_line(3)
