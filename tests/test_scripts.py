"""Table scripts: bundled scripts valid, errors at the right line, true table and camera view."""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES
from companion.sim.script import ScriptError, TableScript, load_script, parse_script
from companion.sim.script_commands import script as script_cli
from companion.sim.table_state import (
    TruthTable,
    apply_step,
    initial_table,
    snapshots,
    truth_tables,
    visible_snapshot,
)
from companion.snapshot import is_back

SCRIPTS = Path(__file__).resolve().parent.parent / "companion" / "sim" / "scripts"
BUNDLED = sorted(SCRIPTS.glob("*/*.yaml"))

HEAD = """\
game: creature-crush
players: [Ada, Bo]
first: p1
seed: 7
cards:
  - {id: T1, name: Testling, type: creature, cost: 7, attack: 3, life: 4}
  - {id: T2, name: Testbold, type: creature, cost: 2, attack: 1, life: 2}
  - {id: K1, name: Testcrush, type: crush, cost: 1}
decks: {p1: [T1, T2, T1, K1, T2], p2: [T1, T2, T2]}
steps:
"""


def parse(steps: str, head: str = HEAD) -> TableScript:
    return parse_script(head + textwrap.indent(textwrap.dedent(steps), "  "), "t.yaml")


def error_of(steps: str, head: str = HEAD) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        parse(steps, head)
    return info.value


def line_in(steps: str, fragment: str, head: str = HEAD) -> int:
    text = head + textwrap.indent(textwrap.dedent(steps), "  ")
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def tables(steps: str, head: str = HEAD) -> list[TruthTable]:
    loaded = parse(steps, head)
    return truth_tables(loaded)


# ----- the bundled scripts ---------------------------------------------------------------------

def test_every_game_has_a_bundled_script() -> None:
    assert {p.parent.name for p in BUNDLED} == set(GAMES)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_script_validates_and_plays(path: Path) -> None:
    loaded = load_script(path)
    assert loaded.game == path.parent.name
    shots = snapshots(loaded)
    assert len(shots) == len(loaded.steps) + 1
    for shot in shots:
        uids = [c.uid for c in shot.cards]
        assert len(uids) == len(set(uids))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_has_a_realistic_opening(game: str) -> None:
    opening = load_script(SCRIPTS / game / "opening.yaml")
    assert opening.description and opening.title
    assert 10 <= len(opening.steps) <= 30
    assert any(s.expect.get("legal") is True for s in opening.steps)
    assert any(key in s.expect for s in opening.steps for key in ("active", "phase", "flag"))
    ours = [opening, *(load_script(p) for p in (SCRIPTS / game).glob("*.yaml")
                      if p.name != "opening.yaml" and not p.name.startswith("rules-"))]
    assert any(s.expect.get("legal") is False for one in ours for s in one.steps)


def test_cli_check_accepts_bundled_scripts() -> None:
    result = CliRunner().invoke(script_cli, ["check", *map(str, BUNDLED)])
    assert result.exit_code == 0, result.output
    assert result.output.count("OK ") == len(BUNDLED)


def test_cli_check_reports_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD + "  - place: {T1: p1.Z9}\n", encoding="utf-8")
    good = BUNDLED[0]
    result = CliRunner().invoke(script_cli, ["check", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"OK {good}" in result.output
    assert f"{bad}:{HEAD.count(chr(10)) + 1}: unknown zone 'p1.Z9'" in result.output


def test_cli_show_prints_steps_and_json() -> None:
    path = SCRIPTS / "creature-crush" / "opening.yaml"
    result = CliRunner().invoke(script_cli, ["show", str(path), "--step", "4"])
    assert result.exit_code == 0, result.output
    assert "step 4" in result.output and "p1.B2" in result.output
    as_json = CliRunner().invoke(script_cli, ["show", str(path), "--step", "4", "--json"])
    assert '"zone": "p1.B2"' in as_json.output
    out_of_range = CliRunner().invoke(script_cli, ["show", str(path), "--step", "99"])
    assert out_of_range.exit_code != 0


# ----- errors with line numbers ----------------------------------------------------------------

@pytest.mark.parametrize(
    "steps,fragment,message",
    [
        ("- plaec: {T1: p1.B2}\n", "plaec", "unknown verb 'plaec' (did you mean 'place'?)"),
        ("- draw: {p1: 1}\n- place: {T1: p1.B9}\n", "p1.B9", "unknown zone 'p1.B9'"),
        ("- place: {X9: p1.B2}\n", "X9", "unknown card 'X9'"),
        ("- dice: {p1.w7: 3}\n", "p1.w7", "unknown die 'p1.w7'"),
        ("- dice: {p1.w1: 7}\n", "p1.w1", "must be a whole number 1-6"),
        ("- draw: {p1: 1}\n  expect: {legl: true}\n", "legl", "unknown expect key 'legl'"),
        ("- expect: {legal: maybe}\n", "legal", "expect legal must be true or false"),
        ("- draw: {p3: 1}\n", "p3", "must be p1 or p2"),
        ("- draw: {p2: 0}\n", "p2: 0", "draw p2 must be a whole number >= 1"),
        ("- tap: [T1]\n", "tap", "no copy of T1 is on the table"),
        ("- place: {T1#9: p1.B2}\n", "T1#9", "no physical card T1#9"),
        ("- burn: [p1.w1]\n", "burn", "die p1.w1 is not on the table"),
        ("- phase: 3\n", "phase", "phase must be true"),
        ("- note: [1]\n", "note", "note must be text"),
    ],
)
def test_errors_name_the_line(steps: str, fragment: str, message: str) -> None:
    error = error_of(steps)
    assert message in error.detail
    assert error.line == line_in(steps, fragment)
    assert str(error).startswith(f"t.yaml:{error.line}: ")


def test_ambiguous_copy_is_an_error_at_its_line() -> None:
    steps = """\
    - draw: {p1: 3}
    - place: {T1: p1.B1}
    - place: {T1: p1.B2}
    - tap: [T1]
    """
    error = error_of(steps)
    assert "ambiguous copy" in error.detail and "T1#1" in error.detail
    assert error.line == line_in(steps, "tap")


def test_bad_yaml_and_bad_top_level_are_reported() -> None:
    with pytest.raises(ScriptError, match="not valid YAML") as info:
        parse_script("game: creature-crush\nsteps: [\n  - {place\n", "t.yaml")
    assert info.value.line is not None
    with pytest.raises(ScriptError, match="unknown game") as info:
        parse_script("game: chess\nsteps: []\n", "t.yaml")
    assert info.value.line == 1
    with pytest.raises(ScriptError, match="unknown key 'step'") as info:
        parse_script("game: creature-crush\nstep: []\n", "t.yaml")
    assert info.value.line == 2


def test_inline_card_errors_point_at_the_card() -> None:
    head = HEAD.replace("{id: T2, name: Testbold, type: creature, cost: 2, attack: 1, life: 2}",
                        "{id: T2, name: Testbold, type: creature, cost: 2, life: 2}")
    error = error_of("- draw: {p1: 1}\n", head)
    assert error.line == line_in("", "id: T2", head)
    assert "attack" in error.detail


def test_card_of_the_cardset_is_known_without_inline_definition() -> None:
    head = HEAD.replace("decks: {p1: [T1, T2, T1, K1, T2], p2: [T1, T2, T2]}",
                        "decks: {p1: [CC-001, T1], p2: [T2]}")
    loaded = parse("- draw: {p1: 1}\n- place: {CC-001: p1.B2}\n", head)
    assert loaded.steps[1].place == {"CC-001#1": "p1.B2"}
    assert loaded.card("CC-001").name


def test_script_is_the_data_file_error_family() -> None:
    from companion.errors import CompanionError, DataFileError

    assert issubclass(ScriptError, DataFileError) and issubclass(ScriptError, CompanionError)


# ----- copies ------------------------------------------------------------------------------

def test_copies_are_numbered_across_the_table() -> None:
    loaded = parse("- draw: {p1: 1}\n")
    assert loaded.decks == {
        "p1": ["T1#1", "T2#1", "T1#2", "K1#1", "T2#2"],
        "p2": ["T1#3", "T2#3", "T2#4"],
    }
    assert loaded.owners["T1#3"] == "p2"


def test_explicit_copies_are_kept_and_skipped_by_numbering() -> None:
    head = HEAD.replace("p1: [T1, T2, T1, K1, T2]", "p1: [T1, T1#1, K1]")
    loaded = parse("- draw: {p1: 1}\n", head)
    assert loaded.decks["p1"] == ["T1#2", "T1#1", "K1#1"]
    assert loaded.decks["p2"][0] == "T1#3"
    error = error_of("- draw: {p1: 1}\n", HEAD.replace("p1: [T1, T2, T1, K1, T2]",
                                                       "p1: [T1#2, T1#2]"))
    assert "appears twice" in error.detail


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["T1", "T2", "K1"]), min_size=1, max_size=12),
       st.lists(st.sampled_from(["T1", "T2", "K1"]), max_size=12))
def test_copy_numbers_are_one_to_n_per_card(p1: list[str], p2: list[str]) -> None:
    head = HEAD.replace("decks: {p1: [T1, T2, T1, K1, T2], p2: [T1, T2, T2]}",
                        f"decks: {{p1: [{', '.join(p1)}], p2: [{', '.join(p2)}]}}")
    loaded = parse("- draw: {p1: 1}\n", head)
    uids = [*loaded.decks["p1"], *loaded.decks["p2"]]
    assert len(set(uids)) == len(uids)
    for card in set(p1 + p2):
        copies = sorted(int(u.split("#")[1]) for u in uids if u.startswith(card + "#"))
        assert copies == list(range(1, (p1 + p2).count(card) + 1))
    for card in set(p2):  # p2's copies come after p1's
        first = loaded.decks["p2"][p2.index(card)]
        assert int(first.split("#")[1]) == p1.count(card) + 1


def test_place_takes_the_owners_hand_copy_then_the_deck_top() -> None:
    steps = """\
    - draw: {p1: 1, p2: 1}
    - place: {T1: p2.B1}
    - place: {T1: p1.B1}
    - place: {T2: p1.B2}
    """
    loaded = parse(steps)
    assert loaded.steps[1].place == {"T1#3": "p2.B1"}
    assert loaded.steps[2].place == {"T1#1": "p1.B1"}
    assert loaded.steps[3].place == {"T2#1": "p1.B2"}  # from the top of p1's camp


def test_place_moves_the_single_laid_out_copy() -> None:
    steps = """\
    - draw: {p1: 2}
    - place: {T2: p1.B2}
    - place: {T2: p1.A2}
    """
    loaded = parse(steps)
    assert loaded.steps[2].place == {"T2#1": "p1.A2"}


# ----- truth and what the camera sees ------------------------------------------------------------

def test_initial_table_has_face_down_decks_with_only_the_top_visible() -> None:
    loaded = parse("- draw: {p1: 1}\n")
    table = initial_table(loaded)
    assert table.in_zone("p1.lager") == ("T1#1", "T2#1", "T1#2", "K1#1", "T2#2")
    shot = visible_snapshot(table)
    lager = shot.in_zone("p1.lager")
    assert len(lager) == 1 and is_back(lager[0].uid) and not lager[0].face_up
    assert lager[0].uid == f"back:{table.cards['T1#1'].serial}"
    serials = [c.serial for c in table.cards.values()]
    assert len(set(serials)) == len(serials)


def test_draw_changes_the_top_back_serial() -> None:
    before, after = tables("- draw: {p1: 2}\n")
    top_before = visible_snapshot(before).in_zone("p1.lager")[0].uid
    top_after = visible_snapshot(after).in_zone("p1.lager")[0].uid
    assert top_before != top_after
    assert top_after == f"back:{after.cards['T1#2'].serial}"
    assert after.hand("p1") == ("T1#1", "T2#1")


def test_place_shows_the_card_and_place_down_shows_its_back() -> None:
    *_, table = tables("- draw: {p1: 4}\n- place: {T2: p1.B2}\n  place_down: {K1: p1.C1}\n")
    shot = visible_snapshot(table)
    creature = shot.card("T2#1")
    assert creature is not None and creature.zone == "p1.B2" and creature.face_up
    crush = shot.in_zone("p1.C1")
    assert len(crush) == 1 and crush[0].uid == f"back:{table.cards['K1#1'].serial}"
    assert shot.card("K1#1") is None
    layout = table.layout
    assert layout.zone_at(creature.x_mm, creature.y_mm) == "p1.B2"
    assert layout.zone_at(crush[0].x_mm, crush[0].y_mm) == "p1.C1"


def test_flip_reveals_and_remove_takes_off_the_table() -> None:
    steps = "- draw: {p1: 4}\n- place_down: {K1: p1.C1}\n- flip: [K1]\n- remove: [K1]\n"
    _, _, down, up, gone = tables(steps)
    assert visible_snapshot(up).card("K1#1") is not None
    assert visible_snapshot(down).card("K1#1") is None
    assert visible_snapshot(gone).in_zone("p1.C1") == []
    assert gone.cards["K1#1"].zone is None and gone.cards["K1#1"].holder == "p1"
    error = error_of(steps + "- flip: [K1]\n")
    assert "no copy of K1 is on the table" in error.detail


def test_pile_shows_only_its_top_card() -> None:
    *_, table = tables("- draw: {p1: 2}\n- place: {T1: p1.hell}\n- place: {T2: p1.hell}\n")
    hell = visible_snapshot(table).in_zone("p1.hell")
    assert [c.uid for c in hell] == ["T2#1"]
    assert table.in_zone("p1.hell") == ("T2#1", "T1#1")


def test_tap_turns_the_card_90_degrees_and_untap_back() -> None:
    *_, tapped, untapped = tables("- draw: {p1: 1}\n- place: {T1: p1.B1}\n- tap: [T1]\n"
                                  "- untap: [T1]\n")
    card = visible_snapshot(tapped).card("T1#1")
    assert card is not None and card.tapped and card.angle_deg == 90.0
    card = visible_snapshot(untapped).card("T1#1")
    assert card is not None and not card.tapped and card.angle_deg == 0.0


def test_dice_roll_burn_reroll_and_damage_on_a_creature() -> None:
    steps = """\
    - draw: {p1: 1}
      dice: {p1.w1: 2, p1.w2: 5}
    - place: {T1: p1.B1}
      burn: [p1.w1]
    - dice: {p1.w1: 4, p2.r1: 3}
      on: {p2.r1: T1}
    - dice: {p2.r1: 5}
    """
    _, rolled, burned, rerolled, hurt = tables(steps)
    shot = visible_snapshot(rolled)
    die = shot.die("p1.w1")
    assert die is not None and die.value == 2 and die.zone == "p1.dice"
    assert visible_snapshot(burned).die("p1.w1").zone == "p1.burned"  # type: ignore[union-attr]
    assert visible_snapshot(rerolled).die("p1.w1").zone == "p1.dice"  # type: ignore[union-attr]
    damage = visible_snapshot(hurt).die("p2.r1")
    assert damage is not None and damage.value == 5 and damage.on == "T1#1"
    assert damage.zone == "p1.B1"
    for d in visible_snapshot(hurt).dice:
        assert hurt.layout.zone_at(d.x_mm, d.y_mm) == d.zone


def test_things_on_a_card_follow_it_and_leave_with_it() -> None:
    steps = """\
    - draw: {p1: 1}
    - place: {T1: p1.B1}
      dice: {p2.r1: 2}
      on: {p2.r1: T1}
    - place: {T1#1: p1.A1}
    - place: {T1#1: p1.hell}
    """
    *_, moved, dead = tables(steps)
    assert moved.dice["p2.r1"].zone == "p1.A1" and moved.dice["p2.r1"].on == "T1#1"
    assert "p2.r1" in dead.dice  # in the hell pile the die keeps lying on it
    steps_remove = steps.replace("- place: {T1#1: p1.hell}", "- remove: [T1#1]")
    assert "p2.r1" not in tables(steps_remove)[-1].dice


def test_equipment_on_a_creature_keeps_both_in_view() -> None:
    head = """\
game: trick-or-beat
seed: 2
decks: {shared: [TOB-006, TOB-111, TOB-020]}
steps:
"""
    steps = "- draw: {p1: 2}\n- place: {TOB-006: p1.passive}\n- place: {TOB-111: p1.passive}\n" \
            "  on: {TOB-111: TOB-006}\n"
    *_, table = tables(steps, head)
    shot = visible_snapshot(table)
    equipment = shot.card("TOB-111#1")
    assert shot.card("TOB-006#1") is not None
    assert equipment is not None and equipment.on == "TOB-006#1"


def test_level_up_covers_the_card_beneath() -> None:
    head = """\
game: fire-emblem-cipher
seed: 2
decks: {p1: [B01-003, B01-002, B01-010], p2: [B01-053]}
steps:
"""
    steps = "- place: {B01-003: p1.front}\n- draw: {p1: 1}\n- place: {B01-002: p1.front}\n" \
            "  on: {B01-002: B01-003}\n"
    *_, table = tables(steps, head)
    shot = visible_snapshot(table)
    assert shot.card("B01-003#1") is None
    top = shot.card("B01-002#1")
    assert top is not None and top.zone == "p1.front"


def test_flag_token_lies_on_the_defending_card() -> None:
    head = """\
game: challengers
seed: 1
decks: {p1: [CH-002, CH-001], p2: [CH-001]}
steps:
"""
    *_, table = tables("- place: {CH-002: p1.play}\n  on: {flag: CH-002}\n", head)
    flag = visible_snapshot(table).tokens[0]
    assert flag.token == "flag" and flag.on == "CH-002#1" and flag.zone == "p1.play"


def test_area_fans_cards_inside_the_zone_with_stickers_apart() -> None:
    head = """\
game: trick-or-beat
seed: 2
decks: {shared: [TOB-001, TOB-002, TOB-003, TOB-004, TOB-005]}
steps:
"""
    steps = "- draw: {p1: 5}\n- place: {TOB-001: p1.passive, TOB-002: p1.passive, " \
            "TOB-003: p1.passive, TOB-004: p1.passive, TOB-005: p1.passive}\n"
    *_, table = tables(steps, head)
    cards = visible_snapshot(table).in_zone("p1.passive")
    assert len(cards) == 5
    xs = sorted(c.x_mm or 0.0 for c in cards)
    assert all(b - a >= 60 for a, b in itertools.pairwise(xs))
    assert all(table.layout.zone_at(c.x_mm, c.y_mm) == "p1.passive" for c in cards)


def test_apply_step_is_pure_and_matches_validation() -> None:
    loaded = load_script(SCRIPTS / "fire-emblem-cipher" / "opening.yaml")
    table = initial_table(loaded)
    before = visible_snapshot(table).to_json()
    after = apply_step(table, loaded.steps[0])
    assert visible_snapshot(table).to_json() == before
    assert after is not table and after.cards != table.cards


def test_same_script_and_seed_give_the_same_snapshots() -> None:
    path = SCRIPTS / "challengers" / "opening.yaml"
    first = [s.to_json() for s in snapshots(load_script(path))]
    second = [s.to_json() for s in snapshots(load_script(path))]
    assert first == second
    text = path.read_text(encoding="utf-8").replace("seed: 4", "seed: 5")
    other = [s.to_json() for s in snapshots(parse_script(text, "x.yaml"))]
    assert other != first  # different back serials


def test_setup_starts_from_a_position() -> None:
    head = HEAD.replace("steps:\n", textwrap.dedent("""\
        setup:
          turn: 3
          active: p2
          table: {p1.B2: [T1#4], p2.C1: [{card: K1#2, down: true}]}
          hands: {p1: 2}
          dice: {p2.w1: 6}
        steps:
        """))
    loaded = parse("- tap: [T1]\n", head)
    setup = loaded.setup
    assert setup.turn == 3 and setup.active == "p2" and setup.hands == {"p1": 2}
    table = initial_table(loaded)
    shot = visible_snapshot(table)
    assert shot.card("T1#4") is not None  # a second copy of a deck card, written as one
    assert shot.in_zone("p2.C1")[0].uid.startswith("back:")
    assert table.hand("p1") == ("T1#1", "T2#1")
    assert shot.die("p2.w1").value == 6  # type: ignore[union-attr]
