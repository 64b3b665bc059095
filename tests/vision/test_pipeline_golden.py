"""The pipeline's output on fixed frames, frame by frame, against a checked-in record.

Guards refactors of `companion.vision.pipeline` and its stages: a short scene from the
independent 3D table (`scene3d`: three cards, two sticker dice, a hand that covers one die
while it is turned), read by a fresh pipeline; every frame's stats (but its timing), snapshot,
detections and sightings must equal the record. The record was written by the pipeline as it
was before it was split into stages (one class), so it also shows that the split kept its
behaviour. Regenerate only for an intended change in what the pipeline reads:
`COMPANION_WRITE_GOLDEN=1 pytest tests/vision/test_pipeline_golden.py`.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from companion.markers.payload import encode_back, encode_front
from companion.vision.pipeline import build_pipeline
from companion.vision.sources import Frame

from .scene3d import Blob, Camera, Die, Scene, Sticker, render

GOLDEN = Path(__file__).parent / "golden" / "pipeline_frames.json"
GAME = "creature-crush"
TOLERANCE = 0.05  # px, mm and confidence: the record is rounded; libraries' arithmetic differs


class Numbers:
    """Card number n is card "C<n>"."""

    class _Card:
        def __init__(self, number: int) -> None:
            self.id = f"C{number}"

    def by_number(self, number: int) -> Any:
        return self._Card(number)


def _frames() -> list[np.ndarray]:
    scene = Scene()
    zones = scene.layout.zones
    scene.stickers = [
        Sticker(encode_front(5, 1, 1), *zones["p1.A1"].centre),
        Sticker(encode_front(5, 2, 1), *zones["p1.B2"].centre, angle_deg=90),
        Sticker(encode_back(77), *zones["p2.A2"].centre, back=True),
    ]
    x, y = zones["p1.dice"].centre
    scene.dice = [Die("p1.w1", 4, x - 20, y, yaw_deg=10), Die("p1.w2", 1, x + 30, y)]
    camera = Camera(tilt_deg=25)
    frames = [render(scene, camera, seed=k) for k in range(6)]
    hand = Blob(((x - 10, 560.0), (x - 10, y)), width_mm=60, bgr=(110, 140, 200))
    covered = Scene(stickers=scene.stickers, dice=[scene.dice[1]], blobs=[hand])
    frames += [render(covered, camera, seed=k) for k in range(4)]
    scene.dice = [Die("p1.w1", 6, x - 5, y + 15, yaw_deg=38), scene.dice[1]]
    frames += [render(scene, camera, seed=k) for k in range(7)]
    return frames


def _round(x: Any) -> Any:
    if isinstance(x, float | np.floating):
        return round(float(x), 3)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.ndarray):
        return _round(x.tolist())
    if isinstance(x, list | tuple):
        return [_round(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _round(v) for k, v in x.items()}
    return x


def record() -> list[dict[str, Any]]:
    """What a fresh pipeline gives on every frame (timing left out)."""
    pipeline = build_pipeline(Scene().layout, GAME, Numbers())
    out = []
    for index, image in enumerate(_frames()):
        update = pipeline.process(Frame(image, index, index / 15))
        stats = update.stats.to_dict()
        del stats["fps"], stats["frame_ms"]
        out.append({
            "stats": stats,
            "snapshot": None if update.snapshot is None else update.snapshot.to_dict(),
            "detections": [[d.kind, d.text, d.decoder, d.corners.mean(axis=0), d.confidence]
                           for d in update.detections],
            "sightings": [asdict(s) for s in update.sightings],
        })
    return _round(out)  # type: ignore[no-any-return]


def _differences(got: Any, want: Any, where: str = "") -> list[str]:
    if isinstance(want, float) and isinstance(got, int | float) and not isinstance(got, bool):
        return [] if math.isclose(got, want, abs_tol=TOLERANCE) else [f"{where}: {got} != {want}"]
    if isinstance(want, dict) and isinstance(got, dict):
        if set(got) != set(want):
            return [f"{where}: keys {sorted(got)} != {sorted(want)}"]
        return [d for k in want for d in _differences(got[k], want[k], f"{where}.{k}")]
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return [f"{where}: {len(got)} items != {len(want)}"]
        return [d for i, (g, w) in enumerate(zip(got, want, strict=True))
                for d in _differences(g, w, f"{where}[{i}]")]
    return [] if got == want else [f"{where}: {got!r} != {want!r}"]


def test_the_pipeline_reads_the_fixed_frames_as_recorded() -> None:
    got = record()
    if os.environ.get("COMPANION_WRITE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, indent=1) + "\n")
    want = json.loads(GOLDEN.read_text())
    assert any(f["snapshot"] for f in want) and any(f["stats"]["hand"] for f in want)
    differences = _differences(got, want)
    assert not differences, "\n".join(differences[:20])
