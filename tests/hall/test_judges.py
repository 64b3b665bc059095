"""What the judges read: every player's violations with the tables' decisions across games
and rounds, the round clock of each table (on the hall's clock, kept across restarts), and a
review link that opens the recorded moment on the right page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.hall.judges import PlayerHistory, RoundClocks, match_of_row
from companion.hall.view import HallView
from companion.hall.web import HallState
from companion.hall.wire import FINISH, Place, TableMessage
from tests.hall.test_view import event, header


def obs(table: str, seq: int, **kw: Any) -> TableMessage:
    return event(table, seq, "observation", {}, **kw)


def mv(table: str, seq: int, seat: str, owner: int, **kw: Any) -> TableMessage:
    return event(table, seq, "move", {
        "move": {"kind": "attack", "player": seat}, "text_en": f"move {seq}",
        "text_de": f"Zug {seq}", "legal": False, "input": owner,
        "state": {"turn": 1, "active": seat, "phase": "attack", "scores": {"p1": 0, "p2": 0}}},
        **kw)


def bad(table: str, seq: int, move_seq: int, owner: int, code: str = "ch.bench-full",
        lifted_by: str | None = None, **kw: Any) -> TableMessage:
    return event(table, seq, "violation", {
        "code": code, "message_en": f"{code} at move {move_seq}",
        "message_de": f"{code} bei Zug {move_seq}", "rule": "Bank", "cards": [], "zones": [],
        "lifted_by": lifted_by, "move_seq": move_seq, "input": owner}, **kw)


def decide(table: str, seq: int, violation: int, decision: str, move_seq: int,
           **kw: Any) -> TableMessage:
    return event(table, seq, "decision", {
        "violation": violation, "decision": decision, "move_seq": move_seq,
        "off": [move_seq] if decision == "corrected" else [], "on": []}, **kw)


def finish(table: str, seq: int, winner: str, db: str = "d1", game: int = 1) -> TableMessage:
    return TableMessage(FINISH, table, db, Place(game, seq, 2),
                        {"outcome": {"winner": winner}, "after": seq}, 0.0)


def feed(view: HallView, messages: list[TableMessage], at: float = 1000.0) -> None:
    for n, message in enumerate(messages):
        assert view.apply(message, stamp=at + n) is not None, message


def test_each_players_history_follows_the_tables_decisions_across_games() -> None:
    view = HallView()
    history = PlayerHistory()
    view.message_listeners.append(history.feed)
    feed(view, [
        header("north"),  # Ada (p1) - Bo (p2)
        obs("north", 1), mv("north", 2, "p1", 1), bad("north", 3, 2, 1),   # Ada
        decide("north", 4, 3, "corrected", 2),                             # corrected
        obs("north", 5), mv("north", 6, "p2", 5), bad("north", 7, 6, 5),   # Bo
        decide("north", 8, 7, "stands", 6),                                # stands
        obs("north", 9), mv("north", 10, "p1", 9), bad("north", 11, 10, 9),
        event("north", 12, "undo", {"inputs": [9]}),                       # undone: gone
        obs("north", 13), mv("north", 14, "p1", 13),
        bad("north", 15, 14, 13, lifted_by="CH-1#1"),                      # lifted: no fault
        finish("north", 15, "p2"),
    ])
    # Ada's next game, at another table, in another recording: an open violation
    feed(view, [header("south", db="d2", players=["Cy", "Ada"]),
                obs("south", 1, db="d2"), mv("south", 2, "p2", 1, db="d2"),
                bad("south", 3, 2, 1, code="ch.two-attacks", db="d2")], at=5000.0)
    rounds = {("north", "d1", 1): 1, ("south", "d2", 1): 2}
    players = {p["name"]: p for p in history.players(
        lambda table, db, game, _players: rounds.get((table, db, game)))}
    assert sorted(players) == ["Ada", "Bo"]
    ada = players["Ada"]
    assert [(e["table"], e["round"], e["code"], e["decision"]) for e in ada["entries"]] == [
        ("north", 1, "ch.bench-full", "corrected"), ("south", 2, "ch.two-attacks", "open")]
    assert ada["counts"] == {"open": 1, "stands": 0, "corrected": 1} and ada["total"] == 2
    assert [(e["decision"], e["seat"]) for e in players["Bo"]["entries"]] == [("stands", "p2")]
    first = ada["entries"][0]
    assert first["review"] == "review/1?step=3#step=3"
    assert first["moment"] == "/hall/moment/north/d1/1/3"
    assert first["url"] == "http://10.0.0.7:8765/" and first["players"] == ["Ada", "Bo"]
    # the hall's row of south lists the open one with its player and its moment
    row = view.table("south")
    assert row is not None
    assert [(v["player"], v["seq"], v["review"]) for v in row["violations"]] == [
        ("Ada", 3, "review/1?step=3#step=3")]
    # a restarted hall reads the same stream again (a header heard twice starts nothing)
    again = PlayerHistory()
    for message in (header("north"), obs("north", 1), mv("north", 2, "p1", 1),
                    bad("north", 3, 2, 1), header("north"), decide("north", 4, 3, "corrected", 2)):
        again.feed(message, 1.0)
    assert [(p["name"], p["counts"]["corrected"]) for p in again.players()] == [("Ada", 1)]


def test_a_round_clock_runs_on_the_hall_clock_and_stops_at_the_end(tmp_path: Path) -> None:
    now = [1000.0]
    clocks = RoundClocks(50, tmp_path / "hall.db", clock=lambda: now[0])
    row = {"table": "north", "db": "d1", "game_ref": 1, "players": ["Ada", "Bo"],
           "started_at": 1000.0, "ended_at": 0.0, "outcome": None}
    clock = clocks.for_row(row, None)
    assert clock is not None and clock["length"] == 3000.0 and clock["ended"] is None
    now[0] = 1000.0 + 20 * 60
    assert clocks.remaining(clock) == 30 * 60
    now[0] = 1000.0 + 53 * 60
    assert clocks.remaining(clock) == -3 * 60  # over time
    done = clocks.for_row({**row, "outcome": {"winner": "p1"}, "ended_at": 1000.0 + 41 * 60},
                          None)
    assert done is not None and clocks.remaining(done) == 9 * 60  # stopped at the end
    assert clocks.for_row({**row, "started_at": 0.0}, None) is None  # nothing heard yet
    clocks.close()


def test_a_tournament_match_keeps_its_clock_across_recordings_and_restarts(
        tmp_path: Path) -> None:
    tournament = {"id": 3, "stage": "match", "round": 2, "matches": [
        {"round": 2, "p1": "Ada", "p2": "Bo", "table": "north", "winner": None}]}
    first = {"table": "north", "db": "d1", "game_ref": 4, "players": ["Ada", "Bo"],
             "started_at": 2000.0, "ended_at": 0.0, "outcome": None}
    clocks = RoundClocks(50, tmp_path / "hall.db")
    clock = clocks.for_row(first, tournament)
    assert clock is not None
    assert (clock["key"], clock["started"], clock["round"]) == ("round:3:2:north", 2000.0, 2)
    # the table's companion restarted: a new recording of the same match keeps the clock
    second = {**first, "game_ref": 5, "started_at": 2600.0}
    again = clocks.for_row(second, tournament)
    assert again is not None and again["started"] == 2000.0
    clocks.close()
    # the hall restarted: the start is read back from its library
    reopened = RoundClocks(50, tmp_path / "hall.db")
    kept = reopened.for_row(second, tournament)
    assert kept is not None and kept["started"] == 2000.0
    # another game at that table (not the match's players) has a clock of its own
    other = reopened.for_row({**first, "players": ["Cy", "Di"], "started_at": 3000.0},
                             tournament)
    assert other is not None and other["started"] == 3000.0 and other["round"] is None
    assert match_of_row({**first, "table": "south"}, tournament) is None
    reopened.close()


def test_the_judges_view_carries_clocks_history_and_the_hall_time(tmp_path: Path) -> None:
    view = HallView()
    state = HallState(view, lambda: None, lambda: {"nats": "online"},
                      clocks=RoundClocks(45))
    feed(view, [header("north"), obs("north", 1), mv("north", 2, "p1", 1),
                bad("north", 3, 2, 1), obs("north", 4),
                event("north", 5, "question", {"text_en": "Which card?", "input": 4})],
         at=7000.0)
    data = state.judges()
    (row,) = data["tables"]
    assert row["question"]["text_en"] == "Which card?"
    assert row["question"]["review"] == "review/1?step=5#step=5"
    assert row["question"]["moment"] == "/hall/moment/north/d1/1/5"
    assert row["clock"]["started"] == 7000.0 and row["clock"]["length"] == 45 * 60
    assert row["alert"] and row["violations"][0]["player"] == "Ada"
    assert data["players"][0]["name"] == "Ada" and data["now"] > 0
    assert data["round_minutes"] == 45


def test_a_review_link_with_a_step_opens_the_page_holding_it(tmp_path: Path) -> None:
    from companion.record.store import GameHeader, Store
    from companion.server.app import create_app

    db = tmp_path / "games.db"
    with Store(db) as store:
        gid = store.start_game(GameHeader(game="challengers", players=("Ada", "Bo")))
        with store.transaction():
            for i in range(1200):
                store.append(gid, "note", "automatic", {"text": f"note {i}"})
    client = create_app({"DATABASE": db, "SESSION": None, "HEARTBEAT_S": 1.0,
                         "PIN": None}).test_client()
    page = client.get(f"/review/{gid}?step=1001").get_data(as_text=True)  # note 1000
    assert "note 1000\"" in page and "note 999\"" not in page
    first = client.get(f"/review/{gid}?step=3").get_data(as_text=True)
    assert "note 2\"" in first and "note 600\"" not in first
    # an explicit page wins
    assert "note 600\"" in client.get(f"/review/{gid}?step=3&page=1").get_data(as_text=True)


def test_a_restarted_hall_keeps_every_clock_and_the_history(
        nats_server: Any, loop: Any, tmp_path: Path) -> None:
    """The clock's start is the broker's time of the game's first message: a hall reading
    the stream again (even without its library's clocks) starts it at the same moment."""
    from companion.hall.runtime import Hall
    from tests.hall.conftest import wait_until
    from tests.hall.helpers import Table

    table = Table(tmp_path, "north", loop, nats_server.url)
    hall = Hall(tmp_path / "hall.db", nats_server.url, heartbeat_s=0.5).start("127.0.0.1", 0)
    try:
        table.start()
        table.move(1)
        owner = table.store.append(table.game, "observation", "camera", {}).seq
        table.store.append(table.game, "violation", "automatic", {
            "code": "ch.x", "message_en": "Ada is wrong", "message_de": "Ada irrt",
            "rule": "r", "move_seq": 1, "input": owner})
        table.rings += 1
        wait_until(lambda: (hall.view.table("north") or {}).get("seq") == 3, what="north")
        first = hall.state.judges()
        started = first["tables"][0]["started_at"]
        assert abs(started - first["now"]) < 60 and first["tables"][0]["clock"]["started"] \
            == started
        hall.close()
        # a hall on a new library: only the stream remembers when north's game began
        hall = Hall(tmp_path / "other.db", nats_server.url, heartbeat_s=0.5)
        hall.start("127.0.0.1", 0)
        wait_until(lambda: (hall.view.table("north") or {}).get("seq") == 3, what="again")
        again = hall.state.judges()
        assert again["tables"][0]["started_at"] == started
        assert again["tables"][0]["clock"]["started"] == started
        assert again["players"] == first["players"] and again["players"][0]["name"] == "Ada"
    finally:
        table.close()
        hall.close()
