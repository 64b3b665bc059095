"""Stand-ins for the camera side of a table: a mat fit sharp at one edge, a settled table of
cards and dice in one zone. Shared by the tests of joined cameras and the page's camera view."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

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
