"""Hands over the simulated table: hands and arms that reach in from a table edge.

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
    z_mm: float = 45.0  # palm height above the table (the realistic renderer's parallax)
    edge_z_mm: float = 160.0  # the arm's height where it leaves the picture
    vx_mm_s: float = 0.0  # palm velocity, for motion blur
    vy_mm_s: float = 0.0
    sleeve: tuple[int, int, int] | None = None  # BGR of a sleeve over the forearm
    glove: tuple[int, int, int] | None = None  # BGR of a glove over the hand


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


# ----- hands in 3D (the realistic renderer) -------------------------------------------------

MONK_SKIN_TONES_BGR: tuple[tuple[int, int, int], ...] = tuple(
    (int(h[4:6], 16), int(h[2:4], 16), int(h[0:2], 16)) for h in (
        "f6ede4", "f3e7db", "f7ead0", "eadaba", "d7bd96",
        "a07e56", "825c43", "604134", "3a312a", "292420",
    )
)
"""The Monk Skin Tone Scale's ten tones (Ellis Monk; published by Google, 2022), lightest
first: the realistic hands take every one of them, so no hand cue can rely on one skin colour."""


def skin_colour(hand: Hand) -> tuple[int, int, int]:
    return MONK_SKIN_TONES_BGR[hand.tone % len(MONK_SKIN_TONES_BGR)]


@dataclass(frozen=True)
class HandPart:
    """One flat piece of a hand in world coordinates (mat mm, z up) with its colour."""

    name: str
    points: np.ndarray  # (n, 3) polygon
    colour: tuple[int, int, int]


def _capsule(a: np.ndarray, b: np.ndarray, width: float, segments: int = 6) -> np.ndarray:
    """A rounded finger from a to b (3D, same height profile), as a polygon."""
    d = b[:2] - a[:2]
    length = float(np.linalg.norm(d)) or 1.0
    u = d / length
    n = np.array([-u[1], u[0]])
    r = width / 2
    pts = []
    for i in range(segments + 1):
        t = math.pi * i / segments
        off = n * math.cos(t) + u * math.sin(t)
        pts.append(np.array([*(b[:2] + off * r), b[2]]))
    for i in range(segments + 1):
        t = math.pi + math.pi * i / segments
        off = n * math.cos(t) + u * math.sin(t)
        pts.append(np.array([*(a[:2] + off * r * 0.9), a[2]]))
    return np.array(pts)


def hand_parts(hand: Hand) -> list[HandPart]:
    """Arm (skin or sleeve), palm, four fingers and a thumb, back to front."""
    skin = skin_colour(hand)
    palm_colour = hand.glove or skin
    edge = np.array([hand.edge_x_mm, hand.edge_y_mm, hand.edge_z_mm])
    palm = np.array([hand.x_mm, hand.y_mm, hand.z_mm])
    d = palm[:2] - edge[:2]
    length = float(np.linalg.norm(d)) or 1.0
    u = d / length
    n = np.array([-u[1], u[0]])
    scale = hand.palm_mm / 95.0
    wrist_back = 55.0 * scale
    wrist = palm - np.array([*(u * wrist_back), 0.0])
    wrist[2] = hand.z_mm + 8
    parts: list[HandPart] = []

    def arm_quad(a: np.ndarray, b: np.ndarray, wa: float, wb: float, steps: int = 4
                 ) -> np.ndarray:
        left, right = [], []
        for i in range(steps + 1):
            t = i / steps
            p = a + (b - a) * t
            w = (wa + (wb - wa) * t) / 2
            left.append(np.array([*(p[:2] + n * w), p[2]]))
            right.append(np.array([*(p[:2] - n * w), p[2]]))
        return np.array(left + right[::-1])

    arm_w, wrist_w = 80.0 * scale, 58.0 * scale
    if hand.sleeve is not None:
        cuff = wrist + (edge - wrist) * 0.25
        parts.append(HandPart("sleeve", arm_quad(edge, cuff, arm_w * 1.25, arm_w * 1.1),
                              hand.sleeve))
        parts.append(HandPart("arm", arm_quad(cuff, wrist, arm_w * 0.9, wrist_w), palm_colour))
    else:
        parts.append(HandPart("arm", arm_quad(edge, wrist, arm_w, wrist_w), skin))
    # palm: an ellipse of points
    a_len, a_wid = 52.0 * scale, 44.0 * scale
    ring = []
    for i in range(16):
        t = 2 * math.pi * i / 16
        p = palm[:2] + u * math.cos(t) * a_len * 0.9 + n * math.sin(t) * a_wid
        ring.append([p[0], p[1], hand.z_mm])
    parts.append(HandPart("palm", np.array(ring), palm_colour))
    for k in range(4):
        spread = math.radians(-21 + 14 * k)
        dirv = u * math.cos(spread) + n * math.sin(spread)
        base = palm[:2] + u * a_len * 0.6 + n * (k - 1.5) * 20 * scale
        flen = (62 + 12 * (k in (1, 2))) * scale
        tip = base + dirv * flen
        parts.append(HandPart(f"finger{k}", _capsule(
            np.array([*base, hand.z_mm]), np.array([*tip, max(hand.z_mm - 15, 8.0)]),
            17 * scale), palm_colour))
    side = n * a_wid * 0.95
    tb = palm[:2] + side - u * 10 * scale
    tt = tb + (u * 0.6 + n * 0.8) / 1.0 * 50 * scale
    parts.append(HandPart("thumb", _capsule(np.array([*tb, hand.z_mm]),
                                            np.array([*tt, max(hand.z_mm - 10, 8.0)]),
                                            21 * scale), palm_colour))
    return parts
