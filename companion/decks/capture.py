"""Feed a `DeckScanner` from frames: an image folder, a video or a live camera.

Per frame, the detector finds card stickers. When the mat's corner markers are visible, only
stickers whose centre lies in the scan zone count; without the mat in view (close-up photos of
one card at a time) every front sticker in the frame counts. From a live camera a sticker must
be read in `steady` consecutive frames before it counts, so a card passing through the view on
its way elsewhere is not registered.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.decks.scanner import DeckScanner, ScanEvent
from companion.vision.detect import Detection, Detector
from companion.vision.geometry import GeometryError, LayoutLike, MatGeometry
from companion.vision.sources import FrameSource


@dataclass
class CaptureStats:
    frames: int = 0
    frames_with_mat: int = 0


def zone_texts(
    detections: list[Detection], geometry: MatGeometry | None, zone: str | None
) -> tuple[list[str], list[str]]:
    """(card sticker texts in the scan zone, unknown symbol texts) of one frame."""
    cards: list[str] = []
    unknown: list[str] = []
    for det in detections:
        if det.kind in ("front", "back"):
            if geometry is not None and zone is not None and geometry.place(det).zone != zone:
                continue
            cards.append(det.text)
        elif det.kind == "unknown":
            unknown.append(det.text)
    return cards, unknown


def scan_source(
    source: FrameSource,
    scanner: DeckScanner,
    layout: LayoutLike | None = None,
    steady: int = 1,
    on_event: Callable[[ScanEvent], None] | None = None,
    detector: Detector | None = None,
    max_frames: int | None = None,
    stop_after_s: float | None = None,
) -> CaptureStats:
    """Read frames until the source ends (or `max_frames` / `stop_after_s` seconds pass),
    registering cards as they appear."""
    detector = detector or Detector(backend="zxing")
    stats = CaptureStats()
    streak: dict[str, int] = {}
    reported_unknown: set[str] = set()
    deadline = None if stop_after_s is None else time.monotonic() + stop_after_s
    while max_frames is None or stats.frames < max_frames:
        if deadline is not None and time.monotonic() > deadline:
            break
        frame = source.read()
        if frame is None:
            break
        stats.frames += 1
        detections = detector.detect(frame.image)
        geometry = _fit(detections, layout)
        if geometry is not None:
            stats.frames_with_mat += 1
        texts, unknown = zone_texts(detections, geometry, scanner.zone)
        streak = {t: streak.get(t, 0) + 1 for t in texts}
        steady_texts = [t for t, n in streak.items() if n >= steady]
        events = scanner.see_texts(steady_texts)
        for text in unknown:
            if text not in reported_unknown:
                reported_unknown.add(text)
                events.append(scanner.report_unknown(text, "not one of our stickers"))
        if on_event is not None:
            for event in events:
                on_event(event)
    return stats


def _fit(detections: list[Detection], layout: LayoutLike | None) -> MatGeometry | None:
    if layout is None:
        return None
    try:
        return MatGeometry.fit(detections, layout)
    except GeometryError:
        return None
