"""The big-cell card code: its distance, its payload range, and reading it from pictures."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.markers import bigcell
from companion.markers.payload import encode_back, encode_front
from companion.markers.render import card_back_image, card_front_image
from companion.vision.decoders.bigcell import outline_hypotheses, read_quad
from companion.vision.detect import Detector

fronts = st.builds(encode_front, st.integers(1, 7), st.integers(0, bigcell.MAX_NUMBER),
                   st.integers(1, bigcell.MAX_COPY))
backs = st.builds(encode_back, st.integers(0, bigcell.MAX_SERIAL))


def test_the_code_has_distance_seven() -> None:
    """Every pair of codewords differs in at least 7 of the 36 cells (all 2^18 checked)."""
    rows = np.array([[(bigcell.encode_bits(1 << i) ^ bigcell.MASK) >> (35 - j) & 1
                      for j in range(36)] for i in range(18)], dtype=np.uint8)
    values = np.arange(1 << 18, dtype=np.uint32)
    bits = ((values[:, None] >> np.arange(18, dtype=np.uint32)) & 1).astype(np.uint8)
    weights = ((bits @ rows) % 2).sum(axis=1)
    assert int(weights[1:].min()) == 7


@given(st.one_of(fronts, backs))
def test_payload_round_trip(payload: str) -> None:
    assert bigcell.payload_of(bigcell.value_of(payload)) == payload
    cells = bigcell.symbol_cells(payload)
    assert cells.shape == (8, 8) and cells[0].all() and cells[-1].all()
    assert cells[:, 0].all() and cells[:, -1].all()
    assert 4 <= int(cells[1:-1, 1:-1].sum()) <= 32  # never blank nor solid inside


@pytest.mark.parametrize("payload", [encode_front(5, 4096, 1), encode_front(5, 12, 9),
                                     encode_back(32768)])
def test_payloads_beyond_the_code_are_refused(payload: str) -> None:
    assert not bigcell.fits(payload)
    with pytest.raises(bigcell.BigCellError):
        bigcell.symbol_cells(payload)


@settings(max_examples=200)
@given(payload=st.one_of(fronts, backs), turns=st.integers(0, 3), mirrored=st.booleans(),
       errors=st.lists(st.integers(0, 35), max_size=6, unique=True))
def test_reading_is_right_or_nothing_up_to_six_wrong_cells(payload: str, turns: int,
                                                            mirrored: bool,
                                                            errors: list[int]) -> None:
    """In the orientation it was printed in, a read with cells wrong is the payload (one
    correctable cell, marked unsure) or no reading at all; a clear cell is never corrected."""
    data = np.rot90(bigcell.symbol_cells(payload)[1:-1, 1:-1], turns).copy()
    if mirrored:
        data = data[:, ::-1].copy()
    unsure = np.zeros((6, 6), bool)
    for i in errors:
        data.flat[i] = not data.flat[i]
        unsure.flat[i] = True
    got = bigcell.read_cells(data, mirrored_too=True, unsure=unsure)
    if got is not None and len(errors) <= 1:
        assert got[0] == payload and got[2] == turns and got[3] == mirrored
    if len(errors) in (2, 3, 4, 5):
        # within the code's reach of the truth: never another payload in this orientation
        assert got is None or got[0] == payload
    clear = bigcell.read_cells(data, mirrored_too=True, unsure=np.zeros((6, 6), bool))
    if len(errors) == 1:
        assert clear is None  # a correction needs the cell to look unsure


def _scene(image: np.ndarray, angle: float, size: int = 420, background: int = 150
           ) -> np.ndarray:
    canvas = np.full((size, size), background, np.uint8)
    h, w = image.shape
    y, x = (size - h) // 2, (size - w) // 2
    canvas[y:y + h, x:x + w] = image
    m = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
    return cv2.warpAffine(canvas, m, (size, size), borderValue=background)


@pytest.mark.parametrize("angle", [0.0, 23.0, 90.0, 200.0, 271.0])
@pytest.mark.parametrize("module_px", [3, 6])  # cells of 6 and 12 px
def test_detector_reads_the_symbol_turned_and_reports_its_top_edge(angle: float,
                                                                  module_px: int) -> None:
    payload = encode_front(5, 321, 4)
    picture = _scene(card_front_image(payload, module_px, symbology="bigcell"), angle)
    found = [d for d in Detector().detect(picture) if d.kind == "front"]
    assert [d.text for d in found] == [payload]
    top = found[0].corners[1] - found[0].corners[0]
    heading = math.degrees(math.atan2(top[1], top[0])) % 360
    assert abs((heading + angle + 180) % 360 - 180) < 4  # the picture turned counter-clockwise


def test_mirrored_symbols_read_in_still_pictures_only_when_allowed() -> None:
    payload = encode_back(12345)
    picture = cv2.flip(_scene(card_back_image(payload, 5, symbology="bigcell"), 10), 1)
    assert [d.text for d in Detector().detect(picture) if d.kind == "back"] == [payload]
    assert not [d for d in Detector(mirrored_too=False).detect(picture) if d.kind == "back"]


def test_symbol_found_inside_its_sticker_outline_with_the_label_strip() -> None:
    """A candidate square may be the sticker's white outline (symbol, one cell of margin,
    the label strip below): the symbol is looked for inside it."""
    payload = encode_front(2, 77, 1)
    module = 6  # px; a cell is 12 px
    image = card_front_image(payload, module, quiet_modules=2, symbology="bigcell")
    label = round(3.5 / 3.125 * 2 * module)
    sticker = np.vstack([image, np.full((label, image.shape[1]), 255, np.uint8)])
    canvas = np.full((400, 400), 90, np.uint8)
    canvas[60:60 + sticker.shape[0], 80:80 + sticker.shape[1]] = sticker
    h, w = sticker.shape
    outline = np.array([[80, 60], [80 + w, 60], [80 + w, 60 + h], [80, 60 + h]], float)
    read = read_quad(canvas, outline)
    assert read is not None and read.text == payload
    assert len(outline_hypotheses(outline)) == 5


def test_nothing_else_reads_as_a_card() -> None:
    """ArUco dice faces, corner markers, QR codes and noise among the candidates: no card."""
    from companion.markers.render import aruco_image, qr_image

    rng = np.random.default_rng(3)
    picture = rng.integers(60, 200, (600, 800), dtype=np.uint8)
    for k, marker_id in enumerate((3, 55, 217, 233)):
        picture[40 + 130 * k:40 + 130 * k + 96, 40:136] = aruco_image(marker_id, 96)
    code = qr_image("hello table", 4)
    picture[100:100 + code.shape[0], 300:300 + code.shape[1]] = code
    checker = np.kron((np.indices((8, 8)).sum(axis=0) % 2).astype(np.uint8) * 255,
                      np.ones((12, 12), np.uint8))
    picture[400:496, 500:596] = checker
    found = Detector(read_qr=True).detect(picture)
    assert not [d for d in found if d.kind in ("front", "back")]
