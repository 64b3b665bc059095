"""The referee's side of the lamp's reflection: a card the camera sees but cannot read.

The eye reports a place under the lamp's reflection as `Unreadable` (a card lies there; its
sticker is clipped white). Two things follow, both by replaying the game beside the record
with a card put where the reflection is:

- **Not sure.** A rule a step breaks while a card nobody can read lies in its player's zones
  is only sure when no card that could lie there would make the step legal. The candidates are
  the cards the game could still put there (the player's deck where the game knows it, else
  the game's cardset), tried until one clears the rule. A rule one of them clears is shown as
  "not sure" with the place named, never as a red violation: the camera did not see clearly.
- **Read late.** When the reflection moves off a card (the lamp or the card moved) and the
  camera reads it for the first time where an unreadable card lay, the game is read again as
  if that card had lain there since the reflection first covered it; the session keeps that
  reading when the steps since then break fewer rules.

A card the eye sees where no sticker read (cause "far" or "unidentified": too far from the
camera, its sticker hidden) is an unknown card the same way: "not sure", never a violation, and
never a move (it has no identity; `unidentified` words it for the page).

Nothing here is taken on faith: a candidate never enters the record, it only withholds an
alarm; a late read enters the record only as what the camera finally saw, placed back in time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.api import Move, blocking
from companion.record.store import Event
from companion.server.referee import Applied
from companion.snapshot import SeenCard, TableSnapshot, Unreadable, card_uid, split_uid

NEAR_MM = 60.0  # a card read this close to an unreadable place in its zone is the card there
MAX_CANDIDATES = 120  # cards tried for "not sure" (each a replay of the game, ~10 ms)
BUDGET_S = 3.0  # processor seconds a step's "not sure" may take (a long game's replays cost more):
# what is not ruled out by then stays "not sure", since the camera did not see clearly


@dataclass(frozen=True)
class Replayed:
    """A game replayed beside the record with one card put in: the fork, the steps from the
    insertion on (with their sources), and the blocking codes each input's steps broke."""

    referee: Any
    steps: list[tuple[Applied, str]]
    codes: dict[int, set[str]]

    def broken(self) -> int:
        return sum(len(blocking(list(a.violations))) for a, _source in self.steps)


def unknown_spots(table: TableSnapshot | None) -> list[Unreadable]:
    """Unreadable places nobody knows the card of."""
    return [] if table is None else [u for u in table.unreadable if u.card is None]


def owner_of_zone(zone: str) -> str | None:
    """"p1" for "p1.bonds"; None for a shared zone."""
    head = zone.split(".", 1)[0]
    return head if head in ("p1", "p2") else None


def with_card(table: TableSnapshot, card: SeenCard) -> TableSnapshot:
    """`table` with `card` lying where the reflection is (unless the table shows it already),
    and that unreadable place known to be it."""
    if table.card(card.uid) is not None:
        return table
    spots = tuple(replace(u, card=card.uid) if u.card is None and u.zone == card.zone else u
                  for u in table.unreadable)
    return replace(table, cards=(*table.cards, card), unreadable=spots)


def run_start(observations: Sequence[tuple[int, TableSnapshot]], zone: str) -> int | None:
    """The first observation of the unbroken run, ending with the newest, whose tables all
    show an unknown card under the reflection in `zone`."""
    start = None
    for seq, table in reversed(observations):
        if not any(u.zone == zone for u in unknown_spots(table)):
            break
        start = seq
    return start


def read_late(before: TableSnapshot | None, after: TableSnapshot) -> list[SeenCard]:
    """Face-up cards `after` shows for the first time that may have lain unread under the
    reflection in `before`, each as it lay there (the place's zone and position):
    - read where `before` had an unknown card under the reflection, in the same zone (the
      reflection moved off it);
    - or read elsewhere while such a place of `before` is gone from `after` (the card was
      taken out of the reflection and laid down where the camera reads it)."""
    spots = unknown_spots(before)
    if before is None or not spots:
        return []
    known = {c.uid for c in before.cards}
    fresh = [c for c in after.cards if c.uid not in known and c.face_up
             and c.x_mm is not None and c.y_mm is not None]
    gone = [u for u in spots if not any(
        v.zone == u.zone and _near(v.x_mm, v.y_mm, u.x_mm, u.y_mm) for v in after.unreadable)]
    out = []
    for card in fresh:
        assert card.x_mm is not None and card.y_mm is not None
        here = [u for u in spots
                if u.zone == card.zone and _near(u.x_mm, u.y_mm, card.x_mm, card.y_mm)]
        if here:
            out.append(card)
        elif len(gone) == 1 and len(fresh) == 1:  # one card left one place: it was that card
            lay = gone[0]
            out.append(replace(card, zone=lay.zone, x_mm=lay.x_mm, y_mm=lay.y_mm, on=None))
    return out


def _near(x0: float, y0: float, x1: float, y1: float) -> bool:
    return math.hypot(x0 - x1, y0 - y1) <= NEAR_MM


def candidates(game: Any, zone: str, table: TableSnapshot, decks: Mapping[str, Sequence[str]]
               ) -> list[str]:
    """Cards that could lie unread in `zone`: the owner's deck where the game was given it,
    else every card of the game's cardset, minus the cards the camera sees elsewhere and
    those whose identity the game knows from the camera (face up somewhere)."""
    shown = {c.uid for c in table.cards}
    public: set[str] = getattr(getattr(game, "state", None), "public", set()) or set()
    owner = owner_of_zone(zone)
    deck = list(decks.get(owner, ())) if owner else []
    if not deck:
        catalog = getattr(getattr(game, "state", None), "catalog", None)
        deck = [card_uid(cid, 1) for cid in (catalog.ids() if catalog is not None else [])]
    out = []
    for uid in deck:
        if uid in shown or uid in public:
            continue  # seen elsewhere: not the card nobody can read
        try:
            split_uid(uid)
        except ValueError:
            continue
        out.append(uid)
    return out[:MAX_CANDIDATES]


def replay_with(fork: Callable[[], Any], inputs: Iterable[Event], card: SeenCard,
                from_seq: int) -> Replayed:
    """The game replayed from its first input with `card` lying in every table seen from
    input `from_seq` on."""
    referee = fork()
    table: TableSnapshot | None = None
    steps: list[tuple[Applied, str]] = []
    codes: dict[int, set[str]] = {}
    for e in inputs:
        if e.kind == "observation":
            snapshot = TableSnapshot.from_dict(e.payload["snapshot"])
            if e.seq >= from_seq:
                snapshot = with_card(snapshot, card)
            referee.hints = dict(e.payload.get("hints") or {})
            reaction, source = referee.observe(table, snapshot), "camera"
            table = snapshot
        else:
            moves = tuple(Move.from_dict(m) for m in e.payload.get("moves", ()))
            reaction, source = referee.apply(moves, "person"), "person"
        codes[e.seq] = {v.code for a in reaction.applied for v in blocking(list(a.violations))}
        if e.seq >= from_seq:
            steps += [(a, source) for a in reaction.applied]
    return Replayed(referee, steps, codes)
