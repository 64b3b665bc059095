"""Trick or Beat, complete as its rulebook says (rules/trick-or-beat.de.txt).

Shared draw and discard piles; a draft (15 dealt, keep 8) with the redraw rule; turns of four
phases (supply, lane, main, end); summoning onto the passive lane; lanes of 2 creatures,
raised to 3/4/5 by the trick pile; attacks from the active lane; equipment; abilities by kind
and lane; wins by trick (7 cards) and by beat (all opposing creatures defeated).

Move kinds (besides next-phase / pass / concede / declare):
  draft:  redraw (value show|fresh, cards = the shown hand), discard, place-down, reveal
  turn:   draw, shift, summon, attack, tactic, supply-draw, equip, activate, trick
  seen:   remove (a card left a lane or the trick pile without a rule), untrick

A move seen on the table is applied even when illegal (the table is what it is). A move that
is only declared (attack, activate, redraw) and illegal is recorded but changes nothing: the
table then shows whether it happened anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from companion.engine.api import (
    PLAYERS,
    ChanceEvent,
    GameConfig,
    Move,
    Outcome,
    Score,
    Violation,
    other,
)
from companion.engine.effect_words import draw_cards
from companion.engine.effects import Ability, Destroy, Draw, Modify, Return, run_hook
from companion.engine.effects import Move as MoveCards
from companion.engine.flow import Flow, FlowSpec, PhaseSpec, Text
from companion.engine.interpreter import SnapshotDiff
from companion.engine.moves import MoveRule, MoveTable
from companion.engine.rule_helpers import (
    RuleChecks,
    move_with_attached,
    release_attached,
    take_from_hand,
)
from companion.engine.ruleset import CORE_KINDS, Ruleset
from companion.engine.setup import (
    attach_cards,
    card_ref,
    deal_hands,
    lay_face_down,
    lay_table,
    table_cards,
)
from companion.engine.state import UNKNOWN, GameState, hand_zone
from companion.games.trick_or_beat import effects as fx
from companion.games.trick_or_beat import interpret as tob_interpret
from companion.games.trick_or_beat.numbers import (
    DEAL,
    KEEP,
    REDRAW_FRESH_FEWER,
    REDRAW_SHOW_BELOW,
    TRICK_WIN,
    attack_bonus_for,
    blocks_trick_win,
    survival_bonus_for,
)
from companion.games.trick_or_beat.state import flags
from companion.games.trick_or_beat.texts import violation
from companion.snapshot import card_uid

DECK = "shared.deck"
DISCARD = "shared.discard"

CHECKS = RuleChecks(violation, not_in_hand="tob.not-in-hand", hand_empty="tob.hand-empty",
                    wrong_phase="tob.wrong-phase")


def _to_discard(_: str) -> str:
    """Where equipment goes when its creature leaves the table: the shared discard pile."""
    return DISCARD


DRAFT_KINDS = ("deal", "redraw", "discard", "place-down", "reveal")
"""Kinds of the draft only; after it, `_check_after_draft` says what such a move is."""
SEEN_KINDS = ("remove", "untrick")
"""Kinds only seen on the table, in any phase and by either player."""
TURN_PHASES = ("supply", "lane", "main", "end")



def _trick_pile(move: Move) -> str:
    """The trick pile a `trick` move laid its card on: the player's own unless `to` says."""
    return str(move.to) if move.to else fx.trick(move.player)

class TrickOrBeat(Ruleset):
    game_id = "trick-or-beat"
    rulebook = "trick-or-beat.de.txt"
    expect_keys = ("trick", "lane_limit", "defeated")

    def __init__(self) -> None:
        self.flow = Flow(
            FlowSpec(
                setup_phases=(
                    PhaseSpec(
                        "draft",
                        Text("Draft", "Draft"),
                        may=(
                            Text(
                                f"redraw: fewer than {REDRAW_SHOW_BELOW} creatures, show and "
                                f"draw as many; or discard all and draw {REDRAW_FRESH_FEWER} "
                                "fewer",
                                f"Redraw: weniger als {REDRAW_SHOW_BELOW} Wesen zeigen und gleich "
                                f"viele ziehen; oder alle ablegen und {REDRAW_FRESH_FEWER} "
                                "weniger ziehen",
                            ),
                            Text(
                                "place creatures face down on your lanes",
                                "Wesen verdeckt auf die Lanes legen",
                            ),
                        ),
                        must=(
                            Text(
                                f"keep {KEEP} of your cards, the others to the discard pile",
                                f"{KEEP} Karten behalten, die anderen auf den Ablagestapel",
                            ),
                            Text(
                                "reveal the face-down creatures together",
                                "verdeckte Wesen gemeinsam aufdecken",
                            ),
                        ),
                        ends=Text(
                            f"both players kept {KEEP} cards and revealed their creatures",
                            f"beide Spieler haben {KEEP} Karten behalten und Wesen aufgedeckt",
                        ),
                        automatic=(
                            Text(
                                f"at the end of the draft, cards beyond {KEEP} count as "
                                "discarded "
                                "(the camera sees only the discard pile's top)",
                                f"am Ende des Drafts gelten Karten über {KEEP} als abgelegt "
                                "(die Kamera sieht nur die oberste Karte des Ablagestapels)",
                            ),
                        ),
                        end_check=self._draft_missing,
                        on_end=self._draft_ends,
                        setup=True,
                        moves=("deal", "redraw", "place-down", "reveal", "draw"),
                    ),
                ),
                turn_phases=(
                    PhaseSpec(
                        "supply",
                        Text("Supply phase", "Nachschubphase"),
                        must=(Text("draw a card", "eine Karte ziehen"),),
                        ends=Text("you drew a card", "du hast eine Karte gezogen"),
                        end_check=self._supply_missing,
                        moves=("draw",),
                    ),
                    PhaseSpec(
                        "lane",
                        Text("Lane phase", "Lanephase"),
                        may=(
                            Text(
                                "arrange your creatures on your lanes",
                                "deine liegenden Wesen beliebig auf deinen Lanes anordnen",
                            ),
                        ),
                        ends=Text("you end the phase", "du beendest die Phase"),
                        moves=("shift",),
                    ),
                    PhaseSpec(
                        "main",
                        Text("Main phase", "Hauptphase"),
                        may=(
                            Text("summon creatures onto the passive lane", "Wesen beschwören"),
                            Text("attack with active-lane creatures", "mit Wesen angreifen"),
                            Text("play tactic cards (one supply card)", "Taktikkarten spielen"),
                            Text("equip a creature", "Ausrüstung anlegen"),
                            Text("activate abilities", "Fähigkeiten aktivieren"),
                        ),
                        ends=Text("you end the phase", "du beendest die Phase"),
                        moves=("summon", "attack", "tactic", "equip", "activate"),
                    ),
                    PhaseSpec(
                        "end",
                        Text("End phase", "Endphase"),
                        may=(
                            Text(
                                "put one card face down on your trick pile",
                                "eine Karte verdeckt auf den Trickstapel legen",
                            ),
                        ),
                        ends=Text("you end your turn", "du beendest deinen Zug"),
                        moves=("trick",),
                    ),
                ),
                first_turn_start="lane",
                on_turn_begin=self._turn_begins,
            )
        )

    # ================================================================== setup
    def setup(self, config: GameConfig) -> GameState:
        state = self.new_state(config)
        state.add_zone(DECK, hidden=True)
        state.add_zone(DISCARD)
        for p in PLAYERS:
            state.add_zone(hand_zone(p), hidden=True)
            for lane in fx.lanes(p):
                state.add_zone(lane)
            state.add_zone(fx.trick(p), hidden=True)
        deck = self._deck_list(state, config)
        setup = config.setup
        on_table = table_cards(setup)
        for uid in deck:
            if uid not in on_table:
                state.register(uid, DECK, "shared")
        state.shuffle(DECK)
        if setup:
            self._setup_midgame(state, setup)
            return state
        flags(state)["draft"] = {
            p: {"hand": DEAL, "dealt": 0, "discarded": 0, "started": False} for p in PLAYERS
        }
        self.flow.start(state)
        return state

    def _deck_list(self, state: GameState, config: GameConfig) -> list[str]:
        listed = [uid for cards in config.decks.values() for uid in cards]
        if listed:
            return [card_ref(u) for u in listed]
        uids: list[str] = []
        for card_id in state.catalog.ids():
            copies = state.catalog.card(card_id).number("copies", 1)
            uids += [card_uid(card_id, c) for c in range(1, max(copies, 1) + 1)]
        return uids

    def _setup_midgame(self, state: GameState, setup: Mapping[str, Any]) -> None:
        """Start from a position (DESIGN.md `setup`): table, hands, trick piles, turn, phase."""
        lay_table(state, setup, lambda zone, uid: "shared", lambda zone: DECK,
                  "Trick or Beat")
        deal_hands(state, setup, lambda p: DECK)
        lay_face_down(state, setup)
        attach_cards(state, setup)
        self.start_midgame(state, setup, phase="main", turn=2)
        flags(state)["first_view"] = {p: state.count(fx.trick(p)) for p in PLAYERS}
        flags(state)["first_turn"] = state.turn == 1 and state.active == state.first

    def _turn_begins(self, state: GameState) -> None:
        state.reset_counters("turn")
        flags(state)["turn_mods"] = []
        flags(state)["attack_mods"] = []
        flags(state)["first_turn"] = state.turn == 1
        flags(state)["supply_draws"] = 0
        flags(state)["lifts"] = {what: [] for what in ("draw", "trick", "move")}

    # ================================================================== phase checks
    def _draft_missing(self, state: GameState) -> list[Violation]:
        found: list[Violation] = []
        for p in PLAYERS:
            owed = self._owed(state, p)
            if owed > 0:
                found.append(violation("tob.deal-unfinished", player=p, count=owed))
        hidden = [u for p in PLAYERS for z in fx.lanes(p) for u in state.cards_in(z)
                  if u in state.face_down]
        if hidden:
            found.append(violation("tob.unrevealed", zones=("p1.active", "p2.active")))
        return found

    def _draft_ends(self, state: GameState) -> None:
        """Each player keeps KEEP (8): unseen cards beyond that went to the discard pile unseen."""
        for p in PLAYERS:
            extra = tob_interpret.beyond_keep(state, p)
            unseen = state.unseen_in(hand_zone(p))
            for uid in unseen[: max(0, extra)]:
                state.move(uid, DISCARD, reveal=False)
            if extra > 0:
                tob_interpret.count_unseen_discards(state, p, extra)
                state.pending_chance.append(
                    ChanceEvent("draft-discard", (("player", p), ("count", str(extra))))
                )

    def _owed(self, state: GameState, player: str) -> int:
        """Cards still to be dealt to `player` in the draft."""
        info = flags(state).get("draft", {}).get(player)
        if not info:
            return 0
        return max(0, info["hand"] - info["dealt"])

    def _draft_left(self, state: GameState, player: str) -> int:
        info = flags(state).get("draft", {}).get(player)
        if not info:
            return 0
        return max(0, info["hand"] - KEEP - info["discarded"])

    def _supply_missing(self, state: GameState) -> list[Violation]:
        if state.counter("turn", "drawn") == 0 and state.count(DECK) > 0:
            return [violation("tob.must-draw", zones=(DECK,))]
        return []

    # ================================================================== legal moves
    def candidate_moves(self, state: GameState) -> list[Move]:
        moves: list[Move] = []
        if state.phase == "draft":
            for p in PLAYERS:
                moves += self._draft_moves(state, p)
        else:
            moves += self._turn_moves(state, state.active)
            moves.append(Move("pass", state.active))
        moves.append(Move("next-phase", state.active))
        return moves

    def _draft_moves(self, state: GameState, p: str) -> list[Move]:
        hand = state.cards_in(hand_zone(p))
        info = flags(state)["draft"][p]
        owed = self._owed(state, p)
        if owed:
            return [Move("deal", p, value=owed)]
        moves: list[Move] = []
        if not info["started"]:
            moves.append(Move("redraw", p, tuple(hand), value="show"))
            moves.append(Move("redraw", p, value="fresh"))
        if self._draft_left(state, p) > 0:
            moves += [Move("discard", p, (u,)) for u in hand]
        for u in hand:
            if state.facts(u).type == "creature":
                moves += [Move("place-down", p, (u,), to=z) for z in fx.lanes(p)]
        for z in fx.lanes(p):
            moves += [Move("reveal", p, (u,)) for u in state.cards_in(z) if u in state.face_down]
        return moves

    def _turn_moves(self, state: GameState, p: str) -> list[Move]:
        hand = state.cards_in(hand_zone(p))
        moves: list[Move] = []
        if state.phase == "supply":
            moves.append(Move("draw", p))
        elif state.phase == "lane":
            for u in fx.creatures_of(state, p):
                dest = f"{p}.passive" if state.where[u].endswith(".active") else f"{p}.active"
                moves.append(Move("shift", p, (u,), to=dest))
        elif state.phase == "main":
            own = fx.creatures_of(state, p)
            for u in hand:
                facts = state.facts(u)
                if facts.type == "creature":
                    moves.append(Move("summon", p, (u,), to=f"{p}.passive"))
                elif facts.get("category") == "equipment":
                    moves += [Move("equip", p, (u,), target=c) for c in own]
                else:
                    moves += [Move("tactic", p, (u,), target=t)
                              for t in self._effect_targets(state, p, facts.abilities)]
            ready = fx.ready_attackers(state, p)
            groups = [group for size in range(1, len(ready) + 1)
                      for group in combinations(ready, size)]  # "beliebig viele Angreifer"
            for t in fx.creatures_of(state, other(p)):
                moves += [Move("attack", p, group, target=t) for group in groups]
            for u in own:
                for i, e in enumerate(fx.effects_of(state, u)):
                    if e.when == "activated":
                        moves += [Move("activate", p, (u,), value=i, target=t)
                                  for t in self._effect_targets(state, p, (e,))]
            if flags(state).get("supply_draws", 0) > 0 and state.top(DECK):
                moves.append(Move("supply-draw", p, (str(state.top(DECK)),)))
        elif state.phase == "end" and hand:
            moves.append(Move("trick", p, (UNKNOWN,)))
        return moves

    @staticmethod
    def _effect_targets(state: GameState, p: str,
                        abilities: tuple[Ability, ...]) -> list[str | None]:
        """The targets to offer for a card's effects: none when no effect names a creature,
        else every creature on the table that fits all of them (one move each)."""
        selectors = [sel for a in abilities if fx.is_targeted(a.effect)
                     and (sel := fx.selector_of(a.effect)) is not None]
        if not selectors:
            return [None]
        return [t for t in fx.all_creatures(state)
                if all(fx.target_fits(state, p, t, sel) for sel in selectors)]

    # ================================================================== checks
    def check_specific(self, state: GameState, move: Move) -> list[Violation]:
        kind = move.kind
        if kind in CORE_KINDS:
            return []
        if kind in DRAFT_KINDS or kind in SEEN_KINDS:
            return self.moves.check(self, state, move)
        found = self.turn_violations(state, move)
        return found + self.moves.check(self, state, move)

    def _check_after_draft(self, state: GameState, move: Move) -> list[Violation]:
        """A draft kind seen after the draft."""
        kind = move.kind
        if kind == "discard" and move.option("shown") == "yes" \
                and tob_interpret.draft_end_showing(state) \
                and state.can_resolve(move.card, DISCARD):
            return []  # a draft discard nobody saw, on top as the draft ends
        if kind == "discard" and move.card in state.where \
                and state.where[move.card] == hand_zone(move.player) \
                and state.facts(move.card).get("category") == "equipment":
            # "Ausrüstung ... an eines deiner Wesen anlegen": laid from the hand onto the
            # discard pile, it was used as a tactic, which an equipment is not
            return [violation("tob.equipment-as-tactic", cards=move.cards)]
        if kind == "discard":
            return self._check_unexplained(state, move)
        if kind == "place-down":
            return [violation("tob.face-down", cards=move.cards, zones=(str(move.to),))]
        return [violation("tob.draft-only", action=kind)]

    def _known_facts_type(self, state: GameState, uid: str) -> str:
        return "" if uid == UNKNOWN or uid not in state.where else state.facts(uid).type

    def _lane_room(self, state: GameState, p: str, zone: str, uid: str) -> list[Violation]:
        if zone not in fx.lanes(p):
            return [violation("tob.bad-lane", zones=(zone,), player=p)]
        present = [u for u in state.cards_in(zone) if u not in state.attached and u != uid]
        limit = fx.lane_limit(state, p)
        if len(present) >= limit:
            return [violation("tob.lane-full", cards=(uid,), zones=(zone,),
                              count=len(present), limit=limit)]
        return []

    # ---------------------------------------------------------------- draft
    def _check_deal(self, state: GameState, move: Move) -> list[Violation]:
        owed = self._owed(state, move.player)
        count = move.value if isinstance(move.value, int) else 1
        if count > owed:
            return [violation("tob.deal-too-many", player=move.player, count=count, limit=owed)]
        if count > state.count(DECK):
            return [violation("tob.deck-empty", zones=(DECK,))]
        return []

    def _check_redraw(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        info = flags(state)["draft"][p]
        hand_size = state.count(hand_zone(p)) + self._guessed_count(state, p)
        if (info["started"] and not self._guessed_only(state, p)) or self._owed(state, p) > 0:
            return [violation("tob.redraw-late")]
        if move.value == "show":
            if not move.cards:
                return []  # declared on the page without the cards: nothing to verify
            found = CHECKS.from_hand(state, move.player, move.cards)
            if len(move.cards) != hand_size:
                found.append(violation("tob.redraw-hand", count=hand_size, shown=len(move.cards)))
            creatures = sum(1 for u in move.cards if self._known_facts_type(state, u) == "creature")
            if creatures >= REDRAW_SHOW_BELOW:
                found.append(violation("tob.redraw-creatures", cards=move.cards, count=creatures))
            return found
        if move.value == "fresh":
            if hand_size - REDRAW_FRESH_FEWER < KEEP:
                return [violation("tob.redraw-too-small", count=hand_size)]
            return []
        return [violation("tob.redraw-kind", value=move.value)]

    def _check_discard(self, state: GameState, move: Move) -> list[Violation]:
        info = flags(state)["draft"][move.player]
        shown = move.option("shown") == "yes" and tob_interpret.unseen_discards(
            state, move.player) > 0
        found = [] if shown else CHECKS.from_hand(state, move.player, move.cards)
        left = self._draft_left(state, move.player)
        if not shown and len(move.cards) > left:
            found.append(violation("tob.draft-discard-too-many", cards=move.cards,
                                   player=move.player, limit=info["hand"] - KEEP))
        return found

    def _check_place_down(self, state: GameState, move: Move) -> list[Violation]:
        found = CHECKS.from_hand(state, move.player, move.cards)
        uid = move.card
        return found + self._lane_room(state, move.player, str(move.to), uid)

    def _check_reveal(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found: list[Violation] = []
        if any(self._owed(state, q) > 0 for q in PLAYERS):
            found.append(violation("tob.reveal-early"))
        for uid in move.cards:
            back = move.option("back")
            on_lane = [u for z in fx.lanes(p) for u in state.cards_in(z) if u in state.face_down]
            ok = (back is not None and back in state.backs) or uid in on_lane or (
                uid in state.where and not state.known(uid) and bool(on_lane))
            if not ok:
                found.append(violation("tob.not-face-down", cards=(uid,), player=p))
            elif self._known_facts_type(state, uid) != "creature":
                found.append(violation("tob.draft-not-creature", cards=(uid,)))
        return found

    # ---------------------------------------------------------------- turn
    def _check_draw(self, state: GameState, move: Move) -> list[Violation]:
        if state.phase == "draft":
            return self._check_deal(state, Move("deal", move.player, value=1))
        if state.count(DECK) == 0:
            return [violation("tob.deck-empty", zones=(DECK,))]
        if state.phase == "supply":
            if state.counter("turn", "drawn") >= 1:
                return [self._lift(state, violation("tob.draw-once", zones=(DECK,)), "draw")]
            return []
        if flags(state).get("first_turn") and state.counter("turn", "drawn") == 0 \
                and state.phase == "lane":
            return [violation("tob.first-turn-draw", zones=(DECK,))]
        return [self._lift(state, violation("tob.extra-draw", zones=(DECK,)), "draw")]

    def _lift(self, state: GameState, v: Violation, what: str) -> Violation:
        """Mark `v` lifted when an effect used this turn allows one more `what`."""
        sources = flags(state).get("lifts", {}).get(what, [])
        if sources:
            return Violation(v.code, v.message_en, v.message_de, v.rule, v.cards, v.zones,
                             lifted_by=sources[0])
        return v

    def _check_shift(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found: list[Violation] = []
        uid = move.card
        if uid not in fx.creatures_of(state, p):
            return [violation("tob.not-own-card", cards=(uid,), player=p)]
        if state.phase != "lane":
            v = violation("tob.wrong-phase", cards=(uid,), action="shift", phase=state.phase)
            found.append(self._lift(state, v, "move"))
        to = str(move.to)
        if to not in fx.lanes(p):
            return [*found, violation("tob.bad-lane", zones=(to,), player=p)]
        arranged = fx.arranged(state, p, move)
        limit = fx.lane_limit(state, p)
        if len(arranged[to]) > limit:
            found.append(violation("tob.lane-full", cards=(uid,), zones=(to,),
                                   count=len(arranged[to]) - 1, limit=limit))
        return found

    def _check_summon(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found = CHECKS.in_phase(state, move, "main")
        found += CHECKS.from_hand(state, move.player, move.cards)
        uid = move.card
        if self._known_facts_type(state, uid) not in ("creature", ""):
            found.append(violation("tob.not-creature", cards=(uid,)))
        to = str(move.to or f"{p}.passive")
        if to == f"{p}.active":
            found.append(violation("tob.summon-active", cards=(uid,), zones=(to,)))
        found += self._lane_room(state, p, to, uid)
        return found

    def _check_attack(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found = CHECKS.in_phase(state, move, "main")
        if not move.cards:
            found.append(violation("tob.no-attackers"))
        named: set[str] = set()
        for a in move.cards:
            if a in named:
                found.append(violation("tob.attacker-twice", cards=(a,)))
                continue
            named.add(a)
            if a not in fx.creatures_of(state, p):
                found.append(violation("tob.not-own-card", cards=(a,), player=p))
            elif not state.where[a].endswith(".active"):
                found.append(violation("tob.attacker-passive", cards=(a,),
                                       zones=(state.where[a],)))
            elif state.counter("turn", f"attacked:{a}"):
                found.append(violation("tob.attacker-used", cards=(a,)))
        target = move.target or ""
        opp = other(p)
        if target not in fx.creatures_of(state, opp):
            found.append(violation("tob.bad-target", cards=(target,)))
        elif fx.protected(state, target):
            found.append(violation("tob.target-protected", cards=(target,),
                                   zones=(f"{opp}.passive",)))
        seen: set[tuple[str, int]] = set()
        for uid, index in fx.parse_picks(move.option("combat")):
            effects = fx.effects_of(state, uid) if uid in state.where else ()
            ok = 0 <= index < len(effects) and effects[index].when == "combat"
            if not ok:
                found.append(violation("tob.no-such-ability", cards=(uid,), kind="combat",
                                       ability=index))
            elif not fx.has_access(state, uid, effects[index]):
                found.append(violation("tob.ability-lane", cards=(uid,)))
            else:
                found += self._combat_side(state, move, uid, index, effects[index])
            if (uid, index) in seen:
                found.append(violation("tob.combat-once", cards=(uid,), ability=index))
            seen.add((uid, index))
        return found

    @staticmethod
    def _combat_side(state: GameState, move: Move, uid: str, index: int,
                     ability: Ability) -> list[Violation]:
        """A combat ability helps its own player's side: the attacking player's creatures
        raise the attack, the defender's owner's creatures the survival."""
        effect = ability.effect
        owner = fx.side_of(state, uid)
        if not isinstance(effect, Modify) or move.target not in fx.all_creatures(state):
            return []  # a wrong target is tob.bad-target
        side = fx.combat_side(state, move.player, move.target, effect.stat)
        if owner == side:
            return []
        return [violation("tob.combat-side", cards=(uid,), ability=index, player=owner)]

    def _check_tactic(self, state: GameState, move: Move) -> list[Violation]:
        found = CHECKS.in_phase(state, move, "main")
        found += CHECKS.from_hand(state, move.player, move.cards)
        uid = move.card
        if uid == UNKNOWN or uid not in state.where:
            return found
        facts = state.facts(uid)
        if facts.type != "tactic":
            found.append(violation("tob.not-tactic", cards=(uid,)))
        elif facts.get("category") == "equipment":
            found.append(violation("tob.equipment-as-tactic", cards=(uid,)))
        elif self._drawn_supply_discarded(state, move):
            return found  # part of the supply card's draws, not a second supply card
        elif facts.get("category") == "supply" and state.counter("turn", "supply"):
            found.append(violation("tob.supply-once", cards=(uid,)))
        for ability in facts.abilities:
            found += self._effect_target(state, move, uid, ability)
        return found

    def _effect_target(self, state: GameState, move: Move, source: str,
                       ability: Ability) -> list[Violation]:
        """A targeted effect needs a target, and it must fit (an opposing creature, in the
        active lane)."""
        effect = ability.effect
        if not fx.is_targeted(effect):
            return []
        assert isinstance(effect, Destroy | Return | MoveCards)
        if not move.target:
            return [violation("tob.effect-no-target", cards=(source,),
                              kind=fx.target_word(effect.target))]
        if fx.target_fits(state, move.player, move.target, effect.target):
            return []
        return [violation("tob.effect-target", cards=(source, move.target), target=move.target,
                          kind=fx.target_word(effect.target))]

    def _check_supply_draw(self, state: GameState, move: Move) -> list[Violation]:
        if state.count(DECK) == 0:
            return [violation("tob.deck-empty", zones=(DECK,))]
        if flags(state).get("supply_draws", 0) <= 0:
            return [violation("tob.no-supply-draw", cards=move.cards)]
        uid = move.card
        if uid != UNKNOWN and not state.can_resolve(uid, DECK):
            return [violation("tob.unexplained", cards=(uid,), zones=(hand_zone(move.player),),
                              zone=hand_zone(move.player))]
        return []

    def _check_equip(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found = CHECKS.in_phase(state, move, "main")
        found += CHECKS.from_hand(state, move.player, move.cards)
        uid = move.card
        if uid != UNKNOWN and uid in state.where and \
                state.facts(uid).get("category") != "equipment":
            found.append(violation("tob.equip-not-equipment", cards=(uid,)))
        target = move.target or ""
        if target not in fx.creatures_of(state, p):
            found.append(violation("tob.equip-target", cards=(uid,), target=target))
        elif any(h == target for h in state.attached.values()):
            found.append(violation("tob.equipment-one", cards=(uid, target), target=target))
        return found

    def _check_activate(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found = CHECKS.in_phase(state, move, "main")
        uid = move.card
        if uid not in fx.creatures_of(state, p):
            return [*found, violation("tob.not-own-card", cards=(uid,), player=p)]
        effects = fx.effects_of(state, uid)
        index = move.value if isinstance(move.value, int) else -1
        if not 0 <= index < len(effects) or effects[index].when != "activated":
            return [*found, violation("tob.no-such-ability", cards=(uid,), kind="activatable",
                                      ability=move.value)]
        if not fx.has_access(state, uid, effects[index]):
            found.append(violation("tob.ability-lane", cards=(uid,)))
        if state.counter("turn", f"activated:{uid}/{index}"):
            found.append(violation("tob.ability-once", cards=(uid,), ability=index))
        return found + self._effect_target(state, move, uid, effects[index])

    def _check_trick(self, state: GameState, move: Move) -> list[Violation]:
        pile = _trick_pile(move)
        found = CHECKS.in_phase(state, move, "end")
        found += CHECKS.from_hand(state, move.player, move.cards)
        if pile != fx.trick(move.player):
            # "Du kannst eine Karte aus deiner Hand verdeckt auf deinen Trickstapel legen":
            # on your own pile, never the other player's (a person said who laid it)
            found.append(violation("tob.trick-not-own", zones=(pile,), player=move.player,
                                   owner=pile.split(".")[0]))
        if move.card != UNKNOWN and move.card in state.where:
            # a card the camera can read lies face up
            found.append(violation("tob.trick-face-up", cards=(move.card,), zones=(pile,)))
        if state.counter("turn", "tricked") >= 1:
            found.append(self._lift(state, violation("tob.trick-once", zones=(pile,)),
                                    "trick"))
        return found

    def _check_unexplained(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        zone = str(move.to or DISCARD)
        return [violation("tob.unexplained", cards=(uid,), zones=(zone,), zone=zone)]

    def _check_remove(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        last = flags(state).get("last_attack")
        if last and last.get("target") == uid:
            return [violation("tob.not-defeated", cards=(uid,), zones=(str(move.to),),
                              attack=last["attack"], survival=last["survival"])]
        return self._check_unexplained(state, move)

    def _check_untrick(self, state: GameState, move: Move) -> list[Violation]:
        return [violation("tob.trick-final", zones=(fx.trick(move.player),))]

    # ================================================================== apply
    SUPPLY_DRAW_KINDS = ("supply-draw", "draw", "discard", "remove")
    """Moves that may belong to a supply card's face-up draws; any other move shows the
    draws are over (the card's effect happens at once: draws not seen were not made)."""

    def apply_specific(self, state: GameState, move: Move) -> None:
        flags(state)["expected_deck_draws"] = 0
        if self._drawn_supply_discarded(state, move):
            self._discard_drawn_supply(state, move)
            return
        if move.kind not in self.SUPPLY_DRAW_KINDS:
            flags(state)["supply_draws"] = 0
            flags(state)["supply_hidden_draws"] = 0
        self.moves.apply(self, state, move)

    @staticmethod
    def _drawn_supply_discarded(state: GameState, move: Move) -> bool:
        """A supply card laid from the hand on the discard pile while a supply card's face-up
        draws go on, after a draw the camera could not read: that drawn card, discarded and
        replaced ("Falls du dabei Nachschubkarten ziehst, lege diese auf den Ablagestapel und
        ziehe entsprechend viele neue Karten"), not a second supply card played."""
        uid = move.card if move.cards else UNKNOWN
        return (move.kind == "tactic" and uid != UNKNOWN and uid in state.where
                and state.facts(uid).get("category") == "supply"
                and flags(state).get("supply_hidden_draws", 0) > 0)

    @staticmethod
    def _discard_drawn_supply(state: GameState, move: Move) -> None:
        card = take_from_hand(state, move.player, move.card)
        if card is None:
            return
        state.public.add(card)
        state.move(card, DISCARD)
        flags(state)["supply_hidden_draws"] -= 1
        flags(state)["supply_draws"] = flags(state).get("supply_draws", 0) + 1

    def _apply_redraw(self, state: GameState, move: Move) -> None:
        if any(v.blocking for v in self._check_redraw(state, move)):
            return  # declared, not done: the table shows what really happened
        p = move.player
        if self._guessed_only(state, p):
            self._give_guessed_discards(state, p)
        hand = hand_zone(p)
        for uid in move.cards:
            take_from_hand(state, p, uid)
        count = state.count(hand)
        for uid in list(state.cards_in(hand)):
            state.move(uid, DISCARD, reveal=move.value == "show")
        new = count if move.value == "show" else max(0, count - REDRAW_FRESH_FEWER)
        info = flags(state)["draft"][p]
        info["hand"] = new
        info["dealt"] = 0
        if move.value != "show":
            tob_interpret.count_unseen_discards(state, p, count)
            flags(state)["draft_redrawn"] = p

    def _apply_deal(self, state: GameState, move: Move) -> None:
        count = move.value if isinstance(move.value, int) else 1
        draw_cards(state, DECK, hand_zone(move.player), count)
        flags(state)["draft"][move.player]["dealt"] += count

    def _apply_discard(self, state: GameState, move: Move) -> None:
        if move.option("shown") == "yes" and (
                tob_interpret.unseen_discards(state, move.player) > 0 if state.phase == "draft"
                else tob_interpret.draft_end_showing(state)):
            self._show_discarded(state, move)
            if state.phase == "draft":
                self._note_guess(state, move)
            return
        # the cards seen first, then the unseen ones beneath them ("?": a stack's lower cards,
        # never the seen card itself taken twice)
        for uid in sorted(move.cards, key=lambda u: u == UNKNOWN):
            place = state.where.get(uid)
            # from the hand: a card there, or one only believed lying face down on a lane or
            # unseen on the discard pile (a fresh redraw's hand): which card lies there nobody
            # saw, and `_check_discard` lets it come from the hand
            from_hand = uid == UNKNOWN or (place is not None and (
                state.is_hidden(place) or (uid in state.face_down and not state.known(uid))
                or (place == DISCARD and not state.known(uid))))
            card = take_from_hand(state, move.player, uid) if from_hand else uid
            if card is None or card not in state.where:
                continue
            release_attached(state, card, _to_discard)
            state.move(card, DISCARD, reveal=uid != UNKNOWN, bottom=uid == UNKNOWN)
        if state.phase == "draft":
            info = flags(state)["draft"][move.player]
            info["discarded"] += len(move.cards)
            tob_interpret.count_unseen_discards(state, move.player, move.cards.count(UNKNOWN))
            info["started"] = True
            self._note_guess(state, move)

    @staticmethod
    def _note_guess(state: GameState, move: Move) -> None:
        """Keep which of the player's draft discards only a guess made theirs (the cards
        seen of them), and whether anything else they did is certain (a named or forced
        discard, a creature laid face down on their own lane, a redraw)."""
        info = flags(state)["draft"][move.player]
        if move.option(tob_interpret.GUESS[0]) == tob_interpret.GUESS[1]:
            info.setdefault("guessed", []).extend(c for c in move.cards if c != UNKNOWN)
        else:
            info["firm"] = True

    @staticmethod
    def _guessed_only(state: GameState, player: str) -> bool:
        """The player began the draft only by discards the rules guessed were theirs, and
        the other player could have laid each card seen of them (one of their discards
        counted unseen, or the top of their stack of all cards beyond 8)."""
        info = flags(state)["draft"][player]
        if not info.get("started") or not info.get("guessed") or info.get("firm"):
            return False
        owner = other(player)
        unseen = tob_interpret.unseen_discards(state, owner)
        extra = tob_interpret.beyond_keep(state, owner)
        for _seen in info.get("guessed", []):
            if unseen > 0:
                unseen -= 1
            elif extra > 0:
                unseen, extra = unseen + extra - 1, 0
            else:
                return False
        return True

    def _guessed_count(self, state: GameState, player: str) -> int:
        """The cards of the player's hand that guessed discards put on the discard pile."""
        if not self._guessed_only(state, player):
            return 0
        return int(flags(state)["draft"][player]["discarded"])

    @staticmethod
    def _give_guessed_discards(state: GameState, player: str) -> None:
        """A person's word (a redraw declared, "Wenn dir deine Karten nicht gefallen, darfst
        du alle ablegen": before the draft's discards) says the player had not begun: the
        discards only guessed theirs were the other player's. Their cards go back to their
        hand; each card seen of them is read again as the other's: one of the other's
        discards counted unseen, else the top of the other's stack of all cards beyond 8
        (`_guessed_only`: one of them fits each)."""
        owner = other(player)
        mine, theirs = flags(state)["draft"][player], flags(state)["draft"][owner]
        hand, their_hand = hand_zone(player), hand_zone(owner)

        def unseen_from(zone: str) -> str | None:
            return next(iter(state.unseen_in(zone)), None)

        for _ in range(tob_interpret.unseen_discards(state, player)):
            card = unseen_from(DISCARD)
            if card is not None:
                state.move(card, hand, reveal=False)
        tob_interpret.count_unseen_discards(state, player, -mine["discarded"])
        for _seen in mine.get("guessed", []):
            extra = tob_interpret.beyond_keep(state, owner)
            if tob_interpret.unseen_discards(state, owner) > 0:
                tob_interpret.count_unseen_discards(state, owner, -1)
                card = unseen_from(DISCARD)
            else:
                for _ in range(extra - 1):
                    under = unseen_from(their_hand)
                    if under is not None:
                        state.move(under, DISCARD, bottom=True, reveal=False)
                theirs["discarded"] += extra
                tob_interpret.count_unseen_discards(state, owner, extra - 1)
                card = unseen_from(their_hand)
            if card is not None:
                state.move(card, hand, reveal=False)
            theirs["started"] = True
        theirs.setdefault("guessed", []).extend(mine.get("guessed", []))
        mine["discarded"], mine["started"], mine["guessed"] = 0, False, []

    @staticmethod
    def _show_discarded(state: GameState, move: Move) -> None:
        """A card seen arriving on the discard pile in the draft that is one of the player's
        discards counted unseen (laid one by one after all were counted as a stack): it is
        believed there from now on, on top where the camera sees it, nothing more is
        discarded. As the draft ends: one of the draft discards nobody saw, now on top."""
        tob_interpret.count_unseen_discards(state, move.player, -1)
        uid = move.card
        if uid in state.where and state.resolve(uid, DISCARD):
            state.move(uid, DISCARD)

    def _apply_place_down(self, state: GameState, move: Move) -> None:
        uid = move.card
        card = take_from_hand(state, move.player, uid)
        if card is None:
            return
        state.move(card, str(move.to), face_down=True)
        back = move.option("back")
        if back:
            state.backs[back] = card
        if state.phase == "draft":
            flags(state)["draft"][move.player]["started"] = True
            flags(state)["draft"][move.player]["firm"] = True  # on their own lane

    def _apply_reveal(self, state: GameState, move: Move) -> None:
        back = move.option("back")
        for uid in move.cards:
            if back and back in state.backs:
                state.resolve_back(back, uid)
                state.backs.pop(back, None)
            elif uid in state.where and uid not in state.face_down:
                lanes = fx.lanes(move.player)
                down = [u for z in lanes for u in state.cards_in(z) if u in state.face_down]
                if down and not state.known(uid):
                    self._swap_into(state, uid, down[-1])
            if uid in state.where:
                state.face_down.discard(uid)
                state.public.add(uid)

    @staticmethod
    def _swap_into(state: GameState, uid: str, placeholder: str) -> None:
        state.resolve(uid, state.where[placeholder])

    def _apply_draw(self, state: GameState, move: Move) -> None:
        if state.phase == "draft":
            self._apply_deal(state, Move("deal", move.player, value=1))
            return
        if state.phase != "supply" or state.counter("turn", "drawn") >= 1:
            self._use_lift(state, "draw")
        state.draw(DECK, hand_zone(move.player))
        state.bump("turn", "drawn")

    @staticmethod
    def _use_lift(state: GameState, what: str) -> None:
        sources = flags(state).get("lifts", {}).get(what, [])
        if sources:
            sources.pop(0)

    def _apply_supply_draw(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid != UNKNOWN and uid in state.where:
            state.resolve(uid, DECK)
            state.move(uid, hand_zone(move.player))
        else:
            uid = state.draw(DECK, hand_zone(move.player)) or UNKNOWN
            if move.cards and move.cards[0] == UNKNOWN:
                state.public.discard(uid)
                flags(state)["supply_draws"] = max(0, flags(state).get("supply_draws", 0) - 1)
                flags(state)["supply_hidden_draws"] = (
                    flags(state).get("supply_hidden_draws", 0) + 1)
                return
        state.public.add(uid)
        if state.facts(uid).get("category") == "supply":
            state.move(uid, DISCARD)  # drawn supply cards are discarded and replaced
        else:
            flags(state)["supply_draws"] = max(0, flags(state).get("supply_draws", 0) - 1)

    def _apply_shift(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where:
            return
        if state.phase != "lane":
            self._use_lift(state, "move")
        move_with_attached(state, uid, str(move.to))

    def _apply_summon(self, state: GameState, move: Move) -> None:
        p = move.player
        card = take_from_hand(state, p, move.cards[0]) if move.cards else None
        if card is not None:
            state.move(card, str(move.to or f"{p}.passive"))

    def _apply_attack(self, state: GameState, move: Move) -> None:
        """A declared attack; an illegal one is recorded but changes nothing (the table
        shows whether the target really left). Made in the wrong phase it still is an attack
        of creatures that may attack: its defeat follows from it, recorded once."""
        p = move.player
        problems = [v for v in self._check_attack(state, move) if v.blocking]
        if any(v.code != "tob.wrong-phase" for v in problems):
            return
        attackers = list(dict.fromkeys(a for a in move.cards if a in state.where))
        for a in attackers:
            state.bump("turn", f"attacked:{a}")
        target = move.target
        if target is None or target not in fx.creatures_of(state, other(p)):
            return
        picks = fx.parse_picks(move.option("combat"))
        attack = fx.attack_value(state, p, attackers, picks)
        survival = fx.survival_value(state, target, picks)
        flags(state)["last_attack"] = {"target": target, "attack": attack, "survival": survival}
        fx.use_attack_mods(state, p, other(p))
        if attack >= survival:
            release_attached(state, target, _to_discard)
            state.move(target, DISCARD)
            if not problems:  # nobody wins by an attack the rules did not allow
                self._beat_when_none_left(state, p)

    @staticmethod
    def _beat_when_none_left(state: GameState, p: str) -> None:
        """The rulebook's Beat ("alle liegenden Wesen deines Gegners besiegt"): by an attack or a
        tactic that destroys; a creature sent back to the hand is not defeated."""
        if state.outcome is None and not fx.creatures_of(state, other(p)):
            state.outcome = Outcome(
                p, "beat",
                f"{p} defeated every creature of {other(p)} (beat)",
                f"{p} hat alle liegenden Wesen von {other(p)} besiegt (Beat)",
            )

    def _apply_tactic(self, state: GameState, move: Move) -> None:
        p = move.player
        card = take_from_hand(state, p, move.cards[0]) if move.cards else None
        if card is None:
            return
        facts = state.facts(card)
        supply = facts.get("category") == "supply"
        if supply:
            state.bump("turn", "supply")
        for ability in facts.abilities:
            self._run_effect(state, p, card, ability, move.target, face_up=supply)
        if facts.get("hook"):
            run_hook(str(facts.get("hook")), state, move, card)
        # "Lege die Taktikkarte auf den Ablagestapel, nachdem sie gespielt wurde": after its
        # effect, so it lies face up on the creature it sent there
        state.move(card, DISCARD)

    def _run_effect(self, state: GameState, p: str, source: str, ability: Ability,
                    target: str | None, face_up: bool = False) -> None:
        """One activatable/play ability (compiled at load). Stat changes last for the turn,
        a tactic's change of the attackers or the defender for the next attack only."""
        effect = ability.effect
        if isinstance(effect, Draw):
            amount = effect.amount
            if face_up:
                flags(state)["supply_draws"] = flags(state).get("supply_draws", 0) + amount
            else:
                lifts = flags(state).setdefault("lifts", {})
                lifts.setdefault("draw", []).extend([source] * max(amount, 1))
        elif isinstance(effect, MoveCards) and effect.to == "trick":
            amount = effect.target.count if isinstance(effect.target.count, int) else 0
            drawn = draw_cards(state, DECK, fx.trick(p), amount)
            if drawn:
                flags(state)["expected_deck_draws"] = (
                    flags(state).get("expected_deck_draws", 0) + len(drawn))
        elif isinstance(effect, MoveCards) and effect.to == "other-lane" \
                and target in fx.all_creatures(state):
            if fx.effect_can_move(state, effect, target):
                dest = fx.other_lane(state, target)
                self._apply_shift(state, Move("shift", fx.side_of(state, target), (target,),
                                              to=dest))
        elif isinstance(effect, Modify) and ability.when == "play" \
                and effect.target.role in ("attackers", "defender"):
            # a tactic's one-time effect ("Im Angriff: die Angreifer +3"): the next attack
            flags(state).setdefault("attack_mods", []).append(
                [p, effect.target.role, effect.stat, effect.amount])
        elif isinstance(effect, Modify):
            who = fx.target_word(effect.target)
            scope = target if who in ("own_creatures", "opponent_creature") and target else (
                source if who == "self" else "*")
            flags(state).setdefault("turn_mods", []).append([p, scope, effect.stat,
                                                             effect.amount])
        elif isinstance(effect, Destroy | Return) and target in fx.all_creatures(state):
            owner = fx.side_of(state, target)
            release_attached(state, target, _to_discard)
            dest = DISCARD if isinstance(effect, Destroy) else hand_zone(owner)
            state.move(target, dest)
            if isinstance(effect, Destroy) and owner != p:
                self._beat_when_none_left(state, p)

    def _apply_equip(self, state: GameState, move: Move) -> None:
        card = take_from_hand(state, move.player, move.cards[0]) if move.cards else None
        target = move.target
        if card is None or target is None or target not in state.where:
            return
        state.move(card, state.where[target])
        state.attached[card] = target

    def _apply_activate(self, state: GameState, move: Move) -> None:
        if any(v.blocking for v in self._check_activate(state, move)):
            return  # declared, not done: the table shows what really happened
        uid = move.card
        index = move.value if isinstance(move.value, int) else -1
        state.bump("turn", f"activated:{uid}/{index}")
        if uid not in state.where:
            return
        effects = fx.effects_of(state, uid)
        if 0 <= index < len(effects):
            self._run_effect(state, move.player, uid, effects[index], move.target)

    def _apply_trick(self, state: GameState, move: Move) -> None:
        p = move.player
        card = take_from_hand(state, p, move.card)
        if card is None:
            return
        state.move(card, _trick_pile(move))  # where the table shows it, even the wrong pile
        back = move.option("back")
        if back:
            state.backs[back] = card
            taken = flags(state).get("taken_back", {}).get(p, [])
            if back in taken:
                taken.remove(back)  # laid again: on the pile, as the camera's memory has it
        if state.counter("turn", "tricked") >= 1:
            self._use_lift(state, "trick")
        state.bump("turn", "tricked")

    def _apply_remove(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where:
            return
        release_attached(state, uid, _to_discard)
        state.move(uid, str(move.to or DISCARD))

    def _apply_untrick(self, state: GameState, move: Move) -> None:
        pile = fx.trick(move.player)
        top = state.top(pile)
        if top is not None:
            state.move(top, hand_zone(move.player))
        back = move.option("back")
        if back:  # the camera's memory still holds it on the pile: laid again, it is new
            flags(state).setdefault("taken_back", {}).setdefault(move.player, []).append(back)
        first = flags(state).get("first_view", {})
        if move.player in first:
            first[move.player] = min(first[move.player], state.count(pile))

    def after_move(self, state: GameState) -> None:
        for p in PLAYERS:
            if state.count(fx.trick(p)) >= TRICK_WIN \
                    and not blocks_trick_win(state.count(fx.trick(other(p)))):
                state.outcome = Outcome(
                    p, "trick",
                    f"{p} has {TRICK_WIN} cards on the trick pile (trick)",
                    f"{p} hat {TRICK_WIN} Karten auf dem Trickstapel (Trick)",
                )
                return

    # ================================================================== interpreter
    def describe(self, move: Move, lang: str = "en") -> str:
        """An inferred attack says so, with why: nobody declared it, the camera saw only its
        target go to the discard pile."""
        text = super().describe(move, lang)
        count = move.option("inferred")
        if move.kind != "attack" or not count:
            return text
        target = move.target or "-"
        if count == "1":
            why = (f"erschlossen: der einzige regelgerechte Angriff, der {target} besiegt"
                   if lang == "de" else f"inferred: the only legal attack that defeats {target}")
        else:
            why = (f"erschlossen: einer von {count} regelgerechten Angriffen, die {target} "
                   "besiegen" if lang == "de"
                   else f"inferred: one of {count} legal attacks that defeat {target}")
        return f"{text} ({why})"

    def doubtful_reading(self, state: GameState, seen: tuple[tuple[Move, str], ...]) -> bool:
        return tob_interpret.taken_back_doubt(state, seen)

    def unconfirmed_reading(self, state: GameState, seen: tuple[tuple[Move, str], ...]) -> bool:
        """A winning trick card read in the end phase (pressed or inferred before) from a
        change that may as well be the pile's top taken back: asked, as after moving on."""
        return tob_interpret.taken_back_doubt(state, seen)

    def pile_zones(self) -> list[str]:
        return list(tob_interpret.PILES)

    def explain(
        self, state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
    ) -> list[list[Move]]:
        return tob_interpret.explain(state, diff, hints)

    # ================================================================== reading
    def scores(self, state: GameState) -> dict[str, Score]:
        result = {}
        for p in PLAYERS:
            result[p] = Score(
                player=p,
                value=state.count(fx.trick(p)),
                label_en="cards on the trick pile",
                label_de="Karten auf dem Trickstapel",
                details=(
                    ("creatures", len(fx.creatures_of(state, p))),
                    ("hand", state.count(hand_zone(p))),
                    ("lane_limit", fx.lane_limit(state, p)),
                ),
            )
        return result

    def expect_value(self, state: GameState, key: str) -> Any:
        if key == "trick":
            return {p: state.count(fx.trick(p)) for p in PLAYERS}
        if key == "lane_limit":
            return {p: fx.lane_limit(state, p) for p in PLAYERS}
        if key == "defeated":
            return [u for u in state.cards_in(DISCARD) if state.facts(u).type == "creature"]
        return super().expect_value(state, key)

    def view_extra(self, state: GameState, observer: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in PLAYERS:
            t = state.count(fx.trick(p))
            out[p] = {
                "lane_limit": fx.lane_limit(state, p),
                "attack_bonus": attack_bonus_for(t),
                "survival_bonus": survival_bonus_for(t),
                "trick_win_blocked_for_opponent": blocks_trick_win(t),
            }
        out["first_turn"] = bool(flags(state).get("first_turn"))
        return out

    def illegal_examples(self, state: GameState) -> list[Move]:
        examples = super().illegal_examples(state)
        p = state.active
        examples.append(Move("untrick", p))
        on_table = [u for z in (*fx.lanes("p1"), *fx.lanes("p2")) for u in state.cards_in(z)]
        if state.phase != "draft":
            examples.append(Move("attack", p, (), target="nobody"))
            examples.append(Move("summon", p, ("nope#1",), to=f"{p}.passive"))
            if state.phase != "main" and state.cards_in(hand_zone(p)):
                examples.append(Move("trick", p, (UNKNOWN,)) if state.phase != "end"
                                else Move("summon", p, (UNKNOWN,)))
            for uid in on_table[:1]:
                examples.append(Move("summon", p, (uid,), to=f"{p}.active"))
        else:
            examples.append(Move("attack", p, (), target="nobody"))
            examples.append(Move("trick", p, (UNKNOWN,)))
        return examples


MOVES: MoveTable[TrickOrBeat] = MoveTable(
    MoveRule("deal", TrickOrBeat._check_deal, TrickOrBeat._apply_deal,
             "{player} is dealt {value:card|cards}",
             "{player} bekommt {value:Karte|Karten}",
             phases=("draft",), off_phase=TrickOrBeat._check_after_draft),
    MoveRule("redraw", TrickOrBeat._check_redraw, TrickOrBeat._apply_redraw,
             "{player} redraws ({value})",
             "{player} zieht neu ({value})",
             phases=("draft",), off_phase=TrickOrBeat._check_after_draft),
    MoveRule("discard", TrickOrBeat._check_discard, TrickOrBeat._apply_discard,
             "{player} discards {cards}",
             "{player} legt {cards} ab",
             phases=("draft",), off_phase=TrickOrBeat._check_after_draft),
    MoveRule("place-down", TrickOrBeat._check_place_down, TrickOrBeat._apply_place_down,
             "{player} places a card face down on {to}",
             "{player} legt verdeckt auf {to}",
             phases=("draft",), off_phase=TrickOrBeat._check_after_draft),
    MoveRule("reveal", TrickOrBeat._check_reveal, TrickOrBeat._apply_reveal,
             "{player} reveals {cards}",
             "{player} deckt {cards} auf",
             phases=("draft",), off_phase=TrickOrBeat._check_after_draft),
    MoveRule("draw", TrickOrBeat._check_draw, TrickOrBeat._apply_draw,
             "{player} draws a card",
             "{player} zieht eine Karte"),
    MoveRule("shift", TrickOrBeat._check_shift, TrickOrBeat._apply_shift,
             "{player} moves {cards} to {to}",
             "{player} verschiebt {cards} nach {to}",
             phases=TURN_PHASES),
    MoveRule("summon", TrickOrBeat._check_summon, TrickOrBeat._apply_summon,
             "{player} summons {cards}",
             "{player} beschwört {cards}",
             phases=TURN_PHASES),
    MoveRule("attack", TrickOrBeat._check_attack, TrickOrBeat._apply_attack,
             "{player} attacks {target} with {cards}",
             "{player} greift {target} mit {cards} an",
             phases=TURN_PHASES),
    MoveRule("tactic", TrickOrBeat._check_tactic, TrickOrBeat._apply_tactic,
             "{player} plays {cards}",
             "{player} spielt {cards}",
             phases=TURN_PHASES),
    MoveRule("supply-draw", TrickOrBeat._check_supply_draw, TrickOrBeat._apply_supply_draw,
             "{player} draws {cards} face up",
             "{player} zieht {cards} offen",
             phases=TURN_PHASES),
    MoveRule("equip", TrickOrBeat._check_equip, TrickOrBeat._apply_equip,
             "{player} equips {target} with {cards}",
             "{player} rüstet {target} mit {cards} aus",
             phases=TURN_PHASES),
    MoveRule("activate", TrickOrBeat._check_activate, TrickOrBeat._apply_activate,
             "{player} activates {cards} ({value})",
             "{player} aktiviert {cards} ({value})",
             phases=TURN_PHASES),
    MoveRule("trick", TrickOrBeat._check_trick, TrickOrBeat._apply_trick,
             "{player} puts a card on the trick pile",
             "{player} legt auf den Trickstapel",
             phases=TURN_PHASES),
    MoveRule("remove", TrickOrBeat._check_remove, TrickOrBeat._apply_remove,
             "{cards} moved to {to}",
             "{cards} kam nach {to}"),
    MoveRule("untrick", TrickOrBeat._check_untrick, TrickOrBeat._apply_untrick,
             "{player} takes a card from the trick pile",
             "{player} nimmt vom Trickstapel"),
    checks=CHECKS,
)
"""Trick or Beat's own move kinds (draft, turn, seen on the table)."""
TrickOrBeat.moves = MOVES
