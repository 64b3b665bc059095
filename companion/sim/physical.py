"""The realistic table: a 3D scene seen by a real camera, with ground truth for every frame.

Everything on the table is drawn on one top-down canvas of the table plane, but each thing
above the plane (the top of a pile, a die's top and side faces, a curled card's edges, a hand)
is drawn where its line of sight from the camera meets the plane (`Rig.to_ground`): one warp
of that canvas then gives the camera's picture with parallax and occlusion right, and the
same ground-projected label buffer tells which markers the camera really sees. The warp is a
remap that also carries the lens's barrel distortion. Hands are drawn in the picture itself,
with motion blur and shadows, after the still scene (cached per scene and camera pose).

Image formation follows `companion.sim.optics`; every effect and the figure it rests on is in
docs/simulator.md.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.markers.payload import die_face_id
from companion.markers.render import (
    DEFAULT_SYMBOLOGY,
    Symbology,
    aruco_modules,
    card_back_modules,
    card_front_modules,
)
from companion.markers.value_faces import (
    VALUE_GRID,
    ValueFace,
    printed_cells,
    takes_value_stickers,
)
from companion.printing.sizes import (
    DIE_MM,
    STICKER_LABEL_MM,
    TOKEN_MARKER_MM,
    TWIN_STICKER_OFFSET_MM,
)
from companion.sim import art
from companion.sim.camera import Rig
from companion.sim.cube import Cube, Face
from companion.sim.dice import (
    DiceSet,
    StickerFit,
    dice_set,
    edge_normals,
    face_texture,
    footprint,
    marker_outline,
    resting_tilt,
    separate,
    sticker_fit,
)
from companion.sim.hands import Hand, hand_parts, skin_colour
from companion.sim.optics import (
    Conditions,
    Look,
    NoiseBank,
    defocus,
    demosaic,
    finish,
    isp,
    jpeg_round_trip,
    line_kernel,
    mosaic,
    noise_sigma,
    to_bytes,
)
from companion.sim.render import (
    EMPTY_LABEL,
    HAND_LABEL,
    LABEL_PX_PER_MM,
    TOKEN_MM,
    FrameTruth,
    LayoutLike,
    MarkerTruth,
    RenderedFrame,
    Scene,
    SceneCard,
    SceneDie,
    SceneToken,
    _rotated_rect,
)
from companion.sim.temporal import FrameEffects, frame_effects

DICE_STYLES = ("aruco", "values", "pips")
"""How the simulated dice are marked: ArUco die stickers, value stickers, or pips."""
CARD_MM = 0.32  # a card's thickness
SLEEVED_CARD_MM = 0.55  # with a sleeve (two layers of about 0.1 mm plus air)
INK_WASHED = 0.8  # a reflection this bright (of white) clips printed ink too: ink returns at
# most a fifth of the light white paper does, so ink plus the reflection reaches the white
NEAR_MM = 40.0  # nearer the lens than this, the pinhole projection is not drawn (clipped)
MAT_PAPER_BGR = (226, 232, 236)
TABLE_BGR = (62, 96, 138)  # a wooden table
TABLES_BGR: tuple[tuple[int, int, int], ...] = (
    (62, 96, 138),  # oak
    (110, 160, 200),  # light beech / pine
    (40, 58, 85),  # walnut
    (222, 224, 226),  # white laminate
    (120, 122, 118),  # grey
    (38, 38, 40),  # black
)
"""Table tops the mat lies on (one per seed): wood is as skin-coloured as many hands are."""
WALL_BGR = (150, 160, 170)  # what a camera looking across the table sees above it
DIE_COLOURS = {  # body, pips (Creature Crush: white start dice, red damage dice)
    "w": ((236, 236, 236), (30, 30, 30)),
    "r": ((40, 40, 185), (245, 245, 245)),
    "c": ((70, 170, 205), (30, 30, 30)),
}
TOKEN_BGR = (40, 200, 230)
TOKEN_HEIGHT_MM = 3.0
CURL_STRIPS = 6
SPEC_SCALE = 255 / 4.0  # the specular layer stores up to 4x white in a byte
AE_TARGET = 118.0  # mean grey level auto exposure aims for
AF_SOFT = 0.4  # the focus error (share of the distance) of the defocused copy AF blends towards


@dataclass(frozen=True)
class Bump:
    """Someone knocks the camera at `frame`: it moves and stays there."""

    frame: int
    dx_mm: float = 4.0
    dy_mm: float = -3.0
    dz_mm: float = 0.0
    pan_deg: float = 1.5
    tilt_deg: float = -1.0
    roll_deg: float = 1.2
    blur_frames: int = 2


def _smear(layer: np.ndarray, alpha: np.ndarray, shift: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray]:
    """Motion blur of a layer and its coverage along `shift` (px over the exposure). Long
    smears are done at half size: a smeared hand has no detail along its motion anyway."""
    dx, dy = float(shift[0]), float(shift[1])
    if math.hypot(dx, dy) < 12 or min(alpha.shape) < 8:
        kernel = line_kernel(dx, dy)
        if kernel is None:
            return layer, alpha
        return cv2.filter2D(layer, -1, kernel), cv2.filter2D(alpha, -1, kernel)
    h, w = alpha.shape
    small = (max(1, w // 2), max(1, h // 2))
    kernel = line_kernel(dx / 2, dy / 2)
    assert kernel is not None
    out = []
    for img in (layer, alpha):
        half = cv2.resize(img, small, interpolation=cv2.INTER_AREA)
        out.append(cv2.resize(cv2.filter2D(half, -1, kernel), (w, h),
                              interpolation=cv2.INTER_LINEAR))
    return out[0], out[1]


def _hash01(*parts: object) -> float:
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:4], "little") / 2**32


@dataclass
class _PoseCache:
    rig: Rig
    map_x: np.ndarray
    map_y: np.ndarray
    sky: np.ndarray | None  # pixels whose line of sight misses the table
    light: np.ndarray  # float32 HxW: lamp falloff x vignetting (before auto exposure)
    blur_lo: float
    blur_hi: float
    blur_weight: np.ndarray | None
    colour_maps: list[tuple[np.ndarray, np.ndarray]]  # per channel (B, G, R), lateral CA


@dataclass
class _SceneCache:
    radiance: np.ndarray  # float32 HxWx3: blurred, lit, with glare; before the sensor
    labels: np.ndarray
    markers: list[tuple[MarkerTruth, np.ndarray, int, np.ndarray]]  # truth, ground quad, index,
    # world quad (for px per module)
    exposure_scale: float
    modules: dict[str, int]  # modules across each card's sticker symbol
    developed: np.ndarray  # uint8 BGR: the still scene through the ISP, before noise
    raw: np.ndarray  # uint8 HxW: the same on the Bayer sensor's photosites
    saturated: np.ndarray | None  # uint8 HxW 255 where the sensor clips whatever the noise
    sigma16: np.ndarray | None  # per photosite noise sigma (NoiseBank units)
    soft: tuple[np.ndarray, np.ndarray] | None = None  # developed and raw, focus hunted away
    washed: np.ndarray | None = None  # bool HxW: the lamp's reflection brings even ink to the
    # sensor's white there (ink and paper both clip: nothing printed can be read)


class PhysicalRenderer:
    """Renders scenes of one mat for one camera preset; deterministic from `seed`.

    `rig` is the camera; `look` the kind of picture it makes (sampled once per renderer into
    `conditions`, unless given); `dice_style` "aruco" (the project's stickered dice, a marker
    per die and value), "values" (value stickers, `companion.markers.value_faces`) or "pips"
    (ordinary dice); `bump` knocks the camera at a frame.
    """

    stacks = True  # scene builders give piles as one card with `under` cards beneath

    def __init__(
        self,
        layout: LayoutLike,
        rig: Rig,
        look: Look,
        symbology: Symbology = DEFAULT_SYMBOLOGY,
        sticker_mm: float | None = None,
        seed: int = 0,
        dice_style: str = "aruco",
        bump: Bump | None = None,
        px_per_mm: float | None = None,
        sleeved_share: float = 1.0,
        conditions: Conditions | None = None,
        twin_stickers: bool = False,
    ) -> None:
        if dice_style not in DICE_STYLES:
            raise ValueError(f"dice_style must be one of {', '.join(DICE_STYLES)}, "
                             f"not {dice_style!r}")
        self.layout = layout
        self.rig = rig
        self.look = look
        self.symbology = symbology
        self.sticker_mm = float(sticker_mm or layout.sticker_mm)
        self.seed = seed
        self.dice_style = dice_style
        self.bump = bump
        self.sleeved_share = sleeved_share
        # where each card face's stickers lie along its length, from its centre (mm; the sign
        # says which end) and whether turned round: one at the centre, or two ("twin")
        self.sticker_places: tuple[tuple[float, bool], ...] = (
            ((-TWIN_STICKER_OFFSET_MM, False), (TWIN_STICKER_OFFSET_MM, True)) if twin_stickers
            else ((0.0, False),))
        self.conditions: Conditions = conditions or look.sample(
            seed, (layout.width_mm / 2, layout.height_mm / 2))
        self.width_px, self.height_px = rig.width_px, rig.height_px
        self.ppm = float(px_per_mm or self._choose_ppm())
        self.border_mm = 160.0
        self.table_bgr = TABLES_BGR[int(_hash01("table", seed) * len(TABLES_BGR))]
        self._size = (round((layout.width_mm + 2 * self.border_mm) * self.ppm),
                      round((layout.height_mm + 2 * self.border_mm) * self.ppm))
        self._poses: dict[Rig, _PoseCache] = {}
        self._scenes: OrderedDict[tuple[Scene, Rig], _SceneCache] = OrderedDict()
        self._textures: dict[tuple[object, ...], np.ndarray] = {}
        self._faces: dict[tuple[object, ...], tuple[np.ndarray, np.ndarray,
                                                    np.ndarray | None]] = {}
        self._static = self._draw_static()
        self._modules: dict[str, int] = {}
        self._noise = NoiseBank(rig.height_px, rig.width_px, seed) if (
            self.conditions.read_noise > 0 or self.conditions.shot_noise > 0) else None

    # ----- geometry helpers -----------------------------------------------------------------

    def rig_at(self, frame_index: int) -> Rig:
        b = self.bump
        if b is None or frame_index < b.frame:
            return self.rig
        return self.rig.moved(b.dx_mm, b.dy_mm, b.dz_mm, b.pan_deg, b.tilt_deg, b.roll_deg)

    def _choose_ppm(self) -> float:
        w, h = self.layout.width_mm, self.layout.height_mm
        best = 0.0
        for x, y in ((w / 2, h / 2), (0, h), (w, h), (0, 0), (w, 0), (w / 2, h), (w / 2, 0)):
            pts = self.rig.project(np.array([[x - 5, y, 0], [x + 5, y, 0], [x, y - 5, 0],
                                             [x, y + 5, 0]]))
            inside = ((pts[:, 0] > -50) & (pts[:, 0] < self.rig.width_px + 50)).all()
            if inside:
                best = max(best, float(np.linalg.norm(pts[1] - pts[0]) / 10),
                           float(np.linalg.norm(pts[3] - pts[2]) / 10))
        return min(6.0, max(3.0, math.ceil(best * 1.3 * 2) / 2))

    def _to_canvas(self, ground_mm: np.ndarray) -> np.ndarray:
        return np.asarray((np.asarray(ground_mm, float) + self.border_mm) * self.ppm - 0.5)

    def _ground(self, rig: Rig, points: np.ndarray) -> np.ndarray:
        pts = np.array(points, float).reshape(-1, 3)
        pts[:, 2] = np.minimum(pts[:, 2], rig.centre[2] - 20)
        return rig.to_ground(pts)

    def _image_points(self, rig: Rig, points: np.ndarray) -> np.ndarray:
        """World points -> pixels before the mirror (the renderer flips the finished frame)."""
        uv, _ = rig.ideal_pixels(points)
        return rig.distort(uv)

    # ----- static mat -----------------------------------------------------------------------

    def _draw_static(self) -> np.ndarray:
        w, h = self._size
        rng = np.random.default_rng(self.seed + 101)
        canvas = np.empty((h, w, 3), np.uint8)
        canvas[:] = self.table_bgr
        grain = cv2.resize(rng.normal(0, 9, (h // 16 + 1, 3)).astype(np.float32), (3, h))
        wood = np.clip(canvas.astype(np.float32) + grain[:, None, :1] * np.array([1, 1, 1]),
                       0, 255)
        canvas = wood.astype(np.uint8)
        b = round(self.border_mm * self.ppm)
        mw, mh = round(self.layout.width_mm * self.ppm), round(self.layout.height_mm * self.ppm)
        canvas[b:b + mh, b:b + mw] = MAT_PAPER_BGR
        small = rng.normal(0, 2.5, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
        texture = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        canvas = np.clip(canvas.astype(np.float32) + texture[..., None], 0, 255).astype(np.uint8)
        zones = self.layout.zones
        zone_items = zones.items() if isinstance(zones, dict) else (
            (getattr(z, "id", ""), z) for z in zones)
        grey = (95, 95, 95)
        for name, zone in zone_items:
            p0 = self._to_canvas(np.array([zone.x_mm, zone.y_mm]))
            p1 = self._to_canvas(np.array([zone.x_mm + zone.w_mm, zone.y_mm + zone.h_mm]))
            cv2.rectangle(canvas, (round(p0[0]), round(p0[1])), (round(p1[0]), round(p1[1])),
                          grey, max(1, round(self.ppm * 0.3)), cv2.LINE_AA)
            cv2.putText(canvas, str(name), (round(p0[0]) + 6, round(p0[1] + 5 * self.ppm)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.1 * self.ppm, (75, 75, 75),
                        max(1, round(self.ppm / 3)), cv2.LINE_AA)
        for corner in self.layout.corners:
            img = self._marker_texture(corner.marker_id, corner.size_mm, corner.size_mm * 1.3,
                                       MAT_PAPER_BGR)
            quad = _rotated_rect(corner.x_mm, corner.y_mm, corner.size_mm * 1.3,
                                 corner.size_mm * 1.3, 0.0)
            self._warp_into(canvas, None, img, None, self._to_canvas(quad))
        return canvas

    # ----- textures -------------------------------------------------------------------------

    def _marker_texture(self, marker_id: int, marker_mm: float, sticker_mm: float,
                        body: tuple[int, int, int], side_px: int | None = None) -> np.ndarray:
        """An ArUco marker on a white sticker of `sticker_mm` on a body colour square."""
        key = ("marker", marker_id, marker_mm, sticker_mm, body, side_px)
        if key in self._textures:
            return self._textures[key]
        side = side_px or max(12, round(sticker_mm * self.ppm * 1.5))
        img = np.empty((side, side, 3), np.uint8)
        img[:] = body
        cells = aruco_modules(marker_id)
        m = round(side * marker_mm / sticker_mm)
        off = (side - m) // 2
        img[off:off + m, off:off + m] = cv2.resize(
            np.where(cells, 25, 242).astype(np.uint8), (m, m),
            interpolation=cv2.INTER_NEAREST)[..., None]
        self._textures[key] = img
        return img

    def _die_face(self, die: str, value: int, body: tuple[int, int, int],
                  pip: tuple[int, int, int], dset: DiceSet
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """A die face seen flat: image, sticker mask and (stickered dice) the marker's corners
        in face mm, with the sticker as this table's player cut and stuck it."""
        key = ("die", die, value, self.dice_style, dset)
        if key in self._textures:
            return self._faces[key]
        side = max(24, round(dset.size_mm * self.ppm * 2))
        if self.dice_style == "pips":
            img, mask = face_texture(side, dset.size_mm, body, None, StickerFit(),
                                     art.pip_positions(value), pip,
                                     2.9 * dset.size_mm / DIE_MM)
            out: tuple[np.ndarray, np.ndarray, np.ndarray | None] = (img, mask, None)
        else:
            fit = sticker_fit(self.seed, die, value)
            if self.dice_style == "values" and takes_value_stickers(die):
                cells, inked = printed_cells(ValueFace(value, die.split(".")[1][0]))
                img, mask = face_texture(side, dset.size_mm, body, cells, fit,
                                         inked_sticker=inked)
            else:
                img, mask = face_texture(side, dset.size_mm, body,
                                         aruco_modules(die_face_id(die, value)), fit)
            out = (img, mask, marker_outline(fit))
        self._textures[key] = img
        self._faces[key] = out
        return out

    def _card_texture(self, card: SceneCard) -> np.ndarray:
        key = ("card", card.payload, card.face_up)
        if key in self._textures:
            return self._textures[key]
        w = round(self.layout.card_w_mm * self.ppm)
        h = round(self.layout.card_h_mm * self.ppm)
        if card.face_up:
            img = art.card_face(card.payload, w, h, self.ppm)
            modules = card_front_modules(card.payload, self.symbology)
        else:
            img = art.card_back(w, h, self.ppm)
            modules = card_back_modules(card.payload, self.symbology)
        side = round(self.sticker_mm * self.ppm)
        label = card.payload
        st = art.sticker(modules, side, 2, label, self.ppm, STICKER_LABEL_MM)
        cx, cy = w / 2, h / 2
        x0 = round(cx - st.shape[1] / 2)
        for along_mm, turned in self.sticker_places:
            # the symbol's centre `along_mm` from the card's centre; a turned sticker has its
            # label strip above the symbol
            piece = np.ascontiguousarray(st[::-1, ::-1]) if turned else st
            above = st.shape[0] - st.shape[1] / 2 if turned else st.shape[1] / 2
            y0 = round(cy + along_mm * self.ppm - above)
            img[y0:y0 + piece.shape[0], x0:x0 + piece.shape[1]] = piece
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), (40, 40, 40), 1)
        self._textures[key] = img
        return img

    # ----- drawing primitives ---------------------------------------------------------------

    def _warp_into(self, canvas: np.ndarray, spec: np.ndarray | None, item: np.ndarray,
                   item_spec: np.ndarray | None, quad_px: np.ndarray) -> None:
        """Warp `item` onto the canvas quad (printed order TL, TR, BR, BL); also the specular
        layer (zeros where the item is matte)."""
        ih, iw = item.shape[:2]
        x0 = max(math.floor(quad_px[:, 0].min()) - 1, 0)
        y0 = max(math.floor(quad_px[:, 1].min()) - 1, 0)
        x1 = min(math.ceil(quad_px[:, 0].max()) + 2, canvas.shape[1])
        y1 = min(math.ceil(quad_px[:, 1].max()) + 2, canvas.shape[0])
        if x1 - x0 < 1 or y1 - y0 < 1:
            return
        d1, d2 = quad_px[2] - quad_px[0], quad_px[3] - quad_px[1]
        area = abs(float(d1[0] * d2[1] - d1[1] * d2[0])) / 2
        if area < 0.5:
            return
        src = np.array([[0, 0], [iw, 0], [iw, ih], [0, ih]], np.float32) - 0.5
        dst = np.asarray(quad_px - np.array([x0, y0]), np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        roi = canvas[y0:y1, x0:x1]
        cv2.warpPerspective(item, m, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        if spec is not None:
            layer = item_spec if item_spec is not None else np.zeros((ih, iw), np.uint8)
            sroi = spec[y0:y1, x0:x1]
            cv2.warpPerspective(layer, m, (x1 - x0, y1 - y0), dst=sroi, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_TRANSPARENT)

    def _fill_labels(self, labels: np.ndarray, ground_pts: np.ndarray, value: int) -> None:
        pts = np.round(np.asarray(ground_pts) * LABEL_PX_PER_MM).astype(np.int32)
        hull = cv2.convexHull(pts)
        cv2.fillConvexPoly(labels, hull, value)

    def _darken(self, canvas: np.ndarray, ground_pts: np.ndarray, strength: float) -> None:
        """A soft shadow on the canvas over the convex hull of `ground_pts`."""
        if strength <= 0:
            return
        pts = self._to_canvas(ground_pts)
        x0, y0 = (np.floor(pts.min(axis=0)) - 6).astype(int)
        x1, y1 = (np.ceil(pts.max(axis=0)) + 6).astype(int)
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        hull = cv2.convexHull(np.round((pts - [x0, y0]) * 4).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 255, cv2.LINE_AA, 2)
        mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, self.ppm * 1.2))
        factor = 1 - strength * mask.astype(np.float32) / 255
        roi = canvas[y0:y1, x0:x1]
        roi[:] = (roi.astype(np.float32) * factor[..., None]).astype(np.uint8)

    # ----- light ----------------------------------------------------------------------------

    def _specular(self, rig: Rig, points: np.ndarray, normals: np.ndarray) -> np.ndarray:
        """Brightness (x white paper) a glossy surface adds at world points with these normals.

        The lamp mirrored: where the camera's line of sight, reflected at the surface, points
        into the lamp's disc (its angular radius seen from the point), the surface shows the
        lamp; the sleeve's roughness blurs the edge (Gaussian in angle). Plus the room mirrored
        everywhere, rising at grazing angles by Fresnel's law (Schlick, F0 = 0.04 for plastic).
        """
        c = self.conditions
        view = rig.centre - points
        view /= np.linalg.norm(view, axis=-1, keepdims=True)
        cos_v = np.clip((view * normals).sum(axis=-1), 0, 1)
        fresnel = 0.04 + 0.96 * (1 - cos_v) ** 5
        out = fresnel * c.env_reflect  # the room's brightness, mirrored
        if c.lamp is not None and c.glare_peak > 0:
            to_lamp = np.asarray(c.lamp) - points
            dist = np.linalg.norm(to_lamp, axis=-1)
            to_lamp /= dist[:, None]
            mirror = 2 * cos_v[:, None] * normals - view
            cos_d = np.clip((mirror * to_lamp).sum(axis=-1), -1, 1)
            off = np.degrees(np.arccos(cos_d))
            radius = np.degrees(np.arctan(c.lamp_radius_mm / np.maximum(dist, 1.0)))
            outside = np.maximum(off - radius, 0)
            out = out + c.glare_peak * (fresnel / 0.04) * np.exp(
                -0.5 * (outside / c.gloss_deg) ** 2)
        return np.asarray(out)

    def _lambert(self, normal: np.ndarray, point: np.ndarray, albedo: float = 0.0) -> float:
        """Brightness of a surface turned to `normal`, relative to a flat one (lamp + room)."""
        return float(self._irradiance(np.asarray(normal, float)[None, :], point, albedo)[0])

    def _irradiance(self, normals: np.ndarray, point: np.ndarray, albedo: float = 0.0
                    ) -> np.ndarray:
        """Light falling on surfaces turned to `normals` (n x 3) near `point`, relative to a flat
        one there: the room's light from the sky half above the surface's horizon
        ((1 + n_z) / 2 of it, the isotropic-sky model), the lamp's direct light (cosine law),
        and the light the table around reflects back from below ((1 - n_z) / 2 of the flat
        surface's light times the table's `albedo`): a die's side faces on a white mat get
        most of a top face's light, on a dark cloth about half."""
        c = self.conditions
        n = np.asarray(normals, float)
        nz = n[:, 2]
        ambient = 1 - c.lamp_share
        out = ambient * (0.5 + 0.5 * nz) + albedo * (0.5 - 0.5 * nz)
        if c.lamp is not None and c.lamp_share > 0:
            light = np.asarray(c.lamp) - np.asarray(point, float)
            light = light / np.linalg.norm(light)
            flat = max(float(light[2]), 1e-3)
            out = out + c.lamp_share * np.maximum(n @ light, 0.0) / flat
        return np.asarray(out)

    # ----- scene composition ----------------------------------------------------------------

    def _card_base(self, scene: Scene, x: float, y: float, upto: int) -> float:
        """Height of the card surface under (x, y) from the first `upto` cards."""
        base = 0.0
        for card in scene.cards[:upto]:
            quad = _rotated_rect(card.x_mm, card.y_mm, self.layout.card_w_mm,
                                 self.layout.card_h_mm, card.angle_deg)
            if cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), (x, y),
                                    False) >= 0:
                base = max(base, self._card_top(card))
        return base

    def _support(self, scene: Scene, x: float, y: float) -> float:
        """Height of the surface under (x, y) for a die: the cards there lie on each other
        (neighbours in a row overlap), so their thicknesses add up."""
        height = 0.0
        for card in scene.cards:
            quad = _rotated_rect(card.x_mm, card.y_mm, self.layout.card_w_mm,
                                 self.layout.card_h_mm, card.angle_deg)
            if cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), (x, y),
                                    False) >= 0:
                height += self._card_top(card)
        return height

    def _pile_under(self, piles: Sequence[tuple[int, SceneCard]], x: float, y: float
                    ) -> SceneCard | None:
        """The pile whose top card holds the point (x, y), if any."""
        for _, card in piles:
            quad = _rotated_rect(card.x_mm, card.y_mm, self.layout.card_w_mm,
                                 self.layout.card_h_mm, card.angle_deg)
            if cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), (x, y),
                                    False) >= 0:
                return card
        return None

    def _sleeved(self, card: SceneCard) -> bool:
        return _hash01("sleeve", self.seed, card.key) < self.sleeved_share

    def _card_top(self, card: SceneCard) -> float:
        t = SLEEVED_CARD_MM if self._sleeved(card) else CARD_MM
        return (card.under + 1) * t

    def _draw_card(self, rig: Rig, canvas: np.ndarray, spec: np.ndarray, labels: np.ndarray,
                   card: SceneCard, index: int, base_mm: float
                   ) -> list[tuple[np.ndarray, np.ndarray]]:
        """A card (curled, sleeved, maybe on a 3D pile); returns each of its stickers' quads
        (ground mm) and world corners (printed order: the symbol's top-left first)."""
        c = self.conditions
        lw, lh = self.layout.card_w_mm, self.layout.card_h_mm
        a = math.radians(card.angle_deg)
        ux, uy = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        sleeved = self._sleeved(card)
        thick = SLEEVED_CARD_MM if sleeved else CARD_MM
        top = base_mm + (card.under + 1) * thick
        if card.under > 0:
            self._draw_stack(rig, canvas, spec, labels, card, index, base_mm, top)
        curl = c.curl_mm * (0.4 + 0.6 * _hash01("curl", self.seed, card.key))
        if card.under > 0:
            curl *= 0.3  # a pile holds its top card flat
        sign = 1.0 if _hash01("curl-sign", self.seed, card.key) < 0.7 else -1.0

        def lift(u: np.ndarray) -> np.ndarray:  # u in -1..1 across the card's width
            return np.asarray(curl * (u ** 2 if sign > 0 else 1 - u ** 2))

        def world(u: np.ndarray, v: np.ndarray) -> np.ndarray:
            """Card-local (-1..1 across, -1..1 along) -> world points."""
            xy = (np.array([card.x_mm, card.y_mm]) + np.outer(u * lw / 2, ux)
                  + np.outer(v * lh / 2, uy))
            return np.column_stack([xy, top + lift(u)])

        tex = self._card_texture(card)
        th, tw = tex.shape[:2]
        # specular layer on a coarse grid, with the curl's normals
        gu, gv = np.meshgrid(np.linspace(-1, 1, 9), np.linspace(-1, 1, 12))
        pts = world(gu.ravel(), gv.ravel())
        slope = (2 * curl * gu.ravel() / (lw / 2)) * (1 if sign > 0 else -1)
        normals = np.column_stack([-slope[:, None] * ux, np.ones(slope.size)])
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        spec_img: np.ndarray | None = None
        if sleeved:
            s = self._specular(rig, pts, normals).reshape(gu.shape)
            spec_img = np.clip(cv2.resize(s.astype(np.float32), (tw, th),
                                          interpolation=cv2.INTER_LINEAR) * SPEC_SCALE, 0,
                               255).astype(np.uint8)
        strips = CURL_STRIPS if curl > 0.05 else 1
        edges = np.linspace(-1, 1, strips + 1)
        hull: list[np.ndarray] = []
        for i in range(strips):
            u0, u1 = edges[i], edges[i + 1]
            corners = world(np.array([u0, u1, u1, u0]), np.array([-1, -1, 1, 1.0]))
            ground = self._ground(rig, corners)
            hull.append(ground)
            c0, c1 = round((u0 + 1) / 2 * tw), round((u1 + 1) / 2 * tw)
            if c1 <= c0:
                continue
            part = tex[:, c0:c1]
            if strips > 1:
                um = (u0 + u1) / 2
                slope_m = 2 * curl * um / (lw / 2) * (1 if sign > 0 else -1)
                n = np.array([*(-slope_m * ux), 1.0])
                shade = self._lambert(n / np.linalg.norm(n), corners.mean(axis=0))
                shade /= self._lambert(np.array([0, 0, 1.0]), corners.mean(axis=0))
                if abs(shade - 1) > 0.01:
                    part = np.clip(part.astype(np.float32) * shade, 0, 255).astype(np.uint8)
            sp = spec_img[:, c0:c1] if spec_img is not None else None
            self._warp_into(canvas, spec, np.ascontiguousarray(part),
                            None if sp is None else np.ascontiguousarray(sp),
                            self._to_canvas(ground))
        self._fill_labels(labels, np.vstack(hull), index)
        half = self.sticker_mm / 2 / (lw / 2)
        halfv = self.sticker_mm / 2 / (lh / 2)
        out = []
        for along_mm, turned in self.sticker_places:
            v0 = along_mm / (lh / 2)
            us = np.array([-half, half, half, -half])
            vs = np.array([-halfv, -halfv, halfv, halfv])
            sticker_world = world(-us if turned else us, v0 + (-vs if turned else vs))
            out.append((self._ground(rig, sticker_world), sticker_world))
        return out

    def _draw_stack(self, rig: Rig, canvas: np.ndarray, spec: np.ndarray, labels: np.ndarray,
                    card: SceneCard, index: int, base: float, top: float) -> None:
        """The sides of a pile under its top card: a box of card edges."""
        lw, lh = self.layout.card_w_mm, self.layout.card_h_mm
        foot = _rotated_rect(card.x_mm + 0.8, card.y_mm + 0.6, lw - 0.5, lh - 0.5,
                             card.angle_deg + 0.8)
        low = np.column_stack([foot, np.full(4, base)])
        high = np.column_stack([foot, np.full(4, top - 0.3)])
        shadow = self._shadow_points(np.vstack([low, high]), base)
        if shadow is not None:
            self._darken(canvas, shadow, 0.45 * self.conditions.lamp_share)
        height_px = max(2, round((top - base) * self.ppm * 2))
        for k in range(4):
            a, b = k, (k + 1) % 4
            normal = np.array([*(foot[b] - foot[a])[::-1] * np.array([1, -1]), 0.0])
            normal /= np.linalg.norm(normal)
            mid = (low[a] + low[b]) / 2
            if float(normal @ (rig.centre - mid)) <= 0:
                continue
            quad = np.array([high[a], high[b], low[b], low[a]])
            side = art.stack_side(round(np.linalg.norm(foot[b] - foot[a]) * self.ppm),
                                  height_px, card.under)
            shade = self._lambert(normal, mid) / self._lambert(np.array([0, 0, 1.0]), mid)
            side = np.clip(side.astype(np.float32) * shade, 0, 255).astype(np.uint8)
            self._warp_into(canvas, spec, side, None,
                            self._to_canvas(self._ground(rig, quad)))
        self._fill_labels(labels, self._ground(rig, np.vstack([low, high])), index)

    def _face_gloss(self, rig: Rig, corners: np.ndarray, normal: np.ndarray,
                    shape: tuple[int, ...]) -> np.ndarray:
        """The specular layer of a glossy flat face (a plastic die's), as the sleeves'."""
        t = np.linspace(0, 1, 5)
        a, b = np.meshgrid(t, t)
        top = corners[0] + (corners[1] - corners[0]) * a.ravel()[:, None]
        pts = top + (corners[3] - corners[0]) * b.ravel()[:, None]
        normals = np.repeat(normal[None, :], len(pts), axis=0)
        s = self._specular(rig, pts, normals).reshape(5, 5).astype(np.float32)
        layer = cv2.resize(s, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
        return np.clip(layer * SPEC_SCALE, 0, 255).astype(np.uint8)

    def _shadow_points(self, points: np.ndarray, plane_z: float) -> np.ndarray | None:
        """Where the lamp's light past these points meets the plane z = plane_z."""
        lamp = self.conditions.lamp
        if lamp is None:
            return None
        lp = np.asarray(lamp)
        pts = np.asarray(points, float)
        t = (lp[2] - plane_z) / np.maximum(lp[2] - pts[:, 2], 1e-3)
        xy = lp[:2] + (pts[:, :2] - lp[:2]) * t[:, None]
        return np.asarray(xy)

    def _draw_block(self, rig: Rig, canvas: np.ndarray, spec: np.ndarray, labels: np.ndarray,
                    cube: Cube, index: int, face_img: dict[int, np.ndarray] | None,
                    top_img: np.ndarray | None, side_colour: tuple[int, int, int],
                    height_mm: float | None = None, glossy: bool = False) -> np.ndarray:
        """A die (cube) or a token (flat box): shadow, visible sides, top. Returns the top
        face's world corners."""
        faces = cube.faces()
        if height_mm is not None:  # a flat box: squash the cube
            scale_z = height_mm / cube.size_mm
            squashed = []
            for f in faces:
                corners = f.corners.copy()
                corners[:, 2] = cube.base_mm + (corners[:, 2] - cube.base_mm) * scale_z
                centre = f.centre.copy()
                centre[2] = cube.base_mm + (centre[2] - cube.base_mm) * scale_z
                squashed.append(type(f)(f.value, f.normal, corners, centre))
            faces = squashed
        all_pts = np.vstack([f.corners for f in faces])
        shadow = self._shadow_points(all_pts, cube.base_mm)
        if shadow is not None:
            self._darken(canvas, np.vstack([shadow, all_pts[:, :2]]),
                         0.55 * self.conditions.lamp_share)
        top_corners = faces[0].corners
        drawn = []
        for f in faces:
            if f.normal[2] < -0.5 or float(f.normal @ (rig.centre - f.centre)) <= 1e-9:
                continue
            drawn.append(f)
        drawn.sort(key=lambda f: f.normal[2])  # sides first, the top last
        for f in drawn:
            if f.normal[2] > 0.5:
                img = top_img if top_img is not None else (face_img or {}).get(f.value)
                top_corners = f.corners
            else:
                img = (face_img or {}).get(f.value)
            if img is None:
                img = np.full((8, 8, 3), side_colour, np.uint8)
            shade = self._lambert(f.normal, f.centre) / self._lambert(np.array([0, 0, 1.0]),
                                                                      f.centre)
            if abs(shade - 1) > 0.01:
                img = np.clip(img.astype(np.float32) * shade, 0, 255).astype(np.uint8)
            gloss = self._face_gloss(rig, f.corners, f.normal, img.shape[:2]) if glossy else None
            self._warp_into(canvas, spec, img, gloss, self._to_canvas(self._ground(rig,
                                                                                  f.corners)))
        self._fill_labels(labels, self._ground(rig, all_pts), index)
        return np.asarray(top_corners)

    def _compose(self, scene: Scene, rig: Rig) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                        list[tuple[MarkerTruth, np.ndarray,
                                                                   int, np.ndarray]]]:
        canvas = self._static.copy()
        spec = np.zeros(canvas.shape[:2], np.uint8)
        lw = math.ceil(self.layout.width_mm * LABEL_PX_PER_MM)
        lh = math.ceil(self.layout.height_mm * LABEL_PX_PER_MM)
        labels = np.full((lh, lw), EMPTY_LABEL, np.int32)
        markers: list[tuple[MarkerTruth, np.ndarray, int, np.ndarray]] = []
        cards = list(scene.cards)
        flat = [(k, c) for k, c in enumerate(cards) if c.under == 0]
        piles = [(k, c) for k, c in enumerate(cards) if c.under > 0]
        modules: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
        for k, card in flat:
            modules[k] = self._draw_card(rig, canvas, spec, labels, card, k, 0.0)
        # things that stand up: far from the camera first, so nearer ones cover them
        cx, cy = rig.centre[0], rig.centre[1]
        n_cards, n_dice = len(cards), len(scene.dice)
        # (-distance, on a pile, item index: cards, dice, tokens); a die or token lying on a
        # pile is drawn right after that pile, at the pile's distance
        tall: list[tuple[float, int, int]] = []
        tall += [(-math.hypot(c.x_mm - cx, c.y_mm - cy), 0, k) for k, c in piles]
        small = [(n_cards + j, d.x_mm, d.y_mm) for j, d in enumerate(scene.dice)]
        small += [(n_cards + n_dice + j, t.x_mm, t.y_mm) for j, t in enumerate(scene.tokens)]
        for idx, x, y in small:
            support = self._pile_under(piles, x, y)
            at = (x, y) if support is None else (support.x_mm, support.y_mm)
            tall.append((-math.hypot(at[0] - cx, at[1] - cy), 0 if support is None else 1, idx))
        tall.sort()
        die_truth: dict[int, tuple[MarkerTruth, np.ndarray, int, np.ndarray]] = {}
        for _, _, idx in tall:
            if idx < n_cards:
                modules[idx] = self._draw_card(rig, canvas, spec, labels, cards[idx], idx, 0.0)
            elif idx < n_cards + n_dice:
                die_truth[idx] = self._draw_die(rig, canvas, spec, labels, scene,
                                                scene.dice[idx - n_cards], idx)
            else:
                die_truth[idx] = self._draw_token(rig, canvas, spec, labels, scene,
                                                  scene.tokens[idx - n_cards - n_dice], idx)
        self._modules = {}
        for k, card in enumerate(cards):
            n = (card_front_modules if card.face_up else card_back_modules)(
                card.payload, self.symbology).shape[0]
            self._modules[card.key] = n
            for quad, world in modules[k]:  # one truth per sticker: either may be in view
                centre = quad.mean(axis=0)
                q = centre + (quad - centre) * ((n + 4) / n)  # with the 2-module quiet zone
                truth = MarkerTruth(card.key, card.payload, "card", card.zone, card.x_mm,
                                    card.y_mm, False)
                markers.append((truth, q, k, world))
        for idx in sorted(die_truth):
            markers.append(die_truth[idx])
        for corner in self.layout.corners:
            quad = _rotated_rect(corner.x_mm, corner.y_mm, corner.size_mm, corner.size_mm, 0)
            world = np.column_stack([quad, np.zeros(4)])
            truth = MarkerTruth(f"corner{corner.marker_id}", f"aruco:{corner.marker_id}",
                                "corner", "", corner.x_mm, corner.y_mm, False)
            markers.append((truth, quad, EMPTY_LABEL, world))
        return canvas, spec, labels, markers

    def _die_base(self, scene: Scene, x: float, y: float) -> float:
        return self._card_base(scene, x, y, len(scene.cards))

    def _resting(self, scene: Scene) -> Scene:
        """The scene with its dice where they can physically be: two cubes never overlap, so
        dice whose footprints (at their real size and turn) would cross are pushed apart
        until they touch."""
        if len(scene.dice) < 2:
            return scene
        spots = [(d.x_mm, d.y_mm, d.angle_deg, self._dice_set(d.die).size_mm)
                 for d in scene.dice]
        moved = separate(spots)
        if all(abs(a[0] - b[0]) < 1e-9 and abs(a[1] - b[1]) < 1e-9
               for a, b in zip(spots, moved, strict=True)):
            return scene
        dice = tuple(replace(d, x_mm=x, y_mm=y)
                     for d, (x, y) in zip(scene.dice, moved, strict=True))
        return replace(scene, dice=dice)

    def _dice_set(self, die: str) -> DiceSet:
        return dice_set(self.seed, die.split(".")[-1][:1])

    def _albedo(self, canvas: np.ndarray, x_mm: float, y_mm: float, reach_mm: float = 20.0
                ) -> float:
        """Reflectance of the table (mat, cards) around a point, as drawn so far: what lights
        the lower half of a die's side faces."""
        x0, y0 = (self._to_canvas(np.array([x_mm - reach_mm, y_mm - reach_mm]))).astype(int)
        x1, y1 = (self._to_canvas(np.array([x_mm + reach_mm, y_mm + reach_mm]))).astype(int)
        x0, y0 = max(int(x0), 0), max(int(y0), 0)
        x1, y1 = min(int(x1), canvas.shape[1]), min(int(y1), canvas.shape[0])
        if x1 - x0 < 2 or y1 - y0 < 2:
            return 0.5
        step = max(1, round(self.ppm))
        patch = canvas[y0:y1:step, x0:x1:step].astype(np.float32)
        return float(np.clip((patch @ np.array([0.114, 0.587, 0.299], np.float32)).mean()
                             / 255, 0.05, 0.95))

    def _draw_die(self, rig: Rig, canvas: np.ndarray, spec: np.ndarray, labels: np.ndarray,
                  scene: Scene, die: SceneDie, index: int
                  ) -> tuple[MarkerTruth, np.ndarray, int, np.ndarray]:
        """A die as the player owns it (size, rounded edges, stickers as cut and stuck), resting
        on what lies under its four corners (cocked across a card's edge), shaded face by face
        with its rounded edges' normals, its glossy plastic (and glossy stickers) mirroring the
        lamp."""
        from companion.markers.payload import decode_aruco

        meaning = decode_aruco(die.marker_id)
        value = meaning.value or 1
        kind = die.die.split(".")[-1][:1]
        body, pip = DIE_COLOURS.get(kind, DIE_COLOURS["w"])
        dset = self._dice_set(die.die)
        foot = footprint(die.x_mm, die.y_mm, die.angle_deg, dset.size_mm - 2 * dset.edge_mm)
        supports = [self._support(scene, float(x), float(y)) for x, y in foot]
        tilt_x, tilt_y, base = resting_tilt(supports, dset.size_mm)
        cube = Cube(die.x_mm, die.y_mm, value, die.angle_deg, dset.size_mm, base, tilt_x, tilt_y)
        faces = cube.faces()
        all_pts = np.vstack([f.corners for f in faces])
        shadow = self._shadow_points(all_pts, base)
        if shadow is not None:
            self._darken(canvas, np.vstack([shadow, all_pts[:, :2]]),
                         0.55 * self.conditions.lamp_share)
        albedo = self._albedo(canvas, die.x_mm, die.y_mm)
        drawn = [f for f in faces
                 if f.normal[2] > -0.5 and float(f.normal @ (rig.centre - f.centre)) > 1e-9]
        drawn.sort(key=lambda f: f.normal[2])  # sides first, the top last
        top = max(faces, key=lambda f: f.normal[2])
        marker_world = top.corners
        for f in drawn:
            img, mask, marker = self._die_face(die.die, f.value, body, pip, dset)
            right = (f.corners[1] - f.corners[0]) / dset.size_mm
            down = (f.corners[3] - f.corners[0]) / dset.size_mm
            shaded, gloss = self._shade_die_face(rig, f, img, mask, right, down, dset, albedo)
            self._warp_into(canvas, spec, shaded, gloss,
                            self._to_canvas(self._ground(rig, f.corners)))
            if f is top and marker is not None:
                marker_world = f.centre + marker[:, :1] * right + marker[:, 1:] * down
        if self.dice_style == "pips":  # the face inside its rounded edges
            inner = (dset.size_mm - 2 * dset.edge_mm) / dset.size_mm
            centre = top.centre
            marker_world = centre + (top.corners - centre) * inner
        self._fill_labels(labels, self._ground(rig, all_pts), index)
        text = (f"aruco:{die.marker_id}" if self.dice_style == "aruco"
                else f"{self.dice_style}:{value}")
        truth = MarkerTruth(die.die, text, "die", die.zone, die.x_mm, die.y_mm, False, value)
        return truth, self._ground(rig, marker_world), index, np.asarray(marker_world)

    def _shade_die_face(self, rig: Rig, face: Face, img: np.ndarray, mask: np.ndarray,
                        right: np.ndarray, down: np.ndarray, dset: DiceSet, albedo: float
                        ) -> tuple[np.ndarray, np.ndarray]:
        """The face lit point by point through its rounded edges (a 24 x 24 grid of normals,
        interpolated), and its specular layer: the plastic body always mirrors, the sticker
        paper only when glossy."""
        grid = 24
        normals = edge_normals(grid, dset.size_mm, dset.edge_mm, face.normal, right, down)
        flat = float(self._irradiance(np.array([[0.0, 0.0, 1.0]]), face.centre, albedo)[0])
        light = self._irradiance(normals.reshape(-1, 3), face.centre, albedo)
        side = img.shape[0]
        shade = cv2.resize((light / max(flat, 1e-6)).reshape(grid, grid).astype(np.float32),
                           (side, side), interpolation=cv2.INTER_LINEAR)
        shaded = np.clip(img.astype(np.float32) * shade[..., None], 0, 255).astype(np.uint8)
        t = (np.arange(grid) + 0.5) / grid * dset.size_mm - dset.size_mm / 2
        uu, vv = np.meshgrid(t, t)
        pts = face.centre + uu.reshape(-1, 1) * right + vv.reshape(-1, 1) * down
        s = self._specular(rig, pts, normals.reshape(-1, 3)).reshape(grid, grid)
        layer = np.asarray(cv2.resize(s.astype(np.float32) * SPEC_SCALE, (side, side),
                                      interpolation=cv2.INTER_LINEAR), np.float32)
        if not dset.glossy_stickers:
            layer *= 1 - mask.astype(np.float32) / 255
        return shaded, np.clip(layer, 0, 255).astype(np.uint8)

    def _draw_token(self, rig: Rig, canvas: np.ndarray, spec: np.ndarray, labels: np.ndarray,
                    scene: Scene, token: SceneToken, index: int
                    ) -> tuple[MarkerTruth, np.ndarray, int, np.ndarray]:
        base = self._die_base(scene, token.x_mm, token.y_mm)
        cube = Cube(token.x_mm, token.y_mm, 1, token.angle_deg, TOKEN_MM, base)
        top_img = self._marker_texture(token.marker_id, TOKEN_MARKER_MM, TOKEN_MARKER_MM + 3,
                                       TOKEN_BGR)
        pad = np.empty((top_img.shape[0] * 2, top_img.shape[1] * 2, 3), np.uint8)
        pad[:] = TOKEN_BGR
        o = top_img.shape[0] // 2
        pad[o:o + top_img.shape[0], o:o + top_img.shape[1]] = top_img
        top = self._draw_block(rig, canvas, spec, labels, cube, index, None, pad, TOKEN_BGR,
                               TOKEN_HEIGHT_MM)
        centre = top.mean(axis=0)
        # the pad is 2x the sticker: the marker covers TOKEN_MARKER_MM of TOKEN_MM... scaled
        marker_world = centre + (top - centre) * (TOKEN_MARKER_MM / (TOKEN_MARKER_MM + 3) / 2)
        truth = MarkerTruth(token.token, f"aruco:{token.marker_id}", "token", token.zone,
                            token.x_mm, token.y_mm, False)
        return truth, self._ground(rig, marker_world), index, marker_world

    # ----- camera pose ----------------------------------------------------------------------

    def _pose(self, rig: Rig) -> _PoseCache:
        cached = self._poses.get(rig)
        if cached is not None:
            return cached
        w, h = rig.width_px, rig.height_px
        step = 4  # everything here is smooth: work on a grid, interpolate bilinearly
        gys, gxs = np.mgrid[0:h + step:step, 0:w + step:step].astype(np.float64)
        gh, gw = gys.shape
        uv = np.stack([gxs, gys], axis=-1).reshape(-1, 2)
        ideal = rig.undistort(uv)
        hinv = np.linalg.inv(rig.ground_homography(0.0))
        p = np.column_stack([ideal, np.ones(len(ideal))]) @ hinv.T
        # rays that miss the table plane (above the horizon)
        r = rig.rotation
        f = rig.focal_px
        dirs = (np.column_stack([(ideal[:, 0] - w / 2) / f, (ideal[:, 1] - h / 2) / f,
                                 np.ones(len(ideal))]) @ r)
        miss = dirs[:, 2] > -1e-3
        ground = p[:, :2] / np.where(np.abs(p[:, 2:3]) < 1e-12, 1e-12, p[:, 2:3])
        ground[miss] = -1e5
        fx = np.broadcast_to(np.arange(w, dtype=np.float32) / step, (h, w))
        fy = np.broadcast_to((np.arange(h, dtype=np.float32) / step)[:, None], (h, w))
        fx, fy = np.ascontiguousarray(fx), np.ascontiguousarray(fy)

        def fine(coarse: np.ndarray, nearest: bool = False) -> np.ndarray:
            grid = np.ascontiguousarray(coarse.reshape(gh, gw), np.float32)
            mode = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
            return np.asarray(cv2.remap(grid, fx, fy, mode, borderMode=cv2.BORDER_REPLICATE))

        def canvas_of(ideal_px: np.ndarray) -> np.ndarray:
            q = np.column_stack([ideal_px, np.ones(len(ideal_px))]) @ hinv.T
            g = q[:, :2] / np.where(np.abs(q[:, 2:3]) < 1e-12, 1e-12, q[:, 2:3])
            g[miss] = -1e5
            return np.asarray((g + self.border_mm) * self.ppm - 0.5)

        canvas = canvas_of(ideal)
        map_x, map_y = fine(canvas[:, 0]), fine(canvas[:, 1])
        colour_maps: list[tuple[np.ndarray, np.ndarray]] = []
        if self.conditions.lateral_ca > 0:  # blue image smaller, red larger than green
            centre = np.array([w / 2, h / 2])
            for scale in (1 - self.conditions.lateral_ca, 1.0, 1 + self.conditions.lateral_ca):
                cm = canvas_of(centre + (ideal - centre) / scale)
                colour_maps.append((fine(cm[:, 0]), fine(cm[:, 1])))
        sky = fine(miss.astype(np.float32), nearest=True) > 0.5
        c = self.conditions
        gx, gy = ground[:, 0], ground[:, 1]
        # light on the table: ambient plus the lamp's inverse-square, cosine falloff
        light_c = np.ones(len(ground))
        if c.lamp is not None and c.lamp_share > 0:
            lx, ly, lz = c.lamp
            cxm, cym = self.layout.width_mm / 2, self.layout.height_mm / 2
            d3 = ((gx - lx) ** 2 + (gy - ly) ** 2 + lz ** 2) ** 1.5
            d3c = ((cxm - lx) ** 2 + (cym - ly) ** 2 + lz ** 2) ** 1.5
            direct = np.where(miss, 1.0, d3c / np.maximum(d3, 1.0))
            light_c = (1 - c.lamp_share) + c.lamp_share * direct
        if c.vignette > 0:
            rr = ((uv[:, 0] - w / 2) ** 2 + (uv[:, 1] - h / 2) ** 2) / ((w / 2) ** 2
                                                                        + (h / 2) ** 2)
            light_c = light_c * (1 - c.vignette * rr)
        light = fine(light_c)
        # depth of field: blur grows with the distance from the focus plane
        dist = np.sqrt((gx - rig.centre[0]) ** 2 + (gy - rig.centre[1]) ** 2
                       + rig.centre[2] ** 2)
        mat_c = np.array([self.layout.width_mm / 2, self.layout.height_mm / 2, 0.0])
        focus = c.focus_ratio * float(np.linalg.norm(rig.centre - mat_c))
        coc = c.coc_px * np.abs(1 - focus / np.maximum(dist, 1.0))
        field = ((uv[:, 0] - w / 2) ** 2 + (uv[:, 1] - h / 2) ** 2) / ((w / 2) ** 2
                                                                       + (h / 2) ** 2)
        lens = c.lens_blur_px * (1 + c.corner_softness * field)  # cheap lenses: soft corners
        sigma = np.sqrt(lens ** 2 + (0.35 * coc) ** 2)
        on_mat = (~miss) & (gx > -50) & (gx < self.layout.width_mm + 50) & (gy > -50) & (
            gy < self.layout.height_mm + 50)
        vals = sigma[on_mat] if on_mat.any() else sigma
        lo, hi = float(np.percentile(vals, 2)), float(np.percentile(vals, 98))
        weight = None
        if hi - lo >= 0.15:
            weight = np.clip(fine((sigma - lo) / (hi - lo)), 0, 1).astype(np.float32)
        cache = _PoseCache(rig, map_x, map_y, sky if sky.any() else None, light, lo, hi, weight,
                           colour_maps)
        self._poses[rig] = cache
        return cache

    # ----- the still scene ------------------------------------------------------------------

    def _scene(self, scene: Scene, rig: Rig) -> _SceneCache:
        key = (scene, rig)
        cached = self._scenes.get(key)
        if cached is not None:
            self._scenes.move_to_end(key)
            return cached
        pose = self._pose(rig)
        canvas, spec, labels, markers = self._compose(self._resting(scene), rig)
        if pose.colour_maps:
            image = cv2.merge([
                cv2.remap(np.ascontiguousarray(canvas[..., k]), mx, my, cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=self.table_bgr[k])
                for k, (mx, my) in enumerate(pose.colour_maps)])
        else:
            image = cv2.remap(canvas, pose.map_x, pose.map_y, cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=self.table_bgr)
        glare = cv2.remap(spec, pose.map_x, pose.map_y, cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        if pose.sky is not None:
            image[pose.sky] = WALL_BGR
            glare[pose.sky] = 0
        radiance = image.astype(np.float32)
        radiance *= pose.light[..., None]
        reflection = glare.astype(np.float32) * (255 / SPEC_SCALE)
        radiance += reflection[..., None]
        radiance = defocus(radiance, pose.blur_lo, pose.blur_hi, pose.blur_weight)
        mean = float(cv2.mean(cv2.cvtColor(np.minimum(radiance, 255), cv2.COLOR_BGR2GRAY))[0])
        scale = 1.0
        if self.conditions.auto_exposure:  # continuous: a few more cards change it a little
            scale = float(np.clip(AE_TARGET / max(mean, 1.0), 0.6, 1.4))
        radiance *= scale
        c = self.conditions
        linear = isp(radiance, c)
        developed = to_bytes(linear)
        sigma = noise_sigma(radiance, c)
        saturated = None
        sigma16 = None
        if sigma is not None and self._noise is not None:
            clip = linear >= 255 + 3 * sigma
            if clip.any():  # so far above white that no noise brings it below
                saturated = mosaic(np.where(clip, 255, 0).astype(np.uint8))
            sigma16 = mosaic(NoiseBank.sigma_map(sigma))
        cache = _SceneCache(radiance, labels, markers, scale, dict(self._modules), developed,
                            mosaic(developed), saturated, sigma16,
                            washed=reflection * scale >= INK_WASHED * 255)
        self._scenes[key] = cache
        while len(self._scenes) > 3:
            self._scenes.popitem(last=False)
        return cache

    # ----- hands ----------------------------------------------------------------------------

    def _clip_near(self, rig: Rig, pts: np.ndarray, near: float = NEAR_MM) -> np.ndarray:
        """Clip a world polygon to the part at least `near` mm in front of the camera."""
        depth = (pts - rig.centre) @ rig.rotation[2]
        if (depth >= near).all():
            return pts
        out = []
        n = len(pts)
        for i in range(n):
            a, b = pts[i], pts[(i + 1) % n]
            da, db = depth[i], depth[(i + 1) % n]
            if da >= near:
                out.append(a)
            if (da >= near) != (db >= near):
                t = (near - da) / (db - da)
                out.append(a + (b - a) * t)
        return np.array(out) if out else np.zeros((0, 3))

    def _draw_hands(self, rig: Rig, radiance: np.ndarray, hands: Sequence[Hand],
                    light_scale: float) -> tuple[bool, list[tuple[int, int, int, int]]]:
        """Shadows and hands (with motion blur) into the picture: whether any is in view, and
        the boxes of the picture that changed."""
        c = self.conditions
        boxes: list[tuple[int, int, int, int]] = []
        h, w = radiance.shape[:2]
        in_view = False
        pose = self._pose(rig)
        for hand in hands:
            parts = hand_parts(hand)
            # shadow of the hand on the table, from the lamp
            if c.lamp is not None and c.lamp_share > 0:
                polys = []
                for part in parts:
                    ground = self._shadow_points(part.points, 0.0)
                    if ground is None:
                        continue
                    # the part of the shadow in front of the lens (a laptop's camera stands
                    # beyond the table's edge: a shadow there falls behind it)
                    pts = self._clip_near(rig, np.column_stack([ground, np.zeros(len(ground))]))
                    if len(pts) < 3:
                        continue
                    polys.append(self._image_points(rig, pts))
                box = self._shade_polys(radiance, polys, 0.6 * c.lamp_share, blur=6.0)
                if box is not None:
                    boxes.append(box)
            # the hand itself, on its own layer, blurred by its motion over the exposure
            drawn = []
            for part in parts:
                pts = self._clip_near(rig, part.points)
                if len(pts) < 3:
                    continue
                img = self._image_points(rig, pts)
                drawn.append((img, part.colour))
            if not drawn:
                continue
            allpts = np.vstack([d[0] for d in drawn])
            t = c.exposure_ms / 1000
            palm = np.array([[hand.x_mm, hand.y_mm, hand.z_mm],
                             [hand.x_mm + hand.vx_mm_s * t, hand.y_mm + hand.vy_mm_s * t,
                              hand.z_mm]])
            # the palm's shift over the exposure, where the pinhole model holds: a palm at the
            # lens (a laptop's camera, a hand reaching in from the player's edge) or behind it
            # projects to any length (it asked for a 313,313 px kernel)
            depth = (palm - rig.centre) @ rig.rotation[2]
            kernel = None
            if float(depth.min()) >= NEAR_MM:
                moved = self._image_points(rig, palm)
                kernel = line_kernel(*(moved[1] - moved[0]))
            pad = 4 + (kernel.shape[0] if kernel is not None else 0)
            x0 = max(int(np.floor(allpts[:, 0].min())) - pad, 0)
            y0 = max(int(np.floor(allpts[:, 1].min())) - pad, 0)
            x1 = min(int(np.ceil(allpts[:, 0].max())) + pad, w)
            y1 = min(int(np.ceil(allpts[:, 1].max())) + pad, h)
            if x1 - x0 < 2 or y1 - y0 < 2:
                continue
            in_view = True
            boxes.append((x0, y0, x1, y1))
            layer = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
            alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
            sx = (x0 + x1) // 2
            sy = (y0 + y1) // 2
            lit = float(pose.light[min(max(sy, 0), h - 1), min(max(sx, 0), w - 1)])
            for img, colour in drawn:
                poly = np.round((img - [x0, y0]) * 4).astype(np.int32)
                col = tuple(float(v) * lit * light_scale for v in colour)
                cv2.fillPoly(layer, [poly], col, cv2.LINE_AA, 2)
                cv2.fillPoly(alpha, [poly], 1.0, cv2.LINE_AA, 2)
            # the layer is drawn on black with anti-aliased edges: colour x coverage already
            if kernel is not None:
                layer, alpha = _smear(layer, alpha, moved[1] - moved[0])
            else:
                s = max(pose.blur_lo, 0.5)
                layer = cv2.GaussianBlur(layer, (0, 0), s)
                alpha = cv2.GaussianBlur(alpha, (0, 0), s)
            roi = radiance[y0:y1, x0:x1]
            roi *= (1 - np.minimum(alpha, 1))[..., None]
            roi += layer
        return in_view, boxes

    def _shade_polys(self, radiance: np.ndarray, polys: list[np.ndarray], strength: float,
                     blur: float) -> tuple[int, int, int, int] | None:
        if not polys or strength <= 0:
            return None
        h, w = radiance.shape[:2]
        allpts = np.vstack(polys)
        pad = int(blur * 3) + 2
        x0 = max(int(np.floor(allpts[:, 0].min())) - pad, 0)
        y0 = max(int(np.floor(allpts[:, 1].min())) - pad, 0)
        x1 = min(int(np.ceil(allpts[:, 0].max())) + pad, w)
        y1 = min(int(np.ceil(allpts[:, 1].max())) + pad, h)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        for poly in polys:
            cv2.fillPoly(mask, [np.round((poly - [x0, y0]) * 4).astype(np.int32)], 1.0,
                         cv2.LINE_AA, 2)
        mask = cv2.GaussianBlur(mask, (0, 0), blur)
        radiance[y0:y1, x0:x1] *= (1 - strength * np.minimum(mask, 1))[..., None]
        return x0, y0, x1, y1

    def _hand_labels(self, rig: Rig, labels: np.ndarray, hands: Sequence[Hand]) -> None:
        for hand in hands:
            for part in hand_parts(hand):
                ground = self._ground(rig, part.points)
                pts = np.round(ground * LABEL_PX_PER_MM).astype(np.int32)
                cv2.fillPoly(labels, [pts], HAND_LABEL)

    # ----- frames ---------------------------------------------------------------------------

    @staticmethod
    def _uncovered(labels: np.ndarray, quad_mm: np.ndarray, index: int) -> bool:
        """Every label cell under the quad belongs to item `index` (and there are some)."""
        pts = np.round(quad_mm * LABEL_PX_PER_MM).astype(np.int32)
        x0, y0 = np.maximum(pts.min(axis=0), 0)
        x1 = min(int(pts[:, 0].max()) + 1, labels.shape[1])
        y1 = min(int(pts[:, 1].max()) + 1, labels.shape[0])
        if x1 <= x0 or y1 <= y0:
            return False
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, pts - np.array([x0, y0]), 1)
        cells = labels[y0:y1, x0:x1][mask.astype(bool)]
        return bool(cells.size) and bool((cells == index).all())

    def _truth(self, rig: Rig, cache: _SceneCache, labels: np.ndarray, hands: Sequence[Hand],
               in_view: bool) -> FrameTruth:
        out = []
        w, h = rig.width_px, rig.height_px
        for truth, quad, index, world in cache.markers:
            covered = not self._uncovered(labels, quad, index)
            img = rig.project(world)
            inside = bool(((img[:, 0] >= 0) & (img[:, 0] < w) & (img[:, 1] >= 0)
                           & (img[:, 1] < h)).all())
            _, depth = rig.ideal_pixels(world)
            inside = inside and bool((depth > 0).all())
            side = float(np.linalg.norm(np.roll(img, -1, axis=0) - img, axis=1).mean())
            n = cache.modules.get(truth.key, 6)
            if truth.kind == "die" and self.dice_style == "values":
                n = VALUE_GRID
            ppm = side / n if truth.kind != "die" or self.dice_style != "pips" else None
            out.append(MarkerTruth(truth.key, truth.text, truth.kind, truth.zone, truth.x_mm,
                                   truth.y_mm, (not covered) and inside, truth.value,
                                   None if ppm is None else round(ppm, 3),
                                   washed_out=_share_of(cache.washed, img) if inside else 0.0))
        return FrameTruth(tuple(out), len(hands), labels == HAND_LABEL, in_view)

    def frame_effects(self, frame_index: int) -> FrameEffects:
        """What frame `frame_index` of a still scene gets: flicker bands, exposure and white
        balance dither, focus wander, the arm's trembling, the JPEG quality's step."""
        c = self.conditions
        return frame_effects(c.temporal, self.seed, frame_index, self.height_px,
                             c.lamp_share, self.rig.focal_px)

    def _soft(self, cache: _SceneCache) -> tuple[np.ndarray, np.ndarray]:
        """The still scene with the focus `AF_SOFT` of the distance away (made once per scene,
        when autofocus first wanders): frames in between blend it with the sharp one."""
        if cache.soft is None:
            extra = 0.35 * self.conditions.coc_px * AF_SOFT
            soft = cv2.GaussianBlur(cache.radiance, (0, 0), max(extra, 0.3))
            developed = to_bytes(isp(soft, self.conditions))
            cache.soft = (developed, mosaic(developed))
        return cache.soft

    def _still_raw(self, cache: _SceneCache, fx: FrameEffects) -> np.ndarray:
        """The still scene's photosites for this frame: focus wander (a blend towards the
        defocused scene) and the trembling camera (the picture shifted, smeared by the
        motion within the exposure)."""
        w = 0.0
        if self.conditions.coc_px > 0 and abs(fx.defocus) > 0.005:
            w = min(1.0, abs(fx.defocus) / AF_SOFT)
        dx, dy = fx.shift_px
        moving = math.hypot(dx, dy) >= 0.05 or math.hypot(*fx.smear_px) >= 1.0
        if not moving:
            if w < 0.02:
                return cache.raw.copy()
            return np.asarray(cv2.addWeighted(cache.raw, 1 - w, self._soft(cache)[1], w, 0))
        developed = cache.developed
        if w >= 0.02:
            developed = cv2.addWeighted(developed, 1 - w, self._soft(cache)[0], w, 0)
        m = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        h, wid = developed.shape[:2]
        moved = cv2.warpAffine(developed, m, (wid, h), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REFLECT)
        kernel = line_kernel(*fx.smear_px)
        if kernel is not None:
            moved = cv2.filter2D(moved, -1, kernel)
        return mosaic(moved)

    @staticmethod
    def _light(raw: np.ndarray, fx: FrameEffects) -> np.ndarray:
        """The light's change on the photosites: flicker bands and exposure dither per row,
        white balance dither on the blue and red sites."""
        blue, red = fx.wb
        if fx.row_gain is None and abs(blue - 1) < 1e-3 and abs(red - 1) < 1e-3:
            return raw
        f = raw.astype(np.float32)
        if fx.row_gain is not None:
            f *= fx.row_gain[:, None]
        f[0::2, 0::2] *= blue
        f[1::2, 1::2] *= red
        return np.asarray(cv2.convertScaleAbs(f))  # light is never negative: saturate

    def render(self, scene: Scene, hands: Sequence[Hand] = (), frame_index: int = 0,
               jpeg: bool = True) -> RenderedFrame:
        rig = self.rig_at(frame_index)
        cache = self._scene(scene, rig)
        labels = cache.labels.copy()
        fx = self.frame_effects(frame_index)
        raw = self._still_raw(cache, fx)
        in_view = False
        c = self.conditions
        if hands:
            radiance = cache.radiance.copy()
            in_view, boxes = self._draw_hands(rig, radiance, hands, cache.exposure_scale)
            for x0, y0, x1, y1 in boxes:
                x0, y0 = x0 - x0 % 2, y0 - y0 % 2  # keep the colour filter's phase
                raw[y0:y1, x0:x1] = mosaic(to_bytes(isp(radiance[y0:y1, x0:x1], c)))
            self._hand_labels(rig, labels, hands)
        raw = self._light(raw, fx)
        b = self.bump
        if b is not None and b.frame <= frame_index < b.frame + b.blur_frames:
            before = self.rig_at(b.frame - 1)
            centre = np.array([[self.layout.width_mm / 2, self.layout.height_mm / 2, 0.0]])
            shift = rig.project(centre)[0] - before.project(centre)[0]
            kernel = line_kernel(*(shift * 0.6))
            if kernel is not None:
                raw = mosaic(cv2.filter2D(demosaic(raw), -1, kernel))
        rng = np.random.default_rng([self.seed, frame_index, 9])
        if cache.sigma16 is not None and self._noise is not None:
            raw = self._noise.add_noise(raw, cache.sigma16, rng)
            if cache.saturated is not None:
                raw = cv2.max(raw, cache.saturated)
        image = demosaic(raw)
        image = finish(image, c)
        if rig.mirror:
            image = cv2.flip(image, 1)
        if jpeg:
            quality = int(np.clip(c.jpeg_quality + fx.jpeg_delta, 20, 95))
            image = jpeg_round_trip(image, quality)
        return RenderedFrame(image, self._truth(rig, cache, labels, hands, in_view))

    def encode(self, image: np.ndarray) -> bytes:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY,
                                               self.conditions.jpeg_quality])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        return bytes(buf)

    def hand_colour(self, hand: Hand) -> tuple[int, int, int]:
        return hand.glove or skin_colour(hand)


def _share_of(mask: np.ndarray | None, quad_px: np.ndarray) -> float:
    """The share of the picture's quad `quad_px` where `mask` is set (0 without a mask)."""
    if mask is None or not mask.any():
        return 0.0
    pts = np.round(quad_px).astype(np.int32)
    x0, y0 = np.maximum(pts.min(axis=0), 0)
    x1 = min(int(pts[:, 0].max()) + 1, mask.shape[1])
    y1 = min(int(pts[:, 1].max()) + 1, mask.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, pts - np.array([x0, y0]), 1)
    cells = mask[y0:y1, x0:x1][inside.astype(bool)]
    return round(float(cells.mean()), 3) if cells.size else 0.0
