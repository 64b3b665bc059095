"""A sticker's place: "the decoder missed it", "a die lies on it" or "it is gone".

Pictures are built from what physically lies there (a sticker on card art, a die with its dark
side face and shadow, the bare mat, another sticker, a card slid over), so the expected answer
comes from the scene, not from the code under test."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.markers.payload import encode_front
from companion.markers.render import card_front_image
from companion.vision.decoders.bigcell import CELLS
from companion.vision.places import PlacePicture, look_at, same_place, small_thing_on

MODULE = 2  # px per module: a symbol of 32 px, about a 720p webcam's


def _art(seed: int) -> np.ndarray:
    """Card art: blocks of colour turned to grey."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(40, 220, (12, 16)).astype(np.uint8)
    return np.kron(blocks, np.ones((10, 10), np.uint8))


def _card(payload: str | None, art_seed: int = 0, at: tuple[int, int] = (40, 30),
          noise_seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A card's art with its sticker (or without: `payload` None shows the bare mat), and the
    symbol's border quad."""
    canvas = _art(art_seed).copy()
    sticker = card_front_image(encode_front(3, 7, 1), MODULE, symbology="bigcell")
    h, w = sticker.shape
    x, y = at
    if payload is not None:
        canvas[y:y + h, x:x + w] = card_front_image(payload, MODULE, symbology="bigcell")
    quiet = (w - CELLS * 2 * MODULE) // 2
    x0, y0 = x + quiet, y + quiet
    side = CELLS * 2 * MODULE
    quad = np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], float)
    return _noisy(canvas, noise_seed), quad


def _noisy(canvas: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(canvas + rng.normal(0, 3.0, canvas.shape), 0, 255).astype(np.uint8)


def _with_die(canvas: np.ndarray, x: int, y: int, side: int = 11) -> np.ndarray:
    """A die seen from the side: a white top with a dark pip, a grey side face below it and a
    shadow beside it."""
    out = canvas.astype(np.int16)
    out[y + side:y + side + 5, x:x + side] = 90  # side face
    out[y + 3:y + side + 5, x + side:x + side + 3] -= 50  # shadow
    out[y:y + side, x:x + side] = 235
    out[y + side // 2 - 1:y + side // 2 + 2, x + side // 2 - 1:x + side // 2 + 2] = 30
    return np.clip(out, 0, 255).astype(np.uint8)


A = encode_front(3, 101, 1)
B = encode_front(3, 202, 2)


def test_the_same_place_with_other_noise_is_the_same() -> None:
    before, quad = _card(A, noise_seed=1)
    now, _ = _card(A, noise_seed=2)
    assert same_place(look_at(before, quad), look_at(now, quad))


def test_a_die_over_the_stickers_edge_is_a_small_thing_on_it() -> None:
    before, quad = _card(A, noise_seed=1)
    now, _ = _card(A, noise_seed=2)
    x1, y1 = int(quad[2][0]), int(quad[2][1])
    covered = _with_die(now, x1 - 11, y1 - 12)  # over the symbol's lower right corner
    then, later = look_at(before, quad), look_at(covered, quad)
    assert not same_place(then, later)
    assert small_thing_on(then, later)


def test_a_removed_card_is_neither() -> None:
    before, quad = _card(A, noise_seed=1)
    gone, _ = _card(None, noise_seed=2)  # the art stands in for whatever lies beneath
    assert not same_place(look_at(before, quad), look_at(gone, quad))
    assert not small_thing_on(look_at(before, quad), look_at(gone, quad))


def test_a_removed_card_with_its_die_left_behind_is_neither() -> None:
    before, quad = _card(A, noise_seed=1)
    gone, _ = _card(None, noise_seed=2)
    x1, y1 = int(quad[2][0]), int(quad[2][1])
    left = _with_die(gone, x1 - 7, y1 - 8)
    assert not small_thing_on(look_at(before, quad), look_at(left, quad))


def test_another_sticker_in_the_same_place_is_not_a_small_thing() -> None:
    before, quad = _card(A, noise_seed=1)
    other, _ = _card(B, noise_seed=2)
    assert not same_place(look_at(before, quad), look_at(other, quad))
    assert not small_thing_on(look_at(before, quad), look_at(other, quad))


def test_the_card_moved_a_few_pixels_is_gone_from_its_place() -> None:
    before, quad = _card(A, noise_seed=1)
    moved, _ = _card(A, at=(43, 32), noise_seed=2)
    assert not small_thing_on(look_at(before, quad), look_at(moved, quad))


def test_a_card_slid_over_half_the_sticker_is_not_a_small_thing() -> None:
    before, quad = _card(A, noise_seed=1)
    now, _ = _card(A, noise_seed=2)
    x0 = int(quad[0][0])
    now[:, x0 + 14:] = 200  # the next card's white border over the right half
    assert not small_thing_on(look_at(before, quad), look_at(now, quad))


def test_a_die_in_the_stickers_middle_hides_too_much() -> None:
    before, quad = _card(A, noise_seed=1)
    now, _ = _card(A, noise_seed=2)
    x0, y0 = int(quad[0][0]), int(quad[0][1])
    covered = _with_die(now, x0 + 8, y0 + 8, side=16)
    assert not small_thing_on(look_at(before, quad), look_at(covered, quad))


@settings(max_examples=40, deadline=None)
@given(number=st.integers(1, 4095), copy=st.integers(1, 8), art=st.integers(0, 10_000))
def test_no_other_sticker_laid_in_the_place_counts_as_covered(number: int, copy: int,
                                                             art: int) -> None:
    other = encode_front(3, number, copy)
    if other == A:
        return
    before, quad = _card(A, art_seed=art, noise_seed=1)
    now, _ = _card(other, art_seed=art, noise_seed=2)
    assert not small_thing_on(look_at(before, quad), look_at(now, quad))


@settings(max_examples=40, deadline=None)
@given(corner=st.integers(0, 3), dx=st.integers(-3, 3), dy=st.integers(-3, 3),
       art=st.integers(0, 10_000))
def test_a_die_on_any_corner_of_the_sticker_holds_it(corner: int, dx: int, dy: int,
                                                     art: int) -> None:
    before, quad = _card(A, art_seed=art, noise_seed=1)
    now, _ = _card(A, art_seed=art, noise_seed=2)
    cx, cy = quad[corner]
    covered = _with_die(now, int(cx) - 5 + dx, int(cy) - 5 + dy)
    then, later = look_at(before, quad), look_at(covered, quad)
    assert same_place(then, later) or small_thing_on(then, later)


def test_a_thing_over_most_of_the_sticker_leaves_too_little_to_tell() -> None:
    before, quad = _card(A, noise_seed=1)
    now, _ = _card(A, noise_seed=2)
    x1, y1 = int(quad[2][0]), int(quad[2][1])
    now[y1 - 26:y1 + 4, x1 - 26:x1 + 4] = 60  # a dark token over two thirds of it
    assert not small_thing_on(look_at(before, quad), look_at(now, quad))


def test_a_kept_place_is_the_frame_it_was_kept_from() -> None:
    """The pipeline keeps a place's pixels and looks at them later: the frame's buffer may be
    the camera's, written over by the next frame (here: the card taken away)."""
    frame, quad = _card(A, noise_seed=1)
    kept = PlacePicture(frame, quad)
    expected = look_at(frame, quad)
    frame[:] = _card(None, noise_seed=1)[0]
    look = kept.look()
    assert look is not None and expected is not None
    assert np.array_equal(look.normalised, expected.normalised)
    assert not same_place(look, look_at(frame, quad))


def test_a_kept_place_off_the_picture_has_no_look() -> None:
    frame, quad = _card(A)
    assert PlacePicture(frame, quad + 1000.0).look() is None
