"""My Little Pony CCG rules, one rule per test, on small positions built with `setup`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.api import Move, Violation
from companion.engine.game import Game
from companion.games.my_little_pony import effects as fx
from companion.games.my_little_pony import faceoff as fo
from companion.games.my_little_pony.numbers import WIN_POINTS

GAME = "my-little-pony-ccg"
DECKS = {
    "p1": ["PR54", "PR63", "PR60", "PR58", "PR26", "PR25"],
    "p2": ["PR20", "PR14", "PR16", "PR13", "PR7", "PR12"],
    "p1.problem-deck": ["PR162", "PR175"],
    "p2.problem-deck": ["PR167", "PR176"],
}


def position(table: Mapping[str, list[str]], phase: str = "main", active: str = "p1",
             decks: Mapping[str, list[str]] | None = None, **extra: Any) -> Game:
    base: dict[str, list[str]] = {"p1.home": ["PR4"], "p2.home": ["PR1"],
                                  "p1.problem": ["PR177"], "p2.problem": ["PR168"]}
    base.update(table)
    setup = {"turn": 5, "active": active, "phase": phase, "table": base, **extra}
    return Game.new(GAME, ("Ada", "Bo"), decks=decks or DECKS, seed=3, setup=setup)


def codes(violations: list[Violation]) -> list[str]:
    return [v.code for v in violations if v.blocking]


@given(high=st.integers(0, 14), low=st.integers(0, 14))
def test_action_tokens_follow_the_highest_score(high: int, low: int) -> None:
    g = position({}, phase="ready", active="p2", score={"p1": high, "p2": low})
    top = max(high, low)
    expected = 2 if top <= 1 else 3 if top <= 5 else 4 if top <= 10 else 5
    assert fx.tokens(g.state, "p2") == expected


def test_first_player_gains_one_token_and_draws_nothing_in_the_first_turn() -> None:
    g = Game.new(GAME, seed=4)
    assert g.phase == "setup"
    for p, problem in (("p1", "PR177#1"), ("p2", "PR168#1")):
        assert g.push(Move("starting-problem", p, (problem,))) == []
        assert g.push(Move("draw", p)) == []
    assert (g.phase, g.active, g.state.turn) == ("ready", "p1", 1)
    assert fx.tokens(g.state, "p1") == 1
    assert codes(g.check(Move("draw", "p1"))) == ["mlp.first-turn-draw"]
    assert codes(g.check(Move("next-phase", "p1"))) == []


def test_setup_rejects_non_starting_problems_and_a_seventh_card() -> None:
    g = Game.new(GAME, seed=4)
    assert codes(g.check(Move("starting-problem", "p1", ("PR175#1",)))) == [
        "mlp.starting-problem"]
    g.push(Move("draw", "p1"))
    assert g.state.count("p1.hand") == 6
    assert codes(g.check(Move("draw", "p1"))) == ["mlp.setup-hand"]


def test_deck_faults_come_with_the_first_setup_move_only() -> None:
    decks = {"p1": ["PR4", "PR54", "PR54", "PR54", "PR54"], "p2": DECKS["p2"],
             "p1.problem-deck": ["PR177"], "p2.problem-deck": DECKS["p2.problem-deck"]}
    g = Game.new(GAME, decks=decks, seed=1)
    first = codes(g.check(Move("draw", "p1")))
    assert {"mlp.deck-too-small", "mlp.too-many-copies", "mlp.problem-deck-size"} <= set(first)
    g.push(Move("draw", "p1"))
    assert codes(g.check(Move("starting-problem", "p1", ("PR177#1",)))) == []


def test_a_problem_deck_without_a_starting_problem_is_a_deck_fault() -> None:
    # rulebook "Starting Problem": one must be chosen from the problem deck at the start
    decks = {**DECKS, "p1.problem-deck": ["PR175", "PR175", "PR189", "PR189", "PR163",
                                          "PR163", "PR166", "PR166", "PR167", "PR167"],
             "p2.problem-deck": ["PR168", "PR176"]}  # Cloudbursting is a Starting Problem
    g = Game.new(GAME, decks=decks, seed=1)
    assert not [m for m in g.legal_moves if m.kind == "starting-problem" and m.player == "p1"]
    assert "mlp.no-starting-problem" in codes(g.check(Move("draw", "p1")))
    assert "mlp.no-starting-problem" not in codes(g.check(Move("draw", "p2")))


def test_ready_phase_draws_once_and_main_phase_draws_cost_a_token() -> None:
    g = position({}, phase="ready", active="p2")
    assert codes(g.check(Move("next-phase", "p2"))) == ["mlp.must-draw"]
    g.push(Move("draw", "p2"))
    assert codes(g.check(Move("draw", "p2"))) == ["mlp.draw-once"]
    g = position({}, action_tokens={"p1": 0, "p2": 0})
    assert codes(g.check(Move("draw", "p1"))) == ["mlp.cost"]


def test_play_cost_requirement_and_destinations() -> None:
    g = position({}, hands={"p1": 6}, action_tokens={"p1": 1, "p2": 0})
    hand = g.state.cards_in("p1.hand")
    comet = next(u for u in hand if u.startswith("PR54#"))
    lady = next(u for u in hand if u.startswith("PR63#"))
    mayor = next(u for u in hand if u.startswith("PR58#"))
    assert codes(g.check(Move("play", "p1", (comet,), to="p2.problem"))) == []
    assert codes(g.check(Move("play", "p1", (comet,), to="p2.home"))) == [
        "mlp.bad-destination"]
    assert codes(g.check(Move("play", "p1", (lady,), to="p1.home"))) == ["mlp.cost"]
    assert "mlp.requirement" in codes(g.check(Move("play", "p1", (mayor,), to="p1.home")))
    assert codes(g.check(Move("play", "p2", (comet,), to="p1.home"))) != []


def test_moving_costs_one_token_swift_none() -> None:
    g = position({"p2.home": ["PR1", "PR8"]}, active="p2", action_tokens={"p1": 0, "p2": 0})
    assert codes(g.check(Move("move", "p2", ("PR8#1",), to="p2.problem"))) == []
    assert codes(g.check(Move("move", "p2", ("PR1#1",), to="p2.problem"))) == ["mlp.cost"]
    assert "mlp.bad-destination" in codes(g.check(Move("move", "p2", ("PR8#1",),
                                                       to="p1.home")))


def test_confront_counts_colours_exhaustion_stubborn_and_negative_power() -> None:
    g = position({"p1.problem": ["PR177", "PR52", "PR22"]})
    assert fx.can_confront(g.state, "p1", "p1.problem")
    g.state.tapped.add("PR52#1")
    assert not fx.can_confront(g.state, "p1", "p1.problem")
    g.state.tapped = {"PR22#1"}  # Apple Cobbler is Stubborn
    assert fx.can_confront(g.state, "p1", "p1.problem")
    g.push(Move("modify", "p1", target="PR22#1", value=-3))
    assert fx.power(g.state, "PR22#1") == -2
    assert fx.power_by_color(g.state, "p1", ("p1.problem",))["Honesty"] == 0
    assert not fx.can_confront(g.state, "p1", "p1.problem")


def test_not_x_requirement_and_opponent_power_total() -> None:
    g = position({"p1.problem": ["PR177", "PR52", "PR55"]})  # two Magic: no other colour
    assert not fx.can_confront(g.state, "p1", "p1.problem")
    g = position({"p2.problem": ["PR168", "PR63", "PR54"]})  # 3 + 1 = 4 for the opponent
    assert fx.can_confront(g.state, "p1", "p2.problem")


@pytest.mark.parametrize("first", [0, 1])
def test_any_colour_beside_a_colour_means_any_other_colour(first: int) -> None:
    # rulebook "Score Phase", A: "eine bestimmte und irgend eine weitere Farbe, die eine
    # beliebige Kombination aus Farben außer der ersten sein kann" - also written without
    # `except`, and in either order
    own = [{"power": 2, "color": "Magic"}, {"power": 2, "color": "any"}]
    card = {"id": "XP1", "name": "Test Problem", "type": "problem",
            "own": own if first == 0 else own[::-1], "opponent": 5, "bonus": 1,
            "keywords": ["Starting Problem"]}

    def at_problem(*friends: str) -> Game:
        setup = {"turn": 5, "active": "p1", "phase": "main",
                 "table": {"p1.home": ["PR4"], "p2.home": ["PR1"], "p2.problem": ["PR168"],
                           "p1.problem": ["XP1", *friends]}}
        return Game.new(GAME, ("Ada", "Bo"), decks=DECKS, seed=3, setup=setup, cards=[card])

    g = at_problem("PR52", "PR55")  # Magic 1 + Magic 1: no power of another colour
    assert fx.power_by_color(g.state, "p1", ("p1.problem",)) == {"Magic": 2}
    assert not fx.can_confront(g.state, "p1", "p1.problem")
    g = at_problem("PR52", "PR55", "PR22", "PR26")  # and Honesty 1 + Honesty 1
    assert fx.power_by_color(g.state, "p1", ("p1.problem",)) == {"Magic": 2, "Honesty": 2}
    assert fx.can_confront(g.state, "p1", "p1.problem")


def test_caretaker_gains_one_next_to_a_critter() -> None:
    decks = {**DECKS, "p1": ["PR80", "PR86", "PR81"]}
    g = position({"p2.problem": ["PR168", "PR80"]}, decks=decks)
    assert fx.power(g.state, "PR80#1") == 2
    g = position({"p2.problem": ["PR168", "PR80", "PR86"]}, decks=decks)
    assert fx.power(g.state, "PR80#1") == 3


def test_first_solver_bonus_once_then_one_point_per_turn() -> None:
    g = position({"p1.problem": ["PR177", "PR52", "PR22"]})
    g.push(Move("next-phase", "p1"))
    assert fx.points(g.state, "p1") == 2
    assert g.state.flags["confronted"] == {"PR177#1": ["p1"]}
    g.state.phase = "main"
    g.push(Move("next-phase", "p1"))
    assert fx.points(g.state, "p1") == 3


def faceoff_position(flips: tuple[int, int]) -> Game:
    g = position({"p1.problem": ["PR177", "PR52", "PR22", "PR7"]},
                 decks={**DECKS, "p2": [*DECKS["p2"], "PR7"]})
    g.push(Move("next-phase", "p1"))  # p2's Jetstream (2) meets nothing: no faceoff
    assert fo.current(g.state) is None
    g = position({"p1.problem": ["PR177", "PR52", "PR22", "PR7", "PR12"]},
                 decks={**DECKS, "p2": [*DECKS["p2"], "PR7", "PR12"]})
    g.push(Move("next-phase", "p1"))
    assert fo.current(g.state) is not None
    assert codes(g.check(Move("next-phase", "p1"))) == ["mlp.faceoff-pending"]
    g.push(Move("flip", "p1", value=flips[0]))
    g.push(Move("flip", "p2", value=flips[1]))
    return g


def test_problem_faceoff_winner_gets_the_bonus_and_the_problem_is_replaced() -> None:
    g = faceoff_position((5, 0))  # 2 + 5 against 4 + 0
    assert g.state.flags["last_faceoff"] == "p1"
    assert fx.points(g.state, "p1") == 3
    assert g.state.where["PR7#1"] == "p2.home" and g.state.where["PR52#1"] == "p1.home"
    assert g.state.cards_in("p1.problem-deck")[0] == "PR177#1"
    assert codes(g.check(Move("next-phase", "p1"))) == ["mlp.problem-due"]
    g.push(Move("new-problem", "p1"))
    assert fx.problem_at(g.state, "p1.problem") is not None
    assert codes(g.check(Move("next-phase", "p1"))) == []


def test_tied_faceoff_has_no_winner() -> None:
    g = faceoff_position((2, 0))  # 2 + 2 against 4 + 0
    assert g.state.flags["last_faceoff"] is None
    assert fx.points(g.state, "p1") == 2 and fx.points(g.state, "p2") == 0


def test_random_may_flip_again_only_after_a_one() -> None:
    decks = {**DECKS, "p1": [*DECKS["p1"], "PR40"], "p2": [*DECKS["p2"], "PR7", "PR12"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR40", "PR7", "PR12"]}, decks=decks)
    g.push(Move("next-phase", "p1"))
    g.push(Move("flip", "p1", value=4))
    assert codes(g.check(Move("flip", "p1", value=3))) == ["mlp.flipped"]
    g = position({"p1.problem": ["PR177", "PR52", "PR40", "PR7", "PR12"]}, decks=decks)
    g.push(Move("next-phase", "p1"))
    g.push(Move("flip", "p1", value=1))
    assert codes(g.check(Move("flip", "p1", value=3))) == []
    assert codes(g.check(Move("keep", "p1"))) == []


def test_empty_decks_skip_the_flips() -> None:
    decks = {"p1": [], "p2": ["PR7", "PR12"], "p1.problem-deck": ["PR162"],
             "p2.problem-deck": ["PR167"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR22", "PR7", "PR12"]}, decks=decks)
    g.push(Move("next-phase", "p1"))
    assert fo.current(g.state) is None and g.state.flags["last_faceoff"] == "p2"


def test_troublemaker_face_down_limit_and_villain() -> None:
    decks = {**DECKS, "p1": [*DECKS["p1"], "PR155", "PR157", "PR152"],
             "p2": [*DECKS["p2"], "PR160"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR22", "PR155", "PR152", "PR160"]},
                 decks=decks, phase="troublemaker")
    for uid in ("PR155#1", "PR152#1", "PR160#1"):
        g.state.face_down.add(uid)
        g.state.public.discard(uid)
    assert codes(g.check(Move("next-phase", "p1"))) == ["mlp.must-reveal"]
    assert g.push(Move("reveal", "p1", ("PR152#1",))) == []
    # the Villain removed every other troublemaker and frightened the friends
    assert g.state.where["PR155#1"] == "p1.discard" and g.state.where["PR160#1"] == "p2.discard"
    assert set(g.state.flags["frightened"]) == {"PR52#1", "PR22#1"}
    assert not fx.can_confront(g.state, "p1", "p1.problem")
    # anyone may challenge a Villain, even its owner (Twilight is there, not frightened)
    g.state.move("PR4#1", "p1.problem")
    assert codes(g.check(Move("challenge", "p1", target="PR152#1"))) == []


def test_troublemaker_challenge_lost_sends_a_character_home() -> None:
    decks = {**DECKS, "p2": [*DECKS["p2"], "PR160"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR160"]}, decks=decks,
                 phase="troublemaker")
    assert g.push(Move("challenge", "p1", target="PR160#1")) == []
    g.push(Move("flip", "p1", value=0))
    g.push(Move("flip", "p2", value=3))
    assert g.state.flags["send_home"]["cards"] == ["PR52#1"]
    assert codes(g.check(Move("next-phase", "p1"))) == ["mlp.send-home-due"]
    assert g.push(Move("send-home", "p1", ("PR52#1",))) == []
    assert g.state.where["PR52#1"] == "p1.home"


def test_a_challenge_needs_only_a_character_there_exhausted_or_frightened() -> None:
    """Rulebook "Troublemaker Phase", step 2: "Wenn du mindestens einen Charakter auf einem
    Problem hast ..." - any character; exhausted or frightened ones only add no power."""
    decks = {**DECKS, "p2": [*DECKS["p2"], "PR160"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR160"]}, decks=decks,
                 phase="troublemaker", tapped=["PR52"])
    assert codes(g.check(Move("challenge", "p1", target="PR160#1"))) == []
    assert g.push(Move("challenge", "p1", target="PR160#1")) == []
    faceoff = fo.current(g.state)
    assert faceoff is not None and faceoff["sides"]["p1"] == []  # exhausted: no power
    g.push(Move("flip", "p1", value=0))
    g.push(Move("flip", "p2", value=0))  # 0 against Yellow Parasprite's power: lost
    assert g.state.flags["send_home"]["cards"] == ["PR52#1"]  # "einen deine Charaktere"
    decks = {**DECKS, "p2": [*DECKS["p2"], "PR152"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR26", "PR152"]}, decks=decks,
                 phase="troublemaker")
    g.state.flags["frightened"] = ["PR52#1", "PR26#1"]  # as the Villain left them
    assert codes(g.check(Move("challenge", "p1", target="PR152#1"))) == []
    decks = {**DECKS, "p2": [*DECKS["p2"], "PR160"]}
    g = position({"p1.home": ["PR4", "PR52"], "p1.problem": ["PR177", "PR160"]}, decks=decks,
                 phase="troublemaker")  # no character of p1 at the problem
    assert codes(g.check(Move("challenge", "p1", target="PR160#1"))) == ["mlp.challenge-alone"]


def test_end_of_turn_hand_and_home_limits() -> None:
    g = position({"p1.home": ["PR4", "PR22", "PR26", "PR28", "PR29"]}, phase="end",
                 hands={"p1": 4})
    assert codes(g.check(Move("pass", "p1"))) == ["mlp.home-limit"]
    assert codes(g.check(Move("retire", "p1", ("PR22#1",)))) == []
    g.push(Move("boost", "p1", ("PR4#1",)))
    assert fx.home_limit(g.state, "p1") == 4
    assert codes(g.check(Move("pass", "p1"))) == []
    assert codes(g.check(Move("retire", "p1", ("PR22#1",)))) == ["mlp.no-reason"]


def test_end_of_turn_hand_limit_comes_before_the_home_limit() -> None:
    # rulebook "Zug Ende": "zunächst ... Karten auf der eigenen Hand ... Dann ... Freundekarten
    # im Zuhause"
    g = position({"p1.home": ["PR4", "PR22", "PR26", "PR28", "PR29"]}, phase="end",
                 hands={"p1": 10}, decks={**DECKS, "p1": DECKS["p1"] * 2})
    assert codes(g.check(Move("retire", "p1", ("PR22#1",)))) == ["mlp.hand-limit-first"]
    assert not [m for m in g.legal_moves if m.kind == "retire"]
    for uid in g.state.cards_in("p1.hand")[:2]:
        assert g.push(Move("discard", "p1", (uid,))) == []
    assert codes(g.check(Move("retire", "p1", ("PR22#1",)))) == []


def test_pass_before_the_score_phase_is_flagged() -> None:
    g = position({})
    assert codes(g.check(Move("pass", "p1"))) == ["mlp.skip-score"]


def test_declared_corrections_of_points_and_tokens() -> None:
    g = position({}, action_tokens={"p1": 1, "p2": 0})
    g.push(Move("declare", "p1", value="points=7"))
    g.push(Move("declare", "p1", value="tokens+2"))
    g.push(Move("declare", "p2", value="points+1"))
    assert (fx.points(g.state, "p1"), fx.tokens(g.state, "p1"), fx.points(g.state, "p2")) == (
        7, 3, 1)


def test_fifteen_points_win() -> None:
    g = position({"p1.problem": ["PR177", "PR52", "PR22"]}, score={"p1": 13, "p2": 0})
    g.push(Move("next-phase", "p1"))
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == "p1"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_prompt_names_the_faceoff_order(lang: str) -> None:
    g = position({"p1.problem": ["PR177", "PR52", "PR22", "PR7", "PR12"]},
                 decks={**DECKS, "p2": [*DECKS["p2"], "PR7", "PR12"]})
    g.push(Move("next-phase", "p1"))
    assert any("p2" in line for line in g.prompt(lang).may)


BOOST_SCRIPT = """
game: my-little-pony-ccg
players: [Ada, Bo]
first: p1
seed: 5
decks:
  p1: [PR54, PR60, PR58]
  p2: [PR20, PR14, PR16]
  p1.problem-deck: [PR162]
  p2.problem-deck: [PR167]
setup:
  turn: 5
  active: p1
  phase: main
  table: {p1.home: [PR4], p2.home: [PR1], p1.problem: [PR177], p2.problem: [PR168]}
  action_tokens: {p1: 1, p2: 0}
steps:
  - place_down: {PR4: p1.home}
    expect: {legal: true}
  - place_down: {PR4: p1.problem}
    note: the boosted mane shows its back; moving it is a move of the mane
    expect: {legal: true, action_tokens: {p1: 0}}
  - place_down: {PR4: p1.home}
    expect: {legal: false, violations: [mlp.cost]}
"""


def test_boosted_mane_is_followed_by_its_back(tmp_path: Any) -> None:
    from companion.referee.script import referee_script

    path = tmp_path / "boost.yaml"
    path.write_text(BOOST_SCRIPT)
    report = referee_script(str(path))
    assert report.failures == []
    kinds = [e.move.kind for s in report.steps for e in s.moves]
    assert kinds == ["boost", "move", "move"]


@pytest.mark.parametrize("seed", [0, 7])
def test_seeded_random_games_play_to_a_winner(seed: int) -> None:
    import random


    g = Game.new(GAME, seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):
        legal = g.legal_moves
        if not legal:
            break
        g.push(rng.choice(legal), "automatic")  # legal by the rulebook: tests/rulebook
        assert g.ruleset.invariant_errors(g.state, g.card_total) == []
    outcome = g.outcome()
    assert outcome is not None and outcome.reason == "points"
    assert max(fx.points(g.state, p) for p in ("p1", "p2")) >= WIN_POINTS


@pytest.mark.parametrize(("lang", "words"), [("en", "sends one character at p1.problem home"),
                                              ("de", "schickt einen Charakter von p1.problem")])
def test_a_lost_challenge_asks_on_the_page_for_a_character_sent_home(lang: str,
                                                                      words: str) -> None:
    """Rulebook "Troublemaker Phase", step 2: "Wenn du die Konfrontation verlierst, musst du
    einen deine Charaktere von diesem Problem in nach Hause senden": the page says so until
    it is done."""
    decks = {**DECKS, "p2": [*DECKS["p2"], "PR160"]}
    g = position({"p1.problem": ["PR177", "PR52", "PR160"]}, decks=decks,
                 phase="troublemaker")
    assert not [m for m in g.ruleset.prompt(g.state, lang).may if words in m]
    g.push(Move("challenge", "p1", target="PR160#1"))
    g.push(Move("flip", "p1", value=0))
    g.push(Move("flip", "p2", value=3))
    assert [m for m in g.ruleset.prompt(g.state, lang).may if words in m]
    g.push(Move("send-home", "p1", ("PR52#1",)))
    assert not [m for m in g.ruleset.prompt(g.state, lang).may if words in m]
