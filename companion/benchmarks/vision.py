"""`companion bench vision`: the eye measured on the simulated cameras, one row per camera pose.

The benchmark sits above both `companion.vision` and `companion.sim`: the simulator renders
frames with their ground truth (which cards and dice the camera can see, each die's top value,
each card's zone), and only the pipeline's public entry point
(`companion.vision.pipeline.build_pipeline`) reads them, so an improved detector is measured
without touching this module.

Rows: every camera kind in `calibration/cameras/` at each of its poses, and the old flat
simulator as the labelled row `easy`; a kind of several cameras at one table (two laptops)
gives its fused row and each camera alone (`measure_cameras`). Per row, on still scenes of the
Creature Crush mat (cards in the zones, about 30 % turned or tapped, 3D piles, dice in the dice
areas and on creatures):

- cards 1f / dice 1f: share of the visible card stickers decoded, of the dice with a visible top
  face read with the right value and no other, on ONE frame (a fresh pipeline on each of the
  first three frames of every scene);
- cards settled / zones / dice settled: after 12+ frames of the still scene, share of the cards
  on the table in the pipeline's snapshot (right identity and face), in the right zone, and of
  the dice with the right value;
- wrong: identities reported that are not on the table (a card sticker in any frame, a die on
  one frame or settled) plus dice settled on a wrong value;
- mat: share of frames in which the pipeline had located the mat;
- px/module: median module pitch of the visible card stickers (from the simulator's geometry).

One more row per run plays a scripted sequence (hands swap, flip, tap cards and roll dice) on a
40-card mat at 1080p and times the pipeline: fps on one core and the latency from the hand
leaving to the right settled snapshot.
"""

from __future__ import annotations

import gc
import json
import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import click
import cv2
import numpy as np

from companion.benchmarks.dice_match import IDENTITY_FREE_STYLES, pair_dice
from companion.games import GAMES
from companion.markers.dice_sets import DiceMode
from companion.markers.dice_sets import dice_mode as read_dice_as
from companion.markers.payload import corner_id
from companion.markers.render import DEFAULT_SYMBOLOGY, Symbology
from companion.sim.dice import rolled_positions
from companion.sim.hands import Hand
from companion.sim.physical import DICE_STYLES, Bump
from companion.sim.presets import (
    DEFAULT_PRESET,
    EASY,
    LEGACY_SYMBOLOGY,
    Pose,
    camera_kind,
    make_renderer,
    make_renderers,
    preset_names,
    twin_stickers_printed,
)
from companion.sim.render import MODULES, WASHED_OUT
from companion.sim.source import SnapshotPlayer, Timing
from companion.snapshot import SeenCard, SeenDie, TableSnapshot
from companion.vision.multicam import CameraView, CornerAnchors, fuse, zone_centres
from companion.vision.pipeline import build_pipeline, layout_game_code
from companion.vision.sources import Frame

GAME = "creature-crush"
GAME_CODE = 5
COLS, ROWS = 8, 5
PITCH_X, PITCH_Y = 63.5, 62.0
STILL_FRAMES = 14
ONE_FRAME_SAMPLES = 3  # frames of each still scene read by a fresh pipeline ("one frame")
FPS = 30.0


# ----- the 40-card bench mat (for speed) ------------------------------------------------------


@dataclass(frozen=True)
class BenchZone:
    id: str
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    kind: str = "slot"


@dataclass(frozen=True)
class BenchCorner:
    marker_id: int
    x_mm: float
    y_mm: float
    size_mm: float


@dataclass(frozen=True)
class BenchMat:
    """A mat with one slot per grid place (the real layouts hold fewer cards)."""

    width_mm: float
    height_mm: float
    card_w_mm: float
    card_h_mm: float
    sticker_mm: float
    zones: dict[str, BenchZone]
    corners: tuple[BenchCorner, ...]

    def zone_at(self, x_mm: float, y_mm: float) -> str | None:
        for z in self.zones.values():
            if z.x_mm <= x_mm < z.x_mm + z.w_mm and z.y_mm <= y_mm < z.y_mm + z.h_mm:
                return z.id
        return None


def bench_mat(sticker_mm: float = 25.0, modules: int = 13) -> BenchMat:
    """Rows overlap as far as the stickers (with their 2-module quiet zone) stay clear."""
    width, height = 600.0, 400.0
    card_h = 88.0
    quiet_side = sticker_mm * (1 + 4 / modules)
    pitch_y = max(PITCH_Y, card_h / 2 + quiet_side / 2 + 1.0)
    x0 = width / 2 - PITCH_X * (COLS - 1) / 2
    y0 = height / 2 - pitch_y * (ROWS - 1) / 2
    zones = {}
    for r in range(ROWS):
        for c in range(COLS):
            owner = "p2" if r < ROWS // 2 else "p1"
            zid = f"{owner}.s{r * COLS + c + 1}"
            cx, cy = x0 + c * PITCH_X, y0 + r * pitch_y
            zones[zid] = BenchZone(zid, cx - PITCH_X / 2, cy - pitch_y / 2, PITCH_X, pitch_y)
    corners = tuple(BenchCorner(corner_id(GAME_CODE, i), x, y, 40.0) for i, (x, y) in
                    enumerate([(25, 25), (575, 25), (575, 375), (25, 375)]))
    return BenchMat(width, height, 63.0, card_h, sticker_mm, zones, corners)


class Numbers:
    """Bench card ids "S<n>" carry their sticker number n."""

    @dataclass(frozen=True)
    class _Card:
        id: str
        number: int

    def by_number(self, number: int) -> Any:
        return self._Card(f"S{number}", number)


def number_of(card_id: str) -> int:
    return int(card_id[1:])


def _centre(mat: BenchMat, zone: str) -> tuple[float, float]:
    z = mat.zones[zone]
    return z.x_mm + z.w_mm / 2, z.y_mm + z.h_mm / 2


def scenario_snapshots(mat: BenchMat, n_cards: int, steps: int, seed: int, dice: int = 6
                       ) -> list[TableSnapshot]:
    """A start table and one change per step: swap, flip, tap, untap, roll."""
    rng = random.Random(seed)
    zones = list(mat.zones)
    used = zones[:: max(1, len(zones) // n_cards)][:n_cards]
    cards: dict[str, SeenCard] = {}
    next_number = 1
    for zone in used:
        x, y = _centre(mat, zone)
        face_up = rng.random() > 0.2
        uid = f"S{next_number}#1"
        if not face_up:
            uid = f"back:{100 + next_number}"
        cards[zone] = SeenCard(uid, zone, face_up, False, None, x, y, 0.0)
        next_number += 1
    die_names = [f"p{1 + k % 2}.w{1 + k // 2}" for k in range(dice)]
    die_zones = rng.sample(used, min(dice, len(used)))
    values = {d: rng.randint(1, 6) for d in die_names}

    def snap() -> TableSnapshot:
        seen_dice = []
        for d, z in zip(die_names, die_zones, strict=False):
            x, y = _centre(mat, z)
            seen_dice.append(SeenDie(d, values[d], z, cards[z].uid, x + 24, y + 8))
        return TableSnapshot(GAME, cards=tuple(cards.values()), dice=tuple(seen_dice))

    out = [snap()]
    for k in range(steps):
        kind = ("swap", "flip", "roll", "tap", "swap", "untap")[k % 6]
        zone = rng.choice([z for z in used if z not in die_zones] or used)
        card = cards[zone]
        if kind == "swap":
            next_number += 1
            cards[zone] = SeenCard(f"S{next_number + 500}#1", zone, True, False, None,
                                   card.x_mm, card.y_mm, 0.0)
        elif kind == "flip":
            uid = card.uid if not card.face_up else f"back:{700 + k}"
            if not card.face_up:
                uid = f"S{next_number + 600 + k}#2"
            cards[zone] = SeenCard(uid, zone, not card.face_up, card.tapped, None, card.x_mm,
                                   card.y_mm, card.angle_deg)
        elif kind in ("tap", "untap"):
            tapped = kind == "tap"
            target = next((z for z in used if z not in die_zones
                           and cards[z].tapped != tapped), zone)
            c = cards[target]
            cards[target] = SeenCard(c.uid, target, c.face_up, tapped, None, c.x_mm, c.y_mm,
                                     90.0 if tapped else 0.0)
        else:
            for d in die_names[:2]:
                values[d] = values[d] % 6 + 1
        out.append(snap())
    return out


# ----- still scenes on the Creature Crush mat -------------------------------------------------


def still_table(layout: Any, seed: int) -> TableSnapshot:
    """A Creature Crush table in play: creatures and crush cards in the slots (placed by hand:
    a few mm and degrees off, about 30 % turned or tapped), the camp and hell piles, white
    start dice in the dice areas and red damage dice on some creatures."""
    rng = random.Random(seed)
    cards: list[SeenCard] = []
    dice: list[SeenDie] = []
    number = 1 + 40 * (seed % 50)
    for zone in layout.zones.values():
        cx, cy = zone.x_mm + zone.w_mm / 2, zone.y_mm + zone.h_mm / 2
        if zone.kind == "slot" and rng.random() < 0.75:
            tapped = rng.random() < 0.15
            angle = 90.0 if tapped else (rng.uniform(-12, 12) if rng.random() < 0.2
                                         else rng.uniform(-3, 3))
            x, y = cx + rng.uniform(-3, 3), cy + rng.uniform(-3, 3)
            face_up = rng.random() < 0.85
            uid = f"S{number}#1" if face_up else f"back:{5000 + number}"
            cards.append(SeenCard(uid, zone.id, face_up, tapped, None, x, y, angle))
            number += 1
        elif zone.kind == "pile":
            face_up = zone.id.endswith("hell")
            uid = f"S{number}#1" if face_up else f"back:{5000 + number}"
            cards.append(SeenCard(uid, zone.id, face_up, False, None, cx, cy,
                                  rng.uniform(-4, 4)))
            number += 1
    for owner in ("p1", "p2"):
        red = 1  # each player owns red dice r1-r5 (companion.games.game_dice)
        area = layout.zones[f"{owner}.dice"]
        # rolled together from one hand: a cluster, often touching (companion.sim.dice)
        spots = rolled_positions((area.x_mm, area.y_mm, area.w_mm, area.h_mm), 3,
                                 seed=rng.randrange(2**31))
        for k, (x, y) in enumerate(spots):
            dice.append(SeenDie(f"{owner}.w{k + 1}", rng.randint(1, 6), area.id, None, x, y))
        creatures = [c for c in cards if c.zone.startswith(owner) and c.zone[3] in "AB"
                     and not c.tapped and c.face_up]
        for card in rng.sample(creatures, min(rng.randint(1, 3), len(creatures))):
            # a damage die set by hand on the creature's art, clear of the sticker
            a = math.radians(card.angle_deg)
            u, v = rng.uniform(-14, 14), rng.choice((-1, 1)) * rng.uniform(28, 32)
            x = (card.x_mm or 0) + u * math.cos(a) - v * math.sin(a)
            y = (card.y_mm or 0) + u * math.sin(a) + v * math.cos(a)
            dice.append(SeenDie(f"{owner}.r{red}", rng.randint(1, 6), card.zone, card.uid, x, y))
            red += 1
    return TableSnapshot(GAME, cards=tuple(cards), dice=tuple(dice))


def spread_table(layout: Any, game: str, seed: int) -> TableSnapshot:
    """A table of any game's mat, no dice: a card in most slots and piles, and in each area
    (a lane, a home, a row of problems) two to four cards side by side, placed by hand (a few
    mm and degrees off), some face down. Where the other games lay most of their cards."""
    rng = random.Random(seed)
    cards: list[SeenCard] = []
    number = 1 + 40 * (seed % 50)
    for zone in layout.zones.values():
        cy = zone.y_mm + zone.h_mm / 2
        across = max(1, int(zone.w_mm // 70)) if zone.kind == "area" else 1
        for k in range(across):
            if rng.random() >= (0.85 if zone.kind == "area" else 0.75):
                continue
            x = zone.x_mm + (k + 0.5) * zone.w_mm / across
            face_up = rng.random() < 0.85
            uid = f"S{number}#1" if face_up else f"back:{5000 + number}"
            cards.append(SeenCard(uid, zone.id, face_up, False, None, x + rng.uniform(-3, 3),
                                  cy + rng.uniform(-3, 3), rng.uniform(-6, 6)))
            number += 1
    return TableSnapshot(game, cards=tuple(cards))


@dataclass
class Row:
    """One camera pose's figures (None where there was nothing to measure)."""

    camera: str
    label: str
    pose: str
    resolution: str
    scenes: int
    frames: int
    px_per_module: float | None
    mat_found: float
    cards_1f: float | None
    cards_settled: float | None
    zones: float | None
    dice_1f: float | None
    dice_settled: float | None
    wrong: int
    wrong_cards: int = 0
    wrong_dice: int = 0
    dice_style: str = "aruco"
    notes: list[str] = field(default_factory=list)
    cards_near_half: float | None = None  # laptop cameras: settled cards on the mat's half
    # nearer the camera (player 1's, where the laptop stands)
    cards_in_view: float | None = None  # settled, of the cards whose sticker is wholly in
    # view (not under a die, a neighbour or the picture's edge): what the eye could read
    near_in_view: float | None = None  # the same on the near half (laptop cameras)
    cards_dice_after: float | None = None  # settled when the cards lay first and a hand put
    # the dice on after, as a game does (`_dice_after`)
    near_dice_after: float | None = None  # the same on the near half (laptop cameras)


def _share(right: int, total: int) -> float | None:
    return round(right / total, 4) if total else None


def measure_still(preset: str, pose: Pose | None, scenes: int, frames: int = STILL_FRAMES,
                  seed: int = 1, dice_style: str = "aruco",
                  symbology: Symbology = DEFAULT_SYMBOLOGY, game: str = GAME,
                  twin_stickers: bool = False) -> Row:
    """Still scenes on a game's mat (Creature Crush's table in play, or any other game's
    `spread_table`) through fresh pipelines: one-frame and settled."""
    from companion.layouts import load_layout
    from companion.vision.pipeline import layout_game_code

    layout = load_layout(game)
    code = layout_game_code(layout)
    piles = [z.id for z in layout.zones.values() if z.kind == "pile"]
    cards_1f = [0, 0]
    dice_1f = [0, 0]
    settled = [0, 0]
    near = [0, 0]
    in_view = [0, 0]
    near_view = [0, 0]
    after = [0, 0]
    near_after = [0, 0]
    laptop = preset != EASY and camera_kind(preset).kind.startswith("laptop")
    by_place = dice_style in IDENTITY_FREE_STYLES  # dice named by the camera, not stickers
    zones = [0, 0]
    dice_s = [0, 0]
    wrong_cards = wrong_dice = 0
    found = total_frames = 0
    ppm: list[float] = []
    width = height = 0
    for s in range(scenes):
        scene_seed = seed * 1000 + s
        truth_snap = (still_table(layout, scene_seed) if game == GAME
                      else spread_table(layout, game, scene_seed))
        renderer = make_renderer(layout, preset, pose, scene_seed, dice_style,
                                 symbology=_stickers(preset, symbology),
                                 twin_stickers=twin_stickers)
        player = SnapshotPlayer(renderer, [truth_snap], code, number_of, Timing(), False,
                                scene_seed, piles)
        scene = player.scene(0)
        pipeline = build_pipeline(layout, game, Numbers(),
                                  dice_mode=dice_mode(dice_style))
        on_table: set[str] = set()
        last: TableSnapshot | None = None
        shown: set[str] = set()  # card keys whose sticker is wholly in view, last frame
        for index in range(frames):
            rendered = renderer.render(scene, (), index)
            on_table |= {m.text for m in rendered.truth.markers}  # visible or not
            width, height = rendered.image.shape[1], rendered.image.shape[0]
            update = pipeline.process(Frame(rendered.image, index, index / FPS))
            total_frames += 1
            found += bool(update.stats.calibration_ok)
            last = update.snapshot or last
            truth = rendered.truth
            shown = {m.key for m in truth.markers if m.kind == "card" and m.visible}
            texts = {d.text for d in update.detections}
            wrong_cards += sum(1 for d in update.detections
                               if d.kind in ("front", "back") and d.text not in on_table)
            wrong_dice += sum(1 for real in _real_dice(_die_sightings(update.sightings),
                                                       truth_snap, by_place) if real is None)
            if index < ONE_FRAME_SAMPLES:  # one frame, a fresh pipeline each time
                fresh = update if index == 0 else build_pipeline(
                    layout, game, Numbers(),
                    dice_mode=dice_mode(dice_style)).process(
                    Frame(rendered.image, index, index / FPS))
                texts = {d.text for d in fresh.detections}
                visible = {m.text for m in truth.markers if m.visible and m.kind == "card"}
                cards_1f[0] += len(visible & texts)
                cards_1f[1] += len(visible)
                ppm += [m.px_per_module for m in truth.markers
                        if m.visible and m.kind == "card" and m.px_per_module]
                seen_dice = _die_sightings(fresh.sightings)
                reals = _real_dice(seen_dice, truth_snap, by_place)
                for m in truth.markers:
                    if m.kind != "die" or not m.visible:
                        continue
                    values = {sg[3] for sg, real in zip(seen_dice, reals, strict=True)
                              if real == m.key}
                    dice_1f[0] += values == {m.value}
                    dice_1f[1] += 1
        later = (_dice_after(renderer, truth_snap, layout, game, code, piles, scene_seed,
                             dice_style) if truth_snap.dice else None)
        for snap in (last, later):  # wrong identities count in both tables
            cards_wrong, dice_wrong = _wrong_ids(snap, truth_snap, by_place)
            wrong_cards += cards_wrong
            wrong_dice += dice_wrong
        for card in truth_snap.cards:
            on_near = laptop and _near_half(layout, card.zone)
            kept = any(c.uid == card.uid and c.face_up == card.face_up
                       for c in (later.cards if later else ()))
            if truth_snap.dice:
                after[0] += kept
                after[1] += 1
            got = next((c for c in (last.cards if last else ()) if c.uid == card.uid), None)
            right = got is not None and got.face_up == card.face_up
            settled[0] += right
            settled[1] += 1
            seen = card.uid in shown
            in_view[0] += right and seen
            in_view[1] += seen
            if on_near:
                if truth_snap.dice:
                    near_after[0] += kept
                    near_after[1] += 1
                near[0] += right
                near[1] += 1
                near_view[0] += right and seen
                near_view[1] += seen
            zones[0] += got is not None and got.zone == card.zone
            zones[1] += 1
        settled_dice = [(d.die, d.x_mm, d.y_mm, d.value) for d in (last.dice if last else ())]
        settled_real = dict(zip(_real_dice(settled_dice, truth_snap, by_place), settled_dice,
                                strict=True))
        for die in truth_snap.dice:
            got_die = settled_real.get(die.die)
            dice_s[0] += got_die is not None and got_die[3] == die.value
            dice_s[1] += 1
    label = preset
    pose_label = pose.label if pose else ""
    if preset == EASY:
        label = "easy (old flat simulator)"
        pose_label = "fitted, 30 deg"
    else:
        kind = camera_kind(preset)
        label = kind.label
        pose_label = (pose or kind.poses[0]).label
    return Row(preset, label, pose_label, f"{width}x{height}", scenes, total_frames,
               round(statistics.median(ppm), 2) if ppm else None,
               round(found / max(total_frames, 1), 4),
               _share(*cards_1f), _share(*settled), _share(*zones), _share(*dice_1f),
               _share(*dice_s), wrong_cards + wrong_dice, wrong_cards, wrong_dice, dice_style,
               cards_near_half=_share(*near), cards_in_view=_share(*in_view),
               near_in_view=_share(*near_view), cards_dice_after=_share(*after),
               near_dice_after=_share(*near_after))


DICE_AFTER_TIMING = Timing(start_s=0.3, hand_in_s=0.3, hand_out_s=0.3,
                           settle_s=STILL_FRAMES / FPS)


def _dice_after(renderer: Any, truth: TableSnapshot, layout: Any, game: str, code: int,
                piles: Sequence[str], seed: int, dice_style: str) -> TableSnapshot | None:
    """The still scene as a game makes it: the cards lie on the table first, then a hand puts
    the dice on (some on card stickers); the settled snapshot after the hand left. In the
    plain still scene a sticker under a die from the first frame can never be read; in a game
    the card was seen before and the tracker holds it."""
    bare = replace(truth, dice=())
    player = SnapshotPlayer(renderer, [bare, truth], code, number_of, DICE_AFTER_TIMING,
                            True, seed, piles)
    pipeline = build_pipeline(layout, game, Numbers(),
                              dice_mode=dice_mode(dice_style))
    last: TableSnapshot | None = None
    for index, (shown, hands, _settled, _done) in enumerate(player.plan()):
        rendered = renderer.render(player.scene(shown), hands, index)
        last = pipeline.process(Frame(rendered.image, index, index / FPS)).snapshot or last
    return last


def dice_mode(dice_style: str) -> DiceMode:
    """How the companion reads the simulated dice: ArUco die stickers as "stickers", value
    stickers as "values", pip dice as "pips" (what a user passes as `--dice`)."""
    return read_dice_as("stickers" if dice_style == "aruco" else dice_style)


DieSeen = tuple[str, float | None, float | None, int]  # name, x mm, y mm, value


def _die_sightings(sightings: Sequence[Any]) -> list[DieSeen]:
    return [(sg.key, sg.x_mm, sg.y_mm, sg.value) for sg in sightings if sg.kind == "die"]


def _real_dice(seen: Sequence[DieSeen], truth: TableSnapshot, by_place: bool
               ) -> list[str | None]:
    """The real die each reported die is, None where there is none: by name for dice whose
    stickers name them, else paired by player, colour and place (`dice_match`)."""
    if not by_place:
        names = {d.die for d in truth.dice}
        return [s[0] if s[0] in names else None for s in seen]
    pairs = pair_dice([(s[0], s[1], s[2]) for s in seen],
                      [(d.die, d.x_mm, d.y_mm) for d in truth.dice])
    return [pairs.get(i) for i in range(len(seen))]


def _wrong_ids(snap: TableSnapshot | None, truth: TableSnapshot, by_place: bool = False
               ) -> tuple[int, int]:
    """Cards in a settled table that are not on the real one; dice that are not, or that
    show another value."""
    if snap is None:
        return 0, 0
    uids = {c.uid for c in truth.cards}
    values = {d.die: d.value for d in truth.dice}
    seen = [(d.die, d.x_mm, d.y_mm, d.value) for d in snap.dice]
    reals = _real_dice(seen, truth, by_place)
    return (sum(1 for c in snap.cards if c.uid not in uids),
            sum(1 for s, real in zip(seen, reals, strict=True)
                if real is None or values[real] != s[3]))


def _near_half(layout: Any, zone_id: str) -> bool:
    """Whether a zone's centre lies on the half of the mat at player 1's edge (y = the mat's
    height), where a laptop's camera stands."""
    zone = layout.zones[zone_id]
    return float(zone.y_mm) + float(zone.h_mm) / 2 > float(layout.height_mm) / 2


def _stickers(preset: str, symbology: Symbology) -> Symbology:
    """The card stickers to draw: the printed kind (`--stickers`), except on the old flat
    simulator, which keeps the stickers it was measured with (Micro QR) as its baseline."""
    return LEGACY_SYMBOLOGY if preset == EASY else symbology


# ----- the timed sequence (fps and latency) ---------------------------------------------------

TIMING_REPEATS = 3  # the frame rate is the best of this many runs over the same frames: on a
# shared machine one run's figure varied by a third (16-29 fps) with other tenants' load


@dataclass
class SequenceResult:
    camera: str
    bumped: bool
    resolution: str
    cards: int
    frames: int
    recall: float
    wrong_ids: int
    settled_ok: float  # of the snapshots emitted, those entirely right (`_entirely_right`)
    dice_ok: float | None
    fps: float
    latency_ms_max: float | None  # None: no settled snapshot matched the truth
    latency_ms_mean: float | None
    notes: list[str] = field(default_factory=list)
    snapshots: int = 0  # snapshots the pipeline emitted
    steps_ok: float | None = None  # of the steps, those whose last snapshot (on the step's
    # last still frame) is entirely right
    steps_ok_all_cards: float | None = None  # the same held to all the cards on the table,
    # whose stickers the camera may not see (the figure before 2026-11-28)
    latency_ms_p95: float | None = None
    fps_cpu: float | None = None  # by the process's processor time, best of the runs


def _essence(s: TableSnapshot | None) -> set[tuple[Any, ...]]:
    if s is None:
        return set()
    return {(c.uid, c.zone, c.face_up, c.tapped) for c in s.cards}


def _entirely_right(snap: TableSnapshot | None, truth: TableSnapshot, in_view: set[str]
                    ) -> bool:
    """Every card whose sticker the camera sees whole lies in the snapshot as on the table
    (zone, face, tapped), and nothing is there that is not on the table as it lies: a card
    whose sticker is outside the picture or under another card or a die need not be there,
    as in `phantom_check`."""
    table = _essence(truth)
    got = _essence(snap)
    return {c for c in table if c[0] in in_view} <= got <= table


def _dice_right(snap: TableSnapshot | None, truth: TableSnapshot, in_view: set[str]) -> bool:
    """Every die whose top the camera sees shows its value in the snapshot."""
    values = {d.die: d.value for d in (snap.dice if snap else ())}
    return all(values.get(d.die) == d.value for d in truth.dice if d.die in in_view)


def run_sequence(preset: str = DEFAULT_PRESET, n_cards: int = 40, steps: int = 6,
                 seed: int = 1, timing: Timing | None = None, backend: str = "zxing",
                 pose: Pose | None = None, bumped: bool = False,
                 symbology: Symbology = DEFAULT_SYMBOLOGY) -> SequenceResult:
    """Render a scripted sequence with hands, then time the pipeline on its JPEG frames.

    Frames are rendered and JPEG-encoded beforehand; the timed loop decodes each JPEG and runs
    the pipeline on one core (as with a camera stream). Every snapshot the pipeline emits is
    judged against the table of its frame (`_entirely_right`: the cards whose sticker the camera
    sees whole on the step's still frames, nothing else), since the referee takes each one; the
    steps are judged as before by the snapshot standing on their last still frame, also against
    all the cards (the figure before 2026-11-28, which counted the stickers out of view). Latency
    of a step: from the first frame with no hand in the picture to the first right snapshot
    (cards, and the dice whose top is in view), plus that frame's processing time. `bumped`: the
    camera is knocked (and stays moved) in the middle of the still pause after the first change.
    """
    mat = bench_mat(25.0, MODULES["microqr"])
    snaps = scenario_snapshots(mat, n_cards, steps, seed, dice=6)
    plan_timing = timing or Timing()
    bump = None
    if bumped and preset != EASY:
        probe = SnapshotPlayer(make_renderer(mat, EASY), snaps[:2], GAME_CODE, number_of,
                               plan_timing, True, seed)
        pause = [i for i, (shown, _, still, _) in enumerate(probe.plan())
                 if shown == 1 and still]
        bump = Bump(pause[len(pause) // 2])
    renderer = make_renderer(mat, preset, pose, seed, bump=bump,
                             symbology=_stickers(preset, symbology))
    player = SnapshotPlayer(renderer, snaps, GAME_CODE, number_of, plan_timing, True, seed)
    frames: list[tuple[bytes, Any]] = []
    for index, (shown, hands, settled, done) in enumerate(player.plan()):
        rendered = renderer.render(player.scene(shown), hands, index, jpeg=False)
        frames.append((renderer.encode(rendered.image), (shown, settled, done,
                                                         rendered.truth)))
    on_table = {m.text for _, (_, _, _, t) in frames for m in t.markers}
    # the rendered frames' truth is hundreds of thousands of Python objects the companion
    # never holds; left to the garbage collector's full passes they cost the timed pipeline
    # a fifth of its speed (16 fps against 20)
    gc.collect()
    gc.freeze()
    # what the camera sees whole on each step's last still frame (no hand in the picture)
    cards_in_view: dict[int, set[str]] = {}
    washed: dict[int, set[str]] = {}  # cards whose sticker the lamp's reflection washes out
    dice_in_view: dict[int, set[str]] = {}
    for _, (shown, settled, _done, truth) in frames:
        if settled:
            cards_in_view[shown] = {m.key for m in truth.markers
                                    if m.kind == "card" and m.visible
                                    and m.washed_out < WASHED_OUT}
            washed[shown] = {m.key for m in truth.markers
                             if m.kind == "card" and m.visible and m.washed_out >= WASHED_OUT}
            dice_in_view[shown] = {m.key for m in truth.markers if m.kind == "die" and m.visible}
    pipeline = build_pipeline(mat, GAME, Numbers(), backend)
    fps_time = 0.0
    cpu_time = 0.0
    read = visible = wrong = 0
    dice_seen: dict[int, list[bool]] = {}
    latencies: list[float] = []
    timed: set[int] = set()
    settled_right: dict[int, bool] = {}
    settled_all: dict[int, bool] = {}
    emitted: list[bool] = []
    last: TableSnapshot | None = None
    dt = 1 / FPS
    shown_before = 0
    hand_gone: float | None = 0.0
    width = height = 0
    for index, (jpeg, (shown, settled, _done, truth)) in enumerate(frames):
        t0, c0 = time.perf_counter(), time.process_time()
        image = np.asarray(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR))
        update = pipeline.process(Frame(image, index, index * dt))
        elapsed = time.perf_counter() - t0
        cpu_time += time.process_time() - c0
        fps_time += elapsed
        height, width = image.shape[:2]
        if shown != shown_before:
            shown_before, hand_gone = shown, None
        if hand_gone is None and not truth.hand_in_view:
            hand_gone = index * dt
        texts = {d.text for d in update.detections}
        cards_visible = {m.text for m in truth.markers if m.visible and m.kind == "card"
                         and m.washed_out < WASHED_OUT}  # a washed-out sticker: unreadable
        visible += len(cards_visible)
        read += len(cards_visible & texts)
        wrong += sum(1 for d in update.detections
                     if d.kind in ("front", "back") and d.text not in on_table)
        if update.snapshot is not None:
            last = update.snapshot
            right = _entirely_right(last, snaps[shown], cards_in_view.get(shown, set()))
            emitted.append(right)
            # latency: from the hand leaving the picture to the first right snapshot (cards
            # and the dice in view); a right one out before the hand had left counts 0
            if (shown > 0 and shown not in timed and right
                    and _dice_right(last, snaps[shown], dice_in_view.get(shown, set()))):
                timed.add(shown)
                gone = index * dt if hand_gone is None else hand_gone
                latencies.append((index * dt - gone) * 1000 + elapsed * 1000)
        if settled:  # the last settled frame of each step decides
            settled_right[shown] = _entirely_right(last, snaps[shown], cards_in_view[shown])
            settled_all[shown] = _essence(last) == _essence(snaps[shown])
            dice_seen[shown] = [
                last is not None and (got := last.die(d.die)) is not None
                and got.value == d.value for d in snaps[shown].dice
            ]
    for _ in range(TIMING_REPEATS - 1):
        wall, cpu = _time_pipeline(mat, backend, [j for j, _ in frames])
        fps_time, cpu_time = min(fps_time, wall), min(cpu_time, cpu)
    gc.unfreeze()
    ok = sum(emitted) / max(len(emitted), 1)
    dice_read = sum(len(v) for v in dice_seen.values())
    dice_right = sum(sum(v) for v in dice_seen.values())
    steps = max(len(settled_right), 1)
    return SequenceResult(
        preset, bump is not None, f"{width}x{height}", n_cards, len(frames),
        round(read / max(visible, 1), 4),
        wrong, round(ok, 4), round(dice_right / dice_read, 4) if dice_read else None,
        round(len(frames) / fps_time, 1) if fps_time else 0.0,
        round(max(latencies), 1) if latencies else None,
        round(sum(latencies) / len(latencies), 1) if latencies else None,
        snapshots=len(emitted),
        steps_ok=round(sum(settled_right.values()) / steps, 4),
        steps_ok_all_cards=round(sum(settled_all.values()) / steps, 4),
        latency_ms_p95=round(float(np.percentile(latencies, 95)), 1) if latencies else None,
        fps_cpu=round(len(frames) / cpu_time, 1) if cpu_time else None,
        notes=[f"washed out by the lamp's reflection (unreadable, not counted): "
               f"{', '.join(sorted(set().union(*washed.values())))}"]
        if any(washed.values()) else [],
    )


def _time_pipeline(mat: BenchMat, backend: str, jpegs: Sequence[bytes]) -> tuple[float, float]:
    """Seconds a fresh pipeline takes over the JPEG frames, decoding included: by the wall
    clock and in processor time (which other tenants of a shared machine do not stretch)."""
    pipeline = build_pipeline(mat, GAME, Numbers(), backend)
    total = cpu = 0.0
    for index, jpeg in enumerate(jpegs):
        t0, c0 = time.perf_counter(), time.process_time()
        image = np.asarray(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR))
        pipeline.process(Frame(image, index, index / FPS))
        total += time.perf_counter() - t0
        cpu += time.process_time() - c0
    return total, cpu


def phantom_check(preset: str, passes: int, seed: int = 3,
                  symbology: Symbology = DEFAULT_SYMBOLOGY) -> dict[str, Any]:
    """A still table for ~10 minutes (time-compressed): noise and hands passing, no change."""
    mat = bench_mat()
    snap = scenario_snapshots(mat, 40, 0, seed)[0]
    renderer = make_renderer(mat, preset, None, seed, symbology=_stickers(preset, symbology))
    player = SnapshotPlayer(renderer, [snap], GAME_CODE, number_of, Timing(), True, seed)
    scene = player.scene(0)
    pipeline = build_pipeline(mat, GAME, Numbers())
    emitted = 0
    first: TableSnapshot | None = None
    index = 0
    clock = 0.0
    span_s = 600.0
    gap = span_s / max(passes, 1)
    in_view: set[str] = set()  # cards whose sticker the camera sees whole
    for p in range(passes + 1):
        for _ in range(8):  # still frames
            rendered = renderer.render(scene, (), index)
            in_view = {m.key for m in rendered.truth.markers if m.kind == "card" and m.visible}
            up = pipeline.process(Frame(rendered.image, index, clock))
            index += 1
            clock += 1 / FPS
            if up.snapshot is not None:
                emitted += 1
                first = first or up.snapshot
        if p == passes:
            break
        y = 60.0 + (p % 5) * 60
        for i in range(20):  # a hand sweeps across without touching anything
            x = -80 + i * 40.0
            hand = Hand(x, y, x - 200, 520, p % 5, z_mm=80, vx_mm_s=1200)
            up = pipeline.process(Frame(renderer.render(scene, [hand], index).image, index,
                                        clock))
            index += 1
            clock += 1 / FPS
            if up.snapshot is not None:
                emitted += 1
        clock += gap
    # the first snapshot is right when it holds every card whose sticker the camera sees
    # whole and nothing that is not on the table as it lies: a card whose sticker is outside
    # the picture or under another card need not be in it (at this pose, six; most are read)
    table = _essence(snap)
    seen = {c for c in table if c[0] in in_view}
    right = first is not None and seen <= _essence(first) <= table
    return {"camera": preset, "frames": index, "scene_minutes": round(clock / 60, 1),
            "hand_passes": passes, "phantom_changes": max(0, emitted - 1),
            "first_snapshot_right": right, "cards_out_of_view": len(_essence(snap)) - len(seen)}


# ----- several cameras at one table ----------------------------------------------------------

# Several cameras at one table in `companion bench vision`: the fused table and each camera alone.
#
# A camera kind with several cameras (`turns_deg` in its file, e.g. `two-laptops-720p-mirror`:
# a laptop with a mirror clip at each long edge) renders every still scene of
# `companion.benchmarks.vision.still_table` once per camera, under one lamp. Each camera's frames
# go through their own fresh pipeline (`build_pipeline`: own mat fit, own mirror detection), and
# the cameras' settled tables are fused as `companion watch A B` fuses them
# (`companion.vision.multicam.fuse`). Rows: the fused table, then each camera alone on the same
# frames, with the figures of `vision.Row`:
#
# - cards settled / zones / dice settled: of the cards and dice on the table, those in the last
#   settled table with the right identity and face, in the right zone, with the right value;
# - near: for each camera alone, its share on the half of the mat nearer to it;
# - wrong: distinct wrong identities and wrong die values in any settled table of a scene (every
#   table the referee would have been given, not only the last), cards and dice apart.


class _Tally:
    def __init__(self) -> None:
        self.cards = [0, 0]
        self.zones = [0, 0]
        self.dice = [0, 0]
        self.near = [0, 0]
        self.in_view = [0, 0]
        self.wrong_cards = 0
        self.wrong_dice = 0
        self.frames = 0
        self.found = 0

    def score(self, last: TableSnapshot | None, truth: TableSnapshot, near: Any,
              shown: set[str]) -> None:
        for card in truth.cards:
            got = last.card(card.uid) if last else None
            right = got is not None and got.face_up == card.face_up
            self.cards[0] += right
            self.cards[1] += 1
            self.zones[0] += got is not None and got.zone == card.zone
            self.zones[1] += 1
            if near(card):
                self.near[0] += right
                self.near[1] += 1
            if card.uid in shown:
                self.in_view[0] += right
                self.in_view[1] += 1
        for die in truth.dice:
            got_die = last.die(die.die) if last else None
            self.dice[0] += got_die is not None and got_die.value == die.value
            self.dice[1] += 1

    def wrongs(self, tables: list[TableSnapshot], truth: TableSnapshot) -> None:
        uids = {c.uid for c in truth.cards}
        values = {d.die: d.value for d in truth.dice}
        cards = {c.uid for t in tables for c in t.cards if c.uid not in uids}
        dice = set()
        for t in tables:
            seen = [(d.die, d.x_mm, d.y_mm, d.value) for d in t.dice]
            for s, real in zip(seen, _real_dice(seen, truth, False), strict=True):
                if real is None or values[real] != s[3]:
                    dice.add((s[0], s[3]))
        self.wrong_cards += len(cards)
        self.wrong_dice += len(dice)

    def row(self, camera: str, label: str, pose: str, resolution: str, scenes: int,
            notes: list[str]) -> Row:
        def share(pair: list[int]) -> float | None:
            return round(pair[0] / pair[1], 4) if pair[1] else None

        return Row(camera, label, pose, resolution, scenes, self.frames, None,
                   round(self.found / max(self.frames, 1), 4), None, share(self.cards),
                   share(self.zones), None, share(self.dice),
                   self.wrong_cards + self.wrong_dice, self.wrong_cards, self.wrong_dice,
                   notes=notes, cards_near_half=share(self.near),
                   cards_in_view=share(self.in_view))


def measure_cameras(preset: str, pose: Pose | None, scenes: int, frames: int = STILL_FRAMES,
                    seed: int = 1, dice_style: str = "aruco", fps: float = FPS) -> list[Row]:
    """The fused row and one row per camera alone, on the same rendered still scenes (`fps`:
    frames per second of table time)."""
    from companion.layouts import load_layout

    kind = camera_kind(preset)
    layout = load_layout(GAME)
    code = layout_game_code(layout)
    piles = [z.id for z in layout.zones.values() if z.kind == "pile"]
    zones = zone_centres(layout)
    height = float(layout.height_mm)
    names = [_camera_name(t) for t in kind.turns_deg]
    fused_tally = _Tally()
    alone = [_Tally() for _ in names]
    unsure: list[int] = []
    width_px = height_px = 0
    for s in range(scenes):
        scene_seed = seed * 1000 + s
        truth = still_table(layout, scene_seed)
        renderers = make_renderers(layout, preset, pose, scene_seed, dice_style)
        player = SnapshotPlayer(renderers[0], [truth], code, number_of, Timing(), False,
                                scene_seed, piles)
        scene = player.scene(0)
        pipelines = [build_pipeline(layout, GAME, Numbers(), dice_mode=dice_mode(dice_style))
                     for _ in renderers]
        anchors = [CornerAnchors(layout) for _ in renderers]
        last: list[TableSnapshot | None] = [None] * len(renderers)
        tables: list[list[TableSnapshot]] = [[] for _ in renderers]
        fused_tables: list[TableSnapshot] = []
        shown: list[set[str]] = [set() for _ in renderers]
        fused = None
        for index in range(frames):
            changed = False
            for k, (renderer, pipeline) in enumerate(zip(renderers, pipelines, strict=True)):
                rendered = renderer.render(scene, (), index)
                height_px, width_px = rendered.image.shape[:2]
                update = pipeline.process(Frame(rendered.image, index, index / fps))
                anchors[k].see(update.detections)
                alone[k].frames += 1
                alone[k].found += bool(update.stats.calibration_ok)
                shown[k] = {m.key for m in rendered.truth.markers
                            if m.kind == "card" and m.visible}
                if update.snapshot is not None:
                    last[k] = update.snapshot
                    tables[k].append(update.snapshot)
                    changed = True
            fused_tally.frames += 1
            fused_tally.found += any(p.geometry is not None for p in pipelines)
            if changed or index == frames - 1:
                fused = fuse([CameraView(n, last[k], None if p.geometry is None
                                         else p.geometry.px_per_mm, True, anchors[k].points())
                              for k, (n, p) in enumerate(zip(names, pipelines, strict=True))],
                             GAME, zones, height, len(fused_tables) + 1, index / fps)
                fused_tables.append(fused.snapshot)
        unsure.append(len(fused.unsure) if fused else 0)
        for k, turn in enumerate(kind.turns_deg):
            alone[k].score(last[k], truth, _near(layout, turn), shown[k])
            alone[k].wrongs(tables[k], truth)
        fused_tally.score(fused.snapshot if fused else None, truth, lambda c: False,
                          set().union(*shown))
        fused_tally.wrongs(fused_tables, truth)
    pose_label = (pose or kind.poses[0]).label
    resolution = f"{width_px}x{height_px}"
    rows = [fused_tally.row(preset, f"{kind.cameras} cameras, fused", pose_label, resolution,
                            scenes, [f"left out as not sure: {sum(unsure)} item(s) in {scenes} "
                             f"scenes (median {statistics.median(unsure or [0]):g})"])]
    for k, name in enumerate(names):
        rows.append(alone[k].row(preset, f"{name} alone", pose_label, resolution, scenes,
                                 [kind.label]))
    return rows


def _camera_name(turn_deg: float) -> str:
    turn = turn_deg % 360
    return ("camera at player 1's edge" if turn == 0 else
            "camera at player 2's edge" if turn == 180 else f"camera turned {turn:g} deg")


def _near(layout: Any, turn_deg: float) -> Any:
    """Whether a card lies on the half of the mat nearer to the camera turned `turn_deg`
    (0: player 1's edge at y = the mat's height; 180: player 2's at y = 0)."""
    zones = layout.zones
    middle = float(layout.height_mm) / 2

    def near(card: Any) -> bool:
        z = zones[card.zone]
        y = float(z.y_mm) + float(z.h_mm) / 2
        return y > middle if turn_deg % 360 == 0 else y < middle if turn_deg % 360 == 180 \
            else False

    return near


# ----- the command ----------------------------------------------------------------------------


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.0%}"


def format_rows(rows: Sequence[Row]) -> str:
    head = ("camera", "pose", "px/mod", "mat", "cards1f", "settled", "inview", "near",
            "zones", "dice1f", "diceset", "wrong")
    widths = (38, 22, 7, 5, 8, 8, 7, 5, 6, 7, 8, 6)
    lines = [" ".join(f"{h:<{w}}" if i < 2 else f"{h:>{w}}"
                      for i, (h, w) in enumerate(zip(head, widths, strict=True)))]
    for r in rows:
        vals = (r.label[:38], r.pose, "-" if r.px_per_module is None else r.px_per_module,
                _pct(r.mat_found), _pct(r.cards_1f), _pct(r.cards_settled),
                _pct(r.cards_in_view), _pct(r.cards_near_half), _pct(r.zones),
                _pct(r.dice_1f), _pct(r.dice_settled), r.wrong)
        lines.append(" ".join(f"{v!s:<{w}}" if i < 2 else f"{v!s:>{w}}"
                              for i, (v, w) in enumerate(zip(vals, widths, strict=True))))
    return "\n".join(lines)


def plan_rows(cameras: Sequence[str], quick: bool) -> list[tuple[str, Pose | None]]:
    out: list[tuple[str, Pose | None]] = []
    for name in cameras:
        if name == EASY:
            out.append((EASY, None))
            continue
        kind = camera_kind(name)
        poses = kind.poses[:1] if quick else kind.poses
        out.extend((name, p) for p in poses)
    return out


@click.command("vision")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quick", is_flag=True, help="Fewer scenes, the first pose of each camera, a "
                                            "short timed sequence.")
@click.option("--camera", "cameras", multiple=True, metavar="KIND",
              help="Camera kind(s) to measure (repeatable); default: all and 'easy'.")
@click.option("--scenes", type=int, default=None, help="Still scenes per row (default 4, "
                                                       "quick 2).")
@click.option("--dice", "dice_style", type=click.Choice(list(DICE_STYLES)), default="aruco",
              show_default=True,
              help="ArUco die stickers (a marker per die and value), value stickers (value "
                   "and colour in bigger cells, `companion print dice --faces values`) or "
                   "ordinary pip dice. The old flat simulator keeps its flat ArUco dice.")
@click.option("--no-sequence", is_flag=True, help="Skip the timed 40-card sequence.")
@click.option("--stickers", "symbology", type=click.Choice(["bigcell", "microqr"]),
              default=DEFAULT_SYMBOLOGY, show_default=True,
              help="Card stickers drawn (the old flat simulator keeps Micro QR).")
@click.option("--game", type=click.Choice(list(GAMES)), default=GAME, show_default=True,
              help="The mat of the still scenes: Creature Crush's table in play (dice too), or "
                   "another game's cards in its slots, piles and areas (no dice).")
@click.option("--twin-stickers/--one-sticker", "twin", default=None,
              help="Two stickers on every card face, one at each end, or one in the middle. "
                   "Default: as `companion print stickers` prints for the game (two for Trick "
                   "or Beat, My Little Pony, Challengers!). The old flat simulator and the "
                   "timed sequence keep one.")
def bench_vision(as_json: bool, quick: bool, cameras: tuple[str, ...], scenes: int | None,
                 dice_style: str, no_sequence: bool, symbology: Symbology = DEFAULT_SYMBOLOGY,
                 game: str = GAME, twin: bool | None = None) -> None:
    """The eye on every simulated camera kind: recall, zones, dice, wrong ids, fps, latency."""
    cv2.setNumThreads(1)
    if twin is None:
        twin = twin_stickers_printed(game)
    names = list(cameras) or preset_names()
    known = set(preset_names()) | {"legacy"}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise click.BadParameter(f"unknown camera kind(s): {', '.join(unknown)}; choose from "
                                 f"{', '.join(preset_names())}", param_hint="--camera")
    names = [EASY if n == "legacy" else n for n in names]
    n_scenes = scenes or (2 if quick else 4)
    rows: list[Row] = []
    for name, pose in plan_rows(names, quick):
        started = time.perf_counter()
        if name != EASY and camera_kind(name).cameras > 1:  # several cameras, one table
            if game != GAME or symbology != DEFAULT_SYMBOLOGY or twin:
                click.echo(f"{name}: measured on {GAME}'s table with the printed stickers "
                           "only; skipped", err=True)
                continue
            rows.extend(measure_cameras(name, pose, n_scenes, dice_style=dice_style))
        else:
            rows.append(measure_still(name, pose, n_scenes, dice_style=dice_style,
                                      symbology=symbology, game=game, twin_stickers=twin))
        click.echo(f"{name} {pose.label if pose else ''}: "
                   f"{time.perf_counter() - started:.0f} s", err=True)
    sequences: list[SequenceResult] = []
    phantom = None
    if not no_sequence:
        started = time.perf_counter()
        seq_preset = DEFAULT_PRESET if DEFAULT_PRESET in names or not cameras else names[0]
        timing = Timing(settle_s=0.4, start_s=0.4) if quick else None
        sequences.append(run_sequence(seq_preset, 40, 2 if quick else 6, timing=timing,
                                      symbology=symbology))
        if not quick and seq_preset != EASY:
            sequences.append(run_sequence(seq_preset, 40, 4, timing=timing, bumped=True,
                                          symbology=symbology))
        phantom = phantom_check(seq_preset, 2 if quick else 12, symbology=symbology)
        click.echo(f"sequence {seq_preset}: {time.perf_counter() - started:.0f} s", err=True)
    if as_json:
        click.echo(json.dumps({"game": game, "twin_stickers": twin,
                               "rows": [asdict(r) for r in rows],
                               "sequences": [asdict(s) for s in sequences],
                               "phantom": phantom}, indent=2, default=str))
        return
    click.echo(format_rows(rows))
    for s in sequences:
        what = "camera bumped mid-game" if s.bumped else "hands"
        click.echo(f"\nsequence ({s.camera}, {s.resolution}, {s.cards} cards, {s.frames} "
                   f"frames, {what}): recall {s.recall:.1%}, settled snapshots entirely right "
                   f"{s.settled_ok:.0%} of {s.snapshots} (steps {_pct(s.steps_ok)}; held to "
                   f"every card on the table {_pct(s.steps_ok_all_cards)}), dice "
                   f"{_pct(s.dice_ok)}, wrong {s.wrong_ids}, {s.fps} fps ({s.fps_cpu} by "
                   f"processor time), latency mean {s.latency_ms_mean} ms, p95 "
                   f"{s.latency_ms_p95} ms, max {s.latency_ms_max} ms")
    if phantom is not None:
        click.echo(f"still scene with hands passing: {phantom}")


def symbology_recall(symbology: Symbology, sticker_mm: float, frames: int = 4,
                     resolution: str = "1080p", tilt_deg: float = 30.0,
                     margin: float = 0.03) -> float:
    """Per-frame recall of 40 card stickers on still frames of the EASY simulator, one
    full-frame zxing pass (no crop retries): the measurement behind docs/markers.md.
    `margin` is the share of the picture left around the mat."""
    from dataclasses import replace

    from companion.sim.camera import CameraProfile, Degradation
    from companion.sim.render import TableRenderer
    from companion.vision.detect import Detector

    mat = bench_mat(sticker_mm, MODULES[symbology])
    snap = scenario_snapshots(mat, 40, 0, 5, dice=0)[0]
    camera = replace(CameraProfile.named(resolution, tilt_deg), margin=margin)
    renderer = TableRenderer(mat, camera, Degradation.webcam(), symbology, sticker_mm, 5)
    player = SnapshotPlayer(renderer, [snap], GAME_CODE, number_of, Timing(), False, 5)
    detector = Detector("zxing", aruco=False, read_qr=symbology == "qr")
    read = seen = 0
    for index in range(frames):
        rendered = renderer.render(player.scene(0), (), index)
        visible = {m.text for m in rendered.truth.markers if m.visible and m.kind == "card"}
        gray = cv2.cvtColor(rendered.image, cv2.COLOR_BGR2GRAY)
        texts = {d.text for d in detector.detect(gray)}
        seen += len(visible)
        read += len(visible & texts)
    return read / max(seen, 1)
