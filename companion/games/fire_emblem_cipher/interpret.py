"""Fire Emblem Cipher moves that explain a change of the visible table.

The camera sees the front and back rows, the bonds and the support slots fully, and only the
top card of each deck, orb pile and retreat pile. A level-up or class change covers the old
card (it vanishes under the new one); a deck's top back vanishing is a draw unless a support
card or (in the preparation) a lord or orbs came from it or a pressed mulligan shuffled it; a
card new on a retreat pile during a combat is a critical hit or an evade (a support that
failed, when the deck changed with it). Combat ends when the supports leave, the defender
leaves, or the defender's orb is taken: the engine then evaluates it, and what the players
do next (defeated unit to retreat, forced march) is checked against that result.

Changes are explained in rule order on a scratch copy of the state, so that later changes in
the same step are compared with what the earlier moves already did. Each slot lists
alternatives, the most literal reading last.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.engine.api import PLAYERS, Move, other
from companion.engine.hidden_cards import face_down_behind, top_taken_off
from companion.engine.interpreter import SnapshotDiff, candidate_product
from companion.engine.state import UNKNOWN, GameState, hand_zone
from companion.games.fire_emblem_cipher import effects as fx
from companion.games.fire_emblem_cipher.numbers import HAND_SIZE, ORBS
from companion.games.fire_emblem_cipher.state import flags
from companion.snapshot import SeenCard, is_back

if TYPE_CHECKING:
    from companion.engine.ruleset import Ruleset

PILES = tuple(f"{p}.{z}" for p in PLAYERS for z in ("deck", "orbs", "retreat"))


def _owner(zone: str) -> str:
    return fx.owner_of_zone(zone)


def _kind(zone: str) -> str:
    return fx.row_of(zone)


def _named(uid: str, hint: Any) -> bool:
    """No hint, or the hint names this card (by uid or by card id)."""
    return not hint or str(hint) in (uid, uid.rpartition("#")[0])


class _Explainer:
    """One table change, read in rule order against a scratch copy of the state."""

    def __init__(self, ruleset: Ruleset, state: GameState, diff: SnapshotDiff,
                 hints: Mapping[str, Any]) -> None:
        self.ruleset = ruleset
        self.sim = state.clone()
        self.diff = diff
        self.hints = hints
        self.slots: list[list[Move]] = []
        self.handled: set[str] = set()
        self.moved_from = {new.uid: old for old, new in diff.moved}
        self.deck_seen = {p: self._deck_changed(p) for p in PLAYERS}
        self.deck_left = dict(self.deck_seen)

    # ------------------------------------------------------------------ helpers
    def add(self, *alternatives: Move) -> None:
        """A slot of alternative moves; the scratch state follows the first one."""
        self.slots.append(list(alternatives))
        self.ruleset.apply(self.sim, alternatives[0])

    def _deck_changed(self, p: str) -> bool:
        deck = fx.zone(p, "deck")
        return any(v.zone == deck for v in self.diff.vanished) or any(
            u.zone == deck for u in self.diff.uncovered) or any(
            old.zone == deck for old, _ in self.diff.moved)

    def arrivals(self, zone_kind: str) -> list[SeenCard]:
        """Cards now seen in a zone of this kind that were not there before."""
        cards = [c for c in self.diff.appeared if _kind(c.zone) == zone_kind]
        cards += [new for old, new in self.diff.moved if _kind(new.zone) == zone_kind]
        return [c for c in cards if _owner(c.zone) in PLAYERS]

    def vanished_in(self, zone: str) -> list[SeenCard]:
        return [v for v in self.diff.vanished if v.zone == zone]

    # ------------------------------------------------------------------ the reading
    def explain(self) -> list[list[Move]]:
        if self.sim.phase == "setup":
            self.preparation()
        else:
            self.inferred_attack()
            self.supports()
            self.retreat_arrivals()
            self.combat_end()
        self.orbs()
        self.draws()
        self.field_arrivals()
        self.bond_arrivals()
        self.leavers()
        self.taps()
        return candidate_product(self.slots)

    def preparation(self) -> None:
        prep = flags(self.sim).get("prep", {})
        for p in PLAYERS:
            front = fx.zone(p, "front")
            for card in [c for c in self.arrivals("front") if c.zone == front]:
                self.handled.add(card.uid)
                if is_back(card.uid):
                    self.add(Move("choose-lord", p, (UNKNOWN,), to=front,
                                  options=(("back", card.uid),)))
                    self.deck_left[p] = False
                    continue
                backs = [v for v in self.vanished_in(front) if is_back(v.uid)]
                if backs:
                    self.handled.add(backs[0].uid)
                    self.add(Move("reveal-lord", p, (card.uid,), options=(("back", backs[0].uid),)))
                else:
                    self.add(Move("choose-lord", p, (card.uid,), to=front, value="up"))
                    self.deck_left[p] = False
            orbs = fx.zone(p, "orbs")
            if [c for c in self.arrivals("orbs") if c.zone == orbs] and p in prep:
                owed = max(1, ORBS - prep[p]["orbs"])
                self.add(Move("orbs", p, value=owed))
                self.deck_left[p] = False
            if self.deck_left[p] and p in prep:
                info = prep[p]
                deal = Move("deal", p, value=max(1, HAND_SIZE - info["dealt"]))
                dealt = info["dealt"] >= HAND_SIZE
                if dealt and not info["mulligan"]:
                    self.add(Move("mulligan", p), deal)  # the hand went back and was redrawn
                elif not (dealt and info["mulligan"] and info["orbs"] == 0):
                    self.add(deal)
                # else: a pressed mulligan (the engine already shuffled and redrew the hand)
                # seen: the deck's new top is its shuffle; nobody draws before the orbs
                self.deck_left[p] = False

    def inferred_attack(self) -> None:
        """Supports turned without a declared attack: the unit tapped now attacked; a person
        picks the target when several are in range."""
        new_support = [c for c in self.diff.appeared if _kind(c.zone) == "support"]
        if fx.combat(self.sim) is not None or not new_support:
            return
        p = self.sim.active
        moves: list[Move] = []
        for card in self.diff.tapped:
            uid = card.uid
            if uid in fx.units_of(self.sim, p) and uid not in self.sim.tapped:
                for target in fx.units_of(self.sim, "p2" if p == "p1" else "p1"):
                    if _named(target, self.hints.get("target")):
                        moves.append(Move("attack", p, (uid,), target=target))
        if moves:
            self.add(*moves)

    def supports(self) -> None:
        for card in self.arrivals("support"):
            p = _owner(card.zone)
            self.handled.add(card.uid)
            if card.uid in self.moved_from or is_back(card.uid):
                self.add(Move("remove", p, (card.uid,), to=card.zone))
                continue
            deck = fx.zone(p, "deck")
            kept = not self.deck_seen[p] and self.sim.count(deck) > 0
            self.add(Move("support", p, (card.uid,),
                          options=(("deck", "unchanged"),) if kept else ()))
            self.deck_left[p] = False

    def retreat_arrivals(self) -> None:
        for card in [c for c in self.diff.appeared if _kind(c.zone) == "retreat"]:
            if is_back(card.uid) or card.uid in self.handled:
                continue
            if self.sim.where.get(card.uid) == card.zone:
                continue  # the engine put it there (a defeated unit, a failed support)
            p = _owner(card.zone)
            self.handled.add(card.uid)
            c = fx.combat(self.sim)
            if c is not None and self.failed_support(c, p, card.uid):
                literal = Move("critical" if p == c["attacking"] else "evade", p, (card.uid,))
                self.add(Move("support", p, (card.uid,)), literal)
                self.deck_left[p] = False
            elif c is not None and p == c["attacking"]:
                self.add(Move("critical", p, (card.uid,)))
            elif c is not None and p == c["defending"]:
                self.add(Move("evade", p, (card.uid,)))
            else:
                self.add(Move("discard", p, (card.uid,), to=card.zone))

    def failed_support(self, c: dict[str, Any], p: str, uid: str) -> bool:
        """A card new on p's retreat pile while p's deck changed, p owing a support, with the
        name of p's fighter: the support card turned and failed (it retreats at once), never
        seen in the support slot."""
        if not self.deck_left[p] or p not in (c["attacking"], c["defending"]):
            return False
        if p in c["supports"] or uid not in self.sim.where:
            return False
        unit = fx.fighter(c, p)
        return unit in self.sim.where and fx.name_of(self.sim, uid) == fx.name_of(self.sim, unit)

    def combat_end(self) -> None:
        c = fx.combat(self.sim)
        if c is None:
            return
        gone = {v.uid for v in self.diff.vanished} | set(self.moved_from)
        supports = [u for p, u in c["supports"].items()
                    if u is not None and self.sim.where.get(u) == fx.zone(p, "support")]
        target = c["target"]
        target_left = target in gone and target not in self.covered()
        defender = c["defending"]
        orb_taken = bool([v for v in self.vanished_in(fx.zone(defender, "orbs"))]) and \
            fx.is_lord(self.sim, target)
        if any(u in gone for u in supports) or target_left or orb_taken:
            self.add(Move("end-combat", c["attacking"]))

    def covered(self) -> set[str]:
        """Field cards that vanished under a same-name card laid on them (level-up)."""
        found: set[str] = set()
        for card in self.diff.appeared:
            if not fx.is_field(card.zone) or is_back(card.uid):
                continue
            base = self.base_for(card)
            if base is not None:
                found.add(base)
        return found

    def base_for(self, card: SeenCard) -> str | None:
        """The unit a new field card was laid on: the one it lies on, or a same-name card of
        the same row that vanished from view in this step."""
        sim = self.sim
        if card.on is not None and not is_back(card.on):
            return fx.unit_with(sim, card.on)
        if card.uid not in sim.where:
            return None
        name = sim.facts(card.uid).name
        units = [v for v in self.vanished_in(card.zone)
                 if not is_back(v.uid) and v.uid in sim.where
                 and fx.unit_with(sim, v.uid) == v.uid]
        for v in units:
            if sim.facts(v.uid).name == name:
                return v.uid
        # a card of another name laid on a unit (a level-up against the rules): the unit
        # vanished from view right where the new card lies now
        beneath = [v for v in units if _close(v, card)]
        return beneath[0].uid if len(beneath) == 1 else None

    def orbs(self) -> None:
        if self.sim.phase == "setup":
            return
        for p in PLAYERS:
            orbs = fx.zone(p, "orbs")
            gone = [v for v in self.vanished_in(orbs) if is_back(v.uid)]
            gone += [old for old, _ in self.diff.moved if old.zone == orbs and is_back(old.uid)]
            if gone:  # an orb carried straight elsewhere passed through the hand
                if self.orb_taken_as_the_turn_passed(p):
                    continue
                self.add(Move("orb-to-hand", p))

    def orb_taken_as_the_turn_passed(self, p: str) -> bool:
        """The engine took p's orb when the end of the action phase ended the combat that
        defeated p's lord, and p's turn began in the same step ("end turn" pressed with the
        combat open): the turn's start forgot that the orb was still to be seen going, and
        the camera sees it now, before p did anything of the new turn. The attacker still
        lies tapped: the combat was in the turn that just ended, not an older one."""
        sim = self.sim
        if flags(sim).get("orb_acks", {}).get(p, 0) > 0:
            return False  # the rules still expect the orb: orb-to-hand acknowledges it
        last = flags(sim).get("last_combat")
        if sim.active != p or sim.phase != "start" or last is None:
            return False
        attacker = fx.unit_with(sim, str(last.get("attacker")))
        return (bool(last.get("defeated")) and last.get("defending") == p
                and fx.is_lord(sim, str(last.get("target"))) and attacker in sim.tapped)

    def draws(self) -> None:
        for p in PLAYERS:
            if self.deck_left[p]:
                self.deck_left[p] = False
                self.add(Move("draw", p))

    def field_arrivals(self) -> None:
        sim = self.sim
        for card in self.arrivals("front") + self.arrivals("back"):
            uid = card.uid
            if uid in self.handled:
                continue
            self.handled.add(uid)
            p = _owner(card.zone)
            if sim.where.get(uid) in (hand_zone(other(p)), fx.zone(other(p), "deck")):
                p = other(p)  # laid from the other player's hand (hidden) onto this side
            if is_back(uid):
                if uid not in sim.backs:
                    self.add(Move("face-down", p, (UNKNOWN,), to=card.zone,
                                  options=(("back", uid),)))
                continue
            old = self.moved_from.get(uid)
            if old is not None:
                if sim.where.get(uid) == card.zone:
                    continue  # forced march: the engine moved it already
                if fx.is_field(old.zone) and _owner(old.zone) == p:
                    upright = () if card.tapped else (("upright", "yes"),)
                    self.add(Move("move", p, (uid,), to=card.zone, options=upright))
                else:
                    self.add(Move("remove", p, (uid,), to=card.zone))
                continue
            if sim.where.get(uid) == card.zone:
                continue
            base = self.base_for(card)
            if base is not None:
                self.handled.add(base)
                level = Move("level-up", p, (uid,), target=base)
                change = Move("class-change", p, (uid,), target=base)
                if uid in sim.where and sim.facts(uid).get("cc_cost") is None:
                    self.add(level)
                elif self.deck_seen[p]:
                    self.add(change, level)
                else:
                    self.add(level, change)
                continue
            self.add(Move("deploy", p, (uid,), to=card.zone))

    def bond_arrivals(self) -> None:
        for card in self.arrivals("bonds"):
            uid = card.uid
            if uid in self.handled:
                continue
            self.handled.add(uid)
            p = _owner(card.zone)
            zone = card.zone
            if is_back(uid):
                turned = [v for v in self.vanished_in(zone)
                          if not is_back(v.uid) and v.uid not in self.handled]
                if turned:
                    self.handled.add(turned[0].uid)
                    self.add(Move("flip-bond", p, (turned[0].uid,), options=(("back", uid),)))
                elif uid not in self.sim.backs:
                    self.add(Move("bond", p, (UNKNOWN,), value="down", options=(("back", uid),)))
                continue
            backs = [v for v in self.vanished_in(zone) if is_back(v.uid)]
            if uid in self.moved_from:
                self.add(Move("remove", p, (uid,), to=zone))
            elif backs and uid not in self.sim.public:
                self.handled.add(backs[0].uid)
                self.add(Move("reveal-bond", p, (uid,), options=(("back", backs[0].uid),)))
            else:
                self.add(Move("bond", p, (uid,), value="up"))

    def leavers(self) -> None:
        """Cards that left a row, the bonds or a support slot without a move explaining it."""
        sim = self.sim
        watched = ("front", "back", "bonds", "support")
        for old, new in self.diff.moved:
            if old.uid in self.handled or _kind(old.zone) not in watched:
                continue
            if _kind(new.zone) in ("front", "back", "bonds", "support"):
                continue  # arrivals were read above
            self.handled.add(old.uid)
            if sim.where.get(old.uid) == new.zone or old.uid not in sim.where:
                continue
            self.add(Move("remove", _owner(old.zone), (old.uid,), to=new.zone))
        self.retreat_tops_taken()
        covered = self.covered()
        retreat_changed = {_owner(c.zone) for c in [*self.diff.appeared, *self.diff.vanished]
                           if _kind(c.zone) == "retreat"}
        taken: set[str] = set()
        for v in self.diff.vanished:
            if is_back(v.uid) and v.uid not in self.handled and _kind(v.zone) == "bonds":
                bond = face_down_behind(self.sim, v.uid, v.zone, taken)
                if bond is not None:  # a face-down bond taken off the table
                    taken.add(bond)
                    self.handled.add(v.uid)
                    self.add(Move("remove", _owner(v.zone), (bond,), to=hand_zone(_owner(v.zone))))
                continue
            if is_back(v.uid) or v.uid in self.handled or v.uid in covered:
                continue
            if _kind(v.zone) not in watched or v.uid not in sim.where:
                continue
            if sim.where[v.uid] != v.zone or fx.unit_with(sim, v.uid) not in (v.uid, None):
                continue  # the engine moved it already, or it lies under a newer card
            p = _owner(v.zone)
            to = fx.zone(p, "retreat") if p in retreat_changed else hand_zone(p)
            self.handled.add(v.uid)
            self.add(Move("remove", p, (v.uid,), to=to))

    def retreat_tops_taken(self) -> None:
        """A retreat pile's top card gone while a card the rules hold beneath it shows again
        (or the pile emptied): taken off the open pile, which no rule does."""
        sim = self.sim
        gone = [c for c in self.diff.uncovered if _kind(c.zone) == "retreat"]
        gone += [v for v in self.diff.vanished
                 if _kind(v.zone) == "retreat" and top_taken_off(sim, self.diff, v)]
        for card in gone:
            uid = card.uid
            if is_back(uid) or uid in self.handled or sim.where.get(uid) != card.zone:
                continue
            self.handled.add(uid)
            p = _owner(card.zone)
            self.add(Move("remove", p, (uid,), to=hand_zone(p)))

    def taps(self) -> None:
        sim = self.sim
        for card in self.diff.tapped:
            uid = card.uid
            if uid not in sim.where or uid in sim.tapped:
                continue
            p = _owner(card.zone)
            if _kind(card.zone) == "bonds":
                self.add(Move("use-bond", p, (uid,)))
            elif fx.is_field(card.zone):
                self.add(Move("tap", p, (uid,)))
        for card in self.diff.untapped:
            if card.uid in sim.tapped:
                self.add(Move("untap", _owner(card.zone), (card.uid,)))


COVER_RADIUS_MM = 20.0
"""A card laid on another lies within this distance of the card it covers (a squared pile
lies a few millimetres off)."""


def _close(under: SeenCard, top: SeenCard) -> bool:
    """Whether `top` lies where `under` lay (positions unknown: the only candidate counts)."""
    if None in (under.x_mm, under.y_mm, top.x_mm, top.y_mm):
        return True
    dx = float(under.x_mm or 0.0) - float(top.x_mm or 0.0)
    dy = float(under.y_mm or 0.0) - float(top.y_mm or 0.0)
    return dx * dx + dy * dy <= COVER_RADIUS_MM * COVER_RADIUS_MM


def explain(ruleset: Ruleset, state: GameState, diff: SnapshotDiff,
            hints: Mapping[str, Any]) -> list[list[Move]]:
    return _Explainer(ruleset, state, diff, hints).explain()
