"""QR-family decoder backends behind one shape: grayscale image in, `RawSymbol`s out.

Each backend module exposes `read(gray, options) -> list[RawSymbol]` and imports its library
lazily, so choosing zxing never needs libzbar and `companion --help` needs neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

BackendName = Literal["zxing", "pyzbar", "opencv"]
BACKENDS: tuple[BackendName, ...] = ("zxing", "pyzbar", "opencv")


@dataclass(frozen=True)
class ReadOptions:
    """What to look for: Micro QR (our stickers) and/or full QR (foreign or test codes)."""

    micro_qr: bool = True
    qr: bool = False
    global_histogram: bool = False  # zxing only: the second-pass binarizer on crops
    report_failures: bool = False  # zxing only: also return symbols found but not decoded


@dataclass(frozen=True)
class RawSymbol:
    """One decoded symbol before it is interpreted as a companion marker.

    `corners` are 4x2 float pixel coordinates in the symbol's own order: top-left, top-right,
    bottom-right, bottom-left as printed, so corners[1] - corners[0] points along its top edge.
    `modules` is the symbol's width in modules when the decoder knows it, else 0.
    `valid` is False for a symbol that was located but failed to decode (its text is junk;
    its corners are worth a closer look).
    """

    text: str
    corners: np.ndarray
    decoder: str
    symbology: str  # "microqr" | "qr"
    modules: int = 0
    raw: bytes = field(default=b"", compare=False)
    valid: bool = True


def modules_for_version(version: str) -> int:
    """Module count across a QR (\"1\"..\"40\") or Micro QR (\"M1\"..\"M4\") version string."""
    version = version.strip().upper()
    if version.startswith("M") and version[1:].isdigit():
        return 9 + 2 * int(version[1:])
    if version.isdigit():
        return 17 + 4 * int(version)
    return 0


def order_clockwise(points: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise (image coordinates, y down) starting nearest the top-left."""
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)
