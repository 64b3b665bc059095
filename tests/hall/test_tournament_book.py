"""Tournaments stored in the game library: replayed through the rules, linked to games."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import cli
from companion.engine.game import Game
from companion.errors import CompanionError
from companion.games.challengers.numbers import TROPHY_FANS
from companion.games.challengers.tournament import Tournament, TournamentError
from companion.record.store import GameHeader, Store
from companion.tournaments.book import Link, Settings, TournamentBook, table_names

PLAYERS = ("Ada", "Bo", "Cy", "Di", "Ed")


def choose_first(book: TournamentBook | None, t: Tournament, tid: int, name: str) -> None:
    """Draw, redraw the last offered card, keep the first one (paying Ausgewählt)."""
    if book is None:
        offer = t.draw_offer(name)
        offer = t.redraw(name, offer[-1:])
        owed = t.removals_owed(offer[:1])
        t.choose(name, offer[:1], remove=(t.seats[name].deck + offer[:1])[:owed])
        return
    _, offer = book.act(tid, "draw", {"name": name})
    _, offer = book.act(tid, "redraw", {"name": name, "cards": offer[-1:]})
    loaded = book.load(tid)
    owed = loaded.tournament.removals_owed(offer[:1])
    deck = loaded.tournament.seats[name].deck + offer[:1]
    book.act(tid, "choose", {"name": name, "keep": offer[:1], "remove": deck[:owed]})


def test_a_stored_tournament_replays_to_the_same_state(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    settings = Settings(players=PLAYERS, bot_difficulty=2, seed=42)
    direct = Tournament(PLAYERS, bot_difficulty=2, seed=42)
    with TournamentBook(db) as book:
        tid = book.create(settings, "Spring cup")
        for round_no in (1, 2):
            for name in PLAYERS:
                choose_first(book, book.load(tid).tournament, tid, name)
                choose_first(None, direct, 0, name)
            book.act(tid, "end-deck-phase")
            direct.end_deck_phase()
            for i, match in enumerate(direct.matches):
                winner = match.a if (i + round_no) % 2 else match.b
                fans = {match.a: i % 2}
                direct_trophy = direct.record(match, winner, fans)  # fans drawn by the rules
                _, trophy = book.act(tid, "result", {"round": match.round, "a": match.a,
                                                     "b": match.b, "winner": winner,
                                                     "effect_fans": fans})
                assert (trophy is None) == (direct_trophy is None)
                if trophy is not None and direct_trophy is not None:
                    assert trophy.fans == direct_trophy.fans
                    assert trophy.fans in TROPHY_FANS[round_no]
            book.act(tid, "end-match-phase")
            direct.end_match_phase()
    with TournamentBook(db) as again:  # a fresh connection: everything from the file
        loaded = again.load(tid)
        stored = loaded.tournament.view()
        assert stored == direct.view()
        assert loaded.name == "Spring cup" and loaded.steps == len(again.steps(tid))
        assert [s["action"] for s in again.steps(tid)][:3] == ["draw", "redraw", "choose"]


def test_refused_steps_change_nothing_and_steps_are_append_only(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with TournamentBook(db) as book:
        tid = book.create(Settings(players=("Ada", "Bo"), seed=1))
        for action, args, words in [
            ("end-deck-phase", {}, "still choosing"),
            ("draw", {"name": "Zed"}, "no player"),
            ("result", {"round": 1, "a": "Ada", "b": "Bo", "winner": "Ada"}, "deck stage"),
            ("slim", {"name": "Ada", "cards": ["CH-999#1"]}, "chooses the new cards"),
        ]:
            with pytest.raises(CompanionError, match=words):
                book.act(tid, action, args)
        with pytest.raises(CompanionError, match="unknown tournament step"):
            book.act(tid, "shuffle-everything")
        assert book.step_count(tid) == 0
        book.act(tid, "draw", {"name": "Ada"})
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM tournament_steps")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE tournament_steps SET args = '{}'")
    conn.close()
    with pytest.raises(CompanionError, match="1 to 8 players"):
        TournamentBook(db).create(Settings(players=tuple(f"P{i}" for i in range(9))))
    with pytest.raises(CompanionError, match="table name"):
        TournamentBook(db).create(Settings(players=("A", "B"), tables=("table 1",)))


def test_results_from_a_table_must_be_its_match(tmp_path: Path) -> None:
    with TournamentBook(tmp_path / "games.db") as book:
        tid = book.create(Settings(players=("Ada", "Bo", "Cy", "Di"), seed=3,
                                   tables=("north",)))
        loaded = book.load(tid)
        assert table_names(loaded.settings, 2) == ["north", "table-1"]
        for name in ("Ada", "Bo", "Cy", "Di"):
            choose_first(book, loaded.tournament, tid, name)
        loaded, _ = book.act(tid, "end-deck-phase")
        north = loaded.match_at("north")
        assert north is not None and loaded.table_of(north) == "north"
        with pytest.raises(TournamentError, match="no match at 'south'"):
            book.record_result(tid, "south", (north.a, north.b), "p1", {}, Link("south"))
        with pytest.raises(TournamentError, match="seats"):
            book.record_result(tid, "north", (north.b, north.a), "p1", {}, Link("north"))
        loaded, trophy = book.record_result(tid, "north", (north.a, north.b), "p2",
                                            {"p1": 2, "p2": 1}, Link("north", 17, "t:db:1"))
        assert trophy is not None and loaded.tournament.results[north] == north.b
        assert loaded.tournament.seats[north.a].fan_tokens == 2
        assert loaded.tournament.seats[north.b].fan_tokens == 1
        assert loaded.tournament.seats[north.b].trophies == [trophy]
        row = next(m for m in loaded.view()["matches"] if m["table"] == "north")
        assert row["link"] == {"table": "north", "game_id": 17, "origin": "t:db:1"}
        with pytest.raises(TournamentError, match="has a result already"):
            book.record_result(tid, "north", (north.a, north.b), "p1", {}, Link("north"))


def _played_game(store: Store, config: object, seed: int) -> int:
    """A whole match recorded like a table would: moves with the state after each."""
    game = Game(config)  # type: ignore[arg-type]
    gid = store.start_game(GameHeader(game="challengers", players=game.config.players))
    rng = random.Random(seed)
    while game.outcome() is None:
        game.push(rng.choice(game.legal_moves), "person")
        scores = {p: s.value for p, s in game.scores().items()}
        store.append(gid, "move", "person", {"move": game.log[-1].move.to_dict(),
                                             "state": {"scores": scores}})
    outcome = game.outcome()
    assert outcome is not None
    store.finish(gid, outcome.to_dict())
    return gid


def test_cli_runs_a_round_with_results_by_hand_and_from_a_recorded_game(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    run = CliRunner().invoke
    out = run(cli, ["tournament", "new", "Ada,Bo,Cy,Di", "--seed", "5", "--db", db])
    assert out.exit_code == 0, out.output
    assert "table-1: " in out.output and "fans hidden" in out.output
    book = TournamentBook(db)
    tid = book.latest()
    assert tid is not None
    for name in ("Ada", "Bo", "Cy", "Di"):
        out = run(cli, ["tournament", "offer", name, "--db", db])
        assert out.exit_code == 0 and "strength" in out.output, out.output
        t = book.load(tid).tournament
        keep = t.phases[name].offer[:1]
        owed = t.removals_owed(keep)
        args = ["tournament", "choose", name, "--keep", keep[0], "--db", db]
        for uid in (t.seats[name].deck + keep)[:owed]:
            args += ["--remove", uid]
        out = run(cli, args)
        assert out.exit_code == 0, out.output
    out = run(cli, ["tournament", "offer", "Ada", "--db", db])
    assert out.exit_code == 1 and "not possible" not in out.output and "already" in out.output
    out = run(cli, ["tournament", "play", "--hall", "nats://hall.local:4222", "--db", db])
    assert out.exit_code == 0 and "--table table-2" in out.output, out.output
    out = run(cli, ["tournament", "decks", "--out", str(tmp_path / "decks"), "--db", db])
    assert out.exit_code == 0 and (tmp_path / "decks" / "ada.yaml").is_file(), out.output
    loaded = book.load(tid)
    from companion.server.commands import _parse_decks  # what `serve --deck` reads

    read = _parse_decks((f"p1={tmp_path / 'decks' / 'ada.yaml'}",
                         f"p2={tmp_path / 'decks' / 'bo.yaml'}"), "challengers")
    assert sorted(read["p1"]) == sorted(loaded.tournament.seats["Ada"].deck)
    assert sorted(read["p2"]) == sorted(loaded.tournament.seats["Bo"].deck)
    first, second = loaded.tournament.matches
    # table-1 by hand
    out = run(cli, ["tournament", "result", "--table", "table-1", "--winner", first.b,
                    "--fans", f"{first.a}=1", "--trophy", "3", "--db", db])
    assert out.exit_code == 0 and "trophy of round 1: 3 fans" in out.output, out.output
    # table-2 from a game recorded in the same library
    with Store(db) as store:
        gid = _played_game(store, loaded.tournament.match_config(second), seed=9)
        outcome = store.game(gid).outcome
    out = run(cli, ["tournament", "result", "--game", str(gid), "--db", db])
    assert out.exit_code == 0, out.output
    loaded = book.load(tid)
    winner = second.a if outcome["winner"] == "p1" else second.b
    assert loaded.tournament.results[second] == winner
    assert loaded.links[(1, second.a, second.b)].game_id == gid
    assert loaded.tournament.seats[first.a].fan_tokens == 1
    assert [tr.fans for tr in loaded.tournament.seats[first.b].trophies] == [3]
    out = run(cli, ["tournament", "next", "--db", db])
    assert out.exit_code == 0 and "round 2 (level B), deck stage" in out.output, out.output
    out = run(cli, ["tournament", "list", "--db", db])
    assert out.exit_code == 0 and f"#{tid} " in out.output
    book.close()


def test_next_round_waits_for_every_result_and_names_the_tables_still_playing(
        tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    run = CliRunner().invoke
    out = run(cli, ["tournament", "new", "Ada,Bo,Cy,Di,Ed,Fe", "--seed", "3", "--tables",
                    "north,south,east", "--db", db])
    assert out.exit_code == 0, out.output
    with TournamentBook(db) as book:
        tid = book.latest()
        assert tid is not None
        for name in ("Ada", "Bo", "Cy", "Di", "Ed", "Fe"):
            choose_first(book, book.load(tid).tournament, tid, name)
        book.act(tid, "end-deck-phase")
        first, second, third = book.load(tid).tournament.matches
    out = run(cli, ["tournament", "result", "--table", "south", "--winner", second.a,
                    "--db", db])
    assert out.exit_code == 0, out.output
    assert "still playing: north, east" in out.output
    steps = TournamentBook(db).step_count(tid)
    out = run(cli, ["tournament", "next", "--db", db])
    assert out.exit_code == 1
    assert "round 1 is not over: 1 of 3 results are in; still playing: " \
           f"north ({first.a} - {first.b}), east ({third.a} - {third.b})" in out.output
    with TournamentBook(db) as book:  # refused: nothing stored, still round 1
        assert book.step_count(tid) == steps
        loaded = book.load(tid)
        assert (loaded.tournament.round, loaded.tournament.stage) == (1, "match")
        assert loaded.view()["still_playing"] == ["north", "east"]
        with pytest.raises(TournamentError, match=r"still playing: north .*, east "):
            book.act(tid, "end-match-phase")
    for table, match in (("north", first), ("east", third)):
        out = run(cli, ["tournament", "result", "--table", table, "--winner", match.b,
                        "--db", db])
        assert out.exit_code == 0, out.output
    assert "every result is in (next: companion tournament next)" in out.output
    out = run(cli, ["tournament", "next", "--db", db])
    assert out.exit_code == 0 and "round 2 (level B), deck stage" in out.output, out.output
