"""One camera frame in, at most one settled TableSnapshot out.

frame -> (turned back if the picture is mirrored) -> checks of the picture itself (black,
frozen, dark) -> grayscale -> detector (card stickers every frame, with crop retries around the
cards the tracker knows; ArUco on a schedule, because it costs most) -> geometry (mat mm, zone,
tapped; the fit needs two corner markers and is held while fewer are visible) -> dice (top
faces only, of the dice the game uses) -> identities (sticker number -> card id via the
cardset) -> tracker, which also gets two cheap cues computed on a 1/8-size copy of the frame:
motion (pixels that changed since the last frame) and a hand mask (anything that differs from
the still table and reaches in from the picture's border or from beyond the mat: an arm,
whatever its skin, sleeve or glove; once the picture is still, not a thing a card lying at the
mat's edge explains).

A frame that cannot be read (black, frozen, no mat located) never reaches the tracker: the
table is held as it was and the stats say why in plain words (`PipelineStats.messages`).
With the motion gate on (`motion_gate`, live cameras), a frame of a settled table that shows no
change since the last full read is checked (black, frozen) but not read: it gives that read's
findings again, at a few per cent of the cost.

Each step is a stage with its own module and memory, so that it can be changed and tested
alone; one frame's facts travel between them in a `FrameContext` (`frame_context`):
picture check (`picture_check`), cues (`table_cues`), card reader (`card_reader`), mat fit
(`mat_fit`), dice reader (`dice_reading`: sticker or pip strategy), placer (`placer`), glare
watch (`glare`), card-shape watch (`card_shapes`: cards seen where no sticker read), tracker
(`tracker`) and the camera's health in words (`camera_health`). This
module wires them and keeps what they share: the forgetting when the camera moves or the
picture is turned.
"""
from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import cv2
import numpy as np

from companion.markers.dice_sets import DEFAULT_DICE_MODE, DiceMode
from companion.markers.payload import decode_aruco
from companion.snapshot import TableSnapshot
from companion.vision.camera_health import CHECK_EVERY_S, CameraHealth, MatFit
from companion.vision.card_reader import SEARCH_AT, STICKER_SCALES, ArucoSchedule, CardReader
from companion.vision.card_shapes import CardShapeWatch
from companion.vision.corner_search import CornerSearch
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import DICE_ARUCO, Detection, Detector
from companion.vision.dice_magnifier import DiceMagnifier
from companion.vision.dice_reading import (
    FUSED_MIN_FRAMES,
    NOISY_SIGMA,
    DiceReader,
    dice_reader,
)
from companion.vision.dice_retry import DiceRetry
from companion.vision.frame_check import FrameCheck, InputVerdict
from companion.vision.frame_context import FrameContext
from companion.vision.fusion import FrameFusion
from companion.vision.geometry import MIN_CORNERS, CameraProfile, GeometryError, MatGeometry
from companion.vision.glare import GlareWatch
from companion.vision.mat_fit import (
    MIRROR_EAGER_FRAMES,
    MIRROR_TRY_EVERY,
    MIRROR_TRY_EVERY_GIVEN,
    MatLocator,
)
from companion.vision.motion_gate import EVERY_FRAME, GateDecision, GateSettings, MotionGate
from companion.vision.picture_check import PictureCheck
from companion.vision.placer import CardNumbers, Placer, occlusion
from companion.vision.sources import Frame
from companion.vision.table_cues import (
    ABSORB_STILL_S,
    BACKGROUND_LEVEL,
    HAND_MIN_SHARE,
    MOTION_LEVEL,
    PILE_RISE_MM,
    SMALL,
    STILL_FRAMES_FOR_BACKGROUND,
    TableCues,
    lying_at_edge,
    reaching_in,
)
from companion.vision.tracker import FrameObservation, Sighting, Tracker

__all__ = [
    "ABSORB_STILL_S", "BACKGROUND_LEVEL", "CHECK_EVERY_S", "DICE_ARUCO", "FUSED_MIN_FRAMES",
    "HAND_MIN_SHARE", "MIRROR_EAGER_FRAMES", "MIRROR_TRY_EVERY", "MIRROR_TRY_EVERY_GIVEN",
    "MOTION_LEVEL", "NOISY_SIGMA", "PILE_RISE_MM", "SEARCH_AT", "SMALL",
    "STICKER_SCALES", "STILL_FRAMES_FOR_BACKGROUND", "ArucoSchedule", "CardNumbers", "MatFit",
    "Pipeline", "PipelineStats", "PipelineUpdate", "build_pipeline", "layout_game_code",
    "lying_at_edge", "reaching_in",
]


def layout_game_code(layout: Any) -> int:
    """The game code printed into the mat's corner marker ids."""
    for corner in layout.corners:
        meaning = decode_aruco(int(corner.marker_id))
        if meaning.game_code is not None:
            return meaning.game_code
    raise GeometryError("the mat layout has no corner markers of a known game")


@dataclass(frozen=True)
class PipelineStats:
    """What one frame did, for the page's camera health.

    `mat_fit`: "ok" (two or more corner markers in view), "held" (fewer: the last fit is kept),
    "none" (the mat was never located). `input`: the picture's own state (frame_check:
    "ok", "dark", "black", "frozen"). `mirrored`: the picture is being turned back (a mirror
    clip; given with --mirror or found from corner markers that read only when flipped).
    `orientation`: "upright" or "upside-down" (player 2's side at the bottom of the picture;
    read as well, said for the person setting up). `messages`: plain sentences, most important
    first, for the page; empty when all is well (the camera check's advice, as `companion
    calibrate` words it, joins them while it finds something wrong: `camera_ok`; the whole
    report is `Pipeline.camera_check`). `recording`: whether this frame could change the table
    (False for black, frozen or mat-less frames).
    """

    fps: float
    frame_ms: float
    markers_seen: int
    cards_seen: int
    calibration_ok: bool
    hand: bool
    motion: float
    aruco_run: bool
    mat_fit: MatFit = "none"
    corners_seen: int = 0
    input: str = "ok"
    mirrored: bool = False
    orientation: str = "upright"
    recording: bool = True
    read: bool = True  # False: the motion gate skipped this frame (nothing moved since the
    # last full read; the counts are that read's)
    gate: str = "off"  # why the frame was read or skipped (`motion_gate.Reason`)
    messages: tuple[str, ...] = ()
    camera_ok: bool | None = None  # the latest camera check found nothing wrong (None: none yet)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, eq=False)
class PipelineUpdate:
    """`image` is the frame as read: turned back when the picture is mirrored, so overlays of
    `detections` belong on it rather than on the camera's raw frame. None when the motion gate
    skipped the frame (`stats.read` False): it may never have been decoded."""

    snapshot: TableSnapshot | None
    stats: PipelineStats
    detections: tuple[Detection, ...] = ()
    sightings: tuple[Sighting, ...] = ()
    image: np.ndarray | None = None


class Pipeline:
    """Runs the stages on every frame of one game's mat: picture check, cues, card reader, mat
    fit, dice reader, placer, glare and card-shape watches, tracker (`process` lists them in
    order). The stages keep their own memory; what one frame gave travels in a
    `FrameContext`."""

    def __init__(
        self,
        layout: Any,
        detector: Detector,
        tracker: Tracker,
        geometry: MatGeometry | None = None,
        cards: CardNumbers | None = None,
        game_code: int = 0,
        aruco: ArucoReader | None = None,
        schedule: ArucoSchedule | None = None,
        dice: Collection[str] | None = None,
        mirror: bool | None = None,
        camera: CameraProfile | None = None,
        squares: bool = True,
        dice_mode: DiceMode = "stickers",
        gate: GateSettings = EVERY_FRAME,
    ) -> None:
        """`dice`: the die names the game uses (None: any of ours); `mirror`: True/False to
        say whether the picture is mirrored, None to find out from the corner markers;
        `gate`: the motion gate's settings (the default reads every frame)."""
        self.layout = layout
        self.detector = detector
        self.tracker = tracker
        self.cards = cards
        self.game_code = game_code or layout_game_code(layout)
        self.aruco = aruco
        self.camera = camera
        self.dice_mode = dice_mode
        self.picture = PictureCheck(FrameCheck())
        self.cues = TableCues(layout, tracker.settings.motion_threshold)
        self.mat = MatLocator(layout, aruco, geometry, mirror)
        self.corner_search = CornerSearch(layout)  # corners at the picture's soft sides
        self.placer = Placer(layout, self.game_code, cards)
        self.dice: DiceReader
        self.dice, self.top_faces = dice_reader(layout, aruco, dice, dice_mode, camera)
        self.reader = CardReader(layout, detector, aruco, schedule or ArucoSchedule(),
                                 self.game_code, squares, self.cues, self.placer, self.dice,
                                 FrameFusion())
        self.glare = GlareWatch()  # the lamp's reflection: cards seen but unreadable
        self.shapes = CardShapeWatch()  # cards seen where no sticker read (too far, covered)
        self.health = CameraHealth(layout, camera)
        self.gate = MotionGate(gate)
        self._last_read: FrameContext | None = None  # what the last full read gave
        self._verdict = InputVerdict("ok", True)  # the picture check's latest verdict
        self._frame_no = 0
        self._skipped = 0  # frames the motion gate skipped: the readers' schedules count
        # only the others (a first frame after a still spell reads as the next one would)
        self._unlooked = 0  # frames of a resting table the gate did not look at since a look
        self._fps = 0.0
        self._turned = False

    # ----- the stages' state, as other modules and tests reach it ---------------------------

    @property
    def geometry(self) -> MatGeometry | None:
        return self.mat.geometry

    @geometry.setter
    def geometry(self, value: MatGeometry | None) -> None:
        self.mat.geometry = value

    @property
    def mirrored(self) -> bool:
        return self.mat.mirrored

    @mirrored.setter
    def mirrored(self, value: bool) -> None:
        self.mat.mirrored = value

    @property
    def mirror_mode(self) -> bool | None:
        return self.mat.mirror_mode

    @property
    def schedule(self) -> ArucoSchedule:
        return self.reader.schedule

    @schedule.setter
    def schedule(self, value: ArucoSchedule) -> None:
        self.reader.schedule = value

    @property
    def squares(self) -> bool:
        return self.reader.squares

    @property
    def fusion(self) -> FrameFusion:
        return self.reader.fusion

    @fusion.setter
    def fusion(self, value: FrameFusion) -> None:
        self.reader.fusion = value

    @property
    def frame_check(self) -> FrameCheck:
        return self.picture.frame_check

    @property
    def twin_stickers(self) -> bool:
        return self.placer.twin_stickers

    @twin_stickers.setter
    def twin_stickers(self, value: bool) -> None:
        self.placer.twin_stickers = value

    @property
    def dice_retry(self) -> DiceRetry | None:
        return self.dice.dice_retry

    @property
    def magnifier(self) -> DiceMagnifier | None:
        return self.dice.magnifier

    @property
    def camera_check(self) -> dict[str, Any] | None:
        """The latest camera check (calibrate's report), None before the first."""
        return self.health.camera_check

    @property
    def _still_frames(self) -> int:
        return self.cues.still_frames

    @_still_frames.setter
    def _still_frames(self, value: int) -> None:
        self.cues.still_frames = value

    def _still_corners(self, dets: Sequence[Detection], fused: np.ndarray | None
                       ) -> list[Detection]:
        return self.mat.still_corners(dets, fused, self.cues.still_frames)

    def _sticker_sized(self, quads: list[np.ndarray]) -> list[np.ndarray]:
        return self.reader.sticker_sized(quads, self.mat.geometry)

    # ----- the frame ------------------------------------------------------------------------

    def process(self, frame: Frame) -> PipelineUpdate:
        started = time.perf_counter()
        update = self._process(frame, started)
        if self._turned:  # the picture was found mirrored: read this frame again, turned back
            self._turned = False
            update = self._process(frame, started)
        return update

    def _process(self, frame: Frame, started: float) -> PipelineUpdate:
        last = self._last_read
        if last is not None and not self.gate.looks_at(frame.time_s):  # a resting table
            self._skipped += 1
            self._unlooked += 1
            return self._update(self._held(frame, started, last.small, self._verdict),
                                GateDecision(False, "resting"))
        frames, self._unlooked = 1 + self._unlooked, 0  # this look, and those not looked at
        glanced = self.picture.glance(frame, self.mat.mirrored, frames)  # a JPEG's cue copy
        decision: GateDecision | None = None
        if glanced is not None and glanced[1].usable:
            decision = self.gate.decide(glanced[0], frame.time_s)
            if not decision.read and self._last_read is not None:  # never decoded whole
                self._skipped += 1
                return self._update(self._held(frame, started, *glanced), decision)
        ctx = self.picture.look(frame, self.mat.mirrored, started, glanced, frames)
        if not ctx.verdict.usable:
            return self._update(ctx)
        if decision is None:
            decision = self.gate.decide(ctx.small, ctx.time_s)
            if not decision.read and self._last_read is not None:
                self._skipped += 1
                return self._update(self._held(frame, started, ctx.small, ctx.verdict),
                                    decision)
        if decision.thorough:
            self.reader.look_everywhere()
        ctx = self._look(ctx)
        ctx = self._read_markers(ctx)
        ctx = self._fit_mat(ctx)
        if ctx.geometry is None:
            self.gate.was_read(ctx.small, ctx.time_s, settled=False)
            return self._update(ctx, decision)
        ctx = self._read_dice(ctx)
        ctx = self._place(ctx)
        ctx = self._track(ctx, watch=decision.reason != "schedule" or decision.thorough)
        self._check_camera(ctx)
        self.gate.was_read(ctx.small, ctx.time_s, self._settled(ctx),
                           eventful=ctx.hand or ctx.snapshot is not None)
        self._last_read = ctx
        return self._update(ctx, decision)

    def _held(self, frame: Frame, started: float, small: np.ndarray, verdict: InputVerdict
              ) -> FrameContext:
        """A frame the motion gate skipped: its checks, the last full read's findings and
        picture (this frame's may never be decoded; the update gives no picture)."""
        last = self._last_read
        assert last is not None
        return FrameContext(frame, started, last.image, small, verdict,
                            detections=last.detections, sightings=last.sightings,
                            geometry=self.mat.geometry, placed=last.placed)

    def _settled(self, ctx: FrameContext) -> bool:
        """The table as read is settled: no motion, no hand, the tracker's table confirmed
        (the motion gate may skip frames once this has held for a while)."""
        return (ctx.geometry is not None and not ctx.hand
                and ctx.motion < self.tracker.settings.motion_threshold
                and self.tracker.settled(ctx.time_s))

    def _look(self, ctx: FrameContext) -> FrameContext:
        """Cues: the grey picture, motion and the hand mask."""
        image = ctx.image
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        motion, hand = self.cues.look(ctx.small, ctx.time_s, self.mat.geometry)
        return replace(ctx, gray=gray, motion=motion, hand_mask=hand)

    def _read_markers(self, ctx: FrameContext) -> FrameContext:
        """Card reader: every marker read (ArUco on its schedule)."""
        assert ctx.gray is not None
        dets, ran = self.reader.read(ctx.gray, ctx.time_s, self._frame_no - self._skipped,
                                     self.mat.geometry)
        return replace(ctx, detections=tuple(dets), aruco_ran=ran)

    def _fit_mat(self, ctx: FrameContext) -> FrameContext:
        """Mat fit: fit or follow the mat, from still frames together while it is missing,
        and turn the picture when its corners read only mirrored."""
        assert ctx.gray is not None and ctx.hand_mask is not None
        dets = ctx.detections
        self.mat.image_size = (ctx.gray.shape[1], ctx.gray.shape[0])
        seen = self._calibrate(dets)
        if self.corner_search.due(self.mat.geometry, seen):
            assert self.mat.geometry is not None
            found = self.corner_search.search(ctx.gray, self.mat.geometry, dets)
            if found:
                dets = (*dets, *found)
                seen = self._calibrate(dets)
        self.mat.corners_seen = seen
        fused = (self.fusion.fused() if self.mat.geometry is None and self.cues.still_frames > 0
                 else None)
        if self.mat.geometry is None:
            self.mat.corners_seen = max(self.mat.corners_seen,
                                        self._calibrate(self._still_corners(dets, fused)))
        if self.mat.check_mirror(ctx.gray if fused is None else fused, self.mat.corners_seen):
            self._restart(keep_still=self.cues.still_frames > 0)
            self._turned = True
        hand = ctx.hand_mask
        hand_flag = float(np.count_nonzero(hand)) / max(hand.size, 1) >= HAND_MIN_SHARE
        return replace(ctx, detections=tuple(dets), geometry=self.mat.geometry, hand=hand_flag)

    def _read_dice(self, ctx: FrameContext) -> FrameContext:
        """Dice reader: the dice's top faces."""
        assert ctx.geometry is not None and ctx.gray is not None
        placed, strangers = self.dice.read(ctx.detections, ctx.geometry, ctx.image, ctx.gray,
                                           ctx.time_s, ctx.aruco_ran, self.cues.still_frames,
                                           self.reader.looked)
        return replace(ctx, placed=tuple(placed), unknown=tuple(strangers))

    def _place(self, ctx: FrameContext) -> FrameContext:
        """Placer: cards, backs and tokens in mat millimetres; their places' pictures."""
        assert ctx.geometry is not None and ctx.gray is not None and ctx.hand_mask is not None
        placed, unknown = self.placer.place(ctx.detections, ctx.geometry, self.tracker)
        everything = (*ctx.placed, *placed)
        retried = self.dice.retried
        occluded = occlusion(ctx.hand_mask, ctx.geometry)
        self.placer.photograph(everything, ctx.gray, occluded,
                               lambda source: ctx.aruco_ran or id(source) in retried)
        return replace(ctx, placed=everything, unknown=(*ctx.unknown, *unknown),
                       occluded=occluded, sightings=tuple(s for s, _ in everything))

    def _track(self, ctx: FrameContext, watch: bool = True) -> FrameContext:
        """Glare watch and tracker: the frame's observation, and the settled table if any.
        `watch`: the glare and card-shape watches may look (not on a still table's plain
        scheduled re-read: the motion gate saw no change, so their last looks stand, and the
        two cost 40-80 ms a look at 1080p; the thorough re-reads every 10 s still look)."""
        assert ctx.geometry is not None and ctx.gray is not None
        unchanged = self.placer.unchanged(ctx.gray, {s.key for s in ctx.sightings})
        unreadable = None
        still = ctx.motion < self.tracker.settings.motion_threshold and not ctx.hand
        if watch and self.glare.due(ctx.time_s, still):
            glare = self.glare.look(ctx.time_s, ctx.image, ctx.geometry, self.layout,
                                    ctx.detections)
            unread = self.shapes.look(ctx.image, ctx.geometry, self.layout,
                                      self.tracker.current().cards, glare)
            unreadable = (*glare, *unread)
        obs = FrameObservation(ctx.time_s, list(ctx.sightings), ctx.motion, ctx.hand,
                               ctx.occluded, list(ctx.unknown),
                               unchanged, unreadable)
        snapshot = self.tracker.update(obs)
        self.placer.keep_only(self.tracker.present_keys(), self.tracker.tracked_keys())
        return replace(ctx, snapshot=snapshot)

    def _check_camera(self, ctx: FrameContext) -> None:
        """The camera check, now and then, while no hand is in view."""
        if self.health.due(ctx.time_s, ctx.hand):
            placer = self.placer
            self.health.check_camera(ctx.image, ctx.detections, ctx.time_s,
                                     bool(placer.big_cell_keys or not placer.card_keys),
                                     self.mat.mirrored)

    # ----- what the stages share ------------------------------------------------------------

    def _calibrate(self, dets: Sequence[Detection]) -> int:
        """Fit or follow the mat; returns how many of its corner markers are in view."""
        seen, moved = self.mat.calibrate(dets)
        if moved:
            self._camera_moved()
        return seen

    def _camera_moved(self) -> None:
        """The camera was knocked: every pixel-tied memory (the motion and hand cues'
        background, known sticker squares and patches, fused frames) shows the table where it
        no longer is in the picture. Without this the whole shifted picture stays a "change at
        the edge", read as a hand for good, and no snapshot is emitted again. The tracker is in
        mat millimetres and keeps the table."""
        self.cues.forget()
        self.placer.forget()
        self.mat.corners_still = {}
        self.reader.forget()
        self.fusion.reset()
        self.dice.forget()
        self.glare.forget()
        self.shapes.forget()
        self.gate.forget()
        self._last_read = None

    def _restart(self, keep_still: bool = False) -> None:
        """Forget everything tied to the picture's pixels (after it was turned). `keep_still`:
        the still frames seen so far show this same view, so they stay in the mean, turned."""
        still, self.fusion = self.fusion, FrameFusion(self.fusion.max_frames)
        self.mat.restart()
        self._camera_moved()
        self.dice.restart()
        if keep_still:
            still.turned()
            self.fusion = still

    def _update(self, ctx: FrameContext, decision: GateDecision | None = None
                ) -> PipelineUpdate:
        self._frame_no += 1
        self._verdict = ctx.verdict
        elapsed = time.perf_counter() - ctx.started
        read = decision is None or decision.read
        if read:  # the reading speed: a skipped frame says nothing of it
            self._fps = (1 / elapsed if self._fps == 0
                         else 0.9 * self._fps + 0.1 / max(elapsed, 1e-6))
        geometry = self.mat.geometry
        corners_seen = self.mat.corners_seen
        verdict = ctx.verdict
        recording = verdict.usable and geometry is not None
        mat_fit: MatFit = "none" if geometry is None else (
            "ok" if corners_seen >= MIN_CORNERS else "held")
        orientation = geometry.orientation() if geometry is not None else "upright"
        camera_check = self.health.camera_check
        stats = PipelineStats(
            fps=round(self._fps, 1), frame_ms=round(elapsed * 1000, 2),
            markers_seen=len(ctx.detections),
            cards_seen=sum(1 for s in ctx.sightings if s.kind == "card"),
            calibration_ok=geometry is not None, hand=ctx.hand, motion=round(ctx.motion, 4),
            aruco_run=ctx.aruco_ran, mat_fit=mat_fit, corners_seen=corners_seen,
            input=verdict.state, mirrored=self.mat.mirrored, orientation=orientation,
            recording=recording, read=read,
            gate=decision.reason if decision is not None else "off",
            messages=self.health.messages(verdict, mat_fit, corners_seen, orientation,
                                          self.mat.mirrored, self.mat.mirror_mode),
            camera_ok=None if camera_check is None else bool(camera_check["ok"]),
        )
        return PipelineUpdate(ctx.snapshot, stats, ctx.detections, ctx.sightings,
                              ctx.image if read else None)


def build_pipeline(layout: Any, game: str, cards: CardNumbers | None, backend: str = "zxing",
                   tracker: Tracker | None = None, mirror: bool | None = None,
                   dice: Collection[str] | None = None,
                   dice_mode: DiceMode = DEFAULT_DICE_MODE,
                   gate: GateSettings = EVERY_FRAME) -> Pipeline:
    """The default pipeline for a game: zxing stickers, scheduled ArUco, default tracker, only
    the dice the game uses (`dice` overrides, e.g. with counter dice) read from their face
    stickers or their pips (`dice_mode`), the mirror found from the corner markers unless
    `mirror` says; every frame read unless `gate` turns the motion gate on (live cameras)."""
    from companion.games import game_dice
    from companion.vision.tracker import TrackerSettings

    settings = TrackerSettings(card_w_mm=layout.card_w_mm, card_h_mm=layout.card_h_mm,
                               sticker_mm=layout.sticker_mm)
    return Pipeline(layout, Detector(backend, aruco=False), tracker or Tracker(game, settings),
                    cards=cards, aruco=ArucoReader(DICE_ARUCO),
                    dice=game_dice(game) if dice is None else dice, mirror=mirror,
                    dice_mode=dice_mode, gate=gate)
