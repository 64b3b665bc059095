"""The pipeline's cheap cues, on a 1/8-size copy of each frame: motion and the hand mask.

Motion is the pixels that changed since the last frame; the hand mask is anything that differs
from the still table and reaches in from the picture's border or from beyond the mat (an arm,
whatever its skin, sleeve or glove; once the picture is still, not a thing a card lying at the
mat's edge explains). Kept apart from the readers because it is their clock: the still-frame
count and where things moved decide when the costly readers run.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from companion.vision.fastops import channel_max, shrink
from companion.vision.geometry import MatGeometry

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


def small_copy(image: np.ndarray) -> np.ndarray:
    """The 1/SMALL-size colour copy of a frame the cues (and the picture check) look at."""
    small = shrink(image, SMALL)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    return np.asarray(small)


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


class TableCues:
    """Motion, the hand mask and the still-table clock, frame after frame.

    `still_frames` counts frames in a row without motion; `dirty` marks (on the cue image) where
    anything moved since the marker reader last looked (it clears it); `last_any_motion_s` is
    when any pixel last changed."""

    def __init__(self, layout: Any, motion_threshold: float) -> None:
        self.layout = layout
        self.motion_threshold = motion_threshold
        self.prev_small: np.ndarray | None = None
        self.background: np.ndarray | None = None
        self.still_frames = 0
        self.still_since: float | None = None
        self.last_motion_s = -math.inf
        self.last_any_motion_s = -math.inf  # any changed pixel at all, for ArUco regions
        self.dirty = np.zeros((1, 1), bool)  # where things moved since ArUco last looked
        self._mat_mask_key: tuple[float, ...] | None = None
        self._mat_mask_cache: np.ndarray | None = None
        self._beyond_key: tuple[float, ...] | None = None
        self._beyond_cache: np.ndarray | None = None

    def forget(self) -> None:
        """The picture's pixels no longer show the table where they did (camera moved)."""
        self.prev_small = None
        self.background = None
        self.dirty = np.zeros((1, 1), bool)

    def look(self, small: np.ndarray, time_s: float, geometry: MatGeometry | None
             ) -> tuple[float, np.ndarray]:
        """This frame's motion (share of cue pixels changed) and hand mask."""
        motion = 0.0
        if self.dirty.shape != small.shape[:2]:
            self.dirty = np.zeros((small.shape[0], small.shape[1]), bool)
        if self.prev_small is not None and self.prev_small.shape == small.shape:
            # colour, not grey: a dark hand over a green mat has nearly the mat's brightness
            moved = channel_max(cv2.absdiff(small, self.prev_small)) > MOTION_LEVEL
            motion = float(np.count_nonzero(moved)) / moved.size
            if motion > 0:
                self.dirty |= cv2.dilate(moved.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
                self.last_any_motion_s = time_s
        self.prev_small = small
        if self.background is None:
            self.background = small.copy()
        changed = channel_max(cv2.absdiff(small, self.background)) > BACKGROUND_LEVEL
        hand = reaching_in(changed, self.mat_mask(small.shape, geometry))
        if motion < self.motion_threshold:
            self.still_frames += 1
            if self.still_since is None:
                self.still_since = time_s
        else:
            self.still_frames = 0
            self.still_since = None
            self.last_motion_s = time_s
        long_still = self.still_since is not None and time_s - self.still_since >= ABSORB_STILL_S
        if self.still_frames >= STILL_FRAMES_FOR_BACKGROUND and not long_still:
            beyond = self.beyond_mm(small.shape, geometry)
            if beyond is not None:  # a card come to rest at the mat's edge is table, not arm
                hand &= ~lying_at_edge(hand, beyond, self.card_reach_mm())
        hand_share = float(np.count_nonzero(hand)) / hand.size
        if self.still_frames >= STILL_FRAMES_FOR_BACKGROUND:
            if long_still:
                self.background = small  # a hand still this long is part of the table
                hand = np.zeros_like(hand)
            elif hand_share < HAND_MIN_SHARE:
                # the table as it is now, but never a sliver of arm at the picture's edge:
                # absorbed, it would come back as a hand-shaped change once the arm is gone
                keep = cv2.dilate(hand.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
                background = small.copy()
                background[keep] = self.background[keep]
                self.background = background
                hand = np.zeros_like(hand)
        return motion, hand

    def mat_mask(self, shape: tuple[int, ...], geometry: MatGeometry | None
                 ) -> np.ndarray | None:
        """The mat in the cue image, grown a little (cards may hang over its edge)."""
        if geometry is None:
            return None
        key = (*np.round(geometry.homography.ravel(), 9), *shape[:2])
        if self._mat_mask_key != key:
            w, h = float(self.layout.width_mm), float(self.layout.height_mm)
            inset = -6.0
            corners = np.array([[inset, inset], [w - inset, inset], [w - inset, h - inset],
                                [inset, h - inset]], dtype=np.float64)
            pts = geometry.to_image(corners) / SMALL
            mask = np.zeros(shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, np.round(pts).astype(np.int32), 1)
            self._mat_mask_cache = mask.astype(bool)
            self._mat_mask_key = key
        return self._mat_mask_cache

    def beyond_mm(self, shape: tuple[int, ...], geometry: MatGeometry | None
                  ) -> np.ndarray | None:
        """Per cue pixel, how far (mm) beyond the mat's outline the table point it shows lies
        (0 on the mat; infinite above the table's horizon)."""
        if geometry is None:
            return None
        key = (*np.round(geometry.homography.ravel(), 9), *shape[:2])
        if self._beyond_key != key or self._beyond_cache is None:
            h, w = shape[:2]
            v, u = np.mgrid[0:h, 0:w].astype(np.float64)
            px = np.stack([(u.ravel() + 0.5) * SMALL - 0.5, (v.ravel() + 0.5) * SMALL - 0.5,
                           np.ones(u.size)])
            homography = geometry.homography
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

    def card_reach_mm(self) -> float:
        """How far beyond the mat a card lying on it can show (`PILE_RISE_MM`)."""
        return math.hypot(float(self.layout.card_w_mm), float(self.layout.card_h_mm)) / 2 \
            + PILE_RISE_MM
