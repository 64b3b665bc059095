"""Tracker logic on synthetic sighting sequences (no images)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.tracker import FrameObservation, Sighting, Tracker, TrackerSettings

DT = 1 / 30


def card(key: str, x: float = 100.0, y: float = 100.0, zone: str = "p1.A1") -> Sighting:
    return Sighting(key, "card", x, y, zone)


def die(name: str, value: int, x: float = 300.0, y: float = 300.0) -> Sighting:
    return Sighting(name, "die", x, y, "p1.dice", value=value)


class Clock:
    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self.i = 0
        self.emitted: list = []

    def frame(self, sightings: list[Sighting], **kw: object):
        obs = FrameObservation(self.i * DT, sightings, **kw)  # type: ignore[arg-type]
        self.i += 1
        snap = self.tracker.update(obs)
        if snap is not None:
            self.emitted.append(snap)
        return snap


def test_item_appears_only_after_n_frames() -> None:
    c = Clock(Tracker("creature-crush", TrackerSettings(appear_s=0.1)))
    c.frame([card("A#1")])
    c.frame([card("A#1")])
    assert c.tracker.current().card("A#1") is None
    c.frame([card("A#1")])
    assert c.tracker.current().card("A#1") is not None


def test_single_misread_never_becomes_an_item() -> None:
    c = Clock(Tracker("creature-crush"))
    c.frame([card("A#1")])
    c.frame([card("ghost#1")])
    for _ in range(20):
        c.frame([card("A#1")])
    assert [x.uid for x in c.tracker.current().cards] == ["A#1"]
    assert len(c.emitted) == 1


def test_snapshot_waits_for_settle_and_is_emitted_once() -> None:
    c = Clock(Tracker("creature-crush", TrackerSettings(settle_s=0.1)))
    for _ in range(10):
        c.frame([card("A#1")], motion=0.05)
    snaps = [c.frame([card("A#1")]) for _ in range(30)]
    emitted = [s for s in snaps if s is not None]
    assert len(emitted) == 1
    last_motion = 9 * DT
    assert last_motion + 0.1 - 1e-9 <= emitted[0].time_s <= last_motion + 0.1 + DT + 1e-9
    assert emitted[0].card("A#1") is not None


def test_no_snapshot_while_moving_or_hand() -> None:
    c = Clock(Tracker("creature-crush"))
    for _ in range(20):
        c.frame([card("A#1")], motion=0.05)
    assert c.emitted == []
    for _ in range(20):
        c.frame([card("A#1")], hand=True)
    assert c.emitted == []
    for _ in range(6):
        c.frame([card("A#1")])
    assert len(c.emitted) == 1


def test_hand_holds_hidden_items() -> None:
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([card("A#1"), card("B#1", x=300)])
    for _ in range(40):  # a hand over B: not seen, but held
        c.frame([card("A#1")], hand=True, motion=0.02)
    for _ in range(40):  # hand resting still over B: local occlusion holds it
        c.frame([card("A#1")], occluded=lambda x, y: x > 200)
    assert c.tracker.current().card("B#1") is not None
    assert len(c.emitted) == 1


def test_a_die_is_held_by_its_place_and_after_a_hand_was_over_it_reported_unread() -> None:
    """A die missed whose place looks as when read stays; once a hand was over it (it may
    have been turned to another face) its place still says it lies there, but only a read
    tells its face: it stays, unread, its last value no new reading, until it is read."""
    c = Clock(Tracker("creature-crush"))
    for _ in range(5):
        c.frame([die("p1.c1", 3)])
    for _ in range(20):
        c.frame([], unchanged=frozenset({"p1.c1"}))
    held = c.tracker.current().die("p1.c1")
    assert held is not None and not held.unread
    for _ in range(5):
        c.frame([], occluded=lambda x, y: True)
    for _ in range(20):
        c.frame([], unchanged=frozenset({"p1.c1"}))
    unread = c.tracker.current().die("p1.c1")
    assert unread is not None and unread.unread and unread.value == 3
    for _ in range(10):
        c.frame([die("p1.c1", 3)])
    read = c.tracker.current().die("p1.c1")
    assert read is not None and not read.unread and read.value == 3 and read.rolls == 0


def test_a_die_a_hand_was_over_goes_when_its_place_changed() -> None:
    """Unread after the hand and its place no longer as when read: it was taken away."""
    c = Clock(Tracker("creature-crush"))
    for _ in range(5):
        c.frame([die("p1.c1", 3)])
    for _ in range(5):
        c.frame([], occluded=lambda x, y: True)
    for _ in range(20):
        c.frame([])
    assert c.tracker.current().die("p1.c1") is None
    assert c.emitted[-1].die("p1.c1") is None


def test_a_table_settles_with_a_die_unread_and_the_die_read_again_is_no_new_table() -> None:
    """The die's place unchanged after a hand: the table settles at once (no waiting for a
    read that may come seconds later), the die in it unread; its face read again, the same
    value, changes nothing."""
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([die("p1.c1", 3), card("A#1")])
    for _ in range(6):
        c.frame([card("A#1")], hand=True, motion=0.05, occluded=lambda x, y: True)
    for _ in range(20):
        c.frame([card("A#1"), card("B#1", x=200)], unchanged=frozenset({"p1.c1"}))
    after_hand = c.emitted[-1]
    unread = after_hand.die("p1.c1")
    assert after_hand.card("B#1") is not None
    assert unread is not None and unread.unread and unread.value == 3
    count = len(c.emitted)
    for _ in range(20):
        c.frame([die("p1.c1", 3), card("A#1"), card("B#1", x=200)])
    assert len(c.emitted) == count


def test_the_table_waits_for_a_die_a_hand_was_over_as_for_any_missed_item() -> None:
    """Held unread only once it was missed `vanish_s` with its place unchanged: until then
    the tracker is pending (a card laid in the same change, read a moment later, still makes
    the same table)."""
    tracker = Tracker("creature-crush")
    c = Clock(tracker)
    for _ in range(10):
        c.frame([die("p1.c1", 3)])
    for _ in range(6):
        c.frame([], hand=True, motion=0.05, occluded=lambda x, y: True)
    waited = 0.0
    c.frame([], unchanged=frozenset({"p1.c1"}))
    while tracker.pending:
        c.frame([], unchanged=frozenset({"p1.c1"}))
        waited += DT
        assert waited < 1.0
    assert waited >= tracker.settings.vanish_s - DT
    held = tracker.current().die("p1.c1")
    assert held is not None and held.unread


def test_missed_item_whose_place_looks_unchanged_is_held() -> None:
    c = Clock(Tracker("creature-crush", TrackerSettings(vanish_s=4 / 30)))
    for _ in range(10):
        c.frame([card("A#1"), card("B#1", x=300)])
    for _ in range(30):
        c.frame([card("A#1")], unchanged=frozenset({"B#1"}))
    assert c.tracker.current().card("B#1") is not None
    for _ in range(5):
        c.frame([card("A#1")])
    assert c.tracker.current().card("B#1") is None


def test_another_card_read_on_its_sticker_takes_it_away_though_its_place_looks_held() -> None:
    """The card turned over in place (its back read where its front was): the front is gone
    even where the eye says its place still looks much as it did."""
    c = Clock(Tracker("creature-crush", TrackerSettings(vanish_s=4 / 30)))
    for _ in range(10):
        c.frame([card("A#1")])
    for _ in range(10):
        c.frame([card("back:7", x=101)], unchanged=frozenset({"A#1"}))
    snap = c.tracker.current()
    assert snap.card("A#1") is None and snap.card("back:7") is not None


def test_item_vanishes_when_place_visible_and_empty() -> None:
    c = Clock(Tracker("creature-crush", TrackerSettings(vanish_s=4 / 30)))
    for _ in range(10):
        c.frame([card("A#1"), card("B#1", x=300)])
    for _ in range(3):
        c.frame([card("A#1")])
    assert c.tracker.current().card("B#1") is not None
    for _ in range(10):
        c.frame([card("A#1")])
    assert c.tracker.current().card("B#1") is None
    assert [s.card("B#1") is None for s in c.emitted] == [False, True]


def test_die_on_a_sticker_holds_the_card_and_lies_on_it() -> None:
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([card("A#1"), die("p1.r1", 2, 200, 200)])
    for _ in range(20):
        c.frame([die("p1.r1", 2, 105, 110)])
    snap = c.tracker.current()
    assert snap.card("A#1") is not None
    d = snap.die("p1.r1")
    assert d is not None and d.on == "A#1"


def test_die_value_is_the_majority_since_the_table_last_moved() -> None:
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([die("p1.w1", 3)])
    for v in (1, 6, 2, 5):
        c.frame([die("p1.w1", v)], motion=0.05)
    for v in (4, 4, 1, 4, 4, 4, 4, 4):
        c.frame([die("p1.w1", v)])
    d = c.tracker.current().die("p1.w1")
    assert d is not None and d.value == 4
    assert [s.die("p1.w1").value for s in c.emitted] == [3, 4]  # type: ignore[union-attr]


def test_card_placed_on_another_supersedes_it_in_a_pile() -> None:
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([card("A#1", zone="p1.lager")])
    for _ in range(5):
        c.frame([], hand=True, motion=0.05)
    for _ in range(10):
        c.frame([card("B#1", zone="p1.lager")])
    assert [x.uid for x in c.tracker.current().cards] == ["B#1"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), recall=st.floats(0.6, 1.0))
def test_flaky_reads_and_hands_give_exactly_the_tables_that_were(seed: int, recall: float) -> None:
    """A table where cards really leave and arrive, read by a flaky decoder, with hands
    passing: each settled snapshot is the true table, and each true table is emitted once.

    The tracker gets what a camera pipeline would: the stickers the decoder read, and whether
    each known card's place still *looks* the same (true while the card lies there, false
    once it is gone), never which cards the decoder missed."""
    rng = random.Random(seed)
    spots = {f"C{k}#1": (70.0 * (k % 6), 100.0 * (k // 6)) for k in range(14)}
    present = set(list(spots)[:12])
    c = Clock(Tracker("creature-crush"))
    truths: list[frozenset[str]] = [frozenset(present)]
    for frame in range(540):  # four hand passes, then a quiet minute of frames
        hand = frame < 480 and 100 <= frame % 120 < 115
        if hand and frame % 120 == 107:  # under the hand, a card leaves or arrives
            gone = sorted(present)
            if rng.random() < 0.5 and gone:
                present.discard(rng.choice(gone))
            else:
                present.add(rng.choice(sorted(set(spots) - present) or gone))
            truths.append(frozenset(present))
        chance = 1.0 if frame < 10 else 0.3 if hand else recall  # the table is known first
        seen = [card(k, *spots[k]) for i, k in enumerate(sorted(present))
                if rng.random() < chance and not (hand and i % 2)]
        looks_same = frozenset(k for k in c.tracker.present_keys() if k in present)
        c.frame(seen, hand=hand, motion=0.03 if hand else 0.0,
                unchanged=frozenset() if hand else looks_same)
    emitted = [frozenset(x.uid for x in s.cards) for s in c.emitted]
    distinct = [t for i, t in enumerate(truths) if i == 0 or t != truths[i - 1]]
    assert emitted == distinct


def rolled_die(name: str, value: int, x: float, y: float, angle: float) -> Sighting:
    return Sighting(name, "die", x, y, "p1.dice", angle_deg=angle, value=value)


def test_a_die_thrown_again_to_the_same_value_counts_a_roll() -> None:
    """Contract with the rules: `SeenDie.rolls` goes up each time a die was lifted and settled
    again, so a re-roll that shows the same value is still seen."""
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([rolled_die("p1.w1", 4, 300, 300, 10)])
    first = c.emitted[-1].die("p1.w1")
    assert first is not None and first.rolls == 0
    for _ in range(6):  # picked up: hidden under the hand
        c.frame([], hand=True, motion=0.05, occluded=lambda x, y: True)
    for _ in range(10):  # thrown: lands elsewhere, again a 4
        c.frame([rolled_die("p1.w1", 4, 318, 290, 37)])
    again = c.emitted[-1].die("p1.w1")
    assert again is not None and again.value == 4 and again.rolls == 1
    assert len(c.emitted) == 2
    assert '"rolls": 1' in c.emitted[-1].to_json()


def test_a_hand_passing_over_a_die_is_no_roll() -> None:
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([rolled_die("p1.w1", 4, 300, 300, 10)])
    for _ in range(6):
        c.frame([], hand=True, motion=0.05, occluded=lambda x, y: True)
    for k in range(10):  # the same place and turn, up to the reading's jitter
        c.frame([rolled_die("p1.w1", 4, 300.8 - 0.2 * k, 299.5, 10 + (k % 3))])
    d = c.tracker.current().die("p1.w1")
    assert d is not None and d.rolls == 0
    assert len(c.emitted) == 1


def test_a_die_misread_for_a_moment_is_no_roll() -> None:
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([rolled_die("p1.w1", 4, 300, 300, 10)])
    for _ in range(3):
        c.frame([], motion=0.05)
    for _ in range(10):
        c.frame([rolled_die("p1.w1", 4, 300.5, 300, 11)])
    d = c.tracker.current().die("p1.w1")
    assert d is not None and d.rolls == 0


def test_a_die_gone_from_view_and_thrown_back_keeps_counting_rolls() -> None:
    """A hand the camera did not see as one: the die vanished for a moment and is back
    elsewhere; back in its old place it is no roll."""
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([rolled_die("p1.w1", 2, 300, 300, 10)])
    for _ in range(12):
        c.frame([])  # quiet and unseen for 0.4 s: it vanishes
    assert c.tracker.current().die("p1.w1") is None
    for _ in range(10):
        c.frame([rolled_die("p1.w1", 5, 330, 310, 50)])
    d = c.tracker.current().die("p1.w1")
    assert d is not None and (d.value, d.rolls) == (5, 1)
    for _ in range(12):
        c.frame([])
    for _ in range(10):
        c.frame([rolled_die("p1.w1", 5, 330.5, 310, 50)])
    d = c.tracker.current().die("p1.w1")
    assert d is not None and d.rolls == 1


def test_a_die_carried_to_another_zone_showing_its_face_is_moved_not_rolled() -> None:
    """As the table scripts count it: `burn` moves a die, `dice` throws it."""
    c = Clock(Tracker("creature-crush"))
    for _ in range(10):
        c.frame([rolled_die("p1.w1", 5, 300, 300, 10)])
    for _ in range(6):
        c.frame([], hand=True, motion=0.05, occluded=lambda x, y: True)
    burned = Sighting("p1.w1", "die", 320, 380, "p1.burned", angle_deg=31, value=5)
    for _ in range(10):
        c.frame([burned])
    d = c.tracker.current().die("p1.w1")
    assert d is not None and (d.zone, d.rolls) == ("p1.burned", 0)
    for _ in range(6):
        c.frame([], hand=True, motion=0.05, occluded=lambda x, y: True)
    for _ in range(10):  # back into the dice area, thrown: another face
        c.frame([rolled_die("p1.w1", 2, 290, 310, 66)])
    d = c.tracker.current().die("p1.w1")
    assert d is not None and (d.zone, d.rolls) == ("p1.dice", 1)


def _now_and_then(c: Clock, reads: list[Sighting | None],
                  between: list[dict[str, object]] | None = None) -> int:
    """Each given sighting on one frame, then the frames `between` (four quiet ones unless
    given) where it is not read; how many frames had an item confirmed."""
    confirmed = 0
    for sight in reads:
        c.frame([] if sight is None else [sight])
        confirmed += bool(c.tracker.present_keys())
        for kw in [{}] * 4 if between is None else between:
            c.frame([], **kw)
            confirmed += bool(c.tracker.present_keys())
    return confirmed


def test_a_die_read_now_and_then_on_a_quiet_table_is_confirmed() -> None:
    """A laptop reads a die on one frame in five: the reads never come in a row, yet they
    all say one die lies there showing 4."""
    c = Clock(Tracker("creature-crush", TrackerSettings(appear_s=0.1)))
    assert _now_and_then(c, [die("p1.w1", 4), die("p1.w1", 4, x=301.5)]) == 0
    c.frame([die("p1.w1", 4, y=298.8)])
    (seen,) = c.tracker.current().dice
    assert (seen.die, seen.value) == ("p1.w1", 4)
    for _ in range(30):  # read no more, its place unchanged: held, the table settled
        c.frame([], unchanged=frozenset({"p1.w1"}))
    assert c.tracker.settled()
    assert [(d.die, d.value) for d in c.tracker.current().dice] == [("p1.w1", 4)]
    assert c.emitted and [(d.die, d.value) for d in c.emitted[-1].dice] == [("p1.w1", 4)]


def test_a_die_read_on_every_other_frame_is_confirmed() -> None:
    """Read twice, then on every other frame: hits minus misses never reach three."""
    c = Clock(Tracker("creature-crush", TrackerSettings(appear_s=0.1)))
    c.frame([die("p1.r2", 5)])
    c.frame([die("p1.r2", 5)])
    c.frame([])
    assert not c.tracker.present_keys()
    c.frame([die("p1.r2", 5, x=302)])
    assert c.tracker.present_keys() == {"p1.r2"}


def test_reads_on_every_other_frame_do_not_add_up_across_motion_or_places() -> None:
    quiet: dict[str, object] = {}
    cases: dict[str, tuple[list[Sighting], dict[str, object]]] = {
        "the table moved between reads": ([die("p1.r2", 5)] * 6, {"motion": 0.05}),
        "read in two places": (
            [die("p1.r2", 5), die("p1.r2", 5, x=320), die("p1.r2", 5),
             die("p1.r2", 5, x=320), die("p1.r2", 5), die("p1.r2", 5, x=320)], quiet),
        "values that disagree": (
            [die("p1.r2", 5), die("p1.r2", 2), die("p1.r2", 5), die("p1.r2", 2),
             die("p1.r2", 1), die("p1.r2", 3)], quiet),
    }
    for why, (reads, between) in cases.items():
        c = Clock(Tracker("creature-crush", TrackerSettings(appear_s=0.1)))
        c.frame([reads[0]])
        for sight in reads[1:]:
            c.frame([sight])
            assert not c.tracker.present_keys(), why
            c.frame([], **between)
            assert not c.tracker.present_keys(), why


def test_reads_now_and_then_do_not_add_up_across_motion_places_values_or_time() -> None:
    quiet: dict[str, object] = {}
    cases: dict[str, tuple[list[Sighting | None], list[dict[str, object]] | None]] = {
        "the table moved between reads": (
            [die("p1.w1", 4)] * 4, [quiet, quiet, {"motion": 0.05}, quiet]),
        "a hand right after each read": ([die("p1.w1", 4)] * 4, [{"hand": True}] + [quiet] * 3),
        "read in different places": (
            [die("p1.w1", 4), die("p1.w1", 4, x=320), die("p1.w1", 4, y=280),
             die("p1.w1", 4, x=340)], None),
        "values that disagree": (
            [die("p1.w1", 4), die("p1.w1", 2), die("p1.w1", 5), die("p1.w1", 1)], None),
        "too far apart in time": ([die("p1.w1", 4)] * 4, [quiet] * 80),
        "a misread card now and then": ([card("ghost#1")] + [None] * 2, None),
    }
    for why, (reads, between) in cases.items():
        c = Clock(Tracker("creature-crush", TrackerSettings(appear_s=0.1)))
        assert _now_and_then(c, reads, between) == 0, why


def test_a_card_seen_unread_is_in_the_snapshot_unnamed_until_a_card_is_read_at_its_place() -> None:
    from companion.snapshot import Unreadable

    c = Clock(Tracker("creature-crush"))
    far = (Unreadable("p2.A1", 370.0, 235.0, cause="far"),)
    c.frame([card("A#1")], unreadable=far)
    for _ in range(12):
        c.frame([card("A#1")])
    assert [(u.zone, u.card) for u in c.emitted[-1].unreadable] == [("p2.A1", None)]
    for _ in range(12):  # read there before the next look: that card, and the place goes
        c.frame([card("A#1"), card("B#1", 372.0, 238.0, "p2.A1")])
    assert c.emitted[-1].card("B#1") is not None
    assert c.emitted[-1].unreadable == ()
