"""Several cameras, one table: the settled readings of each camera's eye fused into one table.

Each camera runs its own pipeline (its own mat fit and mirror detection) and settles its own
`TableSnapshot` in mat coordinates. `fuse` puts the latest settled reading of every live camera
together:

- an item (a card by its identity, a die or a token by its name) that one camera reads and the
  others do not is taken: the other cameras just cannot read it from where they stand;
- an item several cameras read is taken from the clearest view: the camera that sees its place
  with the most pixels per mat millimetre (the mat fit's `px_per_mm`), times the tracker's
  confidence in it, less where the camera's mat fit is stretched beyond the corner markers it
  stands on (a laptop's near corners at the picture's sides often do not read: fitted on the
  far two, it puts the cards at its own edge 30-40 mm off, out of their zone);
- views that disagree are "not sure" and the item is left out until they agree, so a wrong
  identity is never given: two identities at one place (a misread sticker, or a card turned
  over that one camera has not settled yet), one die with two values, or one item at two places
  far apart.

A camera whose source ended or failed (not `live`) no longer counts: its last reading would be
stale. What no live camera watches (sees at `WATCH_PX_PER_MM` or more) is named, zone by zone
and by half of the mat, so the page can say "player 2's half is unwatched".

The camera's own pictures never leave its eye: only settled readings are fused.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.snapshot import SeenCard, SeenDie, SeenToken, TableSnapshot

Clarity = Callable[[float, float], float]
"""Pixels per mat millimetre with which a camera sees a mat point (its mat fit's
`MatGeometry.px_per_mm`)."""

WATCH_PX_PER_MM = 0.9
"""A camera watches the places it sees at this many pixels per mat mm or more: a laptop with a
mirror clip on the half of the mat nearer to it (0.9 at the mat's middle, 1.7 at its own edge,
0.5 at the far one), a 720p webcam overhead on the whole mat (1.0-1.7)."""

SAME_PLACE_MM = 40.0
"""Two cards read by two cameras this close are one card (cards lie 55 mm or more apart centre
to centre; the top of a pile is seen up to 15 mm off by each camera, away from it)."""

ONE_CARD_SPREAD_MM = 60.0
"""One card read by two cameras farther apart than this in two zones is at two places: not
sure (in one zone, up to `ONE_PILE_SPREAD_MM`: the top of a pile is seen shifted away from each
camera, 60 mm apart from two laptops facing each other)."""

ONE_PILE_SPREAD_MM = 120.0

SAME_DIE_MM = 10.0
"""Two dice read this close are one die (16 mm cubes never lie closer centre to centre)."""

ONE_DIE_SPREAD_MM = 30.0
"""One die read farther apart than this is at two places: not sure."""

STRETCH_MM = 150.0
"""A view counts e times less for each this many mm its place lies beyond the corner markers
its mat fit stands on (a homography fitted on two markers at the far edge puts a card at the
near edge 30-40 mm off through a laptop's wide lens, one between them a few mm)."""

ANCHOR_FRAMES = 30
"""The corner markers a camera read in this many recent frames are those its fit stands on."""


@dataclass(frozen=True)
class CameraView:
    """One camera's latest settled reading. `clarity`: how clearly it sees each mat point (None
    while its mat is not found: it reads nothing then). `live`: its source still gives frames."""

    camera: str
    snapshot: TableSnapshot | None
    clarity: Clarity | None
    live: bool = True
    anchors: tuple[tuple[float, float], ...] | None = None
    """Mat mm of the corner markers the camera's mat fit stands on (`CornerAnchors`); None:
    not known, the fit is trusted everywhere."""


@dataclass(frozen=True)
class Unsure:
    """An item left out: the cameras' readings at its place disagree."""

    kind: str  # "card", "die" or "token"
    x_mm: float | None
    y_mm: float | None
    readings: tuple[tuple[str, str], ...]  # (camera, what it read) for every reading involved
    why: str


@dataclass(frozen=True)
class FusedTable:
    """The fused table and what it could not decide or cannot see."""

    snapshot: TableSnapshot
    unsure: tuple[Unsure, ...] = ()
    live: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    unwatched_zones: tuple[str, ...] = ()
    unwatched_halves: tuple[str, ...] = ()  # "player 1's half", "player 2's half"

    def note(self) -> str | None:
        """One sentence for the page when part of the table is not watched, else None."""
        if not self.unwatched_halves:
            return None
        halves = " and ".join(self.unwatched_halves)
        lost = f" ({', '.join(self.dropped)} stopped)" if self.dropped else ""
        verb = "are" if len(self.unwatched_halves) > 1 else "is"
        return f"{halves[0].upper()}{halves[1:]} {verb} not watched by any camera{lost}."


@dataclass(frozen=True)
class _Reading:
    camera: int
    key: str  # card uid, die or token name
    x_mm: float | None
    y_mm: float | None
    score: float
    item: SeenCard | SeenDie | SeenToken

    @property
    def value(self) -> int | None:
        return self.item.value if isinstance(self.item, SeenDie) else None


def _distance(a: _Reading, b: _Reading) -> float:
    if a.x_mm is None or a.y_mm is None or b.x_mm is None or b.y_mm is None:
        return math.inf
    return math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm)


def _readings(views: Sequence[CameraView], kind: str) -> list[_Reading]:
    out = []
    for index, view in enumerate(views):
        if view.snapshot is None:
            continue
        items: Sequence[SeenCard | SeenDie | SeenToken] = (
            view.snapshot.cards if kind == "card" else
            view.snapshot.dice if kind == "die" else view.snapshot.tokens)
        for item in items:
            key = (item.uid if isinstance(item, SeenCard) else
                   item.die if isinstance(item, SeenDie) else item.token)
            clarity = 1e-3  # no place, or no mat fit: the weakest view
            if item.x_mm is not None and item.y_mm is not None and view.clarity is not None:
                x, y = float(item.x_mm), float(item.y_mm)
                clarity = view.clarity(x, y) * math.exp(-stretch_mm(view.anchors, x, y)
                                                        / STRETCH_MM)
            out.append(_Reading(index, key, item.x_mm, item.y_mm,
                                clarity * max(float(item.confidence), 1e-3), item))
    return out


def stretch_mm(anchors: Sequence[tuple[float, float]] | None, x_mm: float, y_mm: float
               ) -> float:
    """How far (mm) a mat point lies outside the corner markers a fit stands on (0 inside
    them, or when they are not known)."""
    if not anchors:
        return 0.0
    pts = np.asarray(anchors, np.float32).reshape(-1, 2)
    if len(pts) >= 3:
        hull = cv2.convexHull(pts)
        if len(hull) >= 3:
            inside = cv2.pointPolygonTest(hull, (float(x_mm), float(y_mm)), True)
            return max(0.0, -float(inside))
    p = np.array([x_mm, y_mm], float)
    if len(pts) == 1:
        return float(np.linalg.norm(p - pts[0]))
    a, b = pts[0].astype(float), pts[-1].astype(float)  # two markers (or three on a line)
    t = float(np.clip((p - a) @ (b - a) / max(float((b - a) @ (b - a)), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * (b - a))))


class CornerAnchors:
    """The corner markers one camera's eye read lately: what its mat fit stands on.

    Feed it each frame's detections (`PipelineUpdate.detections`); `points()` are the mat
    positions of the corner markers read in the last `ANCHOR_FRAMES` frames."""

    def __init__(self, layout: object, frames: int = ANCHOR_FRAMES) -> None:
        corners = getattr(layout, "corners", ())
        self._at = {int(c.marker_id): (float(c.x_mm), float(c.y_mm)) for c in corners}
        self._seen: deque[frozenset[int]] = deque(maxlen=frames)

    def see(self, detections: Iterable[object]) -> None:
        ids = {getattr(d, "marker_id", None) for d in detections}
        self._seen.append(frozenset(i for i in ids if i in self._at))

    def points(self) -> tuple[tuple[float, float], ...]:
        ids = sorted(frozenset().union(*self._seen)) if self._seen else []
        return tuple(self._at[i] for i in ids)


def _decide(readings: list[_Reading], kind: str, names: Sequence[str]
            ) -> tuple[list[_Reading], list[Unsure]]:
    """The reading taken for each item, and the items left out as not sure."""
    same_place, spread = ((SAME_PLACE_MM, ONE_CARD_SPREAD_MM) if kind == "card"
                          else (SAME_DIE_MM, ONE_DIE_SPREAD_MM))

    def apart(a: _Reading, b: _Reading) -> bool:
        d = _distance(a, b)
        one_zone = a.item.zone == b.item.zone and bool(a.item.zone)
        return d > (ONE_PILE_SPREAD_MM if one_zone and kind == "card" else spread)

    by_key: dict[str, list[_Reading]] = {}
    for r in readings:
        by_key.setdefault(r.key, []).append(r)
    taken: list[_Reading] = []
    unsure: list[Unsure] = []
    for key, mine in by_key.items():
        # a die one camera did not read again since a hand was over it (`SeenDie.unread`)
        # says nothing of its face against a camera that reads it now
        read = [r for r in mine if not getattr(r.item, "unread", False)]
        mine = read or mine
        best = max(mine, key=lambda r: r.score)
        why = None
        if len({r.value for r in mine}) > 1:
            why = "the cameras read different values"
        elif any(apart(a, b) for a in mine for b in mine):
            why = "the cameras see it at different places"
        else:
            # another camera reads something else where this item lies, and that other item
            # is not confirmed as a separate one by a camera that reads this one
            readers = {r.camera for r in mine}
            for other in readings:
                if other.key == key or other.camera in readers:
                    continue
                if min(_distance(other, r) for r in mine) > same_place:
                    continue
                confirmed = any(o.key == other.key and o.camera in readers
                                and _distance(o, other) <= spread for o in readings)
                if not confirmed:
                    why = "the cameras read different things at one place"
                    mine = [*mine, other]
                    break
        if why is None:
            taken.append(best)
        else:
            unsure.append(Unsure(kind, best.x_mm, best.y_mm,
                                 tuple(sorted((names[r.camera], _said(r)) for r in mine)), why))
    return taken, unsure


def _said(r: _Reading) -> str:
    return r.key if r.value is None else f"{r.key}={r.value}"


def _watched(views: Sequence[CameraView], zones: Mapping[str, tuple[float, float]]
             ) -> set[str]:
    return {zone for zone, (x, y) in zones.items()
            if any(v.live and v.clarity is not None and v.clarity(x, y) >= WATCH_PX_PER_MM
                   for v in views)}


def fuse(views: Sequence[CameraView], game: str, zones: Mapping[str, tuple[float, float]],
         height_mm: float, seq: int = 0, time_s: float = 0.0) -> FusedTable:
    """One table from the live cameras' latest settled readings (module docstring).

    `zones`: each zone's centre in mat mm, for what is watched; `height_mm`: the mat's depth
    (player 1's edge at y = height_mm, player 2's at 0)."""
    live = [v for v in views if v.live]
    names = [v.camera for v in live]
    cards, card_unsure = _decide(_readings(live, "card"), "card", names)
    dice, die_unsure = _decide(_readings(live, "die"), "die", names)
    tokens, token_unsure = _decide(_readings(live, "token"), "token", names)
    rolls: dict[str, int] = {}
    for v in live:
        for d in v.snapshot.dice if v.snapshot else ():
            rolls[d.die] = max(rolls.get(d.die, 0), d.rolls)
    unknown = sorted({m for v in live if v.snapshot for m in v.snapshot.unknown_markers})
    snapshot = TableSnapshot(
        game, seq, time_s,
        cards=tuple(sorted((r.item for r in cards if isinstance(r.item, SeenCard)),
                           key=lambda c: c.uid)),
        dice=tuple(sorted((replace(r.item, rolls=rolls.get(r.item.die, 0)) for r in dice
                           if isinstance(r.item, SeenDie)), key=lambda d: d.die)),
        tokens=tuple(sorted((r.item for r in tokens if isinstance(r.item, SeenToken)),
                            key=lambda t: t.token)),
        unknown_markers=tuple(unknown))
    watched = _watched(views, zones)
    unwatched = sorted(set(zones) - watched)
    return FusedTable(snapshot, (*card_unsure, *die_unsure, *token_unsure), tuple(names),
                      tuple(v.camera for v in views if not v.live), tuple(unwatched),
                      mostly(set(unwatched), zones, height_mm))


HALVES = (("player 1's half", True), ("player 2's half", False))  # True: y beyond the middle


def mostly(zone_ids: set[str], zones: Mapping[str, tuple[float, float]], height_mm: float
           ) -> tuple[str, ...]:
    """The halves of the mat ("player 1's half", ...) more than half of whose zones are in
    `zone_ids` (`zones`: each zone's centre in mat mm; player 1's edge at y = height_mm)."""
    halves = []
    for half, near in HALVES:
        mine = [z for z, (_, y) in zones.items() if (y > height_mm / 2) == near]
        if mine and sum(z in zone_ids for z in mine) * 2 > len(mine):
            halves.append(half)
    return tuple(halves)


def watched_by(view: CameraView, zones: Mapping[str, tuple[float, float]]) -> set[str]:
    """The zones one camera sees clearly enough to read (live or not)."""
    return _watched([replace(view, live=True)], zones)


def zone_centres(layout: object) -> dict[str, tuple[float, float]]:
    """Each zone's centre (mat mm) of a layout, for `fuse`."""
    zones = getattr(layout, "zones", {})
    return {z.id: (float(z.x_mm) + float(z.w_mm) / 2, float(z.y_mm) + float(z.h_mm) / 2)
            for z in zones.values()}


# ----- cameras on other devices (`companion join`) --------------------------------------------

GRID_STEP_MM = 50.0
"""A joined camera sends how clearly it sees the mat as a grid of this pitch (px per mm)."""

STALE_S = 6.0
"""A joined camera not heard from for this long no longer counts (it sends at least every 2 s)."""

MAX_CAMERAS = 8


def clarity_grid(clarity: Clarity, width_mm: float, height_mm: float,
                 step_mm: float = GRID_STEP_MM) -> list[list[float]]:
    """`clarity` sampled every `step_mm` from the mat's corner (0, 0) until past its far
    edges, rows along y."""
    nx = math.ceil(width_mm / step_mm) + 1
    ny = math.ceil(height_mm / step_mm) + 1
    return [[round(float(clarity(i * step_mm, j * step_mm)), 3) for i in range(nx)]
            for j in range(ny)]


class GridClarity:
    """A `Clarity` from a sampled grid (`clarity_grid`), interpolated between its points."""

    def __init__(self, grid: Sequence[Sequence[float]], step_mm: float = GRID_STEP_MM) -> None:
        self.grid = np.asarray(grid, dtype=float)
        if self.grid.ndim != 2 or min(self.grid.shape) < 2 or not np.isfinite(self.grid).all():
            raise ValueError("a clarity grid needs two or more rows and columns of numbers")
        self.step = float(step_mm)

    def __call__(self, x_mm: float, y_mm: float) -> float:
        ny, nx = self.grid.shape
        fx = min(max(x_mm / self.step, 0.0), nx - 1.0)
        fy = min(max(y_mm / self.step, 0.0), ny - 1.0)
        i, j = min(int(fx), nx - 2), min(int(fy), ny - 2)
        u, v = fx - i, fy - j
        g = self.grid
        return float((1 - u) * (1 - v) * g[j, i] + u * (1 - v) * g[j, i + 1]
                     + (1 - u) * v * g[j + 1, i] + u * v * g[j + 1, i + 1])


@dataclass
class _Remote:
    view: CameraView
    heard_s: float


class RemoteCameras:
    """The settled readings that cameras on other devices send to a served table, fused.

    `receive` keeps each camera's latest reading; a camera not heard from for `stale_s` no
    longer counts and its half is named unwatched, as in `companion watch A B`. Only readings
    arrive, never pictures."""

    def __init__(self, game: str, layout: object, clock: Callable[[], float],
                 stale_s: float = STALE_S) -> None:
        self.game = game
        self.zones = zone_centres(layout)
        self.height_mm = float(getattr(layout, "height_mm", 0.0) or 0.0)
        self.clock = clock
        self.stale_s = stale_s
        self._cameras: dict[str, _Remote] = {}
        self._seq = 0
        self._lock = threading.RLock()  # cameras post from the server's threads

    def receive(self, camera: str, snapshot: TableSnapshot | None,
                grid: Sequence[Sequence[float]] | None,
                anchors: Sequence[tuple[float, float]] | None) -> FusedTable:
        with self._lock:
            if camera not in self._cameras and len(self._cameras) >= MAX_CAMERAS:
                raise ValueError(f"at most {MAX_CAMERAS} cameras join one table")
            clarity = None if grid is None else GridClarity(grid)
            view = CameraView(camera, snapshot, clarity, True,
                              None if anchors is None else tuple(anchors))
            self._cameras[camera] = _Remote(view, self.clock())
            return self.fused()

    def fused(self) -> FusedTable:
        with self._lock:
            now = self.clock()
            views = [replace(r.view, live=now - r.heard_s <= self.stale_s)
                     for r in self._cameras.values()]
            self._seq += 1
            return fuse(views, self.game, self.zones, self.height_mm, self._seq, now)

    def status(self) -> list[dict[str, object]]:
        """Per camera: live or not, when last heard, what it read (cards, dice) and the halves
        of the mat it sees clearly enough to read (`halves`)."""
        with self._lock:
            now = self.clock()
            return [{"camera": name, "live": now - r.heard_s <= self.stale_s,
                     "heard_s_ago": round(now - r.heard_s, 1),
                     "cards": len(r.view.snapshot.cards) if r.view.snapshot else 0,
                     "dice": len(r.view.snapshot.dice) if r.view.snapshot else 0,
                     "halves": list(mostly(watched_by(r.view, self.zones), self.zones,
                                           self.height_mm))}
                    for name, r in sorted(self._cameras.items())]

    def watched(self, leave_out: str | None = None) -> set[str]:
        """The zones some live camera (but `leave_out`) sees clearly enough to read."""
        with self._lock:
            now = self.clock()
            return set().union(*(watched_by(r.view, self.zones)
                                 for name, r in self._cameras.items()
                                 if name != leave_out and now - r.heard_s <= self.stale_s))
