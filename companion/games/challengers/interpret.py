"""Challengers! moves that explain a change of the visible table.

The camera sees each play area fully (the revealed cards lie side by side; a pushed-together
stack shows only its top card) and only the top card of every deck, bench seat and rest pile.
So: a face-up card new in a play area came from its owner's deck (a reveal); a play card now on
a bench seat was benched; a bench card now on the rest pile went there by an effect; play cards
vanishing from view while another card of the same player stays there were pushed together
under it (a stack). Anything else is recorded literally (`move`, `remove`) and breaks a rule.
The flag follows the rules (the takeover puts it on the top card of the attacker's stack);
when the camera sees the flag token laid on a card, a `flag` move checks it lies on the
defending card (a flag not seen is not checked).
Slots are ordered reveals, stacks, rests, benches, the rest, the flag; each has one reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.api import PLAYERS, Move
from companion.engine.hidden_cards import top_taken_off
from companion.engine.interpreter import SnapshotDiff, candidate_product
from companion.engine.state import GameState
from companion.games.challengers import effects as fx
from companion.snapshot import SeenCard, is_back

FLAG = "flag"
"""The token that marks the defending card."""


def pile_zones() -> list[str]:
    return [z for p in PLAYERS for z in (fx.deck(p), fx.rest(p), fx.trophies(p), *fx.seats(p))]


def _owner(state: GameState, card: SeenCard) -> str:
    p = fx.owner_of_zone(card.zone)
    return p if p in PLAYERS else state.owner.get(card.uid, "p1")


def explain(state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]) -> list[list[Move]]:
    arrivals = [c for c in diff.appeared if not is_back(c.uid)]
    arrivals += [new for _, new in diff.moved if not is_back(new.uid)]
    arrivals.sort(key=lambda c: (c.x_mm if c.x_mm is not None else 0.0))
    reveals: list[list[Move]] = []
    rests: list[list[Move]] = []
    benches: list[list[Move]] = []
    literal: list[list[Move]] = []
    filled = set()
    for card in arrivals:
        uid, zone = card.uid, card.zone
        if uid not in state.where:
            continue  # not a card of this match (unknown marker)
        p = _owner(state, card)
        was = state.where[uid]
        filled.add(zone)
        if was == zone:
            continue  # uncovered, or the engine moved it there already
        if zone == fx.play(p) and was in (fx.deck("p1"), fx.deck("p2")):
            reveals.append([Move("reveal", p, (uid,))])
        elif fx.is_seat(zone) and was == fx.play(p):
            benches.append([Move("bench", p, (uid,), to=zone)])
        elif zone == fx.rest(p) and fx.is_seat(was):
            rests.append([Move("rest", p, (uid,))])
        else:
            literal.append([Move("move", p, (uid,), to=zone)])
    unseen = [] if benches else _benched_unseen(state, diff, arrivals)
    benches = _benched_beneath(state, diff, benches) + benches  # beneath first, top last
    stacks = _stacks(state, diff, arrivals)
    literal += _left_table(state, diff, filled)
    flag = _flag(state, diff)
    return candidate_product([*unseen, *reveals, *stacks, *rests, *benches, *literal, *flag])


def _benched_beneath(state: GameState, diff: SnapshotDiff, benches: list[list[Move]]
                     ) -> list[list[Move]]:
    """The cards pushed together under a benched stack top went to the bench with it: the
    camera sees only the top card of the seat. A defender's play card that shows nowhere now
    (and was benched with no other move) lies beneath a card of its own name benched now
    ("Jeder Sitz kann beliebig viele Karten mit gleichem Namen aufnehmen"). With none of its
    name benched, the camera has not seen where it went: most likely to a seat of its own
    whose card is not read yet (a table settled a moment before the last card laid was
    read), so no move is read for it; it stays in the play area, as the rules knew it, until
    a table shows it (the bench is not complete without it, so the match goes on)."""
    slots: list[list[Move]] = []
    benched = {m.cards[0] for slot in benches for m in slot if m.cards}
    for slot in benches:
        move = slot[0]
        p, top = move.player, move.cards[0]
        name = state.facts(top).name
        for uid in state.cards_in(fx.play(p)):
            if uid == top or uid in benched or uid in diff.visible:
                continue
            if state.facts(uid).name != name:
                continue
            benched.add(uid)
            slots.append([Move("bench", p, (uid,), to=move.to)])
    return slots


def _benched_unseen(state: GameState, diff: SnapshotDiff, arrivals: list[SeenCard]
                    ) -> list[list[Move]]:
    """The bench is over and play goes on (a card arrives, no card is benched), while the
    rules still hold play cards of a defender whose play area the camera shows empty: those
    cards went to the bench unseen, beneath a seat's top card (`_benched_beneath` waited for
    a table that shows them). Beneath a seat of their own name where there is one, else
    beneath the first seat taken, which breaks the one-name-per-seat rule."""
    if state.phase != "bench" or not arrivals:
        return []
    slots: list[list[Move]] = []
    for p in PLAYERS:
        left = state.cards_in(fx.play(p))
        if not left or any(u in diff.visible for u in left):
            continue
        taken = [z for z in fx.seats(p) if state.cards_in(z)]
        for uid in left:
            name = state.facts(uid).name
            seat = next((z for z in taken if fx.seat_name(state, z) == name),
                        taken[0] if taken else fx.seats(p)[0])
            slots.append([Move("bench", p, (uid,), to=seat)])
    return slots


def _flag(state: GameState, diff: SnapshotDiff) -> list[list[Move]]:
    """The flag token now seen on a card of this match (after the other moves)."""
    for _, after in diff.tokens:
        if after is None or after.token != FLAG or after.on is None:
            continue
        uid = after.on
        if is_back(uid) or uid not in state.where:
            continue
        return [[Move("flag", state.owner.get(uid, "p1"), (uid,))]]
    return []


def _stacks(state: GameState, diff: SnapshotDiff, arrivals: list[SeenCard]) -> list[list[Move]]:
    """Play cards gone from view while another of the player's play cards stays: a stack.
    When none stays, the vanished cards left the table."""
    slots: list[list[Move]] = []
    moved_away = {old.uid for old, new in diff.moved if old.zone != new.zone}
    for p in PLAYERS:
        zone = fx.play(p)
        gone = [v.uid for v in diff.vanished
                if v.zone == zone and state.where.get(v.uid) == zone]
        if not gone:
            continue
        staying = [u for u in state.cards_in(zone) if u not in gone and u not in moved_away]
        staying += [c.uid for c in arrivals if c.zone == zone and c.uid not in staying]
        if staying:
            slots.append([Move("stack", p, (staying[-1], *gone))])
        else:
            slots += [[Move("remove", state.owner.get(u, p), (u,))] for u in gone]
    return slots


def _left_table(state: GameState, diff: SnapshotDiff, filled: set[str]) -> list[list[Move]]:
    """Face-up pile cards that vanished without arriving anywhere and were not covered: also
    a pile's top gone while a card the rules hold beneath it shows again (taken off)."""
    slots: list[list[Move]] = []
    seen: set[str] = {new.uid for _, new in diff.moved}  # arrived elsewhere: read there
    for card in [*diff.vanished, *diff.uncovered]:
        if is_back(card.uid) or card.uid in seen or state.where.get(card.uid) != card.zone:
            continue
        p = fx.owner_of_zone(card.zone)
        if card.zone == fx.play(p):
            continue  # play cards: see _stacks
        taken_off = card in diff.uncovered or top_taken_off(state, diff, card)
        if card.zone in filled and not taken_off:
            continue  # a new card lies on the pile
        seen.add(card.uid)
        slots.append([Move("remove", state.owner.get(card.uid, p), (card.uid,))])
    return slots

