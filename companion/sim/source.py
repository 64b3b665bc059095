"""A FrameSource that plays a table script on the simulated table.

For every step a hand reaches in from its player's edge to where the table changes, the change
happens under the hand, the hand leaves, and the table stays still for `settle_s`. Every frame
carries its truth: the step index, the visible snapshot the tracker should settle on, and which
markers were really visible. The picture comes from `companion.sim.render`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from companion.markers.payload import die_face_id, encode_back, encode_front, token_id
from companion.markers.render import Symbology
from companion.sim.camera import CameraProfile, Degradation
from companion.sim.hands import MONK_SKIN_TONES_BGR, Hand, along, edge_point
from companion.sim.physical import Bump
from companion.sim.presets import (
    DEFAULT_PRESET,
    LEGACY_SYMBOLOGY,
    Pose,
    Renderer,
    make_renderer,
    twin_stickers_printed,
)
from companion.sim.render import FrameTruth, Scene, SceneCard, SceneDie, SceneToken, TableRenderer
from companion.snapshot import BACK_PREFIX, TableSnapshot, split_uid
from companion.vision.pipeline import layout_game_code
from companion.vision.sources import Frame

PILE_DEPTH = 2  # blank cards drawn under the top card of a pile, for the look of a stack
PILE_CARDS = (8, 30)  # cards in a 3D pile (realistic renderer), chosen per zone and seed


@dataclass(frozen=True, eq=False)
class SimFrame(Frame):
    """A rendered frame with its truth."""

    step: int = -1  # index of the last step whose change has happened (-1: the start)
    expected: TableSnapshot | None = None  # what the settled table shows
    settled: bool = False  # no hand, the change is over
    change_done_s: float = 0.0  # when the hand left after the last change
    truth: FrameTruth | None = None


def pile_cards(zone: str, seed: int) -> int:
    """How many cards lie under the top card of a pile (fixed per zone and seed)."""
    lo, hi = PILE_CARDS
    return lo + sum(map(ord, f"{zone}:{seed}")) * 7919 % (hi - lo + 1)


def scene_from_snapshot(
    snapshot: TableSnapshot, game_code: int, number_of: Callable[[str], int],
    pile_zones: Sequence[str] = (), stacks: bool = False, seed: int = 0,
) -> Scene:
    """The physical scene that shows `snapshot`: stickers for every visible item.

    With `stacks` (the realistic renderer) a pile is its top card with `under` cards beneath,
    drawn as a 3D stack; otherwise two blank cards peek out under it (the easy simulator).
    """
    cards: list[SceneCard] = []
    for c in snapshot.cards:
        x, y = c.x_mm or 0.0, c.y_mm or 0.0
        angle = c.angle_deg or (90.0 if c.tapped else 0.0)
        under = 0
        if c.zone in pile_zones and stacks:
            under = pile_cards(c.zone, seed)
        elif c.zone in pile_zones:
            for k in range(PILE_DEPTH, 0, -1):
                cards.append(SceneCard(f"{c.uid}/under{k}", encode_back(900_000 + k), False,
                                       x + 1.2 * k, y + 1.5 * k, angle, c.zone))
        if c.uid.startswith(BACK_PREFIX):
            payload = encode_back(int(c.uid[len(BACK_PREFIX):]))
        else:
            card_id, copy = split_uid(c.uid)
            payload = encode_front(game_code, number_of(card_id), copy)
        cards.append(SceneCard(c.uid, payload, c.face_up, x, y, angle, c.zone, under))
    angles = {c.uid: c.angle_deg or (90.0 if c.tapped else 0.0) for c in snapshot.cards}

    def die_angle(d: Any) -> float:
        if not stacks:
            return _die_angle(d.die)
        if d.on in angles:  # set by hand on a card: square to it, a few degrees off
            return angles[d.on] + _rolled_angle(d.die, d.value, seed) / 90 * 8 - 4
        return _rolled_angle(d.die, d.value, seed)

    dice = tuple(SceneDie(d.die, die_face_id(d.die, d.value), d.x_mm or 0.0, d.y_mm or 0.0,
                          die_angle(d), d.zone) for d in snapshot.dice)
    tokens = tuple(SceneToken(t.token, token_id(t.token), t.x_mm or 0.0, t.y_mm or 0.0, 0.0,
                              t.zone) for t in snapshot.tokens)
    return Scene(tuple(cards), dice, tokens)


def _rolled_angle(name: str, value: int, seed: int) -> float:
    """A rolled die comes to rest at any turn (0-90 degrees; a cube repeats after 90)."""
    return float(sum(map(ord, f"{name}:{value}:{seed}")) * 7919 % 9000) / 100


def _die_angle(name: str) -> float:
    return float(sum(map(ord, name)) * 37 % 60 - 30)


def changed_points(before: TableSnapshot, after: TableSnapshot) -> list[tuple[float, float]]:
    """Mat points where something appeared, left or moved: where the hand must go."""
    def items(s: TableSnapshot) -> dict[str, tuple[Any, ...]]:
        out: dict[str, tuple[Any, ...]] = {}
        for c in s.cards:
            out["c:" + c.uid] = (c.zone, c.face_up, c.tapped, c.x_mm, c.y_mm)
        for d in s.dice:
            out["d:" + d.die] = (d.zone, d.value, d.x_mm, d.y_mm)
        for t in s.tokens:
            out["t:" + t.token] = (t.zone, t.x_mm, t.y_mm)
        return out

    a, b = items(before), items(after)
    points = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            for side in (b.get(key), a.get(key)):
                if side is not None and side[-1] is not None:
                    points.append((float(side[-2]), float(side[-1])))
                    break
    return points


@dataclass(frozen=True)
class Timing:
    fps: float = 30.0
    hand_in_s: float = 0.4
    hand_out_s: float = 0.4
    settle_s: float = 0.6
    start_s: float = 0.6


def hand_for(seed: int, k: int, realistic: bool) -> tuple[int, tuple[int, int, int] | None,
                                                         tuple[int, int, int] | None]:
    """Skin tone, sleeve and glove colour of the hand that makes change `k`.

    The easy simulator keeps its five tones and bare arms; the realistic one takes every tone
    of the Monk scale and puts a sleeve of any colour on most arms and a glove on some hands.
    """
    if not realistic:
        return (seed + k) % 5, None, None
    import colorsys

    h = (seed * 7919 + k * 104729) % 1_000_003
    tone = (seed * 3 + k) % len(MONK_SKIN_TONES_BGR)

    def colour(salt: int) -> tuple[int, int, int]:
        r, g, b = colorsys.hsv_to_rgb((h * salt % 997) / 997, 0.3 + (h % 7) / 10,
                                      0.15 + (h * salt % 13) / 15)
        return round(b * 255), round(g * 255), round(r * 255)

    sleeve = colour(3) if h % 10 < 7 else None
    glove = colour(5) if h % 10 == 9 else None
    return tone, sleeve, glove


class SnapshotPlayer:
    """Plays a sequence of visible snapshots (one per step) as frames with hands."""

    def __init__(
        self,
        renderer: Renderer,
        snapshots: Sequence[TableSnapshot],
        game_code: int,
        number_of: Callable[[str], int],
        timing: Timing | None = None,
        hands: bool = True,
        seed: int = 0,
        pile_zones: Sequence[str] = (),
    ) -> None:
        self.renderer = renderer
        self.snapshots = list(snapshots)
        self.game_code = game_code
        self.number_of = number_of
        self.timing = timing or Timing()
        self.hands = hands
        self.seed = seed
        self.pile_zones = tuple(pile_zones)
        self._scenes: dict[int, Scene] = {}

    def scene(self, index: int) -> Scene:
        if index not in self._scenes:
            self._scenes[index] = scene_from_snapshot(
                self.snapshots[index], self.game_code, self.number_of, self.pile_zones,
                stacks=getattr(self.renderer, "stacks", False), seed=self.seed)
        return self._scenes[index]

    def plan(self) -> Generator[tuple[int, list[Hand], bool, float], None, None]:
        """(snapshot index shown, hands, settled, change_done_s) for every frame in order."""
        t = self.timing
        dt = 1.0 / t.fps
        layout = self.renderer.layout
        n_start = round(t.start_s * t.fps)
        for _ in range(n_start):
            yield 0, [], True, 0.0
        clock = n_start * dt
        for k in range(1, len(self.snapshots)):
            points = changed_points(self.snapshots[k - 1], self.snapshots[k])
            if self.hands and points:
                tx = sum(p[0] for p in points) / len(points)
                ty = sum(p[1] for p in points) / len(points)
                player = 1 if ty > layout.height_mm / 2 else 2
                start = edge_point(tx, ty, layout.width_mm, layout.height_mm, player)
                n_in = max(1, round(t.hand_in_s * t.fps))
                n_out = max(1, round(t.hand_out_s * t.fps))
                realistic = getattr(self.renderer, "stacks", False)
                tone, sleeve, glove = hand_for(self.seed, k, realistic)
                vx_in = (tx - start[0]) / max(t.hand_in_s, 1e-3)
                vy_in = (ty - start[1]) / max(t.hand_in_s, 1e-3)
                for i in range(n_in):
                    share = (i + 1) / n_in
                    x, y = along(start, (tx, ty), share)
                    slow = 1.0 - share  # the hand slows down as it arrives
                    hand = Hand(x, y + 20 * math.sin(i), start[0], start[1], tone,
                                z_mm=30 + 90 * slow, vx_mm_s=vx_in * 2 * slow,
                                vy_mm_s=vy_in * 2 * slow, sleeve=sleeve, glove=glove)
                    yield k - 1 if i < n_in - 1 else k, [hand], False, 0.0
                for i in range(n_out):
                    share = (i + 1) / n_out
                    x, y = along((tx, ty), start, share)
                    yield k, [Hand(x, y, start[0], start[1], tone, z_mm=30 + 90 * share,
                                   vx_mm_s=-vx_in * 2 * share * (t.hand_in_s / t.hand_out_s),
                                   vy_mm_s=-vy_in * 2 * share * (t.hand_in_s / t.hand_out_s),
                                   sleeve=sleeve, glove=glove)], False, 0.0
                clock += (n_in + n_out) * dt
            done = clock
            for _ in range(max(1, round(t.settle_s * t.fps))):
                yield k, [], True, done
                clock += dt
        return


class ScriptFrameSource:
    """Frames of a table script, with hands; `read()` gives SimFrames until the script ends.

    `preset` names the simulated camera (`companion.sim.presets`; default: the realistic
    overhead 1080p webcam; `easy` is the old flat simulator). Passing `camera` or
    `degradation` instead builds the easy simulator with them, as before presets existed.
    Stickers (`symbology`): as `companion print stickers` prints them (the big-cell code) on
    every realistic preset, Micro QR on the easy simulator (its labelled legacy row).
    `bump_at_s` knocks the camera at that time of the script.
    """

    def __init__(
        self,
        script: Any,
        camera: CameraProfile | None = None,
        degradation: Degradation | None = None,
        fps: float = 30.0,
        settle_s: float = 0.6,
        hands: bool = True,
        seed: int = 0,
        realtime: bool = False,
        layout: Any = None,
        symbology: Symbology | None = None,
        sticker_mm: float | None = None,
        preset: str | None = None,
        pose: Pose | None = None,
        dice_style: str = "aruco",
        bump_at_s: float | None = None,
    ) -> None:
        from companion.layouts import load_layout

        self.script = script
        self.layout = layout or load_layout(script.game)
        self.game_code = layout_game_code(self.layout)
        self.snapshots = script_snapshots(script)
        self.number_of = card_numbers(script)
        renderer: Renderer
        if preset is None and (camera is not None or degradation is not None):
            renderer = TableRenderer(self.layout, camera, degradation or Degradation.webcam(),
                                     symbology or LEGACY_SYMBOLOGY, sticker_mm, seed)
        else:
            bump = None if bump_at_s is None else Bump(round(bump_at_s * fps))
            renderer = make_renderer(self.layout, preset or DEFAULT_PRESET, pose, seed,
                                     dice_style, bump, symbology, sticker_mm,
                                     twin_stickers=twin_stickers_printed(script.game))
        self.preset = preset or (DEFAULT_PRESET if camera is None and degradation is None
                                 else "easy")
        piles = [z.id for z in self.layout.zones.values() if z.kind == "pile"]
        self.player = SnapshotPlayer(renderer, self.snapshots, self.game_code, self.number_of,
                                     Timing(fps=fps, settle_s=settle_s), hands, seed, piles)
        self.realtime = realtime
        self._plan = self.player.plan()
        self._index = 0
        self._t0: float | None = None

    def read(self) -> SimFrame | None:
        pending: Any = getattr(self, "_pending", None)
        self._pending: Any = None
        try:
            shown, hands, settled, done = pending or next(self._plan)
        except StopIteration:
            return None
        fps = self.player.timing.fps
        time_s = self._index / fps
        if self.realtime:
            if self._t0 is None:
                self._t0 = time.monotonic()
            delay = self._t0 + time_s - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        rendered = self.player.renderer.render(self.player.scene(shown), hands, self._index)
        frame = SimFrame(rendered.image, self._index, time_s, step=shown - 1,
                         expected=self.snapshots[shown], settled=settled, change_done_s=done,
                         truth=rendered.truth)
        self._index += 1
        return frame

    def step_at(self, time_s: float) -> int | None:
        """The script step whose table the frame at camera time `time_s` shows (-1: the
        table before the first step), from the frame plan alone (nothing rendered)."""
        fps = self.player.timing.fps
        found = None
        for index, (shown, _hands, _settled, _done) in enumerate(self.player.plan()):
            if index / fps > time_s + 1e-6:
                break
            found = shown - 1
        return found

    def skip_to_step(self, step: int) -> None:
        """Skip, without rendering, the frames of steps before `step` (a resumed demo), and
        those of `step` while a hand is still over the table: a camera's first frame is its
        picture of the empty table (a hand in it would stay a "hand" to the camera, and no
        table would ever settle again)."""
        while True:
            try:
                shown, hands, settled, done = next(self._plan)
            except StopIteration:
                return
            if (shown - 1 >= step and not hands) or shown - 1 > step:
                self._pending = (shown, hands, settled, done)
                return
            self._index += 1

    def close(self) -> None:
        self._plan.close()


def script_snapshots(script: Any) -> list[TableSnapshot]:
    """The visible table at the start and after every step (the truth the camera should see)."""
    from companion.sim.table_state import snapshots

    return snapshots(script)


def card_numbers(script: Any) -> Callable[[str], int]:
    """Card id -> sticker number: the cardset's number, inline cards their own (9000+)."""

    def number_of(card_id: str) -> int:
        return int(script.card(card_id).number)

    return number_of


def script_cardset(script: Any) -> Any:
    """The game's cardset extended by the script's inline cards (sticker number -> card)."""
    from companion.cardsets import load_cardset

    base = load_cardset(script.game)
    extra = [c for c in script.cards if c.id not in base]
    return base.extended(extra) if extra else base
