"""The picture check: the frame turned back when mirrored, its cue copy, and its verdict.

First of the stages, because a black or frozen picture must reach nothing else: the table is
held as it was and the stats say why (`frame_check`).
"""

from __future__ import annotations

import cv2

from companion.vision.frame_check import FrameCheck
from companion.vision.frame_context import FrameContext
from companion.vision.sources import Frame
from companion.vision.table_cues import small_copy


class PictureCheck:
    def __init__(self, frame_check: FrameCheck | None = None) -> None:
        self.frame_check = frame_check or FrameCheck()

    def look(self, frame: Frame, mirrored: bool, started: float) -> FrameContext:
        image = frame.image
        if mirrored:
            image = cv2.flip(image, 1)
        small = small_copy(image)
        verdict = self.frame_check.check(small, frame.time_s)
        return FrameContext(frame, started, image, small, verdict)
