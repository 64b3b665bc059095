"""The engine's effect vocabulary read from YAML mappings: every fault names card and field,
whether met by the reader, by a cardset load, or by a game's catalog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.cardsets import CardsetError, load_cardset
from companion.cardsets.loader import shown_path
from companion.engine.cards import Catalog
from companion.engine.effects import (
    Ability,
    Damage,
    EffectError,
    Modify,
    Permit,
    Prevent,
    Prompt,
    Selector,
    parse_abilities,
    parse_ability,
)


def test_a_full_mapping_reads_as_its_typed_ability() -> None:
    raw = {"when": "bench", "do": "modify", "stat": "strength", "amount": 1,
           "target": {"side": "ally", "count": "each", "same_name": True}}
    assert parse_ability("X-1", 1, raw) == Ability(
        "bench", Modify("strength", 1, Selector(side="ally", count="each", same_name=True)))


def test_defaults_are_the_documented_ones() -> None:
    assert parse_ability("X-1", 1, {"do": "damage", "amount": 2, "target": {}}) == Ability(
        "play", Damage(2, Selector(side="any", count=1)))
    assert parse_ability("X-1", 1, {"do": "prevent", "what": "attack",
                                    "target": {"side": "enemy"}}).effect == Prevent(
        "attack", Selector(side="enemy"), until="now")
    assert parse_ability("X-1", 1, {"do": "permit", "action": "control",
                                    "target": {"side": "enemy", "max_cost": 5}}).effect == \
        Permit("control", Selector(side="enemy", max_cost=5))
    assert parse_ability("X-1", 1, {"do": "prompt", "text": "Tanze."}).effect == Prompt("Tanze.")


@pytest.mark.parametrize(("raw", "field", "fragment"), [
    ({"when": "play"}, "effects[2].do", "missing"),
    ({"do": "explode"}, "effects[2].do", "must be one of draw, move"),
    ({"do": "draw", "amount": "two"}, "effects[2].amount", "must be an integer"),
    ({"do": "draw", "amount": True}, "effects[2].amount", "must be an integer"),
    ({"do": "draw", "amount": 0}, "effects[2].amount", "at least 1"),
    ({"do": "draw"}, "effects[2].amount", "missing"),
    ({"do": "draw", "amount": 1, "target": {}}, "effects[2].target", "unknown key"),
    ({"do": "damage", "amount": 1, "target": {"side": "friend"}}, "effects[2].target.side",
     "must be one of self, ally, enemy, any"),
    ({"do": "damage", "amount": 1, "target": {"count": 0}}, "effects[2].target.count",
     "at least 1"),
    ({"do": "damage", "amount": 1, "target": {"colour": "red"}}, "effects[2].target.colour",
     "unknown key"),
    ({"do": "damage", "amount": 1, "target": "enemy"}, "effects[2].target", "must be a mapping"),
    ({"do": "modify", "stat": "luck", "amount": 1, "target": {}}, "effects[2].stat",
     "must be one of attack"),
    ({"do": "draw", "amount": 1, "when": "sometimes"}, "effects[2].when", "must be one of play"),
    ({"do": "draw", "amount": 1, "lane": "middle"}, "effects[2].lane", "active, passive"),
    ({"do": "prompt", "text": ""}, "effects[2].text", "must be a text"),
    ("draw 1", "effects[2]", "must be a mapping"),
])
def test_malformed_entries_name_card_and_field(raw: Any, field: str, fragment: str) -> None:
    good = {"do": "draw", "amount": 1}
    with pytest.raises(EffectError) as info:
        parse_abilities("CC-050", [good, raw])
    assert (info.value.card, info.value.field) == ("CC-050", field)
    assert fragment in info.value.detail
    assert str(info.value).startswith(f"card CC-050: {field}: ")
    assert isinstance(info.value, ValueError)


def test_an_effects_field_that_is_no_list_is_an_error() -> None:
    with pytest.raises(EffectError, match=r"card X-1: effects: must be a list"):
        parse_abilities("X-1", {"do": "draw"})


HEADER = "game: creature-crush\nset: Test\nsample: true\nsource: test\ncards:\n"  # lines 1-5


def test_a_cardset_with_a_malformed_effect_fails_to_load_naming_file_line_card(
        tmp_path: Path) -> None:
    folder = tmp_path / "creature-crush"
    folder.mkdir()
    path = folder / "base.yaml"
    path.write_text(HEADER + (
        "  - {id: CC-001, number: 1, name: Eins, type: creature, cost: 2, attack: 1, life: 2}\n"
        "  - id: CC-050\n"  # line 7
        "    number: 50\n"
        "    name: Zwei\n"
        "    type: crush\n"
        "    cost: 1\n"
        "    effects:\n"  # line 12
        "      - {do: damage, amount: two, target: {side: enemy}}\n"
    ), encoding="utf-8")
    with pytest.raises(CardsetError) as info:
        load_cardset("creature-crush", root=tmp_path)
    assert info.value.line == 12
    assert str(info.value) == (
        f"{shown_path(path)}:12: card CC-050 (Zwei): field 'effects[1].amount' must be an "
        "integer, got 'two'")


def test_trick_or_beat_words_outside_its_vocabulary_fail_naming_the_card() -> None:
    cards = [{"id": "XT", "name": "T", "type": "tactic", "category": "other",
              "effects": [{"kind": "play", "do": "destroy", "target": "everyone"}]}]
    with pytest.raises(EffectError) as info:
        Catalog.for_game("trick-or-beat", cards)
    assert (info.value.card, info.value.field) == ("XT", "effects[1].target")
    creature = [{"id": "XC", "name": "C", "type": "creature", "attack": 1, "survival": 1,
                 "faction": "Gehirn", "effects": [{"kind": "play", "lane": "active",
                                                   "do": "draw", "amount": 1}]}]
    with pytest.raises(EffectError, match=r"card XC: effects\[1\]\.kind: must be one of "
                                          r"permanent, activatable, combat"):
        Catalog.for_game("trick-or-beat", creature)


def test_inline_cards_are_compiled_when_the_catalog_loads() -> None:
    cards = [{"id": "XK", "name": "K", "type": "crush", "cost": 1,
              "text": "Verursache 4 Schaden an einem Feind."}]
    facts = Catalog.for_game("creature-crush", cards).card("XK")
    assert facts.abilities == (Ability("play", Damage(4, Selector(side="enemy")),
                                       text="Verursache 4 Schaden an einem Feind."),)
