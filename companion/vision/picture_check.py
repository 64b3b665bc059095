"""The picture check: the frame turned back when mirrored, its cue copy, and its verdict.

First of the stages, because a black or frozen picture must reach nothing else: the table is
held as it was and the stats say why (`frame_check`). Its first half (`glance`) needs only the
cue copy, which a frame kept as JPEG gives without being decoded whole: the motion gate decides
on it whether the frame is read at all.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.frame_check import FrameCheck, InputVerdict
from companion.vision.frame_context import FrameContext
from companion.vision.sources import Frame, reduced_copy
from companion.vision.table_cues import SMALL, small_copy


class PictureCheck:
    def __init__(self, frame_check: FrameCheck | None = None) -> None:
        self.frame_check = frame_check or FrameCheck()

    def glance(self, frame: Frame, mirrored: bool, frames: int = 1
               ) -> tuple[np.ndarray, InputVerdict] | None:
        """The cue copy and verdict of a frame kept as JPEG, without decoding it whole (None
        for a frame that is a picture already: `look` shrinks it). `frames`: the camera frames
        this look stands for (`FrameCheck.check`)."""
        small = reduced_copy(frame, SMALL)
        if small is None:
            return None
        if mirrored:
            small = cv2.flip(small, 1)
        return small, self.frame_check.check(small, frame.time_s, frames)

    def look(self, frame: Frame, mirrored: bool, started: float,
             glanced: tuple[np.ndarray, InputVerdict] | None = None,
             frames: int = 1) -> FrameContext:
        """`glanced`: what `glance` gave for this frame (its checks are not run twice)."""
        image = frame.image
        if mirrored:
            image = cv2.flip(image, 1)
        if glanced is None:
            small = small_copy(image)
            glanced = small, self.frame_check.check(small, frame.time_s, frames)
        return FrameContext(frame, started, image, *glanced)
