"""`companion bench unread`: the cards a camera sees but cannot read, against the simulator's truth.

One camera alone (a laptop with a mirror clip) reads 71-76 % of the cards; the rest it sees
as card-shaped things it cannot identify (`companion.vision.card_shapes`). Per still scene of
`bench vision` (Creature Crush's table in play, the same seeds) a fresh pipeline watches the
scene long enough for the card-shape watch to report (two looks half a second apart agree),
and its last settled table is scored against the truth:

- unread: the cards on the table the settled table does not hold (right identity and face);
- found: of those, the ones the table reports as "a card, not yet identified" in their zone
  (counted per zone: a zone with two unread cards needs two reports);
- false: reports beyond the unread cards of their zone: in an empty zone, or in a zone whose
  cards were all read (the one-card zone's card read, a second report in an area);
- far: of the reports, those the eye says are too far from the camera to read;
- under glare: unread cards the table reports instead as unknown cards under the lamp's
  reflection (the card-shape watch leaves a zone the glare watch reports to it), and the glare
  watch's unknown cards in empty zones.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

import click
import cv2

from companion.benchmarks.vision import (
    FPS,
    GAME,
    Numbers,
    _stickers,
    number_of,
    spread_table,
    still_table,
)
from companion.games import GAMES
from companion.markers.render import DEFAULT_SYMBOLOGY
from companion.sim.presets import Pose, camera_kind, make_renderer, twin_stickers_printed
from companion.sim.source import SnapshotPlayer, Timing
from companion.snapshot import TableSnapshot
from companion.vision.pipeline import build_pipeline, layout_game_code
from companion.vision.sources import Frame

FRAMES = 36  # 1.2 s at 30 fps: looks at 0, 0.5 and 1.0 s, the last two agreeing
UNREAD_CAUSES = ("far", "unidentified")


@dataclass
class UnreadRow:
    camera: str
    pose: str
    scenes: int
    game: str = GAME
    cards: int = 0
    read: int = 0
    unread: int = 0
    found: int = 0
    false_empty: int = 0  # reports in a zone with no card at all
    false_read: int = 0  # reports beyond the unread cards of a zone that holds cards
    far: int = 0
    found_glare: int = 0  # unread cards not found so, but reported under the lamp's reflection
    # (an unknown card all the same: the card-shape watch leaves such zones to the glare watch)
    glare_empty: int = 0  # unknown cards under the reflection reported in an empty zone
    wrong_ids: int = 0  # identities in the settled table that are not on the table
    misses: list[str] = field(default_factory=list)
    falses: list[str] = field(default_factory=list)

    @property
    def found_share(self) -> float | None:
        return round(self.found / self.unread, 4) if self.unread else None


def score(row: UnreadRow, last: TableSnapshot | None, truth: TableSnapshot, scene: int) -> None:
    """Add one scene's last settled table, against the truth, to `row`."""
    held = list(last.cards) if last is not None else []
    places = list(last.unreadable) if last is not None else []
    on_table = {(c.uid, c.face_up) for c in truth.cards}
    read = {c.uid for c in held if (c.uid, c.face_up) in on_table}
    row.wrong_ids += sum(1 for c in held if (c.uid, c.face_up) not in on_table)
    unread = Counter(c.zone for c in truth.cards if c.uid not in read)
    holding = {c.zone for c in truth.cards}
    shapes = Counter(u.zone for u in places if u.cause in UNREAD_CAUSES)
    glare = Counter(u.zone for u in places if u.cause == "glare" and u.card is None)
    row.cards += len(truth.cards)
    row.read += len(read)
    row.unread += sum(unread.values())
    row.far += sum(1 for u in places if u.cause == "far")
    for zone in set(unread) | set(shapes) | set(glare):
        hit = min(unread[zone], shapes[zone])
        under_glare = min(unread[zone] - hit, glare[zone])
        row.found += hit
        row.found_glare += under_glare
        extra = shapes[zone] - hit
        if zone in holding:
            row.false_read += extra
        else:
            row.false_empty += extra
        if zone not in holding:
            row.glare_empty += glare[zone]
        if extra:
            row.falses.append(f"{scene}:{zone}")
        if unread[zone] > hit + under_glare:
            row.misses.append(f"{scene}:{zone}")


def measure_unread(preset: str, pose: Pose | None, scenes: int, frames: int = FRAMES,
                   seed: int = 1, game: str = GAME) -> UnreadRow:
    """`scenes` still scenes of `bench vision`'s seeds through fresh pipelines, scored:
    Creature Crush's table in play, or another game's `spread_table` (cards in its areas)
    with the stickers that game prints."""
    from companion.layouts import load_layout

    layout = load_layout(game)
    code = layout_game_code(layout)
    piles = [z.id for z in layout.zones.values() if z.kind == "pile"]
    kind = camera_kind(preset)
    twin = twin_stickers_printed(game)
    row = UnreadRow(preset, (pose or kind.poses[0]).label, scenes, game=game)
    for s in range(scenes):
        scene_seed = seed * 1000 + s
        truth = (still_table(layout, scene_seed) if game == GAME
                 else spread_table(layout, game, scene_seed))
        renderer = make_renderer(layout, preset, pose, scene_seed, "aruco",
                                 symbology=_stickers(preset, DEFAULT_SYMBOLOGY),
                                 twin_stickers=twin)
        player = SnapshotPlayer(renderer, [truth], code, number_of, Timing(), False,
                                scene_seed, piles)
        scene = player.scene(0)
        pipeline = build_pipeline(layout, game, Numbers())
        last: TableSnapshot | None = None
        for index in range(frames):
            rendered = renderer.render(scene, (), index)
            update = pipeline.process(Frame(rendered.image, index, index / FPS))
            last = update.snapshot or last
        score(row, last, truth, scene_seed)
    return row


@click.command("unread")
@click.option("--camera", "cameras", multiple=True, default=("laptop-720p-mirror",),
              show_default=True, metavar="KIND", help="Camera kind (repeat).")
@click.option("--scenes", type=int, default=9, show_default=True, help="Still scenes per pose.")
@click.option("--game", type=click.Choice(list(GAMES)), default=GAME, show_default=True,
              help="Whose mat: Creature Crush's table in play, or another game's cards spread "
                   "over its zones.")
@click.option("--first-pose", is_flag=True, help="Only each camera's first pose.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def bench_unread(cameras: tuple[str, ...], scenes: int, game: str, first_pose: bool,
                 as_json: bool) -> None:
    """Cards seen but not read: found in their zone as "not yet identified", and false ones."""
    cv2.setNumThreads(1)
    rows = []
    for name in cameras:
        poses = camera_kind(name).poses
        for pose in poses[:1] if first_pose else poses:
            started = time.perf_counter()
            rows.append(measure_unread(name, pose, scenes, game=game))
            click.echo(f"{name} {pose.label}: {time.perf_counter() - started:.0f} s", err=True)
    if as_json:
        click.echo(json.dumps([{**asdict(r), "found_share": r.found_share} for r in rows],
                              indent=2))
        return
    click.echo("| game | camera | pose | cards | read | unread | found in zone "
               "| false (empty zone) | false (zone read) | far | under glare instead "
               "| glare in empty zone | wrong ids |")
    click.echo("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        share = "-" if r.found_share is None else f"{r.found_share:.1%}"
        click.echo(f"| {r.game} | {r.camera} | {r.pose} | {r.cards} | {r.read} | {r.unread} | "
                   f"{share} ({r.found}/{r.unread}) | {r.false_empty} | {r.false_read} | "
                   f"{r.far} | {r.found_glare} | {r.glare_empty} | {r.wrong_ids} |")
        if r.misses or r.falses:
            click.echo(f"<!-- missed {' '.join(r.misses)}; false {' '.join(r.falses)} -->")
