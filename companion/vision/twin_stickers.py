"""Cards with two stickers on a face, one at each end ("twin", `companion print stickers`).

Why: the lamp's reflection in a glossy sleeve, or a die, covers 3-8 cm of a card and with it a
sticker in the card's middle; it seldom covers both ends of the card at once. Each twin sticker
lies `TWIN_STICKER_OFFSET_MM` from the card's centre along its length, the one at the far end
turned 180 degrees, so that the card's centre lies that far "below" either of them in its own
frame: one sticker read places the card, without telling which of the two it was.

A table's cards carry one sticker each or two (as they were printed and stuck); the pipeline
learns which from what it sees: two readings of one payload in one frame, 2 x the offset apart
along their own up direction and turned 180 degrees to each other, are a card's two stickers
(one-sticker cards never show their payload twice). Until then a sticker's centre is taken
as its card's centre, which on a twin card is still on the card.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.markers.placement import TWIN_STICKER_OFFSET_MM
from companion.vision.detect import Detection
from companion.vision.geometry import MatGeometry, below

CARD_STICKER_KINDS = ("front", "back")
PAIR_REACH_MM = 8.0  # the card's centre as each sticker places it: this close, at most
PAIR_TURN_DEG = 25.0  # the two stickers' turn: 180 degrees apart, give or take this much


def sticker_below_mm(detection: Detection, twin: bool) -> float:
    """How far below a detected marker its card's centre lies: the twin offset for a card
    sticker on a twin table, else 0 (the marker's own centre)."""
    return TWIN_STICKER_OFFSET_MM if twin and detection.kind in CARD_STICKER_KINDS else 0.0


def shows_twin_pair(detections: Sequence[Detection], geometry: MatGeometry) -> bool:
    """Whether some card's two stickers are both read among `detections`."""
    by_text: dict[str, list[Detection]] = {}
    for det in detections:
        if det.kind in CARD_STICKER_KINDS:
            by_text.setdefault(det.text, []).append(det)
    for group in by_text.values():
        if len(group) < 2:
            continue
        places = [geometry.place(d, TWIN_STICKER_OFFSET_MM) for d in group]
        for i, a in enumerate(places):
            for b in places[i + 1:]:
                turn = abs((b.angle_deg - a.angle_deg) % 360.0 - 180.0)
                apart = float(np.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm))
                if turn <= PAIR_TURN_DEG and apart <= PAIR_REACH_MM:
                    return True
    return False


def card_centre_below(x_mm: float, y_mm: float, angle_deg: float) -> tuple[float, float]:
    """The centre of the card one of whose twin stickers is centred at (x, y) mm with its top
    edge turned `angle_deg` (as `MatGeometry.place` gives it): the offset "below" it."""
    return below(x_mm, y_mm, angle_deg, TWIN_STICKER_OFFSET_MM)
