"""My Little Pony CCG moves that explain a change of the visible table.

The camera sees home and problem areas fully, and only the top of each deck, discard pile
and problem deck. So: a deck's top back vanishing is a draw (in setup: the opening hand), or,
right after a flip declared without its card, that flip (the card went under the deck); a
face-up card on top of a deck is a faceoff flip; a card new at a home or problem was played
from the hand, moved there, uncovered (a back there vanished) or brought in as a problem; a
new back at a problem is a face-down troublemaker, a mane turning into its back is a boost;
a card new on a discard pile was played (event), discarded or retired. Changes the engine
made itself (a solved problem's characters going home, a defeated troublemaker) explain
nothing new. Each slot lists alternatives with the most literal reading last.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.api import PLAYERS, Move
from companion.engine.hidden_cards import face_down_behind, top_taken_off
from companion.engine.interpreter import SnapshotDiff, candidate_product
from companion.engine.state import UNKNOWN, GameState, hand_zone
from companion.games.my_little_pony import effects as fx
from companion.games.my_little_pony import numbers
from companion.games.my_little_pony.state import flags
from companion.snapshot import SeenCard, is_back

PILES = tuple(z for p in PLAYERS for z in (fx.deck(p), fx.discard(p), fx.problem_deck(p)))


def _owner(zone: str) -> str:
    return zone.split(".", 1)[0]


def _suffix(zone: str) -> str:
    return zone.split(".", 1)[1] if "." in zone else zone


def _rename(diff: SnapshotDiff, names: Mapping[str, str]) -> SnapshotDiff:
    """Backs of boosted manes stand for the mane itself."""
    if not names:
        return diff

    def fix(card: SeenCard) -> SeenCard:
        return replace(card, uid=names[card.uid]) if card.uid in names else card

    return replace(
        diff,
        appeared=tuple(fix(c) for c in diff.appeared),
        vanished=tuple(fix(c) for c in diff.vanished),
        moved=tuple((fix(a), fix(b)) for a, b in diff.moved),
        tapped=tuple(fix(c) for c in diff.tapped),
        untapped=tuple(fix(c) for c in diff.untapped),
    )


def explain(state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]) -> list[list[Move]]:
    diff = _rename(diff, flags(state).get("mane_backs", {}))
    slots: list[list[Move]] = []
    used_backs: set[str] = set()
    slots += _boosts(state, diff, used_backs)
    slots += _decks(state, diff)
    area_slots, handled = _areas(state, diff, used_backs)
    slots += area_slots
    beneath = _beneath_discard_tops(state, diff, handled)
    slots += beneath
    handled |= {m.cards[0] for slot in beneath for m in slot}
    slots += _faceoff_result(state, diff, handled)
    slots += _discards(state, diff, handled)
    handled |= {m.cards[0] for slot in slots for m in slot if m.kind == "boost"}
    slots += _vanished(state, diff, handled | used_backs)
    slots += _tapping(state, diff)
    return _hand_discard_sets(state, candidate_product(slots))


def _beneath_discard_tops(state: GameState, diff: SnapshotDiff, handled: set[str]
                          ) -> list[list[Move]]:
    """Friends gone from home in the same change that put a new card on top of their
    owner's discard pile: retired together, they lie beneath that top card (a pile shows
    only its top). Read before the top card goes there; the literal reading (back to the
    hand) is the last alternative."""
    slots: list[list[Move]] = []
    for card in diff.vanished:
        uid = card.uid
        if is_back(uid) or uid in handled or uid not in state.where:
            continue
        owner = state.owner.get(uid, _owner(card.zone))
        pile = fx.discard(owner)
        if card.zone != fx.home(owner) or state.where.get(uid) != card.zone:
            continue
        if fx.kind(state, uid) != "friend":
            continue
        new_top = [c for c in diff.appeared if c.zone == pile] + [
            n for _, n in diff.moved if n.zone == pile]
        if new_top:
            slots.append([Move("retire", owner, (uid,)),
                          Move("remove", owner, (uid,), to=hand_zone(owner))])
    return slots


def _faceoff_result(state: GameState, diff: SnapshotDiff, handled: set[str]
                    ) -> list[list[Move]]:
    """How a faceoff decided by a flip nobody saw (a declared flip: the card went under the
    deck unseen) really ended, where the table shows it. The challenged troublemaker seen
    going to its discard pile: the challenger won (the card moved without a rule is the
    literal reading, last). Not seen going there just as the engine defeated it on the
    guessed flip: nobody won (or, when a tie cannot be, the challenger lost; a person then
    sends one home). Seen going there as the guess had it: the win is confirmed. A problem
    faceoff gives only points, which no table shows: each possible result is a reading, so
    a person is asked, nobody winning first (the default scores nothing on a guess)."""
    record = flags(state).get("unseen_faceoff")
    if not record:
        return []
    f, results, won = record["faceoff"], record["results"], record["won"]
    if f["kind"] != "troublemaker":
        if not record["fresh"]:
            return []
        return [[_result_move(state, r) for r in results]]
    challenger, target = str(f["challenger"]), str(f["target"])
    pile = fx.discard(state.owner.get(target, _owner(f["zones"][0])))
    arrived = [c for c in diff.appeared if c.zone == pile] + [
        n for _, n in diff.moved if n.zone == pile]
    if any(c.uid == target for c in arrived):
        if won == challenger:  # the guess, seen: confirmed
            return [] if record.get("confirmed") else [[Move("faceoff-won", challenger)]]
        if challenger not in results:
            return []
        handled.add(target)
        return [[Move("faceoff-won", challenger),
                 Move("remove", state.owner[target], (target,), to=pile)]]
    if won == challenger and record["fresh"]:
        others = [r for r in results if r != challenger]
        return [[_result_move(state, others[0])]] if others else []
    return []


def _result_move(state: GameState, result: str) -> Move:
    return Move("faceoff-tied", state.active) if result == "none" else \
        Move("faceoff-won", result)


def _hand_discard_sets(state: GameState, readings: list[list[Move]]) -> list[list[Move]]:
    """At the end of the turn a player over the hand limit discards down to it, and may lay
    several cards on the discard pile at once: only the top one shows. A discard from the
    hand with more than one card over the limit is also read as that card with as many
    unseen ones beneath it as the limit asks (those readings first; the single card last,
    being the most literal)."""
    p = state.active
    over = state.count(hand_zone(p)) - numbers.HAND_LIMIT
    if over < 2:
        return readings
    sets: list[list[Move]] = []
    for reading in readings:
        at = next((i for i, m in enumerate(reading) if m.kind == "discard" and m.player == p),
                  None)
        if at is None:
            continue
        for extra in range(over - 1, 0, -1):
            sets.append([*reading[:at], *[Move("discard", p, (UNKNOWN,))] * extra,
                         *reading[at:]])
    return [*sets, *readings]


def _boosts(state: GameState, diff: SnapshotDiff, used: set[str]) -> list[list[Move]]:
    slots: list[list[Move]] = []
    manes = {m: p for p, m in flags(state).get("mane", {}).items()}
    for card in diff.vanished:
        if card.uid not in manes or fx.boosted(state, card.uid):
            continue
        back = next((c for c in diff.appeared if is_back(c.uid) and c.zone == card.zone
                     and c.uid not in state.backs and c.uid not in used), None)
        if back is not None:
            used.add(back.uid)
            slots.append([Move("boost", manes[card.uid], (card.uid,),
                               options=(("back", back.uid),))])
    return slots


def _decks(state: GameState, diff: SnapshotDiff) -> list[list[Move]]:
    slots: list[list[Move]] = []
    for p in PLAYERS:
        pile = fx.deck(p)
        shown = [c for c in diff.appeared if c.zone == pile and not is_back(c.uid)]
        shown += [c for _, c in diff.moved if c.zone == pile and not is_back(c.uid)]
        if shown:
            slots += [[Move("flip", p, (c.uid,))] for c in shown]
            continue
        took = [v for v in diff.vanished if v.zone == pile and is_back(v.uid)]
        if took and p in flags(state).get("flips_unseen", []):
            continue  # the declared flip put the top card under the deck: a new back on top
        if took:
            slots.append([Move("draw", p)])
    return slots


def _areas(state: GameState, diff: SnapshotDiff, used_backs: set[str]
           ) -> tuple[list[list[Move]], set[str]]:
    slots: list[list[Move]] = []
    handled: set[str] = set()
    before = {new.uid: old for old, new in diff.moved}
    arrivals = [c for c in diff.appeared if c.zone in fx.AREAS]
    arrivals += [new for _, new in diff.moved if new.zone in fx.AREAS]
    backs_gone = [v for v in diff.vanished if is_back(v.uid) and v.zone in fx.AREAS]
    for card in arrivals:
        uid, zone = card.uid, card.zone
        handled.add(uid)
        if is_back(uid):
            old = before.get(uid)
            hidden = (face_down_behind(state, uid, old.zone, set())
                      if old is not None and old.zone in fx.AREAS else None)
            if hidden is not None:
                # a face-down troublemaker carried elsewhere: no rule moves one
                slots.append([Move("move", state.owner.get(hidden, _owner(zone)), (hidden,),
                                   to=zone)])
                continue
            if uid in used_backs or uid in state.backs or zone not in fx.PROBLEM_ZONES:
                continue
            slots.append([Move("play-troublemaker", state.active, (UNKNOWN,), to=zone,
                               options=(("back", uid),))])
            continue
        if uid not in state.where:
            continue
        if state.where[uid] == zone and state.known(uid):
            continue  # the engine put it there already
        owner = state.owner.get(uid, _owner(zone))
        kind = fx.kind(state, uid)
        old = before.get(uid)
        if kind == "problem":
            verb = "starting-problem" if state.phase == "setup" else "new-problem"
            slots.append([Move(verb, owner, (uid,))])
            continue
        flipped = [b for b in backs_gone if b.zone == zone]
        if old is None and flipped:
            back = flipped[0]
            backs_gone.remove(back)
            used_backs.add(back.uid)
            slots.append([Move("reveal", owner, (uid,), options=(("back", back.uid),))])
            continue
        if old is None and uid in state.where and state.where[uid] == zone:
            slots.append([Move("identify", owner, (uid,), to=zone)])
            continue
        if old is not None and old.zone in fx.AREAS:
            due = flags(state).get("send_home")
            if due and due["player"] == owner and old.zone == due["zone"] and \
                    zone == fx.home(owner):
                slots.append([Move("send-home", owner, (uid,))])
            else:
                slots.append([Move("move", owner, (uid,), to=zone)])
            continue
        if old is not None:
            slots.append([Move("remove", owner, (uid,), to=zone)])
            continue
        target = card.on if card.on and not is_back(card.on) else None
        slots.append([Move("play", owner, (uid,), to=zone, target=target)])
    return slots, handled


def _discards(state: GameState, diff: SnapshotDiff, handled: set[str]) -> list[list[Move]]:
    slots: list[list[Move]] = []
    moved_from = {new.uid: old for old, new in diff.moved}
    for p in PLAYERS:
        pile = fx.discard(p)
        arrivals = [c for c in diff.appeared if c.zone == pile]
        arrivals += [new for _, new in diff.moved if new.zone == pile]
        for card in arrivals:
            uid = card.uid
            if is_back(uid) or uid in handled or uid not in state.where:
                continue
            handled.add(uid)
            if state.where[uid] == pile and state.known(uid):
                continue  # the engine put it there (a defeated troublemaker, a resource)
            owner = state.owner.get(uid, p)
            old = moved_from.get(uid)
            if old is not None:
                if old.zone == fx.home(owner) and fx.kind(state, uid) == "friend":
                    slots.append([Move("retire", owner, (uid,))])
                else:
                    slots.append([Move("remove", owner, (uid,), to=pile)])
                continue
            if (state.unseen_in(pile) and not state.is_hidden(state.where[uid])) or (
                    state.unseen_in(pile) and state.where[uid] != hand_zone(owner)):
                slots.append([Move("identify", owner, (uid,), to=pile)])
                continue
            if fx.kind(state, uid) == "event":
                slots.append([Move("discard", owner, (uid,)),
                              Move("play", owner, (uid,), to=pile)])
            else:
                slots.append([Move("discard", owner, (uid,))])
    return slots


def _vanished(state: GameState, diff: SnapshotDiff, handled: set[str]) -> list[list[Move]]:
    """Table cards that left the camera's view without a rule that moved them: face up, or
    a face-down troublemaker taken from its problem without being uncovered."""
    slots: list[list[Move]] = []
    taken: set[str] = set()
    new_problems = {c.zone for c in diff.appeared} | {n.zone for _, n in diff.moved}
    discards = tuple(fx.discard(p) for p in PLAYERS)
    tops = [c for c in diff.uncovered if c.zone in discards]
    tops += [c for c in diff.vanished if c.zone in discards and top_taken_off(state, diff, c)]
    for card in tops:  # taken off an open discard pile, which no rule does
        uid = card.uid
        if is_back(uid) or uid in handled or state.where.get(uid) != card.zone:
            continue
        owner = state.owner.get(uid, _owner(card.zone))
        slots.append([Move("remove", owner, (uid,), to=hand_zone(owner))])
    for card in diff.vanished:
        uid = card.uid
        if card.zone not in fx.AREAS or uid in handled:
            continue
        if is_back(uid):
            hidden = face_down_behind(state, uid, card.zone, taken)
            if hidden is not None:
                taken.add(hidden)
                owner = state.owner.get(hidden, _owner(card.zone))
                slots.append([Move("remove", owner, (hidden,), to=hand_zone(owner))])
            continue
        if state.where.get(uid) != card.zone:
            continue  # the engine already moved it
        if fx.kind(state, uid) == "problem" and card.zone in new_problems:
            continue  # lying under the new one
        owner = state.owner.get(uid, _owner(card.zone))
        slots.append([Move("remove", owner, (uid,), to=hand_zone(owner))])
    return slots


def _tapping(state: GameState, diff: SnapshotDiff) -> list[list[Move]]:
    slots: list[list[Move]] = []
    for card in diff.tapped:
        if card.uid in state.where and card.uid not in state.tapped:
            slots.append([Move("exhaust", state.owner[card.uid], (card.uid,))])
    for card in diff.untapped:
        if card.uid in state.tapped:
            slots.append([Move("ready", state.owner[card.uid], (card.uid,))])
    return slots
