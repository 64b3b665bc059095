"""The hand cue at the mat's edge (lab note docs/lab/2026-11-28-hand-at-the-edge.md).

A card laid on the mat's far row shows beyond the mat's outline in the picture. It must stop
being "a hand" once it lies still, within the players' pause, or no table settles after it;
an arm reaching in over the edge must stay a hand however still it holds.

Synthetic frames drawn in mat millimetres through a known homography (the oracle: where each
thing lies on the table, and whether it is an arm or a card), with fresh sensor noise per
frame, fed to the real pipeline at the end-to-end bench's 15 fps.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import pytest

from companion.layouts import load_layout
from companion.vision.geometry import MatGeometry
from companion.vision.pipeline import ABSORB_STILL_S, Pipeline, build_pipeline
from companion.vision.sources import Frame

GAME = "challengers"  # p2's bench seats lie 4 mm from the mat's far edge
FPS = 15.0
PAUSE_S = 0.45  # the end-to-end bench's pace: the table left still this long after a change
W, H = 1920, 1080
PX_PER_MM = 2.0  # about a 1080p webcam's scale at the mat's far row
ORIGIN = (360.0, 420.0)  # the mat's top-left corner (mm 0, 0) in the picture: the picture
# shows 210 mm of table beyond the far edge, where p2's arm comes from

MAT_BGR = (70, 140, 70)
TABLE_BGR = (90, 140, 190)  # light wood
SKIN_BGR = (120, 150, 205)
SLEEVE_BGR = (150, 60, 60)

Quad = Sequence[tuple[float, float]]


def to_picture(points_mm: Quad, origin: tuple[float, float] = ORIGIN) -> np.ndarray:
    pts = np.asarray(points_mm, np.float64)
    return np.round(pts * PX_PER_MM + np.array(origin)).astype(np.int32)


def rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def card(x0: float, y0: float) -> list[tuple[list[tuple[float, float]], tuple[int, int, int]]]:
    """A 63 x 88 mm card with its top-left at (x0, y0) mm: white border, saturated art."""
    return [(rect(x0, y0, x0 + 63, y0 + 88), (235, 235, 235)),
            (rect(x0 + 4, y0 + 10, x0 + 59, y0 + 50), (40, 60, 200)),
            (rect(x0 + 4, y0 + 55, x0 + 59, y0 + 84), (200, 170, 60))]


def arm(x: float, from_y: float, to_y: float, width: float = 70.0
        ) -> list[tuple[list[tuple[float, float]], tuple[int, int, int]]]:
    """A sleeved forearm from `from_y` (mm; far beyond the mat, or the picture's border) to
    a hand whose fingertips reach `to_y` on the mat."""
    return [(rect(x - width / 2, from_y, x + width / 2, to_y - 80), SLEEVE_BGR),
            (rect(x - 45, to_y - 80, x + 45, to_y), SKIN_BGR)]


def picture(things: Sequence[tuple[Quad, tuple[int, int, int]]], rng: np.random.Generator,
            origin: tuple[float, float] = ORIGIN) -> np.ndarray:
    image = np.empty((H, W, 3), np.uint8)
    image[:] = TABLE_BGR
    layout = load_layout(GAME)
    mat = rect(0, 0, float(layout.width_mm), float(layout.height_mm))
    cv2.fillConvexPoly(image, to_picture(mat, origin), MAT_BGR)
    for quad, colour in things:
        cv2.fillConvexPoly(image, to_picture(quad, origin), colour)
    noise = rng.normal(0.0, 2.0, image.shape)
    return np.asarray(np.clip(image + noise, 0, 255).astype(np.uint8))


def pipeline(origin: tuple[float, float] = ORIGIN) -> Pipeline:
    layout = load_layout(GAME)
    pipe = build_pipeline(layout, GAME, None)
    image_to_mat = np.array([[1 / PX_PER_MM, 0, -origin[0] / PX_PER_MM],
                             [0, 1 / PX_PER_MM, -origin[1] / PX_PER_MM], [0, 0, 1]])
    pipe.geometry = MatGeometry(layout, image_to_mat, 4)
    return pipe


class Table:
    """The pipeline fed one frame after another; what its hand cue and tracker say."""

    def __init__(self, origin: tuple[float, float] = ORIGIN) -> None:
        self.origin = origin
        self.pipe = pipeline(origin)
        self.rng = np.random.default_rng(7)
        self.index = 0

    def show(self, things: Sequence[tuple[Quad, tuple[int, int, int]]]) -> tuple[bool, bool]:
        """One frame: (hand cue on, table settled)."""
        time_s = self.index / FPS
        image = picture(things, self.rng, self.origin)
        update = self.pipe.process(Frame(image, self.index, time_s))
        self.index += 1
        return update.stats.hand, self.pipe.tracker.settled(time_s)

    def hold(self, things: Sequence[tuple[Quad, tuple[int, int, int]]], seconds: float
             ) -> list[tuple[bool, bool]]:
        return [self.show(things) for _ in range(round(seconds * FPS))]


def lay_on_far_row(table: Table, laid: Sequence[tuple[Quad, tuple[int, int, int]]]) -> None:
    """The empty table still, then p2's arm from the picture's border lays `laid`."""
    table.hold([], 0.6)
    for reach, down in ((-40.0, False), (10.0, False), (60.0, True), (60.0, True),
                        (30.0, True), (-40.0, True)):  # in, laying, out again
        table.show([*laid, *arm(420, -210, reach)] if down else arm(420, -210, reach))


def test_a_card_hanging_over_the_far_edge_is_table_once_still() -> None:
    """p2's bench seat 1 (x 416-484 mm, y 4-88 mm as p2 sits), the card laid 12 mm over the
    edge: still, it is no hand, and the table settles within the players' pause."""
    table = Table()
    laid = card(418, -12)
    lay_on_far_row(table, laid)
    still = table.hold(laid, PAUSE_S)
    hands = [hand for hand, _ in still]
    assert hands[0], "the change reaches outside the mat: an arm until it is seen still"
    assert not any(hands[-2:]), f"still a hand after {PAUSE_S} s: {hands}"
    assert still[-1][1], "the table never settled in the players' pause"
    again = table.hold(laid, 0.5)  # and it stays table (the old cue: a hand until 2 s)
    assert not any(hand for hand, _ in again)


def test_a_card_at_the_far_corner_with_a_pile_beside_it() -> None:
    """Two cards side by side on the far row, one turned and hanging 25 mm over the edge (a
    pile's top seen farther out): table once still."""
    table = Table()
    turned = [([(x - 8, y + 4) for x, y in quad], colour) for quad, colour in card(350, -20)]
    laid = [*card(418, -6), *turned]
    lay_on_far_row(table, laid)
    hands = [hand for hand, _ in table.hold(laid, PAUSE_S)]
    assert not any(hands[-2:]), hands


@pytest.mark.parametrize("beyond_mm", [210.0, 30.0])
def test_an_arm_from_the_picture_border_stays_a_hand_while_it_rests(beyond_mm: float) -> None:
    """A hand resting on the far row, its arm from the picture's border (the picture showing
    `beyond_mm` of table past the far edge: with 30 mm the arm's visible part is no longer
    than a card hanging over): a hand on every frame, however still, until the 2 s after
    which anything still is table."""
    table = Table((ORIGIN[0], beyond_mm * PX_PER_MM))
    table.hold([], 0.6)
    resting = arm(300, -beyond_mm, 70)
    frames = table.hold(resting, ABSORB_STILL_S - 0.2)
    assert all(hand for hand, _ in frames)
    assert not any(settled for _, settled in frames[1:])


def test_an_arm_from_beyond_the_mat_stays_a_hand_while_it_rests() -> None:
    """The arm's upper part matches the table (unchanged: not seen), the forearm shows from
    150 mm beyond the mat: farther out than any card lying on the mat shows, so a hand."""
    table = Table()
    table.hold([], 0.6)
    resting = arm(300, -150, 70)
    frames = table.hold(resting, ABSORB_STILL_S - 0.2)
    assert all(hand for hand, _ in frames)


def test_a_hand_moving_at_the_edge_is_a_hand() -> None:
    """A gloved hand whose arm the picture does not show (a sleeve the table's colour),
    sliding along the far row a little over the edge: a hand while it moves, card-sized or
    not. (A skin-coloured hand over a wooden table shows no change beyond the mat at all.)"""
    table = Table()
    table.hold([], 0.6)
    hands = [table.show([(rect(x, -15, x + 63, 70), SLEEVE_BGR)])[0]
             for x in range(100, 400, 15)]
    assert all(hands), hands
