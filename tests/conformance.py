"""The conformance checks every game must pass, as functions of a game id.

`tests/test_conformance.py` runs them for every registered game; `tests/test_toy_game.py` runs
them for a game registered at test time, which shows a new game gets them for free.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.engine.api import Move, blocking
from companion.engine.game import Game
from companion.engine.ruleset import CORE_KINDS, Ruleset

RANDOM_MOVES = 250


def play(game_id: str, seed: int, moves: int = RANDOM_MOVES) -> Game:
    """A game of `moves` random legal moves."""
    game = Game.new(game_id, ("A", "B"), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves
        if not legal:
            break
        game.push(rng.choice(legal), "automatic")
    return game


def hidden_uids(game: Game) -> set[str]:
    """Cards whose identity nobody has seen: in hidden zones or face down, not public."""
    s = game.state
    return {u for cards in s.zones.values() for u in cards if u not in s.public}


def check_setup_prompt_scores_views(game_id: str) -> None:
    game = Game.new(game_id, ("A", "B"), seed=1)
    assert game.state.total_cards() > 0
    for lang in ("en", "de"):
        prompt = game.prompt(lang)
        assert prompt.phase and prompt.phase_name and prompt.ends
    assert set(game.scores()) == {"p1", "p2"}
    assert game.outcome() is None
    for observer in ("table", "p1", "p2", "referee"):
        json.dumps(game.view(observer))


def check_every_phase_speaks_both_languages(game_id: str) -> None:
    """Every phase of the game names itself, what may and must be done and what ends it, in
    English and in German (the page shows either)."""
    game = Game.new(game_id, ("A", "B"), seed=1)
    flow = game.ruleset.flow.spec
    for phase in (*flow.setup_phases, *flow.turn_phases):
        for text in (phase.name, phase.ends, *phase.may, *phase.must, *phase.automatic):
            for lang in ("en", "de"):
                said = text.get(lang)
                assert isinstance(said, str) and said.strip(), (phase.id, lang, text)


def check_illegal_examples_and_round_trip(game_id: str, steps: int = 120) -> None:
    """Every move the game lists survives JSON; every example of an illegal move is flagged.
    (Whether the listed moves are really legal is checked against the rulebook oracles in
    tests/rulebook, not by the check that built the list.)"""
    game = Game.new(game_id, ("A", "B"), seed=2)
    rng = random.Random(2)
    for _ in range(steps):
        legal = game.legal_moves
        if not legal:
            break
        for move in legal:
            assert Move.from_dict(json.loads(json.dumps(move.to_dict()))) == move
        for bad in game.ruleset.illegal_examples(game.state):
            assert blocking(game.check(bad)), (game.phase, bad)
        game.push(rng.choice(legal))


def check_random_game_invariants(game_id: str, seed: int) -> None:
    """Seeded random play never crashes, conserves cards, keeps scores whole, ends well."""
    game = Game.new(game_id, ("A", "B"), seed=seed)
    rng = random.Random(seed)
    for _ in range(RANDOM_MOVES):
        legal = game.legal_moves
        if not legal:
            break
        game.push(rng.choice(legal), "automatic")
        assert game.ruleset.invariant_errors(game.state, game.card_total) == []
        scores = game.scores()
        assert all(isinstance(s.value, int) for s in scores.values())
    outcome = game.outcome()
    if outcome is not None:
        assert outcome.winner in ("p1", "p2", None) and outcome.reason_en and outcome.reason_de


def check_views_leak_no_hidden_card(game_id: str, seeds: tuple[int, ...] = (3, 4)) -> None:
    for seed in seeds:
        game = play(game_id, seed, 150)
        secret = hidden_uids(game)
        assert secret, "a game in progress hides some cards"
        for observer in ("table", "p1", "p2"):
            text = json.dumps(game.view(observer))
            leaked = [u for u in secret if f'"{u}"' in text]
            assert leaked == [], (observer, leaked[:5])


def check_replay_is_deterministic(game_id: str) -> None:
    game = play(game_id, 5)
    record = json.loads(json.dumps(game.record()))
    again = Game.replay(record)
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in game.log]
    assert again.view("referee") == game.view("referee")
    same_seed = play(game_id, 5)
    assert same_seed.view("referee") == game.view("referee")


def check_illegal_moves_are_recorded_not_refused(game_id: str) -> None:
    game = play(game_id, 6, 60)
    before = len(game.log)
    bad = game.ruleset.illegal_examples(game.state)[-1]
    violations = game.push(bad, "camera")
    assert blocking(violations)
    assert len(game.log) == before + 1 and not game.log[-1].legal
    assert game.ruleset.invariant_errors(game.state, game.card_total) == []
    game.undo()
    assert len(game.log) == before


def check_violation_texts(game_id: str, seed: int = 7) -> None:
    """The game's violation catalogue is complete, and every code its rules raise is in it."""
    from companion.games import game_spec

    catalog = game_spec(game_id).violations
    assert catalog.problems() == []
    game = play(game_id, seed, 80)
    raised = {v.code for bad in game.ruleset.illegal_examples(game.state)
              for v in game.check(bad)}
    generic = {c for c in raised if c.startswith(("game.", "deck."))}
    assert raised - generic <= set(catalog.codes())


SCRIPTS = Path(__file__).resolve().parent.parent / "companion" / "sim" / "scripts"


def check_move_table(game_id: str, seed: int = 8, moves: int = 60) -> None:
    """The game's move table is whole: each declared kind has a check, an apply, words in
    English and German and phases the flow knows, and no kind redeclares a core one; a phase
    that gives a kind its place (`PhaseSpec.moves`) is one the kind's rule allows; every kind
    the game offers in play (`candidate_moves`) and every kind its interpreter reads off the
    game's bundled opening (`explain`) is declared."""
    game = Game.new(game_id, ("A", "B"), seed=seed)
    ruleset = game.ruleset
    flow = ruleset.flow.spec
    for rule in ruleset.moves:
        assert callable(rule.check) and callable(rule.apply), rule.kind
        assert rule.en.strip() and rule.de.strip() and rule.en != rule.de, rule.kind
        assert rule.kind not in CORE_KINDS, rule.kind
        assert all(ruleset.flow.knows(p) for p in rule.phases), (rule.kind, rule.phases)
    for phase in (*flow.setup_phases, *flow.turn_phases):
        for kind in phase.moves:
            assert kind in ruleset.moves, (phase.id, kind)
            allowed = ruleset.moves.rule(kind).phases
            assert not allowed or phase.id in allowed, (phase.id, kind, allowed)
    declared = ruleset.known_kinds
    rng = random.Random(seed)
    offered: set[str] = set()
    for _ in range(moves):
        offered |= {m.kind for m in ruleset.candidate_moves(game.state)}
        legal = game.legal_moves
        if not legal:
            break
        game.push(rng.choice(legal), "automatic")
    assert offered <= declared, sorted(offered - declared)
    opening = SCRIPTS / game_id / "opening.yaml"  # every game has one (tests/test_scripts)
    if opening.exists():  # a game registered by a test may have none
        from companion.referee.script import referee_script

        with _explained_kinds(ruleset) as read:
            referee_script(str(opening))
        assert read, "the opening's table changes were read as moves"
        assert read <= declared, sorted(read - declared)


@contextmanager
def _explained_kinds(ruleset: Ruleset) -> Iterator[set[str]]:
    """The kinds of every move the ruleset's interpreter proposes while the block runs."""
    read: set[str] = set()
    explain = ruleset.explain

    def spy(*args: Any, **kwargs: Any) -> list[list[Move]]:
        readings = explain(*args, **kwargs)
        read.update(m.kind for reading in readings for m in reading)
        return readings

    ruleset.explain = spy  # type: ignore[method-assign]
    try:
        yield read
    finally:
        del ruleset.explain


ALL_CHECKS = (
    check_setup_prompt_scores_views,
    check_every_phase_speaks_both_languages,
    check_illegal_examples_and_round_trip,
    check_views_leak_no_hidden_card,
    check_replay_is_deterministic,
    check_illegal_moves_are_recorded_not_refused,
    check_violation_texts,
    check_move_table,
)
"""The checks that take only a game id (the random-game check also takes a seed)."""
