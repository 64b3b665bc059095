"""Real-photo check: how many QR photos each decoder backend reads, and that none hallucinates.

The photo folders (../shared/photos, see its README) hold images beside their expected text
(`NAME.txt`; `NAME.result.txt` may add a `text=` line), and `falsepositives-*` folders with
images where nothing may be found. The same comparison is used for every backend: decoded text
equal to the expected text, or decoded bytes equal to the expected file's bytes, or either
side read as Latin-1 (binary payloads).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import CompanionError
from companion.vision.decoders import BACKENDS
from companion.vision.detect import Detection, Detector
from companion.vision.sources import read_image

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif", ".pgm")
FALSE_POSITIVE_PREFIX = "falsepositives"


class PhotoFolderError(CompanionError):
    """A photo folder that does not exist or holds no usable images."""


@dataclass(frozen=True)
class PhotoCase:
    """One photo; `expected` None means nothing may be detected in it."""

    image: Path
    group: str
    expected: bytes | None


@dataclass
class PhotoResult:
    case: PhotoCase
    read_by: dict[str, bool] = field(default_factory=dict)
    reported: dict[str, list[str]] = field(default_factory=dict)

    @property
    def combined(self) -> bool:
        return any(self.read_by.values())


def _expected_bytes(image: Path) -> bytes | None:
    plain = image.with_suffix(".txt")
    if plain.is_file():
        return plain.read_bytes()
    result = image.with_name(image.stem + ".result.txt")
    if result.is_file():
        for line in result.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("text="):
                return line[len("text="):].encode("utf-8")
    return None


def collect_cases(root: Path) -> list[PhotoCase]:
    """Every image under `root` with an expected text, plus every false-positive image."""
    if not root.is_dir():
        raise PhotoFolderError(f"photo folder not found: {root}")
    cases = []
    for image in sorted(root.rglob("*")):
        if image.suffix.lower() not in IMAGE_SUFFIXES or not image.is_file():
            continue
        group = str(image.parent.relative_to(root)) if image.parent != root else root.name
        if image.parent.name.startswith(FALSE_POSITIVE_PREFIX):
            cases.append(PhotoCase(image, group, None))
            continue
        expected = _expected_bytes(image)
        if expected is not None:
            cases.append(PhotoCase(image, group, expected))
    if not cases:
        raise PhotoFolderError(f"no images with expected text under {root}")
    return cases


def text_matches(expected: bytes, detection: Detection) -> bool:
    """The one comparison used for every backend (text, bytes, or Latin-1 either way)."""
    text = detection.text
    raw = detection.raw
    candidates = {expected.decode("utf-8", errors="replace"), expected.decode("latin-1")}
    if text in candidates or (raw and raw == expected):
        return True
    if raw and raw.decode("latin-1") in candidates:
        return True
    try:
        return text.encode("latin-1") == expected
    except UnicodeEncodeError:
        return False


def evaluate(
    cases: Iterable[PhotoCase], backends: Sequence[str] = BACKENDS
) -> list[PhotoResult]:
    """Run each backend (QR and Micro QR, plus ArUco) on every photo."""
    detectors = {name: Detector(backend=name, read_qr=True) for name in backends}
    results = []
    for case in cases:
        gray = read_image(case.image)
        result = PhotoResult(case)
        for name, detector in detectors.items():
            found = detector.detect(gray)
            result.reported[name] = [d.text for d in found]
            if case.expected is None:
                result.read_by[name] = False
            else:
                result.read_by[name] = any(text_matches(case.expected, d) for d in found)
        results.append(result)
    return results


def summary_rows(
    results: Sequence[PhotoResult], backends: Sequence[str] = BACKENDS
) -> list[list[str]]:
    """Table rows: group, images, read by each backend, combined (false positives: reports)."""
    groups: dict[str, list[PhotoResult]] = {}
    for result in results:
        groups.setdefault(result.case.group, []).append(result)
    rows = []
    totals = [0] * (len(backends) + 2)
    for group, members in sorted(groups.items()):
        if members[0].case.expected is None:
            reports = [sum(bool(r.reported.get(b)) for r in members) for b in backends]
            rows.append(
                [f"{group} (images with any report)", str(len(members))]
                + [str(n) for n in reports]
                + [str(sum(any(r.reported.get(b) for b in backends) for r in members))]
            )
            continue
        counts = [len(members)]
        counts += [sum(r.read_by.get(b, False) for r in members) for b in backends]
        counts.append(sum(r.combined for r in members))
        totals = [t + c for t, c in zip(totals, counts, strict=True)]
        rows.append([group, *(str(c) for c in counts)])
    rows.append(["all with expected text", *(str(t) for t in totals)])
    return rows


def format_table(rows: Sequence[Sequence[str]], backends: Sequence[str] = BACKENDS) -> str:
    header = ["folder", "images", *backends, "combined"]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                         strict=True)]
        lines.append("  ".join(cells))
    return "\n".join(lines)
