"""The fast whole-picture operations give what the plain ones give."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.fastops import channel_max, shrink


@settings(max_examples=30, deadline=None)
@given(w=st.integers(1, 40), h=st.integers(1, 30), factor=st.sampled_from([2, 3, 4, 8]),
       colour=st.booleans(), seed=st.integers(0, 1000))
def test_shrink_is_the_block_mean(w: int, h: int, factor: int, colour: bool, seed: int
                                  ) -> None:
    rng = np.random.default_rng(seed)
    shape = (h * factor + int(rng.integers(0, 2)), w * factor, 3) if colour else (
        h * factor, w * factor + int(rng.integers(0, 2)))
    image = rng.integers(0, 256, shape, dtype=np.uint8)
    got = shrink(image, factor).astype(int)
    hh, ww = image.shape[0] // factor, image.shape[1] // factor
    blocks = image[:hh * factor, :ww * factor].astype(float)
    blocks = blocks.reshape(hh, factor, ww, factor, *image.shape[2:]).mean(axis=(1, 3))
    assert got.shape == blocks.shape
    # cv2's own area resize, where a side does not divide, spreads edge pixels: compare only
    # with the exact block mean where it applies
    if image.shape[0] % factor == 0 and image.shape[1] % factor == 0:
        assert np.abs(got - blocks).max() <= 1.5  # three roundings of half a level
    else:
        area = cv2.resize(image, (ww, hh), interpolation=cv2.INTER_AREA)
        assert np.array_equal(got, area.astype(int))


@given(seed=st.integers(0, 1000), channels=st.sampled_from([1, 3, 4]))
def test_channel_max_is_the_largest_channel(seed: int, channels: int) -> None:
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (17, 23, channels), dtype=np.uint8)
    assert np.array_equal(channel_max(image), image.max(axis=2))
    grey = image[:, :, 0]
    assert channel_max(grey) is grey
