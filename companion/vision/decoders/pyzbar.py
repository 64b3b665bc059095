"""pyzbar (ZBar) backend: reads plain QR only, not Micro QR; slower, needs bigger modules."""

from __future__ import annotations

import numpy as np

from companion.vision.decoders import RawSymbol, ReadOptions, order_clockwise

NAME = "pyzbar"
# ZBar reports which way the symbol's top points; rolling the clockwise quad by this many
# places makes corners[0] the symbol's printed top-left.
_ROLL = {"UP": 0, "RIGHT": 1, "DOWN": 2, "LEFT": 3}


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read(gray: np.ndarray, options: ReadOptions) -> list[RawSymbol]:
    if not options.qr:
        return []
    from pyzbar import pyzbar

    symbols = []
    for found in pyzbar.decode(np.ascontiguousarray(gray), symbols=[pyzbar.ZBarSymbol.QRCODE]):
        polygon = np.array([[p.x, p.y] for p in found.polygon], dtype=np.float64)
        if len(polygon) != 4:
            left, top, width, height = found.rect
            polygon = np.array(
                [[left, top], [left + width, top], [left + width, top + height],
                 [left, top + height]],
                dtype=np.float64,
            )
        quad = order_clockwise(polygon)
        roll = _ROLL.get(str(found.orientation or "UP"), 0)
        symbols.append(
            RawSymbol(
                text=_text(found.data),
                corners=np.roll(quad, -roll, axis=0),
                decoder=NAME,
                symbology="qr",
                raw=bytes(found.data),
            )
        )
    return symbols
