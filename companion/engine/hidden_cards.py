"""Reading cards the camera no longer sees: an open pile's top taken off, a face-down card gone.

A pile shows only its top card and a face-down card only its back, so a card leaving either
is seen only as what shows instead. These helpers let each game tell that apart from a card
laid on top, and name the face-down card a vanished back stood for.
"""

from __future__ import annotations

from companion.engine.snapshot_diff import SnapshotDiff
from companion.engine.state import GameState
from companion.snapshot import SeenCard


def top_taken_off(state: GameState, diff: SnapshotDiff, card: SeenCard) -> bool:
    """An open pile's top card gone while the card now on top is one the rules hold beneath
    it in the same pile: the top was taken off, not covered by a card laid on it."""
    top = next((c.uid for c in diff.appeared if c.zone == card.zone), None)
    pile = state.zones.get(card.zone, [])
    return top is not None and top in pile and card.uid in pile and \
        pile.index(top) < pile.index(card.uid)


def face_down_behind(state: GameState, back: str, zone: str, taken: set[str]) -> str | None:
    """The face-down card a vanished back showed: the one the camera saw laid with it, else
    (laid before the companion watched) a face-down card of that zone with no back known and
    not already `taken`."""
    hidden = state.backs.get(back)
    if hidden is not None:
        return hidden if state.where.get(hidden) == zone else None
    known = set(state.backs.values())
    return next((u for u in state.cards_in(zone)
                 if u in state.face_down and u not in known and u not in taken), None)
