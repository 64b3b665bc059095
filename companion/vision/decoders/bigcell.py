"""Reader of the big-cell card code (`companion.markers.bigcell`) from square candidates.

The candidates are the dark squares OpenCV's ArUco detector finds anyway (it runs for dice and
mat corners): the ones it recognised as ArUco ids and the ones it rejected. Each is warped to
an 8 x 8 grid; a cell's ink or paper is its centre's mean against the midpoint of the border's
ink and the sticker's paper around it. A reading counts only when it is clear: the border
dark, at most a few cells close to the threshold, the one cell the code may correct among
those, and exactly one orientation decoding (`read_cells`). Anything else is no reading:
never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.markers.bigcell import CELLS, read_cells

SAMPLE_PX = 8  # per cell in the warped grid
MIN_SIDE_PX = 14.0  # 8 cells on fewer pixels than this carry no reading
MIN_CONTRAST = 24.0  # grey levels between the border's ink and the paper
UNSURE = 0.18  # a cell this close to the threshold (share of the contrast) is unsure
MAX_UNSURE = 3
MAX_BORDER_LIGHT = 2  # of the 28 border cells
LABEL_CELLS = 3.5 / 3.125  # the printed label strip (3.5 mm) in cells of a 25 mm symbol


@dataclass(frozen=True)
class BigCellRead:
    text: str  # the 8-digit payload it stands for
    corners: np.ndarray  # 4x2, printed order: top-left, top-right, bottom-right, bottom-left
    corrections: int
    mirrored: bool
    side_px: float


def clockwise(quad: np.ndarray) -> np.ndarray:
    """The quad's corners in clockwise order (image y down), starting where they start."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    area = 0.0
    for i in range(4):
        x0, y0 = q[i]
        x1, y1 = q[(i + 1) % 4]
        area += x0 * y1 - x1 * y0
    return q if area > 0 else q[::-1].copy()


def _cells(gray: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Mean grey of each cell's centre (8 x 8) and the paper's grey around the symbol."""
    side = CELLS * SAMPLE_PX
    pad = SAMPLE_PX  # one cell of the sticker's white margin around the symbol
    dst = np.array([[pad, pad], [pad + side, pad], [pad + side, pad + side],
                    [pad, pad + side]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    full = side + 2 * pad
    warped = cv2.warpPerspective(gray, m, (full, full), flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    inner = warped[pad:pad + side, pad:pad + side].reshape(CELLS, SAMPLE_PX, CELLS, SAMPLE_PX)
    lo, hi = SAMPLE_PX // 4, SAMPLE_PX - SAMPLE_PX // 4
    cells = inner[:, lo:hi, :, lo:hi].mean(axis=(1, 3))
    ring = np.concatenate([warped[2:pad - 2, pad:pad + side].ravel(),
                           warped[pad + side + 2:full - 2, pad:pad + side].ravel(),
                           warped[pad:pad + side, 2:pad - 2].ravel(),
                           warped[pad:pad + side, pad + side + 2:full - 2].ravel()])
    if ring.size == 0:
        return None
    k = (3 * ring.size) // 4
    return cells, float(np.partition(ring, k)[k])


def read_quad(gray: np.ndarray, quad: np.ndarray, mirrored_too: bool = True
              ) -> BigCellRead | None:
    """The big-cell symbol whose black border is `quad` (4x2 px, any start), or whose
    sticker outline it is (the white square one cell wider all round), if it reads."""
    q = clockwise(quad)
    found = _read(gray, q, mirrored_too)
    for inner in outline_hypotheses(q):
        if found is not None:
            break
        found = _read(gray, inner, mirrored_too)
    return found


def outline_hypotheses(quad: np.ndarray) -> list[np.ndarray]:
    """Where the symbol lies if `quad` is its sticker's white outline: one cell of margin all
    round, plus the label strip along one side (printed stickers) or not."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(unit, q)
    full = CELLS + 2
    boxes = [(1 / full, 1 / full, (full - 1) / full, (full - 1) / full)]
    long_side = full + LABEL_CELLS
    for u0, v0, u1, v1 in (
        (1 / full, 1 / long_side, (full - 1) / full, (full - 1) / long_side),  # label below
        (1 / full, (1 + LABEL_CELLS) / long_side, (full - 1) / full, 1 - 1 / long_side),
        (1 / long_side, 1 / full, (full - 1) / long_side, (full - 1) / full),
        ((1 + LABEL_CELLS) / long_side, 1 / full, 1 - 1 / long_side, (full - 1) / full),
    ):
        boxes.append((u0, v0, u1, v1))
    out = []
    for u0, v0, u1, v1 in boxes:
        pts = np.array([[[u0, v0]], [[u1, v0]], [[u1, v1]], [[u0, v1]]], np.float32)
        out.append(np.asarray(cv2.perspectiveTransform(pts, m).reshape(4, 2), np.float64))
    return out


def _read(gray: np.ndarray, q: np.ndarray, mirrored_too: bool) -> BigCellRead | None:
    side = float(np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1).mean())
    if side < MIN_SIDE_PX:
        return None
    sampled = _cells(gray, q)
    if sampled is None:
        return None
    cells, paper = sampled
    border = np.concatenate([cells[0], cells[-1], cells[1:-1, 0], cells[1:-1, -1]])
    ink = float(np.median(border))
    data = cells[1:-1, 1:-1]
    white = max(paper, float(np.partition(data.ravel(), 32)[32]))  # the 90th percentile
    contrast = white - ink
    if contrast < MIN_CONTRAST:
        return None
    threshold = ink + contrast / 2
    if int((border > threshold).sum()) > MAX_BORDER_LIGHT:
        return None
    margin = np.abs(data - threshold) / contrast
    unsure = margin < UNSURE
    if int(unsure.sum()) > MAX_UNSURE:
        return None
    bits = data < threshold
    decoded = read_cells(bits, mirrored_too, unsure=unsure)
    if decoded is None:
        return None
    text, corrections, turns, mirrored = decoded
    # the grid as sampled is the printed one turned `turns` times (then mirrored): the printed
    # top-left is the warp's corner `turns` places back
    corners = np.roll(q[[1, 0, 3, 2]] if mirrored else q, turns, axis=0)
    return BigCellRead(text, corners, corrections, mirrored, side)


def read_quads(gray: np.ndarray, quads: Sequence[np.ndarray], mirrored_too: bool = True,
               side_px: tuple[float, float] | None = None) -> list[BigCellRead]:
    """Every candidate that reads; one reading per place (overlapping candidates merged).

    `side_px`: the smallest and largest side a symbol can have in this picture (from the
    mat's geometry); candidates outside it, or outside the range of its sticker outline, are
    not looked at (card art gives hundreds of dark squares)."""
    out: list[BigCellRead] = []
    sized = []
    for quad in quads:
        q = np.asarray(quad, np.float64).reshape(4, 2)
        side = float(np.abs(np.diff(np.vstack([q, q[:1]]), axis=0)).sum(axis=1).mean())
        if side_px is not None and not side_px[0] * 0.9 <= side <= side_px[1] * 1.6:
            continue  # (an L1 edge length: up to 1.41 times the true one)
        sized.append((side, q))
    sized.sort(key=lambda t: t[0])  # symbols before the sticker outlines around them
    for _, q in sized:
        centre = q.mean(axis=0)
        if any(float(np.hypot(*(o.corners.mean(axis=0) - centre))) < 0.3 * o.side_px
               for o in out):
            continue  # read already, from a tighter square
        got = read_quad(gray, q, mirrored_too)
        if got is not None:
            out.append(got)
    return out
