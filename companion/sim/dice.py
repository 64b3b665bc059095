"""Real dice on a real table: how big they are, how their stickers sit, where they come to rest.

Everything here is a physical property of a player's dice or of a roll, each with the figure it
rests on (docs/simulator.md, "Dice"):

- `DiceSet`: one colour of dice a player owns. Dice sold as "16 mm" measure 15-16 mm (and 15 mm
  dice are common); their edges are rounded with a radius of 1-2 mm, so the flat part of a face
  is only 11-14 mm across, less than the 14 mm sticker. A quarter of the tables use glossy label
  paper (or tape over the stickers): the sticker then mirrors the lamp like a sleeve.
- `StickerFit`: how a person cut and stuck one face sticker: cut up to 0.3 mm either side of the
  printed line, stuck up to 0.8 mm off the face's centre and turned up to 5 degrees.
- `face_texture`: the face as it looks flat (body, sticker, marker or pips), with a mask of the
  sticker paper; the renderer shades it with the rounded edges' normals (`edge_normals`).
- `rolled_positions`: dice thrown together from one hand land in a cluster and often touch.
- `separate`: two dice never overlap: overlapping footprints are pushed apart until they touch.
- `resting_tilt`: a die lying across a card's edge is cocked by the step under it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.printing.sizes import DIE_MARKER_MM, DIE_MM, DIE_STICKER_MM

DIE_SIZE_MM = (15.0, 16.0)
"""Edge of a player's dice: "16 mm" dice measure 15.5-16 mm, and many players own 15 mm ones."""
EDGE_RADIUS_MM = (1.0, 2.0)
"""Radius of a die's rounded edges (ordinary rounded dice; casino dice would be sharp)."""
GLOSSY_STICKER_SHARE = 0.25
"""Share of tables whose die stickers shine: glossy label paper, or clear tape over the paper."""
CUT_MM = 0.3  # a cut with scissors along a printed line strays this far either side
STICK_OFFSET_MM = 0.8  # a sticker put on by eye lands this far off the face's centre at most
STICK_TURN_DEG = 5.0  # ... and turned this much at most
LAND_SPREAD_MM = 10.0  # dice released from one loose fist land within about this (sigma)
TUMBLE_MM = (0.0, 48.0)  # then tumble 0-3 die lengths on paper over a cloth or a table
MAX_TILT_DEG = 35.0  # a die leaning on a higher step (a pile) rests at most this steep


def _hash01(*parts: object) -> float:
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:4], "little") / 2**32


def _gauss(*parts: object) -> float:
    """A deterministic standard normal number from a key (Box-Muller on two hashes)."""
    u1 = max(_hash01("g1", *parts), 1e-12)
    u2 = _hash01("g2", *parts)
    return math.sqrt(-2 * math.log(u1)) * math.cos(2 * math.pi * u2)


@dataclass(frozen=True)
class DiceSet:
    """One colour of dice on one table (a player's white or red dice)."""

    size_mm: float = DIE_MM
    edge_mm: float = 2.0
    glossy_stickers: bool = False

    @property
    def flat_mm(self) -> float:
        """Width of the flat part of a face, inside the rounded edges."""
        return self.size_mm - 2 * self.edge_mm


def dice_set(seed: int, colour: str) -> DiceSet:
    """The dice of one colour on the table of `seed` (every die of a colour is alike)."""
    lo, hi = DIE_SIZE_MM
    size = lo + (hi - lo) * _hash01("die-size", seed, colour)
    elo, ehi = EDGE_RADIUS_MM
    edge = elo + (ehi - elo) * _hash01("die-edge", seed, colour)
    glossy = _hash01("sticker-gloss", seed) < GLOSSY_STICKER_SHARE  # one sheet for the table
    return DiceSet(round(size, 2), round(edge, 2), glossy)


@dataclass(frozen=True)
class StickerFit:
    """How one face sticker was cut and stuck (mm and degrees, in the face's own frame: u to
    the printed right, v to the printed bottom)."""

    du_mm: float = 0.0
    dv_mm: float = 0.0
    turn_deg: float = 0.0
    cut_mm: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # left, top, right,
    # bottom edge: how far outside (+) or inside (-) the printed line the scissors went


def sticker_fit(seed: int, die: str, value: int) -> StickerFit:
    """Cut by hand along the grey line and stuck by eye: offsets roughly normal (sigma a half
    of the largest), bounded by the largest a careful person leaves."""
    def bounded(limit: float, *key: object) -> float:
        return max(-limit, min(limit, 0.5 * limit * _gauss(*key)))

    cut = tuple(CUT_MM * (2 * _hash01("cut", seed, die, value, k) - 1) for k in range(4))
    return StickerFit(bounded(STICK_OFFSET_MM, "du", seed, die, value),
                      bounded(STICK_OFFSET_MM, "dv", seed, die, value),
                      bounded(STICK_TURN_DEG, "turn", seed, die, value),
                      (cut[0], cut[1], cut[2], cut[3]))


def _rotated(points: np.ndarray, turn_deg: float, du: float, dv: float) -> np.ndarray:
    a = math.radians(turn_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray(points @ rot.T + np.array([du, dv]))


def sticker_outline(fit: StickerFit) -> np.ndarray:
    """The cut sticker's corners in face mm (TL, TR, BR, BL), before clipping to the face."""
    h = DIE_STICKER_MM / 2
    left, top, right, bottom = fit.cut_mm
    square = np.array([[-h - left, -h - top], [h + right, -h - top], [h + right, h + bottom],
                       [-h - left, h + bottom]])
    return _rotated(square, fit.turn_deg, fit.du_mm, fit.dv_mm)


def marker_outline(fit: StickerFit) -> np.ndarray:
    """The printed marker's corners in face mm (TL, TR, BR, BL): centred on the printed
    sticker, so it moves and turns with it."""
    h = DIE_MARKER_MM / 2
    square = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    return _rotated(square, fit.turn_deg, fit.du_mm, fit.dv_mm)


def face_texture(side_px: int, size_mm: float, body: tuple[int, int, int],
                 cells: np.ndarray | None, fit: StickerFit,
                 pips: list[tuple[float, float]] | None = None,
                 pip_colour: tuple[int, int, int] = (30, 30, 30),
                 pip_mm: float = 2.9, inked_sticker: bool = False
                 ) -> tuple[np.ndarray, np.ndarray]:
    """One face seen flat (row 0 is the face's printed top): the body colour with either a
    sticker carrying `cells` (the marker's modules, border included, True = ink) or round
    `pips` (face units -1..1). `inked_sticker`: the sticker's margin is printed black (an
    inverted value sticker). Returns the BGR image and the sticker paper's mask (uint8 0/255)."""
    img = np.empty((side_px, side_px, 3), np.uint8)
    img[:] = body
    mask = np.zeros((side_px, side_px), np.uint8)
    scale = side_px / size_mm
    shift = 4  # sub-pixel bits for the polygon fills

    def px(points_mm: np.ndarray) -> np.ndarray:
        p = (np.asarray(points_mm) + size_mm / 2) * scale - 0.5
        return np.asarray(np.round(p * (1 << shift)).astype(np.int32))

    if cells is not None:
        outline = px(sticker_outline(fit))
        cv2.fillConvexPoly(img, outline, (25, 25, 25) if inked_sticker else (242, 242, 242),
                           cv2.LINE_AA, shift)
        cv2.fillConvexPoly(mask, outline, 255, cv2.LINE_AA, shift)
        n = cells.shape[0]
        marker = marker_outline(fit)
        if inked_sticker:  # the marker's paper cells, white on the black sticker
            cv2.fillConvexPoly(img, px(marker), (242, 242, 242), cv2.LINE_AA, shift)
        tl, tr, bl = marker[0], marker[1], marker[3]
        du, dv = (tr - tl) / n, (bl - tl) / n
        for row in range(n):
            for col in range(n):
                if not cells[row, col]:
                    continue
                o = tl + du * col + dv * row
                quad = np.array([o, o + du, o + du + dv, o + dv])
                cv2.fillConvexPoly(img, px(quad), (25, 25, 25), cv2.LINE_AA, shift)
    if pips:
        r = pip_mm / 2 * scale
        for x, y in pips:
            centre = np.array([[x * size_mm / 2, y * size_mm / 2]])
            c = px(centre)[0]
            cv2.circle(img, (int(c[0]), int(c[1])), round(r * (1 << shift)), pip_colour, -1,
                       cv2.LINE_AA, shift)
    return img, mask


def edge_normals(grid: int, size_mm: float, edge_mm: float, normal: np.ndarray,
                 right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """(grid, grid, 3) surface normals over a face of a die with rounded edges.

    Inside the flat part the face's own normal; across the rounded band (the outer `edge_mm`
    of each side) the normal turns towards the neighbouring face, up to 45 degrees at the
    cube's edge line (where the neighbour's band takes over), and towards both neighbours
    at a corner. The face is drawn on the sharp cube's square, so the band is stretched to
    the edge line: the shading is right, the silhouette a little too square.
    """
    t = (np.arange(grid, dtype=np.float64) + 0.5) / grid * size_mm - size_mm / 2
    half = size_mm / 2
    edge = max(edge_mm, 1e-6)
    turn = np.clip((np.abs(t) - (half - edge)) / edge, 0, 1) * np.sign(t)  # 0..1 of 45 deg
    tu = np.tan(np.radians(45.0) * turn)
    n = (normal[None, None, :] + tu[None, :, None] * right[None, None, :]
         + tu[:, None, None] * down[None, None, :])
    return np.asarray(n / np.linalg.norm(n, axis=-1, keepdims=True))


def _free_spot(p: np.ndarray, taken: list[np.ndarray], lo: np.ndarray, hi: np.ndarray,
               size_mm: float) -> np.ndarray:
    """The nearest place to `p` (on rings 1 mm apart) where a die touches no other: where a
    die squeezed between several others and the area's edge could not slide off them."""
    for ring in range(1, 400):
        radius = float(ring)
        steps = max(8, int(2 * math.pi * radius))
        for k in range(steps):
            a = 2 * math.pi * k / steps
            c = p + radius * np.array([math.cos(a), math.sin(a)])
            if (c < lo).any() or (c > hi).any():
                continue
            if all(np.linalg.norm(c - q) >= size_mm for q in taken):
                return c
    raise ValueError("no room left for another die in the dice area")


def rolled_positions(area: tuple[float, float, float, float], count: int,
                     rng: np.random.Generator | None = None, seed: int = 0,
                     size_mm: float = DIE_MM) -> list[tuple[float, float]]:
    """Where `count` dice thrown together from one hand into `area` (x, y, w, h mm) rest.

    Released from one point over the area, they land within `LAND_SPREAD_MM` of it (a loose
    fist) and tumble 0-3 die lengths in random directions; a die that would end inside
    another stops against it (centres a die's width apart), and none leaves the area. So they
    come to rest in a cluster and often touch; their exact contact depends on their turn,
    which `separate` settles once that is known.
    """
    rng = rng or np.random.default_rng([seed, 606])
    x0, y0, w, h = area
    margin = size_mm * 0.75
    lo = np.array([x0 + margin, y0 + margin])
    hi = np.array([x0 + w - margin, y0 + h - margin])
    release = lo + (hi - lo) * (0.2 + 0.6 * rng.random(2))
    out: list[np.ndarray] = []
    for _ in range(count):
        land = release + rng.normal(0, LAND_SPREAD_MM, 2)
        angle = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(*TUMBLE_MM)
        step = np.array([math.cos(angle), math.sin(angle)])
        p = np.clip(land, lo, hi)
        travelled = 0.0
        while travelled < dist:  # tumble in small steps; stop against a die or the area's edge
            nxt = p + step * 1.0
            if (nxt < lo).any() or (nxt > hi).any():
                break
            if any(np.linalg.norm(nxt - q) < size_mm for q in out):
                break
            p = nxt
            travelled += 1.0
        for _ in range(200):  # landed on another die: it slides off to touch it
            clash = [q for q in out if np.linalg.norm(p - q) < size_mm]
            if not clash:
                break
            q = clash[0]
            away = p - q
            norm = float(np.linalg.norm(away))
            away = away / norm if norm > 1e-6 else np.array([1.0, 0.0])
            p = np.clip(q + away * (size_mm + 0.01), lo, hi)
            if np.linalg.norm(p - q) < size_mm:  # pinned at the area's edge: go round it
                p = np.clip(q + np.array([-away[1], away[0]]) * (size_mm + 0.01), lo, hi)
        if any(np.linalg.norm(p - q) < size_mm for q in out):
            p = _free_spot(p, out, lo, hi, size_mm)
        out.append(p)
    return [(float(p[0]), float(p[1])) for p in out]


def footprint(x: float, y: float, yaw_deg: float, size_mm: float) -> np.ndarray:
    """A die's square footprint (4x2 mm)."""
    a = math.radians(yaw_deg)
    ux = np.array([math.cos(a), math.sin(a)]) * size_mm / 2
    uy = np.array([-math.sin(a), math.cos(a)]) * size_mm / 2
    c = np.array([x, y])
    return np.array([c - ux - uy, c + ux - uy, c + ux + uy, c - ux + uy])


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test of two convex quads (touching is not overlapping)."""
    for quad in (a, b):
        for k in range(4):
            edge = quad[(k + 1) % 4] - quad[k]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() + 1e-9 or pb.max() <= pa.min() + 1e-9:
                return False
    return True


def separate(dice: Sequence[tuple[float, float, float, float]],
             movable: Sequence[bool] | None = None) -> list[tuple[float, float]]:
    """Dice (x, y, yaw, size) whose footprints overlap are pushed apart along the line between
    their centres until they just touch (two solid cubes never overlap). Dice that are not
    `movable` stay where they are."""
    pos = [np.array([d[0], d[1]], float) for d in dice]
    yaws = [d[2] for d in dice]
    sizes = [d[3] for d in dice]
    free = list(movable) if movable is not None else [True] * len(pos)

    def foot(k: int, p: np.ndarray) -> np.ndarray:
        return footprint(float(p[0]), float(p[1]), yaws[k], sizes[k])

    for _ in range(60):
        moved = False
        for i in range(len(pos)):
            for j in range(i + 1, len(pos)):
                if not (free[i] or free[j]) or not _overlap(foot(i, pos[i]), foot(j, pos[j])):
                    continue
                d = pos[j] - pos[i]
                norm = float(np.linalg.norm(d))
                if norm > 1e-6:
                    d = d / norm
                else:  # dice on the very same spot: each pair parts its own way
                    turn = 2.399963 * (i * len(pos) + j)  # the golden angle
                    d = np.array([math.cos(turn), math.sin(turn)])
                share_i = 0.5 if free[i] and free[j] else (1.0 if free[i] else 0.0)
                lo, hi = 0.0, (sizes[i] + sizes[j])  # how far apart they must move: bisect
                for _ in range(30):
                    mid = (lo + hi) / 2
                    if _overlap(foot(i, pos[i] - d * mid * share_i),
                                foot(j, pos[j] + d * mid * (1 - share_i))):
                        lo = mid
                    else:
                        hi = mid
                pos[i] = pos[i] - d * hi * share_i
                pos[j] = pos[j] + d * hi * (1 - share_i)
                moved = True
        if not moved:
            break
    return [(float(p[0]), float(p[1])) for p in pos]


def resting_tilt(supports: Sequence[float], size_mm: float) -> tuple[float, float, float]:
    """How a die whose four bottom corners (in the die's own frame: -x-y, +x-y, +x+y, -x+y)
    stand over surfaces of these heights comes to rest: (tilt about its own y axis, tilt
    about its own x axis, degrees; height of its lowest corner). A die across the edge of a
    sleeved card (0.55 mm) leans about 2 degrees; across a pile's edge it leans on the pile,
    at most `MAX_TILT_DEG`."""
    h = np.asarray(supports, float)
    dx = (h[1] + h[2] - h[0] - h[3]) / 2  # higher on the +x side
    dy = (h[2] + h[3] - h[0] - h[1]) / 2
    limit = math.sin(math.radians(MAX_TILT_DEG))
    tx = math.degrees(math.asin(max(-limit, min(limit, dx / size_mm))))
    ty = math.degrees(math.asin(max(-limit, min(limit, dy / size_mm))))
    return tx, ty, float(h.min())
