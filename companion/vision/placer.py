"""The placer: detections -> sightings in mat millimetres, and the pictures of their places.

Each card sticker, back and token read is placed on the mat (position, zone, tapped; a card
with two stickers by its centre), named through the cardset, and its sticker's place is
photographed where no hand is over it, so that a card not read on a later frame but whose
place looks the same (or so but for a die on it) is kept (`unchanged`), and a hand over a
place tells the tracker it is hidden (`occlusion`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import cv2
import numpy as np

from companion.markers.payload import BackPayload, FrontPayload
from companion.snapshot import back_uid, card_uid
from companion.vision.detect import Detection
from companion.vision.geometry import MatGeometry
from companion.vision.places import PlacePicture, look_at, same_place, small_thing_on
from companion.vision.table_cues import SMALL
from companion.vision.tracker import Sighting, Tracker
from companion.vision.twin_stickers import card_centre_below, shows_twin_pair, sticker_below_mm

Occlusion = Callable[[float, float], bool]


class CardNumbers(Protocol):
    def by_number(self, number: int) -> Any: ...


def apart(centre: np.ndarray, corners: np.ndarray) -> float | None:
    """How far (px) a place's `centre` lies from the marker with `corners`, when it is that
    marker's own place (nearer than its side); None when it is another sticker's (a twin
    card's other sticker lies two sticker sides away)."""
    distance = float(np.linalg.norm(centre - corners.mean(axis=0)))
    return distance if distance < float(np.linalg.norm(corners[1] - corners[0])) else None


def zone_of(layout: Any, x_mm: float, y_mm: float) -> str | None:
    """The id of the layout's zone at a mat point (None: no zone)."""
    zone = layout.zone_at(x_mm, y_mm)
    return zone if zone is None or isinstance(zone, str) else str(getattr(zone, "id", zone))


def occlusion(hand: np.ndarray, geometry: MatGeometry | None) -> Occlusion:
    """Whether a mat point lies under the hand mask (`hand`: the 1/SMALL cue image), grown a
    little for the hand's shadow and the mask's coarse pixels."""
    if geometry is None or not hand.any():
        return lambda x, y: False
    grown = cv2.dilate(hand.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    inverse = np.linalg.inv(geometry.homography)

    def occluded(x_mm: float, y_mm: float) -> bool:
        p = inverse @ np.array([x_mm, y_mm, 1.0])
        u, v = int(p[0] / p[2] / SMALL), int(p[1] / p[2] / SMALL)
        if not (0 <= v < grown.shape[0] and 0 <= u < grown.shape[1]):
            return False
        return bool(grown[v, u])

    return occluded


class Placer:
    """Places detections on the mat and keeps the pictures of the places read.

    `known_quads` / `patches`: per tracked key, its sticker's corners and place picture;
    `card_keys` / `big_cell_keys`: the cards on the table, and those read from big-cell
    stickers (the card reader schedules its costlier readers by them)."""

    def __init__(self, layout: Any, game_code: int, cards: CardNumbers | None) -> None:
        self.layout = layout
        self.game_code = game_code
        self.cards = cards
        self.twin_stickers = False  # the cards carry two stickers each: learnt when seen
        self.known_quads: dict[str, np.ndarray] = {}
        self.patches: dict[str, PlacePicture] = {}
        self.card_keys: set[str] = set()
        self.big_cell_keys: set[str] = set()  # cards read from big-cell symbols (ArUco pass)
        self._placed: dict[int, tuple[Detection, np.ndarray, Sighting | None]] = {}

    def zone_id(self, x_mm: float, y_mm: float) -> str | None:
        return zone_of(self.layout, x_mm, y_mm)

    def forget(self) -> None:
        """The camera moved: the places' corners and pictures are pixels of the old view."""
        self.known_quads.clear()
        self.patches.clear()

    def hints(self) -> list[np.ndarray]:
        """Where the known Micro QR cards' stickers were last read (crop retries go there)."""
        return [q for k, q in self.known_quads.items()
                if k in self.card_keys and k not in self.big_cell_keys]

    def all_big_cell(self) -> bool:
        """The table has cards, and every one of them was read from a big-cell sticker."""
        return bool(self.card_keys) and self.card_keys <= self.big_cell_keys

    def card_centre_below(self, x_mm: float, y_mm: float, angle_deg: float
                          ) -> tuple[float, float, str | None]:
        x, y = card_centre_below(x_mm, y_mm, angle_deg)
        return x, y, self.zone_id(x, y)

    def sighting(self, det: Detection, geometry: MatGeometry) -> Sighting | None:
        """The sighting of a card sticker, card back or token read; None for anything else
        (and for another game's card or one not in the cardset)."""
        place = geometry.place(det, sticker_below_mm(det, self.twin_stickers))
        zone = place.zone
        if det.kind == "front" and isinstance(det.payload, FrontPayload):
            if det.payload.game_code != self.game_code or self.cards is None:
                return None
            try:
                card = self.cards.by_number(det.payload.number)
            except ValueError:
                return None
            key = card_uid(str(card.id), det.payload.copy)
            return Sighting(key, "card", place.x_mm, place.y_mm, zone, place.angle_deg,
                            place.tapped, True, None, det.confidence)
        if det.kind == "back" and isinstance(det.payload, BackPayload):
            return Sighting(back_uid(det.payload.serial), "card", place.x_mm, place.y_mm, zone,
                            place.angle_deg, place.tapped, False, None, det.confidence)
        if det.aruco is not None and det.aruco.kind == "token" and det.aruco.token is not None:
            return Sighting(det.aruco.token, "token", place.x_mm, place.y_mm, zone,
                            place.angle_deg, False, True, None, det.confidence)
        return None

    def place(self, dets: Sequence[Detection], geometry: MatGeometry, tracker: Tracker
              ) -> tuple[list[tuple[Sighting, Detection | None]], list[str]]:
        """Sightings of every card, back and token read (dice are the dice reader's), and the
        texts of what was read but names nothing on this table. A reading kept from an earlier
        frame under the same mat fit keeps its sighting. The first time a card shows two
        stickers, the cards carry two each: the tracker's cards move to their centres."""
        placed: list[tuple[Sighting, Detection | None]] = []
        unknown: list[str] = []
        placed_before, self._placed = self._placed, {}
        if not self.twin_stickers and shows_twin_pair(dets, geometry):
            self.twin_stickers = True  # the cards' places so far were their stickers' places
            placed_before = {}
            tracker.move_cards(self.card_centre_below)
        for det in dets:
            if det.kind == "unknown":
                unknown.append(det.text)
                continue
            if det.aruco is not None and det.aruco.kind == "die":
                continue
            kept = placed_before.get(id(det))
            if kept is not None and kept[0] is det and kept[1] is geometry.homography:
                sight = kept[2]  # a reading kept from an earlier frame, the same mat fit
            else:
                sight = self.sighting(det, geometry)
            self._placed[id(det)] = (det, geometry.homography, sight)
            if sight is None and det.kind == "front":
                unknown.append(det.text)  # another game's card, or not in the cardset
            if sight is not None:
                placed.append((sight, det))
        return placed, unknown

    def photograph(self, placed: Sequence[tuple[Sighting, Detection | None]], gray: np.ndarray,
                   occluded: Occlusion, news: Callable[[Detection], bool]) -> None:
        """Note the cards read and take their places' pictures. A sticker place's picture is
        taken only where no hand is: a reading kept from an earlier frame may stand while a
        hand or its shadow is over the place now. `news`: whether a die or token reading is
        new this frame (ArUco readings kept from the last pass are not)."""
        for sight, source in placed:
            if source is None:
                continue
            if sight.kind == "card":
                self.card_keys.add(sight.key)
                if source.decoder == "bigcell":
                    self.big_cell_keys.add(sight.key)
                else:
                    self.big_cell_keys.discard(sight.key)
            if sight.kind == "card" or news(source):
                picture = self.patches.get(sight.key)
                if (not occluded(sight.x_mm, sight.y_mm) or picture is None
                        or picture.look() is None):
                    self.known_quads[sight.key] = source.corners
                    self.patches[sight.key] = PlacePicture(gray, source.corners)
                elif self.same_sticker(self.known_quads.get(sight.key), source.corners):
                    self.known_quads[sight.key] = source.corners  # its picture: from before

    @staticmethod
    def same_sticker(before: np.ndarray | None, now: np.ndarray) -> bool:
        """Whether two readings' corners are one sticker's, not a twin card's other one (its
        place's picture must be of the sticker whose corners it keeps)."""
        return before is None or apart(before.mean(axis=0), now) is not None

    def unchanged(self, gray: np.ndarray, seen: set[str]) -> frozenset[str]:
        """Known cards not read this frame whose sticker place looks as when last read, or so
        but for a die or token lying on it (`small_thing_on`: a die the eye cannot read, as on
        a laptop's camera, must not take the card it lies on away)."""
        out = set()
        for key, quad in self.known_quads.items():
            if key in seen:
                continue
            kept = self.patches.get(key)
            before, now = (None if kept is None else kept.look()), look_at(gray, quad)
            if same_place(before, now) or small_thing_on(before, now):
                out.add(key)
        return frozenset(out)

    def keep_only(self, present: set[str] | frozenset[str], tracked: set[str] | frozenset[str]
                  ) -> None:
        """Forget the places of what the tracker no longer follows. Candidates keep theirs: a
        die read on the one frame an ArUco pass ran, while it was still a candidate, had no
        place picture once confirmed, and was never held."""
        self.known_quads = {k: q for k, q in self.known_quads.items() if k in tracked}
        self.patches = {k: p for k, p in self.patches.items() if k in tracked}
        self.card_keys &= present
        self.big_cell_keys &= present
