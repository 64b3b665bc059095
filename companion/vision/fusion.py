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
    """Running mean of grayscale frames since the table was last still."""

    def __init__(self, max_frames: int = MAX_FRAMES) -> None:
        self.max_frames = max_frames
        self._sum: np.ndarray | None = None
        self._frames: list[np.ndarray] = []
        self.count = 0

    def reset(self) -> None:
        self._sum = None
        self._frames = []
        self.count = 0

    def add(self, gray: np.ndarray, still: bool) -> None:
        """Add a frame; a frame that is not `still` restarts the average with itself."""
        if not still or self._sum is None or self._sum.shape != gray.shape:
            self.reset()
            self._sum = gray.astype(np.float32)
            self._frames = [gray]
            self.count = 1
            return
        cv2.accumulate(gray, self._sum)
        self._frames.append(gray)
        if len(self._frames) > self.max_frames:
            cv2.subtract(self._sum, self._frames.pop(0).astype(np.float32), dst=self._sum)
        self.count = len(self._frames)

    def fused(self) -> np.ndarray | None:
        """The mean picture, or None before two still frames were seen."""
        if self._sum is None or self.count < 2:
            return None
        return np.asarray(cv2.convertScaleAbs(self._sum, alpha=1.0 / self.count))
