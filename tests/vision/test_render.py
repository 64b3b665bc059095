"""The marker generator: what it draws decodes back to what it was given."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.markers.payload import (
    PayloadError,
    corner_id,
    die_face_id,
    encode_back,
    encode_front,
    token_id,
)
from companion.markers.render import (
    MarkerRenderError,
    aruco_dictionary,
    aruco_image,
    aruco_modules,
    card_back_image,
    card_back_modules,
    card_front_image,
    card_front_modules,
    qr_image,
)

FORMATS = zxingcpp.BarcodeFormats(
    [zxingcpp.BarcodeFormat.MicroQRCode, zxingcpp.BarcodeFormat.QRCodeModel2]
)


def _zxing_texts(image: np.ndarray) -> list[str]:
    canvas = cv2.copyMakeBorder(image, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
    return [b.text for b in zxingcpp.read_barcodes(canvas, formats=FORMATS)]


def _aruco_ids(image: np.ndarray) -> list[int]:
    canvas = cv2.copyMakeBorder(image, 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=255)
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(), cv2.aruco.DetectorParameters())
    _, ids, _ = detector.detectMarkers(canvas)
    return [] if ids is None else [int(i) for i in ids.ravel()]


@pytest.mark.parametrize("module_px", [2, 3, 5, 8])
@pytest.mark.parametrize("symbology", ["microqr", "qr"])
def test_front_and_back_decode_back(module_px: int, symbology: str) -> None:
    front = encode_front(3, 118, 4)
    back = encode_back(123_456)
    assert _zxing_texts(card_front_image(front, module_px, symbology=symbology)) == [front]
    assert _zxing_texts(card_back_image(back, module_px, symbology=symbology)) == [back]


@settings(max_examples=40, deadline=None)
@given(
    game=st.integers(1, 5),
    number=st.integers(0, 9999),
    copy=st.integers(1, 99),
    module_px=st.integers(2, 6),
)
def test_any_front_payload_round_trips(game: int, number: int, copy: int, module_px: int) -> None:
    payload = encode_front(game, number, copy)
    image = card_front_image(payload, module_px)
    assert image.dtype == np.uint8
    assert image.shape == ((13 + 4) * module_px,) * 2
    assert _zxing_texts(image) == [payload]


def test_micro_qr_m2_is_13_modules_with_finder_top_left() -> None:
    grid = card_front_modules(encode_front(1, 1, 1))
    assert grid.shape == (13, 13)
    assert grid.dtype == bool
    finder = grid[:7, :7]
    assert finder[0].all() and finder[6].all() and finder[:, 0].all() and finder[:, 6].all()
    assert not finder[1, 1:6].any()
    assert finder[2:5, 2:5].all()
    assert card_front_modules(encode_front(1, 1, 1), symbology="qr").shape == (21, 21)


def test_module_grid_and_image_agree() -> None:
    payload = encode_back(42)
    grid = card_back_modules(payload)
    image = card_back_image(payload, module_px=4, quiet_modules=2)
    sampled = image[8 + 2 :: 4, 8 + 2 :: 4][:13, :13]  # module centres inside the quiet zone
    assert np.array_equal(sampled == 0, grid)
    assert (image[:8] == 255).all()


def test_wrong_kind_and_foreign_payloads_are_refused() -> None:
    with pytest.raises(MarkerRenderError, match="card-back"):
        card_back_image(encode_front(1, 2, 3), 3)
    with pytest.raises(MarkerRenderError, match="card-front"):
        card_front_image(encode_back(7), 3)
    with pytest.raises(PayloadError):
        card_front_image("12345678", 3)  # check digit wrong
    with pytest.raises(MarkerRenderError, match="symbology"):
        card_front_image(encode_front(1, 2, 3), 3, symbology="aztec")
    with pytest.raises(MarkerRenderError, match="module size"):
        card_front_image(encode_front(1, 2, 3), 0)


def test_foreign_qr_image_encodes_any_text() -> None:
    assert _zxing_texts(qr_image("https://example.org/x", 3)) == ["https://example.org/x"]


@pytest.mark.parametrize(
    "marker_id",
    [0, die_face_id("p2.c6", 6), corner_id(5, 3), token_id("flag"), 249],
)
@pytest.mark.parametrize("side_px", [24, 37, 60])
def test_aruco_decodes_back(marker_id: int, side_px: int) -> None:
    image = aruco_image(marker_id, side_px)
    assert image.shape == (side_px, side_px)
    assert _aruco_ids(image) == [marker_id]


def test_aruco_modules_match_the_dictionary_bits() -> None:
    dictionary = aruco_dictionary()
    for marker_id in (0, 17, 216, 240):
        grid = aruco_modules(marker_id)
        assert grid.shape == (6, 6)
        assert grid[0].all() and grid[-1].all() and grid[:, 0].all() and grid[:, -1].all()
        bits = cv2.aruco.Dictionary_getBitsFromByteList(
            dictionary.bytesList[marker_id : marker_id + 1], 4
        )
        assert np.array_equal(grid[1:5, 1:5], bits == 0)
    assert aruco_modules(3, border_bits=2).shape == (8, 8)


def test_aruco_bad_ids_and_sizes() -> None:
    with pytest.raises(MarkerRenderError, match="out of range"):
        aruco_image(250, 60)
    with pytest.raises(MarkerRenderError, match="smaller"):
        aruco_image(1, 5)
