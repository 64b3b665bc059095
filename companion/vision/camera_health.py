"""The camera's health in plain words: what the page says about the picture and the mat.

The frame's own state, the mat's fit, the mirror and the orientation, and now and then the
camera check (what `companion calibrate` says, on the pipeline's own frame and detections, so
it costs a few milliseconds every few seconds); its advice joins the messages while something
is wrong.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from companion.vision.detect import Detection
from companion.vision.frame_check import InputVerdict
from companion.vision.geometry import CameraProfile

MatFit = Literal["ok", "held", "none"]

CHECK_EVERY_S = 5.0  # the camera check (calibrate's advice) runs this often


class CameraHealth:
    """`camera_check`: the latest camera check's report (None: none yet)."""

    def __init__(self, layout: Any, camera: CameraProfile | None) -> None:
        self.layout = layout
        self.camera = camera
        self.camera_check: dict[str, Any] | None = None  # the latest camera check (calibrate)
        self.check_advice: tuple[str, ...] = ()
        self.last_check_s = -math.inf

    def due(self, time_s: float, hand: bool) -> bool:
        return time_s - self.last_check_s >= CHECK_EVERY_S and not hand

    def check_camera(self, image: np.ndarray, dets: Sequence[Detection], time_s: float,
                     big_cell: bool, mirrored: bool) -> None:
        """The page's camera check (`big_cell`: the table's stickers are big-cell ones)."""
        from companion.vision.calibration import CalibrationError, calibrate_frame

        self.last_check_s = time_s
        kind: Any = "bigcell" if big_cell else "microqr"
        try:
            report = calibrate_frame(image, self.layout, float(self.layout.sticker_mm),
                                     self.camera, detections=list(dets), stickers=kind,
                                     mirror=mirrored)
        except (CalibrationError, AttributeError):
            return  # a layout without zones (a test mat) or a moment without corners
        self.camera_check = report.to_dict()
        self.check_advice = tuple(a for a in report.advice if not report.ok
                                  and not a.startswith("Only "))

    def messages(self, verdict: InputVerdict, mat_fit: MatFit, corners: int, orientation: str,
                 mirrored: bool, mirror_mode: bool | None) -> tuple[str, ...]:
        out = []
        if verdict.message:
            out.append(verdict.message)
        if verdict.usable:
            if mat_fit == "none":
                ids = ", ".join(str(c.marker_id) for c in self.layout.corners)
                if corners == 1:
                    out.append("Only one corner marker of the mat reads: the mat is located from "
                               "two or more. Uncover the corners or show more of the mat.")
                else:
                    out.append("The mat is not in view: none of its corner markers reads (ids "
                               f"{ids}). Point the camera at the whole mat; nothing is recorded "
                               "until it is found.")
            elif mat_fit == "held":
                out.append(f"Only {corners} of the mat's 4 corner markers in view: the mat is "
                           "held where it was last seen. Uncover the corners.")
        if mirrored and mirror_mode is None:
            out.append("The picture is mirrored (a mirror clip?): it is turned back before "
                       "reading. Start with --mirror to skip this check.")
        if mirror_mode is not None and mirrored != mirror_mode:
            given, now = (("--mirror", "not mirrored: it is read as it comes") if mirror_mode
                          else ("--no-mirror", "mirrored: it is turned back before reading"))
            out.append(f"The camera was started with {given}, but the mat's corner markers read "
                       f"only the other way round, so the picture is {now}. Start without "
                       f"{given} to have this found out.")
        if orientation == "upside-down":
            out.append("The picture is upside down (player 2's side at the bottom): it reads "
                       "as well; turn the camera for an upright view.")
        if verdict.usable and mat_fit != "none":
            out.extend(self.check_advice)
        return tuple(out)
