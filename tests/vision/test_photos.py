"""Real photographs (../shared/photos): each decoder backend reads at least its measured floor,
and nothing at all is reported on the false-positive images."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.vision.detect import Detection
from companion.vision.photo_check import (
    PhotoCase,
    PhotoResult,
    collect_cases,
    evaluate,
    format_table,
    summary_rows,
    text_matches,
)

# Measured 2026-11-21 (zxing-cpp 3.1.1, pyzbar 0.1.9, OpenCV 5.0): 216 / 164 / 88 / 219 of 235.
FLOORS = {"zxing": 212, "pyzbar": 160, "opencv": 84, "combined": 216}
MICRO_QR_FLOOR = 15  # of 16 in microqrcode-1; only zxing reads Micro QR


@pytest.fixture(scope="module")
def results(shared_dir: Path) -> list[PhotoResult]:
    photos = shared_dir / "photos"
    if not photos.is_dir():
        pytest.skip("../shared/photos is missing")
    return evaluate(collect_cases(photos))


def _read(results: list[PhotoResult], backend: str) -> int:
    real = [r for r in results if r.case.expected is not None]
    if backend == "combined":
        return sum(r.combined for r in real)
    return sum(r.read_by[backend] for r in real)


@pytest.mark.parametrize("backend", sorted(FLOORS))
def test_each_backend_reads_at_least_its_floor(results: list[PhotoResult], backend: str) -> None:
    assert _read(results, backend) >= FLOORS[backend], format_table(summary_rows(results))


def test_micro_qr_photos_read_by_zxing(results: list[PhotoResult]) -> None:
    micro = [r for r in results if r.case.group == "microqrcode-1"]
    assert len(micro) >= MICRO_QR_FLOOR
    assert sum(r.read_by["zxing"] for r in micro) >= MICRO_QR_FLOOR
    assert not any(r.read_by["pyzbar"] for r in micro)


def test_false_positive_images_report_nothing(results: list[PhotoResult]) -> None:
    negatives = [r for r in results if r.case.expected is None]
    assert len(negatives) >= 20
    noisy = {r.case.image.name: r.reported for r in negatives if any(r.reported.values())}
    assert noisy == {}


def test_summary_table_lists_every_folder(results: list[PhotoResult]) -> None:
    table = format_table(summary_rows(results))
    assert table.splitlines()[0].split() == ["folder", "images", "zxing", "pyzbar", "opencv",
                                             "combined"]
    assert "microqrcode-1" in table and "all with expected text" in table


def _detection(text: str, raw: bytes) -> Detection:
    return Detection("unknown", text, np.zeros((4, 2)), 1.0, "test", raw=raw)


def test_comparison_is_the_same_for_text_and_binary_payloads() -> None:
    assert text_matches(b"hello", _detection("hello", b"hello"))
    assert text_matches("Grüße".encode(), _detection("Grüße", b""))
    binary = bytes([0x8D, 0x00, 0xFF])
    assert text_matches(binary, _detection("\x8d\x00\xff", binary))
    assert text_matches(binary, _detection(binary.decode("latin-1"), b""))
    assert not text_matches(b"hello", _detection("hell0", b"hell0"))


def test_collect_cases_pairs_images_with_expected_text(tmp_path: Path) -> None:
    (tmp_path / "set").mkdir()
    (tmp_path / "falsepositives-x").mkdir()
    for name in ("a.png", "b.png", "c.png"):
        (tmp_path / "set" / name).write_bytes(b"")
    (tmp_path / "set" / "a.txt").write_text("alpha")
    (tmp_path / "set" / "c.result.txt").write_text("ecLevel=M\ntext=gamma\n")
    (tmp_path / "falsepositives-x" / "n.jpg").write_bytes(b"")
    cases = collect_cases(tmp_path)
    assert cases == [
        PhotoCase(tmp_path / "falsepositives-x" / "n.jpg", "falsepositives-x", None),
        PhotoCase(tmp_path / "set" / "a.png", "set", b"alpha"),
        PhotoCase(tmp_path / "set" / "c.png", "set", b"gamma"),
    ]
