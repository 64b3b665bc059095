"""Creature Crush moves that explain a change of the visible table.

The camera sees every field place, the top of each camp (Lager, face down) and hell, the white
start dice in `pN.dice` / `pN.burned` and the red damage dice lying on creatures. So:
- a camp's top back vanishing is a draw (4 before round 1, else 1), unless the rules already
  destroyed that top card (a direct attack): then the table only caught up ("settle");
- white dice newly in `pN.dice` are a roll, dice from `pN.dice` to `pN.burned` are burned;
- red dice on a creature are its damage ("mark"), checked against the rules' damage;
- a face-up card arriving on A/B is a summon (from hand), a move or swap (from the own field),
  a revival (from hell) or a take-over (from the enemy field);
- a back arriving in C is a crush card laid face down; a back there turning into a face-up card
  is a flip; a card arriving in hell is a destruction (or the table catching up with one).
Slots run: camp, dice rolls, burns, field and C cards, damage dice, hell, cards that vanished.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.api import PLAYERS, Move
from companion.engine.hidden_cards import top_taken_off
from companion.engine.interpreter import MAX_CANDIDATES, SnapshotDiff, candidate_product
from companion.engine.state import UNKNOWN, GameState, hand_zone
from companion.games.creature_crush import board as bd
from companion.games.creature_crush.interpret_attack import (
    Inferred,
    inferred_attacks,
    red_after,
    red_changes,
    with_attack,
)
from companion.games.creature_crush.numbers import OPENING_HAND, TRAEGE_DAMAGE
from companion.games.creature_crush.state import flags
from companion.snapshot import SeenCard, SeenDie, is_back


def explain(state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]) -> list[list[Move]]:
    slots: list[list[Move]] = []
    slots += _camps(state, diff)
    slots += _rolls(state, diff)
    slots += _burns(state, diff)
    target = str(hints["target"]) if hints.get("target") else None
    card_slots, handled, displaced = _cards(state, diff, target)
    slots += card_slots
    at = sum(1 for s in slots if s)
    slots += _marks(state, diff)
    slots += _beneath_hell_tops(state, diff, handled)
    slots += _hells(state, diff, handled, displaced, target)
    slots += _vanished(state, diff, handled)
    readings = candidate_product(slots)
    return _with_attacks(readings, at, inferred_attacks(state, diff, hints)) + readings


def _with_attacks(readings: list[list[Move]], at: int, attacks: list[Inferred]
                  ) -> list[list[Move]]:
    """Each reading with an undeclared attack put in after the dice burned and the cards
    laid (which pay for it and bring the attacker) and before the damage dice and the hells
    (which show it). Too many to try: none, and the change is read as it is (an attack
    dropped unseen could leave a wrong one as the only legal reading)."""
    if not attacks or len(attacks) * len(readings) > MAX_CANDIDATES:
        return []
    return [with_attack(r, at, a) for a in attacks for r in readings]


def _owner(zone: str) -> str:
    return bd.side(zone)


# ----------------------------------------------------------------------------- camp (Lager)

def _camps(state: GameState, diff: SnapshotDiff) -> list[list[Move]]:
    slots: list[list[Move]] = []
    for p in PLAYERS:
        lager = bd.lager(p)
        changed = [v for v in diff.vanished if v.zone == lager] or [
            u for u in diff.uncovered if u.zone == lager]
        if not changed or any(c.zone == lager and not is_back(c.uid) for c in diff.covered):
            continue  # unchanged, or a face-up card laid on it covers its top: nothing drawn
        if flags(state).get("expect_lager", {}).get(p, 0) > 0:
            slots.append([Move("settle", p, value="lager")])
            continue
        count = OPENING_HAND - flags(state)["opening"][p] if state.phase == "opening" else 1
        slots.append([Move("draw", p, value=max(count, 1))])
    return slots


# ----------------------------------------------------------------------------- dice

def _changed_dice(diff: SnapshotDiff) -> list[tuple[SeenDie | None, SeenDie | None]]:
    return list(diff.dice)


def _rolls(state: GameState, diff: SnapshotDiff) -> list[list[Move]]:
    rolled: dict[str, dict[str, int]] = {}
    for old, new in _changed_dice(diff):
        if new is None or bd.die_kind(new.die) != "w":
            continue
        if new.zone != f"{bd.die_owner(new.die)}.dice":
            continue
        if (old is None or old.zone != new.zone or old.value != new.value
                or new.rolls > old.rolls):  # rolled again: perhaps to the same value
            rolled.setdefault(bd.die_owner(new.die), {})[new.die] = new.value
    return [[Move("roll", p, options=(("dice", bd.dice_text(dice)),))]
            for p, dice in sorted(rolled.items())]


def _burns(state: GameState, diff: SnapshotDiff) -> list[list[Move]]:
    burned: dict[str, dict[str, int]] = {}
    for old, new in _changed_dice(diff):
        if old is None or new is None or bd.die_kind(new.die) != "w":
            continue
        p = bd.die_owner(new.die)
        if old.zone == f"{p}.dice" and new.zone == f"{p}.burned":
            if new.die not in flags(state)["dice"].get(p, {}) and p != state.active:
                continue  # left over from a finished turn: the rules burned it already
            burned.setdefault(p, {})[new.die] = new.value
    return [[Move("burn", p, options=(("dice", bd.dice_text(dice)),))]
            for p, dice in sorted(burned.items())]


def _marks(state: GameState, diff: SnapshotDiff) -> list[list[Move]]:
    """Red dice laid on, changed on, or taken off creatures: one mark per creature."""
    put, gone = red_changes(diff)
    red = red_after(state, diff)
    slots = []
    for card in sorted(set(put) | set(gone)):
        if card not in state.where:
            continue
        total = sum(v for on, v in red.values() if on == card)
        options: list[tuple[str, str]] = []
        if card in put:
            options.append(("dice", bd.dice_text(put[card])))
        if card in gone:
            options.append(("gone", ",".join(sorted(gone[card]))))
        owner = bd.controller(state, card) or state.owner.get(card, state.active)
        slots.append([Move("mark", owner, (card,), value=total,
                           options=tuple(sorted(options)))])
    return slots


# ----------------------------------------------------------------------------- cards

def _arrivals(diff: SnapshotDiff) -> list[tuple[SeenCard | None, SeenCard]]:
    found: list[tuple[SeenCard | None, SeenCard]] = [(None, c) for c in diff.appeared]
    found += [(old, new) for old, new in diff.moved]
    return found


def _cards(
    state: GameState, diff: SnapshotDiff, target: str | None
) -> tuple[list[list[Move]], set[str], set[str]]:
    """Field and C-zone arrivals; also the cards a swap may have sent to hell (displaced)."""
    slots: list[list[Move]] = []
    handled: set[str] = set()
    displaced: set[str] = set()
    backs_gone = [v for v in diff.vanished if is_back(v.uid) and bd.is_crush_place(v.zone)]
    arrivals = _arrivals(diff)
    swaps = _swaps(arrivals)
    for a, b, p in swaps:
        slots.append([Move("swap", p, (a, b))])
        handled |= {a, b}
    for a, b, zone, p in _swaps_into_hell(arrivals, handled):
        # a took b's place while b went to hell: a swap that destroyed b (Träge), or a move
        slots.append([Move("swap", p, (a, b)), Move("move", p, (a,), to=zone)])
        handled.add(a)
        displaced.add(b)
    for old, card in arrivals:
        zone = card.zone
        if card.uid in handled or not (bd.is_field(zone) or bd.is_crush_place(zone)):
            continue
        p = _owner(zone)
        if is_back(card.uid):
            if card.uid not in state.backs:
                slots.append([Move("set-crush", p, (UNKNOWN,), to=zone,
                                   options=(("back", card.uid),))])
            continue
        uid = card.uid
        handled.add(uid)
        if state.where.get(uid) == zone and state.known(uid):
            continue
        if bd.is_crush_place(zone):
            flipped = [b for b in backs_gone if b.zone == zone]
            if flipped:
                backs_gone.remove(flipped[0])
                slots.append([Move("flip", p, (uid,), to=zone, target=target,
                                   options=(("back", flipped[0].uid),))])
            elif _is_creature(state, uid):  # a creature put in the wrong place, no crush card
                slots.append([_field_arrival(state, old, uid, zone, p)])
            else:
                slots.append([Move("set-crush", p, (uid,), to=zone, options=(("face_up", "1"),))])
            continue
        slots.append([_field_arrival(state, old, uid, zone, p)])
    return slots, handled, displaced


def _is_creature(state: GameState, uid: str) -> bool:
    """A face-up card the camera read is a creature (a face-down one shows no type)."""
    return uid in state.where and state.facts(uid).type == "creature"


def _field_arrival(state: GameState, old: SeenCard | None, uid: str, zone: str, p: str) -> Move:
    where = state.where.get(uid)
    if where is not None and bd.is_field(where):
        if bd.side(where) == p:
            return Move("move", p, (uid,), to=zone)
        return Move("control", p, (uid,), to=zone)
    if where == bd.hell(p):
        return Move("revive", p, (uid,), to=zone)
    if old is not None and bd.is_field(old.zone) and bd.side(old.zone) == p:
        return Move("move", p, (uid,), to=zone)
    return Move("summon", p, (uid,), to=zone)


def _swaps(arrivals: list[tuple[SeenCard | None, SeenCard]]) -> list[tuple[str, str, str]]:
    """Two own creatures that exchanged their places in one step."""
    moves = {new.uid: (old.zone, new.zone) for old, new in arrivals
             if old is not None and bd.is_field(old.zone) and bd.is_field(new.zone)}
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for a, (fa, ta) in sorted(moves.items()):
        for b, (fb, tb) in sorted(moves.items()):
            if a < b and a not in seen and b not in seen and fa == tb and fb == ta \
                    and bd.side(fa) == bd.side(fb):
                found.append((a, b, bd.side(fa)))
                seen |= {a, b}
    return found


def _swaps_into_hell(
    arrivals: list[tuple[SeenCard | None, SeenCard]], handled: set[str]
) -> list[tuple[str, str, str, str]]:
    """A creature that moved into the place another one left for hell in the same step."""
    to_hell = {old.zone: new.uid for old, new in arrivals
               if old is not None and bd.is_field(old.zone) and bd.is_hell(new.zone)}
    found = []
    for old, new in arrivals:
        if old is None or new.uid in handled or not bd.is_field(old.zone):
            continue
        gone = to_hell.get(new.zone)
        if gone and bd.is_field(new.zone) and bd.side(old.zone) == bd.side(new.zone):
            found.append((new.uid, gone, new.zone, bd.side(new.zone)))
    return found


# ----------------------------------------------------------------------------- hell

def _hells(state: GameState, diff: SnapshotDiff, handled: set[str],
           displaced: set[str], target: str | None) -> list[list[Move]]:
    slots: list[list[Move]] = []
    for _old, card in _arrivals(diff):
        if not bd.is_hell(card.zone) or is_back(card.uid) or card.uid in handled:
            continue
        uid = card.uid
        p = _owner(card.zone)
        where = state.where.get(uid)
        handled.add(uid)
        if where is None:
            continue
        if where == card.zone:
            if uid not in state.public or uid in flags(state).get("crush_shown", []):
                slots.append([Move("settle", p, (uid,), value="hell")])
            continue
        unseen = state.is_hidden(where) or (bd.is_crush_place(where) and uid in state.face_down)
        if unseen and flags(state).get("unseen_hell", {}).get(p, 0) > 0:
            slots.append([Move("settle", p, (uid,), value="hell")])
            continue
        turned = [v for v in diff.vanished if is_back(v.uid) and bd.is_crush_place(v.zone)
                  and bd.side(v.zone) == p]
        unseen_down = bd.is_crush_place(where) and uid in state.face_down
        if turned and (state.is_hidden(where) or unseen_down):
            back = next((b for b in turned if b.zone == where), turned[0])
            slots.append([Move("flip", p, (uid,), to=back.zone, target=target,
                               options=(("back", back.uid), ("into_hell", "1")))])
            continue  # flipped and put into hell in one go
        owner = bd.side(where) if bd.side(where) in PLAYERS else p
        literal = Move("to-hell", owner, (uid,), to=card.zone)
        lazy = None if uid in displaced else _trage_death(state, uid, where)
        slots.append([lazy, literal] if lazy else [literal])
    return slots


def _beneath_hell_tops(state: GameState, diff: SnapshotDiff, handled: set[str]
                       ) -> list[list[Move]]:
    """Creatures gone from a field in the same change that put a new card on top of that
    player's hell: destroyed together (several at once by a crush card), they lie beneath
    it (a hell pile shows only its top). Read before the top card goes there; the literal
    reading (back to the hand) is the last alternative."""
    slots: list[list[Move]] = []
    elsewhere = {c.uid for c in diff.appeared} | {new.uid for _, new in diff.moved}
    new_tops = {c.zone for c in diff.appeared if bd.is_hell(c.zone) and not is_back(c.uid)}
    new_tops |= {new.zone for _, new in diff.moved if bd.is_hell(new.zone)}
    for card in diff.vanished:
        uid = card.uid
        if is_back(uid) or uid in handled or uid in elsewhere or not bd.is_field(card.zone):
            continue
        if state.where.get(uid) != card.zone:
            continue  # the rules moved it already
        hell = bd.hell(bd.side(card.zone))
        if hell not in new_tops:
            continue
        handled.add(uid)
        p = state.owner.get(uid, bd.side(card.zone))
        slots.append([Move("to-hell", bd.side(card.zone), (uid,), to=hell),
                      Move("to-hand", p, (uid,), to=hand_zone(p))])
    return slots


def _trage_death(state: GameState, uid: str, where: str) -> Move | None:
    """A Träge creature moved in the Taktikphase dies of its own 1 damage on the way: the
    camera sees it go straight to hell. Where it was moved to no longer matters."""
    if not bd.is_field(where) or state.phase != "taktik":
        return None
    facts = state.facts(uid)
    damage = int(flags(state).get("damage", {}).get(uid, 0))
    if not facts.has_keyword("Träge") or damage + TRAEGE_DAMAGE < facts.number("life", 1):
        return None
    p = bd.side(where)
    free = [z for z in bd.field_places(p) if not state.cards_in(z)]
    return Move("move", p, (uid,), to=free[0]) if free else None


def _vanished(state: GameState, diff: SnapshotDiff, handled: set[str]) -> list[list[Move]]:
    """Face-up cards that left the camera's view: back to a hand (only by an effect); from a
    hell, the top card when what lay beneath it shows (the whole pile when it empties)."""
    slots: list[list[Move]] = []
    elsewhere = {c.uid for c in diff.appeared} | {new.uid for _, new in diff.moved}
    covering = {c.zone for c in diff.appeared} | {new.zone for _, new in diff.moved}
    gone = [c for c in diff.vanished if bd.is_field(c.zone)]
    gone += [c for c in diff.uncovered if bd.is_hell(c.zone)]
    gone += [c for c in diff.vanished if bd.is_hell(c.zone) and top_taken_off(state, diff, c)]
    for card in gone:
        uid = card.uid
        if is_back(uid) or uid in handled or uid in elsewhere:
            continue
        if state.where.get(uid) != card.zone:
            continue  # the rules moved it already
        if bd.is_field(card.zone) and card.zone in covering:
            continue  # another card was laid on it (a violation of its own)
        p = state.owner.get(uid, _owner(card.zone))
        slots.append([Move("to-hand", p, (uid,), to=hand_zone(p))])
    return slots
