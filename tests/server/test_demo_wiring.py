"""The demo's wiring on the real engine: script snapshots and the script's declarations (no
phase or turn presses) through the live session reach the same game as the engine's own
script referee with --camera-only; CLI errors."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from companion.games import GAMES
from companion.record.replay import main_line
from companion.record.store import Store
from companion.referee.script import config_from_script, referee_script
from companion.server import live_setup
from companion.server.bus import EventBus
from companion.server.engine_referee import EngineReferee
from companion.server.gamedata import card_lookup, layout_dict
from companion.server.live_setup import ScriptDirector, demo_script_path, header_for
from companion.server.session import LiveSession
from companion.sim.script import load_script
from companion.sim.source import script_snapshots


@pytest.mark.parametrize("game", sorted(GAMES))
def test_session_with_director_matches_the_script_referee(game: str, tmp_path: Path) -> None:
    path = demo_script_path(game)
    script = load_script(path)
    config = config_from_script(script)
    store = Store(tmp_path / "g.db")
    session = LiveSession(EngineReferee(config), store, EventBus(), header_for(config, "t"),
                          layout_dict(game), card_lookup(game, config.cards))
    director = ScriptDirector(script, session)
    snaps = script_snapshots(script)
    session.observe(snaps[0])
    for k in range(1, len(snaps)):
        director.on_frame(SimpleNamespace(step=k - 1))
        session.observe(snaps[k].with_seq(k, float(k)))
    director.on_end()

    report = referee_script(str(path), camera_only=True)  # the demo presses no phase or turn
    last = report.steps[-1]
    status = session.state()["status"]["en"]
    assert (status["phase"], status["active"], status["turn"]) == (
        last.phase, last.active, last.turn)
    wanted = sorted(v.code for s in report.steps for e in s.moves for v in e.violations)
    got = sorted(v["code"] for v in session.state()["violations"])
    assert got == wanted
    assert len(main_line(store.events(session.game_id))) == sum(len(s.moves) for s in report.steps)
    store.close()


def test_demo_without_script_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli import cli

    monkeypatch.setattr(live_setup, "scripts_dir", lambda: tmp_path)
    result = CliRunner().invoke(cli, ["demo", "--no-browser", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 1
    assert "no bundled demo script" in result.output and "Traceback" not in result.output


def test_demo_rejects_bad_speed(tmp_path: Path) -> None:
    from companion.cli import cli

    result = CliRunner().invoke(cli, ["demo", "--speed", "0", "--no-browser",
                                      "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 1 and "--speed must be above 0" in result.output


def test_legal_moves_never_name_a_card_that_is_not_face_up() -> None:
    script = load_script(demo_script_path("trick-or-beat"))
    referee = EngineReferee(config_from_script(script))
    snaps = script_snapshots(script)
    referee.observe(None, snaps[0])
    referee.observe(snaps[0], snaps[1])  # both players hold 15 cards now
    everything = referee.status("en")["legal"]
    assert any("TOB-" in m for m in everything)  # the engine knows the hands...
    shown = referee.status("en", visible=frozenset())["legal"]
    assert not any("TOB-" in m for m in shown)  # ...the page does not tell
    assert "not face up" in shown[-1]
    assert "nicht offen" in referee.status("de", visible=frozenset())["legal"][-1]


def test_a_taken_port_is_a_clear_error_before_anything_is_recorded(tmp_path: Path) -> None:
    import socket

    from companion.errors import CompanionError
    from companion.server.commands import demo

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "games.db"
        result = CliRunner().invoke(demo, ["--no-browser", "--port", str(port), "--db", str(db)])
    assert result.exit_code != 0
    assert isinstance(result.exception, CompanionError) or "cannot listen" in result.output
    assert not db.exists()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_undo_everything_then_redo_everything_on_the_real_engine(
    game: str, tmp_path: Path
) -> None:
    """Every input of a bundled game taken back one by one reaches the opening position;
    redone one by one it reaches the script referee's end again; a restart agrees."""
    path = demo_script_path(game)
    script = load_script(path)
    config = config_from_script(script)
    store = Store(tmp_path / "g.db")

    def new_session(resume: int | None = None) -> LiveSession:
        return LiveSession(EngineReferee(config), store, EventBus(), header_for(config, "t"),
                           layout_dict(game), card_lookup(game, config.cards), resume=resume)

    session = new_session()
    director = ScriptDirector(script, session)
    snaps = script_snapshots(script)
    session.observe(snaps[0])
    opening = session.state()["status"]["en"]
    for k in range(1, len(snaps)):
        director.on_frame(SimpleNamespace(step=k - 1))
        session.observe(snaps[k].with_seq(k, float(k)))
    director.on_end()
    end = session.state()
    last = referee_script(str(path)).steps[-1]
    assert (end["status"]["en"]["phase"], end["status"]["en"]["turn"]) == (last.phase, last.turn)

    undos = 0
    while session.state()["history"]["can_undo"]:
        session.undo()
        undos += 1
    assert undos > 0
    status = session.state()["status"]["en"]
    assert (status["phase"], status["active"], status["turn"]) == (
        opening["phase"], opening["active"], opening["turn"])
    assert main_line(store.events(session.game_id)) == []
    assert session.state()["violations"] == []
    for _ in range(undos):
        session.redo()
    again = session.state()
    for key in ("status", "violations", "log", "table", "game_over"):
        assert again[key] == end[key], key
    restarted = new_session(resume=session.game_id).state()
    for key in ("status", "violations", "log", "table", "history"):
        assert restarted[key] == again[key], key
    store.close()
