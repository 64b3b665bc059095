"""From flickering per-frame sightings to a stable table: presence over time.

Per frame the camera misses some markers (hands, glare, decoder misses) and may catch a card in
mid-air. The tracker therefore
- confirms an item only after it was read for `appear_s` seconds (the time its reads stood for,
  less the time it was missed; at least two reads), or read `FAINT_READS` times now and then at
  one place while the table stayed quiet (a die a laptop reads on one frame in five: reads too
  far apart for hits to outrun misses, each a candidate that came and went and left the table
  unsettled on that frame),
- removes an item only when its place is visible and quiet and it is still not seen for
  `vanish_s` seconds, or `replaced_s` when another card is read on its sticker (piles show
  only their top card; a card turned over shows its back): a hand over it, a die lying on its
  sticker, motion in the view, or its place looking exactly as when it was last read (the
  decoder merely missed it) hold it. A sticker unread on the first quiet frames after a hand
  left is no evidence (the readers look at the changed places again only every second or
  third frame, and the hand's shadow goes last): the wait is long enough for them,
- keeps a die a hand passed over, its face not read again but its place looking as when it
  was read, as `unread` (`SeenDie.unread`: the last value read, no new reading) until a read
  tells its face or its place changes,
- takes a die's value as the majority of its recent reads (since the table last moved),
- counts a die's rolls: hidden (under a hand, or unseen while the table moves) for
  `ROLL_HIDDEN_S` and then seen again moved or turned, it was picked up and thrown, even if it
  shows the same value as before (`SeenDie.rolls`); carried into another zone showing the same
  face (burned, laid on a card) it was moved, not thrown; a hand passing over a die that is
  not touched leaves it where it lay and is no roll,
- emits a `TableSnapshot` only when the table has settled: no motion and no hand for
  `settle_s` seconds, nothing pending (so every change has held: a new item read for
  `appear_s`, a leaving one unread for `vanish_s`), the first one only after `first_look_s` of
  watching (the readers need a few passes before every sticker in view was read once: a first
  table without a card that is then confirmed makes the referee see it laid), and only when
  it differs from the last one emitted.

Everything goes by the frames' time stamps, never by counting frames: each frame stands for the
time since the one before (at most `max_frame_gap_s`), so a camera at 15 fps, or a busy machine
that drops frames, settles on the same tables as one at 30 fps, only later.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from companion.snapshot import SeenCard, SeenDie, SeenToken, TableSnapshot, Unreadable

ItemKind = Literal["card", "die", "token"]
MOTION_THRESHOLD = 0.003  # share of the view that changed between frames
MOVE_MM = 12.0
SIDE_OVERLAP_MIN_MM = 6.0  # a card beside another in its zone lies on it when they overlap this
SIDE_SHIFT_MIN_MM = 5.0  # ... and it is shifted along the lower card's length at least this much
ROLL_HIDDEN_S = 2 / 30  # a die unseen this long under a hand or motion may have been lifted
ROLL_MOVE_MM = 15.0  # ... and lies this far from where it was (a die nudged aside is not
# thrown; a thrown die lands anywhere in its area), or
ROLL_TURN_DEG = 12.0  # ... is turned this much: it was rolled
ROLL_CHECK_S = 5 / 30  # seen again this long after it was back, a die's pose is compared
ROLL_MEMORY_S = 30.0  # a die gone from view and back within this keeps its rolls (and may add one)
FAINT_MEMORY_S = 4.0  # reads of a candidate that went again count towards confirming it when
FAINT_MM = MOVE_MM / 2  # ... it is read again this soon, this near, the table quiet since, and
FAINT_AGREE = 2 / 3  # ... (a die) more than this share of all its reads give one value
FAINT_READS = 3  # reads of a faint candidate that confirm it (independent reads, not time)
VALUES_KEEP_S = 3.0  # a die's reads kept for its value: this long before its newest read
POSITION_TAU_S = 0.09  # a sighting pulls an item's place this fast (0.3 of the way a frame
# at 30 fps)
CONFIDENCE_TAU_S = 0.15  # the confidence follows the reads this fast (0.2 a frame at 30 fps)
EPS_S = 1e-6


def _never_occluded(x_mm: float, y_mm: float) -> bool:
    return False


@dataclass(frozen=True)
class Sighting:
    """One marker of ours seen in one frame, already placed on the mat."""

    key: str  # card uid ("T1#1", "back:12"), die name ("p1.w2") or token name ("flag")
    kind: ItemKind
    x_mm: float
    y_mm: float
    zone: str | None
    angle_deg: float = 0.0
    tapped: bool = False
    face_up: bool = True
    value: int | None = None  # a die's value
    confidence: float = 1.0


@dataclass(frozen=True)
class FrameObservation:
    """What one frame tells the tracker."""

    time_s: float
    sightings: Sequence[Sighting]
    motion: float = 0.0  # share of the view that changed since the previous frame
    hand: bool = False  # a hand (skin-coloured blob) is over the mat
    occluded: Callable[[float, float], bool] = _never_occluded  # mat point under a hand?
    unknown: Sequence[str] = ()
    unchanged: frozenset[str] = frozenset()  # missed items whose place still looks the same
    unreadable: tuple[Unreadable, ...] | None = None  # places seen but unreadable (None:
    # not looked at on this frame, the last report stands)


@dataclass
class _Item:
    key: str
    kind: ItemKind
    x_mm: float
    y_mm: float
    zone: str | None
    angle_deg: float
    tapped: bool
    face_up: bool
    seen_s: float = 0.0  # a candidate's read time less its missed time
    reads: int = 0  # frames it was read in (for a candidate: with those of `_Faint` records)
    missing_s: float = 0.0  # a present item's time unread while its place was seen clearly
    present: bool = False
    confidence: float = 0.0
    since: int = 0  # order in which items were confirmed (later = on top)
    values: deque[tuple[float, int]] = field(default_factory=deque)
    hidden_s: float = 0.0  # time unseen in a row under a hand or while the table moved
    rolls: int = 0
    lifted: tuple[float, float, float, str | None, int | None] | None = None  # x, y, angle,
    # zone and value when it was hidden
    moved_from: int | None = None  # its value before it was carried to another zone
    roll_check: tuple[float, float, float, float] | None = None  # pose when lifted, and
    # when it was seen back
    angles: deque[float] = field(default_factory=lambda: deque(maxlen=30))
    faint_reads: int = 0  # reads at one place on a quiet table (with `_Faint` records)
    first_s: float = 0.0  # when the first of them was
    unread: bool = False  # a die held by its unchanged place after a hand was over it,
    # its face not read since


@dataclass(frozen=True)
class _Faint:
    """A candidate read now and then: where, how often since when, and its die values."""

    x_mm: float
    y_mm: float
    first_s: float
    reads: int
    values: tuple[tuple[float, int], ...]


@dataclass(frozen=True)
class TrackerSettings:
    """Durations in seconds. At 30 fps `appear_s` is the old three frames and `replaced_s` the
    old four; `vanish_s` is longer than the old four frames on purpose (the lab note of
    2026-11-28: stickers unread for up to 5 frames after a hand left, then read again)."""

    appear_s: float = 0.1  # read this long (less the time missed) before an item is confirmed
    min_reads: int = 2  # ... and in this many frames: one read alone never confirms an item,
    # however long its frame stood (a count of looks, not of frames: it holds at any rate)
    vanish_s: float = 0.3  # unread this long, its place seen clearly and changed: gone
    replaced_s: float = 4 / 30  # ... or this long while another card is read on its sticker
    max_frame_gap_s: float = 0.1  # a frame stands for at most this much time (one frame after
    # a stalled second is one look, not a second of evidence)
    first_frame_s: float = 1 / 30  # what the very first frame stands for (none came before)
    settle_s: float = 0.1  # quiet (no motion, no hand) this long before a snapshot
    change_hold_s: float = 0.0  # the confirmed table unchanged this long before a snapshot (the
    # reads a change needs and `pending` already make it hold: 0.1 s more changed no snapshot
    # on the timed sequences and cost 45 ms of latency)
    first_look_s: float = 0.25  # watched this long before the first snapshot (the cards read late
    # on the cached timed sequences were first read by their 8th frame, 0.23 s)
    die_window_s: float = 0.5  # a die's value: majority of its reads in this window (or since
    # the table last moved, if that is more recent)
    motion_threshold: float = MOTION_THRESHOLD
    card_w_mm: float = 63.0
    card_h_mm: float = 88.0
    sticker_mm: float = 25.0


class Tracker:
    """Keeps the confirmed table across frames and tells when it has settled."""

    def __init__(self, game: str, settings: TrackerSettings | None = None) -> None:
        self.game = game
        self.settings = settings or TrackerSettings()
        self._items: dict[str, _Item] = {}
        self._frame = 0
        self._prev_time: float | None = None
        self._first_time: float | None = None
        self._dt = 0.0  # the time the current frame stands for
        self._last_unquiet = -math.inf
        self._last_change = -math.inf
        self._emitted: TableSnapshot | None = None
        self._seq = 0
        self._checked_signature: tuple[Any, ...] | None = None
        self._unknown: tuple[str, ...] = ()
        self._unreadable: tuple[Unreadable, ...] = ()
        self._gone: dict[str, tuple[float, float, float, float, int, str | None,
                                    int | None]] = {}
        self._faint: dict[str, _Faint] = {}
        self.time_s = 0.0

    # ----- per frame ------------------------------------------------------------------------

    def update(self, obs: FrameObservation) -> TableSnapshot | None:
        """Feed one frame; returns a new snapshot when the table has settled on a new state."""
        s = self.settings
        self._dt = (s.first_frame_s if self._prev_time is None
                    else min(max(obs.time_s - self._prev_time, 0.0), s.max_frame_gap_s))
        self._prev_time = obs.time_s
        if self._first_time is None:
            self._first_time = obs.time_s
        self.time_s = obs.time_s
        self._frame += 1
        quiet = obs.motion < s.motion_threshold and not obs.hand
        if not quiet:
            self._last_unquiet = obs.time_s
            self._faint.clear()  # tidy: reads before the table moved no longer count
        seen = self._best_sightings(obs.sightings)
        for key, sight in seen.items():
            self._see(key, sight, obs.time_s)
        for item in list(self._items.values()):
            if item.key not in seen:
                self._miss(item, obs, quiet, seen)
        self._unknown = tuple(sorted(set(obs.unknown)))
        if obs.unreadable is not None:
            self._unreadable = obs.unreadable
        return self._maybe_emit(obs.time_s)

    @staticmethod
    def _best_sightings(sightings: Sequence[Sighting]) -> dict[str, Sighting]:
        best: dict[str, Sighting] = {}
        for s in sightings:
            if s.key not in best or s.confidence > best[s.key].confidence:
                best[s.key] = s
        return best

    def _pull(self, tau_s: float) -> float:
        """How far one frame's reading pulls a smoothed figure: by the time the frame stands
        for, so that a second of frames pulls as far at any frame rate."""
        return 1.0 - math.exp(-self._dt / tau_s)

    def _see(self, key: str, sight: Sighting, time_s: float) -> None:
        s = self.settings
        item = self._items.get(key)
        if item is None:
            item = _Item(key, sight.kind, sight.x_mm, sight.y_mm, sight.zone, sight.angle_deg,
                         sight.tapped, sight.face_up)
            self._items[key] = item
            gone = self._gone.pop(key, None)
            if gone is not None and time_s - gone[3] <= ROLL_MEMORY_S:
                # a die that went out of sight (a hand not seen as one) and is back
                item.rolls = gone[4]
                item.lifted = (gone[0], gone[1], gone[2], gone[5], gone[6])
            self._add_faint_reads(item, sight, time_s)
        if item.lifted is not None:
            item.angles.clear()
            self._maybe_rolled(item, sight, time_s)
        elif item.roll_check is not None:
            self._check_roll(item, sight, time_s)
        item.hidden_s = 0.0
        item.unread = False
        distance = math.hypot(sight.x_mm - item.x_mm, sight.y_mm - item.y_mm)
        moved = distance > MOVE_MM
        if item.present and (moved or sight.zone != item.zone or sight.tapped != item.tapped
                             or sight.face_up != item.face_up):
            self._last_change = time_s
        if moved:
            item.x_mm, item.y_mm = sight.x_mm, sight.y_mm
        else:
            pull = self._pull(POSITION_TAU_S)
            item.x_mm += pull * (sight.x_mm - item.x_mm)
            item.y_mm += pull * (sight.y_mm - item.y_mm)
        item.zone, item.tapped, item.face_up = sight.zone, sight.tapped, sight.face_up
        item.angle_deg = sight.angle_deg
        item.missing_s = 0.0
        if not item.present:
            self._count_read(item, distance > FAINT_MM, time_s)
        item.reads += 1
        item.seen_s = min(item.seen_s + self._dt, s.appear_s)
        item.confidence += self._pull(CONFIDENCE_TAU_S) * (sight.confidence - item.confidence)
        if sight.value is not None:
            before = self._die_value(item)
            item.values.append((time_s, sight.value))
            while item.present and item.values[0][0] < time_s - VALUES_KEEP_S:
                item.values.popleft()  # (a candidate keeps its faint reads: `_read_often`)
            if item.present and self._die_value(item) != before:
                self._last_change = time_s
        steady = item.seen_s >= s.appear_s - EPS_S and item.reads >= s.min_reads
        if not item.present and (steady or self._read_often(item)):
            item.present = True
            item.since = self._frame  # items confirmed in one frame share their order
            self._last_change = time_s

    def _miss(self, item: _Item, obs: FrameObservation, quiet: bool,
              seen: dict[str, Sighting]) -> None:
        s = self.settings
        if not item.present:
            item.seen_s -= self._dt
            if item.seen_s <= EPS_S:
                del self._items[item.key]
                if item.lifted is None and item.roll_check is None:
                    self._faint[item.key] = _Faint(item.x_mm, item.y_mm, item.first_s,
                                                   item.faint_reads, tuple(item.values))
            return
        covered = not quiet or obs.occluded(item.x_mm, item.y_mm)
        if covered and item.kind == "die":
            item.hidden_s += self._dt
            if item.hidden_s >= ROLL_HIDDEN_S - EPS_S and item.lifted is None:
                item.rolls = self._rolls_of(item)
                item.moved_from = None
                item.lifted = (item.x_mm, item.y_mm, item.angle_deg, item.zone,
                               self._die_value(item))
        if covered:
            return  # held: a hand or motion may hide it
        replaced = self._covered_by_card(item, seen)
        if not replaced and item.lifted is None and (
                item.key in obs.unchanged or self._under_small_item(item)):
            # held: only the decoder missed it, or a die or token lies on its sticker (another
            # card read there lies on it instead: a pile, or the card turned over in place).
            # Not a die a hand may have lifted or turned since it was read: only a read tells
            # its value then (a die turned in place, in a blurred picture, can look the same).
            # Its place says it is there, which undoes earlier misses: a hold that holds on
            # most frames must not leave the card pending (and the table unsettled) for good.
            item.missing_s = 0.0
            return
        still_there = not replaced and item.kind == "die" and item.key in obs.unchanged
        if item.unread and still_there:
            item.missing_s = 0.0  # held unread (below) while its place looks the same
            return
        item.unread = False
        item.missing_s += self._dt
        item.confidence *= 1.0 - self._pull(CONFIDENCE_TAU_S)
        # another card read on its sticker is evidence that it left; a sticker merely unread,
        # its place changed, is weaker (a shadow going, the readers not yet back): longer
        if item.missing_s >= (s.replaced_s if replaced else s.vanish_s) - EPS_S:
            if still_there:
                # a hand was over it and its face was not read since, but its place looks
                # as when it was read: it lies there, most likely untouched. Held and
                # reported unread (the last value read, nothing new): dropping it would tell
                # the referee the die was taken away, or its damage gone (a 720p camera
                # reads a die's top on some looks only, and looks again at an unchanged
                # place seldom). The table waited `vanish_s` for a read, as for any miss.
                item.unread = True
                item.missing_s = 0.0
                return
            del self._items[item.key]
            self._last_change = obs.time_s
            if item.kind == "die":
                self._gone[item.key] = (item.x_mm, item.y_mm, item.angle_deg, obs.time_s,
                                        self._rolls_of(item), item.zone,
                                        self._die_value(item))

    def _add_faint_reads(self, item: _Item, sight: Sighting, time_s: float) -> None:
        """A new candidate read where the same one was read now and then before, the table
        quiet since: those reads count towards `_read_often`."""
        faint = self._faint.pop(item.key, None)
        if faint is None or math.hypot(sight.x_mm - faint.x_mm,
                                       sight.y_mm - faint.y_mm) > FAINT_MM:
            return
        item.values.extend(faint.values)
        item.faint_reads = faint.reads
        item.first_s = faint.first_s

    def _count_read(self, item: _Item, elsewhere: bool, time_s: float) -> None:
        """A candidate's reads at one place on a quiet table, within `FAINT_MEMORY_S`."""
        if (item.first_s <= self._last_unquiet or elsewhere
                or time_s - item.first_s > FAINT_MEMORY_S):
            item.faint_reads = 0  # (a read while the table moves starts again on the next one)
        if item.faint_reads == 0:
            item.first_s = time_s
        item.faint_reads += 1

    def _read_often(self, item: _Item) -> bool:
        """Read `FAINT_READS` times at one place while the table stayed quiet, a die's
        reads agreeing on its value: there, though never read long enough running. (A count of
        reads, not of frames: each is a look of its own, however far apart they came.)"""
        if item.faint_reads < FAINT_READS:
            return False
        values = [v for t, v in item.values if t >= item.first_s]
        return not values or Counter(values).most_common(1)[0][1] > FAINT_AGREE * len(values)

    def _maybe_rolled(self, item: _Item, sight: Sighting, time_s: float) -> None:
        """A die seen again after it was hidden: rolled if it lies moved or turned. (Not its
        value alone: a thrown die never lands exactly where it lay, while a misread value
        would count a roll that never happened.)"""
        assert item.lifted is not None
        x, y, angle, zone, value = item.lifted
        item.lifted = None
        if sight.zone != zone:
            # carried to another zone: thrown if it shows another face once its value has
            # settled, moved if the same (burned, laid on a card); decided in `_rolls_of`
            item.moved_from = value
            item.values.clear()
            self._last_change = time_s
            return
        # in the same zone: judged on its settled pose, a moment on (a first sighting beside a
        # hand can be a partly covered face read a few millimetres off)
        item.roll_check = (x, y, angle, time_s)

    def _check_roll(self, item: _Item, sight: Sighting, time_s: float) -> None:
        assert item.roll_check is not None
        x, y, angle, back_s = item.roll_check
        item.angles.append(sight.angle_deg)
        if time_s - back_s < ROLL_CHECK_S - EPS_S:
            return
        item.roll_check = None
        turned = abs((float(np.median(item.angles)) - angle + 45.0) % 90.0 - 45.0)
        if math.hypot(item.x_mm - x, item.y_mm - y) >= ROLL_MOVE_MM or turned >= ROLL_TURN_DEG:
            item.rolls += 1
            self._last_change = time_s

    def _rolls_of(self, item: _Item) -> int:
        """Rolls so far, counting a die carried to another zone as thrown only when it
        settled there on another face."""
        if item.moved_from is None:
            return item.rolls
        value = self._die_value(item)
        return item.rolls + int(value is not None and value != item.moved_from)

    def _covered_by_card(self, item: _Item, seen: dict[str, Sighting]) -> bool:
        """Another card seen now where this card's sticker is: it lies on top (a pile)."""
        if item.kind != "card":
            return False
        return any(s.kind == "card" and math.hypot(s.x_mm - item.x_mm, s.y_mm - item.y_mm)
                   < self.settings.sticker_mm for s in seen.values())

    def _under_small_item(self, item: _Item) -> bool:
        """A die or token lying on this card's sticker hides it without removing the card."""
        if item.kind != "card":
            return False
        reach = self.settings.sticker_mm / 2 + 12.0
        return any(
            other.present and other.kind != "card"
            and math.hypot(other.x_mm - item.x_mm, other.y_mm - item.y_mm) < reach
            for other in self._items.values()
        )

    # ----- settling ---------------------------------------------------------------------------

    @property
    def pending(self) -> bool:
        """Something is half-way: a candidate not yet confirmed, or a present item going."""
        return any(not i.present or i.missing_s > 0 or i.roll_check is not None
                   for i in self._items.values())

    def settled(self, time_s: float | None = None) -> bool:
        """Quiet for `settle_s`, the confirmed table unchanged for `change_hold_s`, watched
        for `first_look_s`, and nothing half-way."""
        now = self.time_s if time_s is None else time_s
        s = self.settings
        first = now if self._first_time is None else self._first_time
        return (now - self._last_unquiet >= s.settle_s - EPS_S
                and now - self._last_change >= s.change_hold_s - EPS_S
                and now - first >= s.first_look_s - EPS_S and not self.pending)

    def _signature(self) -> tuple[Any, ...]:
        """Cheap fingerprint of the confirmed table: unchanged means no new snapshot is due."""
        return tuple(sorted(
            (i.key, i.zone, i.face_up, i.tapped, round(i.x_mm / 5), round(i.y_mm / 5),
             self._die_value(i) if i.kind == "die" else 0, self._rolls_of(i))
            for i in self._items.values() if i.present
        )) + tuple(sorted(u.zone for u in self._unreadable))

    def present_keys(self) -> set[str]:
        return {i.key for i in self._items.values() if i.present}

    def move_cards(self, place: Callable[[float, float, float], tuple[float, float, str | None]]
                   ) -> None:
        """Put every card tracked so far where `place` (x, y, angle -> x, y, zone) says: the
        pipeline learnt that the cards carry two stickers, so the cards it placed at a
        sticker's centre lie at their card's centre instead (`twin_stickers`)."""
        for item in self._items.values():
            if item.kind == "card":
                item.x_mm, item.y_mm, item.zone = place(item.x_mm, item.y_mm, item.angle_deg)

    def tracked_keys(self) -> set[str]:
        """Confirmed items and candidates."""
        return set(self._items)

    def _maybe_emit(self, time_s: float) -> TableSnapshot | None:
        if not self.settled(time_s):
            return None
        signature = self._signature()
        if signature == self._checked_signature:
            return None
        self._checked_signature = signature
        snap = self.current()
        if (self._emitted is not None and snap.same_table(self._emitted)
                and _rolls(snap) == _rolls(self._emitted)):
            return None
        self._seq += 1
        snap = snap.with_seq(self._seq, time_s)
        self._emitted = snap
        return snap

    @property
    def last_snapshot(self) -> TableSnapshot | None:
        return self._emitted

    # ----- the confirmed table ----------------------------------------------------------------

    def _die_value(self, item: _Item) -> int | None:
        if not item.values:
            return None
        since = max(self._last_unquiet, self.time_s - self.settings.die_window_s)
        recent = [v for t, v in item.values if t > since]
        pool = recent or [v for _, v in item.values]
        counts = Counter(pool).most_common()
        best = max(c for _, c in counts)
        # ties go to the latest read among the most frequent values
        leaders = {v for v, c in counts if c == best}
        return next(v for _, v in reversed(item.values) if v in leaders)

    def _footprint_contains(self, card: _Item, x: float, y: float, shrink: float = 0.0) -> bool:
        w, h = self.settings.card_w_mm, self.settings.card_h_mm
        u, v = self._in_card_frame(card, x, y)
        return abs(u) <= w / 2 - shrink and abs(v) <= h / 2 - shrink

    @staticmethod
    def _in_card_frame(card: _Item, x: float, y: float) -> tuple[float, float]:
        """Point (x, y) relative to `card`'s centre along its width (u) and length (v)."""
        a = math.radians(card.angle_deg)
        dx, dy = x - card.x_mm, y - card.y_mm
        return dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)

    def _card_lies_on(self, upper: _Item, lower: _Item) -> bool:
        """Whether card `upper` (laid later) lies on card `lower`: its centre on the lower card,
        or laid beside it in the same zone, overlapping its side edge and shifted along its
        length (both stickers in view); neighbours in a row lie level, touching or overlapping."""
        if self._footprint_contains(lower, upper.x_mm, upper.y_mm):
            return True
        u, v = self._in_card_frame(lower, upper.x_mm, upper.y_mm)
        w, h = self.settings.card_w_mm, self.settings.card_h_mm
        return (upper.zone == lower.zone and SIDE_SHIFT_MIN_MM <= abs(v) <= h / 2
                and abs(u) <= w - SIDE_OVERLAP_MIN_MM)

    @staticmethod
    def _above(a: _Item, b: _Item) -> bool:
        """Whether card a lies above card b: placed later, or (same frame) laid further down or
        right on the mat, as a card put on another card is laid lower (a pile) or to its right."""
        return (a.since, a.x_mm + a.y_mm) > (b.since, b.x_mm + b.y_mm)

    def _card_under(self, item: _Item, cards: list[_Item]) -> _Item | None:
        """The topmost card (other than `item`, and below it) whose footprint holds it."""
        if item.kind == "card":
            below = [c for c in cards if c.key != item.key and self._above(item, c)
                     and self._card_lies_on(item, c)]
        else:
            below = [c for c in cards if self._footprint_contains(c, item.x_mm, item.y_mm)]
        if not below:
            return None
        if item.kind != "card":
            # a die or token lies on the card whose centre is nearest: neighbouring cards
            # overlap, and things are laid on a card's own face, clear of the neighbour
            return min(below, key=lambda c: math.hypot(c.x_mm - item.x_mm, c.y_mm - item.y_mm))
        return max(below, key=lambda c: (c.since, c.x_mm + c.y_mm))

    def _on_and_zone(self, item: _Item, cards: list[_Item]) -> tuple[str | None, str]:
        """What `item` lies on, and its zone: an item on a card belongs to that card's zone."""
        under = self._card_under(item, cards)
        if under is None:
            return None, item.zone or ""
        return under.key, under.zone or item.zone or ""

    def current(self) -> TableSnapshot:
        """The confirmed table now (whether or not it has settled)."""
        present = sorted((i for i in self._items.values() if i.present), key=lambda i: i.since)
        cards = [i for i in present if i.kind == "card"]
        seen_cards = []
        for c in cards:
            on, zone = self._on_and_zone(c, cards)
            seen_cards.append(SeenCard(
                uid=c.key, zone=zone, face_up=c.face_up, tapped=c.tapped, on=on,
                x_mm=round(c.x_mm, 1), y_mm=round(c.y_mm, 1), angle_deg=round(c.angle_deg, 1),
                confidence=round(min(1.0, c.confidence), 3)))
        dice = []
        for d in present:
            if d.kind == "die":
                on, zone = self._on_and_zone(d, cards)
                dice.append(SeenDie(
                    die=d.key, value=self._die_value(d) or 0, zone=zone, on=on,
                    x_mm=round(d.x_mm, 1), y_mm=round(d.y_mm, 1),
                    confidence=round(min(1.0, d.confidence), 3), rolls=self._rolls_of(d),
                    unread=d.unread))
        tokens = []
        for t in present:
            if t.kind == "token":
                on, zone = self._on_and_zone(t, cards)
                tokens.append(SeenToken(
                    token=t.key, zone=zone, on=on, x_mm=round(t.x_mm, 1), y_mm=round(t.y_mm, 1),
                    confidence=round(min(1.0, t.confidence), 3)))
        return TableSnapshot(game=self.game, seq=self._seq, time_s=self.time_s,
                             cards=tuple(seen_cards), dice=tuple(dice), tokens=tuple(tokens),
                             unknown_markers=self._unknown,
                             unreadable=self._named_unreadable(cards))

    def _named_unreadable(self, cards: Sequence[_Item]) -> tuple[Unreadable, ...]:
        """The unreadable places, each named by the card the tracker holds there (read
        before the reflection covered it), if any: the topmost, laid last. A card seen where
        no sticker read (cause "far" or "unidentified") is nobody's; once a card is read at
        its place, between two looks, it is that card and the place goes."""
        out = []
        for u in self._unreadable:
            under = [c for c in cards if c.zone == u.zone
                     and self._footprint_contains(c, u.x_mm, u.y_mm)]
            if u.cause != "glare":
                if not under:  # (a card read there since the last look is that card)
                    out.append(u)
                continue
            out.append(Unreadable(u.zone, u.x_mm, u.y_mm, u.cause,
                                  under[-1].key if under else None))
        return tuple(out)


def _rolls(snapshot: TableSnapshot) -> dict[str, int]:
    return {d.die: d.rolls for d in snapshot.dice}
