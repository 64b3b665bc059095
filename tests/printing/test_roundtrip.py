"""Print -> render (pdftoppm) -> detect: the PDFs hold exactly the markers meant, where meant.

Each case renders one sheet at the lowest resolution that still proves the point: stickers and
die faces must decode at 60-72 dpi (coarser than any printer), mats are measured at 100 dpi
(0.25 mm per pixel) against the 0.5 mm tolerance.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.cardsets import load_cardset, load_deck
from companion.markers.payload import BackPayload, FrontPayload, decode, decode_aruco
from companion.printing.furniture import SCALE_BAR_THICK_MM, scale_bar_position
from companion.printing.jobs import PrintJob, dice_job, mat_job, sticker_job
from companion.printing.sheet import Sheet
from companion.printing.sizes import SCALE_BAR_MM
from companion.vision.detect import Detection, Detector
from tests.printing.render import px_to_mm, render_page

MAT_DPI = 100
POSITION_TOLERANCE_MM = 1.0
MAT_TOLERANCE_MM = 0.5


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(backend="zxing")


def decoded_on_page(
    job: PrintJob, pdf: Path, page: int, dpi: int, detector: Detector
) -> tuple[Sheet, list[Detection]]:
    image = render_page(pdf, page, dpi)
    return job.sheets[page - 1], detector.detect(image)


def assert_same_markers(sheet: Sheet, found: list[Detection], dpi: int, kinds: set[str]) -> None:
    """Every marker meant is read once, near its place; nothing else is read."""
    meant: dict[str, list[np.ndarray]] = {}
    for m in sheet.markers():
        meant.setdefault(m.text, []).append(np.array(m.centre_mm))
    seen: dict[str, list[np.ndarray]] = {}
    for d in found:
        if d.kind in kinds:
            text = d.text.removeprefix("aruco:") if d.kind == "aruco" else d.text
            seen.setdefault(text, []).append(px_to_mm(d.centre, dpi))
    assert not [d for d in found if d.kind == "unknown"]
    assert {t: len(v) for t, v in seen.items()} == {t: len(v) for t, v in meant.items()}
    for text, centres in meant.items():
        for centre in centres:
            nearest = min(float(np.linalg.norm(c - centre)) for c in seen[text])
            assert nearest < POSITION_TOLERANCE_MM, (text, centre, nearest)


def test_sticker_sheets_decode_to_the_intended_cards(tmp_path: Path, detector: Detector) -> None:
    job = sticker_job("creature-crush", ["glutlager"])  # one camp: 20 fronts, 20 backs
    pdf = tmp_path / "stickers.pdf"
    job.write(pdf)
    assert len(job.sheets) == 2
    cards = load_cardset("creature-crush")
    fronts, found = decoded_on_page(job, pdf, 1, 72, detector)
    assert_same_markers(fronts, found, 72, {"front"})
    uids = set()
    for d in found:
        meaning = decode(d.text)
        assert isinstance(meaning, FrontPayload) and meaning.game_code == 5
        uids.add(f"{cards.by_number(meaning.number).id}#{meaning.copy}")
    assert uids == {f"{card_id}#1" for card_id in load_deck("creature-crush", "glutlager").cards}
    backs, found = decoded_on_page(job, pdf, 2, 72, detector)
    assert_same_markers(backs, found, 72, {"back"})
    serials = sorted(p.serial for d in found if isinstance(p := decode(d.text), BackPayload))
    assert serials == list(range(25001, 25021))  # default: game code x 5000 + 1


def test_dice_sheet_decodes_to_every_face(tmp_path: Path, detector: Detector) -> None:
    job = dice_job(None, faces="ids")  # every game: Creature Crush dice, the Challengers! flag
    pdf = tmp_path / "dice.pdf"
    job.write(pdf)
    assert len(job.sheets) == 1
    sheet, found = decoded_on_page(job, pdf, 1, 60, detector)
    assert_same_markers(sheet, found, 60, {"aruco"})
    meanings = [decode_aruco(int(m.text)) for m in sheet.markers()]
    faces = {(m.die, m.value) for m in meanings if m.kind == "die"}
    assert len(faces) == 20 * 6
    assert {m.die for m in meanings if m.kind == "die"} == {
        f"{p}.{k}{n}" for p in ("p1", "p2") for k in "wr" for n in range(1, 6)
    }
    assert [m.token for m in meanings if m.kind == "token"] == ["flag", "flag"]


@pytest.mark.parametrize("game", ["creature-crush", "my-little-pony-ccg"])
def test_mat_corner_markers_measure_back_within_half_a_millimetre(
    game: str, tmp_path: Path, detector: Detector
) -> None:
    from companion.layouts import load_layout

    layout = load_layout(game)
    job = mat_job(game, "a3")
    pdf = tmp_path / "mat.pdf"
    job.write(pdf)
    expected = {str(c.marker_id): np.array([c.x_mm, c.y_mm]) for c in layout.corners}
    measured: dict[str, np.ndarray] = {}
    for page, tile in enumerate(job.tiles, start=1):
        if not tile.sheet.markers():
            continue
        image = render_page(pdf, page, MAT_DPI)
        for d in detector.detect(image):
            if d.kind == "aruco":
                on_sheet = px_to_mm(d.centre, MAT_DPI)
                measured[str(d.marker_id)] = on_sheet + np.array([tile.mat_x_mm, tile.mat_y_mm])
    assert set(measured) == set(expected)
    for marker_id, centre in expected.items():
        assert np.linalg.norm(measured[marker_id] - centre) < MAT_TOLERANCE_MM, marker_id


def test_scale_bar_is_100_mm_on_the_rendered_sheet(tmp_path: Path) -> None:
    job = mat_job("creature-crush", "a4")
    pdf = tmp_path / "mat.pdf"
    job.write(pdf)
    image = render_page(pdf, 1, MAT_DPI)
    x_mm, y_mm = scale_bar_position(job.sheets[0].height_mm)
    row = int((y_mm + SCALE_BAR_THICK_MM / 2) * MAT_DPI / 25.4)
    dark = np.flatnonzero(image[row] < 128)
    start = int(x_mm * MAT_DPI / 25.4) - 2
    run = dark[dark >= start]
    gaps = np.flatnonzero(np.diff(run) > 1)
    bar_px = (run[gaps[0]] if gaps.size else run[-1]) - run[0] + 1
    assert abs(bar_px * 25.4 / MAT_DPI - SCALE_BAR_MM) < MAT_TOLERANCE_MM


def test_value_sticker_sheet_reads_as_every_value_and_colour(tmp_path: Path,
                                                             detector: Detector) -> None:
    """Creature Crush's value stickers (white ones, red ones printed black), the flag token
    and two counter dice (ArUco die stickers): each reads as what its label says."""
    from companion.vision.detect import DICE_ARUCO
    from companion.vision.value_dice import ValueFaceReader, value_face_of

    job = dice_job("creature-crush", counters=1, faces="values")
    pdf = tmp_path / "dice.pdf"
    job.write(pdf)
    assert len(job.sheets) == 1 and "22 dice, 132 face stickers" in job.summary
    dpi = 60
    image = render_page(pdf, 1, dpi)
    values = job.sheets[0].markers()
    meant = sorted((m.text, *np.round(np.array(m.centre_mm))) for m in values
                   if m.kind == "value")
    assert len(meant) == 20 * 6
    assert {t for t, _, _ in meant} == {f"{c} {v}" for c in ("white", "red")
                                         for v in range(1, 7)}
    found, _ = ValueFaceReader(DICE_ARUCO).read(image)
    read = []
    for d in found:
        face = value_face_of(d)
        assert face is not None
        x, y = px_to_mm(d.centre, dpi)
        read.append((face.label, round(float(x)), round(float(y))))
    assert len(read) == len(meant)
    for label, x, y in read:
        near = [m for m in meant if m[0] == label and abs(m[1] - x) <= 1 and abs(m[2] - y) <= 1]
        assert near, (label, x, y)
    counters = {decode_aruco(int(d.text.removeprefix("aruco:"))).die
                for d in detector.detect(image) if d.kind == "aruco"
                and decode_aruco(int(d.text.removeprefix("aruco:"))).kind == "die"}
    assert counters == {"p1.c1", "p2.c1"}
