"""Hands over the simulated table: skin-coloured blobs that reach in from a table edge.

A hand is a palm with fingers at a point on the mat and an arm back to the edge it came from.
The simulator moves it in, lets it cover what it changes, and takes it away again, because that
is what the tracker must survive: markers vanish under hands without anything having changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SKIN_TONES_BGR: tuple[tuple[int, int, int], ...] = (
    (125, 160, 215),
    (100, 135, 190),
    (80, 110, 160),
    (145, 180, 230),
    (60, 85, 130),
)


@dataclass(frozen=True)
class Hand:
    """A hand whose palm centre lies at (x_mm, y_mm), its arm reaching back to (edge_x, edge_y)."""

    x_mm: float
    y_mm: float
    edge_x_mm: float
    edge_y_mm: float
    tone: int = 0
    palm_mm: float = 95.0


def edge_point(x_mm: float, y_mm: float, width_mm: float, height_mm: float, player: int
               ) -> tuple[float, float]:
    """Where an arm of player 1 (bottom edge) or player 2 (top edge) enters the view."""
    margin = 250.0
    return (x_mm * 0.8 + width_mm * 0.1, height_mm + margin if player == 1 else -margin)


def along(hand_from: tuple[float, float], hand_to: tuple[float, float], t: float
          ) -> tuple[float, float]:
    """A point a share `t` (0..1) of the way between two points."""
    t = max(0.0, min(1.0, t))
    return (hand_from[0] + (hand_to[0] - hand_from[0]) * t,
            hand_from[1] + (hand_to[1] - hand_from[1]) * t)


def draw_hand(canvas: np.ndarray, labels: np.ndarray | None, hand: Hand, px_per_mm: float,
              label_px_per_mm: float, label_value: int, canvas_offset_mm: float = 0.0) -> None:
    """Paint the hand (arm, palm, fingers) on the canvas and mark it in the label buffer."""
    tone = SKIN_TONES_BGR[hand.tone % len(SKIN_TONES_BGR)]
    shade = tuple(int(c * 0.85) for c in tone)
    targets = ((canvas, px_per_mm, canvas_offset_mm), (labels, label_px_per_mm, 0.0))
    for target, scale, offset in targets:
        if target is None:
            continue
        is_label = target is labels
        colour: tuple[int, ...] | int = label_value if is_label else tone
        arm_colour: tuple[int, ...] | int = label_value if is_label else shade
        _draw_shape(target, hand, scale, colour, arm_colour, offset)


def _draw_shape(target: np.ndarray, hand: Hand, scale: float, colour: tuple[int, ...] | int,
                arm_colour: tuple[int, ...] | int, offset_mm: float) -> None:
    shift = 2
    f = float(1 << shift) * scale

    def pt(x: float, y: float) -> tuple[int, int]:
        return (round((x + offset_mm) * f), round((y + offset_mm) * f))

    palm = hand.palm_mm
    dx, dy = hand.x_mm - hand.edge_x_mm, hand.y_mm - hand.edge_y_mm
    direction = math.atan2(dy, dx)
    arm_w = palm * 0.7
    cv2.line(target, pt(hand.edge_x_mm, hand.edge_y_mm), pt(hand.x_mm, hand.y_mm), arm_colour,
             max(1, round(arm_w * scale)), cv2.LINE_AA if isinstance(colour, tuple) else 8,
             shift)
    axes = (round(palm * 0.55 * f), round(palm * 0.45 * f))
    cv2.ellipse(target, pt(hand.x_mm, hand.y_mm), axes, math.degrees(direction), 0, 360, colour,
                -1, cv2.LINE_AA if isinstance(colour, tuple) else 8, shift)
    for k in range(4):
        spread = math.radians(-30 + 20 * k)
        length = palm * (0.75 + 0.12 * (k in (1, 2)))
        fx = hand.x_mm + math.cos(direction + spread) * length
        fy = hand.y_mm + math.sin(direction + spread) * length
        cv2.line(target, pt(hand.x_mm, hand.y_mm), pt(fx, fy), colour,
                 max(1, round(palm * 0.17 * scale)),
                 cv2.LINE_AA if isinstance(colour, tuple) else 8, shift)
