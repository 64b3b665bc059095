"""Cards the camera sees but cannot read: a card-shaped patch in a zone where no sticker read.

A laptop's camera sees the far half of the mat at 0.5-0.9 px per mm: too few pixels for a
sticker, plenty for a card: a card (its art, its coloured frame, a back's print, a pile's side)
is not the mat. So on the mat seen from above (the frame warped through the mat fit's
homography, one pixel a millimetre) whatever is not the mat (its colour learnt where no card
goes, its lightness under the lamp's falloff, less its thin print) is "something"; the cards
the tracker holds are cut out of it at their places, and what is left is looked at zone by
zone:

- a zone that holds one card (a slot, a pile) holds a card nobody read when most of its middle
  (the part no neighbour's card reaches over) is something;
- an area (a lane, a home) holds as many unread cards as its card-sized patches of something
  cover card faces.

Each is reported as an `Unreadable` place with the cause `far` (the place gets fewer pixels per
millimetre than a sticker needs: `FAR_PX_PER_MM`) or `unidentified` (it gets enough; its
sticker is hidden or turned away), never with a guessed identity. `CardShapeWatch` steadies
what is reported the way the glare watch does (two looks in a row agree), on still frames only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.snapshot import SeenCard, Unreadable
from companion.vision.steady_places import SteadyPlaces

if TYPE_CHECKING:
    from companion.layouts import MatLayout
    from companion.vision.geometry import MatGeometry

WHITE_SHARE = 0.72  # darker than this share of the mat's local lightness (or lighter than it
# by as much) is print, a card or a shadow, not the mat
OFF_COLOUR = 14.0  # Lab a-b distance from the mat's colour beyond which a pixel is something
MAT_LIGHT = (0.6, 1.3)  # the mat's lightness anywhere, in shares of its usual (lamp falloff)
EDGE_MM = 45  # the mat's border strip, with its corner markers, is not where its colour is learnt
CORE_SHARE = 0.5  # a one-card zone holds a card when this share of its middle is something
CORE_MARGIN_MM = (6.0, 14.0)  # a one-card zone's middle: its rectangle less this (x, y), where
# a neighbour's card (88 mm long in 60 mm rows) reaches over
AREA_SHARE = 0.45  # a patch in an area counts a card per this share of a card's face
CUT_MARGIN_MM = 3.0  # a card the tracker holds is cut out this much larger than its face
FAR_PX_PER_MM = 1.3  # fewer pixels a millimetre than this: too far to read a sticker (a 25 mm
# big-cell sticker is 10 cells with its quiet zone, 2.5 mm a cell: 3.25 px a cell at 1.3 px per
# mm, where `companion calibrate`'s "good" begins, 3 px a cell)
HOLE_MM2 = 1500.0  # a white hole this small inside something is a card's sticker or text box
# (25 x 25 mm, 55 x 20 mm); an empty slot between cards is over 2000 mm2
ONE_CARD_KINDS = ("slot", "pile")


@dataclass(frozen=True)
class CardShape:
    """A card-shaped patch of the mat in a zone: where, and how many cards it stands for."""

    zone: str
    x_mm: float
    y_mm: float
    cards: int = 1


def something(mat_view: np.ndarray, layout: MatLayout,
              in_view: np.ndarray | None = None) -> np.ndarray:
    """0/1 mask of the mat seen from above: 1 where the picture is not the mat itself (its
    paper or cloth, under the lamp's falloff, and its thin print): a card, a die, a pile's
    side, a hand. The mat's colour is learnt from the picture, where no card goes (outside
    the zones), so a white paper mat and a green cloth one are both the mat. `in_view`: where
    the camera sees the mat at all (beyond the picture's edge nothing is something)."""
    colour = mat_view if mat_view.ndim == 3 else cv2.cvtColor(mat_view, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB).astype(np.float32)
    light, chroma = lab[..., 0], lab[..., 1:]
    seen = np.ones(light.shape, bool) if in_view is None else in_view.astype(bool)
    bare = _outside_zones(layout, light.shape) & seen
    if not bare.any():
        bare[:] = True
    paper = np.median(chroma[bare], axis=0)
    off_colour = np.linalg.norm(chroma - paper, axis=2) > OFF_COLOUR
    # the mat's own lightness where it shows, spread over what lies on it: the lamp's falloff
    # (a few pixels clear of anything off the mat's colour: the blur carries a bright card's
    # edge onto the mat beside it)
    # edge onto the mat beside it), and of the mat's own lightness give or take the lamp's
    # falloff (a light part of a card in the mat's colour is no measure of the mat)
    usual = float(np.median(light[bare]))
    mat_like = ((light > MAT_LIGHT[0] * usual) & (light < MAT_LIGHT[1] * usual)
                & ~off_colour).astype(np.uint8)
    mat_like = cv2.erode(mat_like, np.ones((9, 9), np.uint8)) > 0
    mat_light = np.where(mat_like, cv2.GaussianBlur(light, (0, 0), 3), 0).astype(np.float32)
    spread = cv2.dilate(mat_light, np.ones((41, 41), np.uint8))
    spread = cv2.GaussianBlur(spread, (0, 0), 20)
    mask = off_colour | (light < WHITE_SHARE * spread) | (light > spread / WHITE_SHARE)
    out = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN,
                           np.ones((3, 3), np.uint8))  # the print's thin lines
    return filled(out) * cv2.erode(seen.astype(np.uint8), np.ones((5, 5), np.uint8))


def _outside_zones(layout: MatLayout, shape: tuple[int, ...]) -> np.ndarray:
    """Where no card goes: the mat outside every zone, a card's half-width clear of them,
    and not on the corner markers' squares (kept clear of the picture's warped border)."""
    free = np.ones(shape[:2], np.uint8)
    for zone in layout.zones.values():
        pad_x, pad_y = layout.card_w_mm / 2, layout.card_h_mm / 2
        cv2.rectangle(free, (int(zone.x_mm - pad_x), int(zone.y_mm - pad_y)),
                      (int(zone.x_mm + zone.w_mm + pad_x), int(zone.y_mm + zone.h_mm + pad_y)),
                      0, -1)
    free[:, :EDGE_MM] = free[:, -EDGE_MM:] = 0
    free[:EDGE_MM, :] = free[-EDGE_MM:, :] = 0
    return free.astype(bool)


def filled(mask: np.ndarray) -> np.ndarray:
    """`mask` with its small holes filled: a card's white sticker and text box, inside its art
    and frame, are part of the card; the white paper of an empty slot between cards is not."""
    out = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - out, connectivity=4)
    small = np.nonzero(stats[:, cv2.CC_STAT_AREA] <= HOLE_MM2)[0]
    small = small[small > 0] if count else small
    out[np.isin(labels, small)] = 1
    return out


def mat_view(image: np.ndarray, geometry: MatGeometry, layout: MatLayout
             ) -> tuple[np.ndarray, np.ndarray]:
    """The frame warped onto the mat, one pixel a millimetre, and where the picture covers
    the mat (1) or ends before it (0)."""
    size = (math.ceil(layout.width_mm), math.ceil(layout.height_mm))
    homography = geometry.homography.astype(np.float64)
    view = cv2.warpPerspective(image, homography, size)
    covered = cv2.warpPerspective(np.ones(image.shape[:2], np.uint8), homography, size,
                                  flags=cv2.INTER_NEAREST, borderValue=0)
    return view, covered


def cut_out(mask: np.ndarray, cards: Sequence[SeenCard], layout: MatLayout) -> np.ndarray:
    """`mask` less the faces of the cards the tracker holds (a little larger)."""
    out = mask.copy()
    w, h = layout.card_w_mm + 2 * CUT_MARGIN_MM, layout.card_h_mm + 2 * CUT_MARGIN_MM
    for card in cards:
        if card.x_mm is None or card.y_mm is None:
            continue
        box = cv2.boxPoints(((card.x_mm, card.y_mm), (w, h), card.angle_deg))
        cv2.fillPoly(out, [np.round(box).astype(np.int32)], 0)
    return out


def card_shapes(mask: np.ndarray, layout: MatLayout, held: Sequence[SeenCard]) -> list[CardShape]:
    """The unread cards in `mask` (something, the held cards already cut out), zone by zone.
    A one-card zone whose card the tracker holds is left alone."""
    face = layout.card_w_mm * layout.card_h_mm
    held_zones = {c.zone for c in held}
    out: list[CardShape] = []
    for zone in layout.zones.values():
        x0, y0 = round(zone.x_mm), round(zone.y_mm)
        x1, y1 = round(zone.x_mm + zone.w_mm), round(zone.y_mm + zone.h_mm)
        if zone.kind in ONE_CARD_KINDS:
            if zone.id in held_zones:
                continue
            mx, my = CORE_MARGIN_MM if zone.kind == "slot" else (CORE_MARGIN_MM[0],) * 2
            core = mask[int(y0 + my):int(y1 - my), int(x0 + mx):int(x1 - mx)]
            if core.size and float(core.mean()) >= CORE_SHARE:
                ys, xs = np.nonzero(core)
                out.append(CardShape(zone.id, round(float(xs.mean()) + x0 + mx, 1),
                                     round(float(ys.mean()) + y0 + my, 1)))
            continue
        part = np.ascontiguousarray(mask[y0:y1, x0:x1])
        if not part.size:
            continue
        count, _labels, stats, centres = cv2.connectedComponentsWithStats(part, connectivity=8)
        for k in range(1, count):
            n = int(stats[k, cv2.CC_STAT_AREA] / (AREA_SHARE * face) + 1e-9)
            if n >= 1:
                cx, cy = (float(v) for v in centres[k])
                out.append(CardShape(zone.id, round(cx + x0, 1), round(cy + y0, 1), n))
    return out


def unread_cards(image: np.ndarray, geometry: MatGeometry, layout: MatLayout,
                 held: Sequence[SeenCard]) -> list[Unreadable]:
    """The cards the camera sees on the mat and nobody read: one `Unreadable` place per card,
    its cause `far` where the place is too far from the camera to read a sticker."""
    view, covered = mat_view(image, geometry, layout)
    mask = cut_out(something(view, layout, covered), held, layout)
    out = []
    for shape in card_shapes(mask, layout, held):
        far = geometry.px_per_mm(shape.x_mm, shape.y_mm) < FAR_PX_PER_MM
        out += [Unreadable(shape.zone, shape.x_mm, shape.y_mm,
                           cause="far" if far else "unidentified")] * shape.cards
    return out


class CardShapeWatch:
    """The unread cards the eye reports, looked for beside the glare watch (still frames,
    twice a second) and steadied the same way. A zone the lamp's reflection covers is the
    glare watch's: a card there is reported once, as under the reflection."""

    def __init__(self) -> None:
        self._steady = SteadyPlaces()

    @property
    def reported(self) -> tuple[Unreadable, ...]:
        return self._steady.reported

    def look(self, image: np.ndarray, geometry: MatGeometry, layout: MatLayout,
             held: Sequence[SeenCard], glare: Sequence[Unreadable] = ()
             ) -> tuple[Unreadable, ...]:
        """One look at a still frame; returns what is reported after it."""
        covered = {u.zone for u in glare}
        steady = self.report([u for u in unread_cards(image, geometry, layout, held)
                              if u.zone not in covered])
        # a card read since in a one-card zone is that zone's card: its report goes at once
        read = {c.zone for c in held}
        return tuple(u for u in steady
                     if not (u.zone in read and u.zone in layout.zones
                             and layout.zones[u.zone].kind in ONE_CARD_KINDS))

    def report(self, found: Sequence[Unreadable]) -> tuple[Unreadable, ...]:
        return self._steady.report(found)

    def forget(self) -> None:
        self._steady.forget()
