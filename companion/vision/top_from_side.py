"""A die seen only by a side face: its top face looked for where it must lie.

At 68 cm and 40 degrees (1080p) a die's side face that looks at the camera is the face seen
best: of the 6 dice still lost there after the magnified tiles (`dice_magnifier`, 8 scenes,
76 dice), 4 had a side face read on every frame while their top never decoded (2.2-2.5 px a
cell). A side face says which die it is and where that die stands: its marker is centred on a
vertical face, so the marker's upper edge (14 mm above the mat) lies on the die's near edge,
and the top face's marker is a 12 mm square 8 mm beyond that edge's middle, 16 mm above the
mat, its edges along the die's. There the square's cells are matched against the game's
closed set of die faces (`FaceTemplates`), and only this die's faces that a top can show with
the side faces read count (never a face read, nor its opposite).

The predicted square is off by a pixel or two (the side marker's corners, the camera pose
estimated from the mat), so it is tried a little shifted, grown and turned, and the best
match is kept: at the same thresholds as the closed set elsewhere (correlation >= 0.8 and
0.1 over every other face), among the die's own six faces only (the die is known from its
side face; another die's face looking alike says nothing about this die's value). The top
found is this die's, placed as `TopFaceFilter` places a top, and is not judged again: an
unread square beyond it is a neighbour, never its own top.

The same prediction settles a top that was read but refused as a side face because something
die-like and dark lay beyond it (a neighbouring die): when a side face of its die was read in
front of it and predicts the top right where it is, it is the top (`read_top`; at 53 cm /
30 degrees the only die the bench lost, 2026-11-27).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from companion.markers.payload import die_face_id
from companion.vision.detect import Detection, interpret_aruco, quad_side
from companion.vision.dice import FaceVerdict, TopFace, TopFaceFilter
from companion.vision.dice_retry import FaceTemplates
from companion.vision.die_geometry import SIDE_EDGE_TOLERANCE, predicted_top
from companion.vision.geometry import CameraPose, MatGeometry

SIDE_LIKE = ("shape", "side", "unsure")  # the verdicts on a face that may be a side face
TOP_AT_SHARE = 0.25  # a read face this near (of a marker's side) where the top must lie is it


def top_beyond(gray: np.ndarray, side: Detection, pose: CameraPose, mat_to_image: np.ndarray,
               templates: FaceTemplates, values: Collection[int]) -> Detection | None:
    """The top face of `side`'s die, matched where it must lie, if it shows one of `values`
    clearly; None otherwise."""
    meaning = side.aruco
    if meaning is None or meaning.die is None or not values:
        return None
    quad = predicted_top(side.corners, pose, mat_to_image)
    if quad is None:
        return None
    wanted = {die_face_id(meaning.die, v) for v in values}
    own = [die_face_id(meaning.die, v) for v in range(1, 7)]
    found = templates.fitted(gray, quad, own, wanted)
    return None if found is None else interpret_aruco(found[0], found[1])


def read_top(side: Detection, faces: Collection[Detection], pose: CameraPose,
             mat_to_image: np.ndarray) -> Detection | None:
    """The face among `faces` (read faces of `side`'s die) that lies where `side`'s top must
    lie: its centre within a quarter of a marker's side of the predicted one, its size within
    30 %, and a value a top can show beside `side`'s. Such a face is the top even where
    something dark beyond it made it look like a side face (a neighbouring die)."""
    meaning = side.aruco
    if meaning is None or meaning.value is None:
        return None
    quad = predicted_top(side.corners, pose, mat_to_image)
    if quad is None:
        return None
    centre, size = quad.mean(axis=0), quad_side(quad)
    for face in faces:
        value = face.aruco.value if face.aruco is not None else None
        if value is None or value not in top_values({meaning.value}):
            continue
        if (float(np.linalg.norm(face.centre - centre)) <= TOP_AT_SHARE * size
                and abs(quad_side(face.corners) / size - 1.0) <= SIDE_EDGE_TOLERANCE):
            return face
    return None


def top_values(read: Collection[int]) -> list[int]:
    """The values a die's top can show when these faces of it were read as side faces: none
    of them, nor their opposites (opposite faces sum to 7)."""
    return [v for v in range(1, 7) if v not in read and 7 - v not in read]


def tops_from_sides(gray: np.ndarray, faces: Sequence[Detection], tops: Sequence[TopFace],
                    dropped: Sequence[FaceVerdict], judge: TopFaceFilter,
                    geometry: MatGeometry, image_size: tuple[int, int],
                    templates: FaceTemplates) -> list[TopFace]:
    """The tops of the dice `judge` found none for but dropped a (maybe) side face of: a face
    read where the top must lie (`read_top`), or else one matched there (`top_beyond`),
    placed as `judge` places a top and not judged again (an unread square beyond such a top
    is a neighbour, never its own top)."""
    topped = {t.die for t in tops}
    sides: dict[str, list[Detection]] = {}
    for verdict in dropped:
        meaning = verdict.detection.aruco
        if (verdict.reason in SIDE_LIKE and meaning is not None and meaning.die is not None
                and meaning.die not in topped):
            sides.setdefault(meaning.die, []).append(verdict.detection)
    if not sides:
        return []
    pose = judge.camera_pose(geometry, image_size)
    mat_to_image = np.linalg.inv(geometry.homography)
    found = []
    for die, side_faces in sorted(sides.items()):
        own = [d for d in faces if d.aruco is not None and d.aruco.die == die]
        read = {int(d.aruco.value or 0) for d in own if d.aruco is not None}
        for face in side_faces:
            top = (read_top(face, [d for d in own if d is not face], pose, mat_to_image)
                   or top_beyond(gray, face, pose, mat_to_image, templates, top_values(read)))
            placed = None if top is None else judge.placed(top, geometry, image_size)
            if placed is not None:
                found.append(placed)
                break
    return found
