"""Every phase of a turn is named on the page as the German rulebook names it.

The oracle is the rulebook text (rules/<game>.de.txt): the German name of each turn phase
("Startphase", "Kampfphase", "Taktikphase"; "Nachschubphase" ... "Endphase"; "Score Phase";
"Aktionsphase"; "Angriff", "Bank") must occur in it word for word, so a name changed in the
code (or in the rulebook) fails here. Setup phases the rulebook has no single word for (My
Little Pony's and Fire Emblem's "Spielvorbereitung", Challengers!' "Matchbeginn") are left out.
"""

from __future__ import annotations

import pytest

from companion.engine.registry import ruleset_for
from companion.games import GAME_SPECS
from tests.rulebook.test_numbers_in_rulebooks import rulebook

WITHOUT_RULEBOOK_WORD = {("my-little-pony-ccg", "setup"), ("fire-emblem-cipher", "setup"),
                         ("challengers", "open")}


def phases(game: str) -> list[tuple[str, str]]:
    spec = ruleset_for(game).flow.spec
    return [(p.id, p.name.get("de")) for p in (*spec.setup_phases, *spec.turn_phases)]


@pytest.mark.parametrize("game", sorted(GAME_SPECS))
def test_each_phase_has_the_rulebooks_german_name(game: str) -> None:
    text = rulebook(game)
    named = [(pid, de) for pid, de in phases(game) if (game, pid) not in WITHOUT_RULEBOOK_WORD]
    assert named, f"{game} has no phases"
    missing = [(pid, de) for pid, de in named if not de or f" {de}" not in f" {text}"]
    assert missing == [], f"{game}: phase names not in the rulebook: {missing}"
