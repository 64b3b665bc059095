"""The engine's one effect vocabulary: what a card's ability does, as typed, frozen data.

Every game compiles its cards' texts (German sentences, YAML lists) into these types once,
when its cardset loads (`companion.engine.effects.compiling`); its rules then read
`CardFacts.abilities` and never look at card text again. The vocabulary is closed: a game that
needs a new word adds it here (and to `companion/cardsets/effects_vocabulary.md`), so two games
never say the same thing two ways. What no word can say stays a `Prompt` holding the text: the
companion shows it to the players and never guesses.

Words (each an effect type):

- `Draw`: the controller takes cards into the hand (from the deck, the hell, ...).
- `Move`: cards change zone (to the other lane, the rest pile, the trick pile, the box).
- `Modify`: a card's number (attack, survival, strength, ...) changes.
- `Gain`: the controller gains a resource (fans, start dice).
- `Destroy`: cards are destroyed (to the hell or discard pile).
- `Damage` / `Heal`: damage is put on or taken from creatures.
- `Return`: cards come back (to the hand, from the hell to the field).
- `Prevent`: something does not happen (the damage of an attack, an attack next turn).
- `Permit`: the player may do by hand a table change the basic rules forbid (a free move,
  a swap, a search of the deck, taking control of an enemy).
- `Prompt`: a sentence no word models; the players carry it out.

Whom an effect touches is a `Selector`: side, how many, zone, a role in the current situation,
and card filters (maximum cost, same name, faction, card type).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

Side = Literal["self", "ally", "enemy", "any"]
"""`self`: the card that has the ability; `ally`: its controller's cards; `enemy`: the
opponent's; `any`: either side's."""
SIDES: tuple[str, ...] = get_args(Side)

Role = Literal["attacker", "attackers", "defender", "equipped", "moved", "summoned", "damaged",
               "revealed"]
"""A card's part in what is happening: the attacking creature (or all attackers), the attacked
one, the creature the equipment lies on, the one just moved / summoned / damaged, the revealed
card."""
ROLES: tuple[str, ...] = get_args(Role)

Zone = Literal["field", "hand", "deck", "hell", "camp", "discard", "bench", "rest", "trick",
               "active", "passive", "same-lane", "other-lane", "box", "A", "B", "C"]
"""Zone words, relative to the selector's side: rows A/B/C, lanes, piles; `box` is out of the
game (removed from the deck)."""
ZONES: tuple[str, ...] = get_args(Zone)

Stat = Literal["attack", "survival", "strength", "power", "life"]
STATS: tuple[str, ...] = get_args(Stat)

Resource = Literal["fans", "start-dice"]
RESOURCES: tuple[str, ...] = get_args(Resource)

Per = Literal["other-revealed"]
"""`Modify.per`: the amount counts once for every such card (every other revealed card)."""
PERS: tuple[str, ...] = get_args(Per)

Prevented = Literal["damage", "attack"]
PREVENTED: tuple[str, ...] = get_args(Prevented)

Until = Literal["now", "next-turn"]
UNTILS: tuple[str, ...] = get_args(Until)

PermitAction = Literal["move", "swap", "search", "control"]
PERMIT_ACTIONS: tuple[str, ...] = get_args(PermitAction)

When = Literal["play", "permanent", "activated", "combat", "summoned", "destroyed", "trap",
               "attack", "bench", "flag", "flag-loss", "chosen"]
"""When an ability works: `play` once when played or revealed; `permanent` while in play;
`activated` when its owner chooses (once a turn); `combat` once in an attack; `summoned`,
`destroyed`, `trap` when the creature is summoned, destroyed, or sprung as a trap;
`attack`, `bench`, `flag`, `flag-loss`, `chosen` (Challengers!: Im Angriff, Von der Bank,
Im Fahnenbesitz, Fahnenverlust, Ausgewählt)."""
WHENS: tuple[str, ...] = get_args(When)

Lane = Literal["active", "passive"]
LANES: tuple[str, ...] = get_args(Lane)

EACH: Final = "each"


@dataclass(frozen=True)
class Selector:
    """Which cards an effect touches."""

    side: Side = "any"
    count: int | Literal["each"] = 1
    """How many the player chooses, or `each` (every card that fits)."""
    zone: Zone | None = None
    role: Role | None = None
    top: bool = False
    """The top cards of the zone (not chosen)."""
    max_cost: int | None = None
    same_name: bool = False
    """Cards with the source card's name."""
    faction: str | None = None
    card_type: str | None = None


SELF = Selector(side="self")


@dataclass(frozen=True)
class Draw:
    amount: int
    source: Zone = "deck"


@dataclass(frozen=True)
class Move:
    target: Selector
    to: Zone


@dataclass(frozen=True)
class Modify:
    stat: Stat
    amount: int
    target: Selector
    per: Per | None = None


@dataclass(frozen=True)
class Gain:
    resource: Resource
    amount: int


@dataclass(frozen=True)
class Destroy:
    target: Selector
    dice: int = 0
    """Dice the player burns to choose the target (Creature Crush); 0: none."""


@dataclass(frozen=True)
class Damage:
    amount: int
    target: Selector


@dataclass(frozen=True)
class Heal:
    amount: int
    target: Selector


@dataclass(frozen=True)
class Return:
    target: Selector
    to: Zone = "hand"


@dataclass(frozen=True)
class Prevent:
    what: Prevented
    target: Selector
    until: Until = "now"


@dataclass(frozen=True)
class Permit:
    action: PermitAction
    target: Selector


@dataclass(frozen=True)
class Prompt:
    """A sentence no word of the vocabulary models: shown to the players, never guessed."""

    text: str


Effect = Draw | Move | Modify | Gain | Destroy | Damage | Heal | Return | Prevent | Permit | Prompt
EFFECT_TYPES: tuple[type, ...] = (Draw, Move, Modify, Gain, Destroy, Damage, Heal, Return,
                                  Prevent, Permit, Prompt)


@dataclass(frozen=True)
class Ability:
    """One effect of a card and when it works."""

    when: When
    effect: Effect
    lane: Lane | None = None
    """Trick or Beat: `passive` works from either lane, `active` only from the active lane."""
    text: str = ""
    """The card's sentence it was compiled from (empty for structured effects)."""

    @property
    def modelled(self) -> bool:
        return not isinstance(self.effect, Prompt)


CardAbilities = tuple[Ability, ...]
