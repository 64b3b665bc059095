"""`companion bench vision`: decoders, recall, identities, settled accuracy, fps, latency.

Every figure comes from simulated frames (`companion.sim`) played through the real pipeline:
frames are rendered and JPEG-encoded beforehand, and the timed loop decodes each JPEG and runs
detector, geometry and tracker on one core (`cv2.setNumThreads(1)`), as with a camera stream.
The bench mat is 600 x 400 mm with a grid of 40 card places whose stickers stay clear of each
other (cards overlap as in real rows); each scenario plays steps that swap, flip and tap cards
and roll dice, with a hand doing every change.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import click
import cv2
import numpy as np

from companion.markers.payload import corner_id
from companion.markers.render import Symbology
from companion.sim.camera import CameraProfile, Degradation, camera_height_mm
from companion.sim.hands import Hand
from companion.sim.render import MODULES, TableRenderer
from companion.sim.source import SnapshotPlayer, Timing
from companion.snapshot import SeenCard, SeenDie, TableSnapshot
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import Detector
from companion.vision.pipeline import DICE_ARUCO, Pipeline
from companion.vision.sources import Frame
from companion.vision.tracker import Tracker, TrackerSettings

GAME = "creature-crush"
GAME_CODE = 5
COLS, ROWS = 8, 5
PITCH_X, PITCH_Y = 63.5, 62.0


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


@dataclass
class ScenarioResult:
    decoder: str
    symbology: str
    resolution: str
    camera_cm: int  # camera height above the table
    cards: int
    quality: str
    frames: int
    recall: float
    wrong_ids: int
    settled_ok: float
    fps: float
    latency_ms_max: float | None  # None: no settled snapshot matched the truth
    latency_ms_mean: float | None
    dice_ok: float | None = None
    notes: list[str] = field(default_factory=list)


def _essence(s: TableSnapshot | None) -> set[tuple[Any, ...]]:
    if s is None:
        return set()
    return {(c.uid, c.zone, c.face_up, c.tapped) for c in s.cards}


def run_scenario(decoder: str, resolution: str, n_cards: int, quality: str, steps: int,
                 seed: int = 1, symbology: Symbology = "microqr", sticker_mm: float = 25.0,
                 tilt_deg: float = 30.0, timing: Timing | None = None,
                 margin: float = 0.03) -> ScenarioResult:
    """Render one scenario, then time the pipeline on its JPEG frames and score it.

    Latency of a step: from the first frame with no hand in the picture to the first snapshot
    that equals the truth in full (cards, dice, tokens), plus that frame's processing time.
    """
    modules = MODULES[symbology]
    mat = bench_mat(sticker_mm, modules)
    # Dice are read by ArUco whatever the sticker decoder; only the Micro QR rows carry them
    # (they lie beside the 25 mm sticker, where a 40 mm QR would leave them no room).
    snaps = scenario_snapshots(mat, n_cards, steps, seed, dice=6 if modules == 13 else 0)
    camera = replace(CameraProfile.named(resolution, tilt_deg), margin=margin)
    renderer = TableRenderer(mat, camera, Degradation.named(quality), symbology, sticker_mm, seed)
    player = SnapshotPlayer(renderer, snaps, GAME_CODE, number_of, timing or Timing(), True, seed)
    frames: list[tuple[bytes, Any]] = []
    for index, (shown, hands, settled, done) in enumerate(player.plan()):
        canvas, labels = renderer.compose(player.scene(shown), hands)
        image = renderer.to_camera(canvas, index)
        truth = renderer.truth(player.scene(shown), labels, hands)
        frames.append((renderer.encode(image), (shown, settled, done, truth)))
    on_table = {m.text for _, (_, _, _, t) in frames for m in t.markers}
    settings = TrackerSettings(card_w_mm=mat.card_w_mm, card_h_mm=mat.card_h_mm,
                               sticker_mm=sticker_mm)
    pipeline = Pipeline(mat, Detector(decoder, aruco=False, read_qr=symbology == "qr"),
                        Tracker(GAME, settings), cards=Numbers(), game_code=GAME_CODE,
                        aruco=ArucoReader(DICE_ARUCO))
    fps_time = 0.0
    read = visible = wrong = 0
    dice_seen: dict[int, list[bool]] = {}
    latencies: list[float] = []
    timed: set[int] = set()
    settled_right: dict[int, bool] = {}
    last: TableSnapshot | None = None
    dt = 1 / 30
    shown_before = 0
    hand_gone: float | None = 0.0
    for index, (jpeg, (shown, settled, _done, truth)) in enumerate(frames):
        t0 = time.perf_counter()
        image = np.asarray(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR))
        update = pipeline.process(Frame(image, index, index * dt))
        elapsed = time.perf_counter() - t0
        fps_time += elapsed
        if shown != shown_before:
            shown_before, hand_gone = shown, None
        if hand_gone is None and not truth.hand_in_view:
            hand_gone = index * dt
        texts = {d.text for d in update.detections}
        cards_visible = {m.text for m in truth.markers if m.visible and m.kind == "card"}
        visible += len(cards_visible)
        read += len(cards_visible & texts)
        wrong += sum(1 for d in update.detections
                     if d.kind in ("front", "back") and d.text not in on_table)
        if update.snapshot is not None:
            last = update.snapshot
            if (shown > 0 and shown not in timed and hand_gone is not None
                    and last.same_table(snaps[shown])):
                timed.add(shown)
                latencies.append((index * dt - hand_gone) * 1000 + elapsed * 1000)
        if settled:  # the last settled frame of each step decides
            settled_right[shown] = _essence(last) == _essence(snaps[shown])
            dice_seen[shown] = [
                last is not None and (got := last.die(d.die)) is not None
                and got.value == d.value for d in snaps[shown].dice
            ]
    ok = sum(settled_right.values()) / max(len(settled_right), 1)
    dice_read = sum(len(v) for v in dice_seen.values())
    dice_right = sum(sum(v) for v in dice_seen.values())
    return ScenarioResult(
        decoder, symbology, resolution,
        round(camera_height_mm(camera, mat.width_mm, mat.height_mm) / 10), n_cards, quality,
        len(frames),
        round(read / max(visible, 1), 4), wrong, round(ok, 4),
        round(len(frames) / fps_time, 1) if fps_time else 0.0,
        round(max(latencies), 1) if latencies else None,
        round(sum(latencies) / len(latencies), 1) if latencies else None,
        round(dice_right / dice_read, 4) if dice_read else None,
    )


def phantom_check(resolution: str, passes: int, seed: int = 3) -> dict[str, Any]:
    """A still table for ~10 minutes (time-compressed): noise and hands passing, no change."""
    mat = bench_mat()
    snap = scenario_snapshots(mat, 40, 0, seed)[0]
    renderer = TableRenderer(mat, CameraProfile.named(resolution), Degradation.webcam(),
                             seed=seed)
    player = SnapshotPlayer(renderer, [snap], GAME_CODE, number_of, Timing(), True, seed)
    scene = player.scene(0)
    pipeline = Pipeline(mat, Detector("zxing", aruco=False), Tracker(GAME, TrackerSettings(
        card_w_mm=63, card_h_mm=88, sticker_mm=25)), cards=Numbers(), game_code=GAME_CODE,
        aruco=ArucoReader(DICE_ARUCO))
    emitted = 0
    first: TableSnapshot | None = None
    index = 0
    clock = 0.0
    span_s = 600.0
    gap = span_s / max(passes, 1)
    for p in range(passes + 1):
        for _ in range(8):  # still frames
            image = renderer.to_camera(renderer.compose(scene)[0], index)
            up = pipeline.process(Frame(image, index, clock))
            index += 1
            clock += 1 / 30
            if up.snapshot is not None:
                emitted += 1
                first = first or up.snapshot
        if p == passes:
            break
        y = 60.0 + (p % 5) * 60
        for i in range(20):  # a hand sweeps across without touching anything
            x = -80 + i * 40.0
            hand = Hand(x, y, x - 200, 520, p % 5)
            image = renderer.to_camera(renderer.compose(scene, [hand])[0], index)
            up = pipeline.process(Frame(image, index, clock))
            index += 1
            clock += 1 / 30
            if up.snapshot is not None:
                emitted += 1
        clock += gap
    right = first is not None and _essence(first) == _essence(snap)
    return {"resolution": resolution, "frames": index, "scene_minutes": round(clock / 60, 1),
            "hand_passes": passes, "phantom_changes": max(0, emitted - 1),
            "first_snapshot_right": right}


def symbology_recall(symbology: Symbology, sticker_mm: float, frames: int = 4,
                     resolution: str = "1080p", tilt_deg: float = 30.0,
                     margin: float = 0.03) -> float:
    """Per-frame recall of 40 card stickers on still webcam-like frames: one full-frame zxing
    pass (no crop retries). `margin` is the share of the picture left around the mat."""
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


def _table(rows: Sequence[ScenarioResult]) -> str:
    head = ("decoder", "symb", "res", "cam_cm", "cards", "quality", "frames", "recall", "wrong",
            "settled", "fps", "lat_max", "lat_mean", "dice")
    lines = [" ".join(f"{h:>8}" for h in head)]
    for r in rows:
        vals = (r.decoder, r.symbology, r.resolution, r.camera_cm, r.cards, r.quality, r.frames,
                f"{r.recall:.1%}", r.wrong_ids, f"{r.settled_ok:.0%}", r.fps,
                "-" if r.latency_ms_max is None else r.latency_ms_max,
                "-" if r.latency_ms_mean is None else r.latency_ms_mean,
                "-" if r.dice_ok is None else f"{r.dice_ok:.1%}")
        lines.append(" ".join(f"{v!s:>8}" for v in vals))
    return "\n".join(lines)


@click.command("vision")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quick", is_flag=True, help="One small scenario per decoder (smoke test).")
@click.option("--decoders", default="zxing,pyzbar,opencv", show_default=True,
              help="Comma-separated decoder backends to measure.")
def bench_vision(as_json: bool, quick: bool, decoders: str) -> None:
    """Decoders x resolution x cards x image quality through the full vision pipeline.

    zxing reads the default 25 mm Micro QR stickers over six steps (swap, flip, roll, tap,
    swap, untap). pyzbar and OpenCV cannot read Micro QR: they get 40 mm QR version 1 stickers,
    no dice, and fewer, shorter steps because they are 40-250x slower per frame.
    """
    cv2.setNumThreads(1)
    chosen = [d.strip() for d in decoders.split(",") if d.strip()]
    unknown = sorted(set(chosen) - {"zxing", "pyzbar", "opencv"})
    if unknown:
        raise click.BadParameter(f"unknown decoder(s): {', '.join(unknown)}",
                                 param_hint="--decoders")
    rows: list[ScenarioResult] = []
    short = Timing(settle_s=0.3, start_s=0.3)
    combos: list[tuple[str, str, int, str, int, float]] = []
    for decoder in chosen:
        if quick:
            combos.append((decoder, "720p", 10, "webcam", 2 if decoder == "zxing" else 1, 0.03))
            continue
        for res in ("720p", "1080p"):
            for n in (10, 40):
                for quality in ("clean", "webcam"):
                    steps = 6 if decoder == "zxing" else 1
                    combos.append((decoder, res, n, quality, steps, 0.03))
        if decoder == "zxing":  # the camera farther up (69 cm), as DESIGN.md measured
            combos.append((decoder, "1080p", 40, "webcam", 6, 0.15))
    for decoder, res, n, quality, steps, margin in combos:
        fast = decoder == "zxing"
        started = time.perf_counter()
        rows.append(run_scenario(decoder, res, n, quality, steps,
                                 symbology="microqr" if fast else "qr",
                                 sticker_mm=25.0 if fast else 40.0,
                                 timing=None if fast else short, margin=margin))
        click.echo(f"{decoder} {res} {n} cards {quality}: "
                   f"{time.perf_counter() - started:.0f} s", err=True)
    phantom = phantom_check("1080p", 2 if quick else 12)
    if as_json:
        click.echo(json.dumps({"scenarios": [asdict(r) for r in rows], "phantom": phantom},
                              indent=2, default=str))
        return
    click.echo(_table(rows))
    click.echo(f"still scene: {phantom}")
