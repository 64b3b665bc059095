"""Table scripts as people write them by hand from docs/table-scripts.md.

Hands without deck lists (unknown cards), enum values in any case, pile counts in the setup, a
card written both in a deck and on the setup table, and every mistake reported with its line.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.referee.script import referee_script
from companion.sim.script import ScriptError, parse_script
from companion.sim.table_state import initial_table, truth_tables, visible_snapshot

SCRIPTS = Path(__file__).resolve().parents[2] / "companion" / "sim" / "scripts"


def parse(text: str, source: str = "t.yaml"):  # type: ignore[no-untyped-def]
    return parse_script(textwrap.dedent(text), source)


def referee(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return referee_script(str(path)).failures


HANDS_ONLY = """\
    game: creature-crush
    players: [Ada, Bo]
    setup:
      turn: 3
      active: P1
      phase: Kampf
      hands: {p1: 5, p2: 4}
      dice: {p1.w1: 4, p1.w2: 2}
    steps:
      - place: {CC-026: p1.b2}
        burn: [p1.w1]
        note: Frosthydra (cost 4) from a hand nobody listed
        expect: {legal: true, hands: {p1: 4, p2: 4}, phase: kampf}
      - place: {CC-006: P1.B3}
        burn: [p1.w2]
        expect: {legal: true, hands: {p1: 3}}
    """


def test_hands_need_no_deck_lists() -> None:
    script = parse(HANDS_ONLY)
    start = initial_table(script)
    assert len(start.hand("p1")) == 5 and len(start.hand("p2")) == 4
    assert start.in_zone("p1.lager") == () and start.in_zone("p2.lager") == ()
    end = truth_tables(script)[-1]
    assert end.in_zone("p1.B2") == ("CC-026#1",) and end.in_zone("p1.B3") == ("CC-006#1",)
    assert len(end.hand("p1")) == 3
    # the cards a step names are the hand's cards from the start: the engine is dealt them
    assert {"CC-026#1", "CC-006#1"} <= set(script.decks["p1"])
    assert not any(c.face_up for c in visible_snapshot(start).cards)


def test_hands_without_decks_play_through_the_referee(tmp_path: Path) -> None:
    assert referee(HANDS_ONLY, tmp_path) == []


def test_draws_beyond_the_listed_deck_are_unknown_cards() -> None:
    script = parse("""\
        game: creature-crush
        decks: {p1: [CC-001]}
        setup: {hands: {p1: 2}}
        steps:
          - draw: {p1: 2}
          - place: {CC-036: p1.B1}
        """)
    tables = truth_tables(script)
    assert len(tables[0].hand("p1")) == 2 and tables[0].in_zone("p1.lager") != ()
    assert "CC-001#1" in tables[0].hand("p1")  # the listed card is the deck's top
    assert len(tables[1].hand("p1")) == 4 and tables[1].in_zone("p1.lager") == ()
    assert tables[2].in_zone("p1.B1") == ("CC-036#1",)


def test_a_named_card_is_not_made_up_when_a_listed_copy_is_in_the_hand() -> None:
    script = parse("""\
        game: creature-crush
        decks: {p1: [CC-036]}
        setup: {hands: {p1: 3}}
        steps:
          - place: {CC-036: p1.B1}
        """)
    assert truth_tables(script)[-1].in_zone("p1.B1") == ("CC-036#1",)
    assert script.decks["p1"][0] == "CC-036#1" and len(script.decks["p1"]) == 3


def test_enum_values_in_any_case() -> None:
    tob = parse("""\
        game: trick-or-beat
        cards:
          - {id: X1, name: Testwesen, type: Creature, attack: 2, survival: 3, faction: herocorps,
             keywords: [permanent]}
          - {id: X2, name: Testtaktik, type: tactic, category: SUPPLY}
        decks: {shared: [X1, X2]}
        steps:
          - draw: {P2: 1}
        """)
    cards = {c.id: c for c in tob.cards}
    assert cards["X1"].type == "creature" and cards["X1"]["faction"] == "Herocorps"
    assert cards["X1"].keywords == ("Permanent",) and cards["X2"]["category"] == "supply"
    fe = parse("""\
        game: fire-emblem-cipher
        cards:
          - {id: FX-1, name: Testheld, title: t, type: unit, cost: 1, attack: 50, support: 10,
             range: [1], symbols: [blue, RED]}
        decks: {p1: [FX-1]}
        steps:
          - draw: {p1: 1}
            expect: {active: P1}
        """)
    assert fe.cards[0]["symbols"] == ["Blue", "Red"]
    assert fe.steps[0].expect == {"active": "p1"}


def test_pile_counts_in_the_setup(tmp_path: Path) -> None:
    text = """\
        game: fire-emblem-cipher
        decks: {p1: [B01-005, B01-029, B01-002], p2: [B01-053]}
        setup:
          turn: 3
          active: p1
          phase: action
          table:
            p1.front: [B01-003]
            p2.front: [B01-052]
            p2.orbs: 3
          p1.orbs: 2
          hands: {p1: 1, p2: 2}
        steps:
          - note: nothing happens
            expect: {orbs: {p1: 2, p2: 3}, hands: {p1: 1, p2: 2}}
        """
    script = parse(text)
    start = initial_table(script)
    assert start.in_zone("p1.orbs") == ("B01-005#1", "B01-029#1")  # from the deck's top
    assert start.hand("p1") == ("B01-002#1",)
    assert len(start.in_zone("p2.orbs")) == 3 and len(start.hand("p2")) == 2  # unknown cards
    assert not any(start.card(u).face_up for u in start.in_zone("p2.orbs"))
    assert referee(text, tmp_path) == []


def test_a_card_in_a_deck_and_on_the_setup_table_is_an_error() -> None:
    with pytest.raises(ScriptError) as info:
        parse("""\
            game: creature-crush
            decks:
              p1: [CC-001, CC-006]
            setup:
              table:
                p1.B2: [CC-006]
            steps: []
            """)
    assert info.value.line == 6
    assert "CC-006 is listed in decks (line 3)" in str(info.value)
    script = parse("""\
        game: creature-crush
        decks: {p1: [CC-001, CC-006#1]}
        setup: {table: {p1.B2: [CC-006#2]}}
        steps: []
        """)
    assert initial_table(script).in_zone("p1.B2") == ("CC-006#2",)


@pytest.mark.parametrize(
    ("text", "fragment", "message"),
    [
        ("setup: {phase: kämpf}\nsteps: []\n", "phase", "unknown phase 'kämpf'"),
        ("setup: {phase: opening}\nsteps: []\n", "phase", "unknown phase 'opening'"),
        ("steps:\n  - phase: schluss\n", "schluss", "unknown phase 'schluss'"),
        ("steps:\n  - declare: {atack: CC-001}\n", "atack", "declare: unknown key 'atack'"),
        ("steps:\n  - declare: {attack: XX-1}\n", "XX-1", "unknown card 'XX-1'"),
        ("steps:\n  - declare: {move: {kind: teleport}}\n", "teleport", "has no move"),
        ("steps:\n  - declare: {redraw: twice}\n", "twice", "redraw must be show or fresh"),
        ("steps:\n  - declare: {player: p3}\n", "p3", "must be p1 or p2"),
        ("steps:\n  - declare: {choice: -1}\n", "choice", "whole number >= 0"),
        ("setup: {p1.lagr: 2}\nsteps: []\n", "lagr", "unknown zone 'p1.lagr'"),
        ("setup: {handz: {p1: 2}}\nsteps: []\n", "handz", "unknown key 'handz'"),
        ("setup: {p1.hell: 2, table: {p1.hell: [CC-001]}}\nsteps: []\n", "table",
         "p1.hell is given twice"),
    ],
)
def test_mistakes_name_their_line(text: str, fragment: str, message: str) -> None:
    full = "game: creature-crush\n" + text
    with pytest.raises(ScriptError) as info:
        parse_script(full, "t.yaml")
    line = next(i for i, row in enumerate(full.splitlines(), 1) if fragment in row)
    assert info.value.line == line, str(info.value)
    assert message in str(info.value)
    assert str(info.value).startswith(f"t.yaml:{line}: ")


BUNDLED = sorted(SCRIPTS.glob("*/*.yaml"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_broken_script_fails_with_file_and_line(data: st.DataObject) -> None:
    """Delete a line or replace a value anywhere in a bundled script: it still loads, or it
    fails with a ScriptError that names file and line; never with another exception."""
    path = data.draw(st.sampled_from(BUNDLED))
    lines = path.read_text(encoding="utf-8").splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["delete", "value", "key"]))
    if how == "delete":
        del lines[index]
    elif ":" in lines[index]:
        head, _, tail = lines[index].partition(":")
        junk = data.draw(st.sampled_from(["", " 7", " x", " -3", " [1, 2]", " {a: 1}", " true",
                                          " p3", " T1#0", " CC-999"]))
        lines[index] = (head + ":" + junk) if how == "value" else (
            head[: len(head) - len(head.lstrip())] + "zz" + head.strip()[1:] + ":" + tail)
    text = "\n".join(lines) + "\n"
    try:
        parse_script(text, str(path))
    except ScriptError as exc:
        assert exc.line is not None, str(exc)
        assert str(exc).startswith(f"{path}:{exc.line}: ")
