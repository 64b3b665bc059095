"""The lamp's reflection as the eye reports it: steadied over looks, on still frames only."""

from __future__ import annotations

import numpy as np

from companion.vision.glare import Glare, GlareWatch
from companion.vision.image_quality import glare_spots


def test_a_reflection_is_reported_once_two_looks_agree_and_dropped_the_same_way() -> None:
    watch = GlareWatch(every_s=0.5)
    bond = Glare("p1.bonds", None, 300.0, 358.0)
    assert watch.report(0.0, [bond]) == ()  # one look: not yet
    reported = watch.report(0.5, [bond])
    assert [(u.zone, u.cause, u.card) for u in reported] == [("p1.bonds", "glare", None)]
    assert watch.report(1.0, []) == reported  # one look without: still there
    assert watch.report(1.5, []) == ()
    assert watch.report(2.0, [Glare(None, None, -5.0, 3.0)]) == ()  # off the zones: nothing


def test_a_flickering_reflection_does_not_make_the_table_flicker() -> None:
    watch = GlareWatch(every_s=0.5)
    bond = Glare("p1.bonds", None, 300.0, 358.0)
    seen = [watch.report(0.5 * k, [bond] if k % 2 else []) for k in range(10)]
    assert all(r == () for r in seen)


def test_looks_are_taken_on_still_frames_twice_a_second() -> None:
    watch = GlareWatch(every_s=0.5)
    assert not watch.due(0.0, still=False)
    assert watch.due(0.0, still=True)
    watch.report(0.0, [])
    assert not watch.due(0.3, still=True)
    assert watch.due(0.5, still=True)
    watch.forget()
    assert watch.due(0.6, still=True)


def test_a_solid_clipped_blot_is_glare_and_a_white_ring_around_ink_is_not() -> None:
    image = np.full((200, 300), 120, np.uint8)
    image[40:90, 40:100] = 255  # the lamp mirrored in a sleeve
    image[100:160, 180:240] = 255  # a sticker's white margin ...
    image[110:150, 190:230] = 10  # ... around its ink
    spots = glare_spots(image, min_px=200)
    assert len(spots) == 1 and 60 <= spots[0][0] <= 80 and 55 <= spots[0][1] <= 75
