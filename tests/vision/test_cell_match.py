"""The margin test of closed-set matching (`margin_contrast`): a printed marker has a white
margin on every side, a square cut out of a larger dark area has not. Pictures drawn here:
a 6 x 6 marker at 3 px a cell, blurred as a 720p webcam blurs it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.markers.render import aruco_modules
from companion.vision.cell_match import margin_contrast
from companion.vision.dice_magnifier import MIN_MARGIN

CELL = 3
AT = 30  # the marker's top-left corner in the picture, px


def _picture(surround: dict[str, int], marker_id: int = 17, body: int = 200,
             blur: float = 0.9) -> np.ndarray:
    """A 6 x 6 marker (ink 30, paper 220) in a half-cell white margin on a die body of grey
    `body`; `surround`: the grey of what runs right up to the marker on these sides ("top",
    "bottom", "left", "right"), margin and all."""
    big = 8
    size = 96 * big
    picture = np.full((size, size), body, np.float32)
    at, side = AT * big, 6 * CELL * big
    margin = CELL * big // 2
    picture[at - margin:at + side + margin, at - margin:at + side + margin] = 220
    edges = {"top": (slice(0, at), slice(at - margin, at + side + margin)),
             "bottom": (slice(at + side, size), slice(at - margin, at + side + margin)),
             "left": (slice(at - margin, at + side + margin), slice(0, at)),
             "right": (slice(at - margin, at + side + margin), slice(at + side, size))}
    for edge, grey in surround.items():
        picture[edges[edge]] = grey
    cells = np.asarray(aruco_modules(marker_id)).reshape(6, 6)
    picture[at:at + side, at:at + side] = np.kron(np.where(cells > 0, 30, 220),
                                                  np.ones((CELL * big, CELL * big)))
    small = cv2.resize(picture, (96, 96), interpolation=cv2.INTER_AREA)
    return np.clip(cv2.GaussianBlur(small, (0, 0), blur), 0, 255).astype(np.uint8)


QUAD = np.array([[AT, AT], [AT + 6 * CELL, AT], [AT + 6 * CELL, AT + 6 * CELL],
                 [AT, AT + 6 * CELL]], float) - 0.5


@pytest.mark.parametrize("marker_id", [0, 17, 150])
def test_a_marker_with_its_white_margin_stands_clear(marker_id: int) -> None:
    assert margin_contrast(_picture({}, marker_id), QUAD) >= 0.2


@pytest.mark.parametrize("body", [200, 110])  # a white die, a red die's mid-grey body
def test_a_die_of_any_colour_around_the_margin(body: int) -> None:
    assert margin_contrast(_picture({}, body=body), QUAD) >= 2 * MIN_MARGIN


@pytest.mark.parametrize("dark_sides", [("left", "right"), ("top",), ("bottom", "left")])
def test_a_square_cut_out_of_a_dark_area_does_not(dark_sides: tuple[str, ...]) -> None:
    """A card's dark text box running on past the square: no light margin on those sides."""
    picture = _picture({edge: 30 for edge in dark_sides})
    assert margin_contrast(picture, QUAD) < MIN_MARGIN
