"""A laptop's picture of the Creature Crush mat drawn through the simulator's lens model: the
oracle of the mat fit's tests at a laptop's pose (corner search, lens). `companion.sim.camera.Rig`
is a 720p laptop camera 28 cm high, 20 cm behind the mat's near edge, barrel distortion (k1
-0.12, k2 0.02) as calibration/cameras/two-laptops-720p-mirror.yaml; where it puts any mat
point is known exactly, so the eye is checked against that and not against its own fit."""

from __future__ import annotations

import cv2
import numpy as np

from companion.layouts import load_layout
from companion.markers.render import aruco_image
from companion.sim.camera import Rig, edge_rig
from companion.vision.decoders.aruco import ArucoReader
from companion.vision.detect import Detection, interpret_aruco

LAYOUT = load_layout("creature-crush")
MAT_PX_PER_MM = 4
NEAR = (234, 235)  # the corner markers at player 1's edge, nearest a laptop there
FAR = (232, 233)


def laptop(height_mm: float = 280, behind_mm: float = 200) -> Rig:
    """The two-laptop kind's camera at player 1's edge (calibration/cameras/), unmirrored."""
    return edge_rig(1280, 720, 78.0, height_mm, float(LAYOUT.height_mm), behind_mm,
                    (LAYOUT.width_mm / 2, LAYOUT.height_mm / 2), k1=-0.12, k2=0.02)


def mat_picture() -> np.ndarray:
    """The mat from above at 4 px per mm: grey cloth, each corner marker on a white square."""
    w, h = int(LAYOUT.width_mm) * MAT_PX_PER_MM, int(LAYOUT.height_mm) * MAT_PX_PER_MM
    mat = np.full((h, w), 90, np.uint8)
    for corner in LAYOUT.corners:
        side = int(corner.size_mm * MAT_PX_PER_MM)
        x0 = int((corner.x_mm - corner.size_mm / 2) * MAT_PX_PER_MM)
        y0 = int((corner.y_mm - corner.size_mm / 2) * MAT_PX_PER_MM)
        pad = 4 * MAT_PX_PER_MM
        mat[y0 - pad:y0 + side + pad, x0 - pad:x0 + side + pad] = 235
        mat[y0:y0 + side, x0:x0 + side] = np.where(
            aruco_image(int(corner.marker_id), side) > 127, 235, 20)
    return mat


def photograph(rig: Rig, soft_px: float = 2.5) -> np.ndarray:
    """What the camera delivers: the mat through the lens, softer towards the sides (a
    laptop lens's edges: `soft_px` of blur at the picture's left and right ends)."""
    ys, xs = np.mgrid[0:rig.height_px, 0:rig.width_px].astype(np.float64)
    ideal = rig.undistort(np.stack([xs, ys], axis=-1).reshape(-1, 2))
    to_mat = np.linalg.inv(rig.ground_homography())
    mm = cv2.perspectiveTransform(ideal.reshape(-1, 1, 2), to_mat).reshape(
        rig.height_px, rig.width_px, 2) * MAT_PX_PER_MM
    picture = cv2.remap(mat_picture(), mm[..., 0].astype(np.float32),
                        mm[..., 1].astype(np.float32), cv2.INTER_AREA,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=40)
    soft = cv2.GaussianBlur(picture, (0, 0), soft_px)
    share = np.clip((np.abs(xs - rig.width_px / 2) / (rig.width_px / 2)) ** 2, 0, 1)
    return np.asarray(picture * (1 - share) + soft * share, np.uint8)


def truth_quad(rig: Rig, marker_id: int) -> np.ndarray:
    corner = next(c for c in LAYOUT.corners if int(c.marker_id) == marker_id)
    half = corner.size_mm / 2
    pts = np.array([[corner.x_mm - half, corner.y_mm - half], [corner.x_mm + half,
                    corner.y_mm - half], [corner.x_mm + half, corner.y_mm + half],
                    [corner.x_mm - half, corner.y_mm + half]])  # printed order TL TR BR BL
    return rig.project(np.column_stack([pts, np.zeros(4)]))


def corners_read(gray: np.ndarray) -> list[Detection]:
    ids = {int(c.marker_id) for c in LAYOUT.corners}
    return [interpret_aruco(m, q) for m, q in ArucoReader().read(gray) if m in ids]
