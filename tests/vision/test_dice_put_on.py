"""A hand puts dice on cards the eye has read: the cards stay, even where it cannot read the dice.

On a laptop's camera (with a mirror clip) the dice are a few pixels a cell and mostly unread,
so the tracker's "a die lies on its sticker" hold has no die to go by; the sticker's place,
still showing most of its pattern around the die, must keep the card. The oracle is the
simulator's truth: the cards on the table never change, so every card settled before the
dice came must still be there after (the two scenes were cards lost before the hold)."""

from __future__ import annotations

import dataclasses

import pytest

from companion.benchmarks import vision as bv
from companion.layouts import load_layout
from companion.sim.presets import camera_kind
from companion.sim.source import SnapshotPlayer
from companion.vision.pipeline import build_pipeline
from companion.vision.sources import Frame


@pytest.mark.parametrize("seed", [1002, 1006])
def test_cards_read_before_the_dice_stay_after(seed: int) -> None:
    layout = load_layout(bv.GAME)
    piles = [z.id for z in layout.zones.values() if z.kind == "pile"]
    pose = camera_kind("laptop-720p-mirror").poses[0]
    truth = bv.still_table(layout, seed)
    renderer = bv.make_renderer(layout, "laptop-720p-mirror", pose, seed, "aruco",
                                symbology=bv._stickers("laptop-720p-mirror",
                                                       bv.DEFAULT_SYMBOLOGY))
    bare = dataclasses.replace(truth, dice=())
    player = SnapshotPlayer(renderer, [bare, truth], bv.GAME_CODE, bv.number_of,
                            bv.DICE_AFTER_TIMING, True, seed, piles)
    pipeline = build_pipeline(layout, bv.GAME, bv.Numbers())
    before = after = None  # the last table settled before the dice came, and at the end
    for index, (shown, hands, _settled, _done) in enumerate(player.plan()):
        frame = renderer.render(player.scene(shown), hands, index)
        update = pipeline.process(Frame(frame.image, index, index / 30))
        if update.snapshot is not None:
            after = update.snapshot
            if shown == 0:
                before = update.snapshot
    assert before is not None and after is not None
    on_table = {c.uid for c in truth.cards}
    read_before = {c.uid for c in before.cards} & on_table
    assert len(read_before) >= 8
    assert read_before <= {c.uid for c in after.cards}
    assert read_before <= {c.uid for c in pipeline.tracker.current().cards}
    assert {c.uid for c in after.cards} <= on_table  # nothing that is not there
