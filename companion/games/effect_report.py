"""How much of a game's cardset the rules model: abilities compiled to typed effects, and the
ones that stay prompted (a sentence no word of the vocabulary says), with their cards.

`python -m companion.games.effect_report` prints it for every registered game.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.cards import Catalog
from companion.games import game_ids


@dataclass(frozen=True)
class EffectReport:
    game: str
    cards: int
    with_effects: int
    """Cards with at least one ability."""
    typed: int
    """Abilities compiled to a typed effect."""
    prompted: int
    """Abilities that stay a `Prompt`."""
    prompted_cards: tuple[str, ...]
    """The cards with a prompted ability, by id."""

    def line(self) -> str:
        listed = f": {', '.join(self.prompted_cards)}" if self.prompted_cards else ""
        return (f"{self.game}: {self.cards} cards, {self.with_effects} with effects, "
                f"{self.typed} abilities typed, {self.prompted} prompted{listed}")


def effect_report(game: str) -> EffectReport:
    """The counts of `game`'s bundled (and the user's own) cards, compiled as play sees them."""
    catalog = Catalog.for_game(game)
    cards = [catalog.card(i) for i in catalog.ids()]
    abilities = [a for c in cards for a in c.abilities]
    prompted = tuple(c.id for c in cards if any(not a.modelled for a in c.abilities))
    return EffectReport(
        game=game,
        cards=len(cards),
        with_effects=sum(1 for c in cards if c.abilities),
        typed=sum(1 for a in abilities if a.modelled),
        prompted=sum(1 for a in abilities if not a.modelled),
        prompted_cards=prompted,
    )


def main() -> None:
    for game in game_ids():
        print(effect_report(game).line())


if __name__ == "__main__":
    main()
