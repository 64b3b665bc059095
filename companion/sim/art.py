"""Full-colour card faces and backs around the sticker, as printed trading cards look.

Real cards are busy: saturated artwork, dark regions, a title bar, a rules text box with small
black text, cost symbols, a coloured frame. A sticker on such a card has its own white quiet
zone, but everything around it (and the edges a blurred camera smears into it) is art, not the
plain paper of an easy simulator. Each card's art is drawn once from its payload (so the same
card always looks the same) at the renderer's canvas resolution.
"""

from __future__ import annotations

import hashlib
import math

import cv2
import numpy as np

WORDS = ("Drache", "Feuer", "Wald", "Krieger", "Schatten", "Licht", "Sturm", "Golem", "Crush",
         "Kraft", "Angriff", "Leben", "Zauber", "Karte", "Wurf", "Runde", "Gegner", "Feld")


def _rng(key: str) -> np.random.Generator:
    digest = hashlib.sha256(key.encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _saturated(rng: np.random.Generator, dark: bool = False) -> tuple[int, int, int]:
    hue = int(rng.integers(0, 180))
    sat = int(rng.integers(150, 256))
    val = int(rng.integers(30, 90)) if dark else int(rng.integers(110, 256))
    hsv = np.array([[[hue, sat, val]]], np.uint8)
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def _text_line(rng: np.random.Generator, words: int) -> str:
    return " ".join(WORDS[int(rng.integers(len(WORDS)))] for _ in range(words))


def card_face(key: str, w_px: int, h_px: int, ppm: float) -> np.ndarray:
    """A card front: frame, title bar, artwork, rules text box, cost and stats."""
    rng = _rng("front:" + key)
    img = np.empty((h_px, w_px, 3), np.uint8)
    frame = _saturated(rng)
    img[:] = frame
    m = max(1, round(3 * ppm))
    inner = (m, m, w_px - m, h_px - m)
    # title bar
    title_h = round(8 * ppm)
    cv2.rectangle(img, (inner[0], inner[1]), (inner[2], inner[1] + title_h), _saturated(rng),
                  -1)
    scale = 0.11 * ppm
    cv2.putText(img, _text_line(rng, 2), (inner[0] + m, inner[1] + title_h - m),
                cv2.FONT_HERSHEY_SIMPLEX, scale, (10, 10, 10), max(1, round(ppm / 3)),
                cv2.LINE_AA)
    # artwork: gradient sky, shapes, dark masses
    art_top, art_bottom = inner[1] + title_h + m, round(h_px * 0.58)
    c0 = np.array(_saturated(rng), np.float32)
    c1 = np.array(_saturated(rng, dark=bool(rng.integers(2))), np.float32)
    t = np.linspace(0, 1, max(1, art_bottom - art_top), dtype=np.float32)[:, None, None]
    img[art_top:art_bottom, inner[0]:inner[2]] = (c0 * (1 - t) + c1 * t).astype(np.uint8)
    art = img[art_top:art_bottom, inner[0]:inner[2]]
    ah, aw = art.shape[:2]
    for _ in range(int(rng.integers(10, 22))):
        colour = _saturated(rng, dark=rng.random() < 0.35)
        kind = int(rng.integers(4))
        cx, cy = int(rng.integers(0, aw)), int(rng.integers(0, ah))
        size = int(rng.integers(max(2, aw // 12), max(3, aw // 2)))
        if kind == 0:
            cv2.ellipse(art, (cx, cy), (size, max(1, size // 2)), float(rng.integers(180)), 0,
                        360, colour, -1, cv2.LINE_AA)
        elif kind == 1:
            pts = np.array([[cx + int(rng.integers(-size, size)), cy + int(rng.integers(-size,
                                                                                      size))]
                            for _ in range(int(rng.integers(3, 7)))], np.int32)
            cv2.fillPoly(art, [pts], colour, cv2.LINE_AA)
        elif kind == 2:
            cv2.line(art, (cx, cy), (int(rng.integers(0, aw)), int(rng.integers(0, ah))),
                     colour, max(1, size // 6), cv2.LINE_AA)
        else:
            cv2.circle(art, (cx, cy), max(1, size // 3), colour, -1, cv2.LINE_AA)
    # rules text box: pale, with lines of small dark text
    box_top = art_bottom + m
    box_bottom = inner[3] - round(9 * ppm)
    pale = (int(rng.integers(190, 240)), int(rng.integers(190, 240)), int(rng.integers(190, 240)))
    cv2.rectangle(img, (inner[0], box_top), (inner[2], box_bottom), pale, -1)
    line_h = max(4, round(3.6 * ppm))
    y = box_top + line_h
    while y < box_bottom - 2:
        cv2.putText(img, _text_line(rng, 5), (inner[0] + m, y), cv2.FONT_HERSHEY_PLAIN,
                    0.06 * ppm, (25, 25, 25), 1, cv2.LINE_AA)
        y += line_h
    # stats bar with cost and attack/life circles
    stats_y = (box_bottom + inner[3]) // 2
    cv2.rectangle(img, (inner[0], box_bottom), (inner[2], inner[3]), _saturated(rng, True), -1)
    for k, cx in enumerate((inner[0] + round(6 * ppm), inner[2] - round(6 * ppm))):
        r = round(3.5 * ppm)
        cv2.circle(img, (cx, stats_y), r, _saturated(rng), -1, cv2.LINE_AA)
        cv2.putText(img, str(int(rng.integers(1, 10))), (cx - r // 2, stats_y + r // 2),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.1 * ppm, (255, 255, 255) if k else (0, 0, 0),
                    max(1, round(ppm / 3)), cv2.LINE_AA)
    cost = (inner[2] - round(5 * ppm), inner[1] + title_h // 2)
    cv2.circle(img, cost, round(3.2 * ppm), (20, 20, 20), -1, cv2.LINE_AA)
    return img


def card_back(w_px: int, h_px: int, ppm: float, design: int = 0) -> np.ndarray:
    """A card back: the game's dark printed pattern (the same on every card of a game)."""
    rng = _rng(f"back:{design}")
    base = np.array(_saturated(rng, dark=True), np.float32)
    ys, xs = np.mgrid[0:h_px, 0:w_px].astype(np.float32)
    cx, cy = w_px / 2, h_px / 2
    r = np.sqrt((xs - cx) ** 2 + (ys - cy) ** 2) / max(cx, cy)
    swirl = 0.5 + 0.5 * np.sin(r * 14 + np.arctan2(ys - cy, xs - cx) * 3)
    accent = np.array(_saturated(rng), np.float32)
    img = base * (1 - 0.45 * swirl[..., None]) + accent * (0.45 * swirl[..., None]) * 0.6
    img = np.clip(img, 0, 255).astype(np.uint8)
    m = max(1, round(3 * ppm))
    cv2.rectangle(img, (m, m), (w_px - m, h_px - m), tuple(int(v) for v in accent), max(1, m // 2),
                  cv2.LINE_AA)
    cv2.ellipse(img, (round(cx), round(cy)), (round(w_px * 0.38), round(h_px * 0.3)), 0, 0, 360,
                (200, 200, 220), max(1, round(ppm)), cv2.LINE_AA)
    return img


def sticker(modules: np.ndarray, side_px: int, quiet_modules: int, label: str, ppm: float,
            label_mm: float) -> np.ndarray:
    """The printed sticker: white paper, the symbol with its quiet zone, a label strip below."""
    n = modules.shape[0]
    outer_modules = n + 2 * quiet_modules
    outer = round(side_px * outer_modules / n)
    label_px = round(label_mm * ppm)
    img = np.full((outer + label_px, outer, 3), 246, np.uint8)
    sym = cv2.resize(np.where(modules, 22, 246).astype(np.uint8), (side_px, side_px),
                     interpolation=cv2.INTER_NEAREST)
    q = (outer - side_px) // 2
    img[q:q + side_px, q:q + side_px] = sym[..., None]
    if label_px >= 4:
        cv2.putText(img, label, (q, outer + label_px - max(1, label_px // 4)),
                    cv2.FONT_HERSHEY_PLAIN, max(0.3, 0.055 * ppm), (40, 40, 40), 1, cv2.LINE_AA)
    return img


def pip_positions(value: int) -> list[tuple[float, float]]:
    """Pip centres of a die face in face units (-1..1): a 16 mm die's pips sit 4.5 mm apart."""
    a = 0.56
    table: dict[int, list[tuple[float, float]]] = {
        1: [(0, 0)],
        2: [(-a, -a), (a, a)],
        3: [(-a, -a), (0, 0), (a, a)],
        4: [(-a, -a), (a, -a), (-a, a), (a, a)],
        5: [(-a, -a), (a, -a), (0, 0), (-a, a), (a, a)],
        6: [(-a, -a), (a, -a), (-a, 0), (a, 0), (-a, a), (a, a)],
    }
    return [(float(x), float(y)) for x, y in table[value]]


def stack_side(length_px: int, height_px: int, cards: int) -> np.ndarray:
    """The side of a pile: the edges of `cards` cards, light lines with dark gaps."""
    img = np.full((max(1, height_px), max(1, length_px), 3), 215, np.uint8)
    if cards > 0 and height_px > 2:
        for k in range(cards):
            y = round((k + 0.5) * height_px / cards)
            if 0 <= y < height_px:
                img[y, :] = 150
    return img


def angle_between(a: np.ndarray, b: np.ndarray) -> float:
    cos = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))
