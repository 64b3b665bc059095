"""Die tops too blurred for OpenCV's outline: dark squares found in the dice-top plane.

A 720p webcam at 53 cm sees a die's 12 mm top marker 14-16 px wide, 2.4-2.7 px a cell, through
the lens's defocus and a dim room's noise. OpenCV's ArUco detector looks for a marker's outline
as a four-cornered contour of its adaptive threshold; on these tops the blurred corners round
off and the contour is not taken for a quad, even in the mean of the still frames magnified
twice: of 9 tops lost in two 720p scenes (bench seeds 1000-1001, 30 degrees), the magnified
tiles' ArUco pass left a candidate near only some, and which ones changed with the frames in the
mean. Yet a die's top is the plainest thing on the table: a dark square, 12 mm on a side, on
a light die, at die height. Seen in that plane (the picture warped onto the plane 16 mm above
the mat, `MatGeometry.plane_homography`) it is a square of known size whatever the camera's
angle, while the die's side faces (upright) are stretched away from the camera and card art
has no reason to be a 12 mm square.

So a tile is warped onto the dice-top plane at `PX_PER_MM`, thresholded against its
neighbourhood and at a few grey levels of its own, and each dark blob whose smallest enclosing
rectangle is a 12 mm square (within `SIDE_RANGE`, filled by at least `MIN_FILL`) is handed on
as a quad in the picture. The grey levels are for a top among dark things: on a red die (its
body mid-grey), on dark card art or beside a die's dark side face, the blurred 1 mm white
margin of the sticker no longer parts the marker from what lies around it under a threshold
set by the neighbourhood's mean, but at some grey level between the ink and that margin the
marker stands alone (a red die's top at 720p on the realistic simulator: a 12 mm square at
grey levels 100-120 only, joined to the card's art at 130 and above). Nothing here
says what a square is: the caller matches its cells against the game's closed set of die faces
(`FaceTemplates.fitted`), and every face so read goes through `TopFaceFilter` like any other.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.detect import quad_side
from companion.vision.die_geometry import MARKER_MM
from companion.vision.geometry import apply_homography

PX_PER_MM = 3.0  # the warped tile (cubic): a 12 mm marker is 36 px, a 2 mm cell 6 px (4 px
# a mm cost 3.9 ms a frame in the timed 1080p sequence and read no more dice; a linear warp
# cost less but lost a die at 720p in each pose)
SIDE_RANGE = (0.75, 1.3)  # a blob's sides over the marker's 12 mm
MAX_ASPECT = 1.25
MIN_FILL = 0.75  # the blob's area over its rectangle's: a square, not a ring or an L
WINDOW_MM = 19.0  # the threshold's neighbourhood: a face and its die's light margin around it
DARKER_BY = (8.0, 16.0)  # grey levels under the neighbourhood's mean, tried in turn
LEVELS = 8  # grey levels of the tile's own tried as thresholds too, evenly between ...
LEVEL_SHARES = (0.005, 0.75)  # ... the darkest 0.5 % of the warped tile and its darkest 75 %
# (a marker's ink is about 1 % of a tile: where card art is darker than a red die, a level
# from the darkest 3 % lay above the ink already)
GROW = 0.3  # the part around a square whose ink and light set its mid grey, of a marker
MIN_CONTRAST = 24.0  # grey levels between ink and light: less is no marker


def dark_squares(tile: np.ndarray, offset: tuple[float, float],
                 image_to_top: np.ndarray) -> list[np.ndarray]:
    """Quads (4 x 2 picture px, clockwise in the top plane) of the die-face-sized dark squares
    in a grey tile of the picture whose top-left pixel is `offset`; `image_to_top` maps picture
    px to mm of the dice-top plane."""
    height, width = tile.shape[:2]
    if height < 8 or width < 8:
        return []
    ox, oy = offset
    corners = np.array([[ox, oy], [ox + width, oy], [ox + width, oy + height],
                        [ox, oy + height]], np.float64)
    mm = apply_homography(image_to_top, corners)
    lo = mm.min(axis=0)
    size = np.ceil((mm.max(axis=0) - lo) * PX_PER_MM).astype(int)
    if (size < 8).any() or (size > 2000).any():
        return []
    # tile px -> top-plane mm -> warped px
    shift = np.array([[1.0, 0.0, ox], [0.0, 1.0, oy], [0.0, 0.0, 1.0]])
    to_warped = np.array([[PX_PER_MM, 0.0, -lo[0] * PX_PER_MM],
                          [0.0, PX_PER_MM, -lo[1] * PX_PER_MM], [0.0, 0.0, 1.0]])
    warp = to_warped @ image_to_top @ shift
    plane = cv2.warpPerspective(np.ascontiguousarray(tile), warp, (int(size[0]), int(size[1])),
                                flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    window = int(WINDOW_MM * PX_PER_MM) | 1
    # the neighbourhood's mean once, for every threshold tried (as adaptiveThreshold's MEAN_C)
    mean = cv2.boxFilter(plane, cv2.CV_16S, (window, window), borderType=cv2.BORDER_REPLICATE)
    back = np.linalg.inv(warp)
    grey = plane.astype(np.int16)
    # (OpenCV's comparisons give the uint8 masks findContours takes: 0.2 ms a tile less)
    masks = [cv2.compare(grey, mean - round(darker), cv2.CMP_LE) for darker in DARKER_BY]
    masks += [cv2.threshold(plane, float(level), 255, cv2.THRESH_BINARY_INV)[1]
              for level in _grey_levels(plane)]
    squares: list[np.ndarray] = []  # in the warped tile
    for dark in masks:
        contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if len(contour) < 4:  # a speck: a square's outline has four corners at least
                continue
            quad = _square(contour)
            if quad is not None:
                quad = _at_mid_grey(plane, quad)
            if quad is not None:
                squares.append(quad)
    # one place is a square under several thresholds: the one nearest the marker's size is
    # its outline (a 720p top's first square, 25 px where its marker was 20, matched no face
    # at the sizes the caller tries)
    marker = MARKER_MM * PX_PER_MM
    squares.sort(key=lambda quad: abs(quad_side(quad) - marker))
    found: list[np.ndarray] = []
    for quad in squares:
        picture = apply_homography(back, quad) + np.array([ox, oy])
        centre = picture.mean(axis=0)
        if not any(float(np.linalg.norm(q.mean(axis=0) - centre)) < 3.0 for q in found):
            found.append(picture)
    return found


def _grey_levels(plane: np.ndarray) -> np.ndarray:
    """`LEVELS` grey levels evenly between the tile's `LEVEL_SHARES` quantiles (from its
    histogram: sorting the tile's pixels cost more than all the thresholds)."""
    counts = np.cumsum(cv2.calcHist([plane], [0], None, [256], [0, 256]).ravel())
    lo, hi = (int(np.searchsorted(counts, share * counts[-1])) for share in LEVEL_SHARES)
    return np.linspace(lo, hi, LEVELS + 2)[1:-1]


def _square(contour: np.ndarray) -> np.ndarray | None:
    """The corners (warped px) of a blob that is a die face's marker in the top plane."""
    area = cv2.contourArea(contour)
    side = MARKER_MM * PX_PER_MM
    if not (SIDE_RANGE[0] * side) ** 2 * MIN_FILL <= area <= (SIDE_RANGE[1] * side) ** 2:
        return None
    rect = cv2.minAreaRect(contour)
    w, h = rect[1]
    if min(w, h) < SIDE_RANGE[0] * side or max(w, h) > SIDE_RANGE[1] * side:
        return None
    if max(w, h) > MAX_ASPECT * min(w, h) or area < MIN_FILL * w * h:
        return None
    return np.asarray(cv2.boxPoints(rect), np.float64)


def _at_mid_grey(plane: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The square's outline where the grey is halfway between its ink and the die around it.
    The neighbourhood threshold sits near the light side, so a blurred edge makes the blob a
    few pixels too large; halfway is where a blurred edge really lies. Where halfway joins the
    marker to dark things around it (a red die's body, card art), the square stays as found;
    too little contrast is no marker."""
    lo = np.floor(quad.min(axis=0) - GROW * MARKER_MM * PX_PER_MM).astype(int)
    hi = np.ceil(quad.max(axis=0) + GROW * MARKER_MM * PX_PER_MM).astype(int)
    lo = np.maximum(lo, 0)
    hi = np.minimum(hi, [plane.shape[1], plane.shape[0]])
    part = plane[lo[1]:hi[1], lo[0]:hi[0]]
    if part.size == 0:
        return None
    dark, light = np.percentile(part, (10, 90))
    if light - dark < MIN_CONTRAST:
        return None
    mask = (part < (dark + light) / 2).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    centre = quad.mean(axis=0) - lo
    for contour in contours:
        if cv2.pointPolygonTest(contour, (float(centre[0]), float(centre[1])), False) >= 0:
            square = _square(contour)
            return quad if square is None else square + lo
    return quad

