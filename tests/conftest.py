"""Shared fixtures: paths to the repository's data and to ../shared."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import companion.games  # noqa: F401  (the game registry: fills the engine's and cardsets' hooks)

# CI runs the same hypothesis examples every time (a red CI run can be reproduced, and a
# green one is not luck); on a developer's machine new examples are explored on every run.
# No deadline anywhere: speed is measured by `companion bench`, and a busy 2-core machine
# makes a single slow example (first cardset load, a cold cache) no bug.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# the tests never read or write the real ~/.companion (its games or the user's own cardsets)
os.environ["COMPANION_HOME"] = tempfile.mkdtemp(prefix="companion-home-")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--bless` rewrites the golden playthroughs (tests/test_playthroughs.py) instead of
    comparing with them; without it a missing or different file fails."""
    parser.addoption("--bless", action="store_true", default=False,
                     help="rewrite tests/playthroughs/*.txt from the current rules")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside the checkout")
    return SHARED


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--autoplay-policy=no-user-gesture-required"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for every page test of a test process: Playwright's sync API
    refuses a second `sync_playwright()` while one is open in the same process, so the page
    tests of every folder share this one (each opens its own context)."""
    if not CHROMIUM.exists():
        pytest.skip("needs /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()
