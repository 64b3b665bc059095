"""My Little Pony CCG (Premiere), complete as its rulebook says (rules/my-little-pony-ccg.de.txt).

Setup (mane at home, a Starting Problem chosen, six cards drawn); turns of five phases (ready,
troublemaker, main, score, end) paid for with action tokens; play requirements, home limit,
problems with the owner's coloured and the opponent's plain requirements, first-solver bonus,
one point per confronted problem and turn, troublemaker / problem / double problem faceoffs,
replacing solved problems, face-down troublemakers and Villains, hand and home limits at the
end of the turn, the keywords of the Premiere set, empty-deck rules and the win at 15 points.

Sources for what the German rulebook leaves out (all official Enterplay rules, as summarised
on the MLP CCG wiki pages "Action Tokens", "Draw Deck", "Problem" and Comprehensive Rules
514.5): action tokens per ready phase from the highest score (0-1: 2, 2-5: 3, 6-10: 4, 11+: 5;
the first player's first turn: 1); no draw in the first turn of the game; in the main phase a
card costs its cost, moving a character and drawing a card 1 token each, a troublemaker is
played face down for 1 token, one per player and problem; opening hand 6 (a mulligan is a
shuffle of hand into deck, invisible and count-neutral, so nothing to check); a single problem
faceoff happens where the opponent also meets their requirements, a double one when the active
player confronts both problems; a tied faceoff has no winner; flipped cards go to the bottom
of the deck.

Move kinds (besides next-phase / pass / concede / declare):
  setup:  starting-problem, draw (up to six)
  turn:   draw, reveal, challenge, play, play-troublemaker, move, discard, retire, new-problem
  faceoff: flip (cards = the card seen, or value = a declared power), keep, send-home
  any time (card texts, corrections): exhaust, ready, boost, modify (power change this turn),
          identify (an unseen card turned out to be X), remove (a card left without a rule)
`declare` values "points=N", "points+N", "tokens=N", "tokens+N" correct the declaring player's
points and action tokens (the table has no counters; the page can fix them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
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
from companion.engine.cards import card_id_of
from companion.engine.effect_words import apply_tap, apply_untap, draw_cards
from companion.engine.flow import Flow, FlowSpec, PhaseSpec, Text
from companion.engine.interpreter import SnapshotDiff
from companion.engine.moves import MoveRule, MoveTable
from companion.engine.rule_helpers import (
    RuleChecks,
    move_with_attached,
    release_attached,
    take_from_hand,
)
from companion.engine.ruleset import Ruleset
from companion.engine.setup import (
    CopyNumbers,
    attach_cards,
    card_ref,
    deal_hands,
    lay_face_down,
    sample_decks,
    tap_cards,
)
from companion.engine.state import UNKNOWN, GameState, hand_zone
from companion.games.my_little_pony import effects as fx
from companion.games.my_little_pony import faceoff as fo
from companion.games.my_little_pony import interpret as mlp_interpret
from companion.games.my_little_pony import numbers
from companion.games.my_little_pony.state import SendHome, flags
from companion.games.my_little_pony.texts import deck_violation, violation

GAME = "my-little-pony-ccg"
CHECKS = RuleChecks(violation, not_in_hand="mlp.not-in-hand", wrong_phase="mlp.wrong-phase",
                    not_your_turn="mlp.not-your-turn")
"""An unseen card from an empty hand is "?" not in hand (MLP has no hand-empty text)."""
DEFAULT_DECKS = {"p1": "twilight-sparkle", "p2": "rainbow-dash"}
ANY_TIME = ("exhaust", "ready", "boost", "modify", "identify", "remove")
"""Kinds the table shows at any time (their rules declare no phases)."""
RESULT_KINDS = ("faceoff-won", "faceoff-tied")
"""Moves that say how a faceoff decided by a flip nobody saw really ended (`unseen_faceoff`):
the table shows it (the troublemaker defeated or not), a person says it (a character sent
home), or a person is asked (a problem faceoff's points are not on the table)."""
KEEP_OPEN = (*RESULT_KINDS, "send-home", *ANY_TIME)
"""Moves after which that faceoff's result may still be shown otherwise."""
BLOCKED_BY_SEND_HOME = ("next-phase", "pass", "challenge", "draw", "play", "play-troublemaker",
                        "move")
"""Moves a due send-home blocks: made while it is due only on a guessed lost faceoff, they
are a person's word (or the table's) that nobody lost."""
TURN_PHASES = ("ready", "troublemaker", "main", "score", "end")


class MyLittlePony(Ruleset):
    game_id = GAME
    rulebook = "my-little-pony-ccg.de.txt"
    expect_keys = ("action_tokens", "solved", "points", "faceoff", "frightened", "home_limit")

    def __init__(self) -> None:
        self.flow = Flow(FlowSpec(
            setup_phases=(
                PhaseSpec(
                    "setup", Text("Setup", "Spielvorbereitung"),
                    may=(Text("each player brings a Starting Problem into play and draws "
                               f"{numbers.OPENING_HAND}",
                            "jeder Spieler bringt ein Startproblem ins Spiel und zieht "
                            f"{numbers.OPENING_HAND}"),),
                    ends=Text("both problems are in play and both hands have "
                              f"{numbers.OPENING_HAND} cards",
                            f"beide Probleme liegen und beide Hände haben {numbers.OPENING_HAND} "
                            "Karten"),
                    end_check=self._setup_missing, setup=True,
                    moves=("starting-problem", "draw"),
                ),
            ),
            turn_phases=(
                PhaseSpec(
                    "ready", Text("Ready phase", "Ready Phase"),
                    must=(Text("draw a card", "eine Karte ziehen"),),
                    automatic=(Text("ready your exhausted cards; gain action tokens",
                                  "erschöpfte Karten bereit machen; Aktionspunkte erhalten"),),
                    on_begin=self._ready_begins, end_check=self._ready_missing,
                    moves=("draw",),
                ),
                PhaseSpec(
                    "troublemaker", Text("Troublemaker phase", "Troublemaker Phase"),
                    may=(Text("challenge a face-up opposing troublemaker or a Villain",
                            "einen offenen gegnerischen Widersacher oder Villain herausfordern"),),
                    must=(Text("uncover your face-down troublemakers",
                             "deine verdeckten Widersacher aufdecken"),),
                    end_check=self._troublemaker_missing,
                    moves=("reveal", "challenge"),
                ),
                PhaseSpec(
                    "main", Text("Main phase", "Main Phase"),
                    may=(
                        Text("play cards (cost in action tokens)", "Karten spielen (Kosten)"),
                        Text(f"move a character ({numbers.MOVE_COST} token; Swift "
                             f"{numbers.MOVE_COST - numbers.SWIFT_DISCOUNT})",
                           f"einen Charakter bewegen ({numbers.MOVE_COST} Aktionspunkt; Swift "
                           f"{numbers.MOVE_COST - numbers.SWIFT_DISCOUNT})"),
                        Text(f"draw a card for {numbers.DRAW_COST} token",
                             f"für {numbers.DRAW_COST} Aktionspunkt eine Karte ziehen"),
                        Text("play a troublemaker face down "
                             f"({numbers.TROUBLEMAKER_COST} token)",
                           "einen Widersacher verdeckt spielen "
                           f"({numbers.TROUBLEMAKER_COST} Aktionspunkt)"),
                        Text("Inspired: look at the top of the opponent's deck",
                           "Inspired: oberste Karten des gegnerischen Decks ansehen"),
                    ),
                    end_check=self._faceoff_missing,
                    moves=("play", "play-troublemaker", "move", "draw"),
                ),
                PhaseSpec(
                    "score", Text("Score phase", "Score Phase"),
                    must=(Text("finish the faceoffs and replace solved problems",
                             "Konfrontationen beenden und gelöste Probleme ersetzen"),),
                    automatic=(Text("confront every problem whose requirements you meet",
                                  "jedes Problem lösen, dessen Anforderungen du erfüllst"),),
                    on_begin=self._score_begins, end_check=self._score_missing,
                ),
                PhaseSpec(
                    "end", Text("End phase", "Zug Ende"),
                    must=(Text(f"hand limit {numbers.HAND_LIMIT}, then the home limit",
                             f"Handlimit {numbers.HAND_LIMIT}, dann das Zuhauselimit"),),
                    ends=Text("you end your turn", "du beendest deinen Zug"),
                    end_check=self._end_missing,
                    moves=("discard", "retire"),
                ),
            ),
            on_turn_begin=self._turn_begins,
        ))

    # ================================================================== setup
    def setup(self, config: GameConfig) -> GameState:
        state = self.new_state(config)
        for p in PLAYERS:
            for zone, hidden in ((fx.deck(p), True), (hand_zone(p), True),
                                 (fx.problem_deck(p), True), (fx.discard(p), False),
                                 (fx.problem_zone(p), False), (fx.home(p), False)):
                state.add_zone(zone, hidden=hidden)
        flags(state).update({
            "tokens": {p: 0 for p in PLAYERS}, "points": {p: 0 for p in PLAYERS},
            "mane": {}, "boosted": [], "frightened": [], "confronted": {}, "solved": [],
            "problem_due": [], "faceoff": None, "faceoff_queue": [], "send_home": None,
            "power_mods": {}, "mane_backs": {}, "declared_seen": 0, "last_faceoff": None,
            "setup_started": {p: False for p in PLAYERS}, "deck_faults": {},
        })
        lists = self._deck_lists(state, config)
        for p, (mane, cards, problems) in lists.items():
            if mane:
                state.register(mane, fx.home(p), p)
                state.public.add(mane)
                flags(state)["mane"][p] = mane
            for uid in cards:
                state.register(uid, fx.deck(p), p)
            for uid in problems:
                state.register(uid, fx.problem_deck(p), p)
            state.shuffle(fx.deck(p))
            state.shuffle(fx.problem_deck(p))
        if config.setup:
            self._setup_midgame(state, config.setup)
        else:
            self.flow.start(state)
        if state.phase == "setup":  # from the beginning: deck rules are checked
            flags(state)["deck_faults"] = self._deck_faults(state, lists)
        return state

    def _deck_lists(self, state: GameState, config: GameConfig
                    ) -> dict[str, tuple[str | None, list[str], list[str]]]:
        """Per player: mane, draw deck, problem deck (uids), from the config or the default
        theme decks (Twilight Sparkle against Rainbow Dash)."""
        raw: dict[str, list[str]] = {p: [] for p in PLAYERS}
        forced_problems: dict[str, list[str]] = {p: [] for p in PLAYERS}
        numbers = CopyNumbers(u for uids in config.decks.values() for u in uids)
        for key, uids in config.decks.items():
            owner = key.split(".", 1)[0]
            if owner not in PLAYERS:
                raise SetupError(f"decks are for p1 and p2 (or their piles), not {key!r}")
            target = forced_problems if key.endswith("problem-deck") else raw
            target[owner].extend(numbers.uid(item) for item in uids)
        if not any(raw.values()) and not any(forced_problems.values()):
            raw = self._default_decks()
        result: dict[str, tuple[str | None, list[str], list[str]]] = {}
        for p in PLAYERS:
            mane = next((u for u in raw[p] if state.facts(u).type == "mane"), None)
            cards = [u for u in raw[p] if u != mane and state.facts(u).type != "problem"]
            problems = forced_problems[p] + [
                u for u in raw[p] if state.facts(u).type == "problem"]
            result[p] = (mane, cards, problems)
        return result

    @staticmethod
    def _default_decks() -> dict[str, list[str]]:
        def ids(deck: Any) -> list[str]:
            return ([deck.mane] if deck.mane else []) + [
                cid for cid, n in deck.cards.items() for _ in range(n)] + [
                cid for cid, n in deck.problems.items() for _ in range(n)]

        return sample_decks(GAME, DEFAULT_DECKS, ids)

    def _deck_faults(self, state: GameState,
                     lists: Mapping[str, tuple[str | None, list[str], list[str]]]
                     ) -> dict[str, list[dict[str, Any]]]:
        """Deck-building faults (checked by companion.decks.rules), reported with each
        player's first setup move."""
        from companion.cardsets import DeckList, load_cardset
        from companion.games.my_little_pony.deck_rules import check_mlp

        cardset = load_cardset(GAME)
        faults: dict[str, list[dict[str, Any]]] = {}
        for p, (_, cards, problems) in lists.items():
            mane = fx.mane_of(state, p)
            deck = DeckList(
                slug=p, name=p, game=GAME,
                cards=dict(Counter(card_id_of(u) for u in cards)),
                mane=card_id_of(mane) if mane else None,
                problems=dict(Counter(card_id_of(u) for u in problems)),
            )
            faults[p] = [
                deck_violation(f.code, f.en, f.de, f.cards, f.rule).to_dict()
                for f in check_mlp(deck, cardset)
            ]
        return faults

    def _setup_midgame(self, state: GameState, setup: Mapping[str, Any]) -> None:
        """Start from a position (DESIGN.md `setup`): table, hands, turn, phase, score, tokens.

        A table card not in the deck lists belongs to the player whose deck lists the same
        card (so a friend at the opponent's problem keeps its owner), else to the zone's owner.
        """
        listed: dict[str, set[str]] = {}
        for uid, holder in state.owner.items():
            listed.setdefault(card_id_of(uid), set()).add(holder)
        for zone, cards in (setup.get("table") or {}).items():
            if zone not in state.zones or fx.zone_owner(zone) not in PLAYERS:
                raise SetupError(f"setup: unknown zone {zone!r} for My Little Pony")
            for item in cards:
                uid = card_ref(item)
                if uid in state.where:
                    state.move(uid, zone)
                else:
                    # a card not in the deck lists belongs to the player whose deck lists
                    # the same card, else to the owner of the zone it lies in
                    holders = listed.get(card_id_of(uid), set())
                    owner = next(iter(holders)) if len(holders) == 1 else fx.zone_owner(zone)
                    state.register(uid, zone, owner)
                    if not state.is_hidden(zone):
                        state.public.add(uid)
                if state.facts(uid).type == "mane":
                    flags(state)["mane"][state.owner[uid]] = uid
        deal_hands(state, setup, fx.deck)
        lay_face_down(state, setup)
        tap_cards(state, setup)
        attach_cards(state, setup)
        active = str(setup.get("active", state.first))
        if active not in PLAYERS:
            raise SetupError(f"setup: active must be p1 or p2, not {active!r}")
        missing = [p for p in PLAYERS if fx.problem_at(state, fx.problem_zone(p)) is None]
        phase = str(setup.get("phase", "setup" if missing else "main"))
        if not self.flow.knows(phase):
            raise SetupError(f"setup: unknown phase {phase!r}")
        state.active = active
        if phase == "setup":
            state.turn = 0
            state.phase = phase
            return
        state.turn = int(setup.get("turn", 2))
        self._turn_begins(state)
        score = setup.get("score") or {}
        for p in PLAYERS:
            flags(state)["points"][p] = int(score.get(p, 0)) if isinstance(score, Mapping) else 0
        state.phase = phase
        tokens = setup.get("action_tokens")
        given = isinstance(tokens, Mapping)
        if isinstance(tokens, Mapping):
            for p in PLAYERS:
                flags(state)["tokens"][p] = int(tokens.get(p, 0))
        elif phase != "ready":
            flags(state)["tokens"][active] = fx.token_gain(state)  # this turn's gain
        if phase == "ready":
            self._ready_begins(state, gain=not given)
            return
        on_begin = self.flow.phase(phase).on_begin
        if on_begin is not None:
            on_begin(state)  # a position in the score phase confronts now

    # ================================================================== phase hooks
    def _turn_begins(self, state: GameState) -> None:
        state.reset_counters("turn")
        flags(state)["power_mods"] = {}
        flags(state)["turn_confronted"] = []

    def _ready_begins(self, state: GameState, gain: bool = True) -> None:
        p = state.active
        for uid in [u for z in fx.AREAS for u in state.cards_in(z)]:
            if state.owner.get(uid) == p:
                state.tapped.discard(uid)
        if gain:
            fx.add_tokens(state, p, fx.token_gain(state))

    def _score_begins(self, state: GameState) -> None:
        """Confront step: one point per problem met, the first solver's bonus; then queue the
        faceoffs (double when both problems were confronted)."""
        p = state.active
        confronted = flags(state).setdefault("confronted", {})
        done: list[str] = []
        for zone in fx.PROBLEM_ZONES:
            problem = fx.problem_at(state, zone)
            if problem is None or not fx.characters_of(state, p, (zone,)):
                continue
            if not fx.can_confront(state, p, zone):
                continue
            fx.add_points(state, p, numbers.SOLVE_POINTS)
            solvers = confronted.setdefault(problem, [])
            if not solvers:
                fx.add_points(state, p, state.facts(problem).number("bonus"))
            if p not in solvers:
                solvers.append(p)
            done.append(zone)
        flags(state)["turn_confronted"] = done
        if len(done) == 2:
            queue = [{"kind": "double", "zones": done}]
        else:
            queue = [{"kind": "problem", "zones": [z]} for z in done
                     if fx.can_confront(state, other(p), z)]
        flags(state)["faceoff_queue"] = queue
        self._next_faceoff(state)

    def _next_faceoff(self, state: GameState) -> None:
        """Open the next queued faceoff; one where nobody can flip resolves at once."""
        fo.start_next(state)
        self._maybe_resolve(state)

    # ================================================================== phase checks
    def _setup_missing(self, state: GameState) -> list[Violation]:
        return [
            violation("mlp.setup-missing", player=p) for p in PLAYERS
            if fx.problem_at(state, fx.problem_zone(p)) is None
            or state.count(hand_zone(p)) < min(numbers.OPENING_HAND, state.count(hand_zone(p))
                                                + state.count(fx.deck(p)))
        ]

    def _ready_missing(self, state: GameState) -> list[Violation]:
        if self._first_turn(state) or state.count(fx.deck(state.active)) == 0:
            return []
        if state.counter("turn", "drawn") == 0:
            return [violation("mlp.must-draw", zones=(fx.deck(state.active),))]
        return []

    def _faceoff_missing(self, state: GameState) -> list[Violation]:
        found: list[Violation] = []
        if fo.pending(state):
            found.append(violation("mlp.faceoff-pending"))
        due = flags(state).get("send_home")
        if due and not self._guessed_loss(state):
            found.append(violation("mlp.send-home-due", player=due["player"],
                                   zones=(due["zone"],)))
        return found

    def _troublemaker_missing(self, state: GameState) -> list[Violation]:
        found = self._faceoff_missing(state)
        if self._unrevealed(state, state.active):
            found.append(violation("mlp.must-reveal"))
        return found

    def _score_missing(self, state: GameState) -> list[Violation]:
        found = self._faceoff_missing(state)
        for p in flags(state).get("problem_due", []):
            found.append(violation("mlp.problem-due", player=p, zones=(fx.problem_zone(p),)))
        return found

    def _end_missing(self, state: GameState) -> list[Violation]:
        p = state.active
        found: list[Violation] = []
        hand = state.count(hand_zone(p))
        if hand > numbers.HAND_LIMIT:
            found.append(violation("mlp.hand-limit", player=p, count=hand))
        friends = len(fx.friends_at_home(state, p))
        limit = fx.home_limit(state, p)
        if friends > limit:
            found.append(violation("mlp.home-limit", player=p, count=friends, limit=limit,
                                   zones=(fx.home(p),)))
        return found

    def _unrevealed(self, state: GameState, player: str) -> list[str]:
        """`player`'s face-down troublemakers that must be uncovered (none under a Villain)."""
        return [
            u for z in fx.PROBLEM_ZONES for u in state.cards_in(z)
            if u in state.face_down and state.owner.get(u) == player
            and fx.villain_at(state, z) is None
        ]

    @staticmethod
    def _first_turn(state: GameState) -> bool:
        return state.turn == 1 and state.active == state.first

    # ================================================================== legal moves
    def candidate_moves(self, state: GameState) -> list[Move]:
        moves: list[Move] = []
        p = state.active
        if state.phase == "setup":
            for q in PLAYERS:
                if fx.problem_at(state, fx.problem_zone(q)) is None:
                    seen: set[str] = set()
                    for u in state.cards_in(fx.problem_deck(q)):
                        if fx.has(state, u, "Starting Problem") and card_id_of(u) not in seen:
                            seen.add(card_id_of(u))
                            moves.append(Move("starting-problem", q, (u,)))
                if state.count(hand_zone(q)) < numbers.OPENING_HAND:
                    moves.append(Move("draw", q))
        elif fo.current(state) is not None:
            for q in PLAYERS:
                moves.append(Move("flip", q))
                moves.append(Move("keep", q))
        elif (due := flags(state).get("send_home")) is not None:
            moves += [Move("send-home", due["player"], (u,)) for u in due["cards"]]
        elif flags(state).get("problem_due"):
            moves += [Move("new-problem", q) for q in flags(state)["problem_due"]]
        else:
            moves += self._phase_moves(state, p)
            moves.append(Move("next-phase", p))
            moves.append(Move("pass", p))
        return moves

    def _phase_moves(self, state: GameState, p: str) -> list[Move]:
        moves: list[Move] = []
        hand = state.cards_in(hand_zone(p))
        if state.phase == "ready":
            moves.append(Move("draw", p))
        elif state.phase == "troublemaker":
            moves += [Move("reveal", p, (u,)) for u in self._unrevealed(state, p)]
            for z in fx.PROBLEM_ZONES:
                moves += [Move("challenge", p, target=u) for u in
                          fx.face_up_troublemakers(state, z)]
        elif state.phase == "main":
            targets = (fx.home(p), *fx.PROBLEM_ZONES)
            for u in dict.fromkeys(hand):
                kind = fx.kind(state, u)
                if kind in ("friend", "resource"):
                    moves += [Move("play", p, (u,), to=z) for z in targets]
                elif kind == "event":
                    moves.append(Move("play", p, (u,), to=fx.discard(p)))
                elif kind == "troublemaker":
                    moves += [Move("play-troublemaker", p, (u,), to=z) for z in fx.PROBLEM_ZONES]
            for u in fx.characters_of(state, p):
                moves += [Move("move", p, (u,), to=z) for z in targets if z != state.where[u]]
            moves.append(Move("draw", p))
        elif state.phase == "end":
            if len(hand) > numbers.HAND_LIMIT:
                moves += [Move("discard", p, (u,)) for u in dict.fromkeys(hand)]
            elif len(fx.friends_at_home(state, p)) > fx.home_limit(state, p):
                moves += [Move("retire", p, (u,)) for u in fx.friends_at_home(state, p)]
        return moves

    # ================================================================== checks
    def check_specific(self, state: GameState, move: Move) -> list[Violation]:
        kind = move.kind
        if kind in ("concede", "declare", "next-phase"):
            return []
        if kind == "pass":
            return self._check_pass(state)
        if state.phase == "setup" and kind in ("starting-problem", "draw"):
            return self._deck_faults_for(state, move.player) + (
                self._check_starting_problem(state, move) if kind == "starting-problem"
                else self._check_setup_draw(state, move))
        return self.moves.check(self, state, move)

    def _deck_faults_for(self, state: GameState, player: str) -> list[Violation]:
        if flags(state).get("setup_started", {}).get(player):
            return []
        return [Violation.from_dict(v) for v in
                flags(state).get("deck_faults", {}).get(player, [])]

    def _turn_only(self, state: GameState, move: Move, phases: tuple[str, ...]
                   ) -> list[Violation]:
        return CHECKS.own_turn(state, move) + CHECKS.in_phase(state, move, *phases)

    def _blocked_by_faceoff(self, state: GameState) -> list[Violation]:
        return self._faceoff_missing(state)

    def _check_pass(self, state: GameState) -> list[Violation]:
        if state.phase in ("setup", "end"):
            return []
        if state.phase in ("ready", "troublemaker", "main"):
            return [violation("mlp.skip-score")]
        return self._end_missing(state)

    def _check_starting_problem(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        found: list[Violation] = []
        if fx.problem_at(state, fx.problem_zone(p)) is not None:
            found.append(violation("mlp.problem-in-play", player=p))
        ok = (uid in state.where and state.owner.get(uid) == p
              and state.can_resolve(uid, fx.problem_deck(p))
              and fx.has(state, uid, "Starting Problem"))
        if not ok:
            found.append(violation("mlp.starting-problem", cards=(uid,), player=p))
        return found

    def _check_setup_draw(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        count = state.count(hand_zone(p))
        if count >= numbers.OPENING_HAND:
            return [violation("mlp.setup-hand", player=p, count=count + 1)]
        if state.count(fx.deck(p)) == 0:
            return [violation("mlp.deck-empty", player=p)]
        return []

    def _check_draw(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        found = self._turn_only(state, move, ("ready", "main"))
        if found:
            return found
        if state.count(fx.deck(p)) == 0:
            return [violation("mlp.deck-empty", player=p)]
        if state.phase == "ready":
            if self._first_turn(state):
                return [violation("mlp.first-turn-draw")]
            if state.counter("turn", "drawn") >= 1:
                return [violation("mlp.draw-once")]
            return []
        found += self._blocked_by_faceoff(state)
        return found + self._cost(state, p, numbers.DRAW_COST,
                                  ("drawing a card", "Eine Karte zu ziehen"))

    def _cost(
        self, state: GameState, player: str, cost: int, action: tuple[str, str]
    ) -> list[Violation]:
        """Violation when `player` cannot pay `cost` tokens for `action` (English, German)."""
        have = fx.tokens(state, player)
        if cost > have:
            en, de = action
            return [
                violation(
                    "mlp.cost", player=player, cost=cost, tokens=have, action=en, action_de=de
                )
            ]
        return []

    def _check_play(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        known = uid != UNKNOWN and uid in state.where
        kind = fx.kind(state, uid) if known else "friend"
        found: list[Violation] = []
        if kind == "event" and (fo.current(state) is not None or fx.has(state, uid, "Reaction")):
            pass  # Faceoff timing (either player, alternating: prompted) or a Reaction
        else:
            timing = self._turn_only(state, move, ("main",))
            if kind == "event" and timing:
                found.append(violation("mlp.event-timing", cards=(uid,)))
            else:
                found += timing
            found += self._blocked_by_faceoff(state)
        found += CHECKS.from_hand(state, p, (uid,), owned=True)
        if not known or (found and found[-1].code == "mlp.not-in-hand"):
            return found
        facts = state.facts(uid)
        to = move.to or ""
        if kind == "troublemaker":
            found.append(violation("mlp.troublemaker-face-down", cards=(uid,), zones=(to,)))
        elif kind == "event":
            if to != fx.discard(p):
                found.append(violation("mlp.bad-destination", kind=kind, zones=(to,)))
        elif kind in ("friend", "resource"):
            if to not in (fx.home(p), *fx.PROBLEM_ZONES):
                found.append(violation("mlp.bad-destination", kind=kind, zones=(to,)))
        else:
            found.append(violation("mlp.bad-destination", kind=kind, zones=(to,)))
        found += self._cost(state, p, facts.number("cost"), (f"playing {uid}", f"{uid} zu spielen"))
        need = facts.get("play_requirement")
        if isinstance(need, Mapping):
            wanted = str(need.get("color"))
            have = fx.play_power(state, p, wanted)
            if have < int(need.get("power", 0)):
                found.append(violation("mlp.requirement", cards=(uid,), player=p,
                                       need=need.get("power"), color=wanted, have=have))
        if fx.has(state, uid, "Unique") and any(
            card_id_of(u) == facts.id and state.owner.get(u) == p
            for z in fx.AREAS for u in state.cards_in(z)
        ):
            found.append(violation("mlp.unique-in-play", cards=(uid,), player=p))
        return found

    def _check_play_troublemaker(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        found = self._turn_only(state, move, ("main",)) + self._blocked_by_faceoff(state)
        found += CHECKS.from_hand(state, p, (uid,), owned=True)
        if uid != UNKNOWN and uid in state.where and fx.kind(state, uid) != "troublemaker":
            found.append(violation("mlp.bad-destination", kind=fx.kind(state, uid),
                                   zones=(str(move.to),)))
        to = move.to or ""
        if to not in fx.PROBLEM_ZONES:
            found.append(violation("mlp.bad-destination", kind="troublemaker", zones=(to,)))
        elif any(state.owner.get(u) == p for u in fx.troublemakers_at(state, to)):
            found.append(violation("mlp.troublemaker-limit", player=p, zones=(to,)))
        action = ("playing a troublemaker", "Einen Widersacher zu spielen")
        return found + self._cost(state, p, numbers.TROUBLEMAKER_COST, action)

    def _check_move(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        found = self._turn_only(state, move, ("main",)) + self._blocked_by_faceoff(state)
        if uid not in state.where or state.where[uid] not in fx.AREAS or \
                state.owner.get(uid) != p:
            return [*found, violation("mlp.not-own-card", cards=(uid,), player=p)]
        if not fx.is_character(state, uid):
            found.append(violation("mlp.not-character", cards=(uid,),
                                   kind=fx.kind(state, uid)))
        to = move.to or ""
        if to not in (fx.home(p), *fx.PROBLEM_ZONES):
            found.append(violation("mlp.bad-destination", kind=fx.kind(state, uid), zones=(to,)))
        action = (f"moving {uid}", f"{uid} zu bewegen")
        return found + self._cost(state, p, fx.move_cost(state, uid), action)

    def _check_discard(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        found = CHECKS.from_hand(state, p, (uid,), owned=True)
        if found:
            return found
        if state.phase != "end" or p != state.active or \
                state.count(hand_zone(p)) <= numbers.HAND_LIMIT:
            found.append(violation("mlp.no-reason", cards=(uid,)))
        return found

    def _check_retire(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        if uid not in fx.friends_at_home(state, p) or state.owner.get(uid) != p:
            return [violation("mlp.not-own-card", cards=(uid,), player=p)]
        if state.phase != "end" or p != state.active or \
                len(fx.friends_at_home(state, p)) <= fx.home_limit(state, p):
            return [violation("mlp.no-reason", cards=(uid,))]
        hand = state.count(hand_zone(p))
        if hand > numbers.HAND_LIMIT:  # "Zug Ende": first the hand, then the home
            return [violation("mlp.hand-limit-first", cards=(uid,), player=p, count=hand)]
        return []

    def _check_reveal(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.card
        found = self._turn_only(state, move, ("troublemaker",))
        zone = self._face_down_zone(state, move)
        if zone is None:
            return [*found, violation("mlp.not-seen-there", cards=(uid,), zones=("-",))]
        if uid in state.where and fx.kind(state, uid) != "troublemaker":
            found.append(violation("mlp.bad-destination", kind=fx.kind(state, uid),
                                   zones=(zone,)))
        if found:
            return found
        villain = fx.villain_at(state, zone)
        if villain is not None and villain != uid:
            found.append(violation("mlp.villain-blocks", cards=(villain,), zones=(zone,)))
        if uid in state.where and state.owner.get(uid) != p:
            found.append(violation("mlp.reveal-not-own"))
        return found

    def _face_down_zone(self, state: GameState, move: Move) -> str | None:
        """Where the face-down card that `move` uncovers lies (by back serial or belief)."""
        uid = move.card
        back = move.option("back")
        if back and back in state.backs:
            holder = state.backs[back]
            if uid in (holder, UNKNOWN) or (not state.known(uid) and uid in state.where):
                return state.where[holder]
            return None
        if uid in state.face_down:
            return state.where[uid]
        zones = [move.to] if move.to else list(fx.PROBLEM_ZONES)
        for zone in zones:
            if zone and any(u in state.face_down for u in state.cards_in(zone)) and \
                    (uid == UNKNOWN or state.can_resolve(uid, zone)):
                return zone
        return None

    def _check_challenge(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        target = move.target or ""
        found = self._turn_only(state, move, ("troublemaker",)) + self._faceoff_missing(state)
        if found:
            return found
        if self._unrevealed(state, p):
            found.append(violation("mlp.must-reveal"))
        zone = state.where.get(target, "")
        if zone not in fx.PROBLEM_ZONES or fx.kind(state, target) != "troublemaker" or \
                target in state.face_down:
            return [*found, violation("mlp.challenge-target", cards=(target,), player=p)]
        if state.owner.get(target) == p and not fx.is_villain(state, target):
            found.append(violation("mlp.challenge-own", cards=(target,)))
        # any character there (l.13: "mindestens einen Charakter"); exhausted and frightened
        # ones only stay out of the faceoff totals (faceoff.new_faceoff)
        if not fx.characters_of(state, p, (zone,)):
            found.append(violation("mlp.challenge-alone", player=p, zones=(zone,)))
        if state.counter("turn", f"challenged:{target}"):
            found.append(violation("mlp.challenge-target", cards=(target,), player=p))
        return found

    def _check_flip(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        f = fo.current(state)
        if f is None:
            return [violation("mlp.no-faceoff")]
        ok, left = fo.may_flip(state, p)
        if not ok:
            return [violation("mlp.flipped", player=p, left=left)]
        if state.count(fx.deck(p)) == 0:
            return [violation("mlp.deck-empty", player=p)]
        uid = move.cards[0] if move.cards else None
        if uid is not None and (uid not in state.where or state.owner.get(uid) != p
                                or not state.can_resolve(uid, fx.deck(p))):
            return [violation("mlp.not-seen-there", cards=(uid,), zones=(fx.deck(p),))]
        return []

    def _check_keep(self, state: GameState, move: Move) -> list[Violation]:
        f = fo.current(state)
        if f is None:
            return [violation("mlp.no-faceoff")]
        if f["done"][move.player] or not f["flips"][move.player]:
            return [violation("mlp.flipped", player=move.player,
                              left=f["random_left"][move.player])]
        return []

    def _check_send_home(self, state: GameState, move: Move) -> list[Violation]:
        due = flags(state).get("send_home") or self._loss_not_guessed(state, move.player)
        uid = move.card
        if not due or due["player"] != move.player:
            return [violation("mlp.send-home-wrong", cards=(uid,), zones=("-",))]
        if uid not in due["cards"] or state.where.get(uid) != due["zone"]:
            return [violation("mlp.send-home-wrong", cards=(uid,), zones=(due["zone"],))]
        return []

    def _check_new_problem(self, state: GameState, move: Move) -> list[Violation]:
        p = move.player
        uid = move.cards[0] if move.cards else None
        found: list[Violation] = []
        if p not in flags(state).get("problem_due", []):
            found.append(violation("mlp.no-problem-due", cards=(uid or "-",), player=p))
        pile = fx.problem_deck(p)
        if uid is not None:
            top_ok = state.can_resolve(uid, pile) and (
                not state.known(uid) or state.top(pile) == uid)
            if uid not in state.where or state.owner.get(uid) != p or not top_ok:
                found.append(violation("mlp.not-from-problem-deck", cards=(uid,), player=p))
        elif state.count(pile) == 0:
            found.append(violation("mlp.not-from-problem-deck", cards=("-",), player=p))
        return found

    # ----- any time
    def _in_play(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.cards[0] if move.cards else (move.target or UNKNOWN)
        if uid not in state.where or state.where[uid] not in fx.AREAS:
            return [violation("mlp.not-own-card", cards=(uid,), player=move.player)]
        return []

    def _check_exhaust(self, state: GameState, move: Move) -> list[Violation]:
        return self._in_play(state, move)

    def _check_ready(self, state: GameState, move: Move) -> list[Violation]:
        return self._in_play(state, move)

    def _check_modify(self, state: GameState, move: Move) -> list[Violation]:
        return self._in_play(state, move)

    def _check_boost(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        if uid != fx.mane_of(state, move.player) or fx.boosted(state, uid):
            return [violation("mlp.boosted", cards=(uid,), player=move.player)]
        return []

    def _check_identify(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        zone = move.to or ""
        if uid not in state.where or not state.can_resolve(uid, zone):
            return [violation("mlp.not-seen-there", cards=(uid,), zones=(zone,))]
        return []

    def _check_faceoff_won(self, state: GameState, move: Move) -> list[Violation]:
        if not self._open_result(state, move.player):
            return [violation("mlp.faceoff-result")]
        return []

    def _check_faceoff_tied(self, state: GameState, move: Move) -> list[Violation]:
        if not self._open_result(state, "none"):
            return [violation("mlp.faceoff-result")]
        return []

    def _apply_faceoff_won(self, state: GameState, move: Move) -> None:
        if self._open_result(state, move.player):
            self._revise(state, move.player, confirmed=True)

    def _apply_faceoff_tied(self, state: GameState, move: Move) -> None:
        if self._open_result(state, "none"):
            self._revise(state, "none", confirmed=True)

    def _check_remove(self, state: GameState, move: Move) -> list[Violation]:
        uid = move.card
        if uid == fx.mane_of(state, state.owner.get(uid, "")):
            return [violation("mlp.mane-stays", cards=(uid,))]
        return [violation("mlp.unexplained", cards=(uid,), zones=(str(move.to),))]

    # ================================================================== apply
    def apply(self, state: GameState, move: Move) -> None:
        if move.kind != "flip" and flags(state).get("flips_unseen"):
            flags(state)["flips_unseen"] = []
        self._close_unseen_faceoff(state, move)
        super().apply(state, move)

    def _close_unseen_faceoff(self, state: GameState, move: Move) -> None:
        """A faceoff decided by a flip nobody saw stays open to another result only until
        the game goes on: a move a due send-home blocks says nobody lost (a person's word,
        or the table's, outranks the guess); then, or at any other move of the game, the
        result stands."""
        record = flags(state).get("unseen_faceoff")
        if not record:
            return
        record["fresh"] = False
        if move.kind in KEEP_OPEN:
            return
        if move.kind in BLOCKED_BY_SEND_HOME and self._guessed_loss(state):
            self._revise(state, "none")
        flags(state)["unseen_faceoff"] = None

    def apply_specific(self, state: GameState, move: Move) -> None:
        kind = move.kind
        if state.phase == "setup" and kind in ("starting-problem", "draw"):
            flags(state)["setup_started"][move.player] = True
        self.moves.apply(self, state, move)

    def _take_from_hand(self, state: GameState, player: str, uid: str,
                        prefer: str | None = None) -> str | None:
        hand = hand_zone(player)
        if uid == UNKNOWN:
            unseen = state.unseen_in(hand) or state.cards_in(hand)
            typed = [u for u in unseen if prefer and fx.kind(state, u) == prefer]
            if prefer and not typed:  # a face-down troublemaker: believe one is in hand
                spare = [u for u in state.cards_in(fx.deck(player))
                         if fx.kind(state, u) == prefer and not state.known(u)]
                if spare and state.resolve(spare[-1], hand):
                    typed = [spare[-1]]
            pick = typed or unseen
            return pick[-1] if pick else None
        return take_from_hand(state, player, uid)

    def _pay(self, state: GameState, player: str, cost: int) -> None:
        fx.add_tokens(state, player, -cost)

    def _apply_starting_problem(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where:
            return
        state.resolve(uid, fx.problem_deck(move.player))
        state.move(uid, fx.problem_zone(move.player))

    def _apply_draw(self, state: GameState, move: Move) -> None:
        p = move.player
        if state.phase == "setup":
            want = move.value if isinstance(move.value, int) \
                else numbers.OPENING_HAND - state.count(hand_zone(p))
            draw_cards(state, fx.deck(p), hand_zone(p), max(1, want))
            return
        if state.draw(fx.deck(p), hand_zone(p)) is None:
            return
        if state.phase == "main" and p == state.active:
            self._pay(state, p, numbers.DRAW_COST)
        state.bump("turn", "drawn")

    def _apply_play(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = self._take_from_hand(state, p, move.card)
        if uid is None:
            return
        facts = state.facts(uid)
        to = move.to or (fx.discard(p) if facts.type == "event" else fx.home(p))
        if to not in state.zones:
            to = fx.home(p)
        state.move(uid, to)
        if move.target and move.target in state.where:
            state.attached[uid] = move.target
        self._pay(state, p, facts.number("cost"))

    def _apply_play_troublemaker(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = self._take_from_hand(state, p, move.card,
                                   prefer="troublemaker")
        if uid is None:
            return
        to = move.to if move.to in state.zones else fx.problem_zone(other(p))
        state.move(uid, str(to), face_down=True)
        state.public.discard(uid)
        back = move.option("back")
        if back:
            state.backs[back] = uid
        self._pay(state, p, numbers.TROUBLEMAKER_COST)

    def _apply_move(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where or move.to not in state.zones:
            return
        self._relocate(state, uid, str(move.to))
        self._pay(state, move.player, fx.move_cost(state, uid))

    def _relocate(self, state: GameState, uid: str, to: str) -> None:
        """A card moves on the table: attached resources follow, fright ends."""
        move_with_attached(state, uid, to)
        if uid in flags(state).get("frightened", []):
            flags(state)["frightened"].remove(uid)

    def _apply_discard(self, state: GameState, move: Move) -> None:
        p = move.player
        uid = self._take_from_hand(state, p, move.card)
        if uid is not None:
            state.move(uid, fx.discard(p))

    def _apply_retire(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid in state.where:
            self._leave_table(state, uid, fx.discard(state.owner[uid]))

    def _leave_table(self, state: GameState, uid: str, to: str, reveal: bool = True) -> None:
        release_attached(state, uid, lambda item: fx.discard(state.owner[item]))
        state.tapped.discard(uid)
        if uid in flags(state).get("frightened", []):
            flags(state)["frightened"].remove(uid)
        state.move(uid, to, reveal=reveal)

    def _apply_reveal(self, state: GameState, move: Move) -> None:
        """Uncover a face-down troublemaker; the card named is what the table shows."""
        zone = self._face_down_zone(state, move)
        if zone is None:
            return  # nothing face down there: the table shows what really happened
        uid = move.card
        back = move.option("back")
        if back and back in state.backs and uid in state.where:
            state.resolve_back(back, uid)  # the card under the back seen is the one shown
        holder = state.backs.pop(back, None) if back else None
        if holder is None:
            down = [u for u in state.cards_in(zone) if u in state.face_down]
            holder = uid if uid in down else (down[-1] if down else None)
        if holder is None:
            return
        if uid not in (UNKNOWN, holder) and uid in state.where:
            if state.known(uid) or state.known(holder):
                return
            state.resolve(uid, zone)
            if state.where.get(uid) != zone:
                return
            holder = uid
        state.face_down.discard(holder)
        state.public.add(holder)
        if fx.kind(state, holder) == "troublemaker" and fx.is_villain(state, holder):
            self._villain_arrives(state, holder, zone)

    def _villain_arrives(self, state: GameState, villain: str, zone: str) -> None:
        """Every other troublemaker there leaves; every friend there is frightened."""
        for uid in fx.troublemakers_at(state, zone):
            if uid != villain:
                unseen = uid in state.face_down
                self._leave_table(state, uid, fx.discard(state.owner[uid]), reveal=not unseen)
        scared = flags(state).setdefault("frightened", [])
        for uid in state.cards_in(zone):
            if fx.kind(state, uid) == "friend" and uid not in scared:
                scared.append(uid)

    def _apply_challenge(self, state: GameState, move: Move) -> None:
        if any(v.blocking for v in self._check_challenge(state, move)):
            return  # declared, not done
        target = str(move.target)
        state.bump("turn", f"challenged:{target}")
        zone = state.where[target]
        faceoff = fo.new_faceoff(state, "troublemaker", [zone], move.player, target)
        faceoff["sides"][other(move.player)] = []
        flags(state)["faceoff"] = faceoff
        self._maybe_resolve(state)

    def _apply_flip(self, state: GameState, move: Move) -> None:
        p = move.player
        if fo.current(state) is None or not fo.may_flip(state, p)[0]:
            return
        pile = fx.deck(p)
        uid = move.cards[0] if move.cards else None
        power: int
        if uid is not None and uid in state.where and state.resolve(uid, pile):
            power = state.facts(uid).number("power")
        elif uid is None and isinstance(move.value, int):
            power = int(move.value)
            uid = None
        else:
            uid = state.top(pile)
            if uid is None:
                fo.keep(state, p)
                self._maybe_resolve(state)
                return
            power = state.facts(uid).number("power")
        unseen = not move.cards and not isinstance(move.value, int)
        if uid is not None:
            # a card nobody named is the believed top, not a card seen: it stays unseen (a
            # follower of the table that took it as seen could not let it be played later)
            state.move(uid, pile, bottom=True, reveal=not unseen)
            if not unseen:
                state.public.add(uid)
        if not move.cards:
            flags(state).setdefault("flips_unseen", []).append(p)
        fo.record_flip(state, p, power, uid, unseen)
        self._maybe_resolve(state)

    def _apply_keep(self, state: GameState, move: Move) -> None:
        fo.keep(state, move.player)
        self._maybe_resolve(state)

    def _maybe_resolve(self, state: GameState) -> None:
        if not fo.ready_to_resolve(state):
            return
        f = fo.current(state)
        assert f is not None
        won = fo.winner(state, f)
        results = fo.possible_results(state, f)
        flags(state)["last_faceoff"] = won
        flags(state).setdefault("faceoffs", []).append(fo.result_summary(state, f, won))
        flags(state)["faceoff"] = None
        awarded = self._settle(state, f, won)
        flags(state)["unseen_faceoff"] = None if len(results) < 2 else {
            "faceoff": f, "results": results, "won": won or "none", "awarded": awarded,
            "fresh": True, "confirmed": False, "summary": len(flags(state)["faceoffs"]) - 1}
        if f["kind"] == "troublemaker":
            return
        for zone in f["zones"]:
            self._replace_problem(state, zone)
        self._next_faceoff(state)

    def _settle(self, state: GameState, f: dict[str, Any], won: str | None) -> dict[str, Any]:
        """What a faceoff's result gives: Studious tokens, a defeated troublemaker and its
        points or a character to send home, a problem's bonus. Returns what it gave, so a
        result guessed from a flip nobody saw can be taken back (`_revise`)."""
        awarded: dict[str, Any] = {"points": {}, "tokens": {}, "defeated": False}
        if won is not None and any(fx.has(state, u, "Studious") for u in f["sides"][won]):
            fx.add_tokens(state, won, numbers.STUDIOUS_TOKENS)
            awarded["tokens"] = {won: numbers.STUDIOUS_TOKENS}
        if f["kind"] != "troublemaker":
            if won is not None:
                fx.add_points(state, won, fo.prize(state, f))
                awarded["points"] = {won: fo.prize(state, f)}
            return awarded
        challenger = str(f["challenger"])
        target = str(f["target"])
        if won == challenger and target in state.where:
            points = state.facts(target).number("points")
            fx.add_points(state, challenger, points)
            awarded["points"] = {challenger: points}
            self._leave_table(state, target, fx.discard(state.owner[target]))
            awarded["defeated"] = True
        elif won is not None:
            zone = f["zones"][0]
            # one of the characters that faced off; when none could (all exhausted or
            # frightened), one of the challenger's characters at that problem
            left = [u for u in f["sides"][challenger] if state.where.get(u) == zone] or \
                fx.characters_of(state, challenger, (zone,))
            if left:
                flags(state)["send_home"] = {"player": challenger, "zone": zone,
                                            "cards": left}
        return awarded

    def _revise(self, state: GameState, result: str, confirmed: bool = False) -> None:
        """The faceoff a flip nobody saw decided ended with `result` after all (the table or
        a person shows it): what the guessed result gave is taken back, `result`'s given.
        `confirmed`: the table or a person said so (then its points may win the game)."""
        record = flags(state).get("unseen_faceoff")
        if not record:
            return
        record["confirmed"] = record.get("confirmed", False) or confirmed
        if record["won"] == result:
            return
        f = record["faceoff"]
        given = record["awarded"]
        for p, n in given["points"].items():
            fx.add_points(state, p, -int(n))
        for p, n in given["tokens"].items():
            fx.add_tokens(state, p, -int(n))
        target = f.get("target")
        if given["defeated"] and target in state.where:
            state.move(str(target), f["zones"][0])
        flags(state)["send_home"] = None
        won = None if result == "none" else result
        record["awarded"] = self._settle(state, f, won)
        record["won"] = result
        flags(state)["last_faceoff"] = won
        summaries = flags(state).get("faceoffs", [])
        if 0 <= int(record.get("summary", -1)) < len(summaries):
            summaries[int(record["summary"])]["winner"] = result

    def _open_result(self, state: GameState, result: str) -> bool:
        """Whether the last faceoff, decided by a flip nobody saw, may have ended with
        `result` ("p1", "p2", "none") though another was applied."""
        record = flags(state).get("unseen_faceoff")
        return record is not None and result in record["results"]

    def _guessed_loss(self, state: GameState) -> bool:
        """The send-home due stems from a lost faceoff guessed from a flip nobody saw, and a
        tie was as possible."""
        record = flags(state).get("unseen_faceoff")
        if record is None or not flags(state).get("send_home"):
            return False
        return record["won"] != "none" and "none" in record["results"]

    def _replace_problem(self, state: GameState, zone: str) -> None:
        """Characters home, resources removed, troublemakers stay, the problem to the bottom
        of its problem deck; the next one comes from the top (a `new-problem` move)."""
        problem = fx.problem_at(state, zone)
        if problem is None:
            return
        for uid in list(state.cards_in(zone)):
            kind = fx.kind(state, uid)
            if kind in fx.CHARACTER_TYPES:
                self._relocate(state, uid, fx.home(state.owner[uid]))
            elif kind == "resource" and uid not in state.attached:
                self._leave_table(state, uid, fx.discard(state.owner[uid]))
        owner = state.owner[problem]
        state.move(problem, fx.problem_deck(owner), bottom=True)
        state.public.add(problem)
        flags(state).get("confronted", {}).pop(problem, None)
        flags(state).setdefault("solved", []).append(problem)
        due = flags(state).setdefault("problem_due", [])
        if owner not in due:
            due.append(owner)

    def _loss_not_guessed(self, state: GameState, player: str) -> SendHome | None:
        """The send-home `player` would owe had they lost the last challenge, which a flip
        nobody saw decided otherwise: a person sending one home says they lost."""
        record = flags(state).get("unseen_faceoff")
        if not record or flags(state).get("send_home"):
            return None
        f = record["faceoff"]
        if f["kind"] != "troublemaker" or f["challenger"] != player or \
                not self._open_result(state, other(player)):
            return None
        probe = state.clone()
        self._revise(probe, other(player))
        return flags(probe).get("send_home")

    def _apply_send_home(self, state: GameState, move: Move) -> None:
        if not flags(state).get("send_home") and \
                self._loss_not_guessed(state, move.player) is not None:
            self._revise(state, other(move.player), confirmed=True)
        uid = move.card
        if uid in state.where:
            self._relocate(state, uid, fx.home(state.owner[uid]))
        due = flags(state).get("send_home")
        if due and due["player"] == move.player:
            flags(state)["send_home"] = None

    def _apply_new_problem(self, state: GameState, move: Move) -> None:
        p = move.player
        pile = fx.problem_deck(p)
        uid = move.cards[0] if move.cards else state.top(pile)
        if uid is None or uid not in state.where:
            return
        state.resolve(uid, pile)
        state.move(uid, fx.problem_zone(p))
        due = flags(state).get("problem_due", [])
        if p in due:
            due.remove(p)

    def _apply_boost(self, state: GameState, move: Move) -> None:
        uid = move.card
        if uid not in state.where:
            return
        if uid not in flags(state)["boosted"]:
            flags(state)["boosted"].append(uid)
        back = move.option("back")
        if back:
            flags(state)["mane_backs"][back] = uid

    def _apply_modify(self, state: GameState, move: Move) -> None:
        uid = move.target or move.card
        amount = move.value if isinstance(move.value, int) else 0
        mods = flags(state).setdefault("power_mods", {})
        mods[uid] = int(mods.get(uid, 0)) + amount

    def _apply_identify(self, state: GameState, move: Move) -> None:
        uid = move.card
        zone = move.to or ""
        if uid in state.where and state.resolve(uid, zone) and not state.is_hidden(zone):
            state.face_down.discard(uid)
            state.public.add(uid)

    def _apply_remove(self, state: GameState, move: Move) -> None:
        uid = move.card
        to = move.to or fx.discard(state.owner.get(uid, move.player))
        if uid not in state.where or to not in state.zones:
            return
        if state.is_hidden(state.where[uid]):
            state.resolve(uid, state.where[uid])
        self._leave_table(state, uid, to)

    # ================================================================== after every move
    def after_move(self, state: GameState) -> None:
        self._read_declarations(state)
        if state.phase == "setup" and not self._setup_missing(state):
            self.flow.advance(state)
        order = [state.active, other(state.active)]
        for p in order:
            if fx.points(state, p) >= numbers.WIN_POINTS and not self._guessed_win(state, p):
                state.outcome = Outcome(
                    p, "points",
                    f"{p} reached {fx.points(state, p)} points",
                    f"{p} hat {fx.points(state, p)} Punkte erreicht",
                )
                return

    @staticmethod
    def _guessed_win(state: GameState, player: str) -> bool:
        """`player`'s points include some that a faceoff decided by a flip nobody saw gave on
        the guess: no win on that until the table or a person confirms it, or the game goes
        on (the result then stands)."""
        record = flags(state).get("unseen_faceoff")
        return record is not None and not record.get("confirmed") \
            and player in record["awarded"]["points"]

    @staticmethod
    def _read_declarations(state: GameState) -> None:
        """`declare` corrections of points and action tokens from the page."""
        declared = flags(state).get("declared", [])
        start = int(flags(state).get("declared_seen", 0))
        for player, text in declared[start:]:
            for what in ("points", "tokens"):
                for sign in ("=", "+", "-"):
                    prefix = f"{what}{sign}"
                    if not str(text).startswith(prefix):
                        continue
                    try:
                        amount = int(str(text)[len(prefix):])
                    except ValueError:
                        continue
                    values = flags(state)["points" if what == "points" else "tokens"]
                    if sign == "=":
                        values[player] = amount
                    else:
                        values[player] = int(values.get(player, 0)) + (
                            amount if sign == "+" else -amount)
        flags(state)["declared_seen"] = len(declared)

    # ================================================================== interpreter
    def pile_zones(self) -> list[str]:
        return list(mlp_interpret.PILES)

    def explain(self, state: GameState, diff: SnapshotDiff, hints: Mapping[str, Any]
                ) -> list[list[Move]]:
        return mlp_interpret.explain(state, diff, hints)

    def doubtful_reading(self, state: GameState, seen: tuple[tuple[Move, str], ...]) -> bool:
        """A card drawn read as bought in the main phase: the action tokens paid for it lie
        beside the table, unseen, so an illegal draw in the ready phase looks the same."""
        return any(move.kind == "draw" and phase == "main" for move, phase in seen)

    # ================================================================== reading
    def prompt(self, state: GameState, lang: str = "en") -> Prompt:
        """The phase prompt, plus what a running faceoff or a lost challenge asks for."""
        extra: list[Text] = []
        f = fo.current(state)
        if f is not None:
            first = other(state.active)
            extra.append(Text(
                f"faceoff: both players flip the top card of their deck (power only); "
                f"Faceoff events and actions alternate, {first} first",
                f"Konfrontation: beide Spieler decken die oberste Deckkarte auf (nur Kraft); "
                f"Faceoff-Events und -Aktionen abwechselnd, {first} beginnt"))
        due = flags(state).get("send_home")
        if due:
            extra.append(Text(f"{due['player']} sends one character at {due['zone']} home",
                            f"{due['player']} schickt einen Charakter von {due['zone']} "
                            f"nach Hause"))
        for p in flags(state).get("problem_due", []):
            extra.append(Text(f"{p} brings the top problem of the problem deck into play",
                            f"{p} bringt das oberste Problem des Problemdecks ins Spiel"))
        extra.append(Text(
            "Reactions: the player who did not cause the trigger may react first, then "
            "alternating",
            "Reaktionen: zuerst darf der Spieler reagieren, der die Auslösung nicht verursacht "
            "hat, dann abwechselnd"))
        return self.flow.prompt(state, lang, tuple(t.get(lang) for t in extra))

    def scores(self, state: GameState) -> dict[str, Score]:
        return {
            p: Score(
                player=p, value=fx.points(state, p), label_en="points", label_de="Punkte",
                details=(
                    ("action_tokens", fx.tokens(state, p)),
                    ("hand", state.count(hand_zone(p))),
                    ("home_limit", fx.home_limit(state, p)),
                ),
            )
            for p in PLAYERS
        }

    def expect_value(self, state: GameState, key: str) -> Any:
        if key == "action_tokens":
            return {p: fx.tokens(state, p) for p in PLAYERS}
        if key == "points":
            return {p: fx.points(state, p) for p in PLAYERS}
        if key == "solved":
            return list(flags(state).get("solved", []))
        if key == "faceoff":
            return flags(state).get("last_faceoff")
        if key == "frightened":
            return list(flags(state).get("frightened", []))
        if key == "home_limit":
            return {p: fx.home_limit(state, p) for p in PLAYERS}
        return super().expect_value(state, key)

    def view_extra(self, state: GameState, observer: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in PLAYERS:
            mane = fx.mane_of(state, p)
            out[p] = {
                "action_tokens": fx.tokens(state, p),
                "points": fx.points(state, p),
                "mane": mane,
                "boosted": bool(mane and fx.boosted(state, mane)),
                "home_limit": fx.home_limit(state, p),
                "friends_at_home": len(fx.friends_at_home(state, p)),
            }
        out["frightened"] = list(flags(state).get("frightened", []))
        out["confronted"] = {k: list(v) for k, v in flags(state).get("confronted", {}).items()}
        out["problem_due"] = list(flags(state).get("problem_due", []))
        f = fo.current(state)
        if f is not None:
            out["faceoff"] = {
                "kind": f["kind"], "zones": list(f["zones"]), "target": f["target"],
                "flips": {p: list(v) for p, v in f["flips"].items()},
                "totals": {p: fo.side_total(state, f, p) for p in PLAYERS},
                "actions_first": other(state.active),
            }
        out["last_faceoff"] = flags(state).get("last_faceoff")
        return out

    def illegal_examples(self, state: GameState) -> list[Move]:
        examples = super().illegal_examples(state)
        p = state.active
        examples.append(Move("send-home", p, ("nobody#1",)))
        examples.append(Move("move", p, ("nope#1",), to=fx.home(p)))
        if state.phase != "setup":
            examples.append(Move("starting-problem", p, ("nope#1",)))
            examples.append(Move("play", other(p), (UNKNOWN,), to=fx.home(other(p))))
        return examples


MOVES: MoveTable[MyLittlePony] = MoveTable(
    MoveRule("starting-problem", MyLittlePony._check_starting_problem,
             MyLittlePony._apply_starting_problem,
             "{player} brings {cards} into play as starting problem",
             "{player} bringt {cards} als Startproblem ins Spiel"),
    MoveRule("draw", MyLittlePony._check_draw, MyLittlePony._apply_draw,
             "{player} draws a card",
             "{player} zieht eine Karte"),
    MoveRule("reveal", MyLittlePony._check_reveal, MyLittlePony._apply_reveal,
             "{player} uncovers {cards}",
             "{player} deckt {cards} auf",
             phases=TURN_PHASES),
    MoveRule("challenge", MyLittlePony._check_challenge, MyLittlePony._apply_challenge,
             "{player} challenges {target}",
             "{player} fordert {target} heraus",
             phases=TURN_PHASES),
    MoveRule("play", MyLittlePony._check_play, MyLittlePony._apply_play,
             "{player} plays {cards} to {to}",
             "{player} spielt {cards} nach {to}",
             phases=TURN_PHASES),
    MoveRule("play-troublemaker", MyLittlePony._check_play_troublemaker,
             MyLittlePony._apply_play_troublemaker,
             "{player} plays a troublemaker face down at {to}",
             "{player} legt einen Widersacher verdeckt an {to}",
             phases=TURN_PHASES),
    MoveRule("move", MyLittlePony._check_move, MyLittlePony._apply_move,
             "{player} moves {cards} to {to}",
             "{player} bewegt {cards} nach {to}",
             phases=TURN_PHASES),
    MoveRule("discard", MyLittlePony._check_discard, MyLittlePony._apply_discard,
             "{player} discards {cards}",
             "{player} legt {cards} ab",
             phases=TURN_PHASES),
    MoveRule("retire", MyLittlePony._check_retire, MyLittlePony._apply_retire,
             "{player} retires {cards} from home",
             "{player} legt {cards} aus dem Zuhause ab",
             phases=TURN_PHASES),
    MoveRule("new-problem", MyLittlePony._check_new_problem, MyLittlePony._apply_new_problem,
             "{player} brings a new problem into play",
             "{player} bringt ein neues Problem ins Spiel",
             phases=TURN_PHASES),
    MoveRule("flip", MyLittlePony._check_flip, MyLittlePony._apply_flip,
             "{player} flips for the faceoff",
             "{player} deckt für die Konfrontation auf",
             phases=TURN_PHASES),
    MoveRule("keep", MyLittlePony._check_keep, MyLittlePony._apply_keep,
             "{player} keeps the flipped card",
             "{player} behält die aufgedeckte Karte",
             phases=TURN_PHASES),
    MoveRule("send-home", MyLittlePony._check_send_home, MyLittlePony._apply_send_home,
             "{player} sends {cards} home",
             "{player} schickt {cards} nach Hause",
             phases=TURN_PHASES),
    MoveRule("exhaust", MyLittlePony._check_exhaust, apply_tap,
             "{cards} exhausted",
             "{cards} erschöpft"),
    MoveRule("ready", MyLittlePony._check_ready, apply_untap,
             "{cards} readied",
             "{cards} bereit"),
    MoveRule("boost", MyLittlePony._check_boost, MyLittlePony._apply_boost,
             "{player} boosts {cards}",
             "{player} boostet {cards}"),
    MoveRule("modify", MyLittlePony._check_modify, MyLittlePony._apply_modify,
             "{target} gets {value} power",
             "{target} erhält {value} Kraft"),
    MoveRule("identify", MyLittlePony._check_identify, MyLittlePony._apply_identify,
             "{cards} seen at {to}",
             "{cards} an {to} gesehen"),
    MoveRule("remove", MyLittlePony._check_remove, MyLittlePony._apply_remove,
             "{cards} moved to {to}",
             "{cards} kam nach {to}"),
    MoveRule("faceoff-won", MyLittlePony._check_faceoff_won, MyLittlePony._apply_faceoff_won,
             "{player} won the faceoff",
             "{player} hat die Konfrontation gewonnen",
             phases=TURN_PHASES),
    MoveRule("faceoff-tied", MyLittlePony._check_faceoff_tied,
             MyLittlePony._apply_faceoff_tied,
             "nobody won the faceoff (a tie)",
             "niemand hat die Konfrontation gewonnen (Gleichstand)",
             phases=TURN_PHASES),
    checks=CHECKS,
)
"""My Little Pony's own move kinds; those without phases happen at any time (the setup's
starting problem and draws are checked by `check_specific` itself)."""
MyLittlePony.moves = MOVES
