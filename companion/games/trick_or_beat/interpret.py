"""Trick or Beat moves that explain a change of the visible table.

The camera sees lanes fully, and only the top of the draw pile, the discard pile and each
trick pile. So: the draw pile's top back vanishing is a draw (in the draft: the deal); a card
new on the discard pile came from a hand (a tactic, a draft discard) or from a lane (a
defeat the engine may already have applied); a new back on a trick pile is a trick card; a
card on a lane is a summon, a shift, a reveal or (lying on a creature) an equipment.
Each slot lists alternatives with the most literal reading last.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from itertools import combinations
from typing import Any

from companion.engine.api import PLAYERS, Move, other
from companion.engine.effects import Effect
from companion.engine.effects import Move as MoveCards
from companion.engine.interpreter import SnapshotDiff, candidate_product
from companion.engine.state import UNKNOWN, GameState, hand_zone
from companion.games.trick_or_beat import effects as fx
from companion.games.trick_or_beat.numbers import KEEP, TRICK_WIN, blocks_trick_win
from companion.games.trick_or_beat.state import flags
from companion.snapshot import SeenCard, is_back

DECK = "shared.deck"
DISCARD = "shared.discard"
PILES = (DECK, DISCARD, "p1.trick", "p2.trick")


def _owner(zone: str) -> str:
    return zone.split(".")[0]


def _actor(hints: Mapping[str, Any], guess: str) -> str:
    """Who made a move the table shows: the player a person named (`player:`), else the
    guess (the active player, a lane's owner). A person's word outranks the guess."""
    named = hints.get("player")
    return str(named) if named in PLAYERS else guess


def _is_lane(zone: str) -> bool:
    return zone.endswith((".active", ".passive")) and _owner(zone) in PLAYERS


def explain(state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]) -> list[list[Move]]:
    slots: list[list[Move]] = []
    tricked = _tricked_by_tactics(state, diff) + _moved_by_an_effect(state, diff)
    draw_slots, drawn = _draws(state, diff, hints, tricked)
    slots += draw_slots
    play_slots, played = _targeted_tactics(state, diff, hints)
    slots += play_slots
    lane_slots, handled = _lanes(state, diff, hints, played)
    slots += lane_slots
    slots += _discards(state, diff, hints, handled | drawn | played)
    slots += _tricks(state, diff, tricked, hints)
    slots += _vanished(state, diff, handled | played)
    return candidate_product(slots)


def _targeted_tactics(
    state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
) -> tuple[list[list[Move]], set[str]]:
    """Tactics whose effect names a creature, each with the creature it acted on.

    A tactic seen new on the discard pile acted on the one creature the table shows changed as
    its effect says (to its other lane, off the table to the hand, or to the discard pile), or
    on the creature a person named; when none changed, on a creature its effect could not move
    (its other lane full). No tactic seen, no tactic: a played tactic goes face up onto the
    discard pile after its effect ("nachdem sie gespielt wurde"), on top of the creature it
    sent there, so a creature gone with no tactic seen is read as it was seen (`remove`).
    Returns the slots and the cards they explain (the tactics and their targets)."""
    if state.phase != "main":
        return [], set()
    p = _actor(hints, state.active)
    slots: list[list[Move]] = []
    played: set[str] = set()
    def holder(uid: str) -> str:  # an equipment seen instead of the creature it covers
        return state.attached.get(uid, uid)

    shifted = [holder(new.uid) for old, new in diff.moved if _is_lane(old.zone)
               and _is_lane(new.zone) and _owner(old.zone) == _owner(new.zone)
               and old.zone != new.zone]
    gone = [holder(v.uid) for v in diff.vanished if _is_lane(v.zone) and not is_back(v.uid)]
    to_discard = [new.uid for old, new in diff.moved if _is_lane(old.zone)
                  and new.zone == DISCARD]
    defeated = [u for u in to_discard if u not in state.attached]
    defeated += [c.uid for c in diff.appeared if c.zone == DISCARD
                 and _is_lane(state.where.get(c.uid, ""))]  # it lay under its equipment
    under_equipment = [holder(u) for u in to_discard if u in state.attached]
    gone += under_equipment  # its equipment went to the discard pile, covering the tactic
    changed = {uid: how for how, uids in (("other-lane", shifted), ("gone", gone),
                                          ("destroy", defeated)) for uid in uids
               if uid in fx.all_creatures(state)}
    for card in diff.appeared:
        uid = card.uid
        if card.zone != DISCARD or is_back(uid) or uid not in state.where:
            continue
        facts = state.facts(uid)
        if facts.type != "tactic" or facts.get("category") == "equipment":
            continue
        effects = [a.effect for a in facts.abilities if fx.is_targeted(a.effect)]
        if not effects:
            continue
        named = hints.get("target")
        fitting = [str(named)] if named else [
            c for c, how in changed.items() if all(fx.shows_effect(e, how) for e in effects)]
        fitting = [c for c in fitting if c not in played and _fits(state, p, c, effects)]
        if not fitting and not named:
            fitting = [c for c in fx.all_creatures(state) if _fits(state, p, c, effects)
                       and not any(fx.effect_can_move(state, e, c) for e in effects)]
        if fitting:
            slots.append([Move("tactic", p, (uid,), target=c) for c in fitting])
            played |= {uid, *fitting}
    return slots, played | {item for item, on in state.attached.items() if on in played}


def _fits(state: GameState, player: str, target: str, effects: list[Effect]) -> bool:
    """Whether `target` fits the selector of each of the card's targeted effects."""
    selectors = [fx.selector_of(e) for e in effects]
    return all(sel is not None and fx.target_fits(state, player, target, sel)
               for sel in selectors)


def _tricked_by_tactics(state: GameState, diff: SnapshotDiff) -> int:
    """Cards that the tactics seen new on the discard pile put from the draw pile on the
    active player's trick pile ("Verlorene Finte": the top card of the draw pile on your
    trick pile). The camera sees the tactic, the draw pile's top and a new back on the trick
    pile change at once; the engine moves those cards with the tactic: no draw, no trick card
    (which would be read as the main phase having ended)."""
    if state.phase != "main":
        return 0
    count = 0
    for card in diff.appeared:
        uid = card.uid
        if card.zone != DISCARD or is_back(uid) or state.where.get(uid, DISCARD) == DISCARD:
            continue
        facts = state.facts(uid)
        if facts.type != "tactic" or facts.get("category") == "equipment":
            continue
        for ability in facts.abilities:
            effect = ability.effect
            if isinstance(effect, MoveCards) and effect.to == "trick" \
                    and isinstance(effect.target.count, int):
                count += effect.target.count
    return min(count, state.count(DECK))


def _draws(
    state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any], tricked: int = 0
) -> tuple[list[list[Move]], set[str]]:
    took = [v for v in diff.vanished if v.zone == DECK] or [
        u for u in diff.uncovered if u.zone == DECK
    ]
    if not took or any(c.zone == DECK and not is_back(c.uid) for c in diff.covered):
        return [], set()  # unchanged, or a face-up card laid on the pile covers its top
    if tricked:
        return [], set()  # an effect moved (or moves) deck cards (add_to_trick)
    if state.phase == "draft":
        info = flags(state).get("draft", {})
        owed = [(p, info[p]["hand"] - info[p]["dealt"]) for p in PLAYERS if p in info]
        owed = [(p, n) for p, n in owed if n > 0]
        if owed:
            return [[Move("deal", p, value=n)] for p, n in owed], set()
        if hints.get("player") in PLAYERS:
            return [[Move("draw", str(hints["player"]))]], set()
        return [], set()  # dealing seen again: the camera cannot count cards dealt
    player = _actor(hints, state.active)
    if flags(state).get("supply_draws", 0) > 0:
        # a supply card drawn face up goes straight to the discard pile (and is replaced)
        shown = [c.uid for c in diff.appeared if c.zone == DISCARD and _is_supply(state, c.uid)]
        if shown:
            return [[Move("supply-draw", player, (shown[0],))]], {shown[0]}
        return [[Move("supply-draw", player, (UNKNOWN,)), Move("draw", player)]], set()
    return [[Move("draw", player)]], set()


def _moved_by_an_effect(state: GameState, diff: SnapshotDiff) -> int:
    """Deck cards an effect already put on the active player's trick pile (a tactic a person
    declared, add_to_trick) that this change shows: the draw pile's top and a new back on that
    trick pile changing together. Tactics are played in the main phase; a change that shows
    no such pair is the players' own (a trick card laid in the end phase)."""
    expected = flags(state).get("expected_deck_draws", 0)
    if state.phase != "main" or expected <= 0:
        return 0
    deck = [v for v in diff.vanished if v.zone == DECK] or [
        u for u in diff.uncovered if u.zone == DECK]
    pile = fx.trick(state.active)
    backs = [c for c in (*diff.appeared, *(new for _, new in diff.moved))
             if c.zone == pile and is_back(c.uid)]
    return min(expected, len(backs)) if deck else 0


def _is_supply(state: GameState, uid: str) -> bool:
    return uid in state.where and state.facts(uid).get("category") == "supply"


def _is_equipment(state: GameState, uid: str) -> bool:
    return uid in state.where and state.facts(uid).get("category") == "equipment"


def _covered_creature(
    state: GameState, diff: SnapshotDiff, zone: str, hints: Mapping[str, Any]
) -> str | None:
    """The creature an equipment was laid on: it vanished from view under it in this step."""
    if hints.get("target"):
        return str(hints["target"])
    under = [v.uid for v in diff.vanished if v.zone == zone and not is_back(v.uid)]
    if len(under) != 1:
        return None
    return state.attached.get(under[0], under[0])  # laid on an equipment: on its creature


def _lanes(
    state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any], played: set[str]
) -> tuple[list[list[Move]], set[str]]:
    slots: list[list[Move]] = []
    handled: set[str] = set()
    before = {old.uid: old for old, _ in diff.moved}
    arrivals = [c for c in diff.appeared if _is_lane(c.zone)]
    arrivals += [new for _, new in diff.moved if _is_lane(new.zone)]
    backs_gone = [v for v in diff.vanished if is_back(v.uid) and _is_lane(v.zone)]
    for card in arrivals:
        p = _actor(hints, _owner(card.zone))
        if is_back(card.uid):
            if card.uid not in state.backs:
                slots.append([Move("place-down", p, (UNKNOWN,), to=card.zone,
                                   options=(("back", card.uid),))])
            continue
        uid = card.uid
        if uid in played:
            continue  # a tactic's effect moved it (the engine moves it with the tactic)
        handled.add(uid)
        holder = state.attached.get(uid)
        if holder is not None:  # equipment seen moving: the creature under it moved
            if state.where.get(holder) != card.zone and _is_lane(before.get(uid, card).zone):
                slots.append([Move("shift", p, (holder,), to=card.zone)])
            continue
        if state.where.get(uid) == card.zone and state.known(uid):
            continue
        old = before.get(uid)
        if old is not None and _is_lane(old.zone):
            slots.append([Move("shift", p, (uid,), to=card.zone)])
            continue
        if old is not None:
            slots.append([Move("remove", p, (uid,), to=card.zone)])
            continue
        if _is_equipment(state, uid) and not [b for b in backs_gone if b.zone == card.zone]:
            if uid not in state.attached:
                holder = card.on or _covered_creature(state, diff, card.zone, hints)
                slots.append([Move("equip", p, (uid,), target=holder)])
                if holder:
                    handled.add(holder)
            continue
        flipped = [b for b in backs_gone if b.zone == card.zone] or [
            b for b in backs_gone if _owner(b.zone) == p
        ]
        if flipped:
            back = flipped[0]
            backs_gone.remove(back)
            slots.append([Move("reveal", p, (uid,), options=(("back", back.uid),))])
            continue
        down_here = [u for u in state.cards_in(card.zone) if u in state.face_down]
        if down_here and state.phase == "draft":
            slots.append([Move("reveal", p, (uid,))])
            continue
        slots.append([Move("summon", p, (uid,), to=card.zone)])
    return _seen_together(slots), handled


def _seen_together(slots: list[list[Move]]) -> list[list[Move]]:
    """Each player's shifts seen in one table change, each told the others (one arrangement:
    the lane limit holds for the settled table, `effects.arranged`)."""
    shifts = [m for slot in slots for m in slot if m.kind == "shift"]
    if len(shifts) < 2:
        return slots

    def told(move: Move) -> Move:
        if move.kind != "shift":
            return move
        mine = [(m.card, str(m.to)) for m in shifts if m.player == move.player]
        return replace(move, options=tuple(sorted((*move.options, fx.together(mine)))))

    return [[told(m) for m in slot] for slot in slots]


def _discards(
    state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any], handled: set[str]
) -> list[list[Move]]:
    slots: list[list[Move]] = []
    moved_from = {new.uid: old for old, new in diff.moved}
    arrivals = [c for c in diff.appeared if c.zone == DISCARD]
    arrivals += [new for _, new in diff.moved if new.zone == DISCARD]
    off_lanes = _off_lanes(state, diff)
    for card in arrivals:
        uid = card.uid
        if is_back(uid) or uid in handled:
            continue
        if state.attached.get(uid) in off_lanes:
            continue  # its creature left: whatever moved it (a defeat) put it there too
        if state.where.get(uid) == DISCARD and uid in state.public:
            continue  # the engine already put it there (a defeat, a drawn supply card)
        shown = _draft_end_top(state, uid, hints)
        if shown is not None:
            slots.append([shown])
            continue
        old = moved_from.get(uid)
        if old is not None:
            seen = Move("remove", _owner(old.zone) if _owner(old.zone) in PLAYERS
                        else state.active, (uid,), to=DISCARD)
            attacks = inferred_attacks(state, uid, hints) if _is_lane(old.zone) else []
            slots.append([*attacks, seen])
            continue
        if state.phase == "draft":
            slots.append([_draft_discard(state, uid, hints)])
            continue
        player = _actor(hints, state.active)
        if _is_lane(state.where.get(uid, "")):  # it lay under its equipment: off a lane
            slots.append([*inferred_attacks(state, uid, hints), Move("discard", player, (uid,))])
            continue
        facts = state.facts(uid) if uid in state.where else None
        if facts is not None and facts.type == "tactic" and facts.get("category") != "equipment":
            target = hints.get("target")
            slots.append([
                Move("discard", player, (uid,)),
                Move("tactic", player, (uid,), target=str(target) if target else None),
            ])
        else:
            slots.append([Move("discard", player, (uid,))])
    arrived = {c.uid for c in arrivals}
    for uid in sorted(off_lanes - arrived - handled):  # beneath its equipment on the pile
        seen = Move("remove", _owner(state.where[uid]), (uid,), to=DISCARD)
        slots.append([*inferred_attacks(state, uid, hints), seen])
    return slots


def inferred_attacks(state: GameState, target: str, hints: Mapping[str, Any]) -> list[Move]:
    """The attacks that defeat `target`, seen leaving its lane for the discard pile with no
    tactic on it and no attack declared: the creatures lying on the table are evidence the
    camera sees, so the rulebook's attacks ("Bestimme beliebig viele Angreifer", only from
    the active lane, once per turn each, a passive target only while its owner's active lane
    is empty) whose sum reaches the target's survival explain it. One such attack is applied
    as the only legal explanation; several are asked (fewest attackers first, the default:
    it claims the least the camera did not see); none leaves the defeat as seen, with its
    violation. A declared attack is the person's word and is never second-guessed. The
    attacker's combat abilities ("Sie wirken nur, wenn du es möchtest") are used only as far
    as the defeat needs them; the defender's are taken as not used (it was defeated)."""
    if state.phase != "main" or hints.get("attack"):
        return []
    p = _actor(hints, state.active)
    named = hints.get("target")
    if (named and named != target) or target not in fx.creatures_of(state, other(p)) \
            or fx.protected(state, target):
        return []
    ready = fx.ready_attackers(state, p)
    found: list[tuple[tuple[str, ...], list[tuple[str, int]]]] = []
    for size in range(1, len(ready) + 1):
        for group in combinations(ready, size):
            picks = _picks_to_defeat(state, p, list(group), target)
            if picks is not None:
                found.append((group, picks))
    moves = []
    for group, picks in found:
        options = [("inferred", str(len(found)))]
        if picks:
            options.append(("combat", ",".join(f"{u}/{i}" for u, i in picks)))
        moves.append(Move("attack", p, group, target=target, options=tuple(sorted(options))))
    return moves


def _picks_to_defeat(
    state: GameState, player: str, attackers: list[str], target: str
) -> list[tuple[str, int]] | None:
    """The fewest of the attacking player's combat abilities that raise this attack to the
    target's survival ([] when it reaches it as it is); None when even all of them do not."""
    survival = fx.survival_value(state, target, [])
    usable = [(fx.combat_bonus(state, "attack", [(u, i)], attackers, player), (u, i))
              for u in fx.creatures_of(state, player)
              for i, ability in enumerate(fx.effects_of(state, u))
              if ability.when == "combat" and fx.has_access(state, u, ability)]
    picks: list[tuple[str, int]] = []
    for bonus, pick in [(0, ("", -1)), *sorted((b, p) for b, p in usable if b > 0)[::-1]]:
        if bonus:
            picks.append(pick)
        if fx.attack_value(state, player, attackers, picks) >= survival:
            return picks
    return None


def _off_lanes(state: GameState, diff: SnapshotDiff) -> set[str]:
    """Cards that went from a lane to the discard pile in this change: those seen arriving
    there that the rules still have on a lane, and a creature seen nowhere now whose
    equipment arrived there (it lies beneath it: equipment "wird auf den Ablagestapel gelegt,
    wenn das Wesen besiegt wird"). Their equipment, seen going there too or vanishing under
    them, went with them: it is part of their move."""
    arrivals = [c for c in (*diff.appeared, *(new for _, new in diff.moved))
                if c.zone == DISCARD and _is_lane(state.where.get(c.uid, ""))]
    beneath = {state.attached[c.uid] for c in arrivals if c.uid in state.attached}
    return {c.uid for c in arrivals} | {u for u in beneath if u not in diff.visible
                                        and _is_lane(state.where.get(u, ""))}


def _draft_stack(top: str, extra: int) -> tuple[str, ...]:
    """The cards of a draft discard the camera sees the top of: "Lege die anderen 7 Karten
    auf den Ablagestapel" lays all cards beyond the KEEP (8) at once, as one stack, so the
    ones beneath the top (unseen) count too; laid one by one, the later ones seen are those
    counted unseen already (`_draft_discard`)."""
    return (*(UNKNOWN,) * max(0, extra - 1), top)


def unseen_discards(state: GameState, player: str) -> int:
    """The player's draft discards nobody saw yet (beneath a stack's top, a fresh redraw)."""
    return flags(state).get("draft_unseen", {}).get(player, 0)


def count_unseen_discards(state: GameState, player: str, change: int) -> None:
    """More (or, one shown, fewer) of the player's draft discards unseen."""
    unseen = flags(state).setdefault("draft_unseen", {})
    unseen[player] = max(0, unseen.get(player, 0) + change)


def _draft_discard(state: GameState, uid: str, hints: Mapping[str, Any]) -> Move:
    """The draft discard that `uid`, seen arriving on the discard pile, is. The camera cannot
    see whose hand it left, so the rules narrow it down: a new discard (`_draft_stack`) needs
    a player who holds cards beyond the KEEP (8) and whose hand can hold `uid` (a card known
    in one hand is that player's); a card shown (counted unseen before, now on top) needs a
    card nobody saw yet and a player with discards counted unseen (beneath a stack's top, a
    fresh redraw's hand). A person's word decides. Else, in this order: a fresh redraw's
    hand still unseen on top shows one of its cards; a new stack of the player with the most
    cards beyond 8 (the rulebook lays the 7 at once, so after one player's stack the next top
    is the other's); a card shown of the player with the most counted unseen (laid one by
    one). With none of them the card is read as seen, against "keep 8". Where both players
    could have laid it, whose it was is a guess the counts survive: each player's first top
    counts all their discards, later ones show the counted cards, and the draft's end leaves
    both with 8."""
    named = hints.get("player")
    move = _whose_draft_discard(state, uid, hints)
    holds = [p for p in PLAYERS if state.can_resolve(uid, hand_zone(p))]
    if named in PLAYERS or len(holds) == 1:
        return move
    return replace(move, options=tuple(sorted((*move.options, GUESS))))


GUESS = ("guess", "yes")
"""The option of a draft discard whose player the rules only guessed (both could have laid
it, nobody named one): a person's word later (a redraw declared) may give it to the other."""


def _whose_draft_discard(state: GameState, uid: str, hints: Mapping[str, Any]) -> Move:
    """`_draft_discard` without the mark of a guess."""
    holds = [p for p in PLAYERS if state.can_resolve(uid, hand_zone(p))]
    unseen = not state.known(uid)
    named = hints.get("player")
    if named in PLAYERS:
        p = str(named)
        if unseen and beyond_keep(state, p) <= 0 and unseen_discards(state, p) > 0:
            return _shown(p, uid)
        return Move("discard", p, _draft_stack(uid, beyond_keep(state, p)))
    redrawn = flags(state).get("draft_redrawn")
    top = state.top(DISCARD)
    if unseen and redrawn in PLAYERS and top is not None and not state.known(top) \
            and unseen_discards(state, str(redrawn)) > 0:
        return _shown(str(redrawn), uid)
    laying = [p for p in holds if beyond_keep(state, p) > 0]
    if laying:
        p = max(laying, key=lambda q: (beyond_keep(state, q), q == "p1"))
        return Move("discard", p, _draft_stack(uid, beyond_keep(state, p)))
    showing = [p for p in PLAYERS if unseen and unseen_discards(state, p) > 0]
    if showing:
        return _shown(max(showing, key=lambda q: (unseen_discards(state, q), q == "p1")), uid)
    p = max(holds or PLAYERS, key=lambda q: (beyond_keep(state, q), q == "p1"))
    return Move("discard", p, (uid,))


def draft_end_showing(state: GameState) -> bool:
    """The draft is just over: the first turn's lane phase (the beginning player "beginnt in
    der Lanephase"; nothing there lays a card on the discard pile), and the pile holds draft
    discards nobody saw: those the draft's end laid there (each player keeps 8, "Lege die
    anderen 7 Karten auf den Ablagestapel") or those counted unseen beneath a stack's top. A
    card the camera sees on top now is one of them."""
    return state.phase == "lane" and bool(flags(state).get("first_turn")) \
        and bool(state.unseen_in(DISCARD)) \
        and any(unseen_discards(state, p) > 0 for p in PLAYERS)


def _draft_end_top(state: GameState, uid: str, hints: Mapping[str, Any]) -> Move | None:
    """A card seen on top of the discard pile as the draft ends (`draft_end_showing`): one of
    the draft discards nobody saw, now on top (`_shown`), not a card played; None when it
    cannot be one of them, or a person named a player none of whose discards went unseen
    (then it is that player's card too many, as in the draft). Whose hand it left the camera
    cannot tell and nothing depends on it: unless named, it is read as the active player's
    (a card of the other player's is no sign that their turn began)."""
    if state.known(uid) or not draft_end_showing(state) or not state.can_resolve(uid, DISCARD):
        return None
    named = hints.get("player")
    if named in PLAYERS and unseen_discards(state, str(named)) <= 0:
        return None
    return _shown(_actor(hints, state.active), uid)


def _shown(player: str, uid: str) -> Move:
    """`uid` is one of `player`'s draft discards counted unseen, now on top of the pile."""
    return Move("discard", player, (uid,), options=(("shown", "yes"),))


def beyond_keep(state: GameState, player: str) -> int:
    """Cards `player` holds in the draft (hand and face down on the lanes) beyond the KEEP (8)
    to keep; negative while fewer are held."""
    return state.count(hand_zone(player)) + state.count_in(fx.lanes(player)) - KEEP


TAKEN_BACK = ("or", "taken-back")
"""The option of a trick card read from a change that may as well be a card taken back."""


def _tricks(state: GameState, diff: SnapshotDiff, tricked: int = 0,
            hints: Mapping[str, Any] | None = None) -> list[list[Move]]:
    """New backs on a trick pile are trick cards, except the `tricked` cards a tactic (seen in
    the same change, or declared before it) puts on the active player's pile from the draw
    pile. A top seen there before showing again is a take-back, unless the back now on top
    was read as taken back (then it is laid again). A back never seen replacing a top that
    may have had unseen cards beneath is a trick card or a take-back (`_first_view_top`).
    A card a person says another player laid is that player's, laid on this pile (`to`)."""
    slots: list[list[Move]] = []
    for owner in PLAYERS:
        pile = fx.trick(owner)
        p = _actor(hints or {}, owner)
        new = [c for c in diff.appeared if c.zone == pile]
        new += [c for _, c in diff.moved if c.zone == pile]
        gone = [u for u in diff.uncovered if u.zone == pile]
        relaid = [c for c in new if c.uid in flags(state).get("taken_back", {}).get(owner, [])]
        if relaid:
            slots += [[_laid(p, pile, (UNKNOWN,), (("back", c.uid),))]
                      for c in relaid]
            continue
        if gone:
            new = []  # the top now showing lay there before: cards were taken off, none added
        if owner == state.active and tricked:
            backs = [c for c in new if is_back(c.uid)][:tricked]
            new = [c for c in new if c not in backs]
        beneath = _first_view_top(state, diff, pile)
        for card in new:
            if is_back(card.uid):
                if card.uid in state.backs:
                    continue
                laid = _laid(p, pile, (UNKNOWN,), (("back", card.uid),))
                if beneath is None or len(new) > 1:
                    slots.append([laid])
                    continue
                slots.append([replace(laid, options=tuple(sorted((*laid.options, TAKEN_BACK)))),
                              Move("untrick", owner, options=(("back", beneath),))])
            else:
                slots.append([_laid(p, pile, (card.uid,))])
        slots += [[Move("untrick", owner, options=(("back", u.uid),))] for u in gone]
    return slots


def _laid(player: str, pile: str, cards: tuple[str, ...],
         options: tuple[tuple[str, str], ...] = ()) -> Move:
    """A card laid on a trick pile: `to` names the pile only when it is not the player's own."""
    to = pile if _owner(pile) != player else None
    return Move("trick", player, cards, to=to, options=options)


def _first_view_top(state: GameState, diff: SnapshotDiff, pile: str) -> str | None:
    """The back that left the top of the face-down `pile` in this change, when that top is
    one of the cards the pile held when the camera first saw it (a `setup`'s pile: the camera
    saw only its top, never the cards beneath) and more of them lie beneath: a back never
    seen showing now may be the next of them (the top taken back) as well as a card laid on
    it. None when the camera saw the cards beneath arrive."""
    old = [v.uid for v in diff.vanished if v.zone == pile and is_back(v.uid)]
    first = flags(state).get("first_view", {}).get(_owner(pile), 0)
    count = state.count(pile)
    return old[0] if len(old) == 1 and 2 <= count <= first else None


def taken_back_doubt(state: GameState, seen: tuple[tuple[Move, str], ...]) -> bool:
    """A trick card read from a change that may as well be the pile's top taken back ("Du
    kannst keine Karten vom Trickstapel zurückholen"), that would win by trick: a win is never
    given on a reading the camera cannot confirm, so a person is asked, whether the trick card
    is read after the players moved on (`Ruleset.doubtful_reading`) or in the end phase a
    person pressed or the engine inferred before (`Ruleset.unconfirmed_reading`)."""
    for move, _ in seen:
        if move.kind != "trick" or move.option(TAKEN_BACK[0]) != TAKEN_BACK[1]:
            continue
        p = move.player
        if state.count(fx.trick(p)) + 1 >= TRICK_WIN \
                and not blocks_trick_win(state.count(fx.trick(other(p)))):
            return True
    return False


def _vanished(state: GameState, diff: SnapshotDiff, handled: set[str]) -> list[list[Move]]:
    """Face-up lane cards that left the camera's view without a rule that moved them."""
    slots: list[list[Move]] = []
    covered_by = {c.on for c in diff.appeared} | {c.on for _, c in diff.moved}
    covered_by |= {c.on for c in diff.laid_on}
    off_lanes = _off_lanes(state, diff)
    for card in diff.vanished:
        if is_back(card.uid) or not _is_lane(card.zone) or card.uid in handled:
            continue
        if card.uid in off_lanes or state.attached.get(card.uid) in off_lanes:
            continue  # on the discard pile, beneath its equipment or with its creature
        if card.uid in covered_by or _still_covered(state, card):
            continue
        if state.where.get(card.uid) != card.zone:
            continue  # the engine already moved it (defeated, returned by an effect)
        owner = _owner(card.zone)
        slots.append([Move("remove", owner, (card.uid,), to=hand_zone(owner))])
    return slots


def _still_covered(state: GameState, card: SeenCard) -> bool:
    """A creature carrying equipment is hidden under it on the table."""
    return any(holder == card.uid for holder in state.attached.values())
