"""Where the simulated truth lays things: every sticker it calls visible can really be read.

The pipeline tests render these positions; a truth that lays a card over another card's
sticker (and still calls both visible) makes the camera look wrong when the truth is. These
checks need no rendering, so they run over every bundled script.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.layouts import MatLayout, load_layout
from companion.sim.script import load_script, parse_script
from companion.sim.table_state import (
    SIDE_OFFSET_MM,
    TruthTable,
    truth_tables,
    visible_snapshot,
)
from companion.snapshot import SeenCard, TableSnapshot
from companion.vision.tracker import FrameObservation, Sighting, Tracker, TrackerSettings

SCRIPTS = Path(__file__).resolve().parents[2] / "companion/sim/scripts"
QUIET = 17 / 13  # Micro QR M2: 13 modules plus 2 quiet modules each side


def _footprint(card: SeenCard, layout: MatLayout) -> tuple[float, float, float, float]:
    w, h = layout.card_w_mm, layout.card_h_mm
    if card.tapped:
        w, h = h, w
    x, y = card.x_mm or 0.0, card.y_mm or 0.0
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def _quiet_square(card: SeenCard, layout: MatLayout) -> tuple[float, float, float, float]:
    half = layout.sticker_mm * QUIET / 2
    x, y = card.x_mm or 0.0, card.y_mm or 0.0
    return x - half, y - half, x + half, y + half


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def covered_stickers(shot: TableSnapshot) -> list[tuple[str, str]]:
    """(card, card whose footprint reaches its sticker or quiet zone) for visible cards."""
    layout = load_layout(shot.game)
    return [
        (a.uid, b.uid) for a, b in itertools.permutations(shot.cards, 2)
        if _overlap(_quiet_square(a, layout), _footprint(b, layout))
    ]


def _table(game: str, decks: str, steps: str) -> TruthTable:
    text = f"game: {game}\nseed: 2\ndecks: {decks}\nsteps:\n{steps}"
    return truth_tables(parse_script(text))[-1]


@pytest.mark.parametrize("name", sorted(str(p.relative_to(SCRIPTS))
                                        for p in SCRIPTS.glob("*/*.yaml")))
def test_no_visible_sticker_lies_under_another_card(name: str) -> None:
    script = load_script(SCRIPTS / name)
    for step, table in enumerate(truth_tables(script)):
        shot = visible_snapshot(table)
        assert covered_stickers(shot) == [], f"after step {step}"
        layout = load_layout(script.game)
        for card in shot.cards:
            assert layout.zone_at(card.x_mm, card.y_mm) == card.zone, f"{card.uid} step {step}"


def test_equipment_lies_beside_its_creature_inside_the_lane() -> None:
    table = _table("trick-or-beat", "{shared: [TOB-006, TOB-111, TOB-113, TOB-020]}", (
        "- draw: {p1: 4}\n"
        "- place: {TOB-006: p1.active, TOB-020: p1.active}\n"
        "- place: {TOB-111: p1.active}\n  on: {TOB-111: TOB-006}\n"
        "- place: {TOB-113: p1.active}\n  on: {TOB-113: TOB-006}\n"
    ))
    shot = visible_snapshot(table)
    creature, first, second = (shot.card(u) for u in ("TOB-006#1", "TOB-111#1", "TOB-113#1"))
    assert creature is not None and first is not None and second is not None
    assert first.on == second.on == "TOB-006#1"
    assert first.x_mm == pytest.approx((creature.x_mm or 0) + SIDE_OFFSET_MM)
    assert second.x_mm == pytest.approx((creature.x_mm or 0) - SIDE_OFFSET_MM)
    assert covered_stickers(shot) == []


def test_die_of_a_card_covered_in_a_pile_lies_on_the_top_card() -> None:
    """Two destroyed creatures laid on the hell pile with their damage dice: the camera sees
    both dice on the top card, each on its own spot."""
    table = _table("creature-crush", "{p1: [CC-026, CC-046, CC-001]}", (
        "- draw: {p1: 2}\n"
        "- place: {CC-026: p1.A1, CC-046: p1.B1}\n"
        "  dice: {p1.r1: 3, p1.r2: 6}\n"
        "  on: {p1.r1: CC-026, p1.r2: CC-046}\n"
        "- place: {CC-046: p1.hell}\n"
        "- place: {CC-026: p1.hell}\n"
    ))
    shot = visible_snapshot(table)
    r1, r2 = shot.die("p1.r1"), shot.die("p1.r2")
    assert r1 is not None and r2 is not None
    assert r1.on == r2.on == "CC-026#1" and r1.zone == r2.zone == "p1.hell"
    assert (r1.x_mm, r1.y_mm) != (r2.x_mm, r2.y_mm)
    assert table.dice["p1.r2"].on == "CC-046#1"  # the truth keeps what it lay on


@settings(max_examples=30, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=7))
def test_a_crowded_row_never_covers_a_sticker(tapped: list[bool]) -> None:
    ids = ["PR4", "PR28", "PR60", "PR33", "PR63", "PR55", "PR1"][:len(tapped)]
    placed = ", ".join(f"{i}: p1.home" for i in ids)
    steps = f"- draw: {{p1: {len(ids)}}}\n- place: {{{placed}}}\n"
    taps = [i for i, t in zip(ids, tapped, strict=True) if t]
    if taps:
        steps += f"- tap: [{', '.join(taps)}]\n"
    shot = visible_snapshot(_table("my-little-pony-ccg", f"{{p1: [{', '.join(ids)}]}}", steps))
    assert len(shot.in_zone("p1.home")) == len(ids)
    assert covered_stickers(shot) == []


def _settle(tracker: Tracker, sightings: list[Sighting], frames: int = 12) -> TableSnapshot:
    snap = None
    for i in range(frames):
        snap = tracker.update(FrameObservation(i / 30, sightings)) or snap
    assert snap is not None
    return snap


def test_tracker_reads_a_card_laid_beside_and_shifted_as_lying_on_it() -> None:
    tracker = Tracker("trick-or-beat", TrackerSettings())
    base = Sighting("TOB-006#1", "card", 200.0, 225.0, "p1.active")
    _settle(tracker, [base])
    side = Sighting("TOB-111#1", "card", 200.0 + SIDE_OFFSET_MM, 215.0, "p1.active")
    snap = _settle(tracker, [base, side])
    upper = snap.card("TOB-111#1")
    assert upper is not None and upper.on == "TOB-006#1"


def test_tracker_does_not_read_overlapping_neighbours_in_a_row_as_lying_on() -> None:
    tracker = Tracker("my-little-pony-ccg", TrackerSettings())
    first = Sighting("PR4#1", "card", 200.0, 313.0, "p1.home")
    _settle(tracker, [first])
    second = Sighting("PR28#1", "card", 250.0, 313.0, "p1.home")
    snap = _settle(tracker, [first, second])
    assert all(c.on is None for c in snap.cards)
