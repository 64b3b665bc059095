"""Where the data folders live, both in a source checkout and in an installed wheel.

The wheel carries `cardsets/`, `calibration/` and `web/` under `companion/_data/`; a checkout
(editable install) keeps them at the repository root. Code asks here and never guesses.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder `name` (cardsets, calibration, web) wherever it was installed."""
    bundled = _PACKAGE / "_data" / name
    if bundled.is_dir():
        return bundled
    checkout = _PACKAGE.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"data folder {name!r} not found (looked in {bundled} and {checkout})")


def cardsets_dir() -> Path:
    return data_dir("cardsets")


def calibration_dir() -> Path:
    return data_dir("calibration")


def web_dir() -> Path:
    return data_dir("web")


def companion_home() -> Path:
    """The companion's own folder for this user (`COMPANION_HOME`, default ~/.companion):
    the game library and the user's own cardsets live here."""
    import os

    return Path(os.environ.get("COMPANION_HOME") or Path.home() / ".companion")


def user_cardsets_dir() -> Path:
    """Where `cardset import` writes a player's own card lists (one folder per game); every
    command reads them together with the bundled cardsets."""
    return companion_home() / "cardsets"
