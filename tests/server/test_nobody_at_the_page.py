"""Every bundled opening followed from its true tables with nobody at the page: no press, no
declaration, no answer. Questions stay open and their readings are assumed (and weighed
again in hindsight); the page must show exactly the violations the script's rulebook
`expect`s name, and the final turn, player, phase and scores the script reaches."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import GAMES
from companion.record.store import Store
from companion.referee.script import config_from_script, referee_script
from companion.server.bus import EventBus
from companion.server.engine_referee import EngineReferee
from companion.server.gamedata import card_lookup, layout_dict
from companion.server.live_setup import demo_script_path, header_for
from companion.server.session import LiveSession
from companion.sim.script import load_script
from companion.sim.source import script_snapshots


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_opening_with_nobody_at_the_page_shows_exactly_the_named_violations(
    game: str, tmp_path: Path
) -> None:
    path = demo_script_path(game)
    script = load_script(path)
    config = config_from_script(script)
    session = LiveSession(EngineReferee(config), Store(tmp_path / "g.db"), EventBus(),
                          header_for(config, "t"), layout_dict(game),
                          card_lookup(game, config.cards))
    for k, snap in enumerate(script_snapshots(script)):
        session.observe(snap.with_seq(k, float(k)))

    report = referee_script(str(path), camera_only=True)
    named = sorted(v.code for s in report.steps for e in s.moves for v in e.violations)
    state = session.state()
    assert sorted(v["code"] for v in state["violations"]) == named
    last = report.steps[-1]
    status = state["status"]["en"]
    assert (status["turn"], status["active"], status["phase"]) == (
        last.turn, last.active, last.phase)
    assert {s["player"]: s["value"] for s in status["scores"]} == dict(last.scores)
