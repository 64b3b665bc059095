"""One mutant as a patch that can be put into a copy of the package and tested there.

mutmut shows a mutant as a diff of one function; a `Patch` keeps the file, the function and the
one line it changes, and `broken_copy` lays the package with that line changed into a temporary
folder (with the tests and the data folders), where `fails` runs chosen tests against it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ("cardsets", "calibration", "web", "docs")


@dataclass(frozen=True)
class Patch:
    """`old` (one stripped line) becomes `new` in `function` of `path`."""

    name: str
    path: str
    function: str
    old: str
    new: str

    @classmethod
    def from_mutmut(cls, name: str, diff: str) -> Patch | None:
        """The patch of a mutmut mutant, or None when it changes more than one line."""
        removed = [line[1:] for line in diff.splitlines()
                   if line.startswith("-") and not line.startswith("---")]
        added = [line[1:] for line in diff.splitlines()
                 if line.startswith("+") and not line.startswith("+++")]
        path = next((line[4:].strip() for line in diff.splitlines() if line.startswith("--- ")),
                    None)
        if path is None or len(removed) != 1 or len(added) != 1:
            return None
        function = re.sub(r"__mutmut_\d+$", "", name.rsplit(".", 1)[-1])
        function = function.split("ǁ")[-1] if "ǁ" in function else function.removeprefix("x_")
        return cls(name, path, function, removed[0].strip(), added[0].strip())

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    def apply(self, source: str) -> str:
        """`source` with the line changed inside the function (ValueError when not there)."""
        lines = source.splitlines(keepends=True)
        start = next((i for i, line in enumerate(lines)
                      if re.match(rf"\s*(async\s+)?def {re.escape(self.function)}\(", line)), None)
        if start is None:
            raise ValueError(f"{self.path}: no function {self.function}")
        indent = len(lines[start]) - len(lines[start].lstrip())
        end = next((i for i in range(start + 1, len(lines))
                    if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) <= indent
                    and not lines[i].lstrip().startswith((")", "]", "}", "#"))), len(lines))
        hits = [i for i in range(start, end) if lines[i].strip() == self.old]
        if len(hits) != 1:
            raise ValueError(f"{self.path}:{self.function}: {len(hits)} lines read {self.old!r}")
        line = lines[hits[0]]
        lead = line[: len(line) - len(line.lstrip())]
        lines[hits[0]] = lead + self.new + ("\n" if line.endswith("\n") else "")
        return "".join(lines)


@contextmanager
def broken_copy(patch: Patch) -> Iterator[Path]:
    """A temporary copy of the package with `patch` applied, beside the tests and data."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        root = Path(tmp)
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(ROOT / "companion", root / "companion", ignore=ignore)
        shutil.copytree(ROOT / "tests", root / "tests", ignore=ignore)
        shutil.copy2(ROOT / "pyproject.toml", root / "pyproject.toml")
        for name in DATA:
            if (ROOT / name).exists():
                (root / name).symlink_to(ROOT / name)
        target = root / patch.path
        target.write_text(patch.apply(target.read_text(encoding="utf-8")), encoding="utf-8")
        yield root


def fails(root: Path, tests: list[str]) -> str | None:
    """Run `tests` in `root`; the first failing test's id, or None when all pass."""
    env = {**os.environ, "CI": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--hypothesis-profile=ci", *tests],
        cwd=root, env=env, capture_output=True, text=True, check=False,
    )
    if out.returncode == 0:
        return None
    found = re.search(r"^FAILED (\S+)", out.stdout, flags=re.M)
    if found:
        return found.group(1)
    return "error: " + (out.stdout + out.stderr).strip().splitlines()[-1][:200]


def killing_test(patch: Patch, covering: list[str]) -> str | None:
    """The first of the `covering` tests that fails with `patch` applied (None: none does)."""
    try:
        with broken_copy(patch) as root:
            found = fails(root, covering[:400])
    except ValueError:
        return None
    return found if found is not None and not found.startswith("error") else None
