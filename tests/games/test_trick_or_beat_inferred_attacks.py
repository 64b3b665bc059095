"""Trick or Beat: an attack nobody declared, inferred from the defeat the camera saw (issue 30).

The oracle is the German rulebook's "Angriffe": "Nur Wesen auf der aktiven Lane können ein
mal pro Zug angreifen", "Bestimme beliebig viele Angreifer", "Wenn sich Wesen auf der aktiven
Lane deines Gegners befinden, kannst du kein passives Wesen angreifen", "Addiere die
Angriffstärken aller Angreifer" and "Wenn die gesamte Angriffstärke mindestens so groß ist
wie die Überlebenspunkte des Zieles, lege das Ziel auf den Ablagestapel". A leader `Game`
plays the true moves; a follower sees only the camera's view of its table, and nobody
declares anything unless a test says so. The made-up cards' numbers are written beside each
position, so every sum below can be checked by hand.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.engine.api import Move
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter, Observation
from companion.referee.script import referee_script
from tests.engine.tob_fixtures import CARDS
from tests.engine.tob_fixtures import DECK as CAMERA_DECK
from tests.games.test_trick_or_beat_interpreter import (
    camera,
    leader_and_follower,
    public_table,
)

FURY = {"id": "XF", "name": "Fury", "type": "creature", "attack": 3, "survival": 4,
        "faction": "Gehirn",
        "effects": [{"kind": "combat", "lane": "active", "do": "modify_attack", "amount": 2,
                     "target": "attackers"}]}
"""A creature with "Aktiv, im Angriff: die Angreifer +2 Angriff"."""
ALL_CARDS = [*CARDS, FURY]
DECK = [f"{c['id']}#{n}" for c in ALL_CARDS for n in range(1, 7)]
# attack / survival: XA 4/3, XB 2/5, XC 3/4, XD 1/2 (+3 survival to a defender, in combat),
# XF 3/4 (+2 attack to the attackers, in combat); XE equipment: +2 survival

SCRIPT = Path(__file__).parents[2] / \
    "companion/sim/scripts/trick-or-beat/rules-undeclared-attack.yaml"


def position(phase: str = "main", **table: Any) -> dict[str, Any]:
    """Ada's third turn (no first-turn malus; fewer than 4 trick cards: no attack bonus)."""
    return {"turn": 3, "active": "p1", "phase": phase, "hands": {"p1": 3, "p2": 3},
            "table": {k.replace("_", "."): v for k, v in table.items()}}


def pair(setup: dict[str, Any]) -> tuple[Game, Game, Interpreter]:
    """A leader that plays and a follower that sees the leader's table through a camera."""
    leader = Game.new("trick-or-beat", decks={"shared": DECK}, seed=3, setup=setup,
                      cards=ALL_CARDS)
    follower = Game.new("trick-or-beat", decks={"shared": DECK}, seed=4, setup=setup,
                        cards=ALL_CARDS)
    return leader, follower, Interpreter(follower, camera(leader.state))


def attacks(seen: Observation) -> list[tuple[tuple[str, ...], str | None]]:
    return [(m.cards, m.target) for m in seen.moves if m.kind == "attack"]


def codes(seen: Observation) -> list[str]:
    return [v.code for v in seen.violations if v.blocking]


def test_the_only_attack_that_defeats_is_inferred() -> None:
    """Bear (survival 5) goes to the discard pile. Axolotl alone has 4, Ada's Bear alone 2:
    only both together (6) reach 5, so that is the attack, recorded as inferred with why;
    both attacked this turn, and Axolotl attacking again is `tob.attacker-used`."""
    setup = position(p1_active=["XA#1", "XB#1"], p1_passive=["XC#1"],
                     p2_active=["XB#2", "XA#2"], p2_passive=["XD#1"])
    leader, follower, interp = pair(setup)
    assert leader.push(Move("attack", "p1", ("XA#1", "XB#1"), target="XB#2")) == []
    assert leader.state.where["XB#2"] == "shared.discard"
    seen = interp.observe(camera(leader.state), "camera")
    assert seen.question is None
    assert attacks(seen) == [(("XA#1", "XB#1"), "XB#2")]
    assert all(e.legal for e in seen.entries)
    assert "the only legal explanation" in seen.entries[-1].decisions
    said = follower.ruleset.describe(seen.moves[-1], "en")
    assert "inferred: the only legal attack that defeats XB#2" in said
    assert "erschlossen" in follower.ruleset.describe(seen.moves[-1], "de")
    assert follower.state.where["XB#2"] == "shared.discard"
    again = follower.check(Move("attack", "p1", ("XA#1",), target="XA#2"))
    assert [v.code for v in again] == ["tob.attacker-used"]


def test_an_attackers_combat_ability_is_used_when_the_defeat_needs_it() -> None:
    """"Du kannst jede kämpferische Fähigkeit ... einmal pro Angriff einsetzen": Fury (3)
    with its own "die Angreifer +2" reaches Bear's 5; without it nothing does. The inferred
    attack uses it; the defender's Dove (+3 survival "wenn du es möchtest") was not used."""
    setup = position(p1_active=["XF#1"], p1_passive=["XC#1"],
                     p2_active=["XB#2"], p2_passive=["XD#1"])
    leader, follower, interp = pair(setup)
    leader.push(Move("attack", "p1", ("XF#1",), target="XB#2", options=(("combat", "XF#1/0"),)))
    assert leader.state.where["XB#2"] == "shared.discard"
    seen = interp.observe(camera(leader.state), "camera")
    assert attacks(seen) == [(("XF#1",), "XB#2")]
    assert seen.moves[-1].option("combat") == "XF#1/0"
    assert all(e.legal for e in seen.entries)
    assert follower.state.where["XB#2"] == "shared.discard"


def test_an_equipped_target_goes_with_its_equipment() -> None:
    """Armour (+2 survival) makes Axolotl's 3 a 5: Ada's Axolotl (4) alone falls short, with
    her Bear (2) it is 6. Equipment "wird auf den Ablagestapel gelegt, wenn das Wesen besiegt
    wird": the armour on the pile is part of that defeat, no card moved without a rule."""
    setup = {**position(p1_active=["XA#1", "XB#1"], p2_active=["XA#2", "XE#1"],
                        p2_passive=["XB#2"]), "on": {"XE#1": "XA#2"}}
    leader, follower, interp = pair(setup)
    assert leader.push(Move("attack", "p1", ("XA#1", "XB#1"), target="XA#2")) == []
    seen = interp.observe(camera(leader.state), "camera")
    assert attacks(seen) == [(("XA#1", "XB#1"), "XA#2")]
    assert all(e.legal for e in seen.entries) and codes(seen) == []
    assert follower.state.where["XE#1"] == "shared.discard"


def test_a_creature_beneath_its_equipment_on_the_pile_was_defeated() -> None:
    """The same defeat with the armour laid on top of the pile: the camera sees the armour
    arrive and Axolotl seen nowhere. Equipment goes to the discard pile when its creature is
    defeated, so Axolotl lies beneath it: the same only attack, nothing taken to a hand."""
    setup = {**position(p1_active=["XA#1", "XB#1"], p2_active=["XA#2", "XE#1"],
                        p2_passive=["XB#2"]), "on": {"XE#1": "XA#2"}}
    leader, follower, interp = pair(setup)
    assert leader.push(Move("attack", "p1", ("XA#1", "XB#1"), target="XA#2")) == []
    leader.state.move("XE#1", "shared.discard")  # laid last: on top
    assert leader.state.top("shared.discard") == "XE#1"
    seen = interp.observe(camera(leader.state), "camera")
    assert attacks(seen) == [(("XA#1", "XB#1"), "XA#2")]
    assert all(e.legal for e in seen.entries) and codes(seen) == []
    assert follower.state.where["XA#2"] == follower.state.where["XE#1"] == "shared.discard"


def test_two_attacks_that_defeat_ask_one_question() -> None:
    """Axolotl (survival 3) goes: Ada's Axolotl alone (4) defeats it, and so does Axolotl
    with Bear (6); Bear alone (2) does not. Two attacks fit: one question, nothing applied
    before the answer, fewest attackers first (the default: it claims least)."""
    setup = position(p1_active=["XA#1", "XB#1"], p2_active=["XA#2", "XB#2"])
    leader, follower, interp = pair(setup)
    leader.push(Move("attack", "p1", ("XA#1", "XB#1"), target="XA#2"))
    seen = interp.observe(camera(leader.state), "camera")
    assert seen.question is not None and seen.entries == ()
    readings = [[(m.kind, m.cards, m.target) for m in c.moves] for c in seen.question.choices]
    assert readings == [[("attack", ("XA#1",), "XA#2")],
                        [("attack", ("XA#1", "XB#1"), "XA#2")]]
    assert seen.question.default == 0
    assert follower.state.where["XA#2"] == "p2.active"
    answered = interp.answer(1)
    assert [(m.cards, m.target) for m in answered.moves] == [(("XA#1", "XB#1"), "XA#2")]
    assert follower.state.where["XA#2"] == "shared.discard"


def test_several_attacks_that_would_win_wait_for_a_person() -> None:
    """Bo's last creature (Axolotl, 3) goes; Axolotl (4) or Crow (3) or both defeat it, and
    each would win by Beat ("alle liegenden Wesen deines Gegners besiegt"). A win is never
    given on a reading that is not the only one: the game goes on unwon until answered."""
    setup = position(p1_active=["XA#1", "XC#1"], p2_active=["XA#2"])
    leader, follower, interp = pair(setup)
    leader.push(Move("attack", "p1", ("XA#1",), target="XA#2"))
    assert leader.outcome() is not None
    seen = interp.observe(camera(leader.state), "camera")
    assert seen.question is not None and len(seen.question.choices) == 3
    assert follower.outcome() is None
    laid = next(u for u in leader.state.cards_in("shared.deck") if u in CAMERA_DECK)
    leader.state.move(laid, "p1.trick")  # the table goes on: a card on Ada's trick pile
    interp.observe(camera(leader.state), "camera")
    assert follower.outcome() is None


def test_the_only_attack_that_wins_wins() -> None:
    """Bo's last creature is Bear (5); only Ada's Axolotl and Crow together (7) defeat it:
    the only legal explanation, and Ada wins by Beat."""
    setup = position(p1_active=["XA#1", "XC#1"], p2_active=["XB#2"])
    leader, follower, interp = pair(setup)
    leader.push(Move("attack", "p1", ("XA#1", "XC#1"), target="XB#2"))
    seen = interp.observe(camera(leader.state), "camera")
    assert attacks(seen) == [(("XA#1", "XC#1"), "XB#2")]
    outcome = follower.outcome()
    assert outcome is not None and outcome.winner == "p1" and outcome.reason == "beat"


def remove(leader: Game, uid: str) -> None:
    """The creature goes to the discard pile with no rule that sends it there."""
    leader.push(Move("remove", "p2", (uid,), to="shared.discard"))


@pytest.mark.parametrize(("why", "phase", "table"), [
    ("attack sum too low: Bear 2 + Dove 1 < Bear's 5", "main",
     {"p1_active": ["XB#1", "XD#2"], "p2_active": ["XB#2"]}),
    ("attackers on the passive lane cannot attack", "main",
     {"p1_active": [], "p1_passive": ["XA#1", "XC#1"], "p2_active": ["XA#2"]}),
    ("a passive target while Bo's active lane holds a creature", "main",
     {"p1_active": ["XA#1", "XC#1"], "p2_active": ["XB#2"], "p2_passive": ["XA#2"]}),
    ("the end phase comes after the main phase: no attack any more", "end",
     {"p1_active": ["XA#1", "XC#1"], "p2_active": ["XA#2", "XB#2"]}),
])
def test_an_impossible_defeat_is_recorded_with_its_violation(
        why: str, phase: str, table: dict[str, list[str]]) -> None:
    """No legal attack reaches the creature: it is recorded as seen, `tob.unexplained`,
    not explained away by an attack the rules do not allow."""
    setup = position(phase, **table)
    target = "XA#2" if "XA#2" in str(table) else "XB#2"
    leader, follower, interp = pair(setup)
    remove(leader, target)
    seen = interp.observe(camera(leader.state), "camera")
    assert seen.question is None, why
    assert attacks(seen) == [], why
    assert codes(seen) == ["tob.unexplained"], why
    assert follower.state.where[target] == "shared.discard"


def test_an_attacker_that_attacked_this_turn_attacks_no_more() -> None:
    """"ein mal pro Zug": Axolotl attacked Bear (4 < 5, no effect); then Bo's Axolotl (3)
    goes. Only Ada's Axolotl could have defeated it, and it has attacked: no attack explains
    it."""
    setup = position(p1_active=["XA#1", "XB#1"], p2_active=["XA#2", "XB#2"])
    leader, follower, interp = pair(setup)
    weak = Move("attack", "p1", ("XA#1",), target="XB#2")
    leader.push(weak)
    interp.person(weak)
    remove(leader, "XA#2")
    seen = interp.observe(camera(leader.state), "camera")
    assert attacks(seen) == [] and codes(seen) == ["tob.unexplained"]
    assert follower.state.where["XA#2"] == "shared.discard"  # recorded as seen


def test_a_defeat_in_the_lane_phase_shows_the_main_phase_began() -> None:
    """Attacks belong to the main phase ("Hauptphase: ... greife an"). Seen in the lane phase,
    nobody having pressed anything, the defeat shows Ada moved on: the end of the lane phase
    is inferred, then the only attack that defeats Bear (Axolotl and Bear, 6)."""
    setup = position("lane", p1_active=["XA#1", "XB#1"], p2_active=["XB#2", "XA#2"])
    leader, follower, interp = pair(setup)
    leader.push(Move("next-phase", "p1"))
    leader.push(Move("attack", "p1", ("XA#1", "XB#1"), target="XB#2"))
    seen = interp.observe(camera(leader.state), "camera")
    assert [m.kind for m in seen.moves] == ["next-phase", "attack"]
    assert attacks(seen) == [(("XA#1", "XB#1"), "XB#2")]
    assert follower.phase == "main" and all(e.legal for e in seen.entries)


def test_a_declared_attack_is_kept() -> None:
    """A person's word wins over the inference. Declared: Axolotl and Bear attack Bo's
    Axolotl, where Axolotl alone would have done too: no question, the declared attackers
    are the ones that attacked."""
    setup = position(p1_active=["XA#1", "XB#1"], p2_active=["XA#2", "XB#2"])
    leader, follower, interp = pair(setup)
    declared = Move("attack", "p1", ("XA#1", "XB#1"), target="XA#2")
    leader.push(declared)
    interp.person(declared)
    seen = interp.observe(camera(leader.state), "camera", {"attack": ["XA#1", "XB#1"],
                                                          "target": "XA#2"})
    assert seen.question is None and attacks(seen) == []
    assert [(e.move.kind, e.source) for e in follower.log[-1:]] == [("attack", "person")]
    assert follower.state.counter("turn", "attacked:XB#1") == 1


def test_a_declared_weak_attack_is_not_explained_away() -> None:
    """Declared in the same step: Bear alone (2) attacks Bo's Bear (5), no effect; the camera
    sees Bo's Bear go all the same. Axolotl and Crow (7) could have defeated it, but the
    person said which attack it was: `tob.not-defeated`, no attack made up beside it. (One
    trick card: "Auf jeder deiner Lanes können 3 Wesen liegen".)"""
    setup = position(p1_active=["XA#1", "XC#1", "XB#1"], p1_trick=1,
                     p2_active=["XB#2"], p2_passive=["XD#1"])
    leader, follower, interp = pair(setup)
    weak = Move("attack", "p1", ("XB#1",), target="XB#2")
    assert leader.push(weak) == []
    interp.person(weak)
    remove(leader, "XB#2")
    seen = interp.observe(camera(leader.state), "camera",
                          {"attack": {"attackers": ["XB#1"], "target": "XB#2"}})
    assert attacks(seen) == [] and codes(seen) == ["tob.not-defeated"]
    assert follower.state.counter("turn", "attacked:XA#1") == 0


def follow_without_attacks(seed: int) -> int:
    """A random legal game (the fixture cards) followed from the camera with attacks never
    declared (a person still presses and declares activations and redraws). A question is
    answered with the attack that happened. Every reading must be legal, and the follower's
    table and outcome the leader's. Returns how many defeats were read as attacks."""
    leader, follower, interp = leader_and_follower(seed)
    rng = random.Random(seed)
    read = 0
    for _ in range(80):
        legal = leader.legal_moves
        if not legal or leader.outcome():
            break
        move = rng.choice(legal)
        leader.push(move)
        if move.kind in ("activate", "next-phase", "pass", "redraw", "concede"):
            interp.person(move)
        seen = interp.observe(camera(leader.state), "camera")
        if seen.question is not None:
            fits = [i for i, c in enumerate(seen.question.choices) if any(
                (m.kind, set(m.cards), m.target) == (move.kind, set(move.cards), move.target)
                for m in c.moves)]
            assert fits, (move, seen.question)
            seen = interp.answer(fits[0])
        read += sum(1 for m in seen.moves if m.kind == "attack")
        assert all(e.legal for e in seen.entries), (move, [e.to_dict() for e in seen.entries])
        assert public_table(follower) == public_table(leader), move
        assert follower.outcome() == leader.outcome(), move
    return read


def test_random_games_are_followed_without_declared_attacks() -> None:
    """Every attack that defeats is read from the table (the ones too weak leave no trace and
    change nothing the camera or the rules can tell later): no false violation, the same
    table and winner as the game played."""
    assert sum(follow_without_attacks(seed) for seed in range(24)) >= 20


@pytest.mark.parametrize("camera_only", [False, True])
def test_the_undeclared_attack_script(camera_only: bool) -> None:
    """rules-undeclared-attack.yaml: its `expect`s, written from the rulebook, hold with and
    without the phase presses."""
    report = referee_script(str(SCRIPT), camera_only=camera_only)
    assert report.failures == []
