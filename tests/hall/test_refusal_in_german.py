"""A result the tournament refuses reaches the judges in the language their page is set to: the
German notice quotes the refusal in German, not the English text of the error."""

from __future__ import annotations

import pytest

from companion.games.challengers.tournament import Match, Tournament, TournamentError
from tests.language_oracle import COMMON


def _words(text: str) -> set[str]:
    return {w.strip(".,:;()'\"").lower() for w in text.split()}


def test_a_refused_result_says_why_in_german() -> None:
    t = Tournament(["Ada", "Bo"], seed=3)
    with pytest.raises(TournamentError) as refused:
        t.record(Match(1, "Ada", "Bo", "Ada"), "Ada")  # still the deck phase: no match is played
    german = refused.value.message_de
    assert german, "a refusal the judges may read in German has a German text"
    assert not _words(german) & COMMON["en"], german
    assert "Runde 1" in german and "Turnierstufe" in german
