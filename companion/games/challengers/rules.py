"""Challengers!, one match at one table, as its rulebook says (rules/challengers.de.txt).

A match: the starter (higher round trophy, else lots: the config's `first`) reveals the top
card of the deck and lays the flag on it; then the other player attacks, revealing cards one
by one until their summed strength (with effects) reaches the defending card's; the beaten
cards go to the defender's bench (six seats, one name per seat); the attacker's revealed cards
are pushed together with the last one on top, which takes the flag; then the other player
attacks. Whoever must reveal a card from an empty deck, or must bench cards without a seat for
them, loses the match; the winner takes the round's trophy. Effects: immediate (fans, bench
cards to the rest pile, strength), Im Angriff, Von der Bank, Im Fahnenbesitz, Fahnenverlust
(resolved before the takeover). Rounds, deck phases, fans and the final are the
`Tournament`'s (companion.games.challengers.tournament).

Turn = one attack. Phases: `open` (setup: the starter's first card), `attack` (the active
player reveals), `bench` (the defender benches the beaten cards; the takeover and the next
attack follow by themselves).

Move kinds (besides next-phase / pass / concede / declare):
  reveal (cards = the card, "?" when unseen), bench (to = seat), stack (cards = top first),
  rest (a bench card to the rest pile by an effect); seen: move (a card moved without a rule),
  remove (a card left the table), flag (the flag token seen on a card: it belongs on the
  defending card).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.api import (
    PLAYERS,
    GameConfig,
    Move,
    Outcome,
    Prompt,
    Score,
    SetupError,
    Violation,
    other,
)
from companion.engine.flow import Flow, FlowSpec, PhaseSpec, Text
from companion.engine.interpreter import SnapshotDiff
from companion.engine.moves import MoveRule, MoveTable
from companion.engine.ruleset import Ruleset
from companion.engine.setup import card_ref, table_cards
from companion.engine.state import UNKNOWN, GameState
from companion.games.challengers import effects as fx
from companion.games.challengers import interpret as ch_interpret
from companion.games.challengers.numbers import DEFAULT_COPIES, ROUNDS
from companion.games.challengers.state import flags
from companion.games.challengers.texts import violation
from companion.snapshot import card_uid

DEFAULT_RECRUITS = 8


class Challengers(Ruleset):
    game_id = "challengers"
    rulebook = "challengers.de.txt"
    report_kinds = ("flag",)
    expect_keys = ("fans", "strength", "flag", "round", "match_winner", "bench")

    def __init__(self) -> None:
        self.flow = Flow(
            FlowSpec(
                setup_phases=(
                    PhaseSpec(
                        "open",
                        Text("Match start", "Matchbeginn"),
                        must=(Text("the starter reveals the top card and lays the flag on it",
                                 "die Startperson deckt die oberste Karte auf und legt die "
                                 "Fahne darauf"),),
                        ends=Text("the first card lies with the flag",
                                "die erste Karte liegt mit der Fahne"),
                        automatic=(Text("the card's effect happens",
                                      "der Effekt der Karte wird ausgeführt"),),
                        end_check=self._open_missing,
                        setup=True,
                    ),
                ),
                turn_phases=(
                    PhaseSpec(
                        "attack",
                        Text("Attack", "Angriff"),
                        may=(Text("put bench cards on the rest pile when an effect says so",
                                "Bankkarten auf den Ruhestapel legen, wenn ein Effekt es "
                                "sagt"),),
                        must=(Text("reveal cards one by one until the attack reaches the "
                                 "defence", "Karten einzeln aufdecken, bis der Angriff die "
                                 "Verteidigung erreicht"),),
                        ends=Text("the attack reaches the defending card's strength",
                                "der Angriff erreicht die Stärke der verteidigenden Karte"),
                        automatic=(Text("revealed cards' effects happen; an empty deck loses",
                                      "Effekte aufgedeckter Karten; ein leeres Deck verliert"),),
                        end_check=self._attack_missing,
                    ),
                    PhaseSpec(
                        "bench",
                        Text("Bench", "Bank"),
                        must=(Text("the defender benches the beaten cards (one name per seat)",
                                 "der Verteidiger legt die besiegten Karten auf die Bank "
                                 "(ein Name je Sitz)"),),
                        ends=Text("the beaten cards are on the bench; the attacker's last card "
                                "takes the flag", "die besiegten Karten liegen auf der Bank; "
                                "die zuletzt aufgedeckte Karte des Angreifers bekommt die "
                                "Fahne"),
                        automatic=(Text("Fahnenverlust first; no seat for a beaten card loses",
                                      "Fahnenverlust zuerst; kein Sitz für eine besiegte Karte "
                                      "verliert"),),
                        end_check=self._bench_missing,
                    ),
                ),
                on_turn_begin=self._turn_begins,
            )
        )

    # ================================================================== setup
    def setup(self, config: GameConfig) -> GameState:
        state = self.new_state(config)
        for p in PLAYERS:
            state.add_zone(fx.deck(p), hidden=True)
            state.add_zone(fx.play(p))
            for seat in fx.seats(p):
                state.add_zone(seat)
            state.add_zone(fx.rest(p))
            state.add_zone(fx.trophies(p))
            state.add_zone(fx.off(p), hidden=True)
        flags(state).update({
            "round": 1,
            "holder": None,
            "flag_card": None,
            "attack": [],
            "top": None,
            "stacked": False,
            "fans": {p: 0 for p in PLAYERS},
            "rest": {p: 0 for p in PLAYERS},
            "bonus": {},
        })
        setup = config.setup
        on_table = table_cards(setup)
        for p, uids in self._decks(state, config).items():
            for uid in reversed(uids):  # listed top first; the engine's top is last
                if uid not in on_table:
                    state.register(uid, fx.deck(p), p)
            state.shuffle(fx.deck(p))
        if setup:
            self._setup_midgame(state, setup, config)
            return state
        self.flow.start(state)
        self._settle(state)
        return state

    def _decks(self, state: GameState, config: GameConfig) -> dict[str, list[str]]:
        decks: dict[str, list[str]] = {p: [] for p in PLAYERS}
        for key, uids in config.decks.items():
            p = key.split(".")[0]
            if p not in PLAYERS:
                raise SetupError(f"Challengers! decks belong to p1 or p2, not {key!r}")
            decks[p].extend(card_ref(u) for u in uids)
        if any(decks.values()):
            return decks
        return default_decks(state, config.seed)

    def _setup_midgame(self, state: GameState, setup: Mapping[str, Any],
                       config: GameConfig) -> None:
        """Start from a position (DESIGN.md `setup`): table, flag (`on: {flag: card}`),
        round, fans, the attacker (`active`)."""
        owners = {card_ref(u): k.split(".")[0] for k, uids in config.decks.items() for u in uids}
        owners.update(config.owners)
        for zone, cards in (setup.get("table") or {}).items():
            if zone not in state.zones or state.is_hidden(zone):
                raise SetupError(f"setup: {zone!r} is not a Challengers! table zone")
            if not isinstance(cards, list):
                raise SetupError(f"setup: {zone} needs a list of cards")
            for item in cards:
                uid = card_ref(item)
                owner = owners.get(uid, fx.owner_of_zone(zone))
                if owner not in PLAYERS:
                    owner = "p1"
                state.register(uid, zone, owner)
                state.public.add(uid)
        flags(state)["round"] = int(setup.get("round", 1))
        for p, n in dict(setup.get("fans") or {}).items():
            if p not in PLAYERS:
                raise SetupError(f"setup: fans are for p1 and p2, not {p!r}")
            flags(state)["fans"][p] = int(n)
        flag = dict(setup.get("on") or {}).get("flag")
        if flag is not None:
            flag = card_ref(flag)
            if state.where.get(flag) not in (fx.play("p1"), fx.play("p2")):
                raise SetupError(f"setup: the flag must lie on a card in a play area, not {flag}")
        else:
            shown = [p for p in PLAYERS if state.cards_in(fx.play(p))]
            if len(shown) == 1:
                flag = state.cards_in(fx.play(shown[0]))[-1]
        if flag is None:
            self.flow.start(state)
            self._settle(state)
            return
        holder = fx.owner_of_zone(state.where[flag])
        flags(state)["holder"] = holder
        flags(state)["flag_card"] = flag
        active = str(setup.get("active", other(holder)))
        if active not in PLAYERS:
            raise SetupError(f"setup: active must be p1 or p2, not {active!r}")
        if active == holder:
            raise SetupError(f"setup: {active} holds the flag and cannot be the attacker "
                             "(active)")
        phase = setup.get("phase")
        if phase is not None and not self.flow.knows(str(phase)):
            raise SetupError(f"setup: unknown phase {phase!r}; use open, attack or bench")
        state.turn = int(setup.get("turn", 1)) - 1
        self.flow.begin_turn(state, active)
        flags(state)["attack"] = list(state.cards_in(fx.play(active)))
        self._settle(state)

    def _turn_begins(self, state: GameState) -> None:
        flags(state)["attack"] = []
        flags(state)["top"] = None
        flags(state)["stacked"] = False

    # ================================================================== derived facts
    @staticmethod
    def defender(state: GameState) -> str:
        return other(state.active)

    @staticmethod
    def pending_rest(state: GameState, p: str) -> int:
        """Bench cards `p` still has to put on the rest pile (as far as the bench allows)."""
        owed = int(flags(state)["rest"].get(p, 0))
        return min(owed, state.count_in(fx.seats(p))) if owed > 0 else 0

    @staticmethod
    def attack_value(state: GameState) -> int:
        return fx.attack_total(state, state.active, list(flags(state)["attack"]))

    @staticmethod
    def defence_value(state: GameState) -> int:
        holder = flags(state)["holder"]
        if holder is None:
            return 0
        return fx.defence(state, holder, flags(state)["flag_card"])

    def strengths(self, state: GameState) -> dict[str, int]:
        holder = flags(state)["holder"]
        out = {p: 0 for p in PLAYERS}
        if holder is not None:
            out[holder] = self.defence_value(state)
        if state.phase != "open" and state.active != holder:
            out[state.active] = self.attack_value(state)
        return out

    # ================================================================== phase checks
    def _open_missing(self, state: GameState) -> list[Violation]:
        return [violation("ch.open-missing", player=state.first)]

    def _attack_missing(self, state: GameState) -> list[Violation]:
        return [violation("ch.attack-unfinished", player=state.active,
                          defence=self.defence_value(state), total=self.attack_value(state))]

    def _bench_missing(self, state: GameState) -> list[Violation]:
        return [violation("ch.bench-unfinished", player=self.defender(state),
                          zones=(fx.play(self.defender(state)),))]

    # ================================================================== legal moves
    def candidate_moves(self, state: GameState) -> list[Move]:
        moves: list[Move] = []
        for p in PLAYERS:
            if self.pending_rest(state, p):
                moves += [Move("rest", p, (state.cards_in(z)[-1],))
                          for z in fx.seats(p) if state.cards_in(z)]
        if state.phase == "open":
            moves.append(Move("reveal", state.first, (UNKNOWN,)))
        elif state.phase == "attack":
            moves.append(Move("reveal", state.active, (UNKNOWN,)))
        elif state.phase == "bench":
            d = self.defender(state)
            for uid in state.cards_in(fx.play(d)):
                name = state.facts(uid).name
                moves += [Move("bench", d, (uid,), to=z) for z in fx.seats(d)
                          if fx.seat_name(state, z) in (None, name)]
            attack = list(flags(state)["attack"])
            if len(attack) > 1 and not flags(state)["stacked"]:
                moves.append(Move("stack", state.active, (attack[-1], *attack[:-1])))
        return moves

    # ================================================================== checks
    def _check_reveal(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found: list[Violation] = []
        if state.phase == "open":
            if p != state.first:
                found.append(violation("ch.not-starter", starter=state.first, player=p))
        elif state.phase == "attack":
            if p != state.active:
                found.append(violation("ch.not-attacker", active=state.active, player=p))
            elif self.pending_rest(state, p):
                found.append(violation("ch.rest-first", player=p,
                                       count=self.pending_rest(state, p)))
        elif p == state.active:
            found.append(violation("ch.attack-complete", total=self.attack_value(state),
                                   defence=self.defence_value(state)))
        else:
            found.append(violation("ch.not-attacker", active=state.active, player=p))
        if not state.cards_in(fx.deck(p)):
            found.append(violation("ch.deck-empty", zones=(fx.deck(p),), player=p))
            return found
        uid = move.card
        if uid != UNKNOWN and not state.can_resolve(uid, fx.deck(p)):
            found.append(violation("ch.not-from-deck", cards=(uid,), zones=(fx.deck(p),),
                                   player=p))
        return found

    def _check_bench(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        to = str(move.to)
        if state.phase != "bench":
            return [violation("ch.no-bench-now", cards=(uid,), zones=(to,))]
        found: list[Violation] = []
        if p != self.defender(state) or state.where.get(uid) != fx.play(p):
            found.append(violation("ch.not-defending", cards=(uid,), player=p))
        if to not in fx.seats(p):
            found.append(violation("ch.not-a-seat", zones=(to,), player=p))
        elif uid in state.where:
            name = fx.seat_name(state, to)
            if name is not None and name != state.facts(uid).name:
                found.append(violation("ch.seat-name", cards=(uid,), zones=(to,), other=name))
        if self.pending_rest(state, p):
            found.append(violation("ch.rest-first", player=p, count=self.pending_rest(state, p)))
        return found

    def _check_stack(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        if not move.cards:
            return [violation("ch.stack-not-own", player=p)]
        top = move.cards[0]
        attack = list(flags(state)["attack"])
        if state.phase == "bench" and p == state.active:
            found = [violation("ch.stack-not-own", cards=(u,), player=p)
                     for u in move.cards if u not in attack]
            if attack and top != attack[-1]:
                found.append(violation("ch.stack-top", cards=(top,), expected=attack[-1]))
            return found
        if p == flags(state)["holder"]:
            play = state.cards_in(fx.play(p))
            found = [violation("ch.stack-not-own", cards=(u,), player=p)
                     for u in move.cards if u not in play]
            flag_card = flags(state)["flag_card"]
            if top != flag_card:
                found.append(violation("ch.stack-top", cards=(top,), expected=flag_card))
            return found
        if p == state.active and state.phase == "attack":
            return [violation("ch.stack-early", cards=move.cards)]
        return [violation("ch.stack-not-own", cards=move.cards, player=p)]

    def _check_rest(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        found: list[Violation] = []
        if not self.pending_rest(state, p):
            found.append(violation("ch.rest-none", cards=(uid,), player=p))
        if uid not in fx.bench_cards(state, p):
            found.append(violation("ch.rest-not-bench", cards=(uid,), player=p))
        return found

    def _check_move(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        zone = str(move.to)
        return [violation("ch.unexplained", cards=(uid,), zones=(zone,))]

    def _check_flag(self, state: GameState, move: Move) -> list[Violation]:
        """The flag lies on the defending card (the rules' flag card); no check while the
        rules know no flag card or after the match."""
        uid = move.card
        expected = flags(state)["flag_card"]
        if expected is None or uid == expected or state.outcome is not None:
            return []
        return [violation("ch.flag-card", cards=(uid,), zones=(state.where.get(uid, "-"),),
                          expected=expected)]

    def _check_remove(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        return [violation("ch.left-table", cards=(uid,), zones=(state.where.get(uid, "-"),))]

    # ================================================================== apply
    def _apply_reveal(self, state: GameState, move: Move) -> None:
        p = move.player
        source = fx.deck(p)
        uid = move.card
        if uid == UNKNOWN or uid not in state.where:
            uid = state.top(source) or UNKNOWN
        elif not state.resolve(uid, source) and state.where[uid] == fx.play(p):
            return  # seen there already
        if uid == UNKNOWN:
            return
        self._leave(state, uid)
        state.move(uid, fx.play(p))
        if state.phase == "open":
            flags(state)["holder"] = p
            flags(state)["flag_card"] = uid
            self._immediate(state, p, uid)
            self.flow.end_setup(state, other(p))  # the starter's opponent attacks first
            return
        if state.phase == "attack" and p == state.active:
            flags(state)["attack"].append(uid)
            self._immediate(state, p, uid)

    def _immediate(self, state: GameState, p: str, uid: str) -> None:
        """Effects without a keyword happen when the card is revealed."""
        for effect in fx.effects_of(state, uid, "reveal"):
            self._effect(state, p, uid, effect)

    @staticmethod
    def _effect(state: GameState, p: str, uid: str, effect: fx.Effect) -> None:
        if effect.do == "fans":
            flags(state)["fans"][p] += effect.amount
        elif effect.do == "rest":
            # "Effekte werden soweit wie möglich ausgeführt": owe only the bench cards there
            # are now, not yet owed; what the bench lacks is not demanded later.
            owed = int(flags(state)["rest"][p])
            free = max(0, state.count_in(fx.seats(p)) - owed)
            flags(state)["rest"][p] = owed + min(effect.amount, free)
        elif effect.do == "strength":
            bonus = flags(state)["bonus"]
            bonus[uid] = bonus.get(uid, 0) + effect.amount

    def _apply_bench(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where:
            return
        self._leave(state, uid)
        state.move(uid, str(move.to))

    def _apply_stack(self, state: GameState, move: Move) -> None:
        p = move.player
        top = move.cards[0] if move.cards else None
        if top is None or top not in state.where:
            return
        if state.phase == "bench" and p == state.active:
            flags(state)["top"] = top
            flags(state)["stacked"] = True
        elif p == flags(state)["holder"] and state.where.get(top) == fx.play(p):
            flags(state)["flag_card"] = top  # the visible card defends, whatever the rules said
        zone = state.zones.get(state.where[top], [])
        zone.remove(top)
        zone.append(top)

    def _apply_rest(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = move.card
        if uid not in state.where:
            return
        self._leave(state, uid)
        state.move(uid, fx.rest(p))
        flags(state)["rest"][p] = max(0, flags(state)["rest"][p] - 1)

    def _apply_move(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where or move.to is None:
            return
        self._leave(state, uid)
        state.move(uid, str(move.to))

    def _apply_flag(self, state: GameState, move: Move) -> None:
        """Seen only: where the flag lies changes no rule (the defending card is the rules'
        flag card, kept on top of the holder's stack)."""

    def _apply_remove(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where:
            return
        self._leave(state, uid)
        state.move(uid, fx.off(state.owner.get(uid, move.player)))

    @staticmethod
    def _leave(state: GameState, uid: str) -> None:
        """A card leaving its place loses its attack role, the flag and kept bonuses."""
        if uid in flags(state)["attack"]:
            flags(state)["attack"].remove(uid)
        if flags(state)["top"] == uid:
            flags(state)["top"] = None
        if flags(state)["flag_card"] == uid:
            flags(state)["flag_card"] = None
        flags(state)["bonus"].pop(uid, None)

    # ================================================================== automatic steps
    def after_move(self, state: GameState) -> None:
        self._settle(state)

    def _settle(self, state: GameState) -> None:
        """What follows by itself: the attack succeeding, the takeover, an empty deck."""
        for _ in range(4):
            if state.outcome is not None:
                return
            if state.phase == "open" and not state.cards_in(fx.deck(state.first)):
                self._lose(state, state.first, "deck-empty")
                return
            if state.phase == "attack":
                if flags(state)["attack"] and self.attack_value(state) >= self.defence_value(state):
                    self._attack_succeeds(state)
                    continue
                if not state.cards_in(fx.deck(state.active)):
                    self._lose(state, state.active, "deck-empty")
                return
            if state.phase == "bench":
                d = self.defender(state)
                beaten = list(state.cards_in(fx.play(d)))
                if not beaten:
                    self._takeover(state)
                    continue
                if not fx.can_bench(state, d, beaten, self.pending_rest(state, d)):
                    self._lose(state, d, "bench-full")
            return

    def _attack_succeeds(self, state: GameState) -> None:
        """Fahnenverlust first; then the defender must have seats for the beaten cards."""
        d = self.defender(state)
        flag_card = flags(state)["flag_card"]
        if flag_card is not None:
            for effect in fx.effects_of(state, flag_card, "flag-loss"):
                self._effect(state, d, flag_card, effect)
        beaten = list(state.cards_in(fx.play(d)))
        if not fx.can_bench(state, d, beaten, self.pending_rest(state, d)):
            self._lose(state, d, "bench-full")
            return
        self.flow.advance(state)

    def _takeover(self, state: GameState) -> None:
        a = state.active
        attack = list(flags(state)["attack"])
        top = flags(state)["top"] if flags(state)["top"] in attack else None
        if top is None and attack:
            top = attack[-1]
        if top is None:
            shown = state.cards_in(fx.play(a))
            top = shown[-1] if shown else None
        flags(state)["holder"] = a
        flags(state)["flag_card"] = top
        if top is not None:
            zone = state.zones[fx.play(a)]
            zone.remove(top)
            zone.append(top)
        self.flow.end_turn(state)

    def _lose(self, state: GameState, loser: str, reason: str) -> None:
        winner = other(loser)
        round_no = flags(state)["round"]
        if reason == "deck-empty":
            en = f"{loser} must reveal a card but the deck is empty: {winner} wins the match"
            de = (f"{loser} müsste eine Karte aufdecken, aber das Deck ist leer: {winner} "
                  "gewinnt das Match")
        else:
            en = f"{loser} has no bench seat for the beaten cards: {winner} wins the match"
            de = (f"{loser} hat keinen Sitz auf der Bank für die besiegten Karten: {winner} "
                  "gewinnt das Match")
        if round_no > ROUNDS:
            en += " and the final"
            de += " und das Finale"
        else:
            en += f" and the round-{round_no} trophy"
            de += f" und die Trophäe der Runde {round_no}"
        state.outcome = Outcome(winner, reason, en, de)

    # ================================================================== interpreter
    def pile_zones(self) -> list[str]:
        return ch_interpret.pile_zones()

    def explain(
        self, state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
    ) -> list[list[Move]]:
        return ch_interpret.explain(state, diff, hints)

    # ================================================================== reading
    def prompt(self, state: GameState, lang: str = "en") -> Prompt:
        """The flow's prompt plus the strengths at stake and owed rest-pile cards."""
        base = self.flow.prompt(state, lang)
        must = list(base.must)
        for p in PLAYERS:
            owed = self.pending_rest(state, p)
            if owed:
                must.insert(0, violation("ch.rest-first", player=p, count=owed).message(lang))
        status: tuple[str, ...] = ()
        if state.phase != "open":
            a, d = self.attack_value(state), self.defence_value(state)
            status = (f"Angriff {a} gegen Verteidigung {d}" if lang == "de"
                      else f"attack {a} against defence {d}",)
        return replace(base, must=tuple(must), automatic=base.automatic + status)

    def scores(self, state: GameState) -> dict[str, Score]:
        strengths = self.strengths(state)
        winner = state.outcome.winner if state.outcome else None
        result = {}
        for p in PLAYERS:
            used = sum(1 for z in fx.seats(p) if state.cards_in(z))
            result[p] = Score(
                player=p,
                value=int(flags(state)["fans"][p]),
                label_en="fans won by card effects in this match",
                label_de="Fans durch Karteneffekte in diesem Match",
                details=(
                    ("strength", strengths[p]),
                    ("deck", state.count(fx.deck(p))),
                    ("bench_seats_used", used),
                    ("flag", int(flags(state)["holder"] == p)),
                    ("trophy", int(winner == p)),
                ),
            )
        return result

    def expect_value(self, state: GameState, key: str) -> Any:
        if key == "fans":
            return dict(flags(state)["fans"])
        if key == "strength":
            return self.strengths(state)
        if key == "flag":
            return flags(state)["holder"]
        if key == "round":
            return flags(state)["round"]
        if key == "match_winner":
            outcome = state.outcome
            return (outcome.winner or "draw") if outcome else None
        if key == "bench":
            return {p: sum(1 for z in fx.seats(p) if state.cards_in(z)) for p in PLAYERS}
        return super().expect_value(state, key)

    def view_extra(self, state: GameState, observer: str) -> dict[str, Any]:
        unmodelled = sorted({
            e.text for z, cards in state.zones.items() if not state.is_hidden(z)
            for u in cards if u in state.public
            for e in fx.card_effects(state.facts(u)) if e.do == "unknown"
        })
        return {
            "round": flags(state)["round"],
            "flag": {"holder": flags(state)["holder"], "card": flags(state)["flag_card"]},
            "attack": {"player": state.active, "cards": list(flags(state)["attack"]),
                       "total": self.attack_value(state)},
            "defence": self.defence_value(state),
            "rest_pending": {p: self.pending_rest(state, p) for p in PLAYERS},
            "fans": dict(flags(state)["fans"]),
            "effects_not_modelled": unmodelled,
        }

    def illegal_examples(self, state: GameState) -> list[Move]:
        examples = super().illegal_examples(state)
        p = state.active
        examples.append(Move("bench", p, ("nope#1",), to=f"{p}.bench1"))
        examples.append(Move("rest", p, ("nope#1",)))
        examples.append(Move("stack", other(p), ("nope#1",)))
        if state.phase == "open":
            examples.append(Move("reveal", other(state.first), (UNKNOWN,)))
        else:
            examples.append(Move("reveal", other(p), (UNKNOWN,)))
        shown = [u for u in state.public if u in state.where]
        if shown:
            uid = sorted(shown)[0]
            examples.append(Move("move", p, (uid,), to=fx.trophies(p)))
        return examples


def default_decks(state: GameState, seed: int) -> dict[str, list[str]]:
    """Each player's start deck plus a few recruits drawn by the seed (a playable match)."""
    import random

    from companion.cardsets import load_deck

    rng = random.Random(f"challengers-default:{seed}")
    taken: dict[str, int] = {}

    def take(card_id: str) -> str | None:
        copies = state.catalog.card(card_id).number("copies", DEFAULT_COPIES)
        if taken.get(card_id, 0) >= copies:
            return None
        taken[card_id] = taken.get(card_id, 0) + 1
        return card_uid(card_id, taken[card_id])

    recruits = sorted(i for i in state.catalog.ids() if state.catalog.card(i).type == "recruit")
    decks: dict[str, list[str]] = {}
    for p in PLAYERS:
        cards: list[str] = []
        starter = load_deck("challengers", "starter").cards
        for card_id, count in starter.items():
            cards += [u for u in (take(card_id) for _ in range(count)) if u]
        while len(cards) < sum(starter.values()) + DEFAULT_RECRUITS:
            uid = take(rng.choice(recruits))
            if uid:
                cards.append(uid)
        rng.shuffle(cards)
        decks[p] = cards
    return decks


MOVES: MoveTable[Challengers] = MoveTable(
    MoveRule("reveal", Challengers._check_reveal, Challengers._apply_reveal,
             "{player} reveals {cards}",
             "{player} deckt {cards} auf"),
    MoveRule("bench", Challengers._check_bench, Challengers._apply_bench,
             "{player} benches {cards} on {to}",
             "{player} legt {cards} auf {to}"),
    MoveRule("stack", Challengers._check_stack, Challengers._apply_stack,
             "{player} pushes {cards} together (top first)",
             "{player} schiebt {cards} zusammen (oberste zuerst)"),
    MoveRule("rest", Challengers._check_rest, Challengers._apply_rest,
             "{player} puts {cards} on the rest pile",
             "{player} legt {cards} auf den Ruhestapel"),
    MoveRule("move", Challengers._check_move, Challengers._apply_move,
             "{cards} moved to {to}",
             "{cards} kam nach {to}"),
    MoveRule("remove", Challengers._check_remove, Challengers._apply_remove,
             "{cards} left the table",
             "{cards} hat den Tisch verlassen"),
    MoveRule("flag", Challengers._check_flag, Challengers._apply_flag,
             "the flag lies on {cards}",
             "die Fahne liegt auf {cards}"),
)
"""Challengers' own move kinds; their checks say when each may happen."""
Challengers.moves = MOVES
