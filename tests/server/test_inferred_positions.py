"""Several phase ends inferred from one table change each say where that end led.

The Creature Crush opening: after Ada's summons the camera next sees Bo draw, which fits only
after Ada ended her combat phase (-> tactics phase) and then her tactics phase (-> Bo's start
phase). The rulebook's order of phases (Start, Kampf, Taktik) is the oracle, not the engine.
"""

from __future__ import annotations

from pathlib import Path

from companion.referee.script import camera_steps, config_from_script
from companion.server.engine_referee import EngineReferee
from companion.sim.script import load_script
from companion.sim.table_state import apply_step, initial_table, visible_snapshot

OPENING = (Path(__file__).resolve().parents[2] / "companion" / "sim" / "scripts"
           / "creature-crush" / "opening.yaml")


def test_each_inferred_end_shows_the_phase_it_led_to() -> None:
    script = load_script(OPENING)
    referee = EngineReferee(config_from_script(script))
    table = initial_table(script)
    before = visible_snapshot(table, 0, 0.0)
    referee.observe(None, before)
    chains: list[list[tuple[str, str]]] = []
    for step, _skipped in camera_steps(script.steps):
        if step is None:
            continue
        table = apply_step(table, step)
        after = visible_snapshot(table, step.index, float(step.index))
        reaction = referee.observe(before, after)
        before = after
        ends = [(a.state["active"], a.state["phase"]) for a in reaction.applied
                if a.source == "automatic" and a.move.kind in ("next-phase", "pass")]
        if len(ends) >= 2:
            chains.append(ends)
    assert chains, "the opening has a table change explained by two phase ends"
    first = chains[0]
    # Ada's combat phase ends into her tactics phase, her tactics phase into Bo's start phase
    assert first[0] == ("p1", "taktik")
    assert first[1] == ("p2", "start")
