"""Ordinary pip dice, without stickers: white dice with dark pips, red dice with white pips.

Where a die lies: a blob of die colour (white on the mat, red anywhere) about a die's size.
Which face is on top, without guessing: mapped into the plane of the dice tops (16 mm above
the mat, `MatGeometry.plane_homography`), a cube's silhouette is its top face swept towards
the camera by the height of its sides (the side faces, seen at an angle, lie between the top
face and the camera). Eroding the mapped silhouette by that sweep (a line of 16 mm x tan of the
view angle, pointing at the camera) gives back the top face alone, at any view angle; it must
come out a 16 mm square, else the blob is no die (card art, two dice touching, a hand).
The value: the pips inside that square, which must stand where a die's pips stand (a 3x3
grid, the pattern of 1 to 6). Anything else is not read: a die is never guessed.

Pip dice carry no identity. Their names (`p1.w2`, `p2.r1`) come from their colour, the side
of the mat (or the owner of the card they lie on) and where they lay before
(`PipDiceNamer`), which is all the rules need: values per player and zone, and which die
went where.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.die_geometry import DIE_MM
from companion.vision.geometry import CameraProfile, MatGeometry

PATCH_MM = 48.0  # rectified window around a candidate, in the dice-top plane
PATCH_PX_PER_MM = 4.0
FACE_MIN_MM = 12.5  # the eroded top face: a square with rounded corners, 13-16.5 mm wide
FACE_MAX_MM = 17.5
PIP_MIN_MM = 1.8  # pip diameters read
PIP_MAX_MM = 4.8
GRID_TOLERANCE_MM = 1.6
NOMINAL_PITCH_MM = 4.4  # pip grid pitch of a 16 mm die (only needed when one pip shows)
MIN_PIP_CONTRAST = 25.0  # grey levels between a pip and its face
SMALL = 2  # colour masks are computed at half size

PATTERNS: dict[int, set[tuple[int, int]]] = {
    1: {(0, 0)},
    2: {(-1, -1), (1, 1)},
    3: {(-1, -1), (0, 0), (1, 1)},
    4: {(-1, -1), (1, -1), (-1, 1), (1, 1)},
    5: {(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)},
    6: {(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)},
}


@dataclass(frozen=True)
class PipReading:
    """One pip die's top face: its colour ("w" or "r"), value and place on the mat."""

    kind: str
    value: int
    x_mm: float
    y_mm: float
    angle_deg: float  # of the top face's edges, 0..90
    confidence: float


def body_masks(bgr: np.ndarray) -> dict[str, np.ndarray]:
    """Half-size masks of white and red die bodies (pips filled in later)."""
    small = cv2.resize(bgr, (bgr.shape[1] // SMALL, bgr.shape[0] // SMALL),
                       interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    bright = max(90.0, 0.72 * float(np.percentile(v, 99.5)))
    white = (s <= 70) & (v >= bright)
    red = ((h <= 8) | (h >= 168)) & (s >= 100) & (v >= 50)
    return {"w": white, "r": red}


def _pip_grid_value(points_mm: np.ndarray) -> int | None:
    """The die value of pip centres (face coordinates, mm from the face centre), or None when
    they do not stand like a die's pips."""
    n = len(points_mm)
    if not 1 <= n <= 6:
        return None
    if n == 1:
        return 1 if float(np.linalg.norm(points_mm[0])) <= GRID_TOLERANCE_MM * 1.5 else None
    pitch = float(np.abs(points_mm).max())
    if not 2.8 <= pitch <= 6.2:
        return None
    cells = np.round(points_mm / pitch).astype(int)
    if np.abs(cells).max() > 1:
        return None
    if float(np.abs(points_mm - cells * pitch).max()) > GRID_TOLERANCE_MM:
        return None
    got = {(int(a), int(b)) for a, b in cells}
    if len(got) != n:
        return None
    rotated = got
    for _ in range(4):
        if rotated == PATTERNS[n]:
            return n
        rotated = {(b, -a) for a, b in rotated}
    return None


class PipDiceReader:
    """Finds pip dice of the given kinds ("w" white, "r" red) in a frame of a located mat."""

    def __init__(self, kinds: Sequence[str] = ("w", "r"), camera: CameraProfile | None = None
                 ) -> None:
        self.kinds = tuple(kinds)
        self.camera = camera

    def read(self, bgr: np.ndarray, geometry: MatGeometry, mat_size: tuple[float, float],
             box: tuple[int, int, int, int] | None = None) -> list[PipReading]:
        """Every pip die whose top face reads; `box` limits the search (image px)."""
        if bgr.ndim != 3:
            return []
        height, width = bgr.shape[:2]
        x0, y0, x1, y1 = box or (0, 0, width, height)
        roi = bgr[y0:y1, x0:x1]
        pose = geometry.pose((width, height), self.camera)
        mat_to_image = np.linalg.inv(geometry.homography)
        image_to_top = pose.plane_homography(mat_to_image, DIE_MM)
        top_to_image = np.linalg.inv(image_to_top)
        px_per_mm = geometry.px_per_mm(mat_size[0] / 2, mat_size[1] / 2)
        die_px = DIE_MM * px_per_mm / SMALL
        out: list[PipReading] = []
        for kind, mask in body_masks(roi).items():
            if kind not in self.kinds:
                continue
            count, _, stats, centroids = cv2.connectedComponentsWithStats(
                mask.astype(np.uint8), connectivity=8)
            for i in range(1, count):
                area = stats[i, cv2.CC_STAT_AREA]
                if not 0.35 * die_px**2 <= area <= 5.0 * die_px**2:
                    continue
                cx, cy = centroids[i] * SMALL + np.array([x0, y0])
                reading = self._read_one(bgr, kind, (cx, cy), image_to_top, top_to_image, pose,
                                         mat_size)
                if reading is not None:
                    out.append(reading)
        return _unique(out)

    def _read_one(self, bgr: np.ndarray, kind: str, centre_px: tuple[float, float],
                  image_to_top: np.ndarray, top_to_image: np.ndarray, pose: object,
                  mat_size: tuple[float, float]) -> PipReading | None:
        c = cv2.perspectiveTransform(np.array([[centre_px]], np.float64), image_to_top)[0, 0]
        if not (0 <= c[0] <= mat_size[0] and 0 <= c[1] <= mat_size[1]):
            return None
        towards: Callable[[float, float], np.ndarray] = pose.towards_camera  # type: ignore[attr-defined]
        view: Callable[[float, float], float] = pose.view_angle_deg  # type: ignore[attr-defined]
        u = towards(float(c[0]), float(c[1]))
        if not np.any(u):
            u = np.array([0.0, 1.0])
        # patch axes: y along u (towards the camera), x across; patch centre at c
        size = int(PATCH_MM * PATCH_PX_PER_MM)
        across = np.array([u[1], -u[0]])
        scale = 1.0 / PATCH_PX_PER_MM
        half = size / 2.0
        patch_to_top = np.array([
            [across[0] * scale, u[0] * scale, c[0] - half * scale * (across[0] + u[0])],
            [across[1] * scale, u[1] * scale, c[1] - half * scale * (across[1] + u[1])],
            [0.0, 0.0, 1.0],
        ])
        patch_to_image = top_to_image @ patch_to_top
        patch = cv2.warpPerspective(bgr, patch_to_image, (size, size),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE)
        sweep = DIE_MM * math.tan(math.radians(min(view(float(c[0]), float(c[1])), 75.0)))
        found: list[tuple[int, float, float, float, float]] = []
        for mask, length in ((_body(patch, kind, strict=False), sweep),
                             (_body(patch, kind, strict=True), 0.0)):
            face = _top_face(mask, length)
            if face is None:
                continue
            region, (fx, fy), angle, fill = face
            value = self._pips(patch, region, kind, (fx, fy), angle)
            if value is not None:
                found.append((value, fx, fy, angle, fill))
        if not found:
            return None
        value, fx, fy, angle, fill = found[0]
        agree = 3.0 * PATCH_PX_PER_MM
        if any(v != value or math.hypot(x - fx, y - fy) > agree for v, x, y, _, _ in found):
            return None  # two readings that disagree: never guess
        centre_top = patch_to_top @ np.array([fx, fy, 1.0])
        x, y = float(centre_top[0]), float(centre_top[1])
        heading = (math.degrees(math.atan2(across[1], across[0])) + angle) % 90.0
        return PipReading(kind, value, x, y, heading, min(1.0, fill))

    @staticmethod
    def _pips(patch: np.ndarray, face: np.ndarray, kind: str, centre: tuple[float, float],
              angle: float) -> int | None:
        """The value shown by the pips inside `face`, or None. Beyond the pattern, every pip
        must stand out clearly and every empty place of the 3x3 grid must be clearly empty:
        a faint centre pip missed would turn a 5 into a 4."""
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
        inner = cv2.erode(face, np.ones((3, 3), np.uint8)) > 0
        values = grey[inner]
        if values.size < 50:
            return None
        level = float(np.median(values))
        signal = level - grey if kind == "w" else grey - level  # pips: dark on white, light
        peak = float(signal[inner].max())  # on red
        if peak < MIN_PIP_CONTRAST:
            return None
        pips = ((signal > 0.5 * peak) & inner).astype(np.uint8)
        count, _, stats, centroids = cv2.connectedComponentsWithStats(pips, connectivity=8)
        lo = math.pi * (PIP_MIN_MM / 2) ** 2 * PATCH_PX_PER_MM**2
        hi = math.pi * (PIP_MAX_MM / 2) ** 2 * PATCH_PX_PER_MM**2
        a = math.radians(angle)
        rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
        points = []
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA]
            if area < lo * 0.5:
                continue  # noise
            if area > hi:
                return None  # a blot, not a pip: do not guess
            w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
            if max(w, h) > 1.8 * max(min(w, h), 1):
                return None
            points.append(rot @ ((centroids[i] - np.array(centre)) / PATCH_PX_PER_MM))
        if not points:
            return None
        pts = np.array(points)
        value = _pip_grid_value(pts)
        if value is None:
            return None
        pitch = float(np.abs(pts).max()) if value > 1 else NOMINAL_PITCH_MM
        inv = rot.T
        present: list[float] = []
        absent: list[float] = []
        for gx in (-1, 0, 1):
            for gy in (-1, 0, 1):
                spot = inv @ (np.array([gx, gy]) * pitch) * PATCH_PX_PER_MM + np.array(centre)
                r = max(1, int(0.3 * pitch * PATCH_PX_PER_MM))
                x, y = round(float(spot[0])), round(float(spot[1]))
                disc = signal[max(y - r, 0):y + r + 1, max(x - r, 0):x + r + 1]
                if disc.size == 0:
                    return None
                strength = float(disc.mean())
                taken = any(np.hypot(*(p - np.array([gx, gy]) * pitch)) < GRID_TOLERANCE_MM
                            for p in pts)
                (present if taken else absent).append(strength)
        if not present:
            return None
        if absent and min(present) < 2.0 * max(max(absent), 0.1 * peak):
            return None
        if min(present) < 0.4 * max(present):
            return None
        return value


def _body(patch: np.ndarray, kind: str, strict: bool) -> np.ndarray:
    """Die-coloured pixels of a rectified patch, pips filled in. Lenient: the whole body,
    shaded side faces included; strict: only as bright as the brightest face (lit from
    above, that is the top face)."""
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    if kind == "w":
        top = float(cv2.blur(v, (3, 3)).max())
        bright = max(90.0, (0.88 if strict else 0.62) * top)
        mask = (s <= 70) & (v >= bright)
    else:
        red = ((h <= 8) | (h >= 168)) & (s >= 100) & (v >= 50)
        mask = red
        if strict and red.any():
            mask = red & (v >= 0.85 * float(cv2.blur(np.where(red, v, 0).astype(np.uint8),
                                                        (3, 3)).max()))
    return _fill_holes(np.asarray(mask))


def _top_face(body: np.ndarray, sweep_mm: float
              ) -> tuple[np.ndarray, tuple[float, float], float, float] | None:
    """The top face in a patch whose +y points at the camera: the body eroded by the sweep of
    its sides (B = S + {t u}, so S = {p : p + t u in B for all t in [0, L]}), which must be a
    die-sized square. Returns (mask, centre px, angle, fill)."""
    length = round(sweep_mm * PATCH_PX_PER_MM)
    top: np.ndarray = body.astype(np.uint8)
    if length > 0:
        top = cv2.erode(top, np.ones((length + 1, 1), np.uint8), anchor=(0, 0),
                        borderType=cv2.BORDER_CONSTANT, borderValue=0)
    top = cv2.morphologyEx(top, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(top, connectivity=4)
    if count < 2:
        return None
    half = body.shape[0] / 2
    # the component nearest the patch centre (the candidate's die, not a neighbour)
    centres = [(abs(stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] / 2 - half)
                + abs(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] / 2 - half), i)
               for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 40]
    if not centres:
        return None
    best = min(centres)[1]
    face = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    (fx, fy), (fw, fh), angle = cv2.minAreaRect(contours[0])
    fw_mm, fh_mm = fw / PATCH_PX_PER_MM, fh / PATCH_PX_PER_MM
    if not (FACE_MIN_MM <= fw_mm <= FACE_MAX_MM and FACE_MIN_MM <= fh_mm <= FACE_MAX_MM):
        return None
    fill = float(face.sum()) / max(fw * fh, 1.0)
    if fill < 0.82:
        return None
    return face, (float(fx), float(fy)), float(angle), fill


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """The mask with its enclosed holes (the pips) filled."""
    m = mask.astype(np.uint8)
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(m)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out.astype(bool)


def _unique(readings: list[PipReading]) -> list[PipReading]:
    """One reading per die: candidates of one die (split blobs) within 8 mm are merged."""
    out: list[PipReading] = []
    for r in sorted(readings, key=lambda r: -r.confidence):
        if all(math.hypot(r.x_mm - o.x_mm, r.y_mm - o.y_mm) > 8.0 for o in out):
            out.append(r)
    return out


class PipDiceNamer:
    """Gives pip dice the names of the game's dice, steadily over frames.

    Owner: the player whose zone (or, off the zones, whose half of the mat) the die lies in;
    kind: its colour. A die read where a die of that owner and colour lay before keeps that
    die's name; a die read somewhere new takes the name of the die of its owner and colour
    that was seen last but is missing now (the one just picked up and thrown), and only then
    a name never used. More dice than the game has names for are not reported.

    `steady` (value-sticker dice, read on some frames and not on others at a 720p camera): a
    die read somewhere new takes a name never used first, then the one seen longest ago; a
    die merely unread on a frame keeps its name for when it reads again (with the pip rule a
    neighbour read for the first time took it, and the tracker saw one die jump about).
    """

    FORGET_S = 60.0
    SAME_PLACE_MM = 20.0

    def __init__(self, names: Sequence[str], zone_at: Callable[[float, float], str | None],
                 mat_height_mm: float, steady: bool = False) -> None:
        self.names = list(names)
        self.steady = steady
        self.zone_at = zone_at
        self.mat_height_mm = mat_height_mm
        self._last: dict[str, tuple[float, float, float]] = {}  # name -> x, y, time seen

    def owner(self, x_mm: float, y_mm: float) -> str:
        zone = self.zone_at(x_mm, y_mm) or ""
        if zone.startswith(("p1.", "p2.")):
            return zone[:2]
        return "p1" if y_mm >= self.mat_height_mm / 2 else "p2"  # p1 sits at the bottom edge

    def name(self, readings: Sequence[PipReading], time_s: float
             ) -> list[tuple[str, PipReading]]:
        self._last = {n: v for n, v in self._last.items() if time_s - v[2] <= self.FORGET_S}
        groups: dict[tuple[str, str], list[PipReading]] = {}
        for r in readings:
            groups.setdefault((self.owner(r.x_mm, r.y_mm), r.kind), []).append(r)
        out: list[tuple[str, PipReading]] = []
        for (owner, kind), group in groups.items():
            pool = [n for n in self.names if n.startswith(f"{owner}.{kind}")]
            taken: dict[str, PipReading] = {}
            pairs = sorted(
                (math.hypot(r.x_mm - self._last[n][0], r.y_mm - self._last[n][1]), i, n)
                for i, r in enumerate(group) for n in pool if n in self._last)
            matched: set[int] = set()
            for dist, i, n in pairs:
                if dist <= self.SAME_PLACE_MM and i not in matched and n not in taken:
                    taken[n] = group[i]
                    matched.add(i)
            for i, r in enumerate(group):
                if i in matched:
                    continue
                free = [n for n in pool if n not in taken]
                if not free:
                    break
                seen = [n for n in free if n in self._last]
                if self.steady:
                    fresh = [n for n in free if n not in self._last]
                    n = fresh[0] if fresh else min(seen, key=lambda n: self._last[n][2])
                elif seen:
                    n = max(seen, key=lambda n: (self._last[n][2], -math.hypot(
                        r.x_mm - self._last[n][0], r.y_mm - self._last[n][1])))
                else:
                    n = free[0]
                taken[n] = r
            for n, r in taken.items():
                self._last[n] = (r.x_mm, r.y_mm, time_s)
                out.append((n, r))
        return out
