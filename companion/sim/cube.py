"""A die as a cube in the world: which value is on which face, where each face is.

An ordinary die has opposite faces summing to 7. `CANONICAL` fixes one (right-handed) die:
the face normals of the die at rest in its own frame and the value on each. For a given top
value the die is turned by the first of the 24 cube rotations (in a fixed order) that brings
that value up, then spun about the vertical by its yaw: so the side values a camera sees are
those of a real die, and every render of the same die is the same.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

CANONICAL: dict[tuple[int, int, int], int] = {
    (0, 0, 1): 1, (0, 0, -1): 6,
    (1, 0, 0): 2, (-1, 0, 0): 5,
    (0, 1, 0): 3, (0, -1, 0): 4,
}
"""Outward normal -> value. 1, 2, 3 meet counter-clockwise at a corner, as on Western dice."""

UP_HINT: dict[tuple[int, int, int], tuple[int, int, int]] = {
    (0, 0, 1): (0, -1, 0), (0, 0, -1): (0, 1, 0),
    (1, 0, 0): (0, 0, 1), (-1, 0, 0): (0, 0, 1),
    (0, 1, 0): (0, 0, 1), (0, -1, 0): (0, 0, 1),
}
"""Per face (canonical frame), the direction its printed "up" points to."""


@lru_cache(maxsize=1)
def _rotations() -> list[np.ndarray]:
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), int)
            for row, (col, s) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = s
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return out


@lru_cache(maxsize=6)
def resting_rotation(top: int) -> np.ndarray:
    """The integer rotation that turns the canonical die so `top` faces up."""
    if not 1 <= top <= 6:
        raise ValueError(f"a die shows 1-6, not {top}")
    normal = next(n for n, v in CANONICAL.items() if v == top)
    for m in _rotations():
        if tuple(m @ np.array(normal)) == (0, 0, 1):
            return m
    raise AssertionError("no rotation brings the face up")  # pragma: no cover


@dataclass(frozen=True)
class Face:
    value: int
    normal: np.ndarray  # outward, world
    corners: np.ndarray  # 4x3 world, printed order: top-left, top-right, bottom-right, bottom-left
    centre: np.ndarray


@dataclass(frozen=True)
class Cube:
    """A die of edge `size_mm` standing on a surface at height `base_mm`, `top` facing up.

    A cocked die (lying across a card's edge) is tilted by `tilt_x_deg` about its own y axis
    (its +x side up) and `tilt_y_deg` about its own x axis (its +y side up); its lowest corner
    stays at `base_mm`.
    """

    x_mm: float
    y_mm: float
    top: int
    yaw_deg: float = 0.0
    size_mm: float = 16.0
    base_mm: float = 0.0
    tilt_x_deg: float = 0.0
    tilt_y_deg: float = 0.0

    def rotation(self) -> np.ndarray:
        a = math.radians(self.yaw_deg)
        yaw = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
        rest = yaw @ resting_rotation(self.top)
        if self.tilt_x_deg == 0 and self.tilt_y_deg == 0:
            return np.asarray(rest)
        bx, by = math.radians(self.tilt_x_deg), math.radians(self.tilt_y_deg)
        # in the die's own (yawed) frame: +x side up is a turn about y by -bx, +y up about x by by
        cx, sx, cy, sy = math.cos(bx), math.sin(bx), math.cos(by), math.sin(by)
        ry = np.array([[cx, 0, -sx], [0, 1, 0], [sx, 0, cx]])
        rx = np.array([[1, 0, 0], [0, cy, -sy], [0, sy, cy]])
        tilt = yaw @ rx @ ry @ yaw.T
        return np.asarray(tilt @ rest)

    @property
    def centre(self) -> np.ndarray:
        lift = self.size_mm / 2
        if self.tilt_x_deg or self.tilt_y_deg:  # the lowest corner rests on the base
            r = self.rotation()
            corners = np.array(list(itertools.product((-1, 1), repeat=3)), float)
            lift = -float((corners @ r.T)[:, 2].min()) * self.size_mm / 2
        return np.array([self.x_mm, self.y_mm, self.base_mm + lift])

    def faces(self, inset_mm: float = 0.0) -> list[Face]:
        """All six faces; `inset_mm` shrinks each face square (a sticker inside the edges)."""
        r = self.rotation()
        h = self.size_mm / 2
        half = h - inset_mm
        out = []
        for normal, value in CANONICAL.items():
            n = r @ np.array(normal, float)
            up = r @ np.array(UP_HINT[normal], float)
            right = np.cross(n, up)  # as seen from outside the face (checked for the top face)
            centre = self.centre + n * h
            corners = np.array([centre + up * half - right * half,
                                centre + up * half + right * half,
                                centre - up * half + right * half,
                                centre - up * half - right * half])
            out.append(Face(value, n, corners, centre))
        return out

    def top_face(self, inset_mm: float = 0.0) -> Face:
        return next(f for f in self.faces(inset_mm) if f.normal[2] > 0.5)

    def visible_faces(self, eye: np.ndarray, inset_mm: float = 0.0) -> list[Face]:
        """Faces turned towards a camera at `eye` (bottom face never: it lies on the table)."""
        return [f for f in self.faces(inset_mm)
                if f.normal[2] > -0.5 and float(f.normal @ (eye - f.centre)) > 1e-9]
