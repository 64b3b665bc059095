"""Stand-ins for the camera side of a table: a mat fit sharp at one edge, a settled table of
cards and dice in one zone. Shared by the tests of joined cameras and the page's camera view."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from companion.layouts import load_layout
from companion.server.table_cameras import TableCameras
from companion.snapshot import SeenCard, SeenDie, TableSnapshot

GAME = "creature-crush"


def near(edge_y: float) -> Any:
    """A fake mat fit: sharp at the mat's edge y = edge_y, soft at the other."""
    return SimpleNamespace(px_per_mm=lambda x, y: 0.5 + 1.2 * (1 - abs(y - edge_y) / 400))


def table(cards: int, dice: int) -> TableSnapshot:
    """`cards` Creature Crush cards in Bo's C1 and `dice` of his start dice."""
    return TableSnapshot(GAME, cards=tuple(SeenCard(f"CC-00{k}#1", "p2.C1", x_mm=100.0 + k,
                                                    y_mm=40.0) for k in range(cards)),
                         dice=tuple(SeenDie(f"p2.w{k + 1}", 3, "p2.dice") for k in range(dice)))


def page_with_cameras(session: Any) -> tuple[Any, TableCameras, list[float]]:
    """The table page's app for `session` with the table's cameras on it, and the cameras'
    clock (`now[0]`, seconds) that a test moves on by hand."""
    from tests.server.conftest import make_app

    now = [100.0]
    cameras = TableCameras(GAME, load_layout(GAME), lambda *_: None, lambda: now[0])
    app = make_app(session)
    app.extensions["companion.cameras"] = cameras.hub
    app.extensions["companion.table_cameras"] = cameras
    return app, cameras, now
