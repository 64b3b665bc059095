"""Several cameras at one table in `companion bench vision`: the fused table and each camera alone.

A camera kind with several cameras (`turns_deg` in its file, e.g. `two-laptops-720p-mirror`:
a laptop with a mirror clip at each long edge) renders every still scene of
`companion.benchmarks.vision.still_table` once per camera, under one lamp. Each camera's frames
go through their own fresh pipeline (`build_pipeline`: own mat fit, own mirror detection), and
the cameras' settled tables are fused as `companion watch A B` fuses them
(`companion.vision.multicam.fuse`). Rows: the fused table, then each camera alone on the same
frames, with the figures of `vision.Row`:

- cards settled / zones / dice settled: of the cards and dice on the table, those in the last
  settled table with the right identity and face, in the right zone, with the right value;
- near: for each camera alone, its share on the half of the mat nearer to it;
- wrong: distinct wrong identities and wrong die values in any settled table of a scene (every
  table the referee would have been given, not only the last), cards and dice apart.
"""

from __future__ import annotations

import statistics
from typing import Any

from companion.benchmarks.vision import (
    FPS,
    GAME,
    STILL_FRAMES,
    Numbers,
    Row,
    _real_dice,
    dice_mode,
    number_of,
    still_table,
)
from companion.sim.presets import Pose, camera_kind, make_renderers
from companion.sim.source import SnapshotPlayer, Timing
from companion.snapshot import TableSnapshot
from companion.vision.multicam import CameraView, CornerAnchors, fuse, zone_centres
from companion.vision.pipeline import build_pipeline, layout_game_code
from companion.vision.sources import Frame


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
                    seed: int = 1, dice_style: str = "aruco") -> list[Row]:
    """The fused row and one row per camera alone, on the same rendered still scenes."""
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
                update = pipeline.process(Frame(rendered.image, index, index / FPS))
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
                             GAME, zones, height, len(fused_tables) + 1, index / FPS)
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
