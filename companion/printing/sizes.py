"""Printed sizes of every marker, in one place.

The card-sticker size is the vision benchmark's choice (docs/markers.md): a 25 mm symbol, the
big-cell code's 8 cells of 3.1 mm (or, for payloads beyond it and stickers printed before it,
a Micro QR M2's 13 modules of 1.9 mm). `STICKER_MM` is that symbol side, the same quantity as
the mat layouts' `sticker_mm` and the simulator's sticker size; change it here and the printed
stickers, sheet layouts and tests follow. Around the symbol each sticker keeps a quiet zone of
2 modules (one big-cell cell; the Micro QR standard's), so the white square that is cut out is
31.25 mm (big-cell) or `STICKER_OUTER_MM` (Micro QR) wide.
"""

from __future__ import annotations

from typing import Final

from companion.markers.placement import (
    TWIN_STICKER_OFFSET_MM as TWIN_STICKER_OFFSET_MM,  # where twin stickers lie on a card
)

STICKER_MM: Final = 25.0
"""Card-sticker symbol side (front and back), quiet zone not included."""

MICRO_QR_M2_MODULES: Final = 13

STICKER_QUIET_MODULES: Final = 2
"""White margin around the Micro QR symbol, in modules."""

BIGCELL_MODULES: Final = 16
"""The big-cell symbol drawn as modules: 8 cells of 2 x 2 modules (companion.markers.bigcell)."""

STICKER_OUTER_MM: Final = (
    STICKER_MM * (MICRO_QR_M2_MODULES + 2 * STICKER_QUIET_MODULES) / MICRO_QR_M2_MODULES
)
"""Side of the largest sticker's white square, symbol plus quiet zone: 32.7 mm for a 25 mm
Micro QR (a big-cell sticker is 31.25 mm); sheets are laid out for it."""

STICKER_LABEL_MM: Final = 3.5
"""Strip under each card sticker for its human-readable label (part of the sticker)."""

DIE_MM: Final = 16.0
"""Edge of the dice the face stickers are made for."""

DIE_MARKER_MM: Final = 12.0
"""ArUco 4x4 face marker on a die, black border included (DESIGN.md: reads 94-100 % at 1080p)."""

DIE_STICKER_MM: Final = 14.0
"""Cut size of a die-face sticker: marker plus white margin, inside the die's rounded edges."""

TOKEN_MARKER_MM: Final = 12.0
"""ArUco marker on a token (the Challengers! flag), black border included."""

LABEL_PT: Final = 5.0
"""Font size of the tiny labels under stickers."""

CUT_GAP_MM: Final = 3.0
"""Space between neighbouring stickers, so one cut never touches the next sticker."""

DIE_CUT_GAP_MM: Final = 2.0
"""Space between die-face stickers (they are small; 2 mm still cuts cleanly)."""

PAGE_MARGIN_MM: Final = 10.0
"""Unprinted border of every sheet (most printers cannot print closer to the edge)."""

MAT_OVERLAP_MM: Final = 12.0
"""Minimum overlap of neighbouring mat tiles, where the alignment marks sit."""

SCALE_BAR_MM: Final = 100.0
"""Length of the scale bar on every sheet (check it with a ruler: the print must be 100 %)."""
