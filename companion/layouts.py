"""Mat layouts: where each zone of a game lies on its play mat, in mat millimetres.

A card belongs to the zone its FRONT STICKER CENTRE lies in (the sticker sits at the card's
centre), so a zone is the region where a sticker centre may be, and may be smaller than a card:
cards in neighbouring zones may overlap as long as stickers stay clear. Mat coordinates: origin at
the top-left corner as p1 sees it, x to the right, y towards p1 (p1 sits at the bottom edge,
p2 at the top edge).

Layouts live in `calibration/layouts/<game>.yaml`. `player_zones` are written once, for p1;
p2's zones are the same rectangles turned 180 degrees about the mat centre, so each player's
half reads the same from their own seat (p2's "1" slot is at p2's left, i.e. on p1's right).
The file is validated at load: every zone id DESIGN.md names is present, zones lie inside the
mat and do not overlap, and the four corner markers lie outside all zones.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from companion import safeio
from companion.errors import DataFileError
from companion.games import game_info, game_spec
from companion.markers.payload import corner_id
from companion.paths import calibration_dir

KINDS = ("pile", "area", "slot")
"""pile: stacked, only the top card visible; area: cards spread, all visible; slot: one card."""

MAX_MAT_MM = (600.0, 400.0)
PLAYERS = ("p1", "p2")


def required_zones(game: str) -> tuple[str, ...]:
    """The canonical zone ids of `game` (its spec; DESIGN.md "Zone ids")."""
    return game_spec(game).zones


class LayoutError(DataFileError):
    """A mat layout file is missing, malformed or geometrically impossible."""


@dataclass(frozen=True)
class Zone:
    """A rectangle of the mat where sticker centres of one zone's cards lie."""

    id: str
    owner: str  # "p1", "p2" or "shared"
    name: str  # the id without its owner, e.g. "lager"
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    kind: str
    label_en: str
    label_de: str

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x_mm + self.w_mm / 2, self.y_mm + self.h_mm / 2)

    def contains(self, x_mm: float, y_mm: float) -> bool:
        """Half-open, so touching zones never both claim a point."""
        return self.x_mm <= x_mm < self.x_mm + self.w_mm and (
            self.y_mm <= y_mm < self.y_mm + self.h_mm
        )


@dataclass(frozen=True)
class Corner:
    """One ArUco corner marker: index 0..3 clockwise from top-left, centre and side in mm."""

    index: int
    marker_id: int
    x_mm: float
    y_mm: float
    size_mm: float


@dataclass(frozen=True)
class MatLayout:
    game: str
    width_mm: float
    height_mm: float
    card_w_mm: float
    card_h_mm: float
    sticker_mm: float
    zones: dict[str, Zone]
    corners: tuple[Corner, ...]
    description: str = ""

    def zone_at(self, x_mm: float, y_mm: float) -> str | None:
        """The id of the zone a card centred at (x, y) belongs to, or None."""
        for zone in self.zones.values():
            if zone.contains(x_mm, y_mm):
                return zone.id
        return None

    def zones_of(self, owner: str) -> list[Zone]:
        return [z for z in self.zones.values() if z.owner == owner]

    def zone(self, zone_id: str) -> Zone:
        try:
            return self.zones[zone_id]
        except KeyError:
            raise LayoutError(
                f"calibration/layouts/{self.game}.yaml", f"no zone {zone_id!r} on this mat"
            ) from None


# ----- loading --------------------------------------------------------------------------------

_TOP_KEYS = {
    "game", "description", "width_mm", "height_mm", "card_w_mm", "card_h_mm", "sticker_mm",
    "corner_marker_mm", "corner_inset_mm", "player_zones", "shared_zones",
}
_ZONE_KEYS = {"kind", "x_mm", "y_mm", "w_mm", "h_mm", "en", "de"}


def layout_path(game: str) -> Path:
    """The game's own layout file when its spec names one, else calibration/layouts/<game>."""
    own = game_spec(game).layout_file
    return own if own is not None else calibration_dir() / "layouts" / f"{game}.yaml"


@functools.lru_cache(maxsize=16)
def load_layout(game: str) -> MatLayout:
    """The validated mat layout of `game` (cached: layouts are read-only data)."""
    game_info(game)
    return load_layout_file(layout_path(game), game)


def load_layout_file(path: Path, game: str | None = None) -> MatLayout:
    """Read and validate one layout file (for tests and for people editing a mat)."""
    try:
        text = safeio.read_text(path)
    except safeio.UnsafeInputError as exc:
        raise LayoutError(path, f"cannot read layout: {exc}") from None
    return parse_layout(text, path, game)


def parse_layout(text: str, source: object, game: str | None = None) -> MatLayout:
    try:
        safeio.check_yaml(text)
        loader = yaml.SafeLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise LayoutError(source, f"not valid YAML: {getattr(exc, 'problem', exc)}", line) from exc
    if not isinstance(root, yaml.MappingNode):
        raise LayoutError(source, "a layout is a mapping (game, width_mm, zones ...)", 1)
    top = _mapping(root, source)
    unknown = sorted(set(top) - _TOP_KEYS)
    if unknown:
        raise LayoutError(
            source, f"unknown key {unknown[0]!r}; known: {', '.join(sorted(_TOP_KEYS))}",
            _line(top[unknown[0]][0]),
        )
    file_game = _text(top, "game", source)
    if game is not None and file_game != game:
        raise LayoutError(source, f"layout is for {file_game!r}, expected {game!r}",
                          _line(top["game"][1]))
    try:
        game_info(file_game)
    except DataFileError:
        raise
    except ValueError as exc:
        raise LayoutError(source, str(exc), _line(top["game"][1])) from exc
    width = _number(top, "width_mm", source)
    height = _number(top, "height_mm", source)
    if width > MAX_MAT_MM[0] or height > MAX_MAT_MM[1]:
        raise LayoutError(
            source, f"mat {width:g} x {height:g} mm is larger than {MAX_MAT_MM[0]:g} x "
            f"{MAX_MAT_MM[1]:g} mm", _line(top["width_mm"][1]),
        )
    card_w = _number(top, "card_w_mm", source, 63.0)
    card_h = _number(top, "card_h_mm", source, 88.0)
    sticker = _number(top, "sticker_mm", source, 25.0)
    corner_size = _number(top, "corner_marker_mm", source, 40.0)
    inset = _number(top, "corner_inset_mm", source, 5.0)
    corners = _corners(game_info(file_game).code, width, height, corner_size, inset)

    zones: dict[str, Zone] = {}
    lines: dict[str, int] = {}
    for section, owners in (("player_zones", PLAYERS), ("shared_zones", ("shared",))):
        if section not in top:
            continue
        node = top[section][1]
        if not isinstance(node, yaml.MappingNode):
            raise LayoutError(source, f"{section} is a mapping of zone name -> rectangle",
                              _line(node))
        for name, (key_node, zone_node) in _mapping(node, source).items():
            for owner in owners:
                zone = _zone(name, owner, zone_node, source, width, height)
                zones[zone.id] = zone
                lines[zone.id] = _line(key_node)
    _validate(file_game, zones, lines, corners, width, height, source)
    description = _text(top, "description", source) if "description" in top else ""
    return MatLayout(file_game, width, height, card_w, card_h, sticker, zones, corners,
                     description)


def _corners(code: int, width: float, height: float, size: float, inset: float
             ) -> tuple[Corner, ...]:
    c = inset + size / 2
    centres = ((c, c), (width - c, c), (width - c, height - c), (c, height - c))
    return tuple(
        Corner(i, corner_id(code, i), x, y, size) for i, (x, y) in enumerate(centres)
    )


def _zone(name: str, owner: str, node: yaml.Node, source: object, width: float, height: float
          ) -> Zone:
    if not isinstance(node, yaml.MappingNode):
        raise LayoutError(source, f"zone {name!r} must be a mapping {sorted(_ZONE_KEYS)}",
                          _line(node))
    fields = _mapping(node, source)
    unknown = sorted(set(fields) - _ZONE_KEYS)
    if unknown:
        raise LayoutError(source, f"zone {name!r}: unknown key {unknown[0]!r}",
                          _line(fields[unknown[0]][0]))
    kind = _text(fields, "kind", source, where=f"zone {name!r}")
    if kind not in KINDS:
        raise LayoutError(source, f"zone {name!r}: kind must be one of {', '.join(KINDS)}, "
                          f"not {kind!r}", _line(fields["kind"][1]))
    x, y, w, h = (_number(fields, k, source, where=f"zone {name!r}")
                  for k in ("x_mm", "y_mm", "w_mm", "h_mm"))
    if w <= 0 or h <= 0:
        raise LayoutError(source, f"zone {name!r}: width and height must be positive",
                          _line(node))
    if owner == "p2":
        x, y = width - x - w, height - y - h
    return Zone(
        id=f"{owner}.{name}", owner=owner, name=name, x_mm=x, y_mm=y, w_mm=w, h_mm=h,
        kind=kind, label_en=_text(fields, "en", source, where=f"zone {name!r}"),
        label_de=_text(fields, "de", source, where=f"zone {name!r}"),
    )


def _validate(game: str, zones: dict[str, Zone], lines: dict[str, int],
              corners: tuple[Corner, ...], width: float, height: float, source: object) -> None:
    missing = [z for z in required_zones(game) if z not in zones]
    if missing:
        raise LayoutError(source, f"missing zones for {game}: {', '.join(missing)}")
    for zone in zones.values():
        if (zone.x_mm < 0 or zone.y_mm < 0 or zone.x_mm + zone.w_mm > width
                or zone.y_mm + zone.h_mm > height):
            raise LayoutError(source, f"zone {zone.id} does not lie inside the "
                              f"{width:g} x {height:g} mm mat", lines[zone.id])
    ordered = sorted(zones.values(), key=lambda z: lines[z.id])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if _overlap(a.x_mm, a.y_mm, a.w_mm, a.h_mm, b.x_mm, b.y_mm, b.w_mm, b.h_mm):
                raise LayoutError(source, f"zones {a.id} and {b.id} overlap", lines[b.id])
        for corner in corners:
            half = corner.size_mm / 2
            if _overlap(a.x_mm, a.y_mm, a.w_mm, a.h_mm, corner.x_mm - half, corner.y_mm - half,
                        corner.size_mm, corner.size_mm):
                raise LayoutError(source, f"zone {a.id} covers corner marker {corner.index}",
                                  lines[a.id])


def _overlap(ax: float, ay: float, aw: float, ah: float,
             bx: float, by: float, bw: float, bh: float) -> bool:
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


# ----- YAML node helpers ------------------------------------------------------------------------

def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _mapping(node: yaml.MappingNode, source: object) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    result: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise LayoutError(source, "keys must be plain names", _line(key_node))
        key = str(key_node.value)
        if key in result:
            raise LayoutError(source, f"key {key!r} given twice", _line(key_node))
        result[key] = (key_node, value_node)
    return result


def _scalar(node: yaml.Node) -> Any:
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def _text(fields: dict[str, tuple[yaml.Node, yaml.Node]], key: str, source: object,
          where: str = "layout") -> str:
    if key not in fields:
        raise LayoutError(source, f"{where}: {key} is missing")
    node = fields[key][1]
    value = _scalar(node)
    if not isinstance(value, str) or not value.strip():
        raise LayoutError(source, f"{where}: {key} must be text, not {value!r}", _line(node))
    return value


def _number(fields: dict[str, tuple[yaml.Node, yaml.Node]], key: str, source: object,
            default: float | None = None, where: str = "layout") -> float:
    if key not in fields:
        if default is not None:
            return default
        raise LayoutError(source, f"{where}: {key} is missing")
    node = fields[key][1]
    value = _scalar(node)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise LayoutError(source, f"{where}: {key} must be a number of millimetres >= 0, "
                          f"not {value!r}", _line(node))
    return float(value)
