"""Readings of unchanged squares are reused; any change a reading could depend on is seen.

The oracle is the big-cell reader itself run on every picture (`read_quad`): the memory may
only ever give what a fresh reading of the same picture would give, or a near miss's
"nothing" that a fresh reading might also give."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.markers.payload import encode_front
from companion.markers.render import card_front_image
from companion.vision.decoders.bigcell import CELLS, read_quad, read_quads
from companion.vision.decoders.square_memory import KEEP_PASSES, SquareMemory, looks_unchanged

MODULE = 4  # px per module: a big-cell cell is 8 px


def _table(payload: str, at: tuple[int, int] = (120, 90), noise: float = 0.0,
           seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A sticker on a grey table, and its symbol's border quad."""
    canvas = np.full((360, 480), 110, np.uint8)
    image = card_front_image(payload, MODULE, symbology="bigcell")
    x, y = at
    h, w = image.shape
    canvas[y:y + h, x:x + w] = image
    if noise:
        rng = np.random.default_rng(seed)
        canvas = np.clip(canvas + rng.normal(0, noise, canvas.shape), 0, 255).astype(np.uint8)
    quiet = (w - CELLS * 2 * MODULE) // 2
    x0, y0 = x + quiet, y + quiet
    side = CELLS * 2 * MODULE
    quad = np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], float)
    return canvas, quad


class Counting:
    """A reading that counts its calls (and says whether to keep its result)."""

    def __init__(self, gray: np.ndarray, quad: np.ndarray, keep: bool = True) -> None:
        self.gray, self.quad, self.keep, self.calls = gray, quad, keep, 0

    def __call__(self) -> tuple[object, bool]:
        self.calls += 1
        got = read_quad(self.gray, self.quad)
        return (None if got is None else got.text), self.keep


def test_the_same_picture_is_read_once_with_noise_and_jitter() -> None:
    a = encode_front(3, 101, 1)
    memory = SquareMemory()
    gray, quad = _table(a, noise=5.0, seed=1)
    first = Counting(gray, quad)
    memory.begin_pass()
    assert memory.read(gray, quad, CELLS, first) == a
    again, _ = _table(a, noise=5.0, seed=2)  # the next frame: other noise, corners off 1 px
    second = Counting(again, quad + 1.0)
    memory.begin_pass()
    assert memory.read(again, quad + 1.0, CELLS, second) == a
    assert second.calls == 0


def test_another_sticker_in_the_same_place_is_read_again() -> None:
    a, b = encode_front(3, 101, 1), encode_front(3, 102, 1)
    memory = SquareMemory()
    gray, quad = _table(a)
    memory.begin_pass()
    assert memory.read(gray, quad, CELLS, Counting(gray, quad)) == a
    swapped, same_quad = _table(b)
    assert np.array_equal(quad, same_quad)
    fresh = Counting(swapped, quad)
    memory.begin_pass()
    assert memory.read(swapped, quad, CELLS, fresh) == b
    assert fresh.calls == 1


def test_one_cell_covered_is_a_change() -> None:
    """A die's corner or a fingertip over one cell (8 x 8 px) changes the picture."""
    a = encode_front(3, 101, 1)
    gray, quad = _table(a, noise=4.0, seed=3)
    covered = gray.copy()
    x, y = int(quad[0, 0]) + 24, int(quad[0, 1]) + 24
    covered[y:y + 8, x:x + 8] = 255 - covered[y:y + 8, x:x + 8]
    x0, y0 = int(quad[0, 0]) - 10, int(quad[0, 1]) - 10
    crop = (slice(y0, y0 + 90), slice(x0, x0 + 90))
    assert not looks_unchanged(gray[crop], covered[crop], 8)
    later, _ = _table(a, noise=4.0, seed=4)
    assert looks_unchanged(gray[crop], later[crop], 8)


def _remembered_one() -> tuple[SquareMemory, np.ndarray, np.ndarray]:
    """A memory that has read one sticker, the picture and the sticker's quad."""
    gray, quad = _table(encode_front(3, 101, 1))
    memory = SquareMemory()
    memory.begin_pass()
    memory.read(gray, quad, CELLS, Counting(gray, quad))
    return memory, gray, quad


def test_moved_corners_and_near_misses_are_read_again() -> None:
    memory, gray, quad = _remembered_one()
    moved = Counting(gray, quad + 3.0)  # beyond the corners' jitter: another square
    memory.read(gray, quad + 3.0, CELLS, moved)
    assert moved.calls == 1
    other = np.zeros_like(gray)
    near = Counting(other, quad + 40.0, keep=False)
    memory.read(other, quad + 40.0, CELLS, near)
    memory.read(other, quad + 40.0, CELLS, near)
    assert near.calls == 2


def test_entries_not_looked_at_expire() -> None:
    memory, gray, quad = _remembered_one()
    for _ in range(KEEP_PASSES):
        memory.begin_pass()
    late = Counting(gray, quad)
    memory.read(gray, quad, CELLS, late)
    assert late.calls == 1


@pytest.mark.parametrize("seed", range(4))
def test_read_quads_with_memory_reads_what_it_reads_without(seed: int) -> None:
    """Frames of a table where stickers come and go: with the memory, every frame reads
    exactly what a fresh reading of that frame reads."""
    rng = np.random.default_rng(seed)
    payloads = [encode_front(3, int(n), 1) for n in rng.choice(900, 4, replace=False)]
    memory = SquareMemory()
    places = [(30, 40), (250, 40), (30, 200), (250, 200)]
    for frame in range(6):
        canvas = np.full((400, 520), 110, np.uint8)
        quads = []
        for k, at in enumerate(places):
            shown = payloads[(k + frame * int(rng.integers(0, 2))) % len(payloads)]
            image = card_front_image(shown, MODULE, symbology="bigcell")
            h, w = image.shape
            canvas[at[1]:at[1] + h, at[0]:at[0] + w] = image
            _, quad = _table(shown, at)
            quads.append(quad)
        canvas = cv2.GaussianBlur(canvas, (3, 3), 0)
        noisy = np.clip(canvas + rng.normal(0, 4, canvas.shape), 0, 255).astype(np.uint8)
        memory.begin_pass()
        with_memory = sorted(r.text for r in read_quads(noisy, quads, memory=memory))
        fresh = sorted(r.text for r in read_quads(noisy, quads))
        assert with_memory == fresh


def test_only_sticker_sized_squares_go_to_the_card_reader() -> None:
    """On a steeply tilted mat a symbol far away is a third the size of one near: the size
    that counts is the one at the square's own place (the oracle: squares drawn in mat
    millimetres and mapped into the picture)."""
    from companion.benchmarks.vision import GAME, Numbers
    from companion.layouts import load_layout
    from companion.vision.geometry import MatGeometry
    from companion.vision.pipeline import build_pipeline

    layout = load_layout(GAME)
    pipeline = build_pipeline(layout, GAME, Numbers())
    # mat (mm) -> picture (px): so steep that a symbol at y = 400 mm is smaller than half a
    # symbol at y = 0 (scale 1 / (1 + 0.003 y)): no size range for the whole picture works
    mat_to_image = np.array([[2.0, 0.4, 300.0], [0.0, 1.2, 200.0], [0.0, 0.003, 1.0]])
    pipeline.geometry = MatGeometry(layout, np.linalg.inv(mat_to_image), 4)
    symbol = float(layout.sticker_mm)

    def square(x: float, y: float, scale: float) -> np.ndarray:
        half = symbol * scale / 2
        pts = np.array([[[x - half, y - half], [x + half, y - half], [x + half, y + half],
                         [x - half, y + half]]], np.float64)
        return np.asarray(cv2.perspectiveTransform(pts, mat_to_image)[0])

    assert np.ptp(square(300, 390, 1.0)[:, 0]) < np.ptp(square(300, 10, 0.5)[:, 0])
    places = [(60.0, 40.0), (300.0, 200.0), (540.0, 370.0)]
    for x, y in places:
        kept = pipeline._sticker_sized([square(x, y, s) for s in (0.5, 1.0, 1.32, 2.2)])
        sizes = [float(np.ptp(q[:, 0])) for q in kept]
        expected = [float(np.ptp(square(x, y, s)[:, 0])) for s in (1.0, 1.32)]
        assert sizes == pytest.approx(expected)


def test_a_crop_changed_nearly_everywhere_is_a_change() -> None:
    """When most of the crop changed (the sticker gone, the art of another card there), the
    median difference is the change, not the noise: it must not raise the bar."""
    a = encode_front(3, 101, 1)
    gray, quad = _table(a)
    x0, y0 = int(quad[0, 0]) - 10, int(quad[0, 1]) - 10
    crop = gray[y0:y0 + 90, x0:x0 + 90]
    assert not looks_unchanged(crop, 255 - crop, 8)
    assert not looks_unchanged(crop, np.clip(crop.astype(int) + 40, 0, 255).astype(np.uint8), 8)
