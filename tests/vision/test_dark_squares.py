"""Dark die-face-sized squares found in the dice-top plane (`dark_squares`).

The picture is drawn here with a known plane-to-picture map: 1.25 px a millimetre, so a 12 mm
marker is 15 px, about a 720p webcam's at 53 cm."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.markers.render import aruco_modules
from companion.vision.dark_squares import dark_squares

PX_PER_MM = 1.25
TO_TOP = np.array([[1 / PX_PER_MM, 0, 0], [0, 1 / PX_PER_MM, 0], [0, 0, 1]], float)


def _draw(size: tuple[int, int], blobs: list[tuple[float, float, float, float, float, int]],
          blur: float, seed: int, greys: dict[int, int] | None = None) -> np.ndarray:
    """A light table with dark shapes: (x, y mm, width, height mm, turn deg, marker id or
    -1 for plain ink), drawn 8x larger in order, blurred and shrunk, with sensor noise;
    `greys`: the grey of the plain shapes at these indices (ink elsewhere)."""
    k = 8
    big = np.full((size[1] * k, size[0] * k), 220, np.uint8)
    for index, (x, y, w, h, turn, marker) in enumerate(blobs):
        pattern = np.full((6, 6), (greys or {}).get(index, 0), np.uint8)
        if marker >= 0:
            pattern = np.where(np.asarray(aruco_modules(marker)).reshape(6, 6) > 0, 0, 220
                               ).astype(np.uint8)
        cell = cv2.resize(pattern, (int(w * PX_PER_MM * k), int(h * PX_PER_MM * k)),
                          interpolation=cv2.INTER_NEAREST)
        ph, pw = cell.shape
        warp = cv2.getRotationMatrix2D((pw / 2, ph / 2), turn, 1.0)
        warp[:, 2] += (x * PX_PER_MM * k - pw / 2, y * PX_PER_MM * k - ph / 2)
        shape = cv2.warpAffine(cell, warp, (big.shape[1], big.shape[0]), borderValue=255,
                               flags=cv2.INTER_NEAREST)
        mask = cv2.warpAffine(np.ones_like(cell), warp, (big.shape[1], big.shape[0]),
                              flags=cv2.INTER_NEAREST)
        big = np.where(mask > 0, shape, big)
    small = cv2.resize(big, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    small = cv2.GaussianBlur(small, (0, 0), blur)
    small += np.random.default_rng(seed).normal(0, 4.0, small.shape).astype(np.float32)
    return np.clip(small, 0, 255).astype(np.uint8)


@settings(max_examples=25, deadline=None)
@given(x=st.floats(30, 60), y=st.floats(30, 60), turn=st.floats(0, 90),
       blur=st.floats(0.6, 1.4), seed=st.integers(0, 1000))
def test_a_blurred_face_is_found_where_it_lies(x: float, y: float, turn: float, blur: float,
                                               seed: int) -> None:
    gray = _draw((112, 112), [(x, y, 12, 12, turn, 7)], blur, seed)
    found = dark_squares(gray, (0, 0), TO_TOP)
    centres = [q.mean(axis=0) / PX_PER_MM for q in found]
    assert any(np.linalg.norm(c - (x, y)) < 1.5 for c in centres)
    for quad in found:
        side_mm = float(np.linalg.norm(quad[1] - quad[0])) / PX_PER_MM
        assert 9.0 <= side_mm <= 15.6


def test_the_offset_places_the_squares_in_the_picture() -> None:
    gray = _draw((112, 112), [(45, 45, 12, 12, 20, 7)], 0.8, 1)
    plain = dark_squares(gray, (0, 0), TO_TOP)
    shift = np.array([[1, 0, -50], [0, 1, -30], [0, 0, 1]], float)
    moved = dark_squares(gray, (50, 30), TO_TOP @ shift)
    assert len(plain) == len(moved) >= 1
    assert np.allclose(plain[0] + (50, 30), moved[0], atol=0.01)


def test_shapes_that_are_no_die_face_are_not_squares() -> None:
    shapes = [
        (25, 25, 12, 30, 0, -1),  # a side face stretched away from the camera
        (65, 25, 5, 5, 0, -1),  # a pip
        (25, 65, 30, 30, 10, -1),  # a card's dark art
    ]
    gray = _draw((112, 112), shapes, 0.8, 2)
    assert dark_squares(gray, (0, 0), TO_TOP) == []


def test_a_top_among_dark_things_is_found_at_its_own_size() -> None:
    """A red die (its body mid-grey) on a card's dark art: only the sticker's 1 mm white
    margin parts the marker from its surroundings, and the blur greys it; the neighbourhood
    threshold joins marker, die and art into one blob, a grey level between ink and margin
    does not."""
    shapes = [
        (40, 56, 60, 40, 0, -1),  # the card's dark art, under the die and beside it
        (56, 56, 16, 16, 0, -1),  # the red die's top
        (56, 56, 14, 14, 0, -1),  # the sticker's white paper
        (56, 56, 12, 12, 0, 7),  # the marker
    ]
    for seed in range(5):
        gray = _draw((112, 112), shapes, 0.9, seed, greys={0: 80, 1: 105, 2: 220})
        found = dark_squares(gray, (0, 0), TO_TOP)
        near = [q for q in found if np.linalg.norm(q.mean(axis=0) / PX_PER_MM - (56, 56)) < 1.5]
        assert near, seed
        side_mm = float(np.linalg.norm(near[0][1] - near[0][0])) / PX_PER_MM
        assert 10.5 <= side_mm <= 13.5, (seed, side_mm)
