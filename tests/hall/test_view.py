"""The hall's picture of a table, from stream messages alone (no broker needed)."""

from __future__ import annotations

from typing import Any

from companion.hall.view import HallView
from companion.hall.wire import EVENT, FINISH, HEADER, Place, TableMessage

HEADER_BODY = {"game": "challengers", "players": ["Ada", "Bo"], "title": "round 1",
               "url": "http://10.0.0.7:8765/"}


def header(table: str, db: str = "d1", game: int = 1, **extra: Any) -> TableMessage:
    return TableMessage(HEADER, table, db, Place(game, 0, 0), {**HEADER_BODY, **extra}, 0.0)


def event(table: str, seq: int, kind: str, payload: dict[str, Any], db: str = "d1",
          game: int = 1) -> TableMessage:
    body = {"seq": seq, "time": 1000.0 + seq, "kind": kind, "source": "camera",
            "payload": payload}
    return TableMessage(EVENT, table, db, Place(game, seq, 1), body, 0.0)


def move(text: str, turn: int, phase: str, scores: dict[str, int]) -> dict[str, Any]:
    return {"move": {"kind": "reveal"}, "text_en": text, "text_de": text, "legal": True,
            "state": {"turn": turn, "active": "p1", "phase": phase, "phase_name": phase.title(),
                      "scores": scores}}


def violation(code: str, move_seq: int, lifted_by: str | None = None) -> dict[str, Any]:
    return {"code": code, "message_en": f"{code} broken", "message_de": f"{code} verletzt",
            "rule": "r", "cards": [], "zones": [], "lifted_by": lifted_by, "move_seq": move_seq}


def test_turn_phase_scores_and_last_move_follow_the_main_line() -> None:
    view = HallView()
    view.apply(header("t1"))
    view.apply(event("t1", 1, "move", move("first", 1, "attack", {"p1": 0, "p2": 0})))
    view.apply(event("t1", 2, "move", move("second", 2, "defend", {"p1": 1, "p2": 0})))
    row = view.table("t1")
    assert row is not None
    assert (row["turn"], row["phase"], row["phase_name"]) == (2, "defend", "Defend")
    assert [(s["name"], s["value"]) for s in row["scores"]] == [("Ada", 1), ("Bo", 0)]
    assert row["last_move"]["text_en"] == "second" and row["seq"] == 2
    assert row["commit"] == 1002.0 and row["url"] == HEADER_BODY["url"]
    # an undo takes move 2 off the line: the table is back at move 1's state
    view.apply(event("t1", 3, "correction", {"target": 2, "replacement": None}))
    row = view.table("t1")
    assert row is not None
    assert (row["turn"], row["last_move"]["text_en"]) == (1, "first")
    assert [s["value"] for s in row["scores"]] == [0, 0]


def test_open_violations_and_questions_are_highlighted_and_sorted_first() -> None:
    view = HallView()
    for name in ("a-quiet", "b-busy", "c-asking"):
        view.apply(header(name, db=f"db-{name}"))
        view.apply(event(name, 1, "move", move("m", 1, "attack", {"p1": 0, "p2": 0}),
                         db=f"db-{name}"))
    view.apply(event("b-busy", 2, "violation", violation("ch.bench-full", 1), db="db-b-busy"))
    view.apply(event("b-busy", 3, "violation", violation("ch.lifted", 1, lifted_by="CH-9"),
                     db="db-b-busy"))
    view.apply(event("c-asking", 2, "question", {"text_en": "Which?", "text_de": "Welche?",
                                                  "choices": []}, db="db-c-asking"))
    rows = view.snapshot()
    assert [r["table"] for r in rows] == ["b-busy", "c-asking", "a-quiet"]
    busy = rows[0]
    assert busy["alert"] and [v["code"] for v in busy["violations"]] == ["ch.bench-full"]
    assert rows[1]["question"]["text_en"] == "Which?" and not rows[2]["alert"]
    # the referee decides the violation, the question is answered: nothing open any more
    view.apply(event("b-busy", 4, "decision", {"violation": 2, "decision": "stands"},
                     db="db-b-busy"))
    view.apply(event("c-asking", 3, "decision", {"question": 2, "choice": 0},
                     db="db-c-asking"))
    assert [r["table"] for r in view.snapshot()] == ["a-quiet", "b-busy", "c-asking"]
    assert not any(r["alert"] for r in view.snapshot())


def test_duplicates_are_counted_never_applied() -> None:
    view = HallView()
    seen: list[dict[str, Any]] = []
    view.listeners.append(seen.append)
    first = event("t1", 1, "move", move("m1", 1, "attack", {"p1": 0, "p2": 0}))
    assert view.apply(header("t1")) is not None
    assert view.apply(first) is not None
    assert view.apply(first) is None and view.apply(header("t1")) is None
    assert view.apply(event("t1", 2, "note", {"text": "x"})) is not None
    assert view.apply(event("t1", 2, "note", {"text": "x"})) is None
    assert view.counts() == {"tables": 1, "applied": 3, "duplicates": 3, "stream_seq": 0,
                             "refused": 3}
    assert [r["seq"] for r in seen] == [0, 1, 2]


def test_a_new_game_replaces_the_old_and_the_outcome_shows() -> None:
    view = HallView()
    view.apply(header("t1", game=1))
    view.apply(event("t1", 1, "violation", violation("x", 0)))
    view.apply(TableMessage(FINISH, "t1", "d1", Place(1, 1, 2),
                            {"outcome": {"winner": "p2", "reason": "deck-empty"}, "after": 1},
                            0.0))
    row = view.table("t1")
    assert row is not None and row["outcome"]["winner"] == "p2"
    view.apply(header("t1", game=2, players=["Cy", "Di"]))
    row = view.table("t1")
    assert row is not None
    assert (row["game_ref"], row["players"], row["outcome"], row["violations"]) == (
        2, ["Cy", "Di"], None, [])
    # a late message of game 1 is counted but does not disturb game 2's row
    view.apply(event("t1", 2, "note", {"text": "late"}, game=1))
    row = view.table("t1")
    assert row is not None and row["game_ref"] == 2 and row["seq"] == 0


def test_card_ids_become_names_on_the_page() -> None:
    from companion.hall.naming import namer_for

    view = HallView(namer_for)
    view.apply(header("t1"))
    view.apply(event("t1", 1, "move", move("p2 reveals CH-004#2", 1, "attack",
                                            {"p1": 0, "p2": 0})))
    row = view.table("t1")
    assert row is not None
    text = row["last_move"]["text_en"]
    assert "CH-004" not in text and text.startswith("Bo reveals ")
