"""Scanning from frames: with the mat in view only the scan zone counts; live frames need a
sticker read steadily before it counts."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.cardsets import load_cardset
from companion.decks.capture import scan_source
from companion.decks.scanner import DeckScanner
from companion.layouts import MatLayout, load_layout
from companion.markers.payload import encode_front
from companion.markers.render import aruco_image, card_front_image
from companion.vision.sources import Frame, ImageFolderSource

GAME = "creature-crush"
PX_PER_MM = 2


def top_down_photo(layout: MatLayout, stickers: dict[str, tuple[float, float]]) -> np.ndarray:
    """The mat seen from straight above at 2 px/mm: corner markers and stickers (payload at
    mat mm centre)."""
    image = np.full(
        (int(layout.height_mm * PX_PER_MM), int(layout.width_mm * PX_PER_MM)), 255, dtype=np.uint8
    )

    def put(patch: np.ndarray, x_mm: float, y_mm: float) -> None:
        h, w = patch.shape
        x, y = int(x_mm * PX_PER_MM - w / 2), int(y_mm * PX_PER_MM - h / 2)
        image[y : y + h, x : x + w] = patch

    for c in layout.corners:
        put(aruco_image(c.marker_id, int(c.size_mm * PX_PER_MM)), c.x_mm, c.y_mm)
    for payload, (x, y) in stickers.items():
        put(card_front_image(payload, 3), x, y)
    return image


def payload(card_id: str, copy: int = 1) -> str:
    return encode_front(5, load_cardset(GAME).get(card_id).number, copy)


def test_only_stickers_in_the_scan_zone_count(tmp_path: Path) -> None:
    layout = load_layout(GAME)
    lager, hell = layout.zones["p1.lager"], layout.zones["p1.hell"]
    photo = top_down_photo(
        layout,
        {
            payload("CC-001"): lager.centre,
            payload("CC-006"): hell.centre,
        },
    )
    cv2.imwrite(str(tmp_path / "00.png"), photo)
    scanner = DeckScanner(load_cardset(GAME), zone="p1.lager")
    stats = scan_source(ImageFolderSource(tmp_path), scanner, layout)
    assert stats.frames == 1 and stats.frames_with_mat == 1
    assert scanner.registered == [("CC-001", 1)]


class ListSource:
    def __init__(self, images: list[np.ndarray]) -> None:
        self.images = images

    def read(self) -> Frame | None:
        if not self.images:
            return None
        return Frame(self.images.pop(0), 0, 0.0)

    def close(self) -> None:
        self.images = []


def test_live_frames_need_a_steady_read() -> None:
    def shot(card_id: str) -> np.ndarray:
        return np.pad(card_front_image(payload(card_id), 6), 40, constant_values=255)

    blank = np.full_like(shot("CC-001"), 255)
    frames = [shot("CC-001"), blank, shot("CC-006"), shot("CC-006"), shot("CC-006")]
    scanner = DeckScanner(load_cardset(GAME), zone=None)
    events: list[str] = []
    scan_source(
        ListSource(frames), scanner, None, steady=3, on_event=lambda e: events.append(e.kind)
    )
    assert scanner.registered == [("CC-006", 1)]  # CC-001 passed through for one frame only
    assert events == ["added"]
