"""What one frame has given so far, handed from stage to stage of the pipeline.

A stage reads the fields the stages before it filled and returns a new context with its own
(`dataclasses.replace`): the frame's facts travel together, named, instead of as a dozen
positional values, and a stage can be run alone on a context built by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from companion.snapshot import TableSnapshot
from companion.vision.detect import Detection
from companion.vision.frame_check import InputVerdict
from companion.vision.geometry import MatGeometry
from companion.vision.sources import Frame
from companion.vision.tracker import Sighting


def _nothing_hidden(x_mm: float, y_mm: float) -> bool:
    return False


Placed = tuple[tuple[Sighting, Detection | None], ...]


@dataclass(frozen=True, eq=False)
class FrameContext:
    """One frame through the stages, in their order.

    picture check: `frame`, `image` (turned back when the picture is mirrored), `small` (the
    1/8-size cue copy), `verdict`; cues: `gray`, `motion`, `hand_mask` (cue image), `hand`
    (enough of it to say a hand is in view); card reader: `detections`, `aruco_ran`; mat fit:
    `geometry` (None: no mat); dice reader and placer: `placed` (sightings with the readings
    they come from), `unknown` (texts read that name nothing on this table), `occluded` (whether
a mat point lies under the hand); tracker:
    `sightings`, `snapshot`."""

    frame: Frame
    started: float  # perf_counter when the frame came in (its processing time)
    image: np.ndarray
    small: np.ndarray
    verdict: InputVerdict
    gray: np.ndarray | None = None
    motion: float = 0.0
    hand_mask: np.ndarray | None = None
    hand: bool = False
    detections: tuple[Detection, ...] = ()
    aruco_ran: bool = False
    geometry: MatGeometry | None = None
    placed: Placed = ()
    unknown: tuple[str, ...] = ()
    occluded: Callable[[float, float], bool] = _nothing_hidden
    sightings: tuple[Sighting, ...] = ()
    snapshot: TableSnapshot | None = None

    @property
    def time_s(self) -> float:
        return self.frame.time_s
