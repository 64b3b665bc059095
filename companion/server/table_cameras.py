"""The table's own camera and the cameras that joined from other devices, as one eye.

Without a joined camera the table's own settled tables go to the session as they are. Once a
camera on another device has joined (`companion join`, companion/server/cameras.py), the table's
own reading is one view among them: each settled table of either side is fused (the clearer view
wins, views that disagree are left out: `companion.vision.multicam`) and the fused table is what
the session observes. A joined camera that falls silent stops counting after a few seconds, and
the table's own camera goes on alone.

The places the table's own camera sees under the lamp's reflection (`unreadable`) ride along:
only that camera looks for them. So do the cards it sees but cannot identify (too far from it),
except where a joined camera read a card there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from companion.server.unidentified import still_unread
from companion.snapshot import TableSnapshot
from companion.vision.multicam import (
    STALE_S,
    CameraView,
    CornerAnchors,
    FusedTable,
    GridClarity,
    RemoteCameras,
    clarity_grid,
    mostly,
    watched_by,
)

THIS_CAMERA = "this table's camera"
REFRESH_S = 1.0  # the table's own view is renewed in the fusion this often while it runs


class TableCameras:
    """Fuses the table's own eye with the joined cameras and tells the session."""

    def __init__(self, game: str, layout: Any, observe: Callable[..., None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.layout = layout
        self.game = game
        self.hub = RemoteCameras(game, layout, clock)
        self.clock = clock
        self._observe = observe
        self._lock = threading.Lock()
        self._anchors = CornerAnchors(layout)
        self._own: TableSnapshot | None = None
        self._grid: list[list[float]] | None = None
        self._grid_of: Any = None  # the mat fit the grid was taken from
        self._geometry: Any = None
        self._renewed = -1e9
        self._seen_s = -1e9  # when the table's own camera last gave a frame
        self._others = False  # a camera on another device has sent a reading

    def joined(self) -> bool:
        """Whether a camera on another device counts now."""
        return any(c["live"] and c["camera"] != THIS_CAMERA for c in self.hub.status())

    def see(self, detections: Sequence[Any], geometry: Any) -> None:
        """Every frame of the table's own camera: the corner markers its fit stands on and its
        mat fit; while cameras have joined, its view stays current in the fusion."""
        with self._lock:
            self._anchors.see(detections)
            self._geometry = geometry
            self._seen_s = self.clock()
            if (self._others and self._own is not None
                    and self.clock() - self._renewed >= REFRESH_S):
                self._renew()

    def own(self, snapshot: TableSnapshot, frame_jpeg: bytes | None = None) -> None:
        """A settled table of the table's own camera."""
        with self._lock:
            self._own = snapshot
            if not self._others or not self.joined():
                self._observe(snapshot, frame_jpeg)
                return
            self._observe(self._with_own_glare(self._renew()), frame_jpeg)

    def remote(self, _fused: FusedTable | None = None) -> None:
        """A joined camera's reading arrived: the table as all cameras see it now."""
        with self._lock:
            self._others = True
            fused = self._renew() if self._own is not None else self.hub.fused()
            self._observe(self._with_own_glare(fused), None)

    def status(self) -> dict[str, Any]:
        """The page's camera view: the table's own camera first, then those that joined, each
        with what it reads (cards, dice) and the halves of the mat it sees clearly enough to
        read; and the halves no live camera sees (`unwatched`)."""
        with self._lock:
            zones, depth = self.hub.zones, self.hub.height_mm
            grid = self._own_grid()
            own_zones = set() if grid is None else watched_by(
                CameraView(THIS_CAMERA, self._own, GridClarity(grid)), zones)
            live = self.clock() - self._seen_s <= STALE_S
            own = self._own
            cameras: list[dict[str, Any]] = [{
                "camera": THIS_CAMERA, "own": True, "live": live,
                "cards": len(own.cards) if own else 0, "dice": len(own.dice) if own else 0,
                "halves": list(mostly(own_zones, zones, depth))}]
            cameras += [{**c, "own": False} for c in self.hub.status()
                        if c["camera"] != THIS_CAMERA]
            watched = self.hub.watched(leave_out=THIS_CAMERA) | (own_zones if live else set())
            return {"cameras": cameras,
                    "unwatched": list(mostly(set(zones) - watched, zones, depth))}

    def _own_grid(self) -> list[list[float]] | None:
        """How clearly the table's own camera sees the mat (sampled), for its mat fit."""
        if self._geometry is not self._grid_of:
            self._grid_of = self._geometry
            self._grid = None if self._geometry is None else clarity_grid(
                self._geometry.px_per_mm, float(self.layout.width_mm),
                float(self.layout.height_mm))
        return self._grid

    def _renew(self) -> FusedTable:
        """The table's own latest reading, with how clearly it sees, into the fusion."""
        self._renewed = self.clock()
        return self.hub.receive(THIS_CAMERA, self._own, self._own_grid(),
                                self._anchors.points())

    def _with_own_glare(self, fused: FusedTable) -> TableSnapshot:
        """The fused table with the own camera's unreadable places, less the cards it saw
        but could not identify that a joined camera read (`unidentified.still_unread`)."""
        own = self._own
        snapshot = fused.snapshot
        if own is None:
            return snapshot
        return replace(snapshot, unreadable=still_unread(own.unreadable, snapshot))
