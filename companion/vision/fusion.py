"""Frame fusion: the average of the last still frames, where a camera's noise cancels.

On a still table the same sticker is seen again and again; each frame adds its own sensor
noise and its own JPEG blocking, and the mean of N frames has about 1/sqrt(N) of the noise.
Dim rooms (high gain) and strong compression gain most; blur does not average out. The
pipeline reads crops of the fused picture where a sticker-like square or a known card is not
read in the live frame. Any motion starts the average afresh, so a moved card never leaves a
ghost in it.
"""

from __future__ import annotations

import cv2
import numpy as np

MAX_FRAMES = 8


class FrameFusion:
    """Mean of the grayscale frames since the table was last still (the last `max_frames`).

    The frames are only kept (references, no copies: the pipeline never writes into a frame)
    and summed when the mean is asked for, which is rare (a few times a minute on a still
    table); summing on every frame cost 1.7 ms of a 1080p frame's budget.
    """

    def __init__(self, max_frames: int = MAX_FRAMES) -> None:
        self.max_frames = max_frames
        self._frames: list[np.ndarray] = []
        self._mean: np.ndarray | None = None

    @property
    def count(self) -> int:
        """Still frames in the mean."""
        return len(self._frames)

    def reset(self) -> None:
        self._frames = []
        self._mean = None

    def add(self, gray: np.ndarray, still: bool) -> None:
        """Add a frame; a frame that is not `still` restarts the average with itself."""
        if not still or not self._frames or self._frames[0].shape != gray.shape:
            self.reset()
        self._frames.append(gray)
        if len(self._frames) > self.max_frames:
            self._frames.pop(0)
        self._mean = None

    def turned(self) -> None:
        """The picture was found mirrored and the current frame (the last added) will be read
        again, turned back: the still frames before it show the same view, turned; the
        current one comes again."""
        self._frames = [cv2.flip(frame, 1) for frame in self._frames[:-1]]
        self._mean = None

    def fused(self) -> np.ndarray | None:
        """The mean picture, or None before two still frames were seen."""
        if self.count < 2:
            return None
        if self._mean is None:
            self._mean = _mean(self._frames)
        return self._mean

    def fused_crop(self, box: tuple[int, int, int, int]) -> np.ndarray | None:
        """The mean of one box (x0, y0, x1, y1) of the still frames, or None before two were
        seen: a small part costs a small sum."""
        if self.count < 2:
            return None
        x0, y0, x1, y1 = box
        if self._mean is not None:
            return self._mean[y0:y1, x0:x1]
        return _mean([frame[y0:y1, x0:x1] for frame in self._frames])


def _mean(frames: list[np.ndarray]) -> np.ndarray:
    """The mean of equally sized 8-bit pictures, rounded back to 8 bits."""
    total = frames[0].astype(np.float32)
    for frame in frames[1:]:
        cv2.accumulate(frame, total)
    return np.asarray(cv2.convertScaleAbs(total, alpha=1.0 / len(frames)))

