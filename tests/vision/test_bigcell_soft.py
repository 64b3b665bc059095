"""Errors-and-erasures reading of the big-cell code, and the zone search that finds broken
stickers: right or nothing, never another card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.layouts import load_layout
from companion.markers import bigcell
from companion.markers.payload import BackPayload, decode, encode_back, encode_front
from companion.markers.render import card_front_image
from companion.vision import sticker_search
from companion.vision.decoders.bigcell import (
    SOFT_MIN_MARGIN,
    Allowed,
    beyond_doubt,
    read_found_quad,
    read_quad,
)
from companion.vision.detect import Detector, big_cell_detections
from companion.vision.geometry import MatGeometry
from companion.vision.sticker_search import Zone, search_zone
from companion.vision.zone_reading import (
    read_place,
    read_unread_zones,
    soft_agreement,
    table_payloads,
)

fronts = st.builds(encode_front, st.integers(1, 7), st.integers(0, bigcell.MAX_NUMBER),
                   st.integers(1, bigcell.MAX_COPY))
backs = st.builds(encode_back, st.integers(0, bigcell.MAX_SERIAL))


def _printed_soft(payload: str, turns: int) -> np.ndarray:
    """The 6 x 6 data cells as a clean picture reads them softly (ink +1, paper -1), turned."""
    data = bigcell.symbol_cells(payload)[1:-1, 1:-1]
    return np.rot90(np.where(data, 1.0, -1.0), turns).copy()


@settings(max_examples=150)
@given(payload=st.one_of(fronts, backs), turns=st.integers(0, 3),
       erased=st.lists(st.integers(0, 35), max_size=6, unique=True))
def test_up_to_six_erased_cells_give_back_the_payload(payload: str, turns: int,
                                                      erased: list[int]) -> None:
    """Distance 7: six cells the picture says nothing about still leave one codeword in the
    printed orientation that agrees with every other cell."""
    soft = _printed_soft(payload, turns)
    soft.flat[erased] = 0.0
    got = bigcell.read_soft(soft, mirrored_too=False)
    assert got is not None
    assert got.erased == len(erased)
    if got.payload != payload:  # another orientation ties: then it is never beyond doubt
        assert not beyond_doubt(got)
    else:
        assert got.cost == 0.0 and got.turns == turns


@settings(max_examples=150)
@given(payload=st.one_of(fronts, backs), turns=st.integers(0, 3),
       cells=st.lists(st.integers(0, 35), min_size=1, max_size=6, unique=True),
       split=st.integers(0, 3))
def test_errors_and_erasures_within_reach_are_corrected(payload: str, turns: int,
                                                        cells: list[int], split: int) -> None:
    """k unsure wrong cells and f erased ones with 2k + f <= 6: the payload, in its
    orientation, or (when another orientation comes as close) no reading."""
    wrong = cells[:min(split, len(cells) // 2)]
    erased = cells[len(wrong):]
    soft = _printed_soft(payload, turns)
    soft.flat[wrong] *= -0.3  # read wrong, but near the threshold
    soft.flat[erased] = 0.0
    got = bigcell.read_soft(soft, mirrored_too=False)
    assert got is not None
    if got.payload == payload:
        assert got.turns == turns and got.cost == pytest.approx(0.3 * len(wrong))
    else:
        assert not beyond_doubt(got)


def test_random_grids_are_never_read() -> None:
    """Card art gives squares whose cells are anything: no codeword is beyond doubt."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        soft = rng.uniform(-1.2, 1.2, (6, 6))
        got = bigcell.read_soft(soft, mirrored_too=False)
        assert got is None or not beyond_doubt(got)


def test_a_symbol_a_few_cells_off_is_too_close_to_call() -> None:
    """Confidently wrong cells cost as much as they are sure: seven of them (a codeword's
    distance) never leave a reading beyond doubt."""
    payload = encode_front(5, 1234, 3)
    soft = _printed_soft(payload, 0)
    soft.flat[[0, 5, 11, 17, 23, 29, 35]] *= -1.0
    got = bigcell.read_soft(soft, mirrored_too=False)
    assert got is None or not beyond_doubt(got) or got.payload == payload
    assert got is None or got.runner_up - got.cost < SOFT_MIN_MARGIN or got.payload == payload


def test_a_half_hidden_sticker_read_as_another_card_is_not_beyond_doubt() -> None:
    """The soft cells of a laptop's far sticker, 2.5 px a cell, half hidden by a die (bench
    seed 1005, laptop with a mirror clip at 30 cm, 2026-11-27): the nearest codeword is another
    card of the game (number 207 copy 3 for 204 copy 1) with the next codeword 1.72 away. It
    was taken while the rule asked for 1.5."""
    soft = np.array([[1.5, -0.09, -0.63, -0.43, -0.93, 1.5],
                     [1.5, -1.5, 0.56, -1.5, -1.5, -1.5],
                     [1.5, -1.19, 0.1, -0.42, -0.74, -1.28],
                     [1.5, -0.21, 1.3, 1.15, 1.28, 0.77],
                     [1.5, -0.02, 0.63, 1.02, -0.83, 0.97],
                     [-0.01, 0.08, 0.96, 0.97, -0.29, 1.32]])
    got = bigcell.read_soft(soft, mirrored_too=False)
    assert got is not None and got.payload == encode_front(5, 207, 3)
    assert not beyond_doubt(got)


def _any(_: str) -> bool:
    return True


def _game(code: int) -> Allowed:
    def allowed(text: str) -> bool:
        meaning = decode(text)
        return isinstance(meaning, BackPayload) or meaning.game_code == code
    return allowed


def _exposed(image: np.ndarray) -> np.ndarray:
    """Printed ink and paper as a camera exposes them (paper below white, ink above black)."""
    return (40 + image.astype(np.float32) * (170 / 255)).astype(np.uint8)


def _sticker_picture(payload: str, module: int = 4, glare_cells: int = 0,
                     background: int = 120) -> tuple[np.ndarray, np.ndarray]:
    """A grey picture with one big-cell sticker (cells of 2 `module` px) and its border quad;
    `glare_cells` columns of data cells from the right clipped to white, like the lamp's
    reflection in a glossy sleeve, and with them the border's right side and the quiet zone
    beyond (a reflection is centimetres wide: it does not stop at the border)."""
    image = _exposed(card_front_image(payload, module, quiet_modules=2, symbology="bigcell"))
    canvas = np.full((240, 240), background, np.uint8)
    y0 = x0 = 60
    canvas[y0:y0 + image.shape[0], x0:x0 + image.shape[1]] = image
    cell = 2 * module
    q = 2 * module  # the quiet zone
    quad = np.array([[x0 + q, y0 + q], [x0 + q + 8 * cell, y0 + q],
                     [x0 + q + 8 * cell, y0 + q + 8 * cell], [x0 + q, y0 + q + 8 * cell]],
                    float)
    if glare_cells:
        right = x0 + q + 7 * cell
        canvas[y0 + q + cell:y0 + q + 7 * cell, right - glare_cells * cell:right + 2 * cell] = 255
    blurred = cv2.GaussianBlur(canvas, (0, 0), 0.8)
    return blurred, quad


def test_cells_clipped_by_glare_read_softly_and_only_softly() -> None:
    """A column of data cells washed out white (five of its six cells are ink): the hard
    reading gives up (too many cells wrong), the soft one reads the payload, and only when a
    payload may be on the table."""
    payload = encode_front(5, 4000, 2)
    picture, quad = _sticker_picture(payload, glare_cells=1)
    assert read_quad(picture, quad, mirrored_too=False) is None
    got = read_quad(picture, quad, mirrored_too=False, allowed=_game(5))
    assert got is not None and got.text == payload
    assert read_quad(picture, quad, mirrored_too=False,
                     allowed=_game(3)) is None


STICKER_AT = 60  # px: where `_bright_sticker` puts the sticker's top-left corner


def _bright_sticker(payload: str, module: int, ink: float) -> tuple[np.ndarray, np.ndarray]:
    """A brightly lit sticker (paper 235, ink `ink`) on card art of grey 120 (float picture,
    240 px square), and its symbol's border quad."""
    image = card_front_image(payload, module, quiet_modules=2, symbology="bigcell")
    canvas = np.full((240, 240), 120, np.float32)
    at = STICKER_AT
    canvas[at:at + image.shape[0], at:at + image.shape[1]] = (
        ink + image.astype(np.float32) * ((235 - ink) / 255))
    cell = q = 2 * module
    quad = np.array([[at + q, at + q], [at + q + 8 * cell, at + q],
                     [at + q + 8 * cell, at + q + 8 * cell], [at + q, at + q + 8 * cell]],
                    float)
    return canvas, quad


def _photographed(canvas: np.ndarray) -> np.ndarray:
    return np.clip(cv2.GaussianBlur(canvas, (0, 0), 0.8), 0, 255).astype(np.uint8)


def _under_a_reflections_slope(payload: str, lift: float, module: int = 4
                               ) -> tuple[np.ndarray, np.ndarray]:
    """A brightly lit sticker (paper near white) with the lamp's reflection rising across it
    from nothing at its left edge to `lift` grey levels at its right (the edge of a reflection
    centimetres wide): the paper clips white, the ink is lifted more and more to the right."""
    canvas, quad = _bright_sticker(payload, module, ink=62.0)
    size = 20 * module  # 16 modules and a quiet zone of 2 around
    xx = np.mgrid[0:240, 0:240][1].astype(np.float32)
    canvas += lift * np.clip((xx - STICKER_AT) / size, 0, 1)
    return _photographed(canvas), quad


def test_paper_clipped_white_between_clean_ink_reads_as_paper() -> None:
    """Under a reflection's slope half the data cells are paper clipped white and the border's
    right side is lifted: taken as unknown, too many cells are unknown to decide; a clipped
    cell with clean ink on both sides is paper (the reflection would have lifted that ink
    too), and the zone search's reading gets most of these stickers back; never another."""
    right = wrong = 0
    for n in range(30):
        payload = encode_front(5, 100 + 37 * n, 1 + n % 8)
        picture, quad = _under_a_reflections_slope(payload, lift=170)
        assert read_quad(picture, quad, mirrored_too=False, allowed=_game(5)) is None
        got = read_found_quad(picture, quad, False, _game(5))
        right += got is not None and got.text == payload
        wrong += got is not None and got.text != payload
    assert right >= 10 and wrong == 0


def _under_a_reflections_edge(payload: str, peak: float = 230.0, module: int = 4,
                              lift_paper: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """A brightly lit sticker with the lamp's reflection (a spot 2.5 cells across, peaking at
    `peak` grey levels over the print) centred on its left outer edge: the quiet zone's paper
    clips white there, the border's ink beside it is lifted short of white, and one column of
    data cells with it. `lift_paper` False: the same border cells lifted, the paper not (no
    reflection: a square whose border is partly light)."""
    canvas, quad = _bright_sticker(payload, module, ink=56.0)
    cell = 2 * module
    yy, xx = np.mgrid[0:240, 0:240].astype(np.float32)
    canvas += peak * np.exp(-((xx - STICKER_AT) ** 2 + (yy - STICKER_AT - 3 * cell) ** 2)
                            / (2 * (2.5 * cell) ** 2))
    if not lift_paper:  # the quiet zone and what lies around as they were
        (x0, y0), (x1, y1) = quad[0].astype(int), quad[2].astype(int)
        symbol = canvas[y0:y1, x0:x1].copy()
        canvas[:] = 120
        canvas[STICKER_AT:STICKER_AT + 10 * cell, STICKER_AT:STICKER_AT + 10 * cell] = 235
        canvas[y0:y1, x0:x1] = symbol
    return _photographed(canvas), quad


def test_border_ink_lifted_beside_clipped_paper_is_the_reflection() -> None:
    """The lamp's reflection adds its light on top of the print: where it clips the quiet
    zone's paper white it lifts the border's ink next to it (not to white). Those border
    cells are not held against the sticker: the zone search's reading gets two thirds of these
    stickers back (none when they count as light), never another."""
    right = wrong = 0
    for n in range(30):
        payload = encode_front(5, 100 + 37 * n, 1 + n % 8)
        picture, quad = _under_a_reflections_edge(payload)
        got = read_found_quad(picture, quad, False, _any)
        right += got is not None and got.text == payload
        wrong += got is not None and got.text != payload
    assert right >= 15 and wrong == 0


def test_border_ink_lifted_where_the_paper_is_not_clipped_is_refused() -> None:
    """The same border cells light, but the paper beside them is not clipped: no reflection
    explains them, and a square whose border is light is no sticker (card art)."""
    for n in range(30):
        payload = encode_front(5, 100 + 37 * n, 1 + n % 8)
        picture, quad = _under_a_reflections_edge(payload, lift_paper=False)
        assert read_found_quad(picture, quad, False, _any) is None


def test_two_columns_clipped_white_are_never_read_as_another_sticker() -> None:
    """Twelve data cells clipped white by the reflection are twelve erasures, more than the
    code's distance (7) separates: codewords that differ mostly under the reflection cost
    nearly the same there. Whatever else the reader does with such a sticker, it never names
    another one (reading up to 14 weak cells, the clipped ones tried both ways, named a card
    of another game here once in 60)."""
    for n in range(60):
        payload = encode_front(5, 100 + 37 * n, 1 + n % 8)
        picture, quad = _sticker_picture(payload, glare_cells=2)
        got = read_found_quad(picture, quad, False, _any)
        assert got is None or got.text == payload


def test_a_sticker_mostly_washed_out_is_refused() -> None:
    """Five of six data columns clipped white: there is not enough left to tell; no reading,
    whatever payloads are allowed."""
    payload = encode_front(1, 4321 % 4096, 5)
    picture, quad = _sticker_picture(payload, glare_cells=5)
    assert read_quad(picture, quad, mirrored_too=False, allowed=_any) is None


def _mat_with_sticker(payload: str, die: bool) -> tuple[np.ndarray, np.ndarray]:
    """A top-down mat picture at 4 px per mm (identity-like homography), a card with the
    sticker in a 70 x 90 mm zone at (20, 20) mm, and optionally a dark die over one corner
    of the sticker's border."""
    px_per_mm = 4.0
    picture = np.full((520, 520), 215, np.uint8)  # mat paper
    card = (int(26 * px_per_mm), int(22 * px_per_mm), int(89 * px_per_mm), int(110 * px_per_mm))
    picture[card[1]:card[3], card[0]:card[2]] = 90  # card art, dark
    module = 25 / 16 * px_per_mm  # 25 mm symbol of 16 modules
    image = _exposed(card_front_image(payload, 1, quiet_modules=2, symbology="bigcell"))
    size = round(image.shape[0] * module)
    sticker = cv2.resize(image, (size, size), interpolation=cv2.INTER_NEAREST)
    cx, cy = int(57.5 * px_per_mm), int(66 * px_per_mm)
    picture[cy - size // 2:cy - size // 2 + size, cx - size // 2:cx - size // 2 + size] = sticker
    if die:
        corner = cx + int(12.5 * px_per_mm), cy + int(12.5 * px_per_mm)
        d = int(16 * px_per_mm)
        picture[corner[1] - d // 3:corner[1] + 2 * d // 3,
                corner[0] - d // 3:corner[0] + 2 * d // 3] = 40
    to_mat = np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0])
    return cv2.GaussianBlur(picture, (0, 0), 1.0), to_mat


def test_zone_search_finds_a_sticker_whose_square_a_die_breaks() -> None:
    payload = encode_front(5, 77, 1)
    picture, to_mat = _mat_with_sticker(payload, die=True)
    assert not [d for d in Detector(mirrored_too=False).detect(picture)
                if d.kind == "front"]  # the closed square is gone: ArUco does not find it
    places = search_zone(picture, to_mat, Zone(20, 20, 70, 90), 25.0)
    assert places
    corners_px = places[0][1] * 4.0  # the best place
    centre = corners_px.mean(axis=0)
    assert np.hypot(*(centre - (57.5 * 4, 66 * 4))) < 4  # within a millimetre
    got = read_quad(picture, corners_px, mirrored_too=False, allowed=_any)
    assert got is not None and got.text == payload


def test_zone_search_finds_nothing_on_plain_art() -> None:
    rng = np.random.default_rng(1)
    picture = cv2.GaussianBlur(rng.integers(40, 220, (520, 520), dtype=np.uint8), (0, 0), 3)
    to_mat = np.diag([0.25, 0.25, 1.0])
    for _, corners in search_zone(picture, to_mat, Zone(20, 20, 70, 90), 25.0):
        assert read_quad(picture, corners * 4.0, mirrored_too=False, allowed=_any) is None


def _slot_with_a_frame_in_its_art(payload: str) -> tuple[np.ndarray, Any, Any]:
    """A top-down mat (3 px per mm) whose slot p1.B2 holds a card: its sticker low left,
    under the edge of the lamp's reflection, and up right in its art a printed black square
    framed white (the frame the zone search looks for, better than the sticker's own)."""
    px = 3.0
    layout = load_layout("creature-crush")
    height, width = int(layout.height_mm * px), int(layout.width_mm * px)
    picture = np.full((height, width), 215, np.float32)
    zone = layout.zones["p1.B2"]
    x0, y0 = int((zone.x_mm + 4) * px), int((zone.y_mm + 2) * px)
    picture[y0:y0 + int(63 * px), x0:x0 + int(60 * px)] = 90  # the card's dark art
    sticker = card_front_image(payload, 1, quiet_modules=2, symbology="bigcell")
    size = round(sticker.shape[0] * 25 / 16 * px)
    sticker = cv2.resize(sticker, (size, size), interpolation=cv2.INTER_NEAREST)
    half = size // 2
    cx, cy = int((zone.x_mm + 22) * px), int((zone.y_mm + 40) * px)
    picture[cy - half:cy - half + size, cx - half:cx - half + size] = (
        56 + sticker.astype(np.float32) * ((235 - 56) / 255))
    dx, dy = int((zone.x_mm + 46) * px), int((zone.y_mm + 18) * px)
    picture[dy - half:dy - half + size, dx - half:dx - half + size] = 235
    inner = round(16 / 20 * size) // 2
    picture[dy - inner:dy + inner, dx - inner:dx + inner] = 56
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    picture += 200 * np.exp(-((xx - cx + half) ** 2 + (yy - cy + half) ** 2)
                            / (2 * (8 * px) ** 2))
    geometry = MatGeometry(layout, np.diag([1 / px, 1 / px, 1.0]), 4)
    return _photographed(picture), geometry, layout


def test_a_slot_whose_best_frame_is_card_art_reads_its_sticker_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The zone search tries a slot's few most sticker-like places, best first, until one
    reads: the best alone was the card art's frame (which reads as nothing) and the sticker
    was never read."""
    allowed = table_payloads(5)
    for n in range(6):
        payload = encode_front(5, 100 + 37 * n, 1 + n % 8)
        picture, geometry, layout = _slot_with_a_frame_in_its_art(payload)
        found = read_unread_zones(picture, geometry, layout, [], allowed)
        assert [d.text for d in found] == [payload]
        monkeypatch.setattr(sticker_search, "ZONE_PLACES", 1)
        assert read_unread_zones(picture, geometry, layout, [], allowed) == []
        monkeypatch.undo()


# the laptop at player 1's edge, 30 cm high, bench scene 1005 (the dim room), its 9th frame:
# the zone search's square for the sticker of S204#1 in p2.A2, whose near half the red die
# p2.r2 hides (it stands 28 mm nearer the camera on the same card). Image px of the crop ->
# mat mm, as the fit of the corner markers gave it (branch twolaptops, 2026-11-28).
HALF_HIDDEN_CROP = Path(__file__).parent / "golden" / "half_hidden_sticker_1005.png"
HALF_HIDDEN_MEAN = Path(__file__).parent / "golden" / "half_hidden_sticker_1005_still_mean.png"
HALF_HIDDEN_HOMOGRAPHY = [[1.7528425077604783, 1.3107525262789201, 619.0401983337341],
                          [-0.0019715330753629526, 3.8979797985907014, 261.25973648092304],
                          [-7.486857210935079e-06, 0.004396675793597884, 2.2925197579276038]]
HALF_HIDDEN_SQUARE_MM = [[289.5337487300791, 149.30339222434446],
                         [314.52994110898885, 148.86708206341237],
                         [314.9662512699209, 173.86327444232217],
                         [289.97005889101115, 174.29958460325426]]


def test_a_die_hidden_sticker_read_at_one_size_of_the_search_names_no_card() -> None:
    """The simulator's truth: S204#1 lies there. One of the search's sizes read it softly as
    S207#3 in the live frame (cost 0.48, the next codeword 2.10 away: within the soft rule),
    the sizes beside it did not, nor did the still frames' mean at any size; the bench settled
    that wrong card. Here nothing is read, which is right (the die hides half the sticker)."""
    crop = cv2.imread(str(HALF_HIDDEN_CROP), cv2.IMREAD_GRAYSCALE)
    mean = cv2.imread(str(HALF_HIDDEN_MEAN), cv2.IMREAD_GRAYSCALE)
    assert crop is not None and mean is not None
    geometry = MatGeometry(load_layout("creature-crush"), np.array(HALF_HIDDEN_HOMOGRAPHY), 4)
    square = np.array(HALF_HIDDEN_SQUARE_MM)
    for still_mean in (None, mean):
        got = read_place(crop, geometry, square, table_payloads(5), still_mean)
        assert got is None or got.text == encode_front(5, 204, 1)


def test_a_soft_reading_counts_at_two_sizes_or_confirmed_in_a_second_picture() -> None:
    """The rule itself, on real readings of two printed stickers."""
    readings = []
    for payload in (encode_front(5, 77, 1), encode_front(5, 78, 2)):
        picture, quad = _sticker_picture(payload)
        got = big_cell_detections(picture, [quad])
        assert [d.text for d in got] == [payload]
        readings.append(got[0])
    one, other = readings
    assert soft_agreement([None, one, None, None]) is None  # one size, one picture
    assert soft_agreement([None, one, one, None]) is one  # two sizes
    assert soft_agreement([None, one, None, None], [one]) is one  # and the still frames' mean
    assert soft_agreement([None, one, None, None], [other]) is None  # the mean says otherwise
    assert soft_agreement([one, one, other, None]) is None  # two payloads: no telling


def test_a_sticker_a_die_breaks_still_reads_at_the_search_sizes() -> None:
    """The rule costs no sticker whose cells show: a sticker a die breaks at one corner
    (found by the zone search, no closed square) reads at every size of the search."""
    payload = encode_front(5, 77, 1)
    picture, to_mat = _mat_with_sticker(payload, die=True)
    geometry = MatGeometry(load_layout("creature-crush"), to_mat, 4)
    square = np.array([[45.0, 53.5], [70.0, 53.5], [70.0, 78.5], [45.0, 78.5]])
    got = read_place(picture, geometry, square, table_payloads(5))
    assert got is not None and got.text == payload
