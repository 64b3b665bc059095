"""Creature Crush, complete as its rulebook says (rules/creature-crush.de.txt).

Setup: a 20-card camp (Lager) per player, every card once (Geplänkel, Arena and Liga differ
only in how the camp is built), 4 cards to hand before round 1. Turns of three phases: start
(draw 1, roll 3 start dice; a triple adds a 4th, a quad a 5th, effects add more, at most 5; the
opening player rolls 2 in the first turn), Kampf (summon and attack, each paid with burned dice
adding up exactly to the cost; crush cards laid face down for a count of dice, flipped) and
Taktik (move creatures, 1 die each; swap two, 2 dice; Träge takes 1 damage). Unused start dice
burn at the end of the turn. Damage lies on creatures as red dice; a creature is destroyed at
damage >= life and goes to the hell of its last owner. A direct attack destroys the top camp
card (then a random hand card, a random crush card, a random enemy). Win: every opposing card
in hell, or a concession; draw: both agree, or a stalemate.

What the camera cannot know (hand cards, the cost of a face-down crush card, whether a flip
condition holds) is prompted and checked as soon as it shows (a crush card's dice are checked
against its cost when it is flipped). A target chosen "mit X Würfeln" is checked against the
dice rolled for the effect: its cost is one die's value or several added.

Move kinds (besides next-phase / pass / concede / declare):
  draw (value = count), roll (options dice), burn (options dice), summon, attack (target = uid
  or p1/p2 for a direct attack), set-crush, flip, move, swap, mark (red dice on a creature),
  to-hell, revive, control, to-hand, agree-draw, settle (the table caught up with something
  the rules already did: a destroyed camp card seen in hell).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.engine.api import (
    PLAYERS,
    ChanceEvent,
    GameConfig,
    Move,
    Outcome,
    Prompt,
    Score,
    SetupError,
    Violation,
    other,
)
from companion.engine.cards import card_id_of
from companion.engine.effect_words import draw_cards
from companion.engine.flow import Flow, FlowSpec, PhaseSpec, Text
from companion.engine.interpreter import SnapshotDiff
from companion.engine.moves import MoveRule, MoveTable
from companion.engine.rule_helpers import RuleChecks, take_from_hand
from companion.engine.ruleset import CORE_KINDS, Ruleset
from companion.engine.setup import (
    CopyNumbers,
    card_ref,
    deal_hands,
    lay_face_down,
    sample_decks,
    table_cards,
)
from companion.engine.state import UNKNOWN, GameState, hand_zone
from companion.games.creature_crush import board as bd
from companion.games.creature_crush import effects as fx
from companion.games.creature_crush import interpret as cc_interpret
from companion.games.creature_crush.numbers import (
    DIE_FACES,
    LAGER_SIZE,
    MAX_START_DICE,
    MOVE_COST,
    MUNTER_ACTIONS,
    OPENER_FIRST_TURN_DICE,
    OPENING_HAND,
    QUAD_DICE,
    START_DICE,
    SWAP_COST,
    TRAEGE_DAMAGE,
    TRIPLE_DICE,
)
from companion.games.creature_crush.state import LastAttack, flags
from companion.games.creature_crush.texts import violation

CHECKS = RuleChecks(violation, not_in_hand="cc.not-in-hand", hand_empty="cc.hand-empty",
                    wrong_phase="cc.wrong-phase", not_your_turn="cc.not-your-turn")
DEFAULT_DECKS = {"p1": "glutlager", "p2": "moorlager"}

PAYING = ("summon", "attack", "set-crush", "move", "swap")
PLACING = ("summon", "move", "revive", "control")
"""Moves that put a creature on a place: into the own C zone they are only the wrong place
(the rules keep the creature where it was, so nothing else of the move happened)."""


class CreatureCrush(Ruleset):
    game_id = "creature-crush"
    rulebook = "creature-crush.de.txt"
    expect_keys = ("damage", "start_dice", "destroyed", "hell")

    def __init__(self) -> None:
        hidden_note = Text(
            "you check yourselves: flip conditions, card searches (the camera cannot see "
            "hands); roll the dice of an effect 'with X dice' where the camera sees them",
            "prüft selbst: Flipp-Voraussetzungen, Kartensuchen (die Kamera sieht keine "
            "Handkarten); würfelt die Würfel eines Effekts 'mit X Würfeln', wo die Kamera sie "
            "sieht",
        )
        self.flow = Flow(
            FlowSpec(
                setup_phases=(
                    PhaseSpec(
                        "opening",
                        Text("Battle preparation", "Schlachtvorbereitung"),
                        must=(Text(f"both players take their top {OPENING_HAND} camp cards",
                                   f"beide Spieler nehmen ihre obersten {OPENING_HAND} "
                                   "Lagerkarten"),),
                        ends=Text(f"both players hold {OPENING_HAND} cards",
                                  f"beide Spieler halten {OPENING_HAND} Karten"),
                        automatic=(Text(f"the battle begins when both took {OPENING_HAND} cards",
                                        f"die Schlacht beginnt, wenn beide {OPENING_HAND} Karten "
                                        "genommen haben"),),
                        end_check=self._opening_missing,
                        setup=True,
                        moves=("draw",),
                    ),
                ),
                turn_phases=(
                    PhaseSpec(
                        "start",
                        Text("Start phase", "Startphase"),
                        must=(Text("draw a card", "eine Karte ziehen"),
                              Text("roll the start dice", "die Startwürfel werfen")),
                        ends=Text("you drew and rolled", "du hast gezogen und gewürfelt"),
                        automatic=(Text(f"{START_DICE} start dice ({OPENER_FIRST_TURN_DICE} in "
                                        "the opening player's first turn); a triple adds a "
                                        f"{TRIPLE_DICE}th, a quad a {QUAD_DICE}th; at most "
                                        f"{MAX_START_DICE}",
                                        f"{START_DICE} Startwürfel ({OPENER_FIRST_TURN_DICE} im "
                                        "ersten Zug des Eröffners); ein Drilling gibt einen "
                                        f"{TRIPLE_DICE}., ein Vierling einen {QUAD_DICE}.; "
                                        f"höchstens {MAX_START_DICE}"),),
                        end_check=self._start_missing,
                        moves=("draw", "roll"),
                    ),
                    PhaseSpec(
                        "kampf",
                        Text("Combat phase", "Kampfphase"),
                        may=(
                            Text("summon creatures to B (to A next to an occupied B place), "
                               "burning dice that add up exactly to the cost",
                               "Creatures in die B-Zone beschwören (in die A-Zone neben einem "
                               "besetzten B-Platz), mit Würfeln, die genau die Kosten ergeben"),
                            Text("attack with allies (pay the cost again each time)",
                               "mit Verbündeten angreifen (Kosten jedes Mal neu bezahlen)"),
                            Text("lay crush cards face down into C (burn their count of dice)",
                               "Crushkarten verdeckt in die C-Zone legen (Anzahl Würfel "
                               "verbrennen)"),
                            Text("flip crush cards", "Crushkarten umdrehen"),
                        ),
                        ends=Text("you end the phase", "du beendest die Phase"),
                        automatic=(hidden_note,),
                        end_check=self._unpaid,
                        moves=("summon", "attack", "set-crush"),
                    ),
                    PhaseSpec(
                        "taktik",
                        Text("Tactics phase", "Taktikphase"),
                        may=(
                            Text(f"move a creature to a free place ({MOVE_COST} die)",
                                 "eine Creature auf einen freien Platz verschieben "
                                 f"({MOVE_COST} Würfel)"),
                            Text(f"swap two allies ({SWAP_COST} dice); Träge takes "
                                 f"{TRAEGE_DAMAGE} damage when moved",
                                 f"zwei Verbündete tauschen ({SWAP_COST} Würfel); Träge "
                                 f"erleidet beim Verschieben {TRAEGE_DAMAGE} Schaden"),
                        ),
                        ends=Text("you end your turn", "du beendest deinen Zug"),
                        automatic=(Text("unused start dice burn at the end of the phase",
                                      "unbenutzte Startwürfel verbrennen am Ende der Phase"),),
                        end_check=self._turn_end_missing,
                        moves=("move", "swap"),
                    ),
                ),
                on_turn_begin=self._turn_begins,
                on_turn_end=self._turn_ends,
            )
        )

    # ================================================================== setup
    def setup(self, config: GameConfig) -> GameState:
        state = self.new_state(config)
        for p in PLAYERS:
            state.add_zone(bd.lager(p), hidden=True)
            state.add_zone(hand_zone(p), hidden=True)
            state.add_zone(bd.hell(p))
            for zone in bd.all_places(p):
                state.add_zone(zone)
        decks = self._decks(state, config)
        setup = config.setup
        on_table = table_cards(setup)
        for p, uids in decks.items():
            for uid in reversed(uids):  # top card first in the list, last in the zone
                if uid not in on_table:
                    state.register(uid, bd.lager(p), p)
            state.shuffle(bd.lager(p))
        flags(state).update({
            "lager_lists": {p: [card_id_of(u) for u in uids] for p, uids in decks.items()},
            "opening": {p: 0 for p in PLAYERS},
            "dice": {p: {} for p in PLAYERS},
            "pool": {p: {} for p in PLAYERS},
            "owed": [],
            "damage": {},
            "red": {},
            "crush_paid": {},
            "permits": [],
            "extra_dice": {p: 0 for p in PLAYERS},
            "expect_lager": {p: 0 for p in PLAYERS},
            "unseen_hell": {p: 0 for p in PLAYERS},
            "destroyed": [],
            "no_attack": {},
            "draw_offer": None,
        })
        if setup:
            self._setup_midgame(state, setup, decks, config.owners)
            return state
        self.flow.start(state)
        return state

    def _decks(self, state: GameState, config: GameConfig) -> dict[str, list[str]]:
        decks: dict[str, list[str]] = {}
        numbers = CopyNumbers(u for uids in config.decks.values() for u in uids)
        for key, uids in config.decks.items():
            p = key.split(".")[0]
            if p not in PLAYERS:
                raise SetupError(f"Creature Crush decks belong to p1 or p2, not {key!r}")
            decks.setdefault(p, []).extend(numbers.uid(ref) for ref in uids)
        if config.decks:
            return {p: decks.get(p, []) for p in PLAYERS}
        return sample_decks(self.game_id, DEFAULT_DECKS)

    def _setup_midgame(self, state: GameState, setup: Mapping[str, Any],
                       decks: Mapping[str, list[str]], owners: Mapping[str, str]) -> None:
        """Start from a position (DESIGN.md `setup`): table, hands, dice, turn, active, phase.

        A table card belongs to the deck that lists it, else to whom the script says, else
        to the side it lies on.
        """
        listed = {u: p for p, uids in decks.items() for u in uids}
        for zone, cards in (setup.get("table") or {}).items():
            if zone not in state.zones or state.is_hidden(zone):
                raise SetupError(f"setup: {zone!r} is not a Creature Crush table zone")
            if not isinstance(cards, list):
                raise SetupError(f"setup: {zone} needs a list of cards")
            for item in cards:
                uid = card_ref(item)
                side = bd.side(zone) if bd.side(zone) in PLAYERS else "p1"
                owner = listed.get(uid) or owners.get(uid, side)
                state.register(uid, zone, owner if owner in PLAYERS else side)
                state.public.add(uid)
        for uid in lay_face_down(state, setup):
            flags(state)["crush_paid"][uid] = -1  # paid before the referee joined
        deal_hands(state, setup, bd.lager)
        self.start_midgame(state, setup, phase="kampf", turn=3)
        flags(state)["opening"] = {p: OPENING_HAND for p in PLAYERS}
        self._setup_dice(state, setup)

    def _setup_dice(self, state: GameState, setup: Mapping[str, Any]) -> None:
        """`dice`: the active player's start dice still in the dice zone (rolled already),
        and red damage dice lying on creatures (`on: {die: creature}`)."""
        on = dict(setup.get("on") or {})
        rolled = 0
        for die, spec in sorted(dict(setup.get("dice") or {}).items()):
            value = int(spec["value"]) if isinstance(spec, Mapping) else int(spec)
            zone = spec.get("zone") if isinstance(spec, Mapping) else None
            p, kind = bd.die_owner(die), bd.die_kind(die)
            holder = on.get(die)
            if kind == "r" and holder is not None:
                uid = card_ref(holder)
                flags(state)["red"][die] = [uid, value]
                flags(state)["damage"][uid] = self.damage_of(state, uid) + value
            elif kind == "w" and p == state.active and zone in (None, f"{p}.dice"):
                flags(state)["dice"][p][die] = value
                rolled += 1
        if rolled:
            flags(state)["rolled"] = rolled

    # ================================================================== turn hooks
    def _turn_begins(self, state: GameState) -> None:
        state.reset_counters("turn")
        p = state.active
        extra = flags(state).get("extra_dice", {})
        flags(state)["turn_extra"] = int(extra.get(p, 0))
        extra[p] = 0
        flags(state)["rolled"] = 0
        flags(state)["drawn"] = 0
        flags(state)["draw_offer"] = None

    def _turn_ends(self, state: GameState) -> None:
        """Unused start dice burn; open payments and effect permits lapse with the turn."""
        for p in PLAYERS:
            flags(state)["dice"][p] = {}
            flags(state)["pool"][p] = {}
        flags(state)["owed"] = []
        flags(state)["permits"] = []
        flags(state)["last_attack"] = None
        flags(state)["last_moved"] = None

    def _first_turn_of_opener(self, state: GameState) -> bool:
        return state.turn == 1 and state.active == state.first

    # ================================================================== phase checks
    def _opening_missing(self, state: GameState) -> list[Violation]:
        return [violation("cc.opening-missing", player=p) for p in PLAYERS
                if flags(state)["opening"][p] < OPENING_HAND]

    def _start_missing(self, state: GameState) -> list[Violation]:
        found = []
        p = state.active
        if not flags(state).get("drawn") and state.count(bd.lager(p)) > 0:
            found.append(violation("cc.must-draw", zones=(bd.lager(p),)))
        if not flags(state).get("rolled"):
            found.append(violation("cc.must-roll", zones=(f"{p}.dice",)))
        return found

    def _turn_end_missing(self, state: GameState) -> list[Violation]:
        return self._unpaid(state) + self._crush_left(state)

    @staticmethod
    def _crush_left(state: GameState) -> list[Violation]:
        """"Nachdem der Effekt einer C-Karte abgehandelt wurde, wird sie in die Hölle gelegt":
        a crush card flipped face up that still lies in its C zone as the turn ends (named
        once)."""
        shown = flags(state).get("crush_shown", [])
        found = [violation("cc.crush-left", cards=(uid,), zones=(bd.hell(state.owner[uid]),))
                 for uid in shown if uid in state.where]
        flags(state)["crush_shown"] = []
        return found

    def _unpaid(self, state: GameState) -> list[Violation]:
        return [violation("cc.unpaid", what=o["what"], cost=o["cost"],
                          unit=" dice" if o["mode"] == "count" else "")
                for o in flags(state).get("owed", [])]

    # ================================================================== dice
    def expected_dice(self, state: GameState, values: list[int]) -> tuple[int, str, str]:
        """How many start dice the rules give for these rolled values (in roll order)."""
        base = OPENER_FIRST_TURN_DICE if self._first_turn_of_opener(state) else START_DICE
        count = base
        why, why_de = [f"{base} base"], [f"{base} Grundwürfel"]
        if base == START_DICE and len(values) >= START_DICE \
                and len(set(values[:START_DICE])) == 1:
            count = TRIPLE_DICE
            why.append("triple: +1")
            why_de.append("Drilling: +1")
            if len(values) >= TRIPLE_DICE and len(set(values[:TRIPLE_DICE])) == 1:
                count = QUAD_DICE
                why.append("quad: +1")
                why_de.append("Vierling: +1")
        extra = int(flags(state).get("turn_extra", 0))
        if extra:
            count += extra
            why.append(f"effects: +{extra}")
            why_de.append(f"Effekte: +{extra}")
        count = min(count, MAX_START_DICE)
        return count, ", ".join(why), ", ".join(why_de)

    def _roll_values(self, state: GameState) -> dict[str, int]:
        """A deterministic roll for the seeded random player (legal_moves lists it)."""
        rng = random.Random(f"{state.seed}/{state.turn}/{state.active}/roll")
        values: list[int] = []
        while True:
            need, _, _ = self.expected_dice(state, values)
            if len(values) >= need:
                break
            values.append(rng.randint(1, DIE_FACES))
        return {f"{state.active}.w{i + 1}": v for i, v in enumerate(values[:need])}

    def _available(self, state: GameState, p: str) -> dict[str, int]:
        result: dict[str, int] = flags(state)["dice"][p]
        return result

    def _pool(self, state: GameState, p: str) -> dict[str, int]:
        result: dict[str, int] = flags(state)["pool"][p]
        return result

    def _payment(self, state: GameState, move: Move, what: str, cost: int,
                 mode: str) -> list[Violation]:
        """Can `move` be paid: exact sum ("sum") or a count of dice ("count")?"""
        p = move.player
        avail = self._available(state, p)
        pool = self._pool(state, p)
        given = bd.parse_dice(move.option("dice"))
        if given or move.option("dice") == "":
            unknown = [d for d in given if d not in avail and d not in pool]
            if unknown:
                return [violation("cc.die-unavailable", dice=",".join(unknown), player=p)]
            values = {d: avail.get(d, pool.get(d, 0)) for d in given}
            return self._exact(values, what, cost, mode)
        if mode == "count":
            if cost <= 0 or len(pool) + len(avail) >= cost:
                return []
            return [violation("cc.cannot-pay", what=what, cost=cost, unit=" dice",
                              dice=bd.dice_shown({**pool, **avail}))]
        if bd.exact_sum(pool, cost) is not None:
            return []
        if pool and sum(pool.values()) >= cost:
            return [violation("cc.wrong-payment", what=what, cost=cost,
                              dice=bd.dice_shown(pool))]
        if bd.exact_sum({**pool, **avail}, cost) is None:
            return [violation("cc.cannot-pay", what=what, cost=cost,
                              dice=bd.dice_shown({**pool, **avail}))]
        return []

    @staticmethod
    def _exact(values: Mapping[str, int], what: str, cost: int, mode: str) -> list[Violation]:
        if mode == "count":
            if cost > 0 and len(values) != cost:
                return [violation("cc.wrong-count", what=what, cost=cost, count=len(values))]
            return []
        if sum(values.values()) != cost:
            return [violation("cc.wrong-payment", what=what, cost=cost,
                              dice=bd.dice_shown(values))]
        return []

    def _pay(self, state: GameState, move: Move, what: str, cost: int, mode: str) -> int:
        """Burn the dice for `move` (given, or from the pool, or owed); the dice count paid."""
        p = move.player
        avail = self._available(state, p)
        pool = self._pool(state, p)
        given = bd.parse_dice(move.option("dice"))
        if given or move.option("dice") == "":
            for d in given:
                avail.pop(d, None)
                pool.pop(d, None)
            return len(given)
        if mode == "count" and cost <= 0:  # X: every die burned for it
            paid = len(pool)
            pool.clear()
            return paid
        chosen = bd.exact_count(pool, cost) if mode == "count" else bd.exact_sum(pool, cost)
        if chosen is None and mode == "sum" and pool and sum(pool.values()) >= cost:
            chosen = list(pool)  # burned for this, but the wrong values (recorded)
        if chosen is not None:
            for d in chosen:
                pool.pop(d)
            return len(chosen)
        both = {**pool, **avail}
        payable = len(both) >= cost if mode == "count" else bd.exact_sum(both, cost) is not None
        if payable:  # the dice are burned next (a declared attack, the camera one step late)
            flags(state)["owed"].append({"player": p, "what": what, "cost": cost, "mode": mode})
        return 0

    def _settle(self, state: GameState, p: str) -> None:
        pool = self._pool(state, p)
        for owed in list(flags(state)["owed"]):
            if owed["player"] != p:
                continue
            if owed["mode"] == "count":
                chosen = bd.exact_count(pool, owed["cost"])
            else:
                chosen = bd.exact_sum(pool, owed["cost"])
            if chosen is None:
                continue
            for d in chosen:
                pool.pop(d)
            flags(state)["owed"].remove(owed)

    # ================================================================== helpers
    def _actions_allowed(self, state: GameState, uid: str) -> int:
        summoned = state.counter("turn", f"summoned:{uid}") > 0
        return MUNTER_ACTIONS if summoned and state.facts(uid).has_keyword("Munter") else 1

    def _acted(self, state: GameState, uid: str) -> list[Violation]:
        if state.counter("turn", f"acted:{uid}") >= self._actions_allowed(state, uid):
            return [violation("cc.acted", cards=(uid,))]
        return []

    @staticmethod
    def _wrong_place(p: str, zone: str, uid: str) -> list[Violation]:
        """A creature's place must be an A or B place of `p`'s field; its own C zone gets its
        own violation ("die C-Zone ist den Crushkarten vorbehalten"), any other place the
        general one."""
        if bd.is_crush_place(zone) and bd.side(zone) == p:
            return [violation("cc.creature-in-c", cards=(uid,), zones=(zone,))]
        if not bd.is_field(zone) or bd.side(zone) != p:
            return [violation("cc.bad-place", cards=(uid,), zones=(zone,), player=p)]
        return []

    def _summon_place(self, state: GameState, p: str, zone: str, uid: str) -> list[Violation]:
        wrong = self._wrong_place(p, zone, uid)
        if wrong:
            return wrong
        found = []
        taken = [u for u in state.cards_in(zone) if u != uid]
        if taken:
            found.append(violation("cc.place-taken", cards=(uid,), zones=(zone,),
                                   other=taken[-1]))
        if bd.row(zone) == "A":
            b = bd.adjacent_b(zone)
            if not [u for u in state.cards_in(b) if u != uid]:
                found.append(violation("cc.a-needs-b", cards=(uid,), zones=(zone, b), b=b))
        return found

    def damage_of(self, state: GameState, uid: str) -> int:
        return int(flags(state)["damage"].get(uid, 0))

    def _add_damage(self, state: GameState, uid: str, amount: int) -> None:
        if uid not in state.where or not bd.is_field(state.where[uid]) or amount == 0:
            return
        damage = max(0, self.damage_of(state, uid) + amount)
        flags(state)["damage"][uid] = damage
        if damage >= state.facts(uid).number("life", 1):
            self._destroy(state, uid)

    def _destroy(self, state: GameState, uid: str, to: str | None = None) -> None:
        """A field card goes to the hell of its last owner (whose field it lay on)."""
        zone = state.where[uid]
        p = bd.side(zone) if bd.side(zone) in PLAYERS else state.owner.get(uid, "p1")
        state.move(uid, to or bd.hell(p))
        flags(state)["damage"].pop(uid, None)
        flags(state)["red"] = {d: v for d, v in flags(state)["red"].items() if v[0] != uid}
        flags(state)["destroyed"].append(uid)
        facts = state.facts(uid)
        if bd.is_field(zone) and facts.type == "creature" and fx.trigger(facts) == "Hölle":
            self._run_effect(state, p, uid)

    def _run_effect(self, state: GameState, player: str, source: str,
                    target: str | None = None) -> None:
        """Carry out or permit the effect of `source` for `player` (see effects.py)."""
        effect = fx.card_effect(state.facts(source))
        if effect is None:
            return
        name = state.facts(source).name
        do = effect["do"]
        last = flags(state).get("last_attack") or {}
        if do == "extra-dice":
            flags(state)["extra_dice"][player] += int(effect.get("n", 1))
        elif do == "prevent-attack":
            self._prevent(state, last)
        elif do == "no-attack":
            chosen = self._on_field(state, target)
            if chosen:
                flags(state)["no_attack"][chosen] = [state.turn, name]
        elif do == "search":
            fx.grant(state, player, source, {"do": "draw", "n": 1}, source_name=name)
            state.shuffle(bd.lager(player))
        elif do == "damage" and effect.get("side") == "attacker":
            fx.grant(state, player, source, {**effect, "target": last.get("attacker")},
                     source_name=name)
        elif do == "damage" and effect.get("side") == "moved":
            fx.grant(state, player, source, {**effect, "target": flags(state).get("last_moved")},
                     source_name=name)
        elif do == "damage-each":
            enemies = [u for u in bd.creatures_of(state, other(player))
                       if not effect.get("row") or bd.row(state.where[u]) == effect["row"]]
            for uid in enemies:
                fx.grant(state, player, source, {"do": "damage", "n": effect["n"],
                                                 "side": "enemy", "target": uid},
                         source_name=name)
        else:
            fx.grant(state, player, source, {**effect, "self_uid": source}, source_name=name)

    @staticmethod
    def _on_field(state: GameState, ref: str | None) -> str | None:
        """The creature a person named (uid, or card id of a copy on the field)."""
        if not ref:
            return None
        if ref in state.where:
            return ref
        return next((u for p in PLAYERS for u in bd.creatures_of(state, p)
                     if card_id_of(u) == ref), None)

    def _prevent(self, state: GameState, last: Mapping[str, Any]) -> None:
        """'No damage from this attack': take the attack's damage off its target again."""
        target = last.get("target")
        amount = int(last.get("damage", 0))
        if not target or target not in state.where:
            return
        if last.get("destroyed") and bd.is_hell(state.where[target]):
            place = str(last.get("target_zone"))
            if not state.cards_in(place):
                state.move(target, place)
                if target in flags(state)["destroyed"]:
                    flags(state)["destroyed"].remove(target)
                flags(state)["damage"][target] = int(last.get("before", 0))
            return
        flags(state)["damage"][target] = max(0, self.damage_of(state, target) - amount)

    # ================================================================== legal moves
    def candidate_moves(self, state: GameState) -> list[Move]:
        moves: list[Move] = []
        if state.phase == "opening":
            moves += [Move("draw", p, value=OPENING_HAND) for p in PLAYERS
                      if flags(state)["opening"][p] < OPENING_HAND]
        else:
            moves += self._turn_moves(state, state.active)
            moves.append(Move("pass", state.active))
        moves.append(Move("next-phase", state.active))
        return moves

    def _turn_moves(self, state: GameState, p: str) -> list[Move]:
        moves: list[Move] = []
        avail = self._available(state, p)
        if state.phase == "start":
            if not flags(state).get("drawn"):
                moves.append(Move("draw", p, value=1))
            if not flags(state).get("rolled"):
                moves.append(Move("roll", p, options=(("dice",
                                                       bd.dice_text(self._roll_values(state))),)))
            return moves
        if state.phase == "kampf":
            free = [z for z in bd.field_places(p) if not state.cards_in(z)]
            for uid in state.cards_in(hand_zone(p)):
                facts = state.facts(uid)
                if facts.type == "creature":
                    dice = bd.exact_sum(avail, facts.number("cost"))
                    if dice is not None:
                        opt = (("dice", bd.dice_text({d: avail[d] for d in dice})),)
                        moves += [Move("summon", p, (uid,), to=z, options=opt) for z in free]
                elif facts.type == "crush":
                    cost = facts.number("cost")
                    places = [z for z in bd.crush_places(p) if not state.cards_in(z)]
                    if places and len(avail) >= cost:
                        opt = (("dice", bd.dice_text(dict(sorted(avail.items())[:cost]))),)
                        moves.append(Move("set-crush", p, (uid,), to=places[0], options=opt))
            for uid in bd.creatures_of(state, p):
                dice = bd.exact_sum(avail, state.facts(uid).number("cost"))
                if dice is None:
                    continue
                opt = (("dice", bd.dice_text({d: avail[d] for d in dice})),)
                for target in self._targets(state, uid):
                    moves.append(Move("attack", p, (uid,), target=target, options=opt))
            for zone in bd.crush_places(p):
                moves += [Move("flip", p, (u,)) for u in state.cards_in(zone)
                          if u in state.face_down]
        elif state.phase == "taktik":
            names = sorted(avail)
            free = [z for z in bd.field_places(p) if not state.cards_in(z)]
            own = bd.creatures_of(state, p)
            if len(names) >= MOVE_COST:
                opt = (("dice", bd.dice_text({d: avail[d] for d in names[:MOVE_COST]})),)
                for uid in own:
                    moves += [Move("move", p, (uid,), to=z, options=opt) for z in free]
            if len(names) >= SWAP_COST:
                opt = (("dice", bd.dice_text({d: avail[d] for d in names[:SWAP_COST]})),)
                for i, a in enumerate(own):
                    moves += [Move("swap", p, (a, b), options=opt) for b in own[i + 1:]]
        return moves

    def _targets(self, state: GameState, uid: str) -> list[str]:
        """Every target the rules let `uid` attack from where it lies."""
        zone = state.where[uid]
        opp = other(bd.side(zone))
        if bd.row(zone) == "A":
            enemy = bd.occupant(state, bd.opposite(zone, "B"))
            return [enemy] if enemy else [opp]
        return [u for u in (bd.occupant(state, bd.opposite(zone, "A")),
                            bd.occupant(state, bd.opposite(zone, "B"))) if u]

    # ================================================================== checks
    def check_specific(self, state: GameState, move: Move) -> list[Violation]:
        kind = move.kind
        if kind in CORE_KINDS:
            return []
        if kind in PLACING and bd.is_crush_place(move.to) and bd.side(str(move.to)) == \
                move.player and move.card in state.where:
            return self._wrong_place(move.player, str(move.to), move.card)
        return self.moves.check(self, state, move)

    def _check_draw(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        count = move.value if isinstance(move.value, int) else 1
        found: list[Violation] = []
        if state.count(bd.lager(p)) == 0:
            return [violation("cc.lager-empty", player=p, zones=(bd.lager(p),))]
        if state.phase == "opening":
            if flags(state)["opening"][p] + count != OPENING_HAND:
                found.append(violation("cc.opening-draw", player=p,
                                       count=flags(state)["opening"][p] + count))
            return found + self._lager_rules(state, p)
        if fx.find(state, lambda x: x["do"] == "draw" and x["player"] == p):
            return []
        if state.phase != "start" or p != state.active:
            return [violation("cc.draw-phase", phase=state.phase, player=p, active=state.active,
                              zones=(bd.lager(p),))]
        if flags(state).get("drawn", 0) + count > 1:
            return [violation("cc.draw-once", zones=(bd.lager(p),))]
        return found

    def _lager_rules(self, state: GameState, p: str) -> list[Violation]:
        """Every variant: a camp of exactly 20 cards, each card once."""
        cards: list[str] = flags(state).get("lager_lists", {}).get(p, [])
        found = []
        if len(cards) != LAGER_SIZE:
            found.append(violation("cc.lager-size", player=p, count=len(cards),
                                   zones=(bd.lager(p),)))
        for card_id in sorted({c for c in cards if cards.count(c) > 1}):
            found.append(violation("cc.lager-unique", cards=(card_id,), count=cards.count(card_id),
                                   zones=(bd.lager(p),)))
        return found

    def _check_roll(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        permit = self._effect_roll(state, move)
        if permit is not None:
            return self._check_effect_roll(permit, move)
        found = CHECKS.own_turn(state, move, "roll")
        if state.phase != "start" or flags(state).get("rolled"):
            return [*found, violation("cc.roll-once", zones=(f"{p}.dice",))]
        dice = bd.parse_dice(move.option("dice"))
        wrong = [d for d in dice if bd.die_owner(d) != p or bd.die_kind(d) != "w"]
        if wrong:
            found.append(violation("cc.roll-white", dice=",".join(wrong), player=p))
        values = [dice[d] for d in sorted(dice, key=lambda d: (bd.die_kind(d), bd.die_number(d)))]
        expected, why, why_de = self.expected_dice(state, values)
        if len(values) != expected:
            found.append(violation("cc.roll-count", zones=(f"{p}.dice",), count=len(values),
                                   expected=expected, why=why, why_de=why_de))
        return found

    def _effect_roll(self, state: GameState, move: Move) -> dict[str, Any] | None:
        """The open "mit X Würfeln" effect a roll is for: any roll of its player that is not
        the start roll of the own start phase ("verlangen nach einem Würfelwurf mit X
        Würfeln"), before the effect's dice were rolled."""
        p = move.player
        if state.phase == "start" and p == state.active and not flags(state).get("rolled"):
            return None
        return fx.find(state, lambda x: x["do"] == "destroy" and x["player"] == p
                       and int(x.get("dice", 0)) > 0 and x.get("rolled") is None)

    @staticmethod
    def _check_effect_roll(permit: Mapping[str, Any], move: Move) -> list[Violation]:
        count = len(bd.parse_dice(move.option("dice")))
        expected = int(permit["dice"])
        if count == expected:
            return []
        return [violation("cc.effect-dice", source=permit.get("source_name", "-"),
                          expected=expected, count=count, zones=(f"{move.player}.dice",))]

    def _check_burn(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        dice = bd.parse_dice(move.option("dice"))
        avail = self._available(state, p)
        missing = [d for d in dice if d not in avail]
        found = []
        if missing:
            found.append(violation("cc.die-unavailable", dice=",".join(missing), player=p))
        pool = {**self._pool(state, p), **{d: avail[d] for d in dice if d in avail}}
        owed = [o for o in flags(state)["owed"] if o["player"] == p]
        if owed:
            first = owed[0]
            rest = {d: v for d, v in avail.items() if d not in dice}
            if first["mode"] == "sum" and bd.exact_sum(pool, first["cost"]) is None and (
                    sum(pool.values()) >= first["cost"]
                    or (len(owed) == 1 and not self._completes(pool, rest, first["cost"]))):
                found.append(violation("cc.wrong-payment", what=first["what"],
                                       cost=first["cost"], dice=bd.dice_shown(pool)))
        return found

    @staticmethod
    def _completes(burned: Mapping[str, int], rest: Mapping[str, int], cost: int) -> bool:
        """Whether dice still unburned can bring the dice burned for the one payment owed up
        to exactly its cost ("Auch addierte Augenzahlen müssen genau den Kosten ...
        entsprechen"): 6 + 1 burned for a 10 with a 4 left can never be paid."""
        missing = cost - sum(burned.values())
        return missing > 0 and bd.exact_sum(rest, missing) is not None

    def _check_summon(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        found = CHECKS.own_turn(state, move, "summon") + CHECKS.in_phase(state, move, "kampf")
        found += CHECKS.from_hand(state, move.player, (uid,))
        if uid != UNKNOWN and uid in state.where and state.facts(uid).type != "creature":
            found.append(violation("cc.not-creature", cards=(uid,)))
        found += self._summon_place(state, p, str(move.to), uid)
        if uid in state.where and state.facts(uid).type == "creature":
            facts = state.facts(uid)
            found += self._payment(state, move, facts.name, facts.number("cost"), "sum")
        return found

    def _check_attack(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found = CHECKS.own_turn(state, move, "attack") + CHECKS.in_phase(state, move, "kampf")
        uid = move.card
        if uid not in state.where or bd.controller(state, uid) != p:
            return [*found, violation("cc.not-own-creature", cards=(uid,), player=p)]
        facts = state.facts(uid)
        found += self._acted(state, uid)
        if facts.number("attack") <= 0:
            found.append(violation("cc.zero-attack", cards=(uid,)))
        blocked = flags(state)["no_attack"].get(uid)
        if blocked and blocked[0] >= state.turn - 1:
            found.append(violation("cc.attack-blocked", cards=(uid,), source=blocked[1]))
        found += self._target_rules(state, uid, str(move.target))
        found += self._payment(state, move, facts.name, facts.number("cost"), "sum")
        return found

    def _target_rules(self, state: GameState, uid: str, target: str) -> list[Violation]:
        zone = state.where[uid]
        opp = other(bd.side(zone))
        b_opp = bd.opposite(zone, "B")
        a_opp = bd.opposite(zone, "A")
        if target in PLAYERS:
            if target != opp:
                return [violation("cc.bad-target", cards=(uid,), zones=(zone,), target=target,
                                  allowed="the opposing player", allowed_de="den Gegner")]
            if bd.row(zone) == "B":
                return [violation("cc.direct-from-b", cards=(uid,), zones=(zone,))]
            enemy = bd.occupant(state, b_opp)
            if enemy:
                return [violation("cc.direct-blocked", cards=(uid,), zones=(zone, b_opp),
                                  target=enemy, player=opp)]
            return []
        allowed = [b_opp] if bd.row(zone) == "A" else [a_opp, b_opp]
        if target not in state.where or state.where[target] not in allowed:
            en = "the player directly or the enemy opposite in B" if bd.row(zone) == "A" \
                else "the enemies opposite (A or B)"
            de = "den Spieler direkt oder den Feind gegenüber in B" if bd.row(zone) == "A" \
                else "die gegenüberliegenden Feinde (A oder B)"
            return [violation("cc.bad-target", cards=(uid,), zones=(zone,), target=target,
                              allowed=f"{en} ({', '.join(allowed)})",
                              allowed_de=f"{de} ({', '.join(allowed)})")]
        return []

    def _check_set_crush(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        zone = str(move.to)
        found = CHECKS.own_turn(state, move, "set-crush") + CHECKS.in_phase(state, move, "kampf")
        found += CHECKS.from_hand(state, move.player, (uid,))
        if move.option("face_up"):
            found.append(violation("cc.crush-face-down", cards=(uid,), zones=(zone,)))
        if not bd.is_crush_place(zone) or bd.side(zone) != p:
            found.append(violation("cc.face-down-place", cards=(uid,), zones=(zone,)))
        elif [u for u in state.cards_in(zone) if u != uid]:
            found.append(violation("cc.place-taken", cards=(uid,), zones=(zone,),
                                   other="a card"))
        if uid != UNKNOWN and uid in state.where:
            facts = state.facts(uid)
            if facts.type != "crush":
                found.append(violation("cc.not-crush", cards=(uid,)))
            elif move.option("dice") is not None:
                found += self._payment(state, move, facts.name, facts.number("cost"), "count")
        return found

    def _check_flip(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        down = self._face_down_in_c(state, p, move)
        if uid == UNKNOWN or uid not in state.where or not down or (
                uid not in down and state.known(uid)):
            return [violation("cc.flip-not-down", cards=(uid,), player=p)]
        facts = state.facts(uid)
        found: list[Violation] = []
        if facts.type != "crush":
            return [violation("cc.not-crush", cards=(uid,))]
        paid = flags(state)["crush_paid"].get(self._believed(state, p, move, uid), -1)
        cost = facts.number("cost")
        if paid >= 0 and cost > 0 and paid != cost:
            found.append(violation("cc.crush-cost", cards=(uid,), cost=cost, paid=paid))
        if not facts.get("flip_condition") and (state.active != p or state.phase != "kampf"):
            found.append(violation("cc.flip-phase", cards=(uid,)))
        return found

    def _face_down_in_c(self, state: GameState, p: str, move: Move) -> list[str]:
        zones = [str(move.to)] if move.to else bd.crush_places(p)
        return [u for z in zones if bd.is_crush_place(z) for u in state.cards_in(z)
                if u in state.face_down]

    def _believed(self, state: GameState, p: str, move: Move, uid: str) -> str:
        """The face-down card the engine holds for the one now flipped (before resolving)."""
        back = move.option("back")
        if back and back in state.backs:
            return state.backs[back]
        down = self._face_down_in_c(state, p, move)
        return uid if uid in down else (down[-1] if down else uid)

    def _check_move(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        free = fx.find(state, lambda x: x["do"] == "free-move" and x["player"] == p)
        found = CHECKS.own_turn(state, move, "move") if not free else []
        if not free:
            found += CHECKS.in_phase(state, move, "taktik")
        if uid not in state.where or bd.controller(state, uid) != p:
            return [*found, violation("cc.not-own-creature", cards=(uid,), player=p)]
        zone = str(move.to)
        wrong = self._wrong_place(p, zone, uid)
        if wrong:
            found += wrong
        elif [u for u in state.cards_in(zone) if u != uid]:
            found.append(violation("cc.move-taken", cards=(uid,), zones=(zone,),
                                   other=state.cards_in(zone)[-1]))
        if not free:
            found += self._acted(state, uid)
            found += self._payment(state, move, state.facts(uid).name, MOVE_COST, "count")
        return found

    def _check_swap(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        free = fx.find(state, lambda x: x["do"] == "free-swap" and x["player"] == p)
        found = [] if free else (CHECKS.own_turn(state, move, "swap")
                                 + CHECKS.in_phase(state, move, "taktik"))
        pair = [u for u in move.cards if u in state.where and bd.controller(state, u) == p]
        if len(move.cards) != 2 or len(pair) != 2 or pair[0] == pair[1]:
            return [*found, violation("cc.swap-own", cards=move.cards)]
        if not free:
            for uid in pair:
                found += self._acted(state, uid)
            found += self._payment(state, move, " + ".join(state.facts(u).name for u in pair),
                                   SWAP_COST, "count")
        return found

    def _check_mark(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        if uid not in state.where or not bd.is_field(state.where[uid]):
            return []
        shown = self._shown_after(state, move, uid)
        expected = self.damage_of(state, uid)
        if shown == expected or self._mark_permit(state, uid, shown - expected):
            return []
        return [violation("cc.damage-mismatch", cards=(uid,), zones=(state.where[uid],),
                          shown=shown, expected=expected)]

    def _shown_after(self, state: GameState, move: Move, uid: str) -> int:
        red = {d: list(v) for d, v in flags(state)["red"].items()}
        self._update_red(red, move, uid)
        return sum(int(v[1]) for v in red.values() if v[0] == uid)

    @staticmethod
    def _update_red(red: dict[str, Any], move: Move, uid: str) -> None:
        """Red dice now on `uid` (option dice) and dice taken off it (option gone)."""
        for d in (move.option("gone") or "").split(","):
            if d in red and red[d][0] == uid:
                del red[d]
        for d, value in bd.parse_dice(move.option("dice")).items():
            red[d] = [uid, value]

    def _mark_permit(self, state: GameState, uid: str, delta: int) -> dict[str, Any] | None:
        ctrl = bd.controller(state, uid)

        def fits(x: dict[str, Any]) -> bool:
            if x.get("target") and x["target"] != uid:
                return False
            if delta > 0 and x["do"] == "damage" and int(x.get("n", 0)) == delta:
                s = x.get("side")
                return bool(x.get("target")) or s == "any" or (
                    s == "enemy" and ctrl != x["player"])
            if delta < 0 and x["do"] == "heal":
                return ctrl == x["player"] and int(x.get("n", 0)) >= -delta
            return False

        return fx.find(state, fits)

    def _check_to_hell(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        if uid not in state.where:
            return [violation("cc.unexplained", cards=(uid,), zones=(str(move.to),))]
        zone = state.where[uid]
        to = str(move.to)
        if bd.is_hell(zone):
            return []  # the rules put it there already (destroyed earlier in the same step)
        if bd.is_crush_place(zone):
            if uid in state.face_down:
                return [violation("cc.not-flipped", cards=(uid,), zones=(zone,))]
            return []
        if not bd.is_field(zone):
            return [violation("cc.unexplained", cards=(uid,), zones=(to,))]
        found = []
        last = bd.side(zone)
        if bd.is_hell(to) and bd.side(to) != last:
            found.append(violation("cc.wrong-hell", cards=(uid,), zones=(to,), player=last))
        life = state.facts(uid).number("life", 1)
        if self.damage_of(state, uid) < life and not self._destroy_permit(state, uid) \
                and not self._lethal_damage_permit(state, uid):
            unfit = self._destroy_permit(state, uid, fitting=False)
            if unfit is not None:
                found.append(self._dice_target_violation(state, uid, unfit))
            else:
                found.append(violation("cc.not-destroyed", cards=(uid,), zones=(zone,),
                                       damage=self.damage_of(state, uid), life=life))
        return found

    @staticmethod
    def _dice_target_violation(state: GameState, uid: str,
                               permit: Mapping[str, Any]) -> Violation:
        """Why a destroy effect "mit X Würfeln" does not reach `uid`: its dice were not rolled,
        or no die alone nor several added show the target's cost."""
        source = permit.get("source_name", "-")
        rolled = permit.get("rolled")
        if rolled is None:
            return violation("cc.dice-unrolled", cards=(uid,), source=source,
                             count=int(permit.get("dice", 0)))
        values = fx.dice_sums(rolled)
        return violation("cc.dice-target", cards=(uid,), zones=(state.where[uid],),
                         source=source, cost=state.facts(uid).number("cost"),
                         dice=", ".join(str(v) for v in rolled),
                         allowed=fx.either(values, "or"), allowed_de=fx.either(values, "oder"))

    def _lethal_damage_permit(self, state: GameState, uid: str) -> dict[str, Any] | None:
        """An open effect damage (a crush card's "2 Schaden an einem Feind") that may hit
        `uid` and is enough to destroy it: the creature went to hell without its damage dice
        ever being laid, which the rules call destroyed."""
        ctrl = bd.controller(state, uid)
        need = state.facts(uid).number("life", 1) - self.damage_of(state, uid)

        def fits(x: dict[str, Any]) -> bool:
            if x["do"] != "damage" or int(x.get("n", 0)) < need:
                return False
            if x.get("target"):
                return bool(x["target"] == uid)
            return x.get("side") == "any" or (x.get("side") == "enemy" and ctrl != x["player"])

        return fx.find(state, fits)

    def _destroy_permit(self, state: GameState, uid: str, fitting: bool = True
                        ) -> dict[str, Any] | None:
        """The newest effect that destroys the enemy `uid`; with `fitting`, only one whose
        rolled dice show its cost ("Ziel ..., dessen Kosten den Augenzahlen deiner Würfel
        entsprechen")."""
        ctrl = bd.controller(state, uid)
        cost = state.facts(uid).number("cost")
        return fx.find(state, lambda x: x["do"] == "destroy" and ctrl != x["player"]
                       and (not fitting or fx.dice_allow(x, cost)))

    def _check_revive(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        zone = str(move.to)
        if uid in state.where and state.where[uid] == zone:
            return []  # back already (an effect undid its destruction)
        if uid not in state.where or state.where[uid] != bd.hell(p):
            return [violation("cc.unexplained", cards=(uid,), zones=(zone,))]
        found = self._summon_place(state, p, zone, uid)
        if not self._revive_permit(state, p, uid):
            found.append(violation("cc.unexplained", cards=(uid,), zones=(zone,)))
        return found

    def _revive_permit(self, state: GameState, p: str, uid: str) -> dict[str, Any] | None:
        creature = state.facts(uid).type == "creature"
        return fx.find(state, lambda x: x["do"] == "revive" and x["player"] == p and creature
                       and (not x.get("self") or x.get("self_uid") == uid))

    def _check_control(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        zone = str(move.to)
        if uid not in state.where or bd.controller(state, uid) != other(p):
            return [violation("cc.unexplained", cards=(uid,), zones=(zone,))]
        found = self._summon_place(state, p, zone, uid)
        cost = state.facts(uid).number("cost")
        if not fx.find(state, lambda x: x["do"] == "control" and x["player"] == p
                       and cost <= int(x.get("max_cost", 0))):
            found.append(violation("cc.unexplained", cards=(uid,), zones=(zone,)))
        return found

    def _check_to_hand(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        p = move.player
        if uid in state.where and bd.is_hell(state.where[uid]) and fx.find(
                state, lambda x: x["do"] == "hell-to-hand" and x["player"] == p):
            return []
        return [violation("cc.unexplained", cards=(uid,), zones=(hand_zone(p),))]

    def _check_agree_draw(self, state: GameState, move: Move) -> list[Violation]:
        if flags(state).get("draw_offer") == move.player:
            return [violation("cc.no-draw-offer", player=move.player)]
        return []

    def _check_settle(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        if move.value == "lager":
            if flags(state)["expect_lager"].get(p, 0) > 0:
                return []
            return [violation("cc.unexplained", cards=("top",), zones=(bd.lager(p),))]
        uid = move.card
        hell = bd.hell(p)
        if uid in state.where and (state.where[uid] == hell or (
                flags(state)["unseen_hell"].get(p, 0) > 0 and state.can_resolve(uid, hell))):
            return []
        return [violation("cc.unexplained", cards=(uid,), zones=(hell,))]

    # ================================================================== apply
    def _apply_settle(self, state: GameState, move: Move) -> None:
        p = move.player
        if move.value == "lager":
            flags(state)["expect_lager"][p] = max(0, flags(state)["expect_lager"].get(p, 0) - 1)
            return
        uid = move.card
        hell = bd.hell(p)
        shown = flags(state).get("crush_shown", [])
        if uid in shown:
            shown.remove(uid)  # the table caught up: the flipped crush card lies in hell
        if uid not in state.where or not state.resolve(uid, hell):
            return
        if uid not in state.public:
            state.public.add(uid)
            flags(state)["unseen_hell"][p] = max(0, flags(state)["unseen_hell"].get(p, 0) - 1)
            facts = state.facts(uid)
            if facts.type == "creature" and fx.trigger(facts) == "Falle":
                self._run_effect(state, p, uid)

    def apply(self, state: GameState, move: Move) -> None:
        """As every game, except that pressing "next phase" before both players took their
        opening hands is recorded but does not start the battle (it starts by itself), and
        that nothing changes an ended battle (a concession after a draw keeps the draw)."""
        if state.outcome is not None:
            return
        if move.kind == "next-phase" and state.phase == "opening" and self._opening_missing(
                state):
            return
        super().apply(state, move)

    def _apply_draw(self, state: GameState, move: Move) -> None:
        p = move.player
        count = move.value if isinstance(move.value, int) else 1
        if state.phase == "opening":
            flags(state)["opening"][p] += count
        else:
            permit = fx.find(state, lambda x: x["do"] == "draw" and x["player"] == p)
            if permit is not None and (state.phase != "start" or flags(state).get("drawn")):
                for _ in range(min(count, int(permit.get("uses", 1)))):  # one use a card
                    fx.use(state, permit)
            else:
                flags(state)["drawn"] = flags(state).get("drawn", 0) + count
        draw_cards(state, bd.lager(p), hand_zone(p), count)

    def _apply_roll(self, state: GameState, move: Move) -> None:
        p = move.player
        dice = bd.parse_dice(move.option("dice"))
        permit = self._effect_roll(state, move)
        if permit is not None:
            self._roll_for_effect(state, permit, move)
        elif state.phase == "start" and p == state.active:
            flags(state)["dice"][p] = dict(dice)
            flags(state)["pool"][p] = {}
            flags(state)["rolled"] = len(dice)
        else:
            self._available(state, p).update(dice)
        state.pending_chance.append(ChanceEvent("roll", (("player", p),
                                                         ("dice", bd.dice_text(dice)))))

    def _roll_for_effect(self, state: GameState, permit: dict[str, Any], move: Move) -> None:
        """The effect's own roll: its dice are no start dice (a start die rolled for it is
        spent). A roll of the wrong count is no roll of the effect: it is rolled again."""
        dice = bd.parse_dice(move.option("dice"))
        for d in dice:
            self._available(state, move.player).pop(d, None)
        if not self._check_effect_roll(permit, move):
            permit["rolled"] = [dice[d] for d in sorted(dice)]

    def _apply_burn(self, state: GameState, move: Move) -> None:
        p = move.player
        avail = self._available(state, p)
        pool = self._pool(state, p)
        for d in bd.parse_dice(move.option("dice")):
            if d in avail:  # a die that is not an unused start die pays for nothing
                pool[d] = avail.pop(d)
        self._settle(state, p)

    def _apply_summon(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = take_from_hand(state, p, move.card)
        if uid is None or not bd.is_field(move.to):
            return
        state.move(uid, str(move.to))
        facts = state.facts(uid)
        if facts.type == "creature":
            self._pay(state, move, facts.name, facts.number("cost"), "sum")
        state.bump("turn", f"summoned:{uid}")
        state.bump("turn", f"acted:{uid}")
        if p == state.active and fx.trigger(facts) == "Aktion":
            self._run_effect(state, p, uid, move.target)

    def _apply_attack(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where or not bd.is_field(state.where[uid]):
            return
        facts = state.facts(uid)
        state.bump("turn", f"acted:{uid}")
        self._pay(state, move, facts.name, facts.number("cost"), "sum")
        target = str(move.target)
        if target in PLAYERS:
            flags(state)["last_attack"] = {"attacker": uid, "target": None, "damage": 0}
            self._direct_hit(state, target)
            return
        if target not in state.where or not bd.is_field(state.where[target]):
            return
        attack = facts.number("attack")
        before = self.damage_of(state, target)
        last: LastAttack = {
            "attacker": uid, "target": target, "damage": attack, "before": before,
            "target_zone": state.where[target],
        }
        flags(state)["last_attack"] = last
        block = state.facts(target).number("attack") if state.facts(target).has_keyword(
            "Nachtragend") else 0
        self._add_damage(state, target, attack)
        last["destroyed"] = bd.is_hell(state.where[target])
        if block:
            self._add_damage(state, uid, block)

    def _direct_hit(self, state: GameState, p: str) -> None:
        """Destroy the top camp card; else a random hand card, crush card, enemy."""
        lager = bd.lager(p)
        top = state.top(lager)
        if top is not None:
            state.move(top, bd.hell(p), reveal=False)
            flags(state)["expect_lager"][p] += 1
            flags(state)["unseen_hell"][p] += 1
            return
        for pool, what in (
            (state.cards_in(hand_zone(p)), "hand"),
            ([u for z in bd.crush_places(p) for u in state.cards_in(z)], "crush"),
            (bd.creatures_of(state, p), "enemy"),
        ):
            if pool:
                uid = state.rng.choice(sorted(pool))
                state.pending_chance.append(ChanceEvent("random-destroy",
                                                        (("player", p), ("from", what))))
                if what == "enemy":  # from the field into hell: its Hölle effect activates
                    self._destroy(state, uid, bd.hell(p))
                    return
                hidden = what == "hand" or uid in state.face_down
                state.move(uid, bd.hell(p), reveal=not hidden)
                if hidden:
                    flags(state)["unseen_hell"][p] += 1
                else:
                    flags(state)["destroyed"].append(uid)
                    flags(state)["damage"].pop(uid, None)
                return

    def _apply_set_crush(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = take_from_hand(state, p, move.card)
        if uid is None or not move.to or move.to not in state.zones:
            return
        face_up = bool(move.option("face_up"))
        state.move(uid, str(move.to), face_down=not face_up)
        if not face_up:
            state.public.discard(uid)
        back = move.option("back")
        if back:
            state.backs[back] = uid
        named = move.card  # a face-down card's cost is unseen
        cost = state.facts(uid).number("cost") if named != UNKNOWN else 0
        flags(state)["crush_paid"][uid] = self._pay(state, move, "crush", cost, "count")

    def _apply_flip(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = move.card
        if uid not in state.where:
            return
        believed = self._believed(state, p, move, uid)
        back = move.option("back")
        if back and back in state.backs:
            state.resolve_back(back, uid)
            state.backs.pop(back, None)
        elif believed != uid and believed in state.where:
            self._swap_into(state, uid, believed)
        flags(state)["crush_paid"][uid] = flags(state)["crush_paid"].pop(believed, -1)
        state.face_down.discard(uid)
        state.public.add(uid)
        if state.facts(uid).type == "crush" and bd.is_crush_place(state.where[uid]):
            self._run_effect(state, p, uid, move.target)
            state.move(uid, bd.hell(p))
            if back and not move.option("into_hell"):  # seen turned over where it lay
                flags(state).setdefault("crush_shown", []).append(uid)

    @staticmethod
    def _swap_into(state: GameState, uid: str, placeholder: str) -> None:
        """The flipped card is `uid`, where the belief held `placeholder`: exchange them."""
        if state.known(uid):
            return
        zone = state.where[placeholder]
        if state.where[uid] == zone:
            return
        src = state.where[uid]
        i, j = state.zones[src].index(uid), state.zones[zone].index(placeholder)
        state.zones[src][i], state.zones[zone][j] = placeholder, uid
        state.where[uid], state.where[placeholder] = zone, src
        state.face_down.discard(placeholder)
        state.face_down.add(uid)
        for back, card in list(state.backs.items()):
            if card == placeholder:
                state.backs[back] = uid

    def _apply_move(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = move.card
        if uid not in state.where or not bd.is_field(move.to) or not bd.is_field(
                state.where[uid]):
            return
        permit = fx.find(state, lambda x: x["do"] == "free-move" and x["player"] == p)
        if permit is not None:
            fx.use(state, permit)
        else:
            self._pay(state, move, state.facts(uid).name, MOVE_COST, "count")
            state.bump("turn", f"acted:{uid}")
        state.move(uid, str(move.to))
        self._moved(state, uid)

    def _moved(self, state: GameState, uid: str) -> None:
        flags(state)["last_moved"] = uid
        if state.phase == "taktik" and state.facts(uid).has_keyword("Träge"):
            self._add_damage(state, uid, TRAEGE_DAMAGE)

    def _apply_swap(self, state: GameState, move: Move) -> None:
        p = move.player
        pair = [u for u in move.cards if u in state.where and bd.is_field(state.where[u])]
        if len(pair) != 2 or pair[0] == pair[1]:
            return
        permit = fx.find(state, lambda x: x["do"] == "free-swap" and x["player"] == p)
        if permit is not None:
            fx.use(state, permit)
        else:
            self._pay(state, move, " + ".join(state.facts(u).name for u in pair), SWAP_COST,
                      "count")
            for uid in pair:
                state.bump("turn", f"acted:{uid}")
        a, b = pair
        za, zb = state.where[a], state.where[b]
        state.zones[za][state.zones[za].index(a)] = b
        state.zones[zb][state.zones[zb].index(b)] = a
        state.where[a], state.where[b] = zb, za
        for uid in pair:
            if uid in state.where and bd.is_field(state.where[uid]):
                self._moved(state, uid)

    def _apply_mark(self, state: GameState, move: Move) -> None:
        uid = move.card
        red = flags(state)["red"]
        self._update_red(red, move, uid)
        if uid not in state.where or not bd.is_field(state.where[uid]):
            return
        shown = sum(int(v[1]) for v in red.values() if v[0] == uid)
        delta = shown - self.damage_of(state, uid)
        if delta == 0:
            return
        permit = self._mark_permit(state, uid, delta)
        if permit is not None:
            fx.use(state, permit)
        self._add_damage(state, uid, delta)

    def _apply_to_hell(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where:
            return
        zone = state.where[uid]
        if bd.is_hell(zone):
            return
        if bd.is_field(zone) and self.damage_of(state, uid) < state.facts(uid).number(
                "life", 1):
            permit = self._destroy_permit(state, uid) or self._lethal_damage_permit(state, uid)
            if permit is not None:
                fx.use(state, permit)
        to = str(move.to) if move.to in state.zones and bd.is_hell(move.to) else None
        self._destroy(state, uid, to)

    def _apply_revive(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = move.card
        if uid not in state.where or not bd.is_field(move.to) or state.where[uid] == move.to:
            return
        permit = self._revive_permit(state, p, uid)
        if permit is not None:
            fx.use(state, permit)
        state.move(uid, str(move.to))
        if uid in flags(state)["destroyed"]:
            flags(state)["destroyed"].remove(uid)
        state.bump("turn", f"summoned:{uid}")
        state.bump("turn", f"acted:{uid}")

    def _apply_control(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = move.card
        if uid not in state.where or not bd.is_field(move.to):
            return
        cost = state.facts(uid).number("cost")
        permit = fx.find(state, lambda x: x["do"] == "control" and x["player"] == p
                         and cost <= int(x.get("max_cost", 0)))
        if permit is not None:
            fx.use(state, permit)
        state.move(uid, str(move.to))

    def _apply_to_hand(self, state: GameState, move: Move) -> None:
        uid = move.card
        p = move.player
        if uid not in state.where:
            return
        permit = fx.find(state, lambda x: x["do"] == "hell-to-hand" and x["player"] == p)
        if permit is not None and bd.is_hell(state.where[uid]):
            fx.use(state, permit)
        flags(state)["damage"].pop(uid, None)
        state.move(uid, hand_zone(p))

    def _apply_agree_draw(self, state: GameState, move: Move) -> None:
        if flags(state).get("draw_offer") == other(move.player):
            state.outcome = Outcome(None, "agreement", "both players agreed to a draw",
                                    "beide Spieler haben sich auf ein Unentschieden geeinigt")
        else:
            flags(state)["draw_offer"] = move.player

    def after_move(self, state: GameState) -> None:
        if state.phase == "opening" and not self._opening_missing(state):
            self.flow.advance(state)
        beaten = [p for p in PLAYERS if self._all_in_hell(state, p)]
        if len(beaten) == 2:
            state.outcome = Outcome(None, "stalemate", "both players' cards are all in hell",
                                    "alle Karten beider Spieler sind in der Hölle")
        elif beaten:
            loser = beaten[0]
            state.outcome = Outcome(
                other(loser), "hell",
                f"every card of {loser} is in hell",
                f"alle Karten von {loser} sind in der Hölle",
            )
        elif self._stalemate(state):
            state.outcome = Outcome(None, "stalemate",
                                    "stalemate: no cards to draw or play and no creature "
                                    "that can attack",
                                    "Patt: keine Karten mehr zu ziehen oder zu spielen und "
                                    "keine Creature, die angreifen kann")

    @staticmethod
    def _all_in_hell(state: GameState, p: str) -> bool:
        for zone in (bd.lager(p), hand_zone(p)):  # the quick answer, nearly always
            if any(state.owner.get(u) == p for u in state.cards_in(zone)):
                return False
        mine = [u for u, o in state.owner.items() if o == p]
        return bool(mine) and all(bd.is_hell(state.where.get(u)) for u in mine)

    def _stalemate(self, state: GameState) -> bool:
        if state.phase == "opening":
            return False
        for p in PLAYERS:
            if state.count(bd.lager(p)) or state.count(hand_zone(p)):
                return False
            if any(state.cards_in(z) for z in bd.crush_places(p)):
                return False
            if any(state.facts(u).number("attack") > 0 for u in bd.creatures_of(state, p)):
                return False
        return True

    # ================================================================== interpreter
    def pile_zones(self) -> list[str]:
        return [z for p in PLAYERS for z in (bd.lager(p), bd.hell(p))]

    def explain(
        self, state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
    ) -> list[list[Move]]:
        return cc_interpret.explain(state, diff, hints)

    # ================================================================== reading
    def prompt(self, state: GameState, lang: str = "en") -> Prompt:
        extra = tuple(fx.describe(self._public_permit(state, x), lang)
                      for x in fx.permits(state))
        return self.flow.prompt(state, lang, extra)

    @staticmethod
    def _public_permit(state: GameState, permit: Mapping[str, Any]) -> dict[str, Any]:
        shown = dict(permit)
        source = str(permit.get("source", ""))
        if source not in state.public:
            shown["source_name"] = "a card" if shown.get("player") else "-"
            shown["source"] = "-"
        return shown

    def scores(self, state: GameState) -> dict[str, Score]:
        result = {}
        for p in PLAYERS:
            opp = other(p)
            in_hell = sum(1 for u, o in state.owner.items()
                          if o == opp and bd.is_hell(state.where.get(u)))
            result[p] = Score(
                player=p,
                value=in_hell,
                label_en="opposing cards in hell",
                label_de="gegnerische Karten in der Hölle",
                details=(
                    ("lager", state.count(bd.lager(p))),
                    ("hand", state.count(hand_zone(p))),
                    ("creatures", len(bd.creatures_of(state, p))),
                    ("start_dice", len(self._available(state, p))),
                ),
            )
        return result

    def expect_value(self, state: GameState, key: str) -> Any:
        if key == "damage":
            return {u: d for u, d in flags(state)["damage"].items()}
        if key == "start_dice":
            return int(flags(state).get("rolled", 0))
        if key == "destroyed":
            return list(flags(state)["destroyed"]) + [card_id_of(u) for u in
                                                     flags(state)["destroyed"]]
        if key == "hell":
            return {p: state.count(bd.hell(p)) for p in PLAYERS}
        return super().expect_value(state, key)

    def view_extra(self, state: GameState, observer: str) -> dict[str, Any]:
        shown_damage = {u: d for u, d in flags(state)["damage"].items() if u in state.public}
        return {
            "damage": shown_damage,
            "start_dice": {p: dict(self._available(state, p)) for p in PLAYERS},
            "burned_unassigned": {p: dict(self._pool(state, p)) for p in PLAYERS},
            "unpaid": [dict(o) for o in flags(state).get("owed", [])],
            "rolled": int(flags(state).get("rolled", 0)),
            "first_turn": self._first_turn_of_opener(state),
            "next_turn_extra_dice": dict(flags(state).get("extra_dice", {})),
            "crush_dice_paid": {
                state.where[u]: n for u, n in flags(state)["crush_paid"].items()
                if u in state.where and bd.is_crush_place(state.where[u]) and n >= 0
            },
            "effects": [fx.describe(self._public_permit(state, x), "en")
                        for x in fx.permits(state)],
        }

    def illegal_examples(self, state: GameState) -> list[Move]:
        examples = super().illegal_examples(state)
        p = state.active
        examples.append(Move("summon", p, ("nope#1",), to=f"{p}.B1"))
        examples.append(Move("swap", p, ("nope#1", "nope#2")))
        examples.append(Move("attack", p, ("nope#1",), target="nobody"))
        return examples


MOVES: MoveTable[CreatureCrush] = MoveTable(
    MoveRule("draw", CreatureCrush._check_draw, CreatureCrush._apply_draw,
             "{player} draws {value:card|cards}",
             "{player} zieht {value:Karte|Karten}"),
    MoveRule("roll", CreatureCrush._check_roll, CreatureCrush._apply_roll,
             "{player} rolls {dice}",
             "{player} würfelt {dice}"),
    MoveRule("burn", CreatureCrush._check_burn, CreatureCrush._apply_burn,
             "{player} burns {dice}",
             "{player} verbrennt {dice}"),
    MoveRule("summon", CreatureCrush._check_summon, CreatureCrush._apply_summon,
             "{player} summons {cards} to {to}",
             "{player} beschwört {cards} nach {to}"),
    MoveRule("attack", CreatureCrush._check_attack, CreatureCrush._apply_attack,
             "{player} attacks {target} with {cards}",
             "{player} greift {target} mit {cards} an"),
    MoveRule("set-crush", CreatureCrush._check_set_crush, CreatureCrush._apply_set_crush,
             "{player} lays a crush card face down on {to}",
             "{player} legt eine Crushkarte verdeckt nach {to}"),
    MoveRule("flip", CreatureCrush._check_flip, CreatureCrush._apply_flip,
             "{player} flips {cards}",
             "{player} dreht {cards} um"),
    MoveRule("move", CreatureCrush._check_move, CreatureCrush._apply_move,
             "{player} moves {cards} to {to}",
             "{player} verschiebt {cards} nach {to}"),
    MoveRule("swap", CreatureCrush._check_swap, CreatureCrush._apply_swap,
             "{player} swaps {cards}",
             "{player} tauscht {cards}"),
    MoveRule("mark", CreatureCrush._check_mark, CreatureCrush._apply_mark,
             "{cards} shows {value} damage",
             "{cards} zeigt {value} Schaden"),
    MoveRule("to-hell", CreatureCrush._check_to_hell, CreatureCrush._apply_to_hell,
             "{cards} goes to {to}",
             "{cards} kommt nach {to}"),
    MoveRule("revive", CreatureCrush._check_revive, CreatureCrush._apply_revive,
             "{player} revives {cards} to {to}",
             "{player} belebt {cards} nach {to}"),
    MoveRule("control", CreatureCrush._check_control, CreatureCrush._apply_control,
             "{player} takes control of {cards} ({to})",
             "{player} übernimmt die Kontrolle über {cards} ({to})"),
    MoveRule("to-hand", CreatureCrush._check_to_hand, CreatureCrush._apply_to_hand,
             "{cards} goes to {player}'s hand",
             "{cards} kommt auf die Hand von {player}"),
    MoveRule("agree-draw", CreatureCrush._check_agree_draw, CreatureCrush._apply_agree_draw,
             "{player} agrees to a draw",
             "{player} stimmt einem Unentschieden zu"),
    MoveRule("settle", CreatureCrush._check_settle, CreatureCrush._apply_settle,
             "the table shows what the rules did ({value} of {player})",
             "der Tisch zeigt, was die Regeln taten ({value} von {player})"),
)
"""Creature Crush's own move kinds; their checks say when each may happen."""
CreatureCrush.moves = MOVES
