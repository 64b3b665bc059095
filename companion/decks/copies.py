"""Which physical copy each card of the table's decks is: the copy number on its sticker.

Numbered as table scripts number them (`companion.sim.script`): per card id, 1..n across all
decks on the table, decks in the order given (p1 before p2), inside a deck the mane first, then
the cards in list order, then the problem deck. A deck file may pin its copies (`copies:`, as
written by `companion deck register` after scanning): those numbers are kept and skipped when
numbering the other cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.cardsets import DeckList
from companion.errors import CompanionError
from companion.markers.payload import MAX_COPY


class CopyNumberError(CompanionError):
    """Two decks claim the same physical copy, or more copies than a sticker can number."""


def deck_counts(deck: DeckList) -> list[tuple[str, int]]:
    """(card id, count) in table-script order: mane, cards, problems."""
    out: list[tuple[str, int]] = [(deck.mane, 1)] if deck.mane else []
    out += list(deck.cards.items())
    out += list(deck.problems.items())
    return out


def number_copies(
    decks: Sequence[DeckList],
    pinned: Sequence[Mapping[str, Sequence[int]]] | None = None,
) -> list[list[tuple[str, int]]]:
    """For each deck, its physical cards as (card id, copy number) in deck order."""
    pins = list(pinned) if pinned is not None else [{} for _ in decks]
    taken: dict[str, set[int]] = {}
    for deck, pin in zip(decks, pins, strict=True):
        for card_id, copies in pin.items():
            clash = taken.setdefault(card_id, set()) & set(copies)
            if clash:
                raise CopyNumberError(
                    f"copy {min(clash)} of {card_id} is in two decks (again in {deck.name})"
                )
            taken[card_id] |= set(copies)
    out: list[list[tuple[str, int]]] = []
    next_free: dict[str, int] = {}
    for deck, pin in zip(decks, pins, strict=True):
        cards: list[tuple[str, int]] = []
        pinned_left = {k: list(v) for k, v in pin.items()}
        for card_id, count in deck_counts(deck):
            if card_id in pinned_left:
                use, pinned_left[card_id] = (
                    pinned_left[card_id][:count],
                    pinned_left[card_id][count:],
                )
                cards += [(card_id, c) for c in use]
                continue
            for _ in range(count):
                n = next_free.get(card_id, 1)
                while n in taken.get(card_id, set()):
                    n += 1
                if n > MAX_COPY:
                    raise CopyNumberError(f"more than {MAX_COPY} copies of {card_id}")
                taken.setdefault(card_id, set()).add(n)
                next_free[card_id] = n + 1
                cards.append((card_id, n))
        out.append(cards)
    return out
