"""Things the camera sees in one change happened in some order, across phases too: the
interpreter takes an order the rules allow (Fire Emblem Cipher: "Bondphase", then
"Aufmarschphase"; a bond laid and a unit deployed with it seen together are legal in that
order) rather than recording the rule-breaking order it read first."""

from __future__ import annotations

from companion.engine.game import Game
from companion.engine.interpreter import Interpreter
from companion.referee.script import config_from_script
from companion.server.live_setup import demo_script_path
from companion.sim.script import load_script
from companion.sim.source import script_snapshots


def test_a_bond_and_a_deploy_seen_together_are_read_in_the_phases_order() -> None:
    script = load_script(demo_script_path("fire-emblem-cipher"))
    snaps = script_snapshots(script)
    # the steps whose tables show Bo's bond laid and its phase ended: their tables are
    # never seen alone (the camera settles only once Cherche is deployed beside it)
    bond = next(i for i, s in enumerate(script.steps)
                if "B01-093#1" in s.place)
    game = Game(config_from_script(script))
    interpreter = Interpreter(game, snaps[0])
    for k in range(1, bond + 4):  # up to the deploy (the script's own violations come later)
        if k in (bond + 1, bond + 2):
            continue
        seen = interpreter.observe(snaps[k])
        assert seen.violations == [], (k, [v.code for v in seen.violations])
        if k == bond + 3:
            kinds = [e.move.kind for e in seen.entries if e.source != "automatic"]
            assert kinds.index("bond") < kinds.index("deploy")
