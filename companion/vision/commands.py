"""`companion scan` (every marker in a photo) and `companion calibrate` (camera placement)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import numpy as np

from companion.errors import CompanionError
from companion.games import GAMES, game_by_code
from companion.markers.dice_sets import DICE_MODE_HELP, DICE_MODES
from companion.markers.dice_sets import dice_mode as dice_mode_named
from companion.markers.payload import BackPayload, FrontPayload
from companion.markers.value_faces import takes_value_stickers
from companion.vision.decoders import BACKENDS
from companion.vision.decoders.bigcell import Allowed
from companion.vision.detect import DICE_ARUCO, Detection, Detector, detect_oriented
from companion.vision.geometry import GeometryError, MatGeometry, load_camera_profile
from companion.vision.sources import read_image
from companion.vision.twin_stickers import shows_twin_pair, sticker_below_mm
from companion.vision.value_dice import (
    ValueDice,
    ValueFaceReader,
    value_face_of,
)

GAME_IDS = list(GAMES)
LOOKALIKE = "decoded as one die face, its cells look more like another: not trusted"


def _card_meaning(game_code: int, number: int, copy: int) -> str:
    from companion.cardsets import load_cardset

    try:
        game = game_by_code(game_code)
    except CompanionError:
        return f"card number {number} copy {copy} of unknown game code {game_code}"
    try:
        card = load_cardset(game.id).by_number(number)
    except CompanionError:
        return f"{game.id} card number {number} (not in the cardset) copy {copy}"
    return f"{game.id} card {card.id} {card.name!r} copy {copy}"


def describe(detection: Detection) -> str:
    """What a marker means, in words."""
    payload, aruco = detection.payload, detection.aruco
    if isinstance(payload, FrontPayload):
        return _card_meaning(payload.game_code, payload.number, payload.copy)
    if isinstance(payload, BackPayload):
        return f"card back, serial {payload.serial}"
    face = value_face_of(detection)
    if face is not None:
        return f"{'red' if face.kind == 'r' else 'white'} die showing {face.value}"
    if aruco is not None:
        if aruco.kind == "die":
            return f"die {aruco.die} showing {aruco.value}"
        if aruco.kind == "corner":
            return f"mat corner {aruco.corner} (game code {aruco.game_code})"
        return f"token {aruco.token}"
    return "not a companion marker"


def _infer_game(detections: Sequence[Detection]) -> str | None:
    """The game whose mat corners (else card fronts) are seen most."""
    codes = Counter(
        d.aruco.game_code for d in detections if d.aruco and d.aruco.kind == "corner"
    )
    if not codes:
        codes = Counter(
            d.payload.game_code for d in detections if isinstance(d.payload, FrontPayload)
        )
    for code, _ in codes.most_common():
        if code is None:
            continue
        try:
            return game_by_code(code).id
        except CompanionError:
            continue
    return None


def _payloads_of(layout: Any) -> Allowed | None:
    """The sticker payloads that can lie on this layout's table (None: its corner markers name
    no known game, so nothing is read softly)."""
    from companion.vision.pipeline import layout_game_code
    from companion.vision.zone_reading import table_payloads

    try:
        return table_payloads(layout_game_code(layout))
    except GeometryError:
        return None


def scan_image(path: Path, game: str | None, backend: str, mirror: bool | None = None,
               dice: str | None = None) -> dict[str, Any]:
    """Everything `companion scan` reports about one photo, as plain data.

    With the mat located, die faces are judged as the live pipeline judges them: only the top
    face of a die the game uses gives a value; side faces and strangers are said to be such.
    """
    from companion.games import game_dice
    from companion.layouts import load_layout
    from companion.vision.dice import DROP_REASONS, TopFaceFilter
    from companion.vision.dice_magnifier import DiceMagnifier
    from companion.vision.dice_retry import FaceTemplates
    from companion.vision.top_from_side import tops_from_sides
    from companion.vision.zone_reading import read_unread_zones

    gray = read_image(path)
    corner_ids = None
    allowed = None
    if game is not None:
        layout = load_layout(game)
        corner_ids = {int(c.marker_id) for c in layout.corners}
        allowed = _payloads_of(layout)
    gray, detections, mirrored = detect_oriented(
        Detector(backend=backend, read_qr=True, allowed=allowed), gray, mirror, corner_ids)
    if game is None and (game := _infer_game(detections)) is not None:
        # the game known now: the stickers that did not read cleanly are read softly too
        layout = load_layout(game)
        allowed = _payloads_of(layout)
        if allowed is not None:
            detections = Detector(backend=backend, read_qr=True, allowed=allowed).detect(gray)
    geometry: MatGeometry | None = None
    mat_note = "no game known: give --game to place markers on the mat"
    die_notes: dict[int, str] = {}
    if game is not None:
        try:
            geometry = MatGeometry.fit(detections, layout)
            mat_note = f"{game} mat located from {geometry.markers_used} corner marker(s)"
        except GeometryError as exc:
            mat_note = f"{game}: {exc}"
        if geometry is not None and allowed is not None:
            # card zones with no sticker read: a sticker whose square a die, a neighbour or
            # the lamp's reflection broke, found on the mat's plane (as the live pipeline does)
            detections.extend(read_unread_zones(gray, geometry, layout, detections, allowed))
        if geometry is not None:
            height, width = gray.shape[:2]
            mat_size = (float(layout.width_mm), float(layout.height_mm))
            value_names = ([d for d in game_dice(game) if takes_value_stickers(d)]
                           if dice_mode_named(dice) == "values" else [])
            faces, _ = ValueFaceReader(DICE_ARUCO).read(gray) if value_names else ([], [])
            named = sorted(set(game_dice(game)) - set(value_names))
            # as live: small faces read in magnified tiles, a face decoded as a lookalike
            # refused, and the tops of dice read only by side faces looked for
            templates = FaceTemplates(named)
            detections.extend(DiceMagnifier(DICE_ARUCO, named, templates=templates).read_all(
                gray, detections, geometry, mat_size))
            faces = []
            for det in detections:
                if not templates.agrees(gray, det):
                    die_notes[id(det)] = LOOKALIKE
                else:
                    faces.append(det)
            judge = TopFaceFilter(named)
            tops, dropped = judge.judge(faces, geometry, (width, height), mat_size, (), gray)
            tops += tops_from_sides(gray, faces, tops, dropped, judge, geometry,
                                    (width, height), templates)
            for verdict in dropped:
                die_notes[id(verdict.detection)] = DROP_REASONS[verdict.reason]
            for top in tops:
                if not any(top.detection is d for d in detections):
                    detections.append(top.detection)  # matched where a side face's top lies
                die_notes[id(top.detection)] = ""
            if value_names:
                detections.extend(faces)
                values = ValueDice(value_names, lambda x, y: None, mat_size[1])
                value_tops, value_dropped = values.judge(faces, geometry, (width, height),
                                                         mat_size, (), gray)
                for verdict in value_dropped:
                    die_notes[id(verdict.detection)] = DROP_REASONS[verdict.reason]
                for _, top in value_tops:
                    die_notes[id(top.detection)] = ""
    if mirrored:
        mat_note += "; the picture is mirrored (a mirror clip?) and was read turned back"
    # cards with two stickers (one at each end) are placed at the card's centre, as live
    twin = geometry is not None and shows_twin_pair(detections, geometry)
    markers = []
    for det in sorted(detections, key=lambda d: (d.kind, d.text)):
        meaning = describe(det)
        note = die_notes.get(id(det))
        if note:
            meaning = f"{meaning}? no: {note}"
        entry: dict[str, Any] = {**det.to_dict(), "meaning": meaning}
        if geometry is not None:
            place = geometry.place(det, sticker_below_mm(det, twin))
            entry["mat"] = {
                "x_mm": round(place.x_mm, 1),
                "y_mm": round(place.y_mm, 1),
                "angle_deg": round(place.angle_deg, 1),
                "zone": place.zone,
                "tapped": place.tapped,
            }
        markers.append(entry)
    height, width = gray.shape[:2]
    return {
        "image": str(path),
        "size": [int(width), int(height)],
        "backend": backend,
        "game": game,
        "mirrored": mirrored,
        "twin_stickers": twin,
        "mat": mat_note,
        "markers": markers,
    }


def _format_scan(report: dict[str, Any]) -> str:
    width, height = report["size"]
    lines = [
        f"{report['image']}: {width}x{height}, {len(report['markers'])} marker(s) "
        f"({report['backend']}); {report['mat']}"
    ]
    for m in report["markers"]:
        where = ""
        if "mat" in m:
            mat = m["mat"]
            zone = mat["zone"] or "no zone"
            tapped = ", tapped" if mat["tapped"] else ""
            where = (
                f"  at ({mat['x_mm']:.0f}, {mat['y_mm']:.0f}) mm, {zone}, "
                f"{mat['angle_deg']:.0f} deg{tapped}"
            )
        text = m["text"] if len(m["text"]) <= 24 else m["text"][:21] + "..."
        lines.append(f"  {m['kind']:7} {text:24} {m['meaning']}{where}")
    return "\n".join(lines)


@click.command()
@click.argument("image", required=False, type=click.Path(path_type=Path))
@click.option("--game", type=click.Choice(GAME_IDS), help="Mat to place markers on.")
@click.option("--backend", type=click.Choice(BACKENDS), default="zxing", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option(
    "--photos",
    type=click.Path(path_type=Path),
    help="Instead of IMAGE: rate every decoder on a folder of photos with expected text.",
)
@click.option("--mirror/--no-mirror", default=None,
              help="The photo is (not) mirrored [default: found from the corner markers].")
@click.option("--dice", type=click.Choice(DICE_MODES), default=None, help=DICE_MODE_HELP)
def scan(
    image: Path | None, game: str | None, backend: str, as_json: bool, photos: Path | None,
    mirror: bool | None, dice: str | None,
) -> None:
    """Find every marker in a photo: kind, payload, meaning, corners, mat position and zone."""
    if photos is not None:
        _scan_photos(photos, as_json)
        return
    if image is None:
        raise click.UsageError("give an IMAGE (or --photos DIR)")
    report = scan_image(image, game, backend, mirror, dice)
    click.echo(json.dumps(report, indent=2, ensure_ascii=False) if as_json else
               _format_scan(report))


def _scan_photos(folder: Path, as_json: bool) -> None:
    from companion.vision.photo_check import (
        collect_cases,
        evaluate,
        format_table,
        summary_rows,
    )

    rows = summary_rows(evaluate(collect_cases(folder)))
    if as_json:
        header = ["folder", "images", *BACKENDS, "combined"]
        click.echo(json.dumps([dict(zip(header, r, strict=True)) for r in rows], indent=2))
    else:
        click.echo(format_table(rows))


def _format_calibration(report: dict[str, Any]) -> str:
    width, height = report["image_size"]
    kind = "big-cell" if report["stickers"] == "bigcell" else "Micro QR"
    lines = [
        f"{report['game']} mat, frame {width}x{height}, corner markers "
        f"{len(report['corners_seen'])}/4, camera tilt {report['tilt_deg']:.0f} deg "
        f"({report['tilt_verdict']})" + (", mirrored" if report["mirrored"] else ""),
        f"{report['sticker_mm']:g} mm {kind} stickers, pixels per {report['unit']} by zone "
        "(and the share expected to read on one frame):",
    ]
    for zone in sorted(report["zones"], key=lambda z: z["px_per_module"]):
        lines.append(f"  {zone['zone']:16} {zone['px_per_module']:5.2f}  "
                     f"{zone['expected_read']:4.0%}  {zone['verdict']}")
    quality = []
    if report["blur_px"] is not None:
        quality.append(f"blur {report['blur_px']:.1f} px")
    if report["paper_grey"] is not None:
        quality.append(f"white paper at grey {report['paper_grey']:.0f}")
    if report["noise"] is not None:
        quality.append(f"noise {report['noise']:.1f}")
    if quality:
        lines.append("Picture: " + ", ".join(quality) + ".")
    lines.append("Placement " + ("OK." if report["ok"] else
                                 f"needs attention ({', '.join(report['problems'])}):"))
    lines.extend(f"- {a}" for a in report["advice"])
    return "\n".join(lines)


@click.command()
@click.argument("image", type=click.Path(path_type=Path))
@click.option("--game", type=click.Choice(GAME_IDS), required=True, help="The mat in view.")
@click.option("--sticker-mm", type=float, default=None,
              help="Printed symbol side in mm, without margin [default: the mat layout's, 25].")
@click.option("--stickers", type=click.Choice(["bigcell", "microqr"]), default="bigcell",
              show_default=True, help="Which card stickers are printed.")
@click.option("--camera", "camera_file", type=click.Path(path_type=Path),
              help="Camera profile YAML (field of view); default: estimated from the mat.")
@click.option("--mirror/--no-mirror", default=None,
              help="The picture is (not) mirrored [default: found from the corner markers].")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def calibrate(
    image: Path, game: str, sticker_mm: float | None, stickers: str, camera_file: Path | None,
    mirror: bool | None, as_json: bool
) -> None:
    """Check camera placement from one frame of the mat: what will read, what is wrong."""
    from companion.layouts import load_layout
    from companion.vision.calibration import calibrate_frame

    camera = load_camera_profile(camera_file) if camera_file is not None else None
    frame = read_image(image, gray=False)
    layout = load_layout(game)
    size = sticker_mm if sticker_mm is not None else layout.sticker_mm
    report = calibrate_frame(np.asarray(frame), layout, size, camera,
                             stickers="bigcell" if stickers == "bigcell" else "microqr",
                             mirror=mirror)
    data = report.to_dict()
    click.echo(json.dumps(data, indent=2) if as_json else _format_calibration(data))
