"""Where the live session's snapshots come from: camera frames through the vision pipeline,
or (for tests and checks) the visible snapshots of a table script.

Why a thread per feed: the camera loop must never wait for a browser, and a browser must never
wait for a frame. The feed calls into the session; the session is thread-safe.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.server.session import LiveSession
from companion.snapshot import TableSnapshot
from companion.vision.heap import freeze_loaded_objects

log = logging.getLogger(__name__)

FRAME_JPEG_EVERY_S = 0.2
FRAME_JPEG_STILL_EVERY_S = 1.0  # while the motion gate skips frames (nothing moved)
SECOND_LOOK_S = 1.0
"""Camera time a table with a card or die gone waits for a second look (a settled table
takes 0.3-0.6 s after a hand leaves: one more still second costs that change's latency)."""
PREVIEW_WIDTH = 960
KEYFRAME_WIDTH = 960  # large enough to read card names when reviewing


class Feed(Protocol):
    def run(self, session: LiveSession, stop: threading.Event) -> None: ...


class SnapshotFeed:
    """Plays ready-made snapshots into the session, `interval_s` apart (no camera)."""

    def __init__(self, snapshots: Sequence[TableSnapshot], interval_s: float = 0.0) -> None:
        self.snapshots = list(snapshots)
        self.interval_s = interval_s

    def run(self, session: LiveSession, stop: threading.Event) -> None:
        session.camera("ok", detail="table script (no camera)", calibrated=True,
                       detail_de="Tischskript (keine Kamera)")
        for i, snap in enumerate(self.snapshots):
            if stop.is_set():
                return
            session.observe(snap.with_seq(i, float(i)))
            if self.interval_s and stop.wait(self.interval_s):
                return
        session.camera("finished", calibrated=True, detail="table script played to its end",
                       detail_de="Tischskript zu Ende gespielt")


class FrameFeed:
    """Camera (or simulator) frames -> vision pipeline -> settled snapshots -> session.

    `state()` of the source (ReconnectingSource) becomes the camera status; a dropped camera
    keeps the game and shows "reconnecting" until frames come back.
    """

    def __init__(
        self,
        source: Any,
        pipeline: Any,
        end_status: str = "stopped",
        on_frame: Callable[[Any], None] | None = None,
        on_end: Callable[[], None] | None = None,
    ) -> None:
        self.source = source
        self.pipeline = pipeline
        self.end_status = end_status
        self.on_frame = on_frame
        self.on_end = on_end
        self.frames = 0
        self.snapshots = 0
        self.cameras: Any = None
        """`TableCameras` when other devices' cameras may join (build_live sets it): the
        settled tables go through it, fused with theirs once one has joined."""

    def run(self, session: LiveSession, stop: threading.Event) -> None:
        last_jpeg = 0.0
        freeze_loaded_objects()
        session.second_look_s = SECOND_LOOK_S
        try:
            while not stop.is_set():
                frame = self.source.read()
                state = getattr(self.source, "state", "connected")
                if frame is None:
                    if state in ("retrying",):
                        session.camera("reconnecting", detail=str(
                            getattr(self.source, "last_error", "") or "camera not answering"))
                        stop.wait(0.2)
                        continue
                    break
                self.frames += 1
                update = self.pipeline.process(frame)
                stats = update.stats
                now = time.monotonic()
                jpeg: bytes | None = None
                # a frame the motion gate skipped shows what the last one read showed: its
                # preview is made (and the frame decoded) less often
                every = (FRAME_JPEG_EVERY_S if getattr(stats, "read", True)
                         else FRAME_JPEG_STILL_EVERY_S)
                if update.snapshot is not None or now - last_jpeg >= every:
                    last_jpeg = now
                    jpeg = overlay_jpeg(picture_of(frame, self.pipeline, update),
                                        self.pipeline, update, PREVIEW_WIDTH)
                session.camera(
                    "ok",
                    fps=float(stats.fps),
                    markers=int(stats.markers_seen),
                    calibrated=bool(stats.calibration_ok),
                    detail=f"{stats.cards_seen} cards, {stats.frame_ms:.0f} ms/frame",
                    detail_de=f"{stats.cards_seen} Karten, {stats.frame_ms:.0f} ms/Bild",
                    frame_jpeg=jpeg,
                    frame_arrived=True,
                    **stats_fields(stats),
                )
                cameras = self.cameras
                if cameras is not None:
                    cameras.see(update.detections, getattr(self.pipeline, "geometry", None))
                if update.snapshot is not None:
                    self.snapshots += 1
                    key = overlay_jpeg(picture_of(frame, self.pipeline, update),
                                       self.pipeline, update, KEYFRAME_WIDTH)
                    if cameras is not None:
                        cameras.own(update.snapshot, key)
                    else:
                        session.observe(update.snapshot, key)
                session.camera_time(float(getattr(frame, "time_s", 0.0)))
                if self.on_frame is not None:
                    self.on_frame(frame)
            session.flush()
            if self.on_end is not None and not stop.is_set():
                self.on_end()
        finally:
            self.source.close()
            session.camera(self.end_status, calibrated=session.health.calibrated,
                           detail=f"{self.frames} frames, {self.snapshots} settled tables",
                           detail_de=f"{self.frames} Bilder, {self.snapshots} ruhige Tische")


def picture_of(frame: Any, pipeline: Any, update: Any) -> Any:
    """The picture as the pipeline read it (turned back when mirrored); for a frame the
    motion gate skipped (no picture in the update), the frame's own, turned the same way."""
    picture = getattr(update, "image", None)
    if picture is not None:
        return picture
    if getattr(pipeline, "mirrored", False):
        import cv2

        return cv2.flip(frame.image, 1)
    return frame.image


HEALTH_KEYS = frozenset({"status", "fps", "markers", "calibrated", "detail", "detail_de",
                         "frame_jpeg", "frame_arrived"})


def stats_fields(stats: Any) -> dict[str, Any]:
    """Every field of the pipeline's stats (figures, plain messages) for the page's health
    line; the session keeps what is JSON-safe."""
    if dataclasses.is_dataclass(stats) and not isinstance(stats, type):
        fields = {f.name: getattr(stats, f.name) for f in dataclasses.fields(stats)}
    else:
        fields = {k: getattr(stats, k) for k in dir(stats)
                  if not k.startswith("_") and not callable(getattr(stats, k))}
    return {k: v for k, v in fields.items() if k not in HEALTH_KEYS and not k.startswith("_")}


def overlay_jpeg(image: Any, pipeline: Any, update: Any, width: int) -> bytes:
    """The frame with mat corners, zones and every marker found drawn on it, as JPEG."""
    import cv2
    import numpy as np

    canvas = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    canvas = canvas.copy()
    geometry = getattr(pipeline, "geometry", None)
    layout = getattr(pipeline, "layout", None)
    if geometry is not None and layout is not None:
        for zone in layout.zones.values():
            x0, y0 = zone.x_mm, zone.y_mm
            x1, y1 = x0 + zone.w_mm, y0 + zone.h_mm
            box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
            pts = geometry.to_image(box).astype(np.int32)
            cv2.polylines(canvas, [pts], True, (90, 200, 255), 2, cv2.LINE_AA)
        for corner in layout.corners:
            centre = geometry.to_image(np.array([[corner.x_mm, corner.y_mm]], dtype=np.float64))
            cx, cy = (int(v) for v in centre[0])
            cv2.circle(canvas, (cx, cy), 14, (0, 220, 255), 3, cv2.LINE_AA)
    for det in getattr(update, "detections", ()):
        pts = np.asarray(det.corners, dtype=np.int32).reshape(-1, 2)
        colour = (80, 220, 80) if det.kind != "unknown" else (60, 60, 230)
        cv2.polylines(canvas, [pts], True, colour, 3, cv2.LINE_AA)
    h, w = canvas.shape[:2]
    if w > width:
        canvas = cv2.resize(canvas, (width, int(h * width / w)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 75])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return bytes(buf)


WATCH_EVERY_S = 0.25


class FeedRunner:
    """Runs one feed in a daemon thread; `stop()` ends it and waits.

    A second thread, the watchdog, calls `session.tick()` a few times a second: a camera that
    sends no frame is "stalled" within two seconds even while the feed thread hangs in a
    read, and a paused recording retries on its own."""

    def __init__(self, feed: Feed, session: LiveSession) -> None:
        self.feed = feed
        self.session = session
        self._stop = threading.Event()
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="companion-feed", daemon=True)
        self._watchdog = threading.Thread(target=self._watch, name="companion-watchdog",
                                          daemon=True)

    def _watch(self) -> None:
        while not self._stop.wait(WATCH_EVERY_S):
            try:
                self.session.tick()
            except Exception:  # the watchdog must outlive any one bad tick
                log.exception("watchdog tick failed")

    def _run(self) -> None:
        try:
            self.feed.run(self.session, self._stop)
        except BaseException as exc:  # reported on the page and to whoever joins
            self.error = exc
            log.exception("feed stopped")
            # plain words on the page (the terminal log above has the exception's class)
            said = str(exc).strip() or "the camera feed stopped unexpectedly"
            self.session.camera("stopped", detail=f"{said} (see the terminal)",
                                detail_de=f"{said} (Details im Terminal)")

    def start(self) -> FeedRunner:
        self._thread.start()
        self._watchdog.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for thread in (self._thread, self._watchdog):
            if thread.ident is not None:
                thread.join(timeout)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()
