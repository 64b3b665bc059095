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
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any, Literal, Protocol

import cv2
import numpy as np

from companion.markers.dice_sets import DEFAULT_DICE_MODE, DiceMode
from companion.markers.payload import (
    BackPayload,
    FrontPayload,
    decode_aruco,
)
from companion.markers.value_faces import takes_value_stickers
from companion.snapshot import TableSnapshot, back_uid, card_uid
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.decoders.square_memory import SquareMemory
from companion.vision.detect import (
    DICE_ARUCO,
    Detection,
    Detector,
    _interpret_aruco,
    big_cell_detections,
    centre_in,
    quad_side,
)
from companion.vision.dice import TopFaceFilter
from companion.vision.dice_magnifier import DiceMagnifier
from companion.vision.dice_retry import DiceRetry, FaceTemplates
from companion.vision.fastops import channel_max, shrink
from companion.vision.finders import FinderCandidate, finder_candidates
from companion.vision.frame_check import FrameCheck, InputVerdict
from companion.vision.fusion import FrameFusion
from companion.vision.geometry import MIN_CORNERS, CameraProfile, GeometryError, MatGeometry
from companion.vision.glare import GlareWatch
from companion.vision.image_quality import noise_sigma
from companion.vision.pips import DIE_MM, PipDiceNamer, PipDiceReader, PipReading
from companion.vision.places import (
    PlaceLook,
    PlacePicture,
    look_at,
    same_place,
    small_thing_on,
)
from companion.vision.sources import Frame
from companion.vision.top_from_side import tops_from_sides
from companion.vision.tracker import FrameObservation, Sighting, Tracker
from companion.vision.twin_stickers import (
    card_centre_below,
    shows_twin_pair,
    sticker_below_mm,
)
from companion.vision.value_dice import ValueDice, ValueFaceReader, value_face_of
from companion.vision.zone_reading import read_unread_zones, table_payloads

SMALL = 8  # cue images are 1/SMALL of the frame
MOTION_LEVEL = 22  # grey levels a small pixel must change by to count as motion
BACKGROUND_LEVEL = 30
STILL_FRAMES_FOR_BACKGROUND = 4
ABSORB_STILL_S = 2.0  # a new thing at the picture's edge that stays still this long is table
HAND_MIN_SHARE = 0.002
# How far beyond the mat's outline a still thing may show and still be a card lying on the mat
# rather than an arm: a card's centre lies on the mat (every zone does), so its footprint
# reaches at most half its diagonal beyond the edge (54 mm for 63 x 88 mm), and a pile's top is
# seen farther out by its height times the slant of the line of sight (this much: a 20 mm pile
# seen 45 degrees off vertical). An arm comes from the picture's border or from farther away.
PILE_RISE_MM = 20.0
MIRROR_TRY_EVERY = 3  # frames without a mat between looks at the mirrored picture ...
MIRROR_EAGER_FRAMES = 90  # ... after looking at every one of the first frames without it
MIRROR_TRY_EVERY_GIVEN = 30  # ... and when --mirror or --no-mirror was given (once a second)
FUSED_MIN_FRAMES = 4  # still frames averaged before the fused picture is read
# grey levels of gain noise (Immerkaer's estimate, the picture's middle 256 px) from which die
# faces are read in the still frames' mean over the whole mat: a dim 720p room straight down
# read no die at all in single frames (3.3; 0.6-1.8 in the other 7 scenes, 0.6-1.4 at 1080p)
NOISY_SIGMA = 2.5
SEARCH_AT = 6  # still frames after which card zones without a sticker read are searched
STICKER_SCALES = (0.75, 1.6)  # a square's side over a symbol's side at its place, read as
# a card sticker: the symbol (measured 0.96-1.05 on the timed sequence, lens and piles
# included) up to its sticker outline with the label strip (1.32-1.41)
CHECK_EVERY_S = 5.0  # the camera check (calibrate's advice) runs this often
def layout_game_code(layout: Any) -> int:
    """The game code printed into the mat's corner marker ids."""
    for corner in layout.corners:
        meaning = decode_aruco(int(corner.marker_id))
        if meaning.game_code is not None:
            return meaning.game_code
    raise GeometryError("the mat layout has no corner markers of a known game")


class CardNumbers(Protocol):
    def by_number(self, number: int) -> Any: ...


MatFit = Literal["ok", "held", "none"]


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
    messages: tuple[str, ...] = ()
    camera_ok: bool | None = None  # the latest camera check found nothing wrong (None: none yet)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, eq=False)
class PipelineUpdate:
    """`image` is the frame as read: turned back when the picture is mirrored, so overlays of
    `detections` belong on it rather than on the camera's raw frame."""

    snapshot: TableSnapshot | None
    stats: PipelineStats
    detections: tuple[Detection, ...] = ()
    sightings: tuple[Sighting, ...] = ()
    image: np.ndarray | None = None


@dataclass(frozen=True)
class ArucoSchedule:
    """When ArUco (dice, tokens, corners) runs, since it costs most of a frame's budget.

    A full-frame pass at the start and every `full_every` frames; in between only the regions
    where something moved since the last pass: every `settling_every` frames while the table
    is settling, every `moving_every` frames while hands move. Markers outside those regions
    keep their last reading, since nothing there has changed. (Every frame while settling
    cost a third of the timed sequence's time; every second frame gave the same recall and
    settled tables, and the first right snapshot no later: `companion bench vision`.)
    """

    full_every: int = 45
    moving_every: int = 4
    settling_s: float = 0.4
    settling_every: int = 2  # frames between passes while settling (the first still frame
    # always has one): readings stand between passes, the tracker sees them every frame
    margin_px: int = 48
    squares_every: int = 3  # frames between searches for sticker-like squares ...
    squares_still_every: int = 15  # ... and on a still table whose known stickers all read
    squares_after_motion_s: float = 1.5
    squares_bigcell_every: int = 90  # ... and when every card read is a big-cell sticker
    microqr_every: int = 15  # frames between looks for Micro QR stickers (zxing, 5 ms a 1080p
    # frame) on a table whose cards all read as big-cell; besides, on every full pass


def _apart(centre: np.ndarray, corners: np.ndarray) -> float | None:
    """How far (px) a place's `centre` lies from the marker with `corners`, when it is that
    marker's own place (nearer than its side); None when it is another sticker's (a twin
    card's other sticker lies two sticker sides away)."""
    distance = float(np.linalg.norm(centre - corners.mean(axis=0)))
    return distance if distance < float(np.linalg.norm(corners[1] - corners[0])) else None


def _nearest_place(places: Sequence[tuple[np.ndarray, PlaceLook | None]], corners: np.ndarray
                   ) -> PlaceLook | None:
    """The picture of the place (of `places`) where the marker with `corners` lies, if any."""
    near = [(d, p) for c, p in places if (d := _apart(c, corners)) is not None]
    return min(near, key=lambda dp: dp[0])[1] if near else None


def _contains(outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    return (outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])


def reaching_in(mask: np.ndarray, inside: np.ndarray | None = None) -> np.ndarray:
    """Only blobs that come in from outside: a hand over the table always has an arm reaching
    in from the picture's border or from beyond the mat (`inside`: the mat, grown a little),
    whatever its colour (skin of any tone, a sleeve, a glove), while a card laid down, a die
    thrown or card art lies within the mat."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8),
                                                               connectivity=8)
    if count <= 1:
        return np.zeros(mask.shape, bool)
    edge = _at_border(stats, mask.shape)
    if inside is not None and inside.shape == mask.shape:
        outside_counts = np.bincount(labels[~inside], minlength=count)
        edge |= outside_counts > 0
    edge[0] = False
    return np.asarray(edge[labels])


def _at_border(stats: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Per connected component (`stats` of cv2.connectedComponentsWithStats): whether it
    touches the picture's border."""
    h, w = shape[:2]
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right = x + stats[:, cv2.CC_STAT_WIDTH]
    bottom = y + stats[:, cv2.CC_STAT_HEIGHT]
    return np.asarray((x <= 1) | (y <= 1) | (right >= w - 1) | (bottom >= h - 1))


def lying_at_edge(hand: np.ndarray, beyond_mm: np.ndarray, reach_mm: float) -> np.ndarray:
    """The blobs of a still picture's hand mask that a card lying at the mat's edge explains:
    apart from the picture's border and nowhere farther beyond the mat than `reach_mm`
    (`beyond_mm`: each pixel's distance beyond the mat's outline, 0 on the mat). A card on
    the far row shows past the outline (laid a little over it, a pile's top seen at a slant),
    so "reaches outside the mat" alone makes it an arm until the picture has been still for
    `ABSORB_STILL_S`, longer than players pause. An arm reaching in still is one: it moves
    (this is asked only of a still picture) or it comes from the border or from farther out."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(hand.astype(np.uint8),
                                                               connectivity=8)
    if count <= 1 or beyond_mm.shape != hand.shape:
        return np.zeros(hand.shape, bool)
    too_far = np.bincount(labels[beyond_mm > reach_mm], minlength=count) > 0
    card = ~_at_border(stats, hand.shape) & ~too_far
    card[0] = False
    return np.asarray(card[labels])


class Pipeline:
    """Runs detector, geometry and tracker on every frame of one game's mat."""

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
    ) -> None:
        """`dice`: the die names the game uses (None: any of ours); `mirror`: True/False to
        say whether the picture is mirrored, None to find out from the corner markers."""
        self.layout = layout
        self.detector = detector
        self.tracker = tracker
        self.geometry = geometry
        self.cards = cards
        self.game_code = game_code or layout_game_code(layout)
        self._on_table = table_payloads(self.game_code)  # this game's fronts, any back
        self.aruco = aruco
        self.schedule = schedule or ArucoSchedule()
        self._prev_small: np.ndarray | None = None
        self._background: np.ndarray | None = None
        self._still_frames = 0
        self._still_since: float | None = None
        self._last_motion_s = -math.inf
        self._last_any_motion_s = -math.inf  # any changed pixel at all, for ArUco regions
        self._known_quads: dict[str, np.ndarray] = {}
        self._patches: dict[str, PlacePicture] = {}
        self._card_keys: set[str] = set()
        self._big_cell_keys: set[str] = set()  # cards read from big-cell symbols (ArUco pass)
        self._aruco_dets: list[Detection] = []
        self._search_due = True  # card zones without a sticker read are to be searched
        # big-cell reads' places: per payload, each place's centre (px) and picture (a twin
        # card's two stickers are two places of one payload)
        self._read_patches: dict[str, list[tuple[np.ndarray, PlaceLook | None]]] = {}
        self._dirty = np.zeros((1, 1), bool)  # where things moved since ArUco last looked
        self._last_full = -(10**9)
        self._frame_no = 0
        self._fps = 0.0
        self._last_wall: float | None = None
        self.mirror_mode = mirror
        self.mirrored = bool(mirror)
        self.frame_check = FrameCheck()
        self._mat_mask_key: tuple[float, ...] | None = None
        self._side_key: tuple[float, ...] | None = None
        self.camera_check: dict[str, Any] | None = None  # the latest camera check (calibrate)
        self._check_advice: tuple[str, ...] = ()
        self._last_check_s = -math.inf
        self._side_range: tuple[float, float] | None = None
        self._mat_mask_cache: np.ndarray | None = None
        self._beyond_key: tuple[float, ...] | None = None
        self._beyond_cache: np.ndarray | None = None
        self.fusion = FrameFusion()
        self._square_memory = SquareMemory()  # big-cell readings of unchanged squares
        self._retried: set[int] = set()  # ids of die faces read again in this frame's crops
        self._placed: dict[int, tuple[Detection, np.ndarray, Sighting | None]] = {}
        self.twin_stickers = False  # the cards carry two stickers each: learnt when seen
        self.squares = squares
        self.dice_mode = dice_mode
        self.pips = PipDiceReader(camera=camera) if dice_mode == "pips" else None
        value_names = ([n for n in (dice or ()) if takes_value_stickers(n)]
                       if dice_mode == "values" else [])
        # dice named by their ArUco stickers: all the game's, or (value stickers) its counters
        self.top_faces = TopFaceFilter(None if dice is None else sorted(set(dice) - set(
            value_names)), camera=camera)
        # the white and red dice's value stickers (counter dice keep ArUco die stickers)
        self.value_reader = (ValueFaceReader(aruco.options) if aruco is not None
                             and value_names else None)
        self.value_dice = (ValueDice(value_names, self._zone_id, float(layout.height_mm),
                                     camera) if self.value_reader is not None else None)
        self._value_found: list[Detection] = []  # value stickers read by the last ArUco pass
        self._value_squares: list[np.ndarray] = []  # ... and the squares it did not decode
        # the ArUco-stickered dice (all, or the counters beside value stickers): the only faces
        # the retry and the magnifier match against templates
        allowed = self.top_faces.allowed
        self.dice_retry = (DiceRetry(aruco, dice=sorted(allowed) if allowed is not None else None,
                                     values=self.value_reader)
                           if aruco is not None and dice_mode != "pips" else None)
        self.magnifier = (DiceMagnifier(aruco.options, allowed, templates=FaceTemplates(
                              sorted(allowed)) if allowed else None)
                          if aruco is not None and dice_mode != "pips" else None)
        # die faces read, by id: (the reading, kept so its id is not reused; whether its cells
        # agree with the face it was decoded as); pruned to the readings still in use
        self._agrees: dict[int, tuple[Detection, bool]] = {}
        self._retry_squares: tuple[list[np.ndarray], list[np.ndarray],
                                   list[tuple[int, int, int, int]] | None] | None = None
        self.namer = (PipDiceNamer(list(dice or []), self._zone_id,
                                   float(layout.height_mm)) if dice_mode == "pips" else None)
        self._pip_readings: list[tuple[PipReading, tuple[float, float]]] = []
        self._pip_sightings: list[tuple[Sighting, None]] = []
        self.camera = camera
        self._looked: list[tuple[int, int, int, int]] | None = None
        self._noisy = False  # the picture's gain noise drowns die faces the mean still shows
        self._mirror_reader: ArucoReader | None = None
        # the mat's corner markers read since the picture was last still, while no mat is found
        self._corners_still: dict[int, Detection | None] = {}  # None: read in two places
        self._no_mat_frames = 0
        self._corners_seen = 0
        self._turned = False
        self.glare = GlareWatch()  # the lamp's reflection: cards seen but unreadable

    # ----- cues -----------------------------------------------------------------------------

    @staticmethod
    def _small(image: np.ndarray) -> np.ndarray:
        small = shrink(image, SMALL)
        if small.ndim == 2:
            small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
        return np.asarray(small)

    def _cues(self, small: np.ndarray, time_s: float) -> tuple[float, np.ndarray]:
        motion = 0.0
        if self._dirty.shape != small.shape[:2]:
            self._dirty = np.zeros((small.shape[0], small.shape[1]), bool)
        if self._prev_small is not None and self._prev_small.shape == small.shape:
            # colour, not grey: a dark hand over a green mat has nearly the mat's brightness
            moved = channel_max(cv2.absdiff(small, self._prev_small)) > MOTION_LEVEL
            motion = float(np.count_nonzero(moved)) / moved.size
            if motion > 0:
                self._dirty |= cv2.dilate(moved.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
                self._last_any_motion_s = time_s
        self._prev_small = small
        if self._background is None:
            self._background = small.copy()
        changed = channel_max(cv2.absdiff(small, self._background)) > BACKGROUND_LEVEL
        hand = reaching_in(changed, self._mat_mask(small.shape))
        if motion < self.tracker.settings.motion_threshold:
            self._still_frames += 1
            if self._still_since is None:
                self._still_since = time_s
        else:
            self._still_frames = 0
            self._still_since = None
            self._last_motion_s = time_s
        long_still = self._still_since is not None and time_s - self._still_since >= ABSORB_STILL_S
        if self._still_frames >= STILL_FRAMES_FOR_BACKGROUND and not long_still:
            beyond = self._beyond_mm(small.shape)
            if beyond is not None:  # a card come to rest at the mat's edge is table, not arm
                hand &= ~lying_at_edge(hand, beyond, self._card_reach_mm())
        hand_share = float(np.count_nonzero(hand)) / hand.size
        if self._still_frames >= STILL_FRAMES_FOR_BACKGROUND:
            if long_still:
                self._background = small  # a hand still this long is part of the table
                hand = np.zeros_like(hand)
            elif hand_share < HAND_MIN_SHARE:
                # the table as it is now, but never a sliver of arm at the picture's edge:
                # absorbed, it would come back as a hand-shaped change once the arm is gone
                keep = cv2.dilate(hand.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
                background = small.copy()
                background[keep] = self._background[keep]
                self._background = background
                hand = np.zeros_like(hand)
        return motion, hand

    def _mat_mask(self, shape: tuple[int, ...]) -> np.ndarray | None:
        """The mat in the cue image, grown a little (cards may hang over its edge)."""
        if self.geometry is None:
            return None
        key = (*np.round(self.geometry.homography.ravel(), 9), *shape[:2])
        if self._mat_mask_key != key:
            w, h = float(self.layout.width_mm), float(self.layout.height_mm)
            inset = -6.0
            corners = np.array([[inset, inset], [w - inset, inset], [w - inset, h - inset],
                                [inset, h - inset]], dtype=np.float64)
            pts = self.geometry.to_image(corners) / SMALL
            mask = np.zeros(shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, np.round(pts).astype(np.int32), 1)
            self._mat_mask_cache = mask.astype(bool)
            self._mat_mask_key = key
        return self._mat_mask_cache

    def _beyond_mm(self, shape: tuple[int, ...]) -> np.ndarray | None:
        """Per cue pixel, how far (mm) beyond the mat's outline the table point it shows lies
        (0 on the mat; infinite above the table's horizon)."""
        if self.geometry is None:
            return None
        key = (*np.round(self.geometry.homography.ravel(), 9), *shape[:2])
        if self._beyond_key != key or self._beyond_cache is None:
            h, w = shape[:2]
            v, u = np.mgrid[0:h, 0:w].astype(np.float64)
            px = np.stack([(u.ravel() + 0.5) * SMALL - 0.5, (v.ravel() + 0.5) * SMALL - 0.5,
                           np.ones(u.size)])
            homography = self.geometry.homography
            mat = homography @ px
            width, height = float(self.layout.width_mm), float(self.layout.height_mm)
            # the table's side of the horizon: where the mat's own centre lies
            centre = np.linalg.inv(homography) @ np.array([width / 2, height / 2, 1.0])
            centre_w = (homography @ (centre / centre[2]))[2]
            ahead = mat[2] * float(np.sign(centre_w)) > 1e-12
            x = np.where(ahead, mat[0] / np.where(ahead, mat[2], 1.0), 0.0)
            y = np.where(ahead, mat[1] / np.where(ahead, mat[2], 1.0), 0.0)
            dx = np.maximum(np.maximum(-x, x - width), 0.0)
            dy = np.maximum(np.maximum(-y, y - height), 0.0)
            beyond = np.where(ahead, np.hypot(dx, dy), np.inf)
            self._beyond_cache = beyond.reshape(h, w)
            self._beyond_key = key
        return self._beyond_cache

    def _card_reach_mm(self) -> float:
        """How far beyond the mat a card lying on it can show (`PILE_RISE_MM`)."""
        return math.hypot(float(self.layout.card_w_mm), float(self.layout.card_h_mm)) / 2 \
            + PILE_RISE_MM

    def _occlusion(self, hand: np.ndarray) -> Any:
        geometry = self.geometry
        if geometry is None or not hand.any():
            return lambda x, y: False
        grown = cv2.dilate(hand.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        inverse = np.linalg.inv(geometry.homography)

        def occluded(x_mm: float, y_mm: float) -> bool:
            p = inverse @ np.array([x_mm, y_mm, 1.0])
            u, v = int(p[0] / p[2] / SMALL), int(p[1] / p[2] / SMALL)
            if not (0 <= v < grown.shape[0] and 0 <= u < grown.shape[1]):
                return False
            return bool(grown[v, u])

        return occluded

    def _card_centre_below(self, x_mm: float, y_mm: float, angle_deg: float
                           ) -> tuple[float, float, str | None]:
        x, y = card_centre_below(x_mm, y_mm, angle_deg)
        return x, y, self._zone_id(x, y)

    @staticmethod
    def _same_sticker(before: np.ndarray | None, now: np.ndarray) -> bool:
        """Whether two readings' corners are one sticker's, not a twin card's other one (its
        place's picture must be of the sticker whose corners it keeps)."""
        return before is None or _apart(before.mean(axis=0), now) is not None

    def _unchanged(self, gray: np.ndarray, seen: set[str]) -> frozenset[str]:
        """Known cards not read this frame whose sticker place looks as when last read, or so
        but for a die or token lying on it (`small_thing_on`: a die the eye cannot read, as on
        a laptop's camera, must not take the card it lies on away)."""
        out = set()
        for key, quad in self._known_quads.items():
            if key in seen:
                continue
            kept = self._patches.get(key)
            before, now = (None if kept is None else kept.look()), look_at(gray, quad)
            if same_place(before, now) or small_thing_on(before, now):
                out.add(key)
        return frozenset(out)

    # ----- detections -----------------------------------------------------------------------

    def _aruco_mode(self, time_s: float) -> str | None:
        """"full", "regions" or None for this frame."""
        if self.aruco is None:
            return None
        s = self.schedule
        if self.geometry is None or self._frame_no - self._last_full >= s.full_every:
            return "full"
        if not self._dirty.any():
            return None
        moving = self._still_frames == 0
        if moving:
            return "regions" if self._frame_no % s.moving_every == 0 else None
        if time_s - self._last_any_motion_s <= s.settling_s:
            return "regions" if self._still_frames % s.settling_every == 1 else None
        return None

    def _regions(self, shape: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
        count, _, stats, _ = cv2.connectedComponentsWithStats(self._dirty.astype(np.uint8),
                                                              connectivity=8)
        h, w = shape[:2]
        m = self.schedule.margin_px
        boxes = []
        for i in range(1, count):
            x, y, bw, bh = (int(v) for v in stats[i, :4])
            x0, y0 = max(x * SMALL - m, 0), max(y * SMALL - m, 0)
            x1, y1 = min((x + bw) * SMALL + m, w), min((y + bh) * SMALL + m, h)
            if x1 - x0 >= 16 and y1 - y0 >= 16:
                boxes.append((x0, y0, x1, y1))
        return boxes

    def _marker_boxes(self, shape: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
        """Around every die and token read before: a die turned in place barely registers as
        motion on the 1/8-size cue image, so its place is always looked at again."""
        h, w = shape[:2]
        m = self.schedule.margin_px
        boxes = []
        for det in self._aruco_dets:
            if det.aruco is None or det.aruco.kind == "corner":
                continue
            lo, hi = det.corners.min(axis=0), det.corners.max(axis=0)
            boxes.append((max(int(lo[0]) - m, 0), max(int(lo[1]) - m, 0),
                          min(int(hi[0]) + m, w), min(int(hi[1]) + m, h)))
        for _, (cx, cy) in self._pip_readings:
            boxes.append((max(int(cx) - 2 * m, 0), max(int(cy) - 2 * m, 0),
                          min(int(cx) + 2 * m, w), min(int(cy) + 2 * m, h)))
        return boxes

    def _read_pips(self, image: np.ndarray, time_s: float) -> list[tuple[Sighting, None]]:
        """Pip dice (no stickers): read where ArUco just looked (the whole mat, or where
        things moved and around the dice read before); elsewhere the last reading stands."""
        assert self.geometry is not None and self.pips is not None and self.namer is not None
        mat_size = (float(self.layout.width_mm), float(self.layout.height_mm))
        boxes = self._looked
        if boxes is None:
            box = self._mat_box(image.shape)
            boxes = [box] if box is not None else []
            self._pip_readings = []
        else:
            self._pip_readings = [
                (r, c) for r, c in self._pip_readings
                if not any(x0 <= c[0] < x1 and y0 <= c[1] < y1 for x0, y0, x1, y1 in boxes)]
        height, width = image.shape[:2]
        to_image = np.linalg.inv(self.geometry.plane_homography(DIE_MM, (width, height),
                                                                self.camera))
        for box in boxes:
            for reading in self.pips.read(image, self.geometry, mat_size, box):
                if any(math.hypot(reading.x_mm - r.x_mm, reading.y_mm - r.y_mm) < 8.0
                       for r, _ in self._pip_readings):
                    continue  # boxes overlap
                c = cv2.perspectiveTransform(
                    np.array([[[reading.x_mm, reading.y_mm]]], np.float64), to_image)[0, 0]
                self._pip_readings.append((reading, (float(c[0]), float(c[1]))))
        out = []
        for name, r in self.namer.name([r for r, _ in self._pip_readings], time_s):
            out.append((Sighting(name, "die", r.x_mm, r.y_mm, self._zone_id(r.x_mm, r.y_mm),
                                 r.angle_deg, False, True, r.value, r.confidence), None))
        return out

    def _read_aruco(self, gray: np.ndarray, mode: str
                    ) -> tuple[list[tuple[int, np.ndarray]], list[np.ndarray]]:
        """ArUco ids and the unrecognised dark squares (big-cell card symbols among them)."""
        assert self.aruco is not None
        if mode == "full":
            self._last_full = self._frame_no
            self._aruco_dets = []
            self._looked = None
            if self.value_reader is not None:
                self._value_found, self._value_squares = self.value_reader.read(gray)
            return self.aruco.read_all(gray)
        regions = self._regions(gray.shape)
        boxes = regions + [b for b in self._marker_boxes(gray.shape)
                           if not any(_contains(r, b) for r in regions)]
        self._looked = boxes
        found: list[tuple[int, np.ndarray]] = []
        squares: list[np.ndarray] = []
        self._value_found, self._value_squares = [], []
        for x0, y0, x1, y1 in boxes:
            ids, rejected = self.aruco.read_all(np.ascontiguousarray(gray[y0:y1, x0:x1]),
                                                frame_px=max(gray.shape[:2]))
            offset = np.array([x0, y0], dtype=np.float64)
            if self.value_reader is not None:
                values, value_squares = self.value_reader.read(gray[y0:y1, x0:x1], offset,
                                                               max(gray.shape[:2]))
                self._value_squares.extend(value_squares)
                self._value_found.extend(
                    v for v in values if not any(
                        o.text == v.text and np.linalg.norm(o.centre - v.centre) < 8
                        for o in self._value_found))
            squares.extend(q + offset for q in rejected)
            for marker_id, corners in ids:
                corners = corners + offset
                centre = corners.mean(axis=0)
                if not any(m == marker_id and np.linalg.norm(c.mean(axis=0) - centre) < 8
                           for m, c in found):  # boxes overlap: one reading per marker
                    found.append((marker_id, corners))

        def inside(det: Detection) -> bool:
            cx, cy = det.centre
            return any(x0 <= cx < x1 and y0 <= cy < y1 for x0, y0, x1, y1 in boxes)

        self._aruco_dets = [d for d in self._aruco_dets
                            if not inside(d) or self._sticker_stays(gray, d)]
        return found, squares

    def _sticker_stays(self, gray: np.ndarray, det: Detection) -> bool:
        """A big-cell sticker read before (softly, or by the zone search) in a region looked
        at again: kept while its place looks as it did when read, since a pass over a small
        region does not read everything the full pass or the search did (a card moved or
        covered changes the place, and then it goes)."""
        if det.decoder != "bigcell":
            return False
        before = _nearest_place(self._read_patches.get(det.text, []), det.corners)
        return same_place(before, look_at(gray, det.corners))

    def _squares(self, gray: np.ndarray, dets: list[Detection], hints: list[np.ndarray]
                 ) -> list[Detection]:
        """Retries at the physical limit: magnified crops around every sticker-like square
        no decoded sticker explains, first in this frame, then in the fused still frames,
        where also the known cards still missing are looked for again."""
        assert self.geometry is not None
        box = self._mat_box(gray.shape)
        if box is None:
            return []
        x0, y0, x1, y1 = box
        hint_px = self.geometry.px_per_module(self.layout.width_mm / 2,
                                              self.layout.height_mm / 2,
                                              float(self.layout.sticker_mm))
        squares = [
            FinderCandidate(c.centre + np.array([x0, y0], dtype=np.float64), c.module_px)
            for c in finder_candidates(np.ascontiguousarray(gray[y0:y1, x0:x1]), hint_px)
        ]
        found = self.detector.retry_squares(gray, squares, dets)
        fused = self.fusion.fused()
        if fused is None or self.fusion.count < FUSED_MIN_FRAMES:
            return found
        known = [*dets, *found]
        missing = [q for q in hints if not any(centre_in(q, d) for d in known)]
        found += self.detector.retry_quads(fused, missing, known)
        found += self.detector.retry_squares(fused, squares, [*dets, *found])
        return found

    def _remember(self, gray: np.ndarray, cards: Sequence[Detection]) -> None:
        for card in cards:
            places = [(c, p) for c, p in self._read_patches.get(card.text, [])
                      if _apart(c, card.corners) is None]
            # the other place kept: a twin card's other sticker (two at most)
            self._read_patches[card.text] = [*places[-1:], (card.corners.mean(axis=0),
                                                            look_at(gray, card.corners))]

    def _search_zones(self, gray: np.ndarray, dets: Sequence[Detection]) -> None:
        """Once the table is still: in every card zone where no sticker was read, look for a
        sticker whose square a die, a neighbour or the lamp's reflection broke
        (`zone_reading`), and read it with the usual rules."""
        if self.geometry is None:
            return
        read = [*dets, *self._aruco_dets]
        for card in read_unread_zones(gray, self.geometry, self.layout, read, self._on_table):
            self._remember(gray, [card])
            self._aruco_dets.append(card)

    def _sticker_sized(self, quads: list[np.ndarray]) -> list[np.ndarray]:
        """The squares the size of a card sticker's symbol or its sticker outline where they
        lie: card art, die faces and tokens give many more squares of other sizes, each of
        which cost the big-cell reader six tries (on the timed sequence 910 of the 1,454
        squares it was given were at most half a symbol's size). The expected size at a place is the
        mat's own scale there (the homography's local area scale), so it holds at any tilt."""
        if self.geometry is None or not quads:
            return quads
        to_image = np.linalg.inv(self.geometry.homography)
        centres = np.array([np.asarray(q, np.float64).reshape(4, 2).mean(axis=0) for q in quads])
        mat = self.geometry.to_mat(centres)
        w = to_image[2, 0] * mat[:, 0] + to_image[2, 1] * mat[:, 1] + to_image[2, 2]
        symbol_px2 = (abs(float(np.linalg.det(to_image))) / np.abs(w) ** 3
                      * float(self.layout.sticker_mm) ** 2)
        out = []
        for quad, expected in zip(quads, symbol_px2, strict=True):
            area = abs(float(cv2.contourArea(np.asarray(quad, np.float32).reshape(-1, 1, 2))))
            if STICKER_SCALES[0] <= math.sqrt(area / max(float(expected), 1e-9)) <= \
                    STICKER_SCALES[1]:
                out.append(quad)
        return out

    def _symbol_side_px(self) -> tuple[float, float] | None:
        """Smallest and largest side a card sticker's symbol can have on this mat's picture."""
        if self.geometry is None:
            return None
        key = tuple(np.round(self.geometry.homography.ravel(), 9))
        if self._side_key != key:
            w, h = float(self.layout.width_mm), float(self.layout.height_mm)
            sides = [self.geometry.px_per_mm(x, y) * float(self.layout.sticker_mm)
                     for x in (0.0, w / 2, w) for y in (0.0, h / 2, h)]
            self._side_range = (0.6 * min(sides), 1.25 * max(sides))
            self._side_key = key
        return self._side_range

    def _squares_due(self, time_s: float, dets: list[Detection], hints: list[np.ndarray]
                     ) -> bool:
        """Often while the table changes or a known card is missing, now and then on a still
        table whose stickers all read (a card that never read is found there too). Finder
        patterns are Micro QR's: with only big-cell stickers on the table, rarely."""
        s = self.schedule
        if not hints and self._all_big_cell():
            return self._frame_no % s.squares_bigcell_every == 0
        recent = time_s - self._last_any_motion_s <= s.squares_after_motion_s
        missing = any(not any(centre_in(q, d) for d in dets) for q in hints)
        every = s.squares_every if recent or missing else s.squares_still_every
        return self._frame_no % every == 0

    def _microqr_due(self, mode: str | None, hints: list[np.ndarray]) -> bool:
        """Whether the Micro QR reader runs on this frame: always while the table has Micro
        QR cards (or none yet) or one of them is missing; on a table of big-cell stickers
        only on full passes and every `microqr_every` frames (a Micro QR card laid among them
        is found within half a second)."""
        if hints or mode == "full" or not self._all_big_cell():
            return True
        return self._frame_no % self.schedule.microqr_every == 0

    def _all_big_cell(self) -> bool:
        """The table has cards, and every one of them was read from a big-cell sticker."""
        return bool(self._card_keys) and self._card_keys <= self._big_cell_keys

    def _mat_box(self, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
        assert self.geometry is not None
        w, h = float(self.layout.width_mm), float(self.layout.height_mm)
        pts = self.geometry.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        x0, y0 = max(int(lo[0]), 0), max(int(lo[1]), 0)
        x1, y1 = min(int(hi[0]) + 1, shape[1]), min(int(hi[1]) + 1, shape[0])
        return (x0, y0, x1, y1) if x1 - x0 >= 32 and y1 - y0 >= 32 else None

    def _detect(self, gray: np.ndarray, time_s: float) -> tuple[list[Detection], bool]:
        self._retried = set()
        hints = [q for k, q in self._known_quads.items()
                 if k in self._card_keys and k not in self._big_cell_keys]
        mode = self._aruco_mode(time_s)
        dets = (self.detector.detect(gray, hints=hints) if self._microqr_due(mode, hints)
                else [])
        self.fusion.add(gray, self._still_frames > 0)
        if mode is not None:
            ids, squares = self._read_aruco(gray, mode)
            if self.magnifier is not None:
                self.magnifier.changed(self._looked)
            # the soft reading (`read_soft_quad`) costs a few milliseconds a square: on full
            # passes only (the zone search looks again where a card is missing, at rest)
            self._square_memory.begin_pass()
            cards = big_cell_detections(gray, self._sticker_sized([c for _, c in ids] + squares),
                                        side_px=self._symbol_side_px(),
                                        allowed=self._on_table if mode == "full" else None,
                                        memory=self._square_memory)
            cards = [c for c in cards if not any(centre_in(c.corners, d) for d in dets)]
            kept = {d.text for d in self._aruco_dets}
            cards = [c for c in cards if c.text not in kept]
            self._remember(gray, cards)
            self._aruco_dets.extend(cards)
            symbols = [d.corners.astype(np.float32).reshape(-1, 1, 2) for d in [*dets, *cards]
                       if d.kind in ("front", "back")]
            if self.dice_retry is not None:
                self._retry_squares = ([*squares, *self._value_squares], symbols,
                                       None if mode == "full" else self._looked)
            for marker_id, corners in ids:
                centre = corners.mean(axis=0)
                # ArUco candidates inside a decoded sticker are its finder patterns (or the
                # big-cell symbol itself), not dice.
                if any(cv2.pointPolygonTest(c, (float(centre[0]), float(centre[1])), False) >= 0
                       for c in symbols):
                    continue
                self._aruco_dets.append(_interpret_aruco(marker_id, corners))
            self._aruco_dets.extend(
                v for v in self._value_found
                if not any(cv2.pointPolygonTest(c, (float(v.centre[0]), float(v.centre[1])),
                                                False) >= 0 for c in symbols))
            self._search_due = self._search_due or mode == "full"
        elif self._search_due and self._still_frames >= SEARCH_AT:
            # after a full pass, which forgets what the last search read, and whenever the
            # table has come to rest again
            self._search_zones(gray, dets)
            self._search_due = False
        if self._still_frames == 0:
            self._search_due = True
        self._remember_squares()
        if self.dice_retry is not None and self.geometry is not None and self._still_frames > 0:
            # die faces read on a still table where the last pass saw only a die-sized square
            for retried in self.dice_retry.read(gray, self._aruco_dets):
                self._aruco_dets.append(retried)
                self._retried.add(id(retried))
        if self.magnifier is not None and self.geometry is not None and self._still_frames > 0:
            if self.fusion.count == FUSED_MIN_FRAMES:  # once a still period
                self._noisy = _centre_noise(gray) >= NOISY_SIGMA
            # die faces too small for the pass, read in magnified tiles of the mat (and in a
            # noisy picture every die face, in the still frames' mean)
            for magnified in self.magnifier.read(gray, [*dets, *self._aruco_dets],
                                                 self.geometry, self._mat_size(), self.fusion,
                                                 whole=self._noisy):
                self._aruco_dets.append(magnified)
                self._retried.add(id(magnified))
        if self.squares and self.geometry is not None and self._squares_due(time_s, dets, hints):
            dets += self._squares(gray, [*dets, *self._aruco_dets], hints)
        if time_s - self._last_any_motion_s > self.schedule.settling_s:
            self._dirty[:] = False
        return dets + self._aruco_dets, mode is not None

    def _calibrate(self, dets: Sequence[Detection]) -> int:
        """Fit or follow the mat; returns how many of its corner markers are in view."""
        ids = self._corner_ids
        corners = [d for d in dets if d.aruco is not None and d.aruco.kind == "corner"
                   and d.marker_id in ids]
        seen = len({d.marker_id for d in corners})
        if seen < MIN_CORNERS:
            return seen
        if self.geometry is None:
            try:
                self.geometry = MatGeometry.fit(corners, self.layout)
            except GeometryError:
                return seen
        elif self.geometry.update(corners) and self.geometry.camera_moved:
            self._camera_moved()
        return seen

    def _camera_moved(self) -> None:
        """The camera was knocked: every pixel-tied memory (the motion and hand cues'
        background, known sticker squares and patches, fused frames) shows the table where it
        no longer is in the picture. Without this the whole shifted picture stays a "change at
        the edge", read as a hand for good, and no snapshot is emitted again. The tracker is in
        mat millimetres and keeps the table."""
        self._prev_small = None
        self._background = None
        self._known_quads.clear()
        self._patches.clear()
        self._corners_still = {}
        self._aruco_dets = []
        self._dirty = np.zeros((1, 1), bool)
        self._last_full = -(10**9)
        self.fusion.reset()
        self._square_memory.clear()
        if self.dice_retry is not None:
            self.dice_retry.clear()
        self.glare.forget()

    def _corner_reader(self) -> ArucoReader:
        reader = self.aruco or self._mirror_reader
        if reader is None:
            reader = self._mirror_reader = ArucoReader()
        return reader

    def _corners_when_flipped(self, gray: np.ndarray) -> int:
        """How many of this mat's corner markers read in the mirror image of `gray`."""
        ids = self._corner_ids
        return len({m for m, _ in self._corner_reader().read(
            np.ascontiguousarray(cv2.flip(gray, 1))) if m in ids})

    def _still_corners(self, dets: Sequence[Detection], fused: np.ndarray | None
                       ) -> list[Detection]:
        """While the mat is not found: the mat's corner markers read on any frame since the
        picture was last still, and in those frames' mean (`fused`). In a dim room's noisy
        picture (a laptop's camera at high gain, 28 cm over the table's edge, bench seed 1005)
        each of the two corner markers in view read on one frame in three, both on the same
        frame first on the eighth; the mean of six still frames read both in every window
        tried. A still picture is one camera pose, so corners read on different frames of it
        fit one mat; a corner read in two places (a misread marker) is no evidence of where
        it is, and is left out for the rest of the still period."""
        if self._still_frames == 0:
            self._corners_still = {}
        ids = self._corner_ids
        read = [d for d in dets if d.aruco is not None and d.aruco.kind == "corner"]
        if fused is not None:
            read += [_interpret_aruco(m, corners)
                     for m, corners in self._corner_reader().read(fused) if m in ids]
        for det in read:
            if det.marker_id not in ids:
                continue
            key = int(det.marker_id)
            before = self._corners_still.get(key, det)
            apart = before is None or float(np.linalg.norm(before.centre - det.centre)) > \
                quad_side(det.corners)
            self._corners_still[key] = None if apart else det
        return [d for d in self._corners_still.values() if d is not None]

    def _check_mirror(self, gray: np.ndarray, corners_seen: int) -> bool:
        """Corner markers do not read in a mirrored picture (ArUco codes are not
        mirror-symmetric), so when the mat is missing, look at the mirror image now and then;
        if two or more of its corners read there, the picture is mirrored (a mirror clip), or,
        if it is being turned already, it is not. Also when `--mirror` or `--no-mirror` was
        given, only less often: a wrong option would otherwise show no mat at all (the page
        says that the option was overruled)."""
        if corners_seen >= MIN_CORNERS:
            self._no_mat_frames = 0
            return False
        self._no_mat_frames += 1
        lost_long = self.geometry is None or self._no_mat_frames >= 3 * 30
        eager = self.mirror_mode is None and self._no_mat_frames <= MIRROR_EAGER_FRAMES
        every = (1 if eager else MIRROR_TRY_EVERY if self.mirror_mode is None
                 else MIRROR_TRY_EVERY_GIVEN)
        if not lost_long or (self._no_mat_frames - 1) % every:
            return False
        if self._corners_when_flipped(gray) >= MIN_CORNERS:
            self.mirrored = not self.mirrored
            self._restart(keep_still=self._still_frames > 0)
            return True
        return False

    def _restart(self, keep_still: bool = False) -> None:
        """Forget everything tied to the picture's pixels (after it was turned). `keep_still`:
        the still frames seen so far show this same view, so they stay in the mean, turned."""
        still, self.fusion = self.fusion, FrameFusion(self.fusion.max_frames)
        self.geometry = None
        self._camera_moved()
        self._no_mat_frames = 0
        self._pip_readings = []
        if keep_still:
            still.turned()
            self.fusion = still

    def _sighting(self, det: Detection) -> Sighting | None:
        assert self.geometry is not None
        place = self.geometry.place(det, sticker_below_mm(det, self.twin_stickers))
        zone = place.zone
        if det.kind == "front" and isinstance(det.payload, FrontPayload):
            if det.payload.game_code != self.game_code or self.cards is None:
                return None
            try:
                card = self.cards.by_number(det.payload.number)
            except ValueError:
                return None
            key = card_uid(str(card.id), det.payload.copy)
            return Sighting(key, "card", place.x_mm, place.y_mm, zone, place.angle_deg,
                            place.tapped, True, None, det.confidence)
        if det.kind == "back" and isinstance(det.payload, BackPayload):
            return Sighting(back_uid(det.payload.serial), "card", place.x_mm, place.y_mm, zone,
                            place.angle_deg, place.tapped, False, None, det.confidence)
        if det.aruco is not None and det.aruco.kind == "token" and det.aruco.token is not None:
            return Sighting(det.aruco.token, "token", place.x_mm, place.y_mm, zone,
                            place.angle_deg, False, True, None, det.confidence)
        return None

    def _remember_squares(self) -> None:
        """Hand the last ArUco pass's squares to the dice retry once the mat is fitted (the
        first pass runs before it is)."""
        if self.dice_retry is not None and self.geometry is not None and self._retry_squares:
            squares, symbols, looked = self._retry_squares
            self.dice_retry.remember(squares, symbols, self.geometry, self._mat_size(), looked)
            self._retry_squares = None

    @cached_property
    def _corner_ids(self) -> frozenset[int]:
        """The marker ids of this mat's corners."""
        return frozenset(int(c.marker_id) for c in self.layout.corners)

    def _mat_size(self) -> tuple[float, float]:
        return float(self.layout.width_mm), float(self.layout.height_mm)

    def _zone_id(self, x_mm: float, y_mm: float) -> str | None:
        zone = self.layout.zone_at(x_mm, y_mm)
        return zone if zone is None or isinstance(zone, str) else str(getattr(zone, "id", zone))

    def _dice(self, dets: Sequence[Detection], image_size: tuple[int, int],
              gray: np.ndarray | None = None, time_s: float = 0.0
              ) -> tuple[list[tuple[Sighting, Detection]], list[str]]:
        """Sightings of the dice's top faces; texts of die faces no die of this game has."""
        assert self.geometry is not None
        size = (float(self.layout.width_mm), float(self.layout.height_mm))
        self._remember_squares()
        unread = self.dice_retry.open_squares(dets) if self.dice_retry is not None else []
        named = [d for d in dets if value_face_of(d) is None and self._face_agrees(gray, d)]
        current = {id(d) for d in dets}
        self._agrees = {k: v for k, v in self._agrees.items() if k in current}
        tops, dropped = self.top_faces.judge(named, self.geometry, image_size, size, unread,
                                             gray)
        templates = self.dice_retry.templates if self.dice_retry is not None else None
        if gray is not None and templates is not None and self._still_frames > 0:
            # on a still table (a few milliseconds a die: not while hands move)
            tops = [*tops, *tops_from_sides(gray, named, tops, dropped, self.top_faces,
                                            self.geometry, image_size, templates)]
        out = []
        for top in tops:
            out.append((Sighting(top.die, "die", top.x_mm, top.y_mm,
                                 self._zone_id(top.x_mm, top.y_mm), top.angle_deg, False, True,
                                 top.value, top.confidence), top.detection))
        if self.value_dice is not None:
            value_tops = self.value_dice.tops(dets, self.geometry, image_size, size, unread,
                                              gray)
            for name, top in self.value_dice.name(value_tops, time_s,
                                                  {t.die for t in tops}):
                out.append((Sighting(name, "die", top.x_mm, top.y_mm,
                                     self._zone_id(top.x_mm, top.y_mm), top.angle_deg, False,
                                     True, top.value, top.confidence), top.detection))
        strangers = [v.detection.text for v in dropped if v.reason == "not-in-game"]
        return out, strangers

    def _face_agrees(self, gray: np.ndarray | None, det: Detection) -> bool:
        """Whether a die face read looks most like the face it was decoded as, of the game's
        die faces (`FaceTemplates.agrees`); asked once per reading (readings persist from
        frame to frame)."""
        templates = self.dice_retry.templates if self.dice_retry is not None else None
        if gray is None or templates is None:
            return True
        key = id(det)
        if key not in self._agrees:
            self._agrees[key] = (det, templates.agrees(gray, det))
        return self._agrees[key][1]

    def _check_camera(self, image: np.ndarray, dets: Sequence[Detection]) -> None:
        """The page's camera check (what `companion calibrate` says), now and then: the
        pipeline's own frame and detections, so it costs a few milliseconds every few
        seconds. Its advice joins the health messages while something is wrong."""
        from companion.vision.calibration import CalibrationError, calibrate_frame

        kind: Any = "bigcell" if (self._big_cell_keys or not self._card_keys) else "microqr"
        try:
            report = calibrate_frame(image, self.layout, float(self.layout.sticker_mm),
                                     self.camera, detections=list(dets), stickers=kind,
                                     mirror=self.mirrored)
        except (CalibrationError, AttributeError):
            return  # a layout without zones (a test mat) or a moment without corners
        self.camera_check = report.to_dict()
        self._check_advice = tuple(a for a in report.advice if not report.ok
                                   and not a.startswith("Only "))

    def _messages(self, verdict: InputVerdict, mat_fit: MatFit, corners: int,
                  orientation: str) -> tuple[str, ...]:
        out = []
        if verdict.message:
            out.append(verdict.message)
        if verdict.usable:
            if mat_fit == "none":
                ids = ", ".join(str(c.marker_id) for c in self.layout.corners)
                if corners == 1:
                    out.append("Only one corner marker of the mat reads: the mat is located from "
                               "two or more. Uncover the corners or show more of the mat.")
                else:
                    out.append("The mat is not in view: none of its corner markers reads (ids "
                               f"{ids}). Point the camera at the whole mat; nothing is recorded "
                               "until it is found.")
            elif mat_fit == "held":
                out.append(f"Only {corners} of the mat's 4 corner markers in view: the mat is "
                           "held where it was last seen. Uncover the corners.")
        if self.mirrored and self.mirror_mode is None:
            out.append("The picture is mirrored (a mirror clip?): it is turned back before "
                       "reading. Start with --mirror to skip this check.")
        if self.mirror_mode is not None and self.mirrored != self.mirror_mode:
            given, now = (("--mirror", "not mirrored: it is read as it comes") if self.mirror_mode
                          else ("--no-mirror", "mirrored: it is turned back before reading"))
            out.append(f"The camera was started with {given}, but the mat's corner markers read "
                       f"only the other way round, so the picture is {now}. Start without "
                       f"{given} to have this found out.")
        if orientation == "upside-down":
            out.append("The picture is upside down (player 2's side at the bottom): it reads "
                       "as well; turn the camera for an upright view.")
        if verdict.usable and mat_fit != "none":
            out.extend(self._check_advice)
        return tuple(out)

    # ----- the frame ------------------------------------------------------------------------

    def process(self, frame: Frame) -> PipelineUpdate:
        started = time.perf_counter()
        update = self._process(frame, started)
        if self._turned:  # the picture was found mirrored: read this frame again, turned back
            self._turned = False
            update = self._process(frame, started)
        return update

    def _process(self, frame: Frame, started: float) -> PipelineUpdate:
        image = frame.image
        if self.mirrored:
            image = cv2.flip(image, 1)
        small = self._small(image)
        verdict = self.frame_check.check(small, frame.time_s)
        if not verdict.usable:
            return self._update(started, None, verdict, [], [], False, 0.0, False, image)
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        motion, hand = self._cues(small, frame.time_s)
        dets, ran = self._detect(gray, frame.time_s)
        self._corners_seen = self._calibrate(dets)
        fused = (self.fusion.fused() if self.geometry is None and self._still_frames > 0
                 else None)
        if self.geometry is None:
            self._corners_seen = max(self._corners_seen,
                                     self._calibrate(self._still_corners(dets, fused)))
        if self._check_mirror(gray if fused is None else fused, self._corners_seen):
            self._turned = True
        sightings: list[Sighting] = []
        unknown: list[str] = []
        hand_flag = float(np.count_nonzero(hand)) / max(hand.size, 1) >= HAND_MIN_SHARE
        if self.geometry is None:
            return self._update(started, None, verdict, dets, [], ran, motion, hand_flag, image)
        height, width = gray.shape[:2]
        placed: list[tuple[Sighting, Detection | None]] = []
        if self.dice_mode == "pips":
            if ran and image.ndim == 3:
                self._pip_sightings = self._read_pips(image, frame.time_s)
            placed.extend(self._pip_sightings)
        else:
            dice, strangers = self._dice(dets, (width, height), gray, frame.time_s)
            unknown.extend(strangers)
            placed.extend(dice)
        placed_before, self._placed = self._placed, {}
        if not self.twin_stickers and shows_twin_pair(dets, self.geometry):
            self.twin_stickers = True  # the cards' places so far were their stickers' places
            placed_before = {}
            self.tracker.move_cards(self._card_centre_below)
        for det in dets:
            if det.kind == "unknown":
                unknown.append(det.text)
                continue
            if det.aruco is not None and det.aruco.kind == "die":
                continue
            kept = placed_before.get(id(det))
            if kept is not None and kept[0] is det and kept[1] is self.geometry.homography:
                sight = kept[2]  # a reading kept from an earlier frame, the same mat fit
            else:
                sight = self._sighting(det)
            self._placed[id(det)] = (det, self.geometry.homography, sight)
            if sight is None and det.kind == "front":
                unknown.append(det.text)  # another game's card, or not in the cardset
            if sight is not None:
                placed.append((sight, det))
        # a sticker place's picture is taken only where no hand is: a reading kept from an
        # earlier frame may stand while a hand or its shadow is over the place now
        occluded = self._occlusion(hand)
        for sight, source in placed:
            sightings.append(sight)
            if source is None:
                continue
            if sight.kind == "card":
                self._card_keys.add(sight.key)
                if source.decoder == "bigcell":
                    self._big_cell_keys.add(sight.key)
                else:
                    self._big_cell_keys.discard(sight.key)
            if sight.kind == "card" or ran or id(source) in self._retried:
                # (ArUco readings kept from the last pass are not news)
                picture = self._patches.get(sight.key)
                if (not occluded(sight.x_mm, sight.y_mm) or picture is None
                        or picture.look() is None):
                    self._known_quads[sight.key] = source.corners
                    self._patches[sight.key] = PlacePicture(gray, source.corners)
                elif self._same_sticker(self._known_quads.get(sight.key), source.corners):
                    self._known_quads[sight.key] = source.corners  # its picture: from before
        unchanged = self._unchanged(gray, {s.key for s in sightings})
        unreadable = None
        if self.glare.due(frame.time_s, motion < self.tracker.settings.motion_threshold
                          and not hand_flag):
            unreadable = self.glare.look(frame.time_s, image, self.geometry, self.layout, dets)
        obs = FrameObservation(frame.time_s, sightings, motion, hand_flag,
                               occluded, unknown, unchanged, unreadable)
        snapshot = self.tracker.update(obs)
        present, tracked = self.tracker.present_keys(), self.tracker.tracked_keys()
        # candidates keep theirs: a die read on the one frame an ArUco pass ran, while it was
        # still a candidate, had no place picture once confirmed, and was never held
        self._known_quads = {k: q for k, q in self._known_quads.items() if k in tracked}
        self._patches = {k: p for k, p in self._patches.items() if k in tracked}
        self._card_keys &= present
        self._big_cell_keys &= present
        if frame.time_s - self._last_check_s >= CHECK_EVERY_S and not hand_flag:
            self._check_camera(image, dets)
            self._last_check_s = frame.time_s
        return self._update(started, snapshot, verdict, dets, sightings, ran, motion, hand_flag,
                            image)

    def _update(self, started: float, snapshot: TableSnapshot | None, verdict: InputVerdict,
                dets: Sequence[Detection], sightings: Sequence[Sighting], ran: bool,
                motion: float, hand: bool, image: np.ndarray) -> PipelineUpdate:
        self._frame_no += 1
        elapsed = time.perf_counter() - started
        self._fps = 1 / elapsed if self._fps == 0 else 0.9 * self._fps + 0.1 / max(elapsed, 1e-6)
        recording = verdict.usable and self.geometry is not None
        mat_fit: MatFit = "none" if self.geometry is None else (
            "ok" if self._corners_seen >= MIN_CORNERS else "held")
        orientation = self.geometry.orientation() if self.geometry is not None else "upright"
        stats = PipelineStats(
            fps=round(self._fps, 1), frame_ms=round(elapsed * 1000, 2), markers_seen=len(dets),
            cards_seen=sum(1 for s in sightings if s.kind == "card"),
            calibration_ok=self.geometry is not None, hand=hand, motion=round(motion, 4),
            aruco_run=ran, mat_fit=mat_fit, corners_seen=self._corners_seen,
            input=verdict.state, mirrored=self.mirrored, orientation=orientation,
            recording=recording,
            messages=self._messages(verdict, mat_fit, self._corners_seen, orientation),
            camera_ok=None if self.camera_check is None else bool(self.camera_check["ok"]),
        )
        return PipelineUpdate(snapshot, stats, tuple(dets), tuple(sightings), image)


def build_pipeline(layout: Any, game: str, cards: CardNumbers | None, backend: str = "zxing",
                   tracker: Tracker | None = None, mirror: bool | None = None,
                   dice: Collection[str] | None = None,
                   dice_mode: DiceMode = DEFAULT_DICE_MODE) -> Pipeline:
    """The default pipeline for a game: zxing stickers, scheduled ArUco, default tracker, only
    the dice the game uses (`dice` overrides, e.g. with counter dice) read from their face
    stickers or their pips (`dice_mode`), the mirror found from the corner markers unless
    `mirror` says."""
    from companion.games import game_dice
    from companion.vision.tracker import TrackerSettings

    settings = TrackerSettings(card_w_mm=layout.card_w_mm, card_h_mm=layout.card_h_mm,
                               sticker_mm=layout.sticker_mm)
    return Pipeline(layout, Detector(backend, aruco=False), tracker or Tracker(game, settings),
                    cards=cards, aruco=ArucoReader(DICE_ARUCO),
                    dice=game_dice(game) if dice is None else dice, mirror=mirror,
                    dice_mode=dice_mode)


def _centre_noise(gray: np.ndarray) -> float:
    """The gain noise in the picture's middle (a 256 px square: cheap, and on the mat)."""
    h, w = gray.shape[:2]
    y0, x0 = max(h // 2 - 128, 0), max(w // 2 - 128, 0)
    return noise_sigma(gray[y0:y0 + 256, x0:x0 + 256])
