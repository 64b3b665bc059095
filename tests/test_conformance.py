"""One conformance test for every registered game (a new game joins automatically).

Setup works; listed moves survive JSON and generated illegal moves each get a violation; views
leak no hidden card; apply and replay are deterministic; seeded random games never crash and
keep every card in exactly one place; every violation code has its texts. Whether the listed
legal moves are legal by the rulebook is checked by independent oracles (tests/rulebook).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import game_ids
from tests import conformance

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_setup_prompt_scores_views(game_id: str) -> None:
    conformance.check_setup_prompt_scores_views(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_phase_speaks_both_languages(game_id: str) -> None:
    conformance.check_every_phase_speaks_both_languages(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_listed_moves_round_trip_and_examples_illegal(game_id: str) -> None:
    conformance.check_illegal_examples_and_round_trip(game_id)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_keep_invariants(game_id: str, seed: int) -> None:
    conformance.check_random_game_invariants(game_id, seed)


@pytest.mark.parametrize("game_id", GAMES)
def test_views_leak_no_hidden_card(game_id: str) -> None:
    conformance.check_views_leak_no_hidden_card(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_replay_is_deterministic(game_id: str) -> None:
    conformance.check_replay_is_deterministic(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_illegal_moves_are_recorded_not_refused(game_id: str) -> None:
    conformance.check_illegal_moves_are_recorded_not_refused(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_violation_texts_are_complete(game_id: str) -> None:
    conformance.check_violation_texts(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_move_table_is_whole_and_declares_every_kind_played(game_id: str) -> None:
    conformance.check_move_table(game_id)
