"""Fire Emblem Cipher, as its rulebook says (rules/fire-emblem-cipher.de.txt).

Preparation (official Cipher start; the rulebook here covers only the turn): each player lays a
cost-1 unit from the deck face down on the front row as lord, draws six (one redraw allowed),
lays five deck cards face down as orbs; the lords are revealed together and the first turn
begins. Turns have five phases: start (draw, except the first player's first turn; untap;
used bonds back), bond (one card from hand, face up or down), deploy (units, level-ups and
class changes paid from the bonds, with symbols), action (attack, move), end.

Move kinds (besides next-phase / pass / concede / declare):
  preparation: choose-lord, deal, mulligan, orbs, reveal-lord
  turn:        draw, bond, deploy, level-up, class-change, use-bond, flip-bond, move, attack,
               support, critical, evade, end-combat, orb-to-hand
  seen only:   remove, discard, face-down, reveal-bond, tap, untap (each a violation)

A move seen on the table is applied even when illegal (the table is what it is). A declared
attack that is illegal is recorded but changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.api import (
    PLAYERS,
    GameConfig,
    Move,
    Score,
    SetupError,
    Violation,
    other,
)
from companion.engine.effect_words import apply_tap, apply_untap, draw_cards
from companion.engine.flow import Flow, FlowSpec, PhaseSpec, Text
from companion.engine.interpreter import SnapshotDiff
from companion.engine.moves import MoveRule, MoveTable
from companion.engine.rule_helpers import RuleChecks
from companion.engine.ruleset import Ruleset
from companion.engine.setup import (
    attach_cards,
    card_ref,
    deal_hands,
    lay_face_down,
    lay_table,
    sample_decks,
    table_cards,
    tap_cards,
)
from companion.engine.state import UNKNOWN, GameState, hand_zone
from companion.games.fire_emblem_cipher import effects as fx
from companion.games.fire_emblem_cipher import interpret as fe_interpret
from companion.games.fire_emblem_cipher.numbers import BONDS_PER_TURN, HAND_SIZE, LORD_COST, ORBS
from companion.games.fire_emblem_cipher.state import PrepInfo, flags
from companion.games.fire_emblem_cipher.table_facts import SYMBOLS_DE
from companion.games.fire_emblem_cipher.texts import violation


def _why_not_defeated(last: dict[str, Any]) -> dict[str, str]:
    """Why the last combat's defender stands: it evaded, or the attack fell short."""
    if last.get("evaded"):
        return {"why": "it evaded the attack", "why_de": "sie ist dem Angriff ausgewichen"}
    attack, defence = last.get("attack"), last.get("defence")
    return {"why": f"attack {attack} < {defence}", "why_de": f"Angriff {attack} < {defence}"}


CHECKS = RuleChecks(violation, not_in_hand="fe.not-in-hand", hand_empty="fe.hand-empty",
                    wrong_phase="fe.wrong-phase", not_your_turn="fe.not-your-turn")
DEFAULT_DECKS = {"p1": "marth-red", "p2": "chrom-blue"}

TURN_PHASES = ("start", "bond", "deploy", "action", "end")


class FireEmblemCipher(Ruleset):
    game_id = "fire-emblem-cipher"
    rulebook = "fire-emblem-cipher.de.txt"
    expect_keys = ("orbs", "bonds", "attack", "defeated", "support")

    def __init__(self) -> None:
        self.flow = Flow(
            FlowSpec(
                setup_phases=(
                    PhaseSpec(
                        "setup",
                        Text("Preparation", "Spielvorbereitung"),
                        may=(Text(f"redraw the {HAND_SIZE} starting cards once (mulligan)",
                                  f"die {HAND_SIZE} Startkarten einmal neu ziehen (Mulligan)"),),
                        must=(
                            Text(f"lay a cost-{LORD_COST} unit from your deck face down on the "
                                 "front row (lord)",
                                 f"eine Einheit mit Kosten {LORD_COST} aus dem Deck verdeckt in "
                                 "die Vorderreihe legen (Hauptcharakter)"),
                            Text(f"draw {HAND_SIZE} cards", f"{HAND_SIZE} Karten ziehen"),
                            Text(f"lay the next {ORBS} deck cards face down as orbs",
                                 f"die nächsten {ORBS} Deckkarten verdeckt als Juwelen legen"),
                            Text("reveal both lords together", "beide Hauptcharaktere aufdecken"),
                        ),
                        ends=Text("both lords are revealed: the first player's turn begins",
                                "beide Hauptcharaktere sind aufgedeckt: der erste Zug beginnt"),
                        end_check=self._setup_missing,
                        setup=True,
                        moves=("choose-lord", "deal", "mulligan", "orbs", "reveal-lord"),
                    ),
                ),
                turn_phases=(
                    PhaseSpec(
                        "start",
                        Text("Start phase", "Startphase"),
                        may=(Text("use start-of-turn skills (announce them)",
                                "Fähigkeiten zum Zugbeginn einsetzen (ansagen)"),),
                        must=(Text("draw the top card of your deck (not the first player in the "
                                 "first turn)",
                                 "die oberste Karte des Decks ziehen (nicht der erste Spieler "
                                 "im ersten Zug)"),),
                        ends=Text("you drew your card", "du hast deine Karte gezogen"),
                        automatic=(
                            Text("untap all your units and move used bonds back",
                               "alle eigenen Einheiten enttappen, verwendete Bindungen zurück"),
                            Text("forced march: an empty front row is filled from the back row",
                               "Gewaltmarsch: eine leere Vorderreihe wird aus der Hinterreihe "
                               "gefüllt"),
                        ),
                        end_check=self._draws_missing,
                        moves=("draw",),
                    ),
                    PhaseSpec(
                        "bond",
                        Text("Bond phase", "Bindungsphase"),
                        may=(Text("lay one card from your hand as a bond, face up or face down",
                                "eine Handkarte als Bindung legen, offen oder verdeckt"),),
                        ends=Text("you end the phase", "du beendest die Phase"),
                        moves=("bond",),
                    ),
                    PhaseSpec(
                        "deploy",
                        Text("Deployment phase", "Einsatzphase"),
                        may=(
                            Text("deploy units to the front or back row (cost from your bonds, "
                               "a face-up bond of each symbol)",
                               "Einheiten in Vorder- oder Hinterreihe einsetzen (Kosten aus "
                               "den Bindungen, je Symbol eine offene Bindung)"),
                            Text("level up or class change a unit with a same-name card",
                               "Levelaufstieg oder Klassenwechsel mit gleichnamiger Karte"),
                        ),
                        ends=Text("you end the phase", "du beendest die Phase"),
                        automatic=(Text("a class change draws a bonus card before any skill",
                                      "ein Klassenwechsel zieht eine Bonuskarte vor jeder "
                                      "Fähigkeit"),),
                        end_check=self._draws_missing,
                        moves=("deploy", "level-up", "class-change", "draw"),
                    ),
                    PhaseSpec(
                        "action",
                        Text("Action phase", "Aktionsphase"),
                        may=(
                            Text("attack an opposing unit in range (taps the attacker)",
                               "eine gegnerische Einheit in Reichweite angreifen (tappt)"),
                            Text("move a unit between front and back row (taps it)",
                               "eine Einheit zwischen Vorder- und Hinterreihe bewegen (tappt)"),
                            Text("in combat: both turn their deck's top card to support; "
                               "critical hit or evade by discarding a same-name card; "
                               "support skills, the attacker's first",
                               "im Kampf: beide decken die oberste Deckkarte als Unterstützung "
                               "auf; kritischer Treffer oder Ausweichen durch Abwurf einer "
                               "gleichnamigen Karte; Unterstützerfähigkeiten, Angreifer zuerst"),
                            Text("activate skills (announce them)", "Fähigkeiten aktivieren "
                               "(ansagen)"),
                        ),
                        ends=Text("you end the phase", "du beendest die Phase"),
                        automatic=(Text("ties go to the attacker; a defeated lord costs an orb",
                                      "Gleichstand gewinnt der Angreifer; ein besiegter "
                                      "Hauptcharakter kostet ein Juwel"),),
                        on_end=fx.end_combat,
                        moves=("move", "attack"),
                    ),
                    PhaseSpec(
                        "end",
                        Text("End phase", "Endphase"),
                        may=(Text("use end-of-turn skills (announce them)",
                                "Fähigkeiten zum Zugende einsetzen (ansagen)"),),
                        ends=Text("you end your turn", "du beendest deinen Zug"),
                    ),
                ),
                on_turn_begin=self._turn_begins,
            )
        )

    # ================================================================== setup
    def setup(self, config: GameConfig) -> GameState:
        state = self.new_state(config)
        for p in PLAYERS:
            state.add_zone(fx.zone(p, "deck"), hidden=True)
            state.add_zone(hand_zone(p), hidden=True)
            state.add_zone(fx.zone(p, "orbs"), hidden=True)
            for name in ("bonds", "front", "back", "support", "retreat"):
                state.add_zone(fx.zone(p, name))
        setup = config.setup
        on_table = table_cards(setup)
        for p, uids in self._decks(config).items():
            for uid in uids:
                if uid not in on_table:
                    state.register(uid, fx.zone(p, "deck"), p)
            state.shuffle(fx.zone(p, "deck"))
        flags(state).update({"lord": {}, "draws_owed": {"p1": 0, "p2": 0}, "combat": None,
                             "last_combat": None, "defeated": [], "orb_acks": {}})
        if setup:
            self._setup_midgame(state, setup)
            return state
        flags(state)["prep"] = {
            p: {"lord": False, "dealt": 0, "mulligan": False, "orbs": 0, "revealed": False}
            for p in PLAYERS
        }
        self.flow.start(state)
        return state

    @staticmethod
    def _decks(config: GameConfig) -> dict[str, list[str]]:
        """Each player's deck; without decks the two sample decks (Marth red, Chrom blue)."""
        if any(config.decks.get(p) for p in PLAYERS):
            unknown = [k for k in config.decks if k not in PLAYERS]
            if unknown:
                raise SetupError(f"Fire Emblem Cipher decks belong to p1 and p2, not {unknown}")
            return {p: [card_ref(u) for u in config.decks.get(p, ())] for p in PLAYERS}
        return sample_decks("fire-emblem-cipher", DEFAULT_DECKS)

    def _setup_midgame(self, state: GameState, setup: Mapping[str, Any]) -> None:
        """Start from a position (DESIGN.md `setup`): table, hands, lords, turn, phase."""
        lay_table(state, setup, lambda zone, uid: fx.owner_of_zone(zone),
                  lambda zone: fx.zone(fx.owner_of_zone(zone), "deck"), "Fire Emblem Cipher")
        deal_hands(state, setup, lambda p: fx.zone(p, "deck"))
        lay_face_down(state, setup)
        attach_cards(state, setup)
        self._setup_lords(state, setup, setup.get("table") or {})
        self.start_midgame(state, setup, phase="deploy", turn=2)
        if state.phase != "start":
            flags(state)["draws_owed"] = {"p1": 0, "p2": 0}
        tap_cards(state, setup)  # after the turn began (which untaps the active side)

    def _setup_lords(self, state: GameState, setup: Mapping[str, Any],
                     table: Mapping[str, Any]) -> None:
        """The lords as given (`lords`), else the first card written in each front row.

        Table scripts list zones top card first and the referee hands them over reversed,
        so the first written card is the last one here.
        """
        given = dict(setup.get("lords") or {})
        for p in PLAYERS:
            uid = given.get(p)
            if uid is None:
                front = table.get(fx.zone(p, "front"))
                if isinstance(front, list) and front:
                    uid = front[-1]
            if uid is None:
                continue
            uid = card_ref(uid)
            if uid not in state.where:
                raise SetupError(f"setup: lord {uid} of {p} is not on the table")
            flags(state)["lord"][p] = fx.unit_with(state, uid) or uid

    def _turn_begins(self, state: GameState) -> None:
        """Start phase, automatic part: untap, used bonds back, draw owed, forced march."""
        p = state.active
        state.reset_counters("turn")
        flags(state)["combat"] = None
        flags(state)["orb_acks"] = {}
        for zone_id in (*fx.field_zones(p), fx.zone(p, "bonds")):
            for uid in state.cards_in(zone_id):
                state.tapped.discard(uid)
        first_turn = state.turn == 1 and p == state.first
        owed = flags(state).setdefault("draws_owed", {"p1": 0, "p2": 0})
        owed[other(p)] = 0
        owed[p] = 0 if first_turn else 1
        for q in (other(p), p):
            fx.march(state, q)

    # ================================================================== phase checks
    def _setup_missing(self, state: GameState) -> list[Violation]:
        found: list[Violation] = []
        prep = flags(state).get("prep", {})
        for p in PLAYERS:
            info = prep.get(p)
            if not info:
                continue
            if not info["lord"]:
                found.append(violation("fe.lord-missing", player=p))
            if info["dealt"] < HAND_SIZE:
                found.append(violation("fe.deal-unfinished", player=p,
                                       count=HAND_SIZE - info["dealt"]))
            if info["orbs"] < ORBS:
                found.append(violation("fe.orbs-unfinished", player=p,
                                       count=ORBS - info["orbs"]))
        if any(info and not info["revealed"] for info in prep.values()):
            found.append(violation("fe.lords-hidden"))
        return found

    def _draws_missing(self, state: GameState) -> list[Violation]:
        p = state.active
        owed = self._owed(state, p)
        if owed > 0 and state.count(fx.zone(p, "deck")) > 0:
            return [violation("fe.must-draw", player=p, count=owed, zones=(fx.zone(p, "deck"),))]
        return []

    @staticmethod
    def _owed(state: GameState, player: str) -> int:
        return int(flags(state).get("draws_owed", {}).get(player, 0))

    # ================================================================== legal moves
    def candidate_moves(self, state: GameState) -> list[Move]:
        moves: list[Move] = []
        if state.phase == "setup":
            for p in PLAYERS:
                moves += self._setup_moves(state, p)
        else:
            moves += self._turn_moves(state, state.active)
            moves.append(Move("pass", state.active))
            moves.append(Move("next-phase", state.active))
        return moves

    def _setup_moves(self, state: GameState, p: str) -> list[Move]:
        info = flags(state)["prep"][p]
        deck = fx.zone(p, "deck")
        if not info["lord"]:
            seen: dict[str, str] = {}
            for uid in state.cards_in(deck):
                facts = state.facts(uid)
                if facts.type == "unit" and facts.number("cost", -1) == LORD_COST:
                    seen.setdefault(facts.id, uid)
            return [Move("choose-lord", p, (u,), to=fx.zone(p, "front")) for u in seen.values()]
        moves: list[Move] = []
        if info["dealt"] < HAND_SIZE:
            moves.append(Move("deal", p, value=HAND_SIZE - info["dealt"]))
        elif not info["mulligan"] and info["orbs"] == 0:
            moves.append(Move("mulligan", p))
        if info["dealt"] >= HAND_SIZE and info["orbs"] < ORBS:
            moves.append(Move("orbs", p, value=ORBS - info["orbs"]))
        lord = fx.lord_of(state, p)
        if lord is not None and lord in state.face_down:
            moves.append(Move("reveal-lord", p, (lord,)))
        return moves

    def _turn_moves(self, state: GameState, p: str) -> list[Move]:
        hand = state.cards_in(hand_zone(p))
        moves: list[Move] = []
        if self._owed(state, p):
            moves.append(Move("draw", p))
        if flags(state)["orb_acks"].get(p):
            moves.append(Move("orb-to-hand", p))
        if state.phase == "bond":
            for uid in hand:
                moves.append(Move("bond", p, (uid,), value="up"))
            if hand:
                moves.append(Move("bond", p, (hand[-1],), value="down"))
        elif state.phase == "deploy":
            units = fx.units_of(state, p)
            for uid in hand:
                if state.facts(uid).type != "unit":
                    continue
                moves += [Move("deploy", p, (uid,), to=z) for z in fx.field_zones(p)]
                for unit in units:
                    if fx.name_of(state, unit) == fx.name_of(state, uid):
                        moves.append(Move("level-up", p, (uid,), target=unit))
                        moves.append(Move("class-change", p, (uid,), target=unit))
        elif state.phase == "action":
            moves += self._action_moves(state, p)
        return moves

    def _action_moves(self, state: GameState, p: str) -> list[Move]:
        c = fx.combat(state)
        if c is not None:
            moves = [Move("support", q) for q in (c["attacking"], c["defending"])]
            for q in (c["attacking"], c["defending"]):
                kind = "critical" if q == c["attacking"] else "evade"
                name = fx.name_of(state, fx.fighter(c, q))
                moves += [Move(kind, q, (u,)) for u in state.cards_in(hand_zone(q))
                          if fx.name_of(state, u) == name]
            moves.append(Move("end-combat", p))
            return moves
        moves = []
        for unit in fx.units_of(state, p):
            if unit in state.tapped:
                continue
            here = state.where[unit]
            moves += [Move("move", p, (unit,), to=z) for z in fx.field_zones(p) if z != here]
            for target in fx.units_of(state, other(p)):
                moves.append(Move("attack", p, (unit,), target=target))
        return moves

    # ================================================================== checks
    def _setup_only(self, state: GameState, move: Move) -> list[Violation]:
        """A preparation kind after the preparation."""
        return [violation("fe.setup-only", action=move.kind)]

    def _facts_known(self, state: GameState, uid: str) -> bool:
        return uid != UNKNOWN and uid in state.where

    # ---------------------------------------------------------------- preparation
    def _prep(self, state: GameState, player: str) -> PrepInfo:
        return flags(state)["prep"][player]

    def _check_choose_lord(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found: list[Violation] = []
        if self._prep(state, p)["lord"]:
            found.append(violation("fe.lord-twice", player=p))
        if move.to != fx.zone(p, "front"):
            found.append(violation("fe.lord-zone", zones=(str(move.to),)))
        uid = move.card
        if uid != UNKNOWN:
            if uid not in state.where or not state.can_resolve(uid, fx.zone(p, "deck")):
                found.append(violation("fe.unexplained", cards=(uid,), zones=(str(move.to),)))
            else:
                found += self._lord_card(state, uid)
        elif not state.cards_in(fx.zone(p, "deck")):
            found.append(violation("fe.deck-empty", player=p))
        return found

    def _lord_card(self, state: GameState, uid: str) -> list[Violation]:
        facts = state.facts(uid)
        if facts.type != "unit":
            return [violation("fe.not-unit", cards=(uid,))]
        if facts.number("cost", -1) != LORD_COST:
            return [violation("fe.lord-cost", cards=(uid,), cost=facts.get("cost"))]
        return []

    def _check_deal(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        info = self._prep(state, p)
        count = move.value if isinstance(move.value, int) else 1
        if not info["lord"]:
            return [violation("fe.setup-order", action="deal", missing="choose the lord first")]
        if count > HAND_SIZE - info["dealt"]:
            return [violation("fe.deal-too-many", player=p, count=count,
                              limit=HAND_SIZE - info["dealt"])]
        if count > state.count(fx.zone(p, "deck")):
            return [violation("fe.deck-empty", player=p)]
        return []

    def _check_mulligan(self, state: GameState, move: Move) -> list[Violation]:
        info = self._prep(state, move.player)
        if info["mulligan"]:
            return [violation("fe.mulligan-once", player=move.player)]
        if info["dealt"] < HAND_SIZE or info["orbs"] > 0:
            return [violation("fe.mulligan-late")]
        return []

    def _check_orbs(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        info = self._prep(state, p)
        count = move.value if isinstance(move.value, int) else 1
        if info["dealt"] < HAND_SIZE:
            return [violation("fe.setup-order", action="orbs",
                              missing=f"draw the {HAND_SIZE} starting cards first")]
        if count > ORBS - info["orbs"]:
            return [violation("fe.orbs-too-many", player=p, count=count,
                              limit=ORBS - info["orbs"])]
        if count > state.count(fx.zone(p, "deck")):
            return [violation("fe.deck-empty", player=p)]
        return []

    def _check_reveal_lord(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        lord = fx.lord_of(state, p)
        if lord is None or lord not in state.face_down:
            return [violation("fe.not-face-down", cards=move.cards, player=p)]
        found: list[Violation] = []
        prep = flags(state)["prep"]
        if any(prep[q]["dealt"] < HAND_SIZE or prep[q]["orbs"] < ORBS for q in PLAYERS):
            found.append(violation("fe.setup-order", action="reveal-lord",
                                   missing=f"both players draw {HAND_SIZE} cards and lay "
                                           f"{ORBS} orbs"))
        uid = move.card
        if uid != UNKNOWN:
            back = move.option("back")
            ok = uid == lord or (uid in state.where and not state.known(uid)) or (
                back is not None and state.backs.get(back) == uid)
            if not ok:
                found.append(violation("fe.not-face-down", cards=(uid,), player=p))
            elif uid in state.where:
                found += self._lord_card(state, uid)
        return found

    # ---------------------------------------------------------------- start, bond
    def _check_draw(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        if state.count(fx.zone(p, "deck")) == 0:
            return [violation("fe.deck-empty", player=p, zones=(fx.zone(p, "deck"),))]
        if self._owed(state, p) > 0:
            return []
        if state.turn == 1 and p == state.first and state.phase == "start":
            return [violation("fe.first-turn-draw", zones=(fx.zone(p, "deck"),))]
        return [violation("fe.extra-draw", player=p, zones=(fx.zone(p, "deck"),))]

    def _check_bond(self, state: GameState, move: Move) -> list[Violation]:
        found = CHECKS.own_turn(state, move) + CHECKS.in_phase(state, move, "bond")
        found += CHECKS.from_hand(state, move.player, move.cards)
        if state.counter("turn", "bonds") >= BONDS_PER_TURN:
            found.append(violation("fe.bond-once", zones=(fx.zone(move.player, "bonds"),)))
        return found

    # ---------------------------------------------------------------- deploy
    def _pay(self, state: GameState, p: str, uid: str, cost: int) -> list[Violation]:
        """Deployment conditions: the cost fits the bonds left this turn; every symbol of the
        card has a face-up bond (face-down bonds count for the cost only)."""
        found: list[Violation] = []
        left = fx.bonds_left(state, p)
        if cost > left:
            found.append(violation("fe.bonds-exceeded", cards=(uid,), cost=cost,
                                   left=max(0, left), bonds=fx.bond_count(state, p),
                                   zones=(fx.zone(p, "bonds"),)))
        for symbol in fx.missing_symbols(state, p, uid):
            found.append(violation("fe.symbol-missing", cards=(uid,), symbol=symbol,
                                   symbol_de=SYMBOLS_DE.get(symbol, symbol),
                                   zones=(fx.zone(p, "bonds"),)))
        return found

    def _deploy_common(self, state: GameState, move: Move) -> tuple[list[Violation], str | None]:
        found = CHECKS.own_turn(state, move) + CHECKS.in_phase(state, move, "deploy")
        found += CHECKS.from_hand(state, move.player, move.cards)
        uid = move.card
        if not self._facts_known(state, uid):
            return found, None
        if state.facts(uid).type != "unit":
            return [*found, violation("fe.not-unit", cards=(uid,))], None
        return found, uid

    def _check_deploy(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found, uid = self._deploy_common(state, move)
        if str(move.to) not in fx.field_zones(p):
            found.append(violation("fe.bad-zone", zones=(str(move.to),), player=p))
        if uid is None:
            return found
        name = fx.name_of(state, uid)
        if fx.unit_named(state, p, name) is not None:
            found.append(violation("fe.same-name", cards=(uid,), player=p, name=name))
        return found + self._pay(state, p, uid, state.facts(uid).number("cost"))

    def _check_level_up(self, state: GameState, move: Move) -> list[Violation]:
        return self._check_onto(state, move, class_change=False)

    def _check_class_change(self, state: GameState, move: Move) -> list[Violation]:
        return self._check_onto(state, move, class_change=True)

    def _check_onto(self, state: GameState, move: Move, class_change: bool) -> list[Violation]:
        p = move.player
        found, uid = self._deploy_common(state, move)
        target = move.target or ""
        if target not in fx.units_of(state, p):
            found.append(violation("fe.levelup-target", target=target, player=p))
            return found
        if uid is None:
            return found
        facts = state.facts(uid)
        if facts.name != fx.name_of(state, target):
            found.append(violation("fe.levelup-name", cards=(uid,), name=facts.name,
                                   target=target, target_name=fx.name_of(state, target)))
        if class_change:
            if facts.get("cc_cost") is None:
                return [*found, violation("fe.no-class-change", cards=(uid,))]
            return found + self._pay(state, p, uid, facts.number("cc_cost"))
        return found + self._pay(state, p, uid, facts.number("cost"))

    def _check_use_bond(self, state: GameState, move: Move) -> list[Violation]:
        found = CHECKS.own_turn(state, move) + CHECKS.in_phase(state, move, "deploy", "action")
        uid = move.card
        if uid not in fx.bonds(state, move.player):
            found.append(violation("fe.unexplained", cards=(uid,), zones=(str(move.to),)))
        return found

    def _check_flip_bond(self, state: GameState, move: Move) -> list[Violation]:
        found = self._check_use_bond(state, move)
        uid = move.card
        if uid in state.face_down:
            found.append(violation("fe.flip-bond", cards=(uid,)))
        return found

    # ---------------------------------------------------------------- action
    def _own_ready_unit(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        if uid not in fx.units_of(state, move.player):
            return [violation("fe.not-own-unit", cards=(uid,), player=move.player)]
        if uid in state.tapped:
            return [violation("fe.unit-tapped", cards=(uid,))]
        return []

    def _check_move(self, state: GameState, move: Move) -> list[Violation]:
        found = CHECKS.own_turn(state, move) + CHECKS.in_phase(state, move, "action")
        found += self._own_ready_unit(state, move)
        uid = move.card
        to = str(move.to)
        if to not in fx.field_zones(move.player):
            found.append(violation("fe.bad-zone", zones=(to,), player=move.player))
        elif state.where.get(uid) == to:
            found.append(violation("fe.same-row", cards=(uid,), zones=(to,)))
        if move.option("upright"):  # the camera saw the moved unit untapped
            found.append(violation("fe.move-untapped", cards=(uid,), zones=(to,)))
        return found

    def _check_attack(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found = CHECKS.own_turn(state, move) + CHECKS.in_phase(state, move, "action")
        if state.turn == 1 and p == state.first:
            found.append(violation("fe.first-turn-attack"))
        if len(move.cards) != 1:
            return [*found, violation("fe.no-attackers")]
        found += self._own_ready_unit(state, move)
        attacker = move.cards[0]
        target = move.target or ""
        if target not in fx.units_of(state, other(p)):
            found.append(violation("fe.bad-target", cards=(target,)))
        if attacker not in fx.units_of(state, p):
            return found
        reach = fx.range_of(state, attacker)
        if not reach:
            found.append(violation("fe.no-range", cards=(attacker,)))
        elif target in fx.units_of(state, other(p)) and not fx.in_range(state, attacker, target):
            found.append(violation(
                "fe.out-of-range", cards=(attacker, target), card=attacker, target=target,
                range="/".join(str(r) for r in reach),
                distance=fx.distance(state.where[attacker], state.where[target])))
        return found

    def _combat_for(self, state: GameState, move: Move) -> tuple[list[Violation],
                                                                 dict[str, Any] | None]:
        c = fx.combat(state)
        if c is None:
            return [violation("fe.no-combat")], None
        if move.player not in (c["attacking"], c["defending"]):
            return [violation("fe.not-fighting", player=move.player)], None
        return [], c

    def _check_support(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found, c = self._combat_for(state, move)
        if c is not None and p in c["supports"]:
            found.append(violation("fe.support-twice", player=p))
        deck = fx.zone(p, "deck")
        uid = move.card
        if state.count(deck) == 0:
            found.append(violation("fe.deck-empty", player=p, zones=(deck,)))
        elif move.option("deck") == "unchanged" or (uid != UNKNOWN and (
                uid not in state.where or not state.can_resolve(uid, deck))):
            # the camera saw the deck's top stay: the card came from elsewhere (the hand)
            found.append(violation("fe.unexplained", cards=(uid,), zones=(fx.zone(p, "support"),)))
        return found

    def _check_discard_for(self, state: GameState, move: Move, kind: str) -> list[Violation]:
        found, c = self._combat_for(state, move)
        found += CHECKS.from_hand(state, move.player, move.cards)
        if c is None:
            return found
        role = "attacking" if kind == "critical" else "defending"
        if move.player != c[role]:
            code = "fe.critical-defender" if kind == "critical" else "fe.evade-attacker"
            return [*found, violation(code)]
        if not fx.supports_done(state, c):
            found.append(violation("fe.support-missing"))
        if kind == "critical" and c["critical"]:
            found.append(violation("fe.critical-twice"))
        uid = move.card
        unit = fx.fighter(c, move.player)
        if self._facts_known(state, uid) and unit in state.where and \
                fx.name_of(state, uid) != fx.name_of(state, unit):
            found.append(violation(f"fe.{kind}-name", cards=(uid,),
                                   name=fx.name_of(state, unit)))
        return found

    def _check_critical(self, state: GameState, move: Move) -> list[Violation]:
        return self._check_discard_for(state, move, "critical")

    def _check_evade(self, state: GameState, move: Move) -> list[Violation]:
        return self._check_discard_for(state, move, "evade")

    def _check_end_combat(self, state: GameState, move: Move) -> list[Violation]:
        found, c = self._combat_for(state, move)
        if c is not None and not fx.supports_done(state, c):
            found.append(violation("fe.support-missing"))
        return found

    def _check_orb_to_hand(self, state: GameState, move: Move) -> list[Violation]:
        if flags(state)["orb_acks"].get(move.player, 0) > 0:
            return []
        return [violation("fe.orb-unexplained", player=move.player,
                          zones=(fx.zone(move.player, "orbs"),))]

    # ---------------------------------------------------------------- seen, no rule
    def _check_seen(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        to = str(move.to or "")
        if move.kind == "untap":
            return [violation("fe.untap", cards=(uid,))]
        if move.kind == "tap":
            return [violation("fe.tap", cards=(uid,))]
        if move.kind == "face-down":
            return [violation("fe.face-down", cards=(uid,), zones=(to,))]
        if move.kind == "reveal-bond":
            return [violation("fe.flip-bond", cards=(uid,))]
        if move.kind == "remove" and to.endswith(".retreat") and fx.is_field(state.where.get(uid)):
            if fx.is_lord(state, uid):
                return [violation("fe.lord-to-retreat", cards=(uid,), zones=(to,))]
            last = flags(state).get("last_combat") or {}
            if last.get("target") == uid and not last.get("defeated"):
                return [violation("fe.not-defeated", cards=(uid,), zones=(to,),
                                  **_why_not_defeated(last))]
        return [violation("fe.unexplained", cards=(uid,), zones=(to,))]

    # ================================================================== apply
    @staticmethod
    def _take(state: GameState, player: str, uid: str, source: str) -> str | None:
        """The card leaving `source` (a hand or deck): `uid` (resolved) or an unseen one."""
        return state.take(uid, source)

    def _from_hand_card(self, state: GameState, move: Move) -> str | None:
        return self._take(state, move.player, move.card, hand_zone(move.player))

    # ---------------------------------------------------------------- preparation
    def _apply_choose_lord(self, state: GameState, move: Move) -> None:
        p = move.player
        card = self._take(state, p, move.card, fx.zone(p, "deck"))
        if card is None:
            return
        to = str(move.to or fx.zone(p, "front"))
        face_up = move.card != UNKNOWN and move.option("back") is None and \
            move.value == "up"
        state.move(card, to, face_down=not face_up)
        if not face_up:
            state.public.discard(card)
        back = move.option("back")
        if back:
            state.backs[back] = card
        flags(state)["lord"][p] = card
        self._prep(state, p)["lord"] = True
        self._prep(state, p)["revealed"] = face_up

    def _apply_deal(self, state: GameState, move: Move) -> None:
        count = move.value if isinstance(move.value, int) else 1
        p = move.player
        drawn = draw_cards(state, fx.zone(p, "deck"), hand_zone(p), count)
        self._prep(state, p)["dealt"] += len(drawn)

    def _apply_mulligan(self, state: GameState, move: Move) -> None:
        p = move.player
        deck = fx.zone(p, "deck")
        for uid in list(state.cards_in(hand_zone(p))):
            state.move(uid, deck)
        state.shuffle(deck)
        draw_cards(state, deck, hand_zone(p), HAND_SIZE)
        self._prep(state, p)["mulligan"] = True

    def _apply_orbs(self, state: GameState, move: Move) -> None:
        count = move.value if isinstance(move.value, int) else 1
        p = move.player
        drawn = draw_cards(state, fx.zone(p, "deck"), fx.zone(p, "orbs"), count)
        self._prep(state, p)["orbs"] += len(drawn)

    def _apply_reveal_lord(self, state: GameState, move: Move) -> None:
        p = move.player
        lord = fx.lord_of(state, p)
        uid = move.card
        if lord is None:
            return
        if uid != UNKNOWN and uid != lord and uid in state.where:
            back = move.option("back")
            if back and back in state.backs:
                state.resolve_back(back, uid)
            elif not state.known(uid):
                state.resolve(uid, state.where[lord])
            if state.where.get(uid) == state.where.get(lord) or lord not in state.face_down:
                lord = uid
        state.face_down.discard(lord)
        state.public.add(lord)
        for back, card in list(state.backs.items()):
            if card == lord:
                del state.backs[back]
        flags(state)["lord"][p] = lord
        self._prep(state, p)["revealed"] = True

    # ---------------------------------------------------------------- turn
    def _apply_draw(self, state: GameState, move: Move) -> None:
        p = move.player
        if state.draw(fx.zone(p, "deck"), hand_zone(p)) is not None:
            owed = flags(state)["draws_owed"]
            owed[p] = max(0, owed.get(p, 0) - 1)

    def _apply_bond(self, state: GameState, move: Move) -> None:
        p = move.player
        card = self._from_hand_card(state, move)
        if card is None:
            return
        down = move.value == "down" or move.card == UNKNOWN
        state.move(card, fx.zone(p, "bonds"), face_down=down)
        if down:
            state.public.discard(card)
        back = move.option("back")
        if back:
            state.backs[back] = card
        state.bump("turn", "bonds")

    def _apply_deploy(self, state: GameState, move: Move) -> None:
        p = move.player
        card = self._from_hand_card(state, move)
        if card is None:
            return
        to = str(move.to) if move.to in fx.field_zones(p) else fx.zone(p, "front")
        state.move(card, to)
        state.bump("turn", "spent", state.facts(card).number("cost"))

    def _apply_level_up(self, state: GameState, move: Move) -> None:
        self._apply_onto(state, move, "cost")

    def _apply_class_change(self, state: GameState, move: Move) -> None:
        if self._apply_onto(state, move, "cc_cost"):
            owed = flags(state)["draws_owed"]
            owed[move.player] = owed.get(move.player, 0) + 1

    def _apply_onto(self, state: GameState, move: Move, cost_field: str) -> bool:
        """Lay a card from hand on a unit: the new top keeps the unit's tapped state."""
        p = move.player
        target = move.target
        card = self._from_hand_card(state, move)
        if card is None or target is None or not fx.is_field(state.where.get(target)):
            if card is not None and target is None:
                state.move(card, fx.zone(p, "front"))
            return False
        target = fx.unit_with(state, target) or target
        state.move(card, state.where[target])
        state.attached[card] = target
        if target in state.tapped:
            state.tapped.discard(target)
            state.tapped.add(card)
        for q, lord in flags(state)["lord"].items():
            if lord == target:
                flags(state)["lord"][q] = card
        state.bump("turn", "spent", state.facts(card).number(cost_field))
        return True

    def _apply_use_bond(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid in state.where:
            state.tapped.add(uid)

    def _apply_flip_bond(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid in state.where:
            state.face_down.add(uid)
            back = move.option("back")
            if back:
                state.backs[back] = uid

    def _apply_move(self, state: GameState, move: Move) -> None:
        uid = move.card
        to = str(move.to)
        if uid not in state.where or not fx.is_field(to):
            return
        top = fx.unit_with(state, uid) or uid
        fx.move_unit(state, top, to)
        state.tapped.add(top)

    def _apply_attack(self, state: GameState, move: Move) -> None:
        """A declared attack; an illegal one is recorded but changes nothing."""
        if any(v.blocking for v in self._check_attack(state, move)):
            return
        if fx.combat(state) is not None:
            fx.end_combat(state)  # a new attack closes the combat before it
        attacker = move.cards[0]
        state.tapped.add(attacker)
        fx.start_combat(state, move.player, attacker, str(move.target))

    def _apply_support(self, state: GameState, move: Move) -> None:
        p = move.player
        source = hand_zone(p) if move.option("deck") == "unchanged" else fx.zone(p, "deck")
        card = self._take(state, p, move.card, source)
        if card is None:
            return
        state.move(card, fx.zone(p, "support"))
        state.public.add(card)
        c = fx.combat(state)
        if c is not None and p in (c["attacking"], c["defending"]) and p not in c["supports"]:
            fx.add_support(state, c, p, card)

    def _apply_critical(self, state: GameState, move: Move) -> None:
        self._discard(state, move)
        c = fx.combat(state)
        if c is not None and move.player == c["attacking"]:
            c["critical"] = True

    def _apply_evade(self, state: GameState, move: Move) -> None:
        self._discard(state, move)
        c = fx.combat(state)
        if c is not None and move.player == c["defending"]:
            c["evaded"] = True
            fx.end_combat(state)

    def _discard(self, state: GameState, move: Move) -> None:
        card = self._from_hand_card(state, move)
        if card is not None:
            state.move(card, fx.zone(move.player, "retreat"))

    def _apply_end_combat(self, state: GameState, move: Move) -> None:
        c = fx.combat(state)
        if c is None:
            return
        for p in (c["attacking"], c["defending"]):
            if p not in c["supports"]:
                c["supports"][p] = None
        fx.end_combat(state)

    def _apply_orb_to_hand(self, state: GameState, move: Move) -> None:
        p = move.player
        acks = flags(state)["orb_acks"]
        if acks.get(p, 0) > 0:
            acks[p] -= 1  # the engine moved the orb when the lord was defeated
            return
        orb = state.top(fx.zone(p, "orbs"))
        if orb is not None:
            state.move(orb, hand_zone(p))

    # ---------------------------------------------------------------- seen, no rule
    def _apply_remove(self, state: GameState, move: Move) -> None:
        uid = move.card
        to = str(move.to or fx.zone(move.player, "retreat"))
        if uid not in state.where:
            return
        top = fx.unit_with(state, uid)
        if top is not None and top == uid:
            fx.move_unit(state, uid, to)
        else:
            for item, holder in list(state.attached.items()):
                if uid in (item, holder):
                    del state.attached[item]
            state.move(uid, to)
            state.tapped.discard(uid)

    def _apply_discard(self, state: GameState, move: Move) -> None:
        self._discard(state, move)

    def _apply_face_down(self, state: GameState, move: Move) -> None:
        card = self._from_hand_card(state, move)
        if card is None:
            return
        state.move(card, str(move.to), face_down=True)
        state.public.discard(card)
        back = move.option("back")
        if back:
            state.backs[back] = card

    def _apply_reveal_bond(self, state: GameState, move: Move) -> None:
        uid = move.card
        back = move.option("back")
        if back and back in state.backs:
            state.resolve_back(back, uid)
            state.backs.pop(back, None)
        elif uid in state.where and not state.known(uid):
            down = [u for u in fx.bonds(state, move.player) if u in state.face_down]
            if down and down[-1] != uid:
                state.resolve(uid, fx.zone(move.player, "bonds"))
        if uid in state.where:
            state.face_down.discard(uid)
            state.public.add(uid)

    # ================================================================== after every move
    def after_move(self, state: GameState) -> None:
        if state.phase == "setup":
            if not self._setup_missing(state):
                self.flow.advance(state)
            return
        fx.march_defender(state)

    # ================================================================== interpreter
    def pile_zones(self) -> list[str]:
        return list(fe_interpret.PILES)

    def explain(
        self, state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
    ) -> list[list[Move]]:
        return fe_interpret.explain(self, state, diff, hints)

    # ================================================================== reading
    def scores(self, state: GameState) -> dict[str, Score]:
        result = {}
        for p in PLAYERS:
            result[p] = Score(
                player=p,
                value=state.count(fx.zone(p, "orbs")),
                label_en="orbs",
                label_de="Juwelen",
                details=(
                    ("bonds", fx.bond_count(state, p)),
                    ("units", len(fx.units_of(state, p))),
                    ("hand", state.count(hand_zone(p))),
                    ("deck", state.count(fx.zone(p, "deck"))),
                ),
            )
        return result

    def expect_value(self, state: GameState, key: str) -> Any:
        if key == "orbs":
            return {p: state.count(fx.zone(p, "orbs")) for p in PLAYERS}
        if key == "bonds":
            return {p: fx.bond_count(state, p) for p in PLAYERS}
        if key == "defeated":
            return list(flags(state).get("defeated", []))
        c = fx.combat(state) or flags(state).get("last_combat")
        if key == "attack":
            return fx.powers(state, c)[0] if c else 0
        if key == "support":
            return dict(c["support_power"]) if c else {p: 0 for p in PLAYERS}
        return super().expect_value(state, key)

    def view_extra(self, state: GameState, observer: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in PLAYERS:
            out[p] = {
                "lord": fx.lord_of(state, p) if fx.lord_of(state, p) in state.public else None,
                "bonds": fx.bond_count(state, p),
                "bonds_left": fx.bonds_left(state, p),
                "symbols": sorted(fx.bond_symbols(state, p)),
                "draws_owed": self._owed(state, p),
            }
        c = fx.combat(state)
        if c is not None:
            attack, defence = fx.powers(state, c)
            out["combat"] = {"attacker": c["attacker"], "target": c["target"],
                             "attack": attack, "defence": defence,
                             "critical": c["critical"]}
        out["first_turn"] = state.turn == 1
        return out

    def illegal_examples(self, state: GameState) -> list[Move]:
        examples = super().illegal_examples(state)
        p = state.active
        if not flags(state)["orb_acks"].get(p):
            examples.append(Move("orb-to-hand", p))
        if state.phase == "setup":
            examples.append(Move("attack", p, (), target="nobody"))
            examples.append(Move("bond", p, (UNKNOWN,), value="down"))
            return examples
        examples.append(Move("deal", p, value=HAND_SIZE))
        examples.append(Move("deploy", p, ("nope#1",), to=fx.zone(p, "front")))
        examples.append(Move("attack", p, (), target="nobody"))
        if fx.combat(state) is None:
            examples.append(Move("end-combat", p))
        if state.phase != "bond" and state.cards_in(hand_zone(p)):
            examples.append(Move("bond", p, (UNKNOWN,), value="down"))
        for unit in fx.units_of(state, p)[:1]:
            examples.append(Move("deploy", p, (unit,), to=fx.zone(p, "back")))
        return examples


MOVES: MoveTable[FireEmblemCipher] = MoveTable(
    MoveRule("choose-lord", FireEmblemCipher._check_choose_lord,
             FireEmblemCipher._apply_choose_lord,
             "{player} lays a lord face down on {to}",
             "{player} legt einen Hauptcharakter verdeckt auf {to}",
             phases=("setup",), off_phase=FireEmblemCipher._setup_only),
    MoveRule("deal", FireEmblemCipher._check_deal, FireEmblemCipher._apply_deal,
             "{player} draws {value:starting card|starting cards}",
             "{player} zieht {value:Startkarte|Startkarten}",
             phases=("setup",), off_phase=FireEmblemCipher._setup_only),
    MoveRule("mulligan", FireEmblemCipher._check_mulligan, FireEmblemCipher._apply_mulligan,
             "{player} redraws the starting hand",
             "{player} zieht die Starthand neu",
             phases=("setup",), off_phase=FireEmblemCipher._setup_only),
    MoveRule("orbs", FireEmblemCipher._check_orbs, FireEmblemCipher._apply_orbs,
             "{player} lays {value:orb|orbs}",
             "{player} legt {value:Juwel|Juwelen}",
             phases=("setup",), off_phase=FireEmblemCipher._setup_only),
    MoveRule("reveal-lord", FireEmblemCipher._check_reveal_lord,
             FireEmblemCipher._apply_reveal_lord,
             "{player} reveals the lord {cards}",
             "{player} deckt Hauptcharakter {cards} auf",
             phases=("setup",), off_phase=FireEmblemCipher._setup_only),
    MoveRule("draw", FireEmblemCipher._check_draw, FireEmblemCipher._apply_draw,
             "{player} draws a card",
             "{player} zieht eine Karte",
             phases=TURN_PHASES),
    MoveRule("bond", FireEmblemCipher._check_bond, FireEmblemCipher._apply_bond,
             "{player} lays {cards} as a bond ({value})",
             "{player} legt {cards} als Bindung ({value})",
             phases=TURN_PHASES),
    MoveRule("deploy", FireEmblemCipher._check_deploy, FireEmblemCipher._apply_deploy,
             "{player} deploys {cards} to {to}",
             "{player} setzt {cards} in {to} ein",
             phases=TURN_PHASES),
    MoveRule("level-up", FireEmblemCipher._check_level_up, FireEmblemCipher._apply_level_up,
             "{player} levels {target} up with {cards}",
             "{player} führt Levelaufstieg {cards} auf {target} durch",
             phases=TURN_PHASES),
    MoveRule("class-change", FireEmblemCipher._check_class_change,
             FireEmblemCipher._apply_class_change,
             "{player} class-changes {target} into {cards}",
             "{player} führt Klassenwechsel {cards} auf {target} durch",
             phases=TURN_PHASES),
    MoveRule("use-bond", FireEmblemCipher._check_use_bond, FireEmblemCipher._apply_use_bond,
             "{player} uses the bond {cards}",
             "{player} verwendet die Bindung {cards}",
             phases=TURN_PHASES),
    MoveRule("flip-bond", FireEmblemCipher._check_flip_bond, FireEmblemCipher._apply_flip_bond,
             "{player} turns the bond {cards} face down",
             "{player} dreht die Bindung {cards} um",
             phases=TURN_PHASES),
    MoveRule("move", FireEmblemCipher._check_move, FireEmblemCipher._apply_move,
             "{player} moves {cards} to {to}",
             "{player} bewegt {cards} nach {to}",
             phases=TURN_PHASES),
    MoveRule("attack", FireEmblemCipher._check_attack, FireEmblemCipher._apply_attack,
             "{player} attacks {target} with {cards}",
             "{player} greift {target} mit {cards} an",
             phases=TURN_PHASES),
    MoveRule("support", FireEmblemCipher._check_support, FireEmblemCipher._apply_support,
             "{player} supports with {cards}",
             "{player} unterstützt mit {cards}",
             phases=TURN_PHASES),
    MoveRule("critical", FireEmblemCipher._check_critical, FireEmblemCipher._apply_critical,
             "{player} lands a critical hit, discarding {cards}",
             "{player} landet einen kritischen Treffer und wirft {cards} ab",
             phases=TURN_PHASES),
    MoveRule("evade", FireEmblemCipher._check_evade, FireEmblemCipher._apply_evade,
             "{player} evades, discarding {cards}",
             "{player} weicht aus und wirft {cards} ab",
             phases=TURN_PHASES),
    MoveRule("end-combat", FireEmblemCipher._check_end_combat, FireEmblemCipher._apply_end_combat,
             "the combat is evaluated",
             "der Kampf wird ausgewertet",
             phases=TURN_PHASES),
    MoveRule("orb-to-hand", FireEmblemCipher._check_orb_to_hand,
             FireEmblemCipher._apply_orb_to_hand,
             "{player} takes an orb into the hand",
             "{player} nimmt ein Juwel auf die Hand",
             phases=TURN_PHASES),
    MoveRule("remove", FireEmblemCipher._check_seen, FireEmblemCipher._apply_remove,
             "{cards} moved to {to}",
             "{cards} kam nach {to}"),
    MoveRule("discard", FireEmblemCipher._check_seen, FireEmblemCipher._apply_discard,
             "{player} puts {cards} into the retreat",
             "{player} legt {cards} in den Rückzug"),
    MoveRule("face-down", FireEmblemCipher._check_seen, FireEmblemCipher._apply_face_down,
             "{player} lays a card face down on {to}",
             "{player} legt eine Karte verdeckt auf {to}"),
    MoveRule("reveal-bond", FireEmblemCipher._check_seen, FireEmblemCipher._apply_reveal_bond,
             "{player} turns the bond {cards} face up",
             "{player} deckt die Bindung {cards} auf"),
    MoveRule("tap", FireEmblemCipher._check_seen, apply_tap,
             "{player} taps {cards}",
             "{player} tappt {cards}"),
    MoveRule("untap", FireEmblemCipher._check_seen, apply_untap,
             "{player} untaps {cards}",
             "{player} enttappt {cards}"),
    checks=CHECKS,
)
"""Fire Emblem's own move kinds: the preparation's, the turn's, those only seen on the table."""
FireEmblemCipher.moves = MOVES
