"""The one marker generator: sticker and ArUco images for the simulator, module grids for print.

Everything that draws a marker (the PDF printer, the synthetic table renderer, tests) goes
through here, so what is tested is exactly what is printed. Images are uint8 grayscale,
0 = ink, 255 = paper. Module grids are boolean, True = ink, without quiet zone.

Card stickers are the big-cell code (`companion.markers.bigcell`: 8 x 8 cells of 3.1 mm on a
25 mm symbol, drawn as 16 x 16 modules so that the standard 2-module quiet zone is one cell)
wherever the payload fits it, else Micro QR M2 at error correction M (13 modules; the stickers
printed before the big-cell code, which still read). Plain QR stays selectable for
measurements. `DEFAULT_SYMBOLOGY` is what is printed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

import cv2
import numpy as np
import segno

from companion.errors import CompanionError
from companion.markers import bigcell
from companion.markers.payload import ARUCO_DICTIONARY, BackPayload, FrontPayload, decode

Symbology = Literal["bigcell", "microqr", "qr"]
SYMBOLOGIES: tuple[Symbology, ...] = ("bigcell", "microqr", "qr")
DEFAULT_SYMBOLOGY: Symbology = "bigcell"
"""Measured: docs/markers.md (on the realistic simulator it reads where Micro QR cannot)."""
ARUCO_BITS = 4  # DICT_4X4_*: 4x4 data cells inside the black border
INK = 0
PAPER = 255


class MarkerRenderError(CompanionError):
    """A marker that cannot be drawn (wrong payload kind, unknown symbology, bad size)."""


def _symbol_modules(payload: str, symbology: str, error: str) -> np.ndarray:
    if symbology == "bigcell":
        if bigcell.fits(payload):
            return bigcell.symbol_modules(payload)
        symbology = "microqr"  # beyond the big-cell code's range: the Micro QR sticker
    if symbology == "microqr":
        try:
            qr = segno.make_micro(payload, version="M2", error=error)
        except segno.DataOverflowError as exc:
            raise MarkerRenderError(f"payload {payload!r} does not fit a Micro QR M2") from exc
    elif symbology == "qr":
        qr = segno.make_qr(payload, error=error, boost_error=False)
    else:
        raise MarkerRenderError(
            f"unknown symbology {symbology!r}; choose one of {', '.join(SYMBOLOGIES)}"
        )
    return np.array(qr.matrix, dtype=bool)


@lru_cache(maxsize=4096)
def _cached_modules(payload: str, symbology: str, error: str) -> np.ndarray:
    grid = _symbol_modules(payload, symbology, error)
    grid.setflags(write=False)
    return grid


def _checked(payload: str, want: type) -> None:
    meaning = decode(payload)
    if not isinstance(meaning, want):
        kind = "front" if want is FrontPayload else "back"
        raise MarkerRenderError(f"payload {payload!r} is not a card-{kind} payload")


def card_front_modules(
    payload: str, symbology: Symbology = "microqr", error: str = "M"
) -> np.ndarray:
    """Module matrix (True = ink, no quiet zone) of a card-front sticker."""
    _checked(payload, FrontPayload)
    return _cached_modules(payload, symbology, error).copy()


def card_back_modules(
    payload: str, symbology: Symbology = "microqr", error: str = "M"
) -> np.ndarray:
    """Module matrix (True = ink, no quiet zone) of a card-back sticker."""
    _checked(payload, BackPayload)
    return _cached_modules(payload, symbology, error).copy()


def modules_to_image(modules: np.ndarray, module_px: int, quiet_modules: int) -> np.ndarray:
    """Scale a module grid to pixels (each module a `module_px` square) with a white margin."""
    if module_px < 1:
        raise MarkerRenderError(f"module size must be at least 1 px, not {module_px}")
    if quiet_modules < 0:
        raise MarkerRenderError(f"quiet zone cannot be negative ({quiet_modules})")
    framed = np.pad(modules, quiet_modules, constant_values=False)
    cells = np.where(framed, INK, PAPER).astype(np.uint8)
    return np.kron(cells, np.ones((module_px, module_px), dtype=np.uint8))


def card_front_image(
    payload: str,
    module_px: int,
    quiet_modules: int = 2,
    symbology: Symbology = "microqr",
    error: str = "M",
) -> np.ndarray:
    """Grayscale image of a card-front sticker (Micro QR's own quiet zone is 2 modules)."""
    return modules_to_image(card_front_modules(payload, symbology, error), module_px, quiet_modules)


def card_back_image(
    payload: str,
    module_px: int,
    quiet_modules: int = 2,
    symbology: Symbology = "microqr",
    error: str = "M",
) -> np.ndarray:
    """Grayscale image of a card-back sticker."""
    return modules_to_image(card_back_modules(payload, symbology, error), module_px, quiet_modules)


def qr_image(
    text: str,
    module_px: int,
    quiet_modules: int = 4,
    symbology: Symbology = "qr",
    error: str = "M",
) -> np.ndarray:
    """Any text as a QR image, unchecked: for foreign codes (tests, stray codes on the table)."""
    return modules_to_image(_symbol_modules(text, symbology, error), module_px, quiet_modules)


@lru_cache(maxsize=1)
def aruco_dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))


def aruco_modules(marker_id: int, border_bits: int = 1) -> np.ndarray:
    """Cell matrix (True = ink) of an ArUco marker including its black border, no quiet zone."""
    dictionary = aruco_dictionary()
    count = int(dictionary.bytesList.shape[0])
    if not 0 <= marker_id < count:
        raise MarkerRenderError(f"ArUco id {marker_id} out of range 0-{count - 1}")
    if border_bits < 1:
        raise MarkerRenderError(f"ArUco border must be at least 1 cell, not {border_bits}")
    cells = ARUCO_BITS + 2 * border_bits
    image = dictionary.generateImageMarker(marker_id, cells, borderBits=border_bits)
    return np.asarray(image == 0)


def aruco_image(marker_id: int, side_px: int, border_bits: int = 1) -> np.ndarray:
    """Grayscale ArUco marker `side_px` wide (black border included, no white margin).

    Sides that are not a multiple of the cell count are resampled nearest-neighbour, so every
    cell stays a flat square of ink or paper.
    """
    modules = aruco_modules(marker_id, border_bits)
    cells = modules.shape[0]
    if side_px < cells:
        raise MarkerRenderError(f"ArUco side {side_px} px is smaller than its {cells} cells")
    cells_img = np.where(modules, INK, PAPER).astype(np.uint8)
    if side_px % cells == 0:
        scale = side_px // cells
        return np.kron(cells_img, np.ones((scale, scale), dtype=np.uint8))
    return cv2.resize(cells_img, (side_px, side_px), interpolation=cv2.INTER_NEAREST)
