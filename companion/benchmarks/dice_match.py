"""Which die the camera reported is which real die, for dice that carry no name.

ArUco die stickers name their die, so a reported `p1.w3` is the real `p1.w3`. Value stickers
and pip dice carry only a value and a colour; the companion names them by colour, side and
place (`companion.vision.pips.PipDiceNamer`), which is all the rules need, so its `p1.w3` may
be the real `p1.w1`. Scoring those by name would count right values as wrong; here a
reported die is paired with the real die of the same player and colour nearest to it, within
`SAME_DIE_MM`: at a laptop's steep angle the eye places a die's top up to 22 mm off (measured
on the realistic simulator, laptop with a mirror clip at 28 cm; ArUco dice are placed the same
way but scored by name alone), and two dice of one player and colour seldom lie closer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

SAME_DIE_MM = 25.0
IDENTITY_FREE_STYLES = frozenset({"values", "pips"})


def die_group(name: str) -> str:
    """The player and colour of a die name: "p1.w" for "p1.w3"."""
    player, rest = name.split(".", 1)
    return f"{player}.{rest[:1]}"


def pair_dice(seen: Sequence[tuple[str, float | None, float | None]],
              real: Sequence[tuple[str, float | None, float | None]]) -> dict[int, str]:
    """Index into `seen` -> the real die's name, for (name, x mm, y mm) entries: same player
    and colour, nearest pairs first, each real die at most once, within SAME_DIE_MM."""
    pairs = []
    for i, (name, x, y) in enumerate(seen):
        for real_name, rx, ry in real:
            if x is None or y is None or rx is None or ry is None:
                continue
            if die_group(name) != die_group(real_name):
                continue
            dist = math.hypot(x - rx, y - ry)
            if dist <= SAME_DIE_MM:
                pairs.append((dist, i, real_name))
    out: dict[int, str] = {}
    taken: set[str] = set()
    for _, i, real_name in sorted(pairs):
        if i not in out and real_name not in taken:
            out[i] = real_name
            taken.add(real_name)
    return out
