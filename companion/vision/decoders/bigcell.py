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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import cv2
import numpy as np

from companion.markers.bigcell import CELLS, SoftReading, read_cells, read_soft, symbol_cells
from companion.vision.decoders.square_memory import SquareMemory

SAMPLE_PX = 8  # per cell in the warped grid
MIN_SIDE_PX = 14.0  # 8 cells on fewer pixels than this carry no reading
MIN_CONTRAST = 24.0  # grey levels between the border's ink and the paper
UNSURE = 0.18  # a cell this close to the threshold (share of the contrast) is unsure
MAX_UNSURE = 3
MAX_BORDER_LIGHT = 2  # of the 28 border cells
LABEL_CELLS = 3.5 / 3.125  # the printed label strip (3.5 mm) in cells of a 25 mm symbol
SOFT_MAX_COST = 0.6  # soft reading: at most this much confidence read against the codeword ...
SOFT_MIN_RUNNER_UP = 1.8  # ... every other codeword at least this far (1.8 clean cells) ...
# (1.5 until 2026-11-27: on a laptop with a mirror clip a sticker half hidden by a die read as
# another card of the game at 1.73; of 192 right soft readings in 80 scenes of every camera
# kind, 2 lay under 1.8)
SOFT_MIN_MARGIN = 1.2  # ... and this much farther than the one taken
SOFT_MAX_RING_DARK = 3  # quiet-zone cells darker than the threshold (of 32; card art: many)
SOFT_MAX_ERASED = 8  # data cells the picture says nothing about (of 36)
SOFT_MAX_BORDER_ERASED = 8  # border cells likewise (of 28)
SOFT_MAX_LIFTED = 6  # border cells lifted light by the lamp's reflection beside clipped paper
# (`_lifted`) not counted as light, at most
SOFT_LOOK_BORDER_LIGHT = 4  # border cells lighter than the hard threshold (not clipped white)
# that a square may have and still get a soft look (card art: most of its squares have more)
Allowed = Callable[[str], bool]


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


def _warped(gray: np.ndarray, quad: np.ndarray, interpolation: int) -> np.ndarray:
    """The symbol whose border is `quad` and one cell of the sticker around it, unwarped to
    `SAMPLE_PX` per cell ((8 + 2) x `SAMPLE_PX` square, float)."""
    side = CELLS * SAMPLE_PX
    pad = SAMPLE_PX
    dst = np.array([[pad, pad], [pad + side, pad], [pad + side, pad + side],
                    [pad, pad + side]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    full = side + 2 * pad
    return np.asarray(cv2.warpPerspective(gray, m, (full, full), flags=interpolation,
                                          borderMode=cv2.BORDER_REPLICATE), np.float32)


def _cells(gray: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Mean grey of each cell's centre (8 x 8) and the paper's grey around the symbol."""
    side = CELLS * SAMPLE_PX
    pad = SAMPLE_PX  # one cell of the sticker's white margin around the symbol
    full = side + 2 * pad
    warped = _warped(gray, quad, cv2.INTER_AREA)
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


def read_quad(gray: np.ndarray, quad: np.ndarray, mirrored_too: bool = True,
              allowed: Allowed | None = None) -> BigCellRead | None:
    """The big-cell symbol whose black border is `quad` (4x2 px, any start), or whose
    sticker outline it is (the white square one cell wider all round), if it reads."""
    return _read_quad(gray, quad, mirrored_too, allowed)[0]


def _read_quad(gray: np.ndarray, quad: np.ndarray, mirrored_too: bool,
               allowed: Allowed | None) -> tuple[BigCellRead | None, bool]:
    """`read_quad`, and whether it was a near miss under any hypothesis (worth reading
    again: the next frame's noise may tip it)."""
    q = clockwise(quad)
    worth: list[np.ndarray] = []  # looked like a symbol, did not read: a soft look
    near = False
    for hypothesis in [q, *outline_hypotheses(q)]:
        found, symbol_like, near_miss = _hard(gray, hypothesis, mirrored_too)
        if found is not None:
            return found, True
        near = near or near_miss
        if symbol_like:
            worth.append(hypothesis)
    if allowed is None:
        return None, near
    for hypothesis in worth:
        found = read_soft_quad(gray, hypothesis, mirrored_too, allowed)
        if found is not None:
            return found, True
    return None, near


def read_found_quad(gray: np.ndarray, quad: np.ndarray, mirrored_too: bool, allowed: Allowed
                    ) -> BigCellRead | None:
    """The symbol whose black border is `quad`, where the zone search found a sticker's frame
    (`companion.vision.sticker_search`): the hard reading, else the soft one, without the hard
    reading's quick look for a symbol first (the lamp's reflection over one side lightens
    more border cells than that look allows, and the place is sticker-like already)."""
    q = clockwise(quad)
    found, _, _ = _hard(gray, q, mirrored_too)
    return found if found is not None else read_soft_quad(gray, q, mirrored_too, allowed)


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


def _hard(gray: np.ndarray, q: np.ndarray, mirrored_too: bool
          ) -> tuple[BigCellRead | None, bool, bool]:
    """The hard reading; whether the square looked enough like a symbol (a contrast, a
    dark border where it is not clipped white) to be worth the soft reading's time; and
    whether it was a near miss (its border read dark, its cells did not decode: the next
    frame's noise may tip it)."""
    side = float(np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1).mean())
    if side < MIN_SIDE_PX:
        return None, False, False
    sampled = _cells(gray, q)
    if sampled is None:
        return None, False, False
    cells, paper = sampled
    border = np.concatenate([cells[0], cells[-1], cells[1:-1, 0], cells[1:-1, -1]])
    ink = float(np.median(border))
    data = cells[1:-1, 1:-1]
    white = max(paper, float(np.partition(data.ravel(), 32)[32]))  # the 90th percentile
    contrast = white - ink
    if contrast < MIN_CONTRAST:
        return None, False, False
    threshold = ink + contrast / 2
    light = border > threshold
    symbol_like = int((light & (border < CLIPPED)).sum()) <= SOFT_LOOK_BORDER_LIGHT
    if int(light.sum()) > MAX_BORDER_LIGHT:
        return None, symbol_like, False
    margin = np.abs(data - threshold) / contrast
    unsure = margin < UNSURE
    if int(unsure.sum()) > MAX_UNSURE:
        return None, symbol_like, True
    bits = data < threshold
    decoded = read_cells(bits, mirrored_too, unsure=unsure)
    if decoded is None:
        return None, symbol_like, True
    text, corrections, turns, mirrored = decoded
    # the grid as sampled is the printed one turned `turns` times (then mirrored): the printed
    # top-left is the warp's corner `turns` places back
    corners = np.roll(q[[1, 0, 3, 2]] if mirrored else q, turns, axis=0)
    return BigCellRead(text, corners, corrections, mirrored, side), True, True


def _remembered(gray: np.ndarray, q: np.ndarray, mirrored_too: bool, allowed: Allowed | None
                ) -> tuple[BigCellRead | None, bool]:
    """A reading for `SquareMemory`: readings and plain non-symbols are kept, near misses
    are read again on the next pass."""
    found, near = _read_quad(gray, q, mirrored_too, allowed)
    return found, found is not None or not near


def read_quads(gray: np.ndarray, quads: Sequence[np.ndarray], mirrored_too: bool = True,
               side_px: tuple[float, float] | None = None,
               allowed: Allowed | None = None,
               memory: SquareMemory | None = None) -> list[BigCellRead]:
    """Every candidate that reads; one reading per place (overlapping candidates merged).

    `side_px`: the smallest and largest side a symbol can have in this picture (from the
    mat's geometry); candidates outside it, or outside the range of its sticker outline, are
    not looked at (card art gives hundreds of dark squares). `allowed`: the payloads that may
    be on this table (this game's cards and backs); given, a square that does not read
    cleanly is read softly too (`read_soft_quad`), and only these payloads are taken so.
    `memory`: squares whose corners and pixels are as at an earlier pass read as they did
    then (`SquareMemory`)."""
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
        if memory is None:
            got = read_quad(gray, q, mirrored_too, allowed)
        else:
            got = memory.read(gray, q, CELLS, partial(_remembered, gray, q, mirrored_too, allowed),
                              variant=(mirrored_too, allowed is not None))
        if got is not None:
            out.append(got)
    return out


CLIPPED = 248.0  # a cell this bright is the lamp's reflection clipped at white: no reading
CLIPPED_SOFT = -0.25  # a clipped cell: weakly paper ...
FLANKED_PAPER = -1.0  # ... and paper as sure as clean paper between two cells of clean ink
CLEAN_INK = 1.0  # a cell read as ink this surely (as dark as the border's own ink)
SOFT_CORE = 2  # of SAMPLE_PX: the part of a cell read softly is its centre, this far from its edges
SOFT_ISI = 0.35  # share of the neighbours' mean taken back out of a cell (blur's pull)
SOFT_LIMIT = 1.5  # confidence of a cell, at most (1: as far from the threshold as clean ink)


def _plane(xs: np.ndarray, ys: np.ndarray, values: np.ndarray, keep: np.ndarray
           ) -> np.ndarray | None:
    """Least-squares plane through the kept samples: (a, b, c) of a + b x + c y."""
    if int(keep.sum()) < 6:
        return None
    a = np.column_stack([np.ones(int(keep.sum())), xs[keep], ys[keep]])
    coef, *_ = np.linalg.lstsq(a, values[keep], rcond=None)
    return np.asarray(coef)


def soft_grid(gray: np.ndarray, quad: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, float, np.ndarray, int] | None:
    """Soft cells of the symbol whose border is `quad`: (6 x 6 data, 28 border) values, positive
    for ink, 1 as far from the local threshold as clean ink, 0 where the picture says nothing
    (no contrast there), a little towards paper where the picture is clipped at white by the
    lamp's reflection (paper under the reflection clips first, ink may or may not), the
    contrast, the quiet zone's 32 cells likewise (a real sticker's are all paper), and how
    many border cells read light beside quiet-zone paper clipped white (`_lifted`).

    The ink level is a plane through the border cells and the paper level a plane through the
    quiet zone's cells (each fitted twice, the second time without the cells far off the first
    fit: a neighbour's edge or a die over part of the ring): a reflection's slope across the
    sticker moves both, and the threshold follows it."""
    warped = _warped(gray, quad, cv2.INTER_LINEAR)
    blocks = warped.reshape(CELLS + 2, SAMPLE_PX, CELLS + 2, SAMPLE_PX)
    lo, hi = SOFT_CORE, SAMPLE_PX - SOFT_CORE
    cells = blocks[:, lo:hi, :, lo:hi].mean(axis=(1, 3))  # 10 x 10 with the quiet ring
    yy, xx = np.mgrid[0:CELLS + 2, 0:CELLS + 2].astype(np.float64)
    ring = np.zeros((CELLS + 2, CELLS + 2), bool)
    ring[0, 1:-1] = ring[-1, 1:-1] = ring[1:-1, 0] = ring[1:-1, -1] = True
    border = np.zeros_like(ring)
    border[1, 1:-1] = border[-2, 1:-1] = border[1:-1, 1] = border[1:-1, -2] = True
    values = cells.astype(np.float64)
    clipped = values >= CLIPPED
    ink = _fit(xx, yy, values, border, clipped=clipped, sign=1.0)
    if ink is None:
        return None
    paper = _fit(xx, yy, values, ring, clipped=clipped, sign=-1.0)
    if paper is None:
        # the lamp's reflection clipped most of the quiet zone: paper is white there, and
        # elsewhere as bright as the brightest cells that still show
        seen = values[(ring | (yy >= 2) & (yy < CELLS) & (xx >= 2) & (xx < CELLS)) & ~clipped]
        level = float(np.percentile(seen, 90)) if seen.size >= 6 else 255.0
        paper = np.array([level, 0.0, 0.0])
    ink_at = ink[0] + ink[1] * xx + ink[2] * yy
    paper_at = paper[0] + paper[1] * xx + paper[2] * yy
    contrast = np.minimum(paper_at, 255.0) - ink_at
    threshold = ink_at + contrast / 2
    soft = (threshold - values) / np.maximum(contrast / 2, 1e-6)
    if SOFT_ISI:
        # blur pulls a cell towards its neighbours: take their pull back out
        padded = np.pad(soft, 1, mode="edge")
        around = (padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]) / 4
        soft = soft - SOFT_ISI * np.clip(around, -1.0, 1.0)
        soft = soft / (1 - SOFT_ISI)
    soft = np.clip(soft, -SOFT_LIMIT, SOFT_LIMIT)
    soft[contrast < MIN_CONTRAST] = 0.0
    clean_ink = (soft >= CLEAN_INK) & ~clipped
    soft[clipped] = CLIPPED_SOFT
    soft[clipped & _flanked(clean_ink)] = FLANKED_PAPER
    return (soft[2:-2, 2:-2], soft[border], float(np.median(contrast[2:-2, 2:-2])),
            soft[ring], _lifted(soft, clipped))


def _lifted(soft: np.ndarray, clipped: np.ndarray) -> int:
    """Border cells (of the 10 x 10 grid with its quiet ring) that read light, not clipped,
    beside quiet-zone paper that is: the lamp's reflection off a glossy sleeve adds its light
    on top of the print, so where it clips the white paper it lifts the black ink next to it
    too, short of white (a sticker under the reflection's edge at 60 cm: paper 252-255, the
    border beside it 198-243, the rest of the border 44-80)."""
    beside = np.zeros_like(clipped)  # border cells whose quiet-zone cell outside is clipped
    beside[1, 1:-1] |= clipped[0, 1:-1]
    beside[-2, 1:-1] |= clipped[-1, 1:-1]
    beside[1:-1, 1] |= clipped[1:-1, 0]
    beside[1:-1, -2] |= clipped[1:-1, -1]
    return int((beside & (soft < 0) & ~clipped).sum())


def _flanked(ink: np.ndarray) -> np.ndarray:
    """Cells with `ink` on both sides, left and right or above and below. A clipped cell so
    flanked is paper: the lamp's reflection is a spot much wider than two cells (3-8 cm, a
    cell is 3 mm), so where it lifts ink to white it lifts at least one of two cells on either
    side too, and those read clean ink; only paper, already near white, clips there."""
    padded = np.pad(ink, 1, constant_values=False)
    across = padded[1:-1, :-2] & padded[1:-1, 2:]
    along = padded[:-2, 1:-1] & padded[2:, 1:-1]
    return np.asarray(across | along)


def _fit(xx: np.ndarray, yy: np.ndarray, values: np.ndarray, where: np.ndarray,
         clipped: np.ndarray, sign: float) -> np.ndarray | None:
    """A plane through `values` at `where`, refitted without the samples lying on the wrong
    side of it by much (`sign` 1: ink, whose outliers are lighter; -1: paper, darker)."""
    keep = where & ~clipped
    coef = _plane(xx.ravel(), yy.ravel(), values.ravel(), keep.ravel())
    if coef is None:
        return None
    fitted = coef[0] + coef[1] * xx + coef[2] * yy
    spread = float(np.median(np.abs(values[keep] - fitted[keep]))) + 4.0
    keep2 = keep & (sign * (values - fitted) < 3 * spread)
    again = _plane(xx.ravel(), yy.ravel(), values.ravel(), keep2.ravel())
    return coef if again is None else again


def beyond_doubt(reading: SoftReading, hidden: float = 0.0) -> bool:
    """A soft reading that counts: few unsure cells against it (besides `hidden`, the part of
    its cost from ink the lamp's reflection clipped white), every other codeword far."""
    return (reading.cost - hidden <= SOFT_MAX_COST and reading.runner_up >= SOFT_MIN_RUNNER_UP
            and reading.runner_up - reading.cost >= SOFT_MIN_MARGIN)


def read_soft_quad(gray: np.ndarray, q: np.ndarray, mirrored_too: bool, allowed: Allowed
                   ) -> BigCellRead | None:
    """Errors-and-erasures reading of the symbol whose border is `q` (clockwise): where the
    hard reading gives up (too many cells near the threshold, a few wrong, part of the sticker
    clipped white by the lamp's reflection), the nearest codeword counts when it is beyond
    doubt: the cells read against it are few and unsure (`SOFT_MAX_COST`), and every other
    codeword in any orientation is much farther (`SOFT_MIN_RUNNER_UP`, `SOFT_MIN_MARGIN`), and
    the quiet zone around it is paper (`SOFT_MAX_RING_DARK`). Measured on the realistic
    simulator (3361 candidate squares of every camera kind, 2044 of them card art, dice, a
    wrong outline hypothesis or a misread sticker): none passed, while 97 stickers the hard
    reading missed did. Only `allowed` payloads are taken besides (about one wrong codeword in
    nine is), so a wrong reading would also have to land on this game's cards or backs."""
    side = float(np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1).mean())
    if side < MIN_SIDE_PX:
        return None
    grid = soft_grid(gray, q)
    if grid is None:
        return None
    data, border, contrast, ring, lifted = grid
    if contrast < MIN_CONTRAST or int((ring > 0).sum()) > SOFT_MAX_RING_DARK:
        return None
    excused = int((border == CLIPPED_SOFT).sum()) + min(lifted, SOFT_MAX_LIFTED)
    if int((border < 0).sum()) > MAX_BORDER_LIGHT + excused or \
            int((np.abs(border) < 0.3).sum()) > SOFT_MAX_BORDER_ERASED:
        return None
    if int((np.abs(data) < 0.3).sum()) > SOFT_MAX_ERASED:
        return None
    reading = read_soft(data, mirrored_too)
    if reading is None or not allowed(reading.payload):
        return None
    # ink under the reflection is no evidence against the reading: its cost is not counted
    printed = symbol_cells(reading.payload)[1:-1, 1:-1]
    seen = np.rot90(printed, reading.turns)
    if reading.mirrored:
        seen = seen[:, ::-1]
    hidden = float(-CLIPPED_SOFT) * int(((data == CLIPPED_SOFT) & seen).sum())
    if not beyond_doubt(reading, hidden):
        return None
    corners = np.roll(q[[1, 0, 3, 2]] if reading.mirrored else q, reading.turns, axis=0)
    return BigCellRead(reading.payload, corners, 2, reading.mirrored, side)
