"""A Challengers! tournament: seven rounds of deck phase and match phase, fans, the final.

One camera referees one match (the `Challengers` ruleset); the tournament spans all matches
and tables: it holds every player's deck, runs the deck phases (five cards from the round's
level stack, one redraw, keep one or two, Ausgewählt, slimming), pairs the seats each round,
builds each match's `GameConfig`, records results (trophy of the round with its fans, fans from
card effects) and decides the game: for one or two players an 11-fan lead after a match phase
or the most fans after round 7; for three to eight a final between the two with the most fans
(ties: more trophies, then the higher round trophy; still tied: lots). An odd player count
seats the bot; with three to seven players its trophies go back to the box.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.engine.api import GameConfig
from companion.engine.cards import Catalog
from companion.errors import CompanionError
from companion.games.challengers import effects as fx
from companion.games.challengers.decks import CardPool, choose_sets
from companion.games.challengers.numbers import (
    EARLY_WIN_LEAD,
    KEEP_MAX,
    KEEP_MIN,
    NO_FINAL_MAX_PLAYERS,
    OFFER,
    ROUNDS,
)
from companion.games.challengers.plan import (
    BOT,
    DEFAULT_LEVELS,
    check_levels,
    pairings,
    seats_for,
    trophy_range,
)

if TYPE_CHECKING:
    from companion.engine.game import Game

FINAL = ROUNDS + 1
STAGES_DE = {"deck": "Deck-Phase", "match": "Match-Phase", "final-deck": "vor dem Finale",
             "final": "Finale", "over": "vorbei"}
"""The tournament's stages as German judges and players call them (refusals in German)."""


class TournamentError(CompanionError):
    """A tournament step the rules do not allow now (wrong stage, unknown player, ...)."""


@dataclass(frozen=True)
class Match:
    """One match of a round: `a` sits at p1, `b` at p2; `starter` opens with the flag."""

    round: int
    a: str
    b: str
    starter: str

    @property
    def final(self) -> bool:
        return self.round == FINAL

    def seat(self, name: str) -> str:
        if name == self.a:
            return "p1"
        if name == self.b:
            return "p2"
        raise TournamentError(f"{name} does not play in the match {self.a} - {self.b}",
                              de=f"{name} spielt nicht im Match {self.a} - {self.b}")

    def name(self, seat: str) -> str:
        return self.a if seat == "p1" else self.b


@dataclass(frozen=True)
class Trophy:
    round: int
    fans: int


@dataclass
class Seat:
    """One seat's tournament state."""

    name: str
    deck: list[str]
    trophies: list[Trophy] = field(default_factory=list)
    fan_tokens: int = 0

    @property
    def fans(self) -> int:
        return self.fan_tokens + sum(t.fans for t in self.trophies)

    @property
    def best_round(self) -> int:
        return max((t.round for t in self.trophies), default=0)

    def rank_key(self) -> tuple[int, int, int]:
        """Most fans; ties: more trophies, then the trophy of the higher round."""
        return (self.fans, len(self.trophies), self.best_round)


@dataclass
class DeckPhase:
    """One player's deck phase: the cards offered, whether the redraw is used, the choice."""

    offer: list[str] = field(default_factory=list)
    drawn: bool = False
    redrawn: bool = False
    chosen: list[str] = field(default_factory=list)
    done: bool = False


@dataclass(frozen=True)
class Standing:
    name: str
    fans: int | None
    trophies: int
    best_round: int
    fan_tokens: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "fans": self.fans, "trophies": self.trophies,
                "best_round": self.best_round, "fan_tokens": self.fan_tokens}


class Tournament:
    """Rounds, decks, pairings, fans and the final of one game of Challengers!."""

    def __init__(self, players: Sequence[str], bot_difficulty: int = 1, seed: int = 0,
                 levels: Sequence[str] = DEFAULT_LEVELS, sets: Iterable[str] | None = None
                 ) -> None:
        self.players = list(players)
        self.seats_order = seats_for(self.players)
        self.rng = random.Random(f"challengers-tournament:{seed}")
        self.seed = seed
        self.levels = check_levels(levels)
        self.sets = choose_sets(self.rng, sets)
        self.pool = CardPool()
        self.catalog = Catalog.for_game("challengers")
        self.seats: dict[str, Seat] = {n: Seat(n, self.pool.start_deck()) for n in self.players}
        self.has_bot = BOT in self.seats_order
        if self.has_bot:
            self.seats[BOT] = Seat(BOT, self.pool.bot_deck(bot_difficulty, self.rng))
        self.stacks = {lv: self.pool.level_stack(lv, self.sets, self.rng) for lv in "ABC"}
        self.discards: list[str] = []
        self.round = 1
        self.stage = "deck"
        self.phases: dict[str, DeckPhase] = {n: DeckPhase() for n in self.players}
        self.matches: list[Match] = []
        self.results: dict[Match, str] = {}
        self._given: dict[Match, tuple[dict[str, int], Trophy | None, str | None]] = {}
        """What each result gave: effect fans per seat, the trophy and who holds it."""
        self.finalists: tuple[str, str] | None = None
        self.winner: str | None = None
        self.end_reason = ""
        self._pair_round()

    # ------------------------------------------------------------------ basics
    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def small(self) -> bool:
        """One or two players: no final, open fans, the early win."""
        return len(self.players) <= NO_FINAL_MAX_PLAYERS

    @property
    def fans_visible(self) -> bool:
        return self.small or self.stage in ("final-deck", "final", "over")

    def seat(self, name: str) -> Seat:
        try:
            return self.seats[name]
        except KeyError:
            players = ", ".join(self.seats_order)
            raise TournamentError(f"no player {name!r}; players: {players}",
                                  de=f"kein Spieler {name!r}; Spieler: {players}") from None

    def _need(self, *stages: str) -> None:
        if self.stage not in stages:
            raise TournamentError(f"not possible in the {self.stage} stage "
                                  f"(round {self.round}); needs {' or '.join(stages)}",
                                  de=f"in der Turnierstufe {STAGES_DE[self.stage]} (Runde "
                                     f"{self.round}) nicht möglich; nötig: "
                                     f"{' oder '.join(STAGES_DE[s] for s in stages)}")

    def level(self) -> str:
        return self.levels[self.round - 1]

    # ------------------------------------------------------------------ deck phase
    def _phase_of(self, name: str) -> DeckPhase:
        self._need("deck")
        if name == BOT:
            raise TournamentError("the bot takes no part in the deck phase",
                                  de="der Bot nimmt an der Deck-Phase nicht teil")
        self.seat(name)
        return self.phases[name]

    def _draw(self, count: int) -> list[str]:
        """Cards from the round's level stack; a used-up stack is refilled by shuffling the
        discarded cards of its level back in (as far as there are any)."""
        level = self.level()
        stack = self.stacks[level]
        if len(stack) < count:
            back = [u for u in self.discards
                    if self.catalog.of_uid(u).get("level") == level
                    and self.catalog.of_uid(u).type == "recruit"]
            self.discards = [u for u in self.discards if u not in back]
            self.rng.shuffle(back)
            stack[:0] = back
        drawn = stack[-count:] if count else []
        del stack[len(stack) - len(drawn):]
        return list(reversed(drawn))

    def draw_offer(self, name: str) -> list[str]:
        """Five cards from the round's level stack for `name` to choose from."""
        phase = self._phase_of(name)
        if phase.drawn:
            raise TournamentError(f"{name} has drawn this round's cards already",
                                  de=f"{name} hat die Karten dieser Runde schon gezogen")
        phase.offer = self._draw(OFFER)
        phase.drawn = True
        return list(phase.offer)

    def redraw(self, name: str, discard: Iterable[str]) -> list[str]:
        """Once per deck phase: discard some offered cards and draw as many new ones."""
        phase = self._phase_of(name)
        cards = list(discard)
        if phase.redrawn:
            raise TournamentError(f"{name} has used the redraw of this deck phase",
                                  de=f"{name} hat in dieser Deck-Phase schon neu gezogen")
        if not phase.drawn or phase.done:
            raise TournamentError(f"{name} has no offered cards to redraw",
                                  de=f"{name} hat keine angebotenen Karten zum Neuziehen")
        wrong = [c for c in cards if c not in phase.offer]
        if wrong or len(set(cards)) != len(cards):
            shown = self._cards(wrong) if wrong else ", ".join(
                c for c in set(cards) if cards.count(c) > 1)
            raise TournamentError(f"{name} can only redraw offered cards, each once; not so: "
                                  f"{shown}",
                                  de=f"{name} kann nur angebotene Karten neu ziehen, jede "
                                     f"einmal; nicht so: {shown}")
        for uid in cards:
            phase.offer.remove(uid)
            self.discards.append(uid)
        phase.offer += self._draw(len(cards))
        phase.redrawn = True
        return list(phase.offer)

    def _cards(self, uids: Iterable[str]) -> str:
        """Cards as a refusal names them: the printed name, then the id people type."""
        shown = []
        for uid in uids:
            try:
                shown.append(f"{self.catalog.of_uid(uid).name} ({uid})")
            except (KeyError, ValueError):
                shown.append(uid)
        return ", ".join(shown)

    def _not_in_deck(self, uid: str, name: str) -> TournamentError:
        card = self._cards([uid])
        return TournamentError(f"{card} is not in {name}'s deck",
                               de=f"{card} ist nicht in dem Deck von {name}")

    def removals_owed(self, kept: Iterable[str]) -> int:
        """Ausgewählt: cards to remove from the deck for choosing `kept`."""
        return sum(
            e.amount for uid in kept
            for e in fx.card_effects(self.catalog.of_uid(uid))
            if e.when == "chosen" and e.do == "remove-from-deck"
        )

    def choose(self, name: str, keep: Iterable[str], remove: Iterable[str] = (),
               slim: Iterable[str] = ()) -> list[str]:
        """Keep one or two offered cards (Ausgewählt effects remove `remove` from the deck),
        then slim the deck by `slim`; the other offered cards are discarded."""
        phase = self._phase_of(name)
        kept, removed, slimmed = list(keep), list(remove), list(slim)
        if not phase.drawn or phase.done:
            raise TournamentError(f"{name} has no offered cards to choose from",
                                  de=f"{name} hat keine angebotenen Karten zur Auswahl")
        low = KEEP_MIN if phase.offer else 0  # an exhausted stack offers nothing
        if not low <= len(kept) <= KEEP_MAX or len(set(kept)) != len(kept):
            raise TournamentError(f"{name} keeps {KEEP_MIN} or {KEEP_MAX} of the offered cards, "
                                  f"not {len(kept)}",
                                  de=f"{name} behält {KEEP_MIN} oder {KEEP_MAX} der angebotenen "
                                     f"Karten, nicht {len(kept)}")
        wrong = [c for c in kept if c not in phase.offer]
        if wrong:
            raise TournamentError(f"{name} was not offered {self._cards(wrong)}",
                                  de=f"{name} wurde nicht angeboten: {self._cards(wrong)}")
        seat = self.seat(name)
        deck = seat.deck + kept
        owed = min(self.removals_owed(kept), len(deck))
        if len(removed) != owed:
            cards = "card" if owed == 1 else "cards"
            karten = "Karte" if owed == 1 else "Karten"
            raise TournamentError(f"{name} removes {owed} {cards} from the deck (Ausgewählt), "
                                  f"got {len(removed)}",
                                  de=f"{name} entfernt {owed} {karten} aus dem Deck "
                                     f"(Ausgewählt), angegeben: {len(removed)}")
        for uid in [*removed, *slimmed]:
            if uid not in deck:
                raise self._not_in_deck(uid, name)
            deck.remove(uid)
            self.discards.append(uid)
        self.discards += [c for c in phase.offer if c not in kept]
        seat.deck = deck
        phase.offer, phase.chosen, phase.done = [], kept, True
        return list(deck)

    def slim(self, name: str, cards: Iterable[str]) -> list[str]:
        """Discard cards from the deck: at the end of a deck phase, or before the final."""
        if self.stage == "final-deck":
            if self.finalists is None or name not in self.finalists:
                raise TournamentError(f"only the finalists slim their decks now, not {name}",
                                      de=f"jetzt verkleinern nur die Finalisten ihr Deck, "
                                         f"nicht {name}")
        else:
            phase = self._phase_of(name)
            if not phase.done:
                raise TournamentError(f"{name} chooses the new cards before slimming",
                                      de=f"{name} wählt erst die neuen Karten, dann wird das "
                                         f"Deck verkleinert")
        seat = self.seat(name)
        for uid in cards:
            if uid not in seat.deck:
                raise self._not_in_deck(uid, name)
            seat.deck.remove(uid)
            self.discards.append(uid)
        return list(seat.deck)

    def end_deck_phase(self) -> list[Match]:
        """Every player has chosen: the match phase begins (the final's: after slimming)."""
        if self.stage == "final-deck":
            self.stage = "final"
            return list(self.matches)
        self._need("deck")
        missing = [n for n, ph in self.phases.items() if not ph.done]
        if missing:
            raise TournamentError(f"still choosing cards: {', '.join(missing)}",
                                  de=f"wählen noch Karten: {', '.join(missing)}")
        self.stage = "match"
        return list(self.matches)

    # ------------------------------------------------------------------ matches
    def _starter(self, a: str, b: str) -> str:
        """The higher round trophy starts; a tie (and the first match) is decided by lots."""
        ra, rb = self.seat(a).best_round, self.seat(b).best_round
        if ra != rb:
            return a if ra > rb else b
        return self.rng.choice((a, b))

    def _pair_round(self) -> None:
        self.matches = [Match(self.round, a, b, self._starter(a, b))
                        for a, b in pairings(self.seats_order, self.round)]

    def match_of(self, name: str) -> Match:
        for match in self.matches:
            if name in (match.a, match.b):
                return match
        raise TournamentError(f"{name} plays no match now",
                              de=f"{name} spielt gerade kein Match")

    def match_config(self, match: Match, seed: int | None = None) -> GameConfig:
        """The config of one match for the `Challengers` ruleset (a at p1, b at p2)."""
        if match not in self.matches:
            raise TournamentError(f"{match.a} - {match.b} is not a match of this stage",
                                  de=f"{match.a} - {match.b} ist kein Match dieser Stufe")
        return GameConfig(
            game="challengers",
            players=(match.a, match.b),
            decks={"p1": tuple(self.seat(match.a).deck), "p2": tuple(self.seat(match.b).deck)},
            first=match.seat(match.starter),
            seed=self.seed * 100 + match.round if seed is None else seed,
            setup={"round": match.round},
        )

    def record(self, match: Match, winner: str, effect_fans: Mapping[str, int] | None = None,
               trophy_fans: int | None = None) -> Trophy | None:
        """A match result: the winner takes the round's trophy (fans as read from its back,
        else drawn), fans from card effects become fan tokens."""
        self._need("match", "final")
        if match not in self.matches:
            raise TournamentError(f"{match.a} - {match.b} is not a match of this stage",
                                  de=f"{match.a} - {match.b} ist kein Match dieser Stufe")
        if match in self.results:
            raise TournamentError(f"{match.a} - {match.b} has a result already",
                                  de=f"{match.a} - {match.b} hat schon ein Ergebnis")
        if winner not in (match.a, match.b):
            raise TournamentError(f"{winner} did not play {match.a} - {match.b}",
                                  de=f"{winner} hat nicht in {match.a} - {match.b} gespielt")
        effects = dict(effect_fans or {})
        for name, fans in effects.items():
            if name not in (match.a, match.b):
                raise TournamentError(f"{name} did not play {match.a} - {match.b}",
                                      de=f"{name} hat nicht in {match.a} - {match.b} gespielt")
            if fans < 0:
                raise TournamentError(f"fans cannot be negative: {name} {fans}",
                                      de=f"Fans können nicht negativ sein: {name} {fans}")
        if match.final:
            self.results[match] = winner
            self._given[match] = ({}, None, None)
            self.winner, self.end_reason = winner, "final"
            self.stage = "over"
            return None
        low, high = trophy_range(match.round)
        if trophy_fans is None:
            trophy_fans = self.rng.randint(low, high)
        elif not low <= trophy_fans <= high:
            raise TournamentError(f"a round-{match.round} trophy has {low} or {high} fans, "
                                  f"not {trophy_fans}",
                                  de=f"eine Trophäe der Runde {match.round} hat {low} oder "
                                     f"{high} Fans, nicht {trophy_fans}")
        self.results[match] = winner
        keeps = not self.has_bot or self.solo  # 3-7 players: the bot's trophies go to the box
        given: dict[str, int] = {}
        for name, fans in effects.items():
            if name != BOT or keeps:
                self.seat(name).fan_tokens += fans
                given[name] = fans
        trophy = Trophy(match.round, trophy_fans)
        holder = winner if winner != BOT or keeps else None
        if holder is not None:
            self.seat(holder).trophies.append(trophy)
        self._given[match] = (given, trophy, holder)
        return trophy

    def withdraw(self, match: Match) -> Trophy | None:
        """Take a counted result back (its table reopened the game, or the game now ends
        another way) while its round or the final is still being played: the trophy and the
        effect fans it gave come off. Returns the trophy, which goes to the corrected result's
        winner (the same physical trophy)."""
        if match not in self.results or match not in self.matches:
            raise TournamentError(f"{match.a} - {match.b} has no result to take back",
                                  de=f"{match.a} - {match.b} hat kein Ergebnis, das sich "
                                     f"zurücknehmen ließe")
        if self.stage == "over" and not match.final:
            raise TournamentError("the tournament is over: its results stand",
                                  de="das Turnier ist vorbei: seine Ergebnisse bleiben")
        given, trophy, holder = self._given.pop(match)
        for name, fans in given.items():
            self.seat(name).fan_tokens -= fans
        if trophy is not None and holder is not None:
            self.seat(holder).trophies.remove(trophy)
        del self.results[match]
        if match.final:
            self.winner, self.end_reason, self.stage = None, "", "final"
        return trophy

    def record_game(self, match: Match, game: Game, trophy_fans: int | None = None
                    ) -> Trophy | None:
        """Record a refereed match from its ruleset's outcome and effect fans."""
        outcome = game.outcome()
        if outcome is None or outcome.winner is None:
            raise TournamentError("the match has no winner yet",
                                  de="das Match hat noch keinen Sieger")
        fans = {match.name(p): s.value for p, s in game.scores().items()}
        return self.record(match, match.name(outcome.winner), fans, trophy_fans)

    def end_match_phase(self) -> None:
        """All matches played: an early win (1-2 players), the next round, or the final."""
        self._need("match")
        missing = [m for m in self.matches if m not in self.results]
        if missing:
            open_matches = ", ".join(f"{m.a} - {m.b}" for m in missing)
            raise TournamentError(f"matches without a result: {open_matches}",
                                  de=f"Matches ohne Ergebnis: {open_matches}")
        if self.small and self._early_winner():
            return
        if self.round == ROUNDS:
            self._after_last_round()
            return
        self.round += 1
        self.stage = "deck"
        self.phases = {n: DeckPhase() for n in self.players}
        self._pair_round()

    def _contenders(self) -> list[Seat]:
        keeps_bot = self.solo
        return [s for n, s in self.seats.items() if n != BOT or keeps_bot]

    def _early_winner(self) -> bool:
        ranked = sorted(self._contenders(), key=lambda s: s.fans, reverse=True)
        if len(ranked) == 2 and ranked[0].fans - ranked[1].fans >= EARLY_WIN_LEAD:
            self.winner, self.end_reason = ranked[0].name, "lead"
            self.stage = "over"
            return True
        return False

    def _after_last_round(self) -> None:
        ranked = self.ranking()
        if self.small:
            top = ranked[0]
            tied = len(ranked) > 1 and ranked[1].rank_key() == top.rank_key()
            self.winner = None if tied else top.name
            self.end_reason = "tie" if tied else "fans"
            self.stage = "over"
            return
        self.finalists = (ranked[0].name, ranked[1].name)
        a, b = self.finalists
        self.round = FINAL
        self.matches = [Match(FINAL, a, b, self._starter(a, b))]
        self.stage = "final-deck"

    def ranking(self) -> list[Seat]:
        """Seats that can win, best first (ties beyond the rulebook's: by lots)."""
        seats = self._contenders()
        draw = random.Random(f"challengers-lots:{self.seed}")  # one draw for the whole game
        lots = {s.name: draw.random() for s in sorted(seats, key=lambda s: s.name)}
        return sorted(seats, key=lambda s: (s.rank_key(), lots[s.name]), reverse=True)

    def standings(self) -> list[Standing]:
        """Everybody's standing; trophy fans stay hidden (None) until they are revealed."""
        show = self.fans_visible
        if show:  # the ranking's order (its lots too): the finalists are the first two shown
            ranked = self.ranking()
            ordered = ranked + [s for s in self.seats.values() if s not in ranked]
        else:
            ordered = [self.seats[n] for n in self.seats_order]
        return [
            Standing(s.name, s.fans if show else None, len(s.trophies), s.best_round,
                     s.fan_tokens)
            for s in ordered
        ]

    def view(self) -> dict[str, Any]:
        """JSON-ready picture of the tournament for the page."""
        return {
            "players": list(self.players),
            "bot": self.has_bot,
            "round": self.round,
            "stage": self.stage,
            "level": self.level() if self.round <= ROUNDS else None,
            "sets": list(self.sets),
            "matches": [
                {"round": m.round, "p1": m.a, "p2": m.b, "starter": m.starter,
                 "winner": self.results.get(m)}
                for m in self.matches
            ],
            "standings": [s.to_dict() for s in self.standings()],
            "deck_sizes": {n: len(s.deck) for n, s in self.seats.items()},
            "finalists": list(self.finalists) if self.finalists else None,
            "winner": self.winner,
            "end_reason": self.end_reason,
        }
