"""The synthetic table: what a camera above the mat sees, with ground truth for every frame.

A frame is composed top-down in mat millimetres on a canvas (the static mat is drawn once; card
images are drawn once per payload and cached), then warped by one homography from the camera
pose and degraded like a webcam picture (blur, noise, uneven light, JPEG). The same marker
generator as the printer (`companion.markers.render`) draws every sticker.

Ground truth comes from a label buffer drawn alongside the canvas: a marker counts as visible
only when nothing (a card on top, a die, a hand) covers any part of it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from companion.markers import bigcell
from companion.markers.payload import decode_aruco
from companion.markers.render import (
    Symbology,
    aruco_modules,
    card_back_modules,
    card_front_modules,
)
from companion.printing.sizes import DIE_MARKER_MM, DIE_MM, DIE_STICKER_MM, TOKEN_MARKER_MM
from companion.sim.camera import CameraProfile, Degradation, mat_to_image, project
from companion.sim.hands import Hand, draw_hand

MAT_BGR = (78, 104, 66)
TABLE_BGR = (70, 95, 125)
CARD_BGR = (236, 238, 240)
BACK_BGR = (120, 60, 40)
LINE_BGR = (120, 150, 110)
DIE_BODY_BGR = {"w": (235, 235, 235), "r": (40, 40, 190), "c": (60, 170, 200)}
TOKEN_MM = 22.0  # the flag token's body; its marker and the dice come from the print sizes
LABEL_PX_PER_MM = 1.0
BORDER_MM = 90.0  # table drawn around the mat, so arms reach in from the picture's edge
HAND_LABEL = -2
WASHED_OUT = 0.15  # a sticker this much washed out by the lamp's reflection counts as unreadable
# (decided: nobody could read it): a code restores at most 15 % of its codewords (Micro QR's
# level M; level L 7 %), and the reflection takes whole rows of modules, so beyond that share
# no reader can decode it
EMPTY_LABEL = -1
MODULES = {"bigcell": bigcell.MODULES, "microqr": 13, "qr": 21}
"""Modules across each symbology's symbol (a big-cell cell is 2 x 2 modules)."""


class LayoutLike(Protocol):
    """What the renderer needs of a mat layout (`companion.layouts.MatLayout`)."""

    @property
    def width_mm(self) -> float: ...

    @property
    def height_mm(self) -> float: ...

    @property
    def card_w_mm(self) -> float: ...

    @property
    def card_h_mm(self) -> float: ...

    @property
    def sticker_mm(self) -> float: ...

    @property
    def zones(self) -> Any: ...

    @property
    def corners(self) -> Any: ...


@dataclass(frozen=True)
class SceneCard:
    """A card on the table: `payload` is its front sticker when face up, else its back sticker."""

    key: str
    payload: str
    face_up: bool
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    zone: str = ""
    under: int = 0  # cards beneath it in a pile (the realistic renderer stacks them in 3D)


@dataclass(frozen=True)
class SceneDie:
    die: str
    marker_id: int
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    zone: str = ""


@dataclass(frozen=True)
class SceneToken:
    token: str
    marker_id: int
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    zone: str = ""


@dataclass(frozen=True)
class Scene:
    """Everything physically on the table, in drawing order (later items lie on earlier ones)."""

    cards: tuple[SceneCard, ...] = ()
    dice: tuple[SceneDie, ...] = ()
    tokens: tuple[SceneToken, ...] = ()


@dataclass(frozen=True)
class MarkerTruth:
    """One marker the camera could read: which item carries it and where it really is."""

    key: str
    text: str  # sticker payload, or "aruco:<id>"
    kind: str  # "card", "die", "token", "corner"
    zone: str
    x_mm: float
    y_mm: float
    visible: bool
    value: int | None = None  # a die's top value
    px_per_module: float | None = None  # the marker's module pitch in the picture
    washed_out: float = 0.0  # share of the sticker the lamp's reflection alone clips white
    # (physical simulator; beyond WASHED_OUT the sticker counts as unreadable)


@dataclass(frozen=True)
class FrameTruth:
    markers: tuple[MarkerTruth, ...]
    hands: int
    hand_mask_mm: np.ndarray = field(repr=False, compare=False)
    hand_in_view: bool = False  # any part of a hand or arm inside the camera picture

    @property
    def visible_texts(self) -> set[str]:
        return {m.text for m in self.markers if m.visible}


@dataclass(frozen=True)
class RenderedFrame:
    image: np.ndarray  # BGR, after the JPEG round trip when the degradation asks for it
    truth: FrameTruth


def _rotated_rect(cx: float, cy: float, w: float, h: float, angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    rot = np.array([[c, -s], [s, c]])
    return np.asarray(pts @ rot.T + np.array([cx, cy]))


def _pastel(key: str, k: int) -> tuple[int, int, int]:
    digest = hashlib.sha256(f"{key}:{k}".encode()).digest()
    return (150 + digest[0] % 90, 150 + digest[1] % 90, 150 + digest[2] % 90)


class TableRenderer:
    """Renders scenes of one mat layout for one camera; deterministic from `seed`.

    The old flat ("easy") simulator. Built directly it draws Micro QR stickers, the kind its
    figures were measured with (the labelled legacy row); it draws the big-cell code too, as
    `companion print stickers` prints it, and that is what `make_renderer` and
    `ScriptFrameSource` ask of it unless told otherwise."""

    def __init__(
        self,
        layout: LayoutLike,
        camera: CameraProfile | None = None,
        degradation: Degradation | None = None,
        symbology: Symbology = "microqr",
        sticker_mm: float | None = None,
        seed: int = 0,
        px_per_mm: float | None = None,
    ) -> None:
        self.layout = layout
        self.camera = camera or CameraProfile()
        self.degradation = degradation or Degradation.clean()
        self.symbology = symbology
        self.sticker_mm = float(sticker_mm or layout.sticker_mm)
        self.seed = seed
        self.mat_to_image = mat_to_image(self.camera, layout.width_mm, layout.height_mm)
        image_ppm = self._image_px_per_mm()
        self.ppm = float(px_per_mm or min(5.0, max(2.0, math.ceil(image_ppm * 1.4 * 2) / 2)))
        b = self.border_mm = BORDER_MM
        self._canvas_size = (round((layout.width_mm + 2 * b) * self.ppm),
                             round((layout.height_mm + 2 * b) * self.ppm))
        shift = (b + 0.5) * self.ppm - 0.5
        scale = np.array([[self.ppm, 0, shift], [0, self.ppm, shift], [0, 0, 1.0]])
        self._canvas_to_image = self.mat_to_image @ np.linalg.inv(scale)
        self._card_cache: dict[tuple[str, bool], np.ndarray] = {}
        self._marker_cache: dict[tuple[int, float, tuple[int, int, int]], np.ndarray] = {}
        self._static = self._draw_static_mat()
        self._view: np.ndarray | None = None
        self._light = self._light_map()
        self._noise = self._noise_bank()

    # ----- geometry -------------------------------------------------------------------------

    def _image_px_per_mm(self) -> float:
        cx, cy = self.layout.width_mm / 2, self.layout.height_mm / 2
        pts = project(self.mat_to_image, np.array([[cx - 50, cy], [cx + 50, cy]]))
        return float(np.linalg.norm(pts[1] - pts[0]) / 100)

    def sticker_quad_mm(self, card: SceneCard) -> np.ndarray:
        """The sticker's symbol corners on the mat (printed order: top-left first)."""
        return _rotated_rect(card.x_mm, card.y_mm, self.sticker_mm, self.sticker_mm,
                             card.angle_deg)

    # ----- static parts ---------------------------------------------------------------------

    def _draw_static_mat(self) -> np.ndarray:
        w, h = self._canvas_size
        rng = np.random.default_rng(self.seed + 101)
        canvas = np.empty((h, w, 3), np.uint8)
        canvas[:] = TABLE_BGR
        b = round(self.border_mm * self.ppm)
        canvas[b:h - b, b:w - b] = MAT_BGR
        small = rng.normal(0, 4, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
        texture = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        canvas = np.clip(canvas.astype(np.float32) + texture[..., None], 0, 255).astype(np.uint8)
        zones = self.layout.zones
        zone_items = zones.items() if isinstance(zones, dict) else (
            (getattr(z, "id", ""), z) for z in zones)
        for name, zone in zone_items:
            bx, by = zone.x_mm + self.border_mm, zone.y_mm + self.border_mm
            p0 = (round(bx * self.ppm), round(by * self.ppm))
            p1 = (round((bx + zone.w_mm) * self.ppm), round((by + zone.h_mm) * self.ppm))
            cv2.rectangle(canvas, p0, p1, LINE_BGR, max(1, round(self.ppm * 0.6)), cv2.LINE_AA)
            cv2.putText(canvas, str(name), (p0[0] + 4, p0[1] + round(6 * self.ppm)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.09 * self.ppm, LINE_BGR, 1, cv2.LINE_AA)
        for corner in self.layout.corners:
            white = corner.size_mm * 1.3
            self._paste(canvas, None, np.full((4, 4, 3), 255, np.uint8), corner.x_mm,
                        corner.y_mm, white, white, 0.0, 0)
            marker = self._marker_image(corner.marker_id, corner.size_mm, (255, 255, 255))
            self._paste(canvas, None, marker, corner.x_mm, corner.y_mm, corner.size_mm,
                        corner.size_mm, 0.0, 0)
        return canvas

    def _light_map(self) -> np.ndarray:
        width, height = self.camera.width_px, self.camera.height_px
        d = self.degradation
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        r2 = ((xs - width / 2) / (width / 2)) ** 2 + ((ys - height / 2) / (height / 2)) ** 2
        gain = d.gain * (1 - d.vignette * r2 / 2) * (1 - d.gradient * xs / width)
        return np.repeat(np.clip(gain * 255, 0, 255).astype(np.uint8)[..., None], 3, axis=2)

    def _noise_bank(self) -> list[tuple[np.ndarray, np.ndarray]]:
        sigma = self.degradation.noise_sigma
        if sigma <= 0:
            return []
        rng = np.random.default_rng(self.seed + 7)
        shape = (self.camera.height_px, self.camera.width_px, 3)
        bank = []
        for _ in range(6):
            n = rng.normal(0, sigma, shape).round().clip(-127, 127).astype(np.int16)
            bank.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
        return bank

    # ----- item images ----------------------------------------------------------------------

    def _marker_image(self, marker_id: int, side_mm: float, body: tuple[int, int, int]
                      ) -> np.ndarray:
        key = (marker_id, side_mm, body)
        if key not in self._marker_cache:
            cells = aruco_modules(marker_id)
            side = max(cells.shape[0], round(side_mm * self.ppm))
            cells_img = np.where(cells, 0, 255).astype(np.uint8)
            img = cv2.resize(cells_img, (side, side), interpolation=cv2.INTER_NEAREST)
            self._marker_cache[key] = np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR))
        return self._marker_cache[key]

    def _modules(self, card: SceneCard) -> np.ndarray:
        """The sticker's module grid as printed (`companion print stickers` draws the same)."""
        draw = card_front_modules if card.face_up else card_back_modules
        return draw(card.payload, self.symbology)

    def _card_image(self, card: SceneCard) -> np.ndarray:
        key = (card.payload, card.face_up)
        cached = self._card_cache.get(key)
        if cached is not None:
            return cached
        lw, lh = self.layout.card_w_mm, self.layout.card_h_mm
        w, h = round(lw * self.ppm), round(lh * self.ppm)
        img = np.empty((h, w, 3), np.uint8)
        img[:] = CARD_BGR if card.face_up else BACK_BGR
        modules = self._modules(card)
        n = modules.shape[0]
        module_mm = self.sticker_mm / n
        label_mm = self.sticker_mm + 4 * module_mm + 1.0
        if card.face_up:
            # Artwork in soft colours above and below the sticker's quiet zone.
            band = (lh - label_mm) / 2 - 3
            for k, y0 in enumerate((3.0, lh - 3 - band)):
                p0 = (round(3 * self.ppm), round(y0 * self.ppm))
                p1 = (round((lw - 3) * self.ppm), round((y0 + band) * self.ppm))
                cv2.rectangle(img, p0, p1, _pastel(card.payload, k), -1)
        else:
            cv2.rectangle(img, (round(3 * self.ppm), round(3 * self.ppm)),
                          (w - round(3 * self.ppm), h - round(3 * self.ppm)), (150, 90, 60), 2)
        cx, cy = lw / 2, lh / 2
        lx0 = round((cx - label_mm / 2) * self.ppm)
        ly0 = round((cy - label_mm / 2) * self.ppm)
        lside = round(label_mm * self.ppm)
        img[ly0:ly0 + lside, lx0:lx0 + lside] = 250
        side = round(self.sticker_mm * self.ppm)
        sticker = cv2.resize(np.where(modules, 20, 250).astype(np.uint8), (side, side),
                             interpolation=cv2.INTER_NEAREST)
        sx0 = round((cx - self.sticker_mm / 2) * self.ppm)
        sy0 = round((cy - self.sticker_mm / 2) * self.ppm)
        img[sy0:sy0 + side, sx0:sx0 + side] = sticker[..., None]
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), (170, 170, 170), 1)
        self._card_cache[key] = img
        return img

    # ----- composition ----------------------------------------------------------------------

    def _paste(self, canvas: np.ndarray, labels: np.ndarray | None, item: np.ndarray,
               x_mm: float, y_mm: float, w_mm: float, h_mm: float, angle_deg: float,
               label: int) -> None:
        """Draw `item` (scaled to w x h mm) centred at (x, y), rotated, onto the canvas."""
        quad = (_rotated_rect(x_mm, y_mm, w_mm, h_mm, angle_deg) + self.border_mm) * self.ppm
        ih, iw = item.shape[:2]
        x0 = max(math.floor(quad[:, 0].min()) - 1, 0)
        y0 = max(math.floor(quad[:, 1].min()) - 1, 0)
        x1 = min(math.ceil(quad[:, 0].max()) + 2, canvas.shape[1])
        y1 = min(math.ceil(quad[:, 1].max()) + 2, canvas.shape[0])
        if x1 > x0 and y1 > y0:
            src = np.array([[0, 0], [iw, 0], [iw, ih]], np.float32)
            dst = np.asarray(quad[:3] - np.array([x0, y0]), np.float32)
            m = cv2.getAffineTransform(src, dst)
            roi = canvas[y0:y1, x0:x1]
            cv2.warpAffine(item, m, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_TRANSPARENT)
        if labels is not None:
            pts = np.round(_rotated_rect(x_mm, y_mm, w_mm, h_mm, angle_deg) * LABEL_PX_PER_MM)
            cv2.fillConvexPoly(labels, pts.astype(np.int32), label)

    def compose(self, scene: Scene, hands: Sequence[Hand] = ()) -> tuple[np.ndarray, np.ndarray]:
        """The top-down canvas and the label buffer (item index per mm cell) for a scene."""
        canvas = self._static.copy()
        lw = math.ceil(self.layout.width_mm * LABEL_PX_PER_MM)
        lh = math.ceil(self.layout.height_mm * LABEL_PX_PER_MM)
        labels = np.full((lh, lw), EMPTY_LABEL, np.int32)
        index = 0
        lw_mm, lh_mm = self.layout.card_w_mm, self.layout.card_h_mm
        for card in scene.cards:
            self._paste(canvas, labels, self._card_image(card), card.x_mm, card.y_mm, lw_mm,
                        lh_mm, card.angle_deg, index)
            index += 1
        for die in scene.dice:
            body = DIE_BODY_BGR.get(die.die.split(".")[-1][:1], DIE_BODY_BGR["w"])
            shadow = np.full((4, 4, 3), 40, np.uint8)
            self._paste(canvas, None, shadow, die.x_mm + 1.5, die.y_mm + 2.0, DIE_MM, DIE_MM,
                        die.angle_deg, 0)
            self._paste(canvas, labels, np.full((4, 4, 3), body, np.uint8), die.x_mm, die.y_mm,
                        DIE_MM, DIE_MM, die.angle_deg, index)
            face = DIE_STICKER_MM
            self._paste(canvas, None, np.full((4, 4, 3), 245, np.uint8), die.x_mm, die.y_mm, face,
                        face, die.angle_deg, 0)
            self._paste(canvas, None, self._marker_image(die.marker_id, DIE_MARKER_MM, body),
                        die.x_mm, die.y_mm, DIE_MARKER_MM, DIE_MARKER_MM, die.angle_deg, 0)
            index += 1
        for token in scene.tokens:
            self._paste(canvas, labels, np.full((4, 4, 3), (40, 200, 230), np.uint8),
                        token.x_mm, token.y_mm, TOKEN_MM, TOKEN_MM, token.angle_deg, index)
            face = TOKEN_MARKER_MM + 3
            self._paste(canvas, None, np.full((4, 4, 3), 245, np.uint8), token.x_mm, token.y_mm,
                        face, face, token.angle_deg, 0)
            self._paste(canvas, None, self._marker_image(token.marker_id, TOKEN_MARKER_MM,
                                                         (245, 245, 245)),
                        token.x_mm, token.y_mm, TOKEN_MARKER_MM, TOKEN_MARKER_MM,
                        token.angle_deg, 0)
            index += 1
        for hand in hands:
            draw_hand(canvas, labels, hand, self.ppm, LABEL_PX_PER_MM, HAND_LABEL, self.border_mm)
        return canvas, labels

    def _view_mask(self) -> np.ndarray:
        """Which 1 mm cells of the canvas (mat plus border) the camera sees."""
        b = self.border_mm
        w = math.ceil(self.layout.width_mm + 2 * b)
        h = math.ceil(self.layout.height_mm + 2 * b)
        ys, xs = np.mgrid[0:h, 0:w].astype(float)
        pts = project(self.mat_to_image, np.column_stack([xs.ravel() - b + 0.5,
                                                          ys.ravel() - b + 0.5]))
        inside = ((pts[:, 0] >= 0) & (pts[:, 0] < self.camera.width_px)
                  & (pts[:, 1] >= 0) & (pts[:, 1] < self.camera.height_px))
        return np.asarray(inside.reshape(h, w))

    def hand_in_view(self, hands: Sequence[Hand]) -> bool:
        if not hands:
            return False
        if self._view is None:
            self._view = self._view_mask()
        buffer = np.zeros(self._view.shape, np.uint8)
        for hand in hands:
            draw_hand(buffer, None, hand, 1.0, 1.0, 0, self.border_mm)
        return bool(buffer[self._view].any())

    def truth(self, scene: Scene, labels: np.ndarray, hands: Sequence[Hand]) -> FrameTruth:
        markers: list[MarkerTruth] = []

        def visible(quad_mm: np.ndarray, index: int) -> bool:
            mask = np.zeros(labels.shape, np.uint8)
            cv2.fillConvexPoly(mask, np.round(quad_mm * LABEL_PX_PER_MM).astype(np.int32), 1)
            cells = labels[mask.astype(bool)]
            return bool(cells.size) and bool((cells == index).all())

        def pitch(quad_mm: np.ndarray, modules: int) -> float:
            img = project(self.mat_to_image, quad_mm)
            side = float(np.linalg.norm(np.roll(img, -1, axis=0) - img, axis=1).mean())
            return round(side / modules, 3)

        index = 0
        for card in scene.cards:
            # the card's own grid: a payload beyond the big-cell code's range is Micro QR
            n = self._modules(card).shape[0]
            quiet = self.sticker_mm * (1 + 4 / n)
            quad = _rotated_rect(card.x_mm, card.y_mm, quiet, quiet, card.angle_deg)
            symbol = _rotated_rect(card.x_mm, card.y_mm, self.sticker_mm, self.sticker_mm,
                                   card.angle_deg)
            markers.append(MarkerTruth(card.key, card.payload, "card", card.zone, card.x_mm,
                                       card.y_mm, visible(quad, index), None,
                                       pitch(symbol, n)))
            index += 1
        for die in scene.dice:
            quad = _rotated_rect(die.x_mm, die.y_mm, DIE_MARKER_MM, DIE_MARKER_MM, die.angle_deg)
            markers.append(MarkerTruth(die.die, f"aruco:{die.marker_id}", "die", die.zone,
                                       die.x_mm, die.y_mm, visible(quad, index),
                                       decode_aruco(die.marker_id).value, pitch(quad, 6)))
            index += 1
        for token in scene.tokens:
            quad = _rotated_rect(token.x_mm, token.y_mm, TOKEN_MARKER_MM, TOKEN_MARKER_MM,
                                 token.angle_deg)
            markers.append(MarkerTruth(token.token, f"aruco:{token.marker_id}", "token",
                                       token.zone, token.x_mm, token.y_mm, visible(quad, index)))
            index += 1
        for corner in self.layout.corners:
            quad = _rotated_rect(corner.x_mm, corner.y_mm, corner.size_mm, corner.size_mm, 0)
            markers.append(MarkerTruth(f"corner{corner.marker_id}", f"aruco:{corner.marker_id}",
                                       "corner", "", corner.x_mm, corner.y_mm,
                                       visible(quad, EMPTY_LABEL)))
        return FrameTruth(tuple(markers), len(hands), labels == HAND_LABEL,
                          self.hand_in_view(hands))

    def to_camera(self, canvas: np.ndarray, frame_index: int) -> np.ndarray:
        """Warp the canvas into the camera image and degrade it like a webcam."""
        size = (self.camera.width_px, self.camera.height_px)
        image = cv2.warpPerspective(canvas, self._canvas_to_image, size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR)
        d = self.degradation
        if d.blur_sigma_px > 0:
            image = cv2.GaussianBlur(image, (0, 0), d.blur_sigma_px)
        if d.vignette > 0 or d.gradient > 0 or d.gain != 1.0:
            image = cv2.multiply(image, self._light, scale=1 / 255)
        if self._noise:
            rng = np.random.default_rng((self.seed, frame_index))
            plus, minus = self._noise[int(rng.integers(len(self._noise)))]
            if rng.integers(2):
                plus, minus = minus, plus
            image = cv2.subtract(cv2.add(image, plus), minus)
        return image

    def encode(self, image: np.ndarray) -> bytes:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY,
                                               self.degradation.jpeg_quality])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        return bytes(buf)

    def render(self, scene: Scene, hands: Sequence[Hand] = (), frame_index: int = 0,
               jpeg: bool = True) -> RenderedFrame:
        canvas, labels = self.compose(scene, hands)
        image = self.to_camera(canvas, frame_index)
        if jpeg:
            image = np.asarray(
                cv2.imdecode(np.frombuffer(self.encode(image), np.uint8), cv2.IMREAD_COLOR))
        return RenderedFrame(image, self.truth(scene, labels, hands))
