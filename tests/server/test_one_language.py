"""One language at a time, names not ids: every game's bundled opening script played through
the live session, and every text a person reads of it (the page's state at every step:
status, prompts, questions, violations with their rule references, the log, the seats' facts,
the cards' types and numbers; the JSON and text exports; the review page's steps) checked in
English and in German.

The oracle (tests/language_oracle.py) is independent of the code that words the texts: the
card ids of the game's shipped cardsets, the engine's id shapes and common words of the other
language must not appear.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from companion.record.export import export_json, export_text, rule_words
from companion.record.timeline import game_record
from tests.language_oracle import cardset_words, problems
from tests.live_tables import scripted

GAMES = ["challengers", "creature-crush", "fire-emblem-cipher", "my-little-pony-ccg",
         "trick-or-beat"]
SCRIPTS = [(game, "opening") for game in GAMES] + [
    ("creature-crush", "rules-undeclared-attack"), ("my-little-pony-ccg", "rules-ready"),
    ("trick-or-beat", "rules-undeclared-attack")]
"""Every game's demo (its opening), and the scripts whose moves make the page ask a question."""
MACHINE = {"phase", "active", "player", "kind", "code", "source", "uid", "id", "zone", "die",
           "on", "token", "status", "game", "decision", "swatch", "key", "move", "time",
           "winner", "loser"}
"""Fields that carry ids for the page's code, never printed as they are."""


def shown(data: Any, lang: str, game: str, where: str = "") -> Iterator[tuple[str, str]]:
    """(where, text) of every text a person reads of `data` in `lang`: fields `x_<lang>`, the
    `<lang>` half of {"en", "de"}, a bare `x` beside an `x_de` (the English one), rule
    references as the page words them, and every other string not in `MACHINE`."""
    if isinstance(data, list):
        for i, item in enumerate(data):
            yield from shown(item, lang, game, f"{where}[{i}]")
        return
    if not isinstance(data, Mapping):
        return
    paired = {"en", "de"} <= set(data)
    for key, value in data.items():
        here = f"{where}.{key}"
        if paired and key in ("en", "de"):
            if key == lang:
                yield from _strings(value, lang, game, here)
        elif key.endswith(("_en", "_de")):
            if key.endswith(f"_{lang}"):
                yield from _strings(value, lang, game, here)
        elif key == "rule" and isinstance(value, str):
            if f"rule_{lang}" not in data:  # else the page shows that one
                yield here, rule_words(value, game, lang)
        elif isinstance(value, str) and f"{key}_de" in data and f"{key}_en" not in data:
            if lang == "en":
                yield here, value
        elif isinstance(value, Mapping | list):
            yield from shown(value, lang, game, here)


def _strings(value: Any, lang: str, game: str, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, Mapping):
        for key, inner in value.items():
            if key not in MACHINE and not key.endswith("_de" if lang == "en" else "_en"):
                yield from _strings(inner, lang, game, f"{where}.{key}")
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _strings(inner, lang, game, f"{where}[{i}]")


@pytest.fixture(scope="module", params=SCRIPTS, ids=[f"{g}/{n}" for g, n in SCRIPTS])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[dict[str, Any]]:
    """One game's script played through the session: every state the page got (and every
    question as it was asked), the exports and the review page's record."""
    game, name = request.param
    with scripted(game, tmp_path_factory.mktemp(game) / "g.db", name) as table:
        states = [table.session.state()]
        while table.step():
            states.append(table.session.state())
        states.extend({"question": q} for q in table.asked)
        if name != "opening":
            assert table.asked, f"{game}/{name} asks no question any more"
        store, game_id = table.session.store, table.session.game_id
        yield {"game": game, "states": states, "players": list(table.session.header.players),
               "json": json.loads(export_json(store, game_id)),
               "text": {lang: export_text(store, game_id, lang) for lang in ("en", "de")},
               "review": game_record(store, game_id, redact=True)}


def page_texts(state: Mapping[str, Any], lang: str, game: str) -> list[tuple[str, str]]:
    shown_part = {k: v for k, v in state.items() if k not in ("layout", "game", "players")}
    return list(shown(shown_part, lang, game, "state"))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_page_speaks_one_language_in_names(played: dict[str, Any], lang: str) -> None:
    ids, names = cardset_words(played["game"])
    texts = [t for s in played["states"] for t in page_texts(s, lang, played["game"])]
    assert len(texts) > 50, "the sweep found next to nothing to read"
    found = problems(sorted(set(texts)), lang, ids, names, played["players"])
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_exports_and_review_speak_one_language_in_names(played: dict[str, Any],
                                                        lang: str) -> None:
    ids, names = cardset_words(played["game"])
    game = played["game"]
    texts = [*shown(played["json"], lang, game, "json"),
             *shown(played["review"], lang, game, "review"),
             *((f"text:{i}", line) for i, line in enumerate(played["text"][lang].splitlines()))]
    found = problems(sorted(set(texts)), lang, ids, names, played["players"])
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_reference_reads_in_one_language(game: str) -> None:
    """All of the game's rule references, not only those its opening script breaks."""
    from companion.games import game_spec

    catalog = game_spec(game).violations
    ids, names = cardset_words(game)
    for lang in ("en", "de"):
        texts = [(f"{code} ({lang})", rule_words(catalog.rule(entry[0]), game, lang))
                 for code, entry in sorted(catalog.entries.items())]
        found = problems(texts, lang, ids, names, [])
        assert not found, "\n".join(found)
