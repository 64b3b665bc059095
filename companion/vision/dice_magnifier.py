"""Die faces too small for the ArUco pass: the far part of the mat read again, magnified, on
still frames.

At 68 cm and 40 degrees (1080p) a die face on the mat's far side is 13-15 px wide, 2.2-2.5 px
a cell. There OpenCV's ArUco detector does not even find the face's outline: of 10 top faces
lost on the realistic simulator (8 scenes, 76 dice), 8 never read on any of 14 still frames
and 6 of those 8 left no unread square for `DiceRetry` to match either. The same frames' crops
around those dice, magnified twice (cubic), decode 7 of the 10 tops on one frame (measured
2026-11-27, `companion.vision.detect.DICE_ARUCO`'s parameters). The outline's contour closes
once a 2.5 px cell is 5 px; a tighter polygon tolerance or other threshold windows at the
original size did not help.

So the mat is cut into tiles, and those tiles whose die face is small (at the tile's middle, a
12 mm marker under `MAGNIFY_BELOW_PX`) are read magnified, a few a frame, while the table is
still: each once after the table changed there, in the mean of the still frames once there are
four (`FrameFusion`: a dim room's noise averages out), so a still table costs nothing once read.
Nothing here decides a value: a face read goes through `TopFaceFilter` like any other, and only
faces of the game's ArUco-stickered dice are kept. (Value stickers read in the same tiles were
tried too: at 720p 74 -> 76 % and 91 -> 93 % of the dice settled, at 68 cm / 40 degrees 82 ->
86 %, but there a red die's side face read magnified was settled as its value: left out until
the side-face test knows inverted stickers.)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import cv2
import numpy as np

from companion.markers.render import aruco_dictionary
from companion.vision.cell_match import BLUR_CELLS, cell_inkiness, margin_contrast
from companion.vision.dark_squares import dark_squares
from companion.vision.decoders.aruco import ArucoOptions, _parameters
from companion.vision.detect import Detection, interpret_aruco, quad_side
from companion.vision.dice_retry import FIT_GATE, FIT_SCALES, MATCH_MARGIN, FaceTemplates
from companion.vision.die_geometry import DIE_MM, MARKER_MM
from companion.vision.fusion import FrameFusion
from companion.vision.geometry import MatGeometry
from companion.vision.value_dice import ValueTemplates

MAGNIFY_BELOW_PX = 24.0  # a die face narrower than this at a tile's middle: read magnified
# (20 px lost one die in 24 scenes at 53 cm and one at 60 cm, where faces are 16-31 px, and
# one at 720p straight down, where they are 20 px; it cost 2.6 ms a frame in the timed 1080p
# sequence, 24 px 3.8 ms)
SCALE = 2.0
TILE_PX = 112  # a tile's side in the picture, before magnifying
OVERLAP_PX = 32  # tiles overlap by more than a face, so that every face lies wholly in one
PER_FRAME = 6  # tiles read a still frame: 3-6 ms at 1080p on one core
FULL_HD_PX = 1920 * 1080  # ... and more in a smaller picture, whose frame costs less
FUSED_MIN_FRAMES = 4  # still frames averaged before a tile is read in their mean
KEY_PX = 4.0  # the tiles are cut again when a mat corner moves this far in the picture
MIN_SIDE_PX = 7.0  # the smallest face looked for, in the picture
# a dark square's outline lies about 10 % outside its marker (the border's blur darkens the
# die's 2 mm light margin): measured on 720p tops, the cells matched best at 88-92 % of it
SQUARE_SCALES = (0.84, 0.88, 0.92, 0.96, 1.0)
SYMBOL_GROW = 0.2  # around a card sticker read, its white margin: no die face matched there
MATCH_SIZE = (0.75, 1.4)  # an undecoded outline matched against the closed set: its side
# over a die face marker's at its place
MIN_MATCH_SIDE_PX = 8.5  # a face decoded or matched: its shorter side in the picture (1.4 px
# a cell; on the laptop with a mirror clip, 24 scenes, the faces of real dice read in the tiles
# were 9 px and more on 99 % of them, and a 6.5 px one, decoded, named a die not on the table)
MIN_MARGIN = 0.05  # a face matched: lighter just outside it than its border, on every side
# (`margin_contrast`; 720p tops matched 0.08 and more, 12 mm pieces of card art -0.03-0.01)


_VALUE_TEMPLATES = ValueTemplates()


def _finder_templates() -> dict[int, np.ndarray]:
    """A QR finder pattern (7 x 7 modules: a dark ring, a light ring, a dark 3 x 3 centre)
    as the cell inkiness a 6 x 6 and a 7 x 7 grid over it sees (mean-free, unit length), one
    row per blur of `BLUR_CELLS` (as die faces are matched)."""
    modules = np.ones((7, 7))
    modules[1:6, 1:6] = -1.0
    modules[2:5, 2:5] = 1.0
    picture = np.kron(np.pad(modules, 2, constant_values=-1.0), np.ones((42, 42)))
    out = {}
    for cells in (6, 7):
        step = 294 // cells  # 7 modules of 42 px: 6 and 7 cells both divide them
        rows = []
        for blur in BLUR_CELLS:
            seen = (cv2.GaussianBlur(picture, (0, 0), blur * step) if blur > 0 else picture)
            inner = seen[84:378, 84:378]
            ink = inner.reshape(cells, step, cells, step).mean(axis=(1, 3))
            ink = ink - ink.mean()
            rows.append((ink / np.linalg.norm(ink)).ravel())
        out[cells] = np.stack(rows)
    return out


_FINDERS = _finder_templates()


class DiceMagnifier:
    """Reads die faces in magnified tiles of the mat's far part, a few tiles a still frame."""

    def __init__(self, options: ArucoOptions, dice: Collection[str] | None = None,
                 per_frame: int = PER_FRAME, templates: FaceTemplates | None = None) -> None:
        params = _parameters(options)
        side = TILE_PX * SCALE
        params.minMarkerPerimeterRate = 4.0 * MIN_SIDE_PX * SCALE / side
        self._detector = cv2.aruco.ArucoDetector(aruco_dictionary(), params)
        self.dice = None if dice is None else frozenset(dice)
        self.per_frame = per_frame
        self.templates = templates
        self._tiles: list[tuple[int, int, int, int]] = []
        self._to_top: np.ndarray | None = None  # picture px -> dice-top plane mm, when cut
        self._corners: np.ndarray | None = None  # the mat's corners in the picture when cut
        self._shape: tuple[int, ...] = ()
        # per tile: not read since the table changed there (each tile is read once a change;
        # twice, the second time in the mean, cost 4.3 ms a frame in the timed sequence, where
        # hands keep changing the table, against 2.6 ms)
        self._due: list[bool] = []
        self._scales: list[float] = []  # per tile: magnified or read at its own size
        self._next = 0  # the tile the next frame's reads start from
        self._found: dict[int, list[Detection]] = {}  # per tile: faces read in this mean
        self._fused_count = 0  # still frames in the mean at the last read
        self._whole = False  # the tiles cover the whole mat (a noisy picture)

    def tiles(self, geometry: MatGeometry, mat_size: tuple[float, float],
              shape: tuple[int, ...], whole: bool = False) -> list[tuple[int, int, int, int]]:
        """The tiles (x0, y0, x1, y1 px) over the mat where a die face is small (`whole`: all
        of the mat, the rest read at its own size); computed again when the mat moves in the
        picture."""
        width, height = mat_size
        corners = geometry.to_image(np.array([[0, 0], [width, 0], [width, height],
                                              [0, height]], float))
        # the fit follows the corner markers' noise from frame to frame: a few pixels
        if (self._corners is not None and self._shape == shape[:2] and self._whole == whole
                and float(np.abs(corners - self._corners).max()) <= KEY_PX):
            return self._tiles
        self._corners, self._shape, self._whole = corners, shape[:2], whole
        lo = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
        hi = np.minimum(np.ceil(corners.max(axis=0)).astype(int), [shape[1], shape[0]])
        step = TILE_PX - OVERLAP_PX
        tiles = []
        scales = []
        for y0 in range(int(lo[1]), max(int(hi[1]) - OVERLAP_PX, int(lo[1]) + 1), step):
            for x0 in range(int(lo[0]), max(int(hi[0]) - OVERLAP_PX, int(lo[0]) + 1), step):
                x1, y1 = min(x0 + TILE_PX, shape[1]), min(y0 + TILE_PX, shape[0])
                middle = geometry.to_mat(np.array([[(x0 + x1) / 2, (y0 + y1) / 2]], float))[0]
                if not (0 <= middle[0] <= width and 0 <= middle[1] <= height):
                    continue
                face = MARKER_MM * geometry.px_per_mm(float(middle[0]), float(middle[1]))
                if face < MAGNIFY_BELOW_PX or whole:
                    tiles.append((x0, y0, x1, y1))
                    scales.append(SCALE if face < MAGNIFY_BELOW_PX else 1.0)
        self._tiles = tiles
        self._scales = scales
        self._next = 0
        self._found = {}
        self._due = [True] * len(tiles)
        self._to_top = (geometry.plane_homography(DIE_MM, (shape[1], shape[0]))
                        if self.templates is not None and tiles else None)
        return tiles

    def changed(self, boxes: Sequence[tuple[int, int, int, int]] | None) -> None:
        """The ArUco pass looked again at these boxes (None: the whole picture) and forgot
        the faces read there: read the tiles that overlap them again."""
        for i, (x0, y0, x1, y1) in enumerate(self._tiles):
            if boxes is None or any(x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1
                                    for bx0, by0, bx1, by1 in boxes):
                self._due[i] = True

    def read_all(self, gray: np.ndarray, dets: Sequence[Detection], geometry: MatGeometry,
                 mat_size: tuple[float, float]) -> list[Detection]:
        """Every tile read once (one photo: `companion scan`)."""
        self._due = [True] * len(self.tiles(geometry, mat_size, gray.shape))
        found: list[Detection] = []
        while any(self._due):
            found += self.read(gray, [*dets, *found], geometry, mat_size)
        return found

    def read(self, gray: np.ndarray, dets: Sequence[Detection], geometry: MatGeometry,
             mat_size: tuple[float, float], fusion: FrameFusion | None = None,
             whole: bool = False) -> list[Detection]:
        """Die faces of the game's dice read in the next few tiles due (those the table
        changed in) that no face read already explains; `whole`: over the whole mat, also
        where faces are large enough for the ArUco pass (a picture too noisy for it, whose
        still frames' mean is not)."""
        tiles = self.tiles(geometry, mat_size, gray.shape, whole)
        if fusion is not None and fusion.count < self._fused_count:
            self._found.clear()  # the table moved: the mean starts afresh
        self._fused_count = 0 if fusion is None else fusion.count
        if fusion is not None and fusion.count < FUSED_MIN_FRAMES:
            return []  # read once, in the mean, where a dim room's noise has averaged out
        # round robin from where the last frame stopped: a tile marked again (a noisy picture
        # keeps the ArUco pass looking at "changed" boxes) waits its turn behind the others
        count = len(self._due)
        order = [(self._next + k) % count for k in range(count)]
        # read in this still period's mean already: the pass forgot their faces because it
        # looked at the box again (noise it took for a change), not because the table changed,
        # and the mean would only read them again (reading them again once the mean has more
        # frames read 720p straight down 88 % of the dice instead of 92 %, and the laptop's no
        # more: the tiles not yet read waited longer)
        again = [i for i in order if self._due[i] and i in self._found]
        # a smaller picture leaves more of a frame's time: as many tiles as 1080p's pixels
        per_frame = max(self.per_frame, round(self.per_frame * FULL_HD_PX / max(
            gray.shape[0] * gray.shape[1], 1)))
        repeat = set(again)
        due = [i for i in order if self._due[i] and i not in repeat][:per_frame]
        if not due and not again:
            return []
        if due:
            self._next = (due[-1] + 1) % count
        known = [d.corners for d in dets if d.aruco is not None]
        # a card sticker's symbol is a dark square with cells, too: none is matched inside one
        symbols = [_grown(d.corners, SYMBOL_GROW) for d in dets if d.kind in ("front", "back")]
        centres = (np.array([np.asarray(k, np.float64).reshape(4, 2).mean(axis=0)
                             for k in known]) if known else np.zeros((0, 2)))
        out: list[Detection] = []
        for index in again:
            self._due[index] = False
            out += [d for d in self._found[index] if not _explained(d, centres, out)]
        for index in due:
            x0, y0, x1, y1 = tiles[index]
            self._due[index] = False
            picture = gray[y0:y1, x0:x1]
            if fusion is not None:
                fused = fusion.fused_crop((x0, y0, x1, y1))
                picture = picture if fused is None else fused
            scale = self._scales[index]
            crop = (np.ascontiguousarray(picture) if scale == 1.0 else cv2.resize(
                np.ascontiguousarray(picture), None, fx=scale, fy=scale,
                interpolation=cv2.INTER_CUBIC))
            offset = np.array([x0, y0], np.float64)
            squares = ([] if self._to_top is None
                       else dark_squares(picture, (x0, y0), self._to_top))
            faces = self._faces(crop, offset, geometry, squares, scale, symbols)
            if fusion is not None:
                self._found[index] = faces
            out += [d for d in faces if not _explained(d, centres, out)]
        return out

    def _faces(self, crop: np.ndarray, offset: np.ndarray, geometry: MatGeometry,
               squares: Sequence[np.ndarray] = (), scale: float = SCALE,
               symbols: Sequence[np.ndarray] = ()) -> list[Detection]:
        """The faces of the game's dice read in a magnified tile, in the picture: decoded, or
        (an outline OpenCV found but could not decode, or a dark square at die height in
        `squares`, in the picture, not inside a card sticker's grown outline in `symbols`)
        matched against the closed set."""
        corners_found, marker_ids, rejected = self._detector.detectMarkers(crop)
        faces = []
        for marker_id, corners in zip(() if marker_ids is None else marker_ids.ravel(),
                                      corners_found or (), strict=True):
            det = interpret_aruco(int(marker_id), _unmagnified(corners, offset, scale))
            meaning = det.aruco
            if meaning is not None and meaning.kind == "die" and (
                    self.dice is None or meaning.die in self.dice) and (
                    _short_side(det.corners) >= MIN_MATCH_SIDE_PX):
                faces.append(det)
        if self.templates is None:
            return faces
        outlines = [_unmagnified(np.asarray(q, np.float64).reshape(4, 2), offset, scale)
                    for q in rejected or ()]
        tries = [(q, FIT_SCALES) for q in outlines] + [(q, SQUARE_SCALES) for q in squares]
        for quad, scales in tries:
            centre = quad.mean(axis=0)
            if any(cv2.pointPolygonTest(symbol, (float(centre[0]), float(centre[1])), False)
                   >= 0 for symbol in symbols):
                continue
            if not _face_sized(quad, geometry) or any(
                    float(np.linalg.norm(f.centre - centre)) < quad_side(f.corners) / 3
                    for f in faces):
                continue
            found = self.templates.fitted(crop, _magnified(quad, offset, scale), shift_px=scale,
                                          scales=scales, gate=FIT_GATE)
            if found is None:
                continue
            corners = _unmagnified(found[1], offset, scale)
            if (_short_side(corners) >= MIN_MATCH_SIDE_PX
                    and not _lookalike(crop, found[1], found[2])
                    and margin_contrast(crop, found[1]) >= MIN_MARGIN):
                faces.append(interpret_aruco(found[0], corners))
        return faces


def _short_side(quad: np.ndarray) -> float:
    """A quad's shortest side: across it, a steep view leaves the fewest pixels a cell."""
    return float(np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1).min())


def _face_sized(quad: np.ndarray, geometry: MatGeometry) -> bool:
    """Whether a square in the picture is about as large as a die face's marker at its place
    (a die's top stands 16 mm nearer the camera: a little larger than on the mat)."""
    mat = geometry.to_mat(quad.mean(axis=0).reshape(1, 2)).reshape(2)
    expected = MARKER_MM * geometry.px_per_mm(float(mat[0]), float(mat[1]))
    return MATCH_SIZE[0] * expected <= quad_side(quad) <= MATCH_SIZE[1] * expected


def _explained(det: Detection, centres: np.ndarray, out: Sequence[Detection]) -> bool:
    """Whether a face lies where a face read already (`centres`) or one found before it
    (`out`) lies: a third of its side from its centre."""
    side, centre = quad_side(det.corners), det.centre
    if len(centres) and float(np.min(np.linalg.norm(centres - centre, axis=1))) < side / 3:
        return True
    return any(float(np.linalg.norm(o.centre - centre)) < side / 3 for o in out)


def _lookalike(crop: np.ndarray, corners: np.ndarray, score: float) -> bool:
    """Whether a square matched as an ArUco die face may be another printed dark square with
    cells: a value sticker (5 x 5 cells of 2.4 mm, `companion.vision.value_dice`) that matches
    at least as well (a table of value-sticker dice read without `--dice values` matched two
    as ArUco faces at 0.87 where the value stickers matched 0.91 and 0.96; real ArUco tops
    match a value sticker up to 0.84 against 0.93), or a QR code's finder pattern (a ring
    around a dark centre, like die p1.w2's 5) within the closed set's margin (on a table of
    Micro QR stickers at 1080p, 53 cm, a finder matched that face at 0.83, the finder 0.77)."""
    ink = _VALUE_TEMPLATES.cells(crop, corners)
    if ink is not None and _VALUE_TEMPLATES.best_score(ink) >= score:
        return True
    for cells, finder in _FINDERS.items():
        seen = cell_inkiness(crop, corners, cells)
        if seen is not None and float((finder @ seen).max()) > score - MATCH_MARGIN:
            return True
    return False


def _grown(quad: np.ndarray, share: float) -> np.ndarray:
    """A quad grown about its middle by `share` of its size, as a contour for OpenCV."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    return ((q - centre) * (1.0 + share) + centre).astype(np.float32).reshape(-1, 1, 2)


def _magnified(quad: np.ndarray, offset: np.ndarray, scale: float = SCALE) -> np.ndarray:
    """A quad in the picture, in its magnified tile (`_unmagnified`'s inverse)."""
    return (np.asarray(quad, np.float64).reshape(4, 2) - offset + 0.5) * scale - 0.5


def _unmagnified(corners: np.ndarray, offset: np.ndarray, scale: float = SCALE
                 ) -> np.ndarray:
    """A quad found in a magnified tile, in the picture (pixel centres scale about their own
    middle)."""
    return (np.asarray(corners, np.float64).reshape(4, 2) + 0.5) / scale - 0.5 + offset

