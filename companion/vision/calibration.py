"""Camera placement check from one frame of the mat: tilt, pixels per sticker module per zone,
and advice in plain words.

The limits are DESIGN.md's measurements: a Micro QR M2 reads from about 2.4 px per module
(3 px is comfortable); tilt up to 20 degrees from vertical reads fully, 35 degrees already
loses a quarter of the stickers; 720p is too coarse for stickers that fit a card.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import numpy as np

from companion.errors import CompanionError
from companion.vision.detect import Detection, Detector
from companion.vision.geometry import (
    MICRO_QR_M2_MODULES,
    CameraProfile,
    GeometryError,
    MatGeometry,
    default_camera_profile,
)

if TYPE_CHECKING:
    from companion.layouts import MatLayout

MIN_PX_PER_MODULE = 2.4
GOOD_PX_PER_MODULE = 3.0
GOOD_TILT_DEG = 20.0
MAX_TILT_DEG = 35.0
MIN_FRAME_HEIGHT = 1080

Verdict = Literal["good", "marginal", "poor"]


class CalibrationError(CompanionError):
    """The frame cannot be used to check the camera (no mat corner marker visible)."""


@dataclass(frozen=True)
class ZoneReading:
    zone: str
    px_per_module: float
    verdict: Verdict


@dataclass(frozen=True)
class CalibrationReport:
    game: str
    image_size: tuple[int, int]
    corners_seen: list[int]
    corners_expected: list[int]
    tilt_deg: float
    tilt_verdict: Verdict
    sticker_mm: float
    zones: list[ZoneReading]
    mat_outside_frame: list[str]
    advice: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            self.tilt_verdict != "poor"
            and all(z.verdict != "poor" for z in self.zones)
            and not self.mat_outside_frame
            and self.image_size[1] >= MIN_FRAME_HEIGHT
        )

    @property
    def worst_zone(self) -> ZoneReading | None:
        return min(self.zones, key=lambda z: z.px_per_module, default=None)

    def to_dict(self) -> dict[str, object]:
        out = asdict(self)
        out["ok"] = self.ok
        out["tilt_deg"] = round(self.tilt_deg, 1)
        out["zones"] = [
            {"zone": z.zone, "px_per_module": round(z.px_per_module, 2), "verdict": z.verdict}
            for z in self.zones
        ]
        return out


def _module_verdict(px_per_module: float) -> Verdict:
    if px_per_module >= GOOD_PX_PER_MODULE:
        return "good"
    return "marginal" if px_per_module >= MIN_PX_PER_MODULE else "poor"


def _tilt_verdict(tilt: float) -> Verdict:
    if tilt <= GOOD_TILT_DEG:
        return "good"
    return "marginal" if tilt <= MAX_TILT_DEG else "poor"


def zone_readings(
    geometry: MatGeometry, layout: MatLayout, sticker_mm: float
) -> list[ZoneReading]:
    """Worst pixels-per-module over each zone's corners and centre."""
    readings = []
    for zone in layout.zones.values():
        points = [
            zone.centre,
            (zone.x_mm, zone.y_mm),
            (zone.x_mm + zone.w_mm, zone.y_mm),
            (zone.x_mm, zone.y_mm + zone.h_mm),
            (zone.x_mm + zone.w_mm, zone.y_mm + zone.h_mm),
        ]
        ppm = min(
            geometry.px_per_module(x, y, sticker_mm, MICRO_QR_M2_MODULES) for x, y in points
        )
        readings.append(ZoneReading(zone.id, ppm, _module_verdict(ppm)))
    return readings


def _outside(geometry: MatGeometry, layout: MatLayout, size: tuple[int, int]) -> list[str]:
    names = ("top-left", "top-right", "bottom-right", "bottom-left")
    w, h = layout.width_mm, layout.height_mm
    corners = geometry.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=float))
    width, height = size
    return [
        name
        for name, (x, y) in zip(names, corners, strict=True)
        if not (0 <= x < width and 0 <= y < height)
    ]


def advise(report: CalibrationReport) -> list[str]:
    """Plain-words advice, most important first."""
    advice = []
    width, height = report.image_size
    missing = sorted(set(report.corners_expected) - set(report.corners_seen))
    if report.mat_outside_frame:
        advice.append(
            f"Part of the mat is outside the picture ({', '.join(report.mat_outside_frame)} "
            "corner): move the camera back or up until the whole mat is in view."
        )
    elif missing:
        advice.append(
            f"Only {len(report.corners_seen)} of 4 corner markers are visible (missing ids "
            f"{', '.join(map(str, missing))}): uncover them for a steadier fit."
        )
    if height < MIN_FRAME_HEIGHT:
        advice.append(
            f"The frame is {width}x{height}: set the camera to 1080p (1920x1080); at 720p no "
            "sticker that fits a card reads reliably."
        )
    if report.tilt_verdict == "poor":
        advice.append(
            f"The camera looks {report.tilt_deg:.0f} degrees away from straight down: above "
            f"{MAX_TILT_DEG:.0f} degrees most stickers stop reading. Mount it higher, above the "
            "middle of the mat, pointing down."
        )
    elif report.tilt_verdict == "marginal":
        advice.append(
            f"The camera looks {report.tilt_deg:.0f} degrees away from straight down; up to "
            f"{GOOD_TILT_DEG:.0f} degrees every sticker reads. Point it more steeply down if "
            "you can."
        )
    worst = report.worst_zone
    if worst is not None and worst.verdict != "good":
        needed = math.ceil(report.sticker_mm * GOOD_PX_PER_MODULE / worst.px_per_module)
        level = "too small to read" if worst.verdict == "poor" else "at the edge of reading"
        advice.append(
            f"{report.sticker_mm:g} mm stickers are {level} in zone {worst.zone} "
            f"({worst.px_per_module:.1f} px per module, {GOOD_PX_PER_MODULE:g} needed): move "
            f"the camera closer, use 1080p, or print stickers of at least {needed} mm."
        )
    if not advice:
        advice.append(
            f"Camera placement is good: {report.sticker_mm:g} mm stickers get at least "
            f"{worst.px_per_module if worst else 0:.1f} px per module everywhere and the tilt "
            f"is {report.tilt_deg:.0f} degrees."
        )
    return advice


def calibrate_frame(
    image: np.ndarray,
    layout: MatLayout,
    sticker_mm: float = 25.0,
    camera: CameraProfile | None = None,
    detections: list[Detection] | None = None,
) -> CalibrationReport:
    """Check the camera from one frame showing the mat of `layout`."""
    if sticker_mm <= 0:
        raise CalibrationError(f"sticker size must be positive, not {sticker_mm:g} mm")
    if detections is None:
        detections = Detector(aruco=True).detect(image)
    expected = [c.marker_id for c in layout.corners]
    try:
        geometry = MatGeometry.fit(detections, layout)
    except GeometryError as exc:
        raise CalibrationError(
            f"{exc}: is this the {layout.game} mat, fully in the picture and evenly lit?"
        ) from exc
    height, width = image.shape[:2]
    size = (int(width), int(height))
    tilt = geometry.tilt_deg(size, camera or default_camera_profile())
    seen = sorted({d.marker_id for d in detections if d.marker_id in expected})
    report = CalibrationReport(
        game=layout.game,
        image_size=size,
        corners_seen=[m for m in seen if m is not None],
        corners_expected=expected,
        tilt_deg=tilt,
        tilt_verdict=_tilt_verdict(tilt),
        sticker_mm=sticker_mm,
        zones=zone_readings(geometry, layout, sticker_mm),
        mat_outside_frame=_outside(geometry, layout, size),
    )
    return replace(report, advice=advise(report))
