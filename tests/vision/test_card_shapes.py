"""Cards seen where no sticker read: a hand-drawn mat, cards laid in known zones, the truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.layouts import load_layout
from companion.snapshot import SeenCard, Unreadable
from companion.vision.card_shapes import CardShapeWatch, unread_cards
from companion.vision.geometry import MatGeometry

PX_PER_MM = 2.0


def paper(layout: object) -> np.ndarray:
    """Creature Crush's mat seen straight from above at 2 px per mm: cream paper under a lamp
    that falls off towards the edges, its zones printed as thin grey lines."""
    h, w = int(400 * PX_PER_MM), int(600 * PX_PER_MM)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1.0 - 0.25 * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2)
    image = np.empty((h, w, 3), np.uint8)
    for c, level in enumerate((228, 236, 242)):
        image[..., c] = np.clip(level * light, 0, 255).astype(np.uint8)
    for zone in layout.zones.values():  # type: ignore[attr-defined]
        p0 = (int(zone.x_mm * PX_PER_MM), int(zone.y_mm * PX_PER_MM))
        p1 = (int((zone.x_mm + zone.w_mm) * PX_PER_MM), int((zone.y_mm + zone.h_mm) * PX_PER_MM))
        cv2.rectangle(image, p0, p1, (150, 150, 150), 1)
    return image


def lay_card(image: np.ndarray, x_mm: float, y_mm: float, colour: tuple[int, int, int],
             seed: int) -> None:
    """A 63 x 88 mm card: a coloured frame, art in blots, a white sticker and text box."""
    rng = np.random.default_rng(seed)
    s = PX_PER_MM
    x0, y0 = int((x_mm - 31.5) * s), int((y_mm - 44) * s)
    x1, y1 = int((x_mm + 31.5) * s), int((y_mm + 44) * s)
    cv2.rectangle(image, (x0, y0), (x1, y1), colour, -1)
    for _ in range(12):  # the art
        c = tuple(int(v) for v in rng.integers(0, 255, 3))
        centre = (int(rng.integers(x0, x1)), int(rng.integers(y0, y0 + (y1 - y0) * 2 // 3)))
        cv2.circle(image, centre, int(rng.integers(6, 20)), c, -1)
    cv2.rectangle(image, (x0 + 6, y1 - 50), (x1 - 6, y1 - 10), (245, 245, 245), -1)  # text
    sx, sy = int(x_mm * s), int((y_mm - 5) * s)
    half = int(12.5 * s)
    cv2.rectangle(image, (sx - half, sy - half), (sx + half, sy + half), (250, 250, 250), -1)
    cv2.rectangle(image, (sx - 10, sy - 10), (sx + 10, sy + 10), (20, 20, 20), -1)  # ink


def lay_die(image: np.ndarray, x_mm: float, y_mm: float) -> None:
    s = PX_PER_MM
    x, y, half = int(x_mm * s), int(y_mm * s), int(8 * s)
    cv2.rectangle(image, (x - half, y - half), (x + half, y + half), (252, 252, 252), -1)
    cv2.rectangle(image, (x - 6, y - 6), (x + 6, y + 6), (10, 10, 10), -1)


@pytest.fixture(scope="module")
def layout() -> object:
    return load_layout("creature-crush")


def geometry(layout: object, px_per_mm: float = PX_PER_MM) -> MatGeometry:
    return MatGeometry(layout, np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0]), 4)


def centre(layout: object, zone: str) -> tuple[float, float]:
    return layout.zones[zone].centre  # type: ignore[attr-defined,no-any-return]


def test_unread_cards_are_found_in_their_zones_and_empty_or_read_zones_are_not(
        layout: object) -> None:
    image = paper(layout)
    # a column of three overlapping cards nobody read, a card the tracker holds beside them,
    # an empty slot between held and unread cards, dice in the dice area
    for k, zone in enumerate(("p2.A1", "p2.B1", "p2.C1", "p2.A2", "p1.A2")):
        lay_card(image, *centre(layout, zone), colour=((40, 90, 200), (200, 60, 160))[k % 2],
                 seed=k)
    for k in range(3):
        lay_die(image, 80 + 25 * k, 240 + 10 * k)
    held = [SeenCard("S5#1", "p2.A2", x_mm=centre(layout, "p2.A2")[0],
                     y_mm=centre(layout, "p2.A2")[1]),
            SeenCard("S9#1", "p1.A2", x_mm=centre(layout, "p1.A2")[0],
                     y_mm=centre(layout, "p1.A2")[1])]
    found = unread_cards(image, geometry(layout), layout, held)
    assert sorted(u.zone for u in found) == ["p2.A1", "p2.B1", "p2.C1"]
    assert all(u.card is None for u in found)  # never a guessed identity
    assert all(u.cause == "unidentified" for u in found)  # 2 px per mm: near enough
    for u in found:
        x, y = centre(layout, u.zone)
        assert abs(u.x_mm - x) < 12 and abs(u.y_mm - y) < 12


def test_an_empty_mat_holds_no_card(layout: object) -> None:
    image = paper(layout)
    for k in range(3):
        lay_die(image, 450 + 25 * k, 130 + 10 * k)
    assert unread_cards(image, geometry(layout), layout, []) == []


def test_a_place_too_far_for_a_sticker_is_said_to_be_far(layout: object) -> None:
    sharp = paper(layout)
    lay_card(sharp, *centre(layout, "p2.B2"), colour=(40, 90, 200), seed=3)
    image = cv2.resize(sharp, (600, 400), interpolation=cv2.INTER_AREA)  # 1 px per mm
    found = unread_cards(image, geometry(layout, 1.0), layout, [])
    assert [(u.zone, u.cause) for u in found] == [("p2.B2", "far")]


def test_the_watch_reports_once_two_looks_agree_and_leaves_glare_zones_to_the_glare_watch(
        layout: object) -> None:
    image = paper(layout)
    lay_card(image, *centre(layout, "p2.B3"), colour=(40, 90, 200), seed=4)
    lay_card(image, *centre(layout, "p2.B1"), colour=(200, 60, 160), seed=5)
    watch = CardShapeWatch()
    glare = [Unreadable("p2.B1", *centre(layout, "p2.B1"))]
    assert watch.look(image, geometry(layout), layout, [], glare) == ()
    reported = watch.look(image, geometry(layout), layout, [], glare)
    assert [u.zone for u in reported] == ["p2.B3"]
    watch.forget()
    assert watch.reported == ()


def test_a_card_read_since_ends_its_zones_report_at_once(layout: object) -> None:
    image = paper(layout)
    lay_card(image, *centre(layout, "p2.B3"), colour=(40, 90, 200), seed=6)
    watch = CardShapeWatch()
    watch.look(image, geometry(layout), layout, [])
    assert [u.zone for u in watch.look(image, geometry(layout), layout, [])] == ["p2.B3"]
    x, y = centre(layout, "p2.B3")
    read = [SeenCard("S8#1", "p2.B3", x_mm=x, y_mm=y)]
    assert watch.look(image, geometry(layout), layout, read) == ()


def test_the_mat_beyond_the_pictures_edge_holds_no_card(layout: object) -> None:
    """A camera that sees the mat's left part only: the black beyond is not a card."""
    image = paper(layout)
    lay_card(image, *centre(layout, "p1.A1"), colour=(40, 90, 200), seed=7)
    seen = image[:, : int(330 * PX_PER_MM)].copy()  # the picture ends at x = 330 mm
    found = unread_cards(seen, geometry(layout), layout, [])
    assert [u.zone for u in found] == ["p1.A1"]
