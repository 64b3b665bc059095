"""Closed-set matching of a marker's cells: the shared arithmetic of ArUco die faces
(`dice_retry.FaceTemplates`) and value stickers (`value_dice.ValueTemplates`).

A square seen at the pixel limit is unwarped to `CELL_PX` px per cell; each cell's mean, with
its edges left out, says how inky it is. Correlating those means (mean-free, unit length)
with each candidate marker's cells, in its four turns, tells which marker it is far more
surely than a hard threshold per cell.
"""

from __future__ import annotations

import cv2
import numpy as np

CELL_PX = 8
CELL_INSET_PX = 2  # pixels of each cell's edge left out of its mean
BLUR_CELLS = (0.0, 0.3, 0.45, 0.6)  # the blurs templates are made for (a Gaussian's sigma in
# cells): a 720p webcam's die face at 2.4 px a cell, through its lens, is about 0.4


def turned_patterns(cells: np.ndarray, blur_cells: float = 0.0) -> list[np.ndarray]:
    """A marker's cells (True = ink) in its four quarter turns anticlockwise, each mean-free
    and of unit length, flattened: rows to correlate with `cell_inkiness`. With `blur_cells`
    (the picture's blur, a Gaussian's sigma in cells), the cell means the marker shows
    through that blur, on white paper, as `cell_inkiness` takes them: a blurred ink cell
    among paper cells is lighter, a paper cell among ink darker, and a template that knows
    it correlates better with what the camera saw than the printed cells do."""
    means = np.asarray(cells, np.float64)
    if blur_cells > 0:
        means = _blurred_means(means, blur_cells)
    out = []
    for turn in range(4):
        r = np.rot90(means, turn)
        r = r - r.mean()
        out.append((r / float(np.linalg.norm(r))).ravel())
    return out


def _blurred_means(cells: np.ndarray, blur_cells: float) -> np.ndarray:
    """The inset cell means of the marker drawn at `CELL_PX` a cell in two cells of paper and
    blurred (ink 1, paper 0)."""
    n, margin = cells.shape[0], 2
    picture = np.kron(np.pad(cells, margin), np.ones((CELL_PX, CELL_PX)))
    picture = cv2.GaussianBlur(picture, (0, 0), blur_cells * CELL_PX)
    inner = picture[margin * CELL_PX:(margin + n) * CELL_PX,
                    margin * CELL_PX:(margin + n) * CELL_PX]
    i = CELL_INSET_PX
    return np.asarray(inner.reshape(n, CELL_PX, n, CELL_PX)[:, i:-i, :, i:-i].mean(axis=(1, 3)))


def clockwise(quad: np.ndarray) -> np.ndarray:
    """The quad's corners in clockwise order on the picture (y down), as ArUco gives them:
    read the other way round, a marker is its mirror image, which may be another marker."""
    x, y = quad[:, 0], quad[:, 1]
    area = float(np.dot(x, np.concatenate((y[1:], y[:1])))
                 - np.dot(y, np.concatenate((x[1:], x[:1]))))
    return quad if area > 0 else quad[::-1].copy()


def cell_inkiness(gray: np.ndarray, quad: np.ndarray, cells: int) -> np.ndarray | None:
    """The square's `cells` x `cells` inkiness (dark is positive), mean-free and of unit
    length, flattened; None where the square is flat."""
    side = cells * CELL_PX
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    warp = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    patch = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    i = CELL_INSET_PX
    means = patch.reshape(cells, CELL_PX, cells, CELL_PX)[:, i:-i, :, i:-i].mean(axis=(1, 3))
    ink = (means.mean() - means).astype(np.float64)
    norm = float(np.linalg.norm(ink))
    return None if norm < 1e-3 else (ink / norm).ravel()


MARGIN_CELLS = 2  # cells around the square the margin test warps in
BORDER_BAND = (0.25, 0.75)  # cells from the square's edge inwards: the border's ink
OUTSIDE_BAND = (-1.0, -0.5)  # ... and outwards: the sticker's white margin and what lies beyond


def margin_contrast(gray: np.ndarray, quad: np.ndarray) -> float:
    """How much lighter than the square's own border it is just outside the square, on its
    darkest side, over the grey span around it. A printed marker has a white margin, so every
    side is lighter outside (tops on the realistic 720p simulator: 0.2 or more for 95 % of
    them); a 12 mm square cut out of a larger dark area (a card's dark text box with a speck
    in it matched a die showing 6 at 0.89) has a side with none (-0.03 to 0.01)."""
    cells = 6
    side = (cells + 2 * MARGIN_CELLS) * CELL_PX
    first, last = MARGIN_CELLS * CELL_PX, (MARGIN_CELLS + cells) * CELL_PX
    dst = np.array([[first, first], [last, first], [last, last], [first, last]], np.float32)
    warp = cv2.getPerspectiveTransform(np.asarray(quad, np.float32).reshape(4, 2), dst)
    patch = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    dark, light = np.percentile(patch, (5, 95))

    def rows(band: tuple[float, float], far: bool) -> slice:
        a, b = band
        if far:  # the same band from the opposite edge
            return slice(last - int(b * CELL_PX), last - int(a * CELL_PX))
        return slice(first + int(a * CELL_PX), first + int(b * CELL_PX))

    along = slice(first + CELL_PX // 2, last - CELL_PX // 2)
    contrasts = []
    for far in (False, True):
        outside, border = rows(OUTSIDE_BAND, far), rows(BORDER_BAND, far)
        contrasts.append(patch[outside, along].mean() - patch[border, along].mean())  # rows
        contrasts.append(patch[along, outside].mean() - patch[along, border].mean())  # cols
    return float(min(contrasts)) / max(float(light - dark), 1.0)
