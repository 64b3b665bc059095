"""Physical cards of a Challengers! tournament: start decks, the bot deck, the level stacks.

Every card is a physical copy ("CH-107#3"), because stickers name copies. A `CardPool` hands
out copies so no copy is in two places: the start decks first, then the bot's deck, then the
level stacks of the sets in play (the town set and five of the six themed sets).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from companion.cardsets import load_cardset, load_deck
from companion.games.challengers.card_schema import CH_BASE_SET, CH_THEMED_SETS
from companion.games.challengers.numbers import (
    BOT_MAX_LEVEL,
    BOT_MIN_LEVEL,
    DEFAULT_COPIES,
    SETS_IN_PLAY,
)
from companion.games.challengers.plan import PlanError
from companion.snapshot import card_uid, split_uid

BOT_REPLACED: dict[int, int] = {1: 0, 2: 1, 3: 2, 4: 4, 5: 6}
"""How many of the bot's start cards each difficulty (BOT_MIN_LEVEL to BOT_MAX_LEVEL) replaces
by stronger random bot cards (not in the rulebook: Board Game Arena's bot)."""
assert sorted(BOT_REPLACED) == list(range(BOT_MIN_LEVEL, BOT_MAX_LEVEL + 1))


class CardPool:
    """The game's cards (from the cardset) and which copies are still in the box."""

    def __init__(self) -> None:
        cardset = load_cardset("challengers")
        raw = cardset.cards
        cards = list(raw.values()) if isinstance(raw, Mapping) else list(raw)
        self.info: dict[str, dict[str, object]] = {}
        self.free: dict[str, list[int]] = {}
        for card in cards:
            fields = dict(getattr(card, "fields", {}))
            self.info[card.id] = {"name": card.name, "type": card.type, **fields}
            self.free[card.id] = list(range(1, int(str(fields.get("copies", DEFAULT_COPIES))) + 1))

    def strength(self, uid_or_id: str) -> int:
        card_id = split_uid(uid_or_id)[0] if "#" in uid_or_id else uid_or_id
        return int(str(self.info[card_id].get("strength", 0)))

    def field(self, card_id: str, key: str) -> str:
        return str(self.info[card_id].get(key, ""))

    def take(self, card_id: str) -> str | None:
        """A free copy of `card_id` (lowest number first), or None when all are out."""
        free = self.free.get(card_id)
        if not free:
            return None
        return card_uid(card_id, free.pop(0))

    def give_back(self, uid: str) -> None:
        card_id, copy = split_uid(uid)
        self.free[card_id].append(copy)
        self.free[card_id].sort()

    def start_deck(self, name: str = "starter") -> list[str]:
        deck: list[str] = []
        for card_id, count in load_deck("challengers", name).cards.items():
            for _ in range(count):
                uid = self.take(card_id)
                if uid is None:
                    raise PlanError(f"not enough copies of {card_id} for every start deck")
                deck.append(uid)
        return deck

    def bot_deck(self, difficulty: int, rng: random.Random) -> list[str]:
        """The bot's start deck; higher difficulty replaces its weakest cards by random
        stronger bot cards (as far as the box holds stronger ones)."""
        if difficulty not in BOT_REPLACED:
            raise PlanError(f"bot difficulty is {BOT_MIN_LEVEL} to {BOT_MAX_LEVEL}, "
                            f"got {difficulty}")
        deck = sorted(self.start_deck("bot"), key=lambda u: (self.strength(u), u))
        for i in range(BOT_REPLACED[difficulty]):
            weak = deck[i]
            stronger = sorted(
                c for c, free in self.free.items()
                if free and self.info[c]["type"] == "bot" and self.strength(c) > self.strength(weak)
            )
            if not stronger:
                continue
            uid = self.take(rng.choice(stronger))
            assert uid is not None
            self.give_back(weak)
            deck[i] = uid
        return deck

    def level_stack(self, level: str, sets: Iterable[str], rng: random.Random) -> list[str]:
        """Every free copy of the recruits of `level` in the sets in play, shuffled."""
        allowed = set(sets)
        stack: list[str] = []
        for card_id in sorted(self.info):
            if self.field(card_id, "type") != "recruit" or self.field(card_id, "level") != level:
                continue
            if self.field(card_id, "set") not in allowed:
                continue
            while True:
                uid = self.take(card_id)
                if uid is None:
                    break
                stack.append(uid)
        rng.shuffle(stack)
        return stack


def choose_sets(rng: random.Random, sets: Iterable[str] | None = None) -> tuple[str, ...]:
    """The town set plus five of the six themed sets (random unless given)."""
    if sets is None:
        themed = sorted(rng.sample(list(CH_THEMED_SETS), SETS_IN_PLAY))
    else:
        themed = sorted(set(sets) - {CH_BASE_SET})
        unknown = [s for s in themed if s not in CH_THEMED_SETS]
        if unknown or len(themed) != SETS_IN_PLAY:
            raise PlanError(f"choose {SETS_IN_PLAY} of the themed sets {list(CH_THEMED_SETS)}, "
                            f"got {sorted(set(sets))}")
    return (CH_BASE_SET, *themed)
