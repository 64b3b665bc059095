"""Settled tables a real camera gives and a perfect eye does not: a die the eye sees but did
not read again after a hand passed over it, and a table that settles a moment before the last
card laid is read. Neither may become a violation; a rule really broken must still be shown.

Each plays a bundled opening's true tables (`camera truth`, the live session as `serve
--video` runs it, nobody at the page) with the tables the e2e bench's camera gave in their
place (docs/lab/2026-11-28-tables-read-late.md). The oracle is the script's own `expect`s
(the violations it names, as the engine's referee finds them on the true table) and, for the
mismatch that must still show, the rulebook's damage worked by hand.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.server.video_check import TruthEye, TruthFrames, referee_feed
from companion.server.video_report import VideoReport
from companion.sim.script import load_script
from companion.sim.source import script_snapshots
from companion.snapshot import SeenDie, TableSnapshot

SCRIPTS = Path(__file__).resolve().parents[2] / "companion" / "sim" / "scripts"
CREATURE_CRUSH = SCRIPTS / "creature-crush" / "opening.yaml"
CHALLENGERS = SCRIPTS / "challengers" / "opening.yaml"
DAMAGE_DIE = "p2.r1"  # on Bo's Creature in B3 (CC-013#1) from step 17 on


def _play(path: Path, tables: list[TableSnapshot], tmp_path: Path) -> VideoReport:
    """`tables` as the settled tables of a camera, through the live session."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    frames = TruthFrames(len(tables))
    return referee_feed(path, frames, TruthEye(tables), frames.steps, tmp_path / "games.db",
                        "none")


def _with_die(table: TableSnapshot, name: str, **change: object) -> TableSnapshot:
    dice = tuple(replace(d, **change) if d.die == name else d  # type: ignore[arg-type]
                 for d in table.dice)
    return replace(table, dice=dice)


def _damage_die(table: TableSnapshot) -> SeenDie:
    die = table.die(DAMAGE_DIE)
    assert die is not None and die.on == "CC-013#1"
    return die


def test_a_damage_die_the_eye_did_not_read_breaks_no_rule(tmp_path: Path) -> None:
    """At 720p the red die on Bo's creature goes unread after the hands of steps 18 and 22
    pass over it (its place looks as before). Reported unread, it is no reading: the page
    shows what the script names (Bo's wrong payment at step 24), no damage mismatch."""
    tables = script_snapshots(load_script(CREATURE_CRUSH))
    assert _damage_die(tables[17]).value == 3  # Ausgangslage: the attack's 3 damage
    for step in (18, 22):
        tables[step] = _with_die(tables[step], DAMAGE_DIE, unread=True)
    report = _play(CREATURE_CRUSH, tables, tmp_path)
    assert report.expected == ["cc.wrong-payment"]
    assert report.violations == report.expected
    assert report.final_wrong == []


def test_a_damage_die_left_out_of_the_table_reads_as_taken_off(tmp_path: Path) -> None:
    """What the eye gave before it reported unread dice: the die left out of those tables.
    The referee reads that as the die taken off (0 damage against the rules' 3): the mismatch
    the 720p run showed four times."""
    tables = script_snapshots(load_script(CREATURE_CRUSH))
    for step in (18, 22):
        tables[step] = replace(tables[step], dice=tuple(
            d for d in tables[step].dice if d.die != DAMAGE_DIE))
    report = _play(CREATURE_CRUSH, tables, tmp_path)
    assert report.violations.count("cc.damage-mismatch") >= 2


def test_a_damage_die_read_showing_other_damage_is_still_a_mismatch(tmp_path: Path) -> None:
    """The same die read clearly at step 19 showing 1 where the rules give 3 (the attack of
    step 17: Schaden = the attacker's strength, 3) is a damage mismatch, though the die went
    unread on the table before."""
    tables = script_snapshots(load_script(CREATURE_CRUSH))
    tables[18] = _with_die(tables[18], DAMAGE_DIE, unread=True)
    tables[19] = _with_die(tables[19], DAMAGE_DIE, value=1)
    report = _play(CREATURE_CRUSH, tables, tmp_path)
    assert "cc.damage-mismatch" in report.violations
    shown = [s.step for s in report.shown if s.code == "cc.damage-mismatch"]
    assert shown and min(shown) >= 19


def test_the_last_card_benched_read_a_moment_late_is_no_seat_violation(tmp_path: Path) -> None:
    """Step 19 of Challengers!: Ada benches her four-card stack on four seats. On the phone
    camera one table settled with three of them read and the fourth (Laufbursche, CH-003#1,
    on bench 5) not yet, the next table two frames later with it. The fourth is not laid
    under Nachbarin on bench 1: the script names no violation and the match ends as the
    script says (Bo wins)."""
    tables = script_snapshots(load_script(CHALLENGERS))
    last = tables[-1]
    assert last.card("CH-003#1") is not None
    early = replace(last, cards=tuple(c for c in last.cards if c.uid != "CH-003#1"))
    report = _play(CHALLENGERS, [*tables[:-1], early, last], tmp_path)
    assert report.expected == []
    assert report.violations == []
    assert report.final_wrong == []


def test_a_card_benched_unseen_beneath_another_name_is_flagged_once_play_goes_on(
        tmp_path: Path) -> None:
    """The other side of waiting for a card shown nowhere: at step 15 Bo benches Klappergerippe
    (CH-404#1) and Stadtkind; say the camera never sees Klappergerippe again, as if laid beneath
    a card of another name. Once play goes on (Bo's attack, step 16) it went to the bench
    unseen, beneath another name: "niemals zwei Karten mit verschiedenen Namen" breaks
    (`ch.seat-name`), and the match still ends as the script says."""
    tables = script_snapshots(load_script(CHALLENGERS))
    hidden = [replace(t, cards=tuple(c for c in t.cards if c.uid != "CH-404#1"))
              for t in tables[15:]]
    report = _play(CHALLENGERS, [*tables[:15], *hidden], tmp_path)
    shown = [(s.step, s.code) for s in report.shown if s.code == "ch.seat-name"]
    assert shown and all(step >= 16 for step, _ in shown)
    assert report.final_wrong == []
