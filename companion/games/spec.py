"""`GameSpec`: everything the rest of the companion needs to know about one game.

A game is one folder, `companion/games/<game>/`, whose `spec.py` defines `SPEC = GameSpec(...)`,
and one line in `companion.games.GAME_SPECS`. The server, vision, simulator, printing, decks and
cardsets ask the registry for a game's spec instead of keeping their own per-game lists.

The ruleset and the violation texts are named by "module:attribute" and imported on first use,
so listing the games (a `--game` choice, a page's menu) never imports five rulebooks.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cardsets.deck_problems import DeckCheck
from companion.cardsets.schema import GameSchema
from companion.errors import CompanionError
from companion.markers.payload import PayloadError, encode_front

if TYPE_CHECKING:
    from companion.engine.effects import EffectCompiler
    from companion.engine.ruleset import Ruleset
    from companion.engine.texts import ViolationCatalog

PLAYERS = ("p1", "p2")


def each_player(*names: str) -> tuple[str, ...]:
    """Zone ids `p1.<name>` ... then `p2.<name>` ..., for a spec's `zones`."""
    return tuple(f"{p}.{n}" for p in PLAYERS for n in names)


class GameSpecError(CompanionError):
    """A game spec that contradicts itself (a zone it names but does not have, ...)."""


@dataclass(frozen=True)
class SimHints:
    """How the table simulator lays this game's cards (companion.sim)."""

    covering: bool = False
    """A card laid on a card covers it squarely (a Fire Emblem level-up, a Challengers! attack
    stack: only the top card shows). Otherwise it lies beside it, overlapping its side edge,
    so both stickers stay in view (equipment, a resource on a character)."""


@dataclass(frozen=True)
class PrintHints:
    """What `companion print` makes for this game besides card stickers and the mat."""

    dice: tuple[tuple[str, int], ...] = ()
    """Die kinds (the letter in die names `pN.<kind><k>`) and how many each player has."""
    tokens: tuple[str, ...] = ()
    """Two-sided tokens (one sticker per side)."""
    whole_cardset: bool = False
    """No fixed decks (one shared pile, or decks built in play): print every card by default."""
    twin_stickers: bool = False
    """Print two stickers per card face, one at each end (`companion.markers.placement`), by
    default: the game's mat lays no card over another's end, so both ends stay in view. Not
    where rows overlap along the cards' length (Creature Crush, Fire Emblem Cipher): there a
    neighbour covers an end, and the one sticker in the middle reads better (docs/markers.md)."""

    def dice_names(self) -> list[str]:
        """Every die of the game, p1's before p2's: `p1.w1`, ..."""
        return [f"{player}.{kind}{k}" for player in PLAYERS for kind, count in self.dice
                for k in range(1, count + 1)]


@dataclass(frozen=True)
class TableFact:
    """One thing the rules know and the table does not show (an action token count, a lane
    limit, a lord), as a game's `table_facts` hook reports it; the page prints it beside the
    player's half of the mat (companion.server.facts), hand and pile sizes it adds itself."""

    key: str
    label_en: str
    label_de: str
    value: str | int | Mapping[str, int] | None
    value_de: str | None = None
    """The value in German where it differs (a colour, a word); None: as `value`."""
    warn: bool = False
    """Something is owed or over a limit (the page marks it)."""
    words: str = "plain"
    """How the page words the value: "plain" (as it is), "engine" (the engine's words: card
    ids, zone ids, p1/p2 and dice become the names the table uses), "dice" (a mapping die id ->
    value, each die said with its colour)."""

    def __post_init__(self) -> None:
        if self.words not in ("plain", "engine", "dice"):
            raise GameSpecError(f"fact {self.key}: unknown wording {self.words!r}")
        if (self.words == "dice") != isinstance(self.value, Mapping):
            raise GameSpecError(f"fact {self.key}: dice (and only dice) are a mapping")


TableFacts = dict[str, list[TableFact]]
"""`{"p1": [...], "p2": [...], "shared": [...]}`."""


def _load(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


@dataclass(frozen=True)
class GameSpec:
    """One game: identity, rules, table, cards, decks, texts and hints for the other parts."""

    id: str
    """Stable id (`trick-or-beat`): file names, recordings, URLs."""
    name: str
    code: int
    """Numeric code in every card-front and corner marker: never changes once printed."""
    rules_file: str
    """The rulebook's file name (rules/<file>, German)."""
    ruleset: str
    """"module:Class" of the game's `Ruleset`, imported on first use."""
    zones: tuple[str, ...]
    """The canonical zone ids (DESIGN.md "Zone ids"); every mat layout must have them."""
    card_schema: GameSchema
    deck_rules: DeckCheck
    """Deck-building rules beyond the common ones (unknown cards, unused deck fields)."""
    texts: str
    """"module:attr" of the game's `ViolationCatalog` (every violation code, both languages)."""
    draw_piles: tuple[str, ...] = ("deck",)
    """Zone names of face-down draw piles; the first is each player's deck (or `shared.deck`)."""
    person_moves: frozenset[str] = frozenset()
    """Move kinds only a person can tell the companion (the camera cannot see them)."""
    card_types_de: Mapping[str, str] = field(default_factory=dict)
    """Card types as the German rulebook names them."""
    sim: SimHints = SimHints()
    printing: PrintHints = PrintHints()
    layout_file: Path | None = None
    """The mat layout; None: `calibration/layouts/<id>.yaml`."""
    cardset_dir: Path | None = None
    """The folder of card files (and `decks/`); None: `cardsets/<id>/`."""
    card_effects: str | None = None
    """"module:function" `(CardFacts) -> tuple[Ability, ...]`: the game's effect compiler, run
    once per card when its cards load (the engine's catalog, `companion cardset check`); it
    turns card texts and `effects` lists into the engine's typed vocabulary
    (`companion.engine.effects`) and raises `EffectError` naming the card for a malformed one.
    None: the game's cards have no modelled effects."""
    table_facts: str | None = None
    """"module:function" `(table view) -> TableFacts`: what the rules know and the table does
    not show, per player and shared, read from the engine's public view (`Game.view("table")`)
    so nothing hidden can reach the page. None: the page shows hand and pile sizes only."""

    def __post_init__(self) -> None:
        try:
            encode_front(self.code, 0, 1)
        except PayloadError as exc:
            raise GameSpecError(f"{self.id}: marker code {self.code}: {exc}") from None
        if self.card_schema.game != self.id:
            raise GameSpecError(f"{self.id}: its card schema is for {self.card_schema.game!r}")
        if not any(self.deck_zone_of(p) for p in PLAYERS):
            raise GameSpecError(f"{self.id}: no draw pile {self.draw_piles[0]!r} among its zones")

    # ------------------------------------------------------------------ lazily loaded parts
    def load_ruleset(self) -> Ruleset:
        """A new instance of the game's ruleset (the registry keeps one per game)."""
        cls = _load(self.ruleset)
        ruleset: Ruleset = cls()
        return ruleset

    @cached_property
    def effect_compiler(self) -> EffectCompiler | None:
        """The game's effect compiler (`card_effects`), imported on first use."""
        if self.card_effects is None:
            return None
        compiler: EffectCompiler = _load(self.card_effects)
        return compiler

    @cached_property
    def violations(self) -> ViolationCatalog:
        catalog: ViolationCatalog = _load(self.texts)
        return catalog

    def facts_of(self, view: Mapping[str, Any]) -> TableFacts:
        """The game's own table facts (`table_facts`) of a table view; every side present."""
        found: Mapping[str, list[TableFact]] = _load(self.table_facts)(view) if (
            self.table_facts) else {}
        if unknown := set(found) - {*PLAYERS, "shared"}:
            raise GameSpecError(f"{self.id}: table facts for no side of the table: "
                                f"{sorted(unknown)}")
        return {side: list(found.get(side, [])) for side in (*PLAYERS, "shared")}

    # ------------------------------------------------------------------ table
    def deck_zone_of(self, player: str) -> str | None:
        own = f"{player}.{self.draw_piles[0]}"
        if own in self.zones:
            return own
        return "shared.deck" if "shared.deck" in self.zones else None

    def deck_zone(self, player: str) -> str:
        """Where `player` draws from: their own deck pile, or the shared one."""
        zone = self.deck_zone_of(player)
        if zone is None:
            raise GameSpecError(f"{self.id} has no deck zone for {player}")
        return zone

    def is_draw_pile(self, zone: str) -> bool:
        """A face-down draw pile (its cards are not laid out on the table)."""
        return zone in self.zones and zone.split(".", 1)[1] in self.draw_piles

    def type_de(self, card_type: str) -> str:
        return self.card_types_de.get(card_type, card_type)
