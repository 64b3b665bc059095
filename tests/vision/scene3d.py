"""A small, independent 3D table for the vision unit tests: a pinhole camera over a mat with
card stickers, dice as real 16 mm cubes (every face marked, side faces visible), hands of any
colour, and a mirrored or turned picture.

It shares nothing with `companion.sim` (the benchmark's simulator) but the marker images, so a
unit test's truth is worked out here, independently of the code under test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.layouts import MatLayout, load_layout
from companion.markers.payload import die_face_id
from companion.markers.render import aruco_image, card_back_image, card_front_image
from companion.markers.value_faces import value_cells

TEXTURE_PX_PER_MM = 5
FACE_PX_PER_MM = 12
DIE_MM = 16.0
DIE_MARKER_MM = 12.0
DIE_STICKER_MM = 14.0
MAT_BGR = (70, 110, 60)
TABLE_BGR = (60, 80, 110)
BODY_BGR = {"w": (235, 235, 235), "r": (40, 40, 190), "c": (60, 170, 200)}
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclass(frozen=True)
class Camera:
    """Looks at (aim_x, aim_y) on the mat from `tilt_deg` off vertical, standing on player 1's
    side (or turned by `yaw_deg`), `dist_mm` from the aim point."""

    tilt_deg: float = 30.0
    dist_mm: float = 650.0
    yaw_deg: float = 0.0
    size: tuple[int, int] = (1920, 1080)
    hfov_deg: float = 65.0
    aim: tuple[float, float] = (300.0, 200.0)

    @property
    def k(self) -> np.ndarray:
        w, h = self.size
        f = (w / 2) / math.tan(math.radians(self.hfov_deg) / 2)
        return np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])

    @property
    def rt(self) -> tuple[np.ndarray, np.ndarray]:
        """Rotation and translation, world = mat mm with z into the table."""
        t, y = math.radians(self.tilt_deg), math.radians(self.yaw_deg)
        rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
        rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
        r = rx @ rz
        aim = np.array([*self.aim, 0.0])
        return r, np.array([0, 0, self.dist_mm]) - r @ aim

    @property
    def centre(self) -> np.ndarray:
        r, t = self.rt
        return np.asarray(-r.T @ t)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N x 3, z into the table) to pixels (N x 2)."""
        r, t = self.rt
        cam = np.asarray(points, float) @ r.T + t
        img = cam @ self.k.T
        return np.asarray(img[:, :2] / img[:, 2:3])

    def mat_homography(self) -> np.ndarray:
        r, t = self.rt
        return np.asarray(self.k @ np.column_stack([r[:, 0], r[:, 1], t]))


@dataclass(frozen=True)
class Die:
    name: str  # "p1.w1"
    value: int
    x_mm: float
    y_mm: float
    yaw_deg: float = 0.0
    pips: bool = False  # an ordinary die: pips instead of markers
    side_values: tuple[int, int] | None = None  # values on the +u and +v faces
    glare: bool = False  # a lamp's reflection washes the top face out
    values: bool = False  # value stickers (companion print dice --faces values) on its faces


@dataclass(frozen=True)
class Sticker:
    payload: str
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    back: bool = False
    card: bool = True  # a 63 x 88 mm card around it


@dataclass(frozen=True)
class Blob:
    """A hand and arm: a thick polyline from outside the picture (mat mm), any colour."""

    points: tuple[tuple[float, float], ...]
    width_mm: float = 70.0
    bgr: tuple[int, int, int] = (90, 130, 190)


@dataclass
class Scene:
    layout: MatLayout = field(default_factory=lambda: load_layout("creature-crush"))
    stickers: list[Sticker] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    blobs: list[Blob] = field(default_factory=list)
    corners: tuple[int, ...] = (0, 1, 2, 3)


def _paste(texture: np.ndarray, image: np.ndarray, x_mm: float, y_mm: float,
           angle_deg: float = 0.0) -> None:
    """Put a grey/colour image centred at (x, y) mm, rotated, onto the texture."""
    img = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    c = (x_mm * TEXTURE_PX_PER_MM, y_mm * TEXTURE_PX_PER_MM)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), -angle_deg, 1.0)
    m[:, 2] += np.array(c) - np.array([w / 2, h / 2])
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, texture.shape[1::-1],
                          flags=cv2.INTER_NEAREST)
    warped = cv2.warpAffine(img, m, texture.shape[1::-1], flags=cv2.INTER_LINEAR)
    texture[mask > 0] = warped[mask > 0]


def mat_texture(scene: Scene) -> np.ndarray:
    layout = scene.layout
    tex = np.empty((int(layout.height_mm * TEXTURE_PX_PER_MM),
                    int(layout.width_mm * TEXTURE_PX_PER_MM), 3), np.uint8)
    tex[:] = MAT_BGR
    for corner in layout.corners:
        if corner.index in scene.corners:
            side = int(corner.size_mm * TEXTURE_PX_PER_MM)
            white = np.full((int(side * 1.3),) * 2, 255, np.uint8)
            _paste(tex, white, corner.x_mm, corner.y_mm)
            _paste(tex, aruco_image(corner.marker_id, side), corner.x_mm, corner.y_mm)
    module_px = round(layout.sticker_mm / 13 * TEXTURE_PX_PER_MM)
    for s in scene.stickers:
        if s.card:
            card = np.full((int(88 * TEXTURE_PX_PER_MM), int(63 * TEXTURE_PX_PER_MM), 3),
                           (120, 60, 40) if s.back else (225, 228, 232), np.uint8)
            _paste(tex, card, s.x_mm, s.y_mm, s.angle_deg)
        img = (card_back_image if s.back else card_front_image)(s.payload, module_px)
        _paste(tex, img, s.x_mm, s.y_mm, s.angle_deg)
    return tex


def _face_values(die: Die) -> dict[str, int]:
    v = die.value
    if die.side_values is not None:
        a, b = die.side_values
    else:
        a, b = [p for p in (1, 2, 3) if p not in (v, 7 - v)]
    return {"top": v, "+u": a, "-u": 7 - a, "+v": b, "-v": 7 - b}


def _face_texture(die: Die, value: int) -> np.ndarray:
    kind = die.name.split(".")[1][0]
    body = BODY_BGR.get(kind, BODY_BGR["w"])
    side = int(DIE_MM * FACE_PX_PER_MM)
    face = np.empty((side, side, 3), np.uint8)
    face[:] = body
    if die.pips:
        ink = (30, 30, 30) if kind == "w" else (245, 245, 245)
        step = 4.2 * FACE_PX_PER_MM
        for dx, dy in PIPS[value]:
            centre = (round(side / 2 + dx * step), round(side / 2 + dy * step))
            cv2.circle(face, centre, round(1.5 * FACE_PX_PER_MM), ink, -1, cv2.LINE_AA)
        return face
    sticker = int(DIE_STICKER_MM * FACE_PX_PER_MM)
    o = (side - sticker) // 2
    if die.values:  # the value's 5 x 5 cells; a red die's sticker printed inverted
        cells = value_cells(value)
        inverted = kind == "r"
        face[o:o + sticker, o:o + sticker] = 20 if inverted else 245
        size = int(DIE_MARKER_MM * FACE_PX_PER_MM)
        ink = cells != inverted  # True: printed black
        marker = cv2.resize(np.where(ink, 20, 245).astype(np.uint8), (size, size),
                            interpolation=cv2.INTER_NEAREST)
        m = (side - size) // 2
        face[m:m + size, m:m + size] = marker[..., None]
        return face
    face[o:o + sticker, o:o + sticker] = 245
    marker = aruco_image(die_face_id(die.name, value), int(DIE_MARKER_MM * FACE_PX_PER_MM))
    m = (side - marker.shape[0]) // 2
    face[m:m + marker.shape[0], m:m + marker.shape[0]] = marker[..., None]
    return face


def _die_faces(die: Die) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(face name, 4 world corners TL TR BR BL seen from outside, outward normal)."""
    a = math.radians(die.yaw_deg)
    u = np.array([math.cos(a), math.sin(a), 0.0])
    v = np.array([-math.sin(a), math.cos(a), 0.0])
    up = np.array([0.0, 0.0, -1.0])  # z points into the table
    c = np.array([die.x_mm, die.y_mm, 0.0])
    h = DIE_MM / 2
    centre = c + up * h
    faces = []
    # each face: outward normal n, and its in-face "right" and "down" directions
    for name, n, right, down in (
        ("top", up, u, v),
        ("+u", u, v, -up),
        ("-u", -u, -v, -up),
        ("+v", v, -u, -up),
        ("-v", -v, u, -up),
    ):
        fc = centre + n * h
        corners = np.array([fc - right * h - down * h, fc + right * h - down * h,
                            fc + right * h + down * h, fc - right * h + down * h])
        faces.append((name, corners, n))
    return faces


def _draw_die(image: np.ndarray, camera: Camera, die: Die) -> None:
    values = _face_values(die)
    cam_c = camera.centre
    for name, corners, normal in _die_faces(die):
        if float((cam_c - corners.mean(axis=0)) @ normal) <= 0:
            continue
        tex = _face_texture(die, values[name])
        if name == "top" and die.glare:
            tex = np.full_like(tex, 252)
        if name != "top":
            tex = (tex.astype(np.float32) * 0.78).astype(np.uint8)  # side faces in shade
        side = tex.shape[0]
        src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
        dst = camera.project(corners).astype(np.float32)
        hom = cv2.getPerspectiveTransform(src, dst)
        size = (image.shape[1], image.shape[0])
        warped = cv2.warpPerspective(tex, hom, size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full(tex.shape[:2], 255, np.uint8), hom, size,
                                   flags=cv2.INTER_NEAREST)
        image[mask > 0] = warped[mask > 0]


def render(scene: Scene, camera: Camera, *, mirror: bool = False, turn: bool = False,
           blur: float = 0.7, noise: float = 3.0, jpeg: int = 90, seed: int = 0,
           gain: float = 1.0) -> np.ndarray:
    """The camera's BGR picture of the scene (optionally mirrored and/or turned 180)."""
    tex = mat_texture(scene)
    scale = np.diag([1 / TEXTURE_PX_PER_MM, 1 / TEXTURE_PX_PER_MM, 1.0])
    image = cv2.warpPerspective(tex, camera.mat_homography() @ scale, camera.size,
                                flags=cv2.INTER_AREA, borderValue=TABLE_BGR)
    cam_c = camera.centre
    for die in sorted(scene.dice, key=lambda d: -math.hypot(d.x_mm - cam_c[0],
                                                            d.y_mm - cam_c[1])):
        _draw_die(image, camera, die)
    for blob in scene.blobs:
        pts = camera.project(np.array([[x, y, -30.0] for x, y in blob.points]))
        x, y = blob.points[-1]
        ends = camera.project(np.array([[x, y, -30.0], [x + blob.width_mm, y, -30.0]]))
        width = max(2, int(np.linalg.norm(ends[1] - ends[0])))
        cv2.polylines(image, [pts.astype(np.int32)], False, blob.bgr, width, cv2.LINE_AA)
    rng = np.random.default_rng(seed)
    out = image.astype(np.float32) * gain
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    image = np.clip(out, 0, 255).astype(np.uint8)
    if jpeg < 100:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        assert ok
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if mirror:
        image = cv2.flip(image, 1)
    if turn:
        image = cv2.rotate(image, cv2.ROTATE_180)
    return np.ascontiguousarray(image)


def dice_row(names: Sequence[str], values: Sequence[int], x0: float, y: float,
             pitch: float = 24.0, pips: bool = False) -> list[Die]:
    return [Die(n, v, x0 + i * pitch, y, yaw_deg=11.0 * i, pips=pips)
            for i, (n, v) in enumerate(zip(names, values, strict=True))]
