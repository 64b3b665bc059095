"""OpenCV backend: QRCodeDetectorAruco (multi-code); plain QR only, slowest, reads least."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from companion.vision.decoders import RawSymbol, ReadOptions

NAME = "opencv"


@lru_cache(maxsize=1)
def _detector() -> cv2.QRCodeDetectorAruco:
    return cv2.QRCodeDetectorAruco()


def read(gray: np.ndarray, options: ReadOptions) -> list[RawSymbol]:
    if not options.qr:
        return []
    try:
        # The bytes variant: the text variant fails outright on a non-UTF-8 payload.
        ok, payloads, points, _ = _detector().detectAndDecodeBytesMulti(gray)
    except cv2.error:
        return []
    if not ok or points is None:
        return []
    symbols = []
    for payload, quad in zip(payloads, points, strict=False):
        data = bytes(payload)
        if not data:
            continue
        symbols.append(
            RawSymbol(
                text=_text(data),
                corners=np.asarray(quad, dtype=np.float64).reshape(4, 2),
                decoder=NAME,
                symbology="qr",
                raw=data,
            )
        )
    return symbols


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
