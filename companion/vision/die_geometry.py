"""Where a die's faces lie, from one face: the geometry `dice.TopFaceFilter` and
`top_from_side` share.

A die's side face carries its 12 mm marker centred on a vertical 16 mm face, so the marker's
upper edge (14 mm above the mat) lies on the die's near edge, and the top face's marker is a
12 mm square 8 mm beyond that edge's middle, 16 mm above the mat, its edges along the die's.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.geometry import CameraPose

DIE_MM = 16.0  # the dice the stickers are made for: companion.printing.sizes.DIE_MM and
MARKER_MM = 12.0  # DIE_MARKER_MM (the eye lies below printing; a test holds them equal)
SIDE_EDGE_TOLERANCE = 0.3  # the side marker's upper edge: 12 mm within 30 %


def predicted_top(side_px: np.ndarray, pose: CameraPose, mat_to_image: np.ndarray,
                  ) -> np.ndarray | None:
    """Where the top face's marker lies in the picture (4 x 2 px), were `side_px` a side face
    of its die; None where the face's upper edge is not a marker's edge there."""
    upper = 0.5 * (DIE_MM + MARKER_MM)
    to_upper = pose.plane_homography(mat_to_image, upper)
    quad = cv2.perspectiveTransform(
        np.asarray(side_px, np.float64).reshape(-1, 1, 2), to_upper).reshape(4, 2)
    camera = pose.centre_mm[:2]
    # mapped into the plane at its own height, the upper edge is where it is; the lower edge
    # (2 mm above the mat) lands nearer the camera
    edges = [(quad[i], quad[(i + 1) % 4]) for i in range(4)]
    a, b = max(edges, key=lambda e: float(np.linalg.norm((e[0] + e[1]) / 2 - camera)))
    length = float(np.linalg.norm(b - a))
    if abs(length / MARKER_MM - 1.0) > SIDE_EDGE_TOLERANCE:
        return None
    along = (b - a) / length
    away = np.array([along[1], -along[0]])
    middle = (a + b) / 2
    if float(away @ (middle - camera)) < 0:
        away = -away
    centre = middle + away * (DIE_MM / 2)
    half = MARKER_MM / 2
    top_mm = np.array([centre + half * (sa * along + sb * away)
                       for sa, sb in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    to_image = np.linalg.inv(pose.plane_homography(mat_to_image, DIE_MM))
    return np.asarray(cv2.perspectiveTransform(top_mm.reshape(-1, 1, 2), to_image)
                      ).reshape(4, 2)
