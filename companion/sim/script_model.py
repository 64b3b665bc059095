"""What a table script is, once read: its steps, setup position, decks and cards.

The parser (`companion.sim.script`) builds these; the true table (`companion.sim.table_state`)
and everything that plays a script consume them. Kept apart from both so neither needs the
other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.games import game_spec
from companion.layouts import load_layout
from companion.snapshot import split_uid

if TYPE_CHECKING:
    from companion.cardsets import Card


@dataclass(frozen=True)
class DiceState:
    value: int
    zone: str


@dataclass(frozen=True)
class Setup:
    """A position to start from instead of the game's beginning (a referee joining late)."""

    turn: int | None = None
    active: str | None = None
    phase: str | None = None
    table: dict[str, list[str]] = field(default_factory=dict)  # zone -> uids, top first
    face_down: tuple[str, ...] = ()
    tapped: tuple[str, ...] = ()
    hands: dict[str, int] = field(default_factory=dict)
    dice: dict[str, DiceState] = field(default_factory=dict)
    on: dict[str, str] = field(default_factory=dict)
    roles: dict[str, dict[str, str]] = field(default_factory=dict)  # lords/manes: player -> uid
    extra: dict[str, Any] = field(default_factory=dict)  # score, fans ... as written


@dataclass(frozen=True)
class Step:
    """One settled change of the table (index 1 is the first step), card refs resolved."""

    index: int
    line: int
    place: dict[str, str] = field(default_factory=dict)
    place_down: dict[str, str] = field(default_factory=dict)
    remove: list[str] = field(default_factory=list)
    tap: list[str] = field(default_factory=list)
    untap: list[str] = field(default_factory=list)
    flip: list[str] = field(default_factory=list)
    on: dict[str, str] = field(default_factory=dict)
    draw: dict[str, int] = field(default_factory=dict)
    dice: dict[str, DiceState] = field(default_factory=dict)
    burn: list[str] = field(default_factory=list)
    roll: list[str] = field(default_factory=list)
    phase: bool | str = False
    pass_turn: bool = False
    declare: dict[str, Any] = field(default_factory=dict)
    expect: dict[str, Any] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class TableScript:
    path: str
    game: str
    players: tuple[str, str]
    first: str
    seed: int
    cards: tuple[Card, ...]  # inline cards, extending the cardset
    decks: dict[str, list[str]]  # p1/p2/shared or a pile zone id -> uids, top card first
    owners: dict[str, str]  # uid -> p1/p2/shared
    setup: Setup | None
    steps: tuple[Step, ...]
    description: str = ""
    title: str = ""

    def card(self, card_id_or_uid: str) -> Card:
        """The card behind an id or a uid: inline cards first, then the game's cardset."""
        card_id = split_uid(card_id_or_uid)[0] if "#" in card_id_or_uid else card_id_or_uid
        for card in self.cards:
            if card.id == card_id:
                return card
        from companion.cardsets import load_cardset

        return load_cardset(self.game).get(card_id)

    def deck_zone(self, key: str) -> str:
        return deck_key_zone(self.game, key)

    def step(self, index: int) -> Step:
        return self.steps[index - 1]


def deck_key_zone(game: str, key: str) -> str:
    """The pile a `decks:` key starts in: the owner's draw pile, or the pile zone named."""
    layout = load_layout(game)
    if key in layout.zones:
        return key
    zone = f"{key}.{game_spec(game).draw_piles[0]}"
    if zone not in layout.zones:
        raise CompanionError(f"{game} has no deck zone {zone}")
    return zone
