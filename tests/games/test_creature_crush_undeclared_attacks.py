"""Creature Crush attacks nobody declared, followed from the camera alone (issue 30, item 3).

The oracle is the rulebook ("Wer kann wen angreifen?", "Angreifen und Verteidigen",
Nachtragend): columns face each other as p1.X1-p2.X3, p1.X2-p2.X2, p1.X3-p2.X1; an A creature
attacks the enemy opposite in B, a B creature the enemies opposite in A or B; the cost is paid
again with dice adding up exactly; the target takes the attacker's attack as damage and is
destroyed at damage >= life; a Nachtragend target deals its attack back. Each position is fed
to the interpreter as a camera would see it: no presses, no declaration unless the test says.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.api import PLAYERS, LogEntry
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter, Observation
from companion.games.creature_crush import board as bd
from companion.referee.script import (
    config_from_script,
    declared_moves,
    referee_script,
    resolve_refs,
)
from companion.sim.script import load_script
from companion.sim.table_state import apply_step, initial_table, visible_snapshot
from tests.games.test_creature_crush_interpreter import DECLARED, Camera, declared, differences

P1_CAMP = ["CC-001", "CC-006", "CC-011", "CC-021", "CC-041"]
P2_CAMP = ["CC-003", "CC-008", "CC-018", "CC-023", "CC-033"]

# Kieselkauz 5/3/4, Dornwurm 5/3/4, Schattengolem 5/3/4, Schattenpilz 3/2/3 (cost/attack/life);
# Nebelraupe 5/3/6, Flammhydra 3/3/4 Nachtragend, Kieselhydra 3/3/2.
KIESELKAUZ, DORNWURM, SCHATTENGOLEM = "CC-036#1", "CC-037#1", "CC-031#1"
NEBELRAUPE, FLAMMHYDRA, KIESELHYDRA = "CC-038#1", "CC-013#1", "CC-014#1"


class Followed:
    """A script position followed step by step through the interpreter, nobody pressing."""

    def __init__(self, tmp_path: Path, table: dict[str, list[str]], dice: dict[str, int],
                 camps: dict[str, list[str]] | None = None,
                 hands: dict[str, int] | None = None) -> None:
        script: dict[str, Any] = {
            "game": "creature-crush", "players": ["Ada", "Bo"], "first": "p1", "seed": 3,
            "decks": camps if camps is not None else {"p1": P1_CAMP, "p2": P2_CAMP},
            "setup": {"turn": 3, "active": "p1", "phase": "kampf", "table": table,
                      "hands": hands if hands is not None else {"p1": 2, "p2": 2},
                      "dice": dice},
            "steps": [],
        }
        self.path = tmp_path / "position.yaml"
        self.script = script

    def run(self, *steps: dict[str, Any]) -> list[Observation]:
        """Feed the steps; a question is left open (nobody answers at the table)."""
        self.script["steps"] = list(steps)
        self.path.write_text(yaml.safe_dump(self.script, sort_keys=False))
        loaded = load_script(self.path)
        table = initial_table(loaded)
        self.game = Game(config_from_script(loaded))
        self.interpreter = Interpreter(self.game, visible_snapshot(table, 0, 0.0))
        seen = []
        for step in loaded.steps:
            for move in declared_moves(self.game, step.declare, []):
                self.interpreter.person(resolve_refs(self.game, move))
            table = apply_step(table, step)
            seen.append(self.interpreter.observe(
                visible_snapshot(table, step.index, float(step.index)), "camera",
                dict(step.declare)))
        return seen

    @property
    def log(self) -> list[LogEntry]:
        return list(self.game.log)

    def attacks(self) -> list[tuple[str, str | None, str]]:
        return [(e.move.card, e.move.target, e.source) for e in self.log
                if e.move.kind == "attack"]

    def damage(self) -> dict[str, int]:
        return dict(self.game.ruleset.expect_value(self.game.state, "damage"))

    def violations(self) -> list[str]:
        return [v.code for e in self.log for v in e.violations if v.blocking]


def test_the_one_attacker_the_columns_allow_is_read(tmp_path: Path) -> None:
    """A 5 burned and 3 damage on Nebelraupe (Bo's B3): three creatures of Ada cost 5 and
    have attack 3, but only Kieselkauz in A1 faces Bo's B3."""
    followed = Followed(tmp_path, {"p1.A1": ["CC-036"], "p1.B1": ["CC-016"],
                                   "p1.B2": ["CC-031"], "p1.B3": ["CC-037"],
                                   "p2.B3": ["CC-038"]},
                        {"p1.w1": 5, "p1.w2": 2})
    seen = followed.run({"burn": ["p1.w1"], "dice": {"p2.r1": 3}, "on": {"p2.r1": "CC-038"}})
    assert seen[0].question is None and not seen[0].unexplained
    assert followed.attacks() == [(KIESELKAUZ, NEBELRAUPE, "camera")]
    assert followed.violations() == []
    assert followed.damage() == {NEBELRAUPE: 3}
    assert followed.game.state.flags["dice"]["p1"] == {"p1.w2": 2}  # the 5 paid for it


def test_nachtragend_hitting_back_names_the_attacker(tmp_path: Path) -> None:
    """Kieselkauz (A2) and Schattengolem (B2) both face Flammhydra in Bo's B2 and cost 5; the
    3 damage Flammhydra deals back lies on Kieselkauz, so Kieselkauz attacked."""
    followed = Followed(tmp_path, {"p1.A2": ["CC-036"], "p1.B2": ["CC-031"],
                                   "p2.B2": ["CC-013"]},
                        {"p1.w1": 5, "p1.w2": 1})
    seen = followed.run({"burn": ["p1.w1"], "dice": {"p2.r1": 3, "p1.r1": 3},
                         "on": {"p2.r1": "CC-013", "p1.r1": "CC-036"}})
    assert seen[0].question is None
    assert followed.attacks() == [(KIESELKAUZ, FLAMMHYDRA, "camera")]
    assert followed.violations() == []
    assert followed.damage() == {FLAMMHYDRA: 3, KIESELKAUZ: 3}


def test_two_attackers_that_fit_are_asked(tmp_path: Path) -> None:
    """Kieselkauz (A1: the enemy opposite in B) and Dornwurm (B1: the enemies opposite) both
    reach Nebelraupe in Bo's B3 and both cost 5: the camera cannot tell which attacked."""
    followed = Followed(tmp_path, {"p1.A1": ["CC-036"], "p1.B1": ["CC-037"],
                                   "p2.B3": ["CC-038"]},
                        {"p1.w1": 5, "p1.w2": 2})
    seen = followed.run({"burn": ["p1.w1"], "dice": {"p2.r1": 3}, "on": {"p2.r1": "CC-038"}})
    question = seen[0].question
    assert question is not None
    attackers = {m.card for c in question.choices for m in c.moves if m.kind == "attack"}
    assert attackers == {KIESELKAUZ, DORNWURM}
    assert followed.attacks() == [] and followed.damage() == {}
    picked = next(i for i, c in enumerate(question.choices)
                  if any(m.card == DORNWURM for m in c.moves))
    followed.interpreter.answer(picked)
    assert followed.attacks() == [(DORNWURM, NEBELRAUPE, "person")]
    assert followed.damage() == {NEBELRAUPE: 3} and followed.violations() == []


@pytest.mark.parametrize("attackers,decided", [
    ({"p1.A1": ["CC-036"], "p1.B3": ["CC-037"]}, True),   # only Kieselkauz faces Bo's B3
    ({"p1.A1": ["CC-036"], "p1.B1": ["CC-037"]}, False),  # Dornwurm in B1 faces it too
])
def test_a_win_is_read_only_from_the_one_legal_attack(
        tmp_path: Path, attackers: dict[str, list[str]], decided: bool) -> None:
    """Bo's last card, Kieselhydra (life 2), goes to his hell: "Alle Karten deines
    Widersachers befinden sich in der Hölle" - Ada wins only if one attack explains it."""
    followed = Followed(tmp_path, {**attackers, "p2.B3": ["CC-014"]},
                        {"p1.w1": 5, "p1.w2": 2}, camps={"p1": P1_CAMP, "p2": []},
                        hands={"p1": 2, "p2": 0})
    seen = followed.run({"burn": ["p1.w1"], "place": {"CC-014": "p2.hell"}},
                        {"burn": ["p1.w2"]})
    outcome = followed.game.outcome()
    if decided:
        assert seen[0].question is None
        assert followed.attacks() == [(KIESELKAUZ, KIESELHYDRA, "camera")]
        assert outcome is not None and outcome.winner == "p1"
    else:
        assert seen[0].question is not None
        assert outcome is None  # nobody answered, the next change came: no win assumed
        assert followed.attacks() == []


@pytest.mark.parametrize("table,dice,shown", [
    # Kieselkauz faces Nebelraupe but has attack 3, the die shows 2
    ({"p1.A1": ["CC-036"]}, {"p1.w1": 5}, 2),
    # the only creature a 5 pays (Dornwurm, B3) faces Bo's column 1, not Nebelraupe in B3
    ({"p1.B3": ["CC-037"]}, {"p1.w1": 5}, 3),
    # Kieselkauz faces it, but the die burned (4) does not pay its cost 5
    ({"p1.A1": ["CC-036"]}, {"p1.w1": 4}, 3),
])
def test_a_damage_no_allowed_attack_gives_stays_a_violation(
        tmp_path: Path, table: dict[str, list[str]], dice: dict[str, int], shown: int) -> None:
    followed = Followed(tmp_path, {**table, "p2.B3": ["CC-038"]}, dice)
    seen = followed.run({"burn": ["p1.w1"], "dice": {"p2.r1": shown},
                         "on": {"p2.r1": "CC-038"}})
    assert seen[0].question is None
    assert followed.attacks() == []
    assert followed.violations() == ["cc.damage-mismatch"]


def test_a_creature_the_attack_destroys_is_not_left_alive_under_its_dice(
        tmp_path: Path) -> None:
    """Nebelraupe (life 6) with 3 damage shows 2 more: Kieselkauz's 3 would have destroyed it
    ("fällt ihr Leben genau auf 0, dann wird sie zerstört"), and it still lies there."""
    followed = Followed(tmp_path, {"p1.A1": ["CC-036"], "p2.B3": ["CC-038"]},
                        {"p1.w1": 5})
    followed.script["setup"]["dice"] = {"p1.w1": 5, "p2.r1": 3}
    followed.script["setup"]["on"] = {"p2.r1": "CC-038"}
    followed.run({"burn": ["p1.w1"], "dice": {"p2.r2": 2}, "on": {"p2.r2": "CC-038"}})
    assert followed.attacks() == []
    assert followed.violations() == ["cc.damage-mismatch"]
    assert followed.game.state.where[NEBELRAUPE] == "p2.B3"


def test_a_declared_attack_is_kept(tmp_path: Path) -> None:
    """Both Kieselkauz and Dornwurm could have attacked Nebelraupe; Ada says Dornwurm did:
    that attack is recorded, no question, no second attack read from the dice."""
    followed = Followed(tmp_path, {"p1.A1": ["CC-036"], "p1.B1": ["CC-037"],
                                   "p2.B3": ["CC-038"]},
                        {"p1.w1": 5, "p1.w2": 5})
    seen = followed.run({"declare": {"attack": "CC-037", "target": "CC-038"},
                         "burn": ["p1.w1"], "dice": {"p2.r1": 3}, "on": {"p2.r1": "CC-038"}})
    assert seen[0].question is None
    assert followed.attacks() == [(DORNWURM, NEBELRAUPE, "person")]
    assert followed.damage() == {NEBELRAUPE: 3} and followed.violations() == []


def test_the_opening_without_its_declaration_reads_schattengolems_attack(
        tmp_path: Path) -> None:
    """The bundled opening with its one declaration left out: Schattengolem (B1) and
    Flammhydra (Bo's B3) face each other, the burned 5 pays Schattengolem, and Flammhydra's
    Nachtragend 3 lies on it - read as that attack, the two damage dice are no violation."""
    source = Path(__file__).parents[2] / "companion/sim/scripts/creature-crush/opening.yaml"
    declared = "- declare: {attack: CC-031, target: CC-013}\n    burn:"
    text = source.read_text()
    assert declared in text
    undeclared = tmp_path / "opening.yaml"
    undeclared.write_text(text.replace(declared, "- burn:"))
    report = referee_script(str(undeclared), camera_only=True)
    assert report.failures == []
    moves = [e.move for s in report.steps for e in s.moves]
    assert [(m.card, m.target) for m in moves if m.kind == "attack"] == [
        (SCHATTENGOLEM, FLAMMHYDRA)]


@pytest.mark.parametrize("attacker,read", [
    ("p1.A3", True),   # faces Bo's B1: empty, a direct attack is allowed
    ("p1.A1", False),  # faces Bo's B3, where Nebelraupe lies: "nur möglich, wenn ... kein Feind"
])
def test_a_direct_attack_is_read_from_the_camp_top_in_hell(
        tmp_path: Path, attacker: str, read: bool) -> None:
    """A 5 burned and Bo's top camp card face up in his hell: "Greift eine Creature einen
    Spieler direkt an, dann wird dessen oberste Lagerkarte zerstört"."""
    followed = Followed(tmp_path, {attacker: ["CC-036"], "p1.B2": ["CC-016"],
                                   "p2.B3": ["CC-038"]},
                        {"p1.w1": 5})
    seen = followed.run({"burn": ["p1.w1"], "place": {"CC-018": "p2.hell"}})
    assert seen[0].question is None
    if read:
        assert followed.attacks() == [(KIESELKAUZ, "p2", "camera")]
        assert followed.violations() == []
    else:
        assert followed.attacks() == []
        assert followed.violations() != []  # recorded as seen, against the rules
    assert followed.game.state.count("p2.hell") == 1


def follow_without_attacks(seed: int, moves: int = 150) -> tuple[int, int]:
    """A random legal game followed from the camera with no attack declared (presses still
    given); a person answers a question with what really happened, and declares only a direct
    attack on an empty camp. Returns (attacks read, attacks asked)."""
    leader = Game.new("creature-crush", ("A", "B"), seed=seed)
    follower = Game.new("creature-crush", ("A", "B"), seed=seed + 1)
    camera = Camera()
    interpreter = Interpreter(follower, camera.snapshot(leader.state))
    rng = random.Random(seed)
    read = asked = 0
    for _ in range(moves):
        legal = leader.legal_moves
        if not legal or leader.outcome():
            break
        move = rng.choice(legal)
        attack = move.kind == "attack"
        told = not attack or (move.target in PLAYERS
                              and leader.state.count(bd.lager(str(move.target))) == 0)
        leader.push(move)
        if told and move.kind in DECLARED:
            interpreter.person(declared(move))
        seen = interpreter.observe(camera.snapshot(leader.state), "camera")
        if seen.question is not None:
            truth = [i for i, c in enumerate(seen.question.choices)
                     if (move.kind, move.card, move.target) in
                     {(m.kind, m.card, m.target) for m in c.moves}]
            assert attack and len(truth) == 1, (move, seen.question)
            seen = interpreter.answer(truth[0])
            asked += 1
        elif attack and not told:
            assert [(m.card, m.target) for m in seen.moves if m.kind == "attack"] == [
                (move.card, move.target)], move
            read += 1
        assert all(e.legal for e in seen.entries), (move, [e.to_dict() for e in seen.entries])
        assert differences(leader, follower) == [], move
    return read, asked


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 100_000))
def test_random_games_are_followed_without_attack_declarations(seed: int) -> None:
    follow_without_attacks(seed)


def test_most_random_attacks_are_read_without_a_question() -> None:
    """Over seeds 0-19 (measured: 0-199 gave 677 attacks read, 26 asked)."""
    read, asked = map(sum, zip(*(follow_without_attacks(seed) for seed in range(20)),
                               strict=True))
    assert read > 10 * asked > 0
