"""A camera knocked during a pause: the eye follows the mat and keeps emitting the table.

The simulator knocks the camera (4-5 mm, 1-1.5 degrees, and it stays there) in the middle of
the still pause after the first change; hands then make the next changes. Every settled
snapshot must equal the simulator's truth: before the fix, the shifted picture stayed a
"change at the picture's edge" against the pre-knock background, was read as a hand for good,
and the changes after the knock were never emitted.
"""

from __future__ import annotations

import cv2
import pytest

from companion.benchmarks.vision import run_sequence


@pytest.mark.slow
def test_changes_after_a_knock_are_emitted_right() -> None:
    cv2.setNumThreads(1)
    result = run_sequence(n_cards=12, steps=3, bumped=True)
    assert result.bumped
    assert result.wrong_ids == 0
    assert result.settled_ok == 1.0
