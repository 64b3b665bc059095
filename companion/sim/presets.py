"""Camera presets: which camera, where it stands, and what its pictures look like.

A camera kind is a file in `calibration/cameras/` with `kind` (overhead or laptop), lens and
resolution, distortion, mirror, the image-quality `look` below, and the poses the benchmark
measures; `turns_deg` makes it several cameras of that make round one table (two laptops, one at
each long edge: `[0, 180]`), each rendered by its own renderer (`make_renderers`).
`make_renderer` turns a one-camera preset name (and optionally one pose) into a renderer:
`PhysicalRenderer` for the camera kinds, the old flat `TableRenderer` for `easy` (alias
`legacy`), which is kept only as a labelled baseline. Every figure is explained in
docs/simulator.md.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from companion import safeio
from companion.errors import DataFileError
from companion.games import game_spec
from companion.markers.render import DEFAULT_SYMBOLOGY, Symbology
from companion.sim.camera import (
    CameraProfile,
    Degradation,
    Rig,
    edge_rig,
    overhead_rig,
    turned_rig,
)
from companion.sim.optics import Look
from companion.sim.physical import Bump, PhysicalRenderer
from companion.sim.render import LayoutLike, TableRenderer

DEFAULT_PRESET = "overhead-webcam-1080p"
EASY = "easy"
EASY_ALIASES = ("easy", "legacy")
LEGACY_SYMBOLOGY: Symbology = "microqr"
"""The stickers the old flat simulator was measured with: its labelled legacy row keeps them."""

TOUCHES = (1 / 15, 1 / 4)  # someone touches the table every 4-15 s on average
STAND_WEBCAM: dict[str, Any] = {
    "flicker": True, "readout_ms": (25.0, 30.0), "ae_jitter": (0.005, 0.015),
    "wb_jitter": (0.003, 0.008), "touch_rate_hz": TOUCHES, "tremble_mrad": (0.1, 2.0),
    "tremble_hz": (4.0, 10.0), "tremble_damping": (0.03, 0.1), "jpeg_jitter": 4,
}
"""Frame to frame (companion.sim.temporal): a webcam on a clamp arm or stand under a mains
lamp; the 1080p class adds continuous autofocus, the cheap 720p module is fixed-focus."""

LOOKS: dict[str, Look] = {
    "webcam": Look(
        "webcam",
        lens_blur_px=(0.6, 0.9), corner_softness=(0.5, 1.5), lateral_ca=(0.0005, 0.0015),
        coc_px=(3.0, 4.5), focus_ratio=(0.8, 1.3),
        exposure=(0.45, 1.0), low_light_share=0.25,
        read_noise=(1.5, 3.0), shot_noise=(0.03, 0.08),
        jpeg_quality=(60, 85), sharpen=(0.2, 0.6), wb_error=0.12, vignette=(0.2, 0.4),
        lamp_share=(0.3, 0.7), lamp_height_mm=(700.0, 1400.0), lamp_spread_mm=500.0,
        glare_peak=(1.5, 4.0), gloss_deg=(2.5, 5.0), env_reflect=(0.5, 1.0),
        curl_mm=(0.5, 2.5),
        **STAND_WEBCAM, af_breathing=(0.02, 0.04), af_hunt_rate_hz=(0.025, 0.1),
    ),
    "webcam-720p": Look(
        "webcam-720p",
        lens_blur_px=(0.7, 1.1), corner_softness=(1.0, 2.0), lateral_ca=(0.0007, 0.0015),
        coc_px=(1.0, 2.5), focus_ratio=(1.3, 2.5),
        exposure=(0.4, 1.0), low_light_share=0.3,
        read_noise=(2.5, 4.0), shot_noise=(0.05, 0.12),
        jpeg_quality=(60, 85), sharpen=(0.2, 0.6), wb_error=0.12, vignette=(0.25, 0.45),
        lamp_share=(0.3, 0.7), lamp_height_mm=(700.0, 1400.0), lamp_spread_mm=500.0,
        glare_peak=(1.5, 4.0), gloss_deg=(2.5, 5.0), env_reflect=(0.5, 1.0),
        curl_mm=(0.5, 2.5),
        **STAND_WEBCAM,
    ),
    "phone": Look(
        "phone",
        lens_blur_px=(0.5, 0.7), corner_softness=(0.2, 0.6), lateral_ca=(0.0, 0.0005),
        coc_px=(8.0, 13.0), focus_ratio=(0.92, 1.08),
        exposure=(0.5, 1.0), low_light_share=0.2,
        read_noise=(1.0, 2.0), shot_noise=(0.02, 0.05),
        jpeg_quality=(50, 70), sharpen=(0.8, 1.3), wb_error=0.08, vignette=(0.1, 0.25),
        lamp_share=(0.3, 0.7), lamp_height_mm=(700.0, 1400.0), lamp_spread_mm=500.0,
        glare_peak=(1.5, 4.0), gloss_deg=(2.5, 5.0), env_reflect=(0.5, 1.0),
        curl_mm=(0.5, 2.5),
        flicker=True, readout_ms=(10.0, 20.0), ae_jitter=(0.005, 0.015),
        wb_jitter=(0.003, 0.008), af_breathing=(0.005, 0.01), touch_rate_hz=TOUCHES,
        tremble_mrad=(0.2, 3.0), tremble_hz=(2.0, 5.0), tremble_damping=(0.03, 0.1),
        jpeg_jitter=6,
    ),
    "laptop": Look(
        "laptop",
        lens_blur_px=(0.8, 1.2), corner_softness=(1.0, 2.0), lateral_ca=(0.001, 0.002),
        coc_px=(1.0, 2.0), focus_ratio=(1.2, 2.5),
        exposure=(0.35, 0.9), low_light_share=0.35,
        read_noise=(2.5, 4.5), shot_noise=(0.06, 0.15),
        jpeg_quality=(60, 85), sharpen=(0.2, 0.5), wb_error=0.15, vignette=(0.3, 0.5),
        lamp_share=(0.3, 0.7), lamp_height_mm=(700.0, 1400.0), lamp_spread_mm=500.0,
        glare_peak=(1.5, 4.0), gloss_deg=(2.5, 5.0), env_reflect=(0.5, 1.0),
        curl_mm=(0.5, 2.5),
        flicker=True, readout_ms=(25.0, 33.0), ae_jitter=(0.005, 0.015),
        wb_jitter=(0.003, 0.008), touch_rate_hz=TOUCHES, tremble_mrad=(0.1, 1.5),
        tremble_hz=(8.0, 15.0), tremble_damping=(0.03, 0.1), jpeg_jitter=4,
    ),
    "ideal": Look("ideal", auto_exposure=False),
}
"""Image quality per kind of camera; the ranges and their sources are in docs/simulator.md."""


@dataclass(frozen=True)
class Pose:
    """Where the camera stands. Overhead: height and degrees from vertical, aimed at the mat
    centre. Laptop: height and horizontal distance from the mat's near edge (player 1's), aimed
    at the mat centre, or `aim_down_deg` below horizontal when it looks across the table."""

    height_mm: float
    tilt_deg: float | None = None
    behind_mm: float | None = None
    aim_down_deg: float | None = None

    @property
    def label(self) -> str:
        if self.tilt_deg is not None:
            return f"{self.height_mm / 10:.0f} cm, {self.tilt_deg:.0f} deg"
        return f"{self.height_mm / 10:.0f} cm high, {(self.behind_mm or 0) / 10:.0f} cm back"


@dataclass(frozen=True)
class CameraKind:
    name: str
    kind: str
    label: str
    width_px: int
    height_px: int
    hfov_deg: float
    k1: float
    k2: float
    mirror: bool
    look: str
    poses: tuple[Pose, ...]
    turns_deg: tuple[float, ...] = (0.0,)
    """One camera per entry, the rig turned this far about the mat's centre (0: as posed)."""

    @property
    def cameras(self) -> int:
        return len(self.turns_deg)

    def rigs(self, layout: LayoutLike, pose: Pose | None = None) -> tuple[Rig, ...]:
        """Every camera of the kind, in `turns_deg` order: the same rig carried round the
        table (two laptops with mirror clips: one at player 1's edge, one at player 2's)."""
        one = self.rig(layout, pose)
        centre = (layout.width_mm / 2, layout.height_mm / 2)
        return tuple(one if turn % 360 == 0 else turned_rig(one, turn, centre)
                     for turn in self.turns_deg)

    def rig(self, layout: LayoutLike, pose: Pose | None = None) -> Rig:
        """The first camera (the only one of most kinds)."""
        p = pose or self.poses[0]
        target = (layout.width_mm / 2, layout.height_mm / 2)
        if self.kind == "laptop":
            return edge_rig(self.width_px, self.height_px, self.hfov_deg, p.height_mm,
                            layout.height_mm, p.behind_mm or 0.0, target, self.k1, self.k2,
                            self.mirror, p.aim_down_deg)
        return overhead_rig(self.width_px, self.height_px, self.hfov_deg, p.height_mm,
                            p.tilt_deg or 0.0, target, self.k1, self.k2, self.mirror)


def _cameras_dir() -> Path:
    from companion.paths import calibration_dir

    return calibration_dir() / "cameras"


def _load_kind(path: Path) -> CameraKind | None:
    try:
        data = safeio.safe_load(safeio.read_text(path))
    except (safeio.UnsafeInputError, yaml.YAMLError) as exc:
        raise DataFileError(path, f"cannot read camera profile: {exc}") from exc
    if not isinstance(data, dict) or "kind" not in data:
        return None  # a profile for `calibrate` only, not a simulator camera
    try:
        poses = tuple(Pose(float(p["height_mm"]), _opt(p, "tilt_deg"), _opt(p, "behind_mm"),
                           _opt(p, "aim_down_deg")) for p in data["poses"])
        kind = CameraKind(
            str(data["name"]), str(data["kind"]), str(data.get("label", data["name"])),
            int(data["resolution"][0]), int(data["resolution"][1]), float(data["hfov_deg"]),
            float(data.get("k1", 0.0)), float(data.get("k2", 0.0)), bool(data.get("mirror")),
            str(data["look"]), poses,
            tuple(float(t) for t in data.get("turns_deg", (0.0,))),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise DataFileError(path, f"camera kind needs name, kind, resolution, hfov_deg, look "
                                  f"and poses: {exc}") from exc
    if kind.kind not in ("overhead", "laptop"):
        raise DataFileError(path, f"kind must be overhead or laptop, not {kind.kind!r}")
    if kind.look not in LOOKS:
        raise DataFileError(path, f"unknown look {kind.look!r}; choose one of "
                                  f"{', '.join(sorted(LOOKS))}")
    if not kind.poses:
        raise DataFileError(path, "a camera kind needs at least one pose")
    if not kind.turns_deg:
        raise DataFileError(path, "turns_deg needs at least one camera (0 for one as posed)")
    return kind


def _opt(node: dict[str, Any], key: str) -> float | None:
    value = node.get(key)
    return None if value is None else float(value)


@functools.lru_cache(maxsize=1)
def camera_kinds() -> dict[str, CameraKind]:
    """Every simulator camera kind in calibration/cameras/, by name."""
    out = {}
    for path in sorted(_cameras_dir().glob("*.yaml")):
        kind = _load_kind(path)
        if kind is not None:
            out[kind.name] = kind
    return out


def preset_names() -> list[str]:
    return [*camera_kinds(), EASY]


def camera_kind(name: str) -> CameraKind:
    kinds = camera_kinds()
    if name not in kinds:
        raise ValueError(f"unknown camera preset {name!r}; choose one of "
                         f"{', '.join(preset_names())}")
    return kinds[name]


Renderer = PhysicalRenderer | TableRenderer


def make_renderer(
    layout: LayoutLike,
    preset: str = DEFAULT_PRESET,
    pose: Pose | None = None,
    seed: int = 0,
    dice_style: str = "aruco",
    bump: Bump | None = None,
    symbology: Symbology | None = None,
    sticker_mm: float | None = None,
    look: Look | str | None = None,
    twin_stickers: bool = False,
) -> Renderer:
    """A renderer for a camera preset. `easy`/`legacy`: the old flat 1080p simulator.

    The stickers are drawn as `companion print stickers` prints them (the big-cell code) unless
    `symbology` says otherwise; the old flat simulator keeps its Micro QR stickers, one per
    card face. `twin_stickers`: two on each card face, one at each end (`companion print
    stickers --twin`)."""
    symbology = symbology or default_stickers(preset)
    if preset in EASY_ALIASES:
        return TableRenderer(layout, CameraProfile.named("1080p"), Degradation.webcam(),
                             symbology, sticker_mm, seed)
    kind = camera_kind(preset)
    if kind.cameras > 1:
        raise ValueError(f"camera preset {preset!r} is {kind.cameras} cameras at one table: "
                         "render it with make_renderers")
    chosen = look if isinstance(look, Look) else LOOKS[look or kind.look]
    return PhysicalRenderer(layout, kind.rig(layout, pose), chosen, symbology, sticker_mm,
                            seed, dice_style, bump, twin_stickers=twin_stickers)


def make_renderers(
    layout: LayoutLike,
    preset: str,
    pose: Pose | None = None,
    seed: int = 0,
    dice_style: str = "aruco",
    symbology: Symbology | None = None,
    twin_stickers: bool = False,
) -> list[PhysicalRenderer]:
    """One renderer per camera of a camera kind (one for most kinds), all at one table: the
    same mat and table top (`seed`) under the same lamp, each camera with its own sensor,
    exposure and lens quality (its own draw of the kind's look). Render one scene with each
    for what every camera sees of it."""
    kind = camera_kind(preset)
    chosen = LOOKS[kind.look]
    centre = (layout.width_mm / 2, layout.height_mm / 2)
    room = chosen.sample(seed, centre)
    out = []
    for k, rig in enumerate(kind.rigs(layout, pose)):
        own = room if k == 0 else replace(
            chosen.sample(seed + 7919 * k, centre), lamp=room.lamp, lamp_share=room.lamp_share,
            lamp_radius_mm=room.lamp_radius_mm, glare_peak=room.glare_peak,
            env_reflect=room.env_reflect, curl_mm=room.curl_mm)
        out.append(PhysicalRenderer(layout, rig, chosen, symbology or DEFAULT_SYMBOLOGY, None,
                                    seed, dice_style, conditions=own,
                                    twin_stickers=twin_stickers))
    return out


def twin_stickers_printed(game: str) -> bool:
    """Whether `companion print stickers` gives this game's cards two stickers a face (one at
    each end) by default: what the simulator then draws on its cards."""
    return game_spec(game).printing.twin_stickers


def default_stickers(preset: str) -> Symbology:
    """What a preset draws unless told: the printed default, Micro QR on the legacy row."""
    return LEGACY_SYMBOLOGY if preset in EASY_ALIASES else DEFAULT_SYMBOLOGY


def with_pose(kind: CameraKind, **changes: float) -> Pose:
    return replace(kind.poses[0], **changes)
