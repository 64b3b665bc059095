"""docs/table-scripts.md covers what the script reader accepts (so the two cannot drift)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games import game_ids, game_spec, get_ruleset
from companion.sim.script import DECLARE_KEYS, EXPECT_COMMON, SETUP_KEYS, TOP_KEYS, VERBS

DOC = Path(__file__).resolve().parents[2] / "docs" / "table-scripts.md"
TEXT = DOC.read_text(encoding="utf-8")
FENCED = re.findall(r"```.*?```", TEXT, flags=re.S)
CODE = set(re.findall(r"`([^`]+)`", re.sub(r"```.*?```", "", TEXT, flags=re.S))) | set(FENCED)


def mentioned(word: str) -> bool:
    return word in CODE or any(re.search(rf"(^|[^\w.-]){re.escape(word)}([^\w-]|$)", c)
                               for c in CODE)


@pytest.mark.parametrize("word", [*TOP_KEYS, *SETUP_KEYS, *VERBS, *DECLARE_KEYS, *EXPECT_COMMON])
def test_every_key_the_reader_knows_is_documented(word: str) -> None:
    assert mentioned(word), word


@pytest.mark.parametrize("game", game_ids())
def test_every_game_expect_key_phase_and_zone_is_documented(game: str) -> None:
    ruleset = get_ruleset(game)
    flow = ruleset.flow.spec
    words = [*ruleset.expect_keys, *(p.id for p in (*flow.setup_phases, *flow.turn_phases))]
    zones = [z for z in game_spec(game).zones if not z.startswith("p2.")]
    benches = [z for z in zones if re.search(r"(bench[2-5]|[ABC][1-3])$", z)]
    missing = [w for w in [*words, *(z for z in zones if z not in benches)] if not mentioned(w)]
    assert missing == []
