"""The page says each phase in the player's language: every phase of every game has its name,
what may and must be done, what ends it and what happens by itself, in English and in German
(the prompt shows them; an empty or missing text leaves the player without the rule)."""

from __future__ import annotations

import pytest

from companion.engine.flow import Text
from companion.engine.registry import ruleset_for
from companion.games import GAME_SPECS


def texts(game: str) -> list[tuple[str, str, Text]]:
    spec = ruleset_for(game).flow.spec
    out = []
    for phase in (*spec.setup_phases, *spec.turn_phases):
        out += [(phase.id, "name", phase.name), (phase.id, "ends", phase.ends)]
        for what in ("may", "must", "automatic"):
            out += [(phase.id, what, t) for t in getattr(phase, what)]
    return out


@pytest.mark.parametrize("game", sorted(GAME_SPECS))
def test_every_phase_text_is_there_in_english_and_german(game: str) -> None:
    missing = [(pid, what, lang) for pid, what, text in texts(game) for lang in ("en", "de")
               if not isinstance(text.get(lang), str) or not text.get(lang).strip()]
    assert missing == []
