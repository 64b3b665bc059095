"""Render PDF pages to grayscale images with poppler's pdftoppm, as a printer would see them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

MM_PER_INCH = 25.4


def need_pdftoppm() -> None:
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")


def render_page(pdf: Path, page: int, dpi: int) -> np.ndarray:
    """Page `page` (1-based) of `pdf` as a uint8 grayscale image at `dpi`."""
    need_pdftoppm()
    stem = pdf.with_name(f"{pdf.stem}-p{page}-{dpi}")
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-gray",
            "-png",
            "-singlefile",
            str(pdf),
            str(stem),
        ],
        check=True,
        capture_output=True,
    )
    image = cv2.imread(f"{stem}.png", cv2.IMREAD_GRAYSCALE)
    assert image is not None, f"pdftoppm wrote no image for page {page}"
    return image


def px_to_mm(point_px: np.ndarray, dpi: int) -> np.ndarray:
    """Pixel coordinates (pixel centres at .5) to millimetres from the page's top-left."""
    return (np.asarray(point_px, dtype=float) + 0.5) * MM_PER_INCH / dpi


def page_count(pdf: Path) -> int:
    if shutil.which("pdfinfo") is None:
        pytest.skip("pdfinfo (poppler-utils) is not installed")
    out = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True)
    line = next(x for x in out.stdout.splitlines() if x.startswith("Pages:"))
    return int(line.split()[1])
