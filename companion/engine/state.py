"""The engine's picture of a game: where every physical card is, plus phase, turn and flags.

Hidden information is explicit. Hands ("pN.hand") and decks are *hidden zones*: the engine
keeps a belief of which card lies where (every card is always in exactly one place, so cards
are conserved), but a card's identity there is only *known* when it was seen (`public`).
When the table reveals a card the belief did not expect (a player plays X from hand while
the belief had X in the deck), `resolve` swaps X with an unseen card of the claimed zone:
nothing anybody saw is contradicted, and views never show unseen identities.

Face-down cards on the table (a trick pile, face-down draft creatures) lie in ordinary zones
but are marked `face_down`; `backs` maps the back-sticker serial the camera saw to the card.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from companion.engine.api import ChanceEvent, Outcome, SetupError
from companion.engine.cards import CardFacts, Catalog

UNKNOWN = "?"


class CoreFlags(TypedDict, total=False):
    """The keys of `GameState.flags` the engine itself writes; each game's typed flags
    (companion/games/<game>/state.py) extend this, so mypy checks every key a game uses."""

    declared: list[list[str]]
    """[player, value] of every `declare` move, in order (Ruleset.apply)."""


def core_flags(state: GameState) -> CoreFlags:
    """The state's flags as the engine types them (games type theirs in their state.py)."""
    return cast(CoreFlags, state.flags)


def hand_zone(player: str) -> str:
    return f"{player}.hand"


class _RandomFork:
    """A copy of a random source, made when it is first drawn from: most copies of a state
    (trying moves out) never shuffle, and copying the generator's state costs more than the
    rest of the copy. The source must not be drawn from before the copy is (a state is
    copied to try moves on the copy, not to go on with the original meanwhile)."""

    __slots__ = ("_own", "_parent")

    def __init__(self, parent: Any) -> None:
        self._parent = parent
        self._own: random.Random | None = None

    def source(self) -> random.Random:
        if self._own is None:
            parent = self._parent.source() if isinstance(self._parent, _RandomFork) \
                else self._parent
            own = random.Random.__new__(random.Random)  # no seeding: the state is set
            own.setstate(parent.getstate())
            self._own = own
        return self._own

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # (copy and pickle look for hooks on an empty instance)
            raise AttributeError(name)
        return getattr(self.source(), name)

    def __deepcopy__(self, memo: dict[int, Any]) -> random.Random:
        """An independent generator where this one stands (a checkpoint of a game)."""
        own = random.Random.__new__(random.Random)
        own.setstate(self.source().getstate())
        return own


_ATOMIC = frozenset({str, int, float, bool, type(None)})


def _plain_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, sets, tuples of plain values), several
    times faster than `copy.deepcopy`; anything else goes through `copy.deepcopy`."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMIC else _plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMIC else _plain_copy(v) for v in value]
    if kind in _ATOMIC:
        return value
    if kind is set:
        return set(value) if all(type(v) in _ATOMIC for v in value) else copy.deepcopy(value)
    if kind is tuple:
        return tuple(_plain_copy(v) for v in value)
    return copy.deepcopy(value)


@dataclass
class GameState:
    """Mutable state of one game; rulesets change it only through these helpers."""

    game: str
    catalog: Catalog
    players: tuple[str, str] = ("Player 1", "Player 2")
    zones: dict[str, list[str]] = field(default_factory=dict)
    hidden_zones: set[str] = field(default_factory=set)
    where: dict[str, str] = field(default_factory=dict)
    owner: dict[str, str] = field(default_factory=dict)
    public: set[str] = field(default_factory=set)
    face_down: set[str] = field(default_factory=set)
    tapped: set[str] = field(default_factory=set)
    attached: dict[str, str] = field(default_factory=dict)
    backs: dict[str, str] = field(default_factory=dict)
    counters: dict[str, dict[str, int]] = field(default_factory=dict)
    turn: int = 0
    active: str = "p1"
    first: str = "p1"
    phase: str = ""
    flags: dict[str, Any] = field(default_factory=dict)
    outcome: Outcome | None = None
    seed: int = 0
    rng: random.Random = field(default_factory=random.Random)
    pending_chance: list[ChanceEvent] = field(default_factory=list)

    def clone(self) -> GameState:
        """An independent copy for trying moves out (the catalog is shared: it never
        changes during a game). Much cheaper than `copy.deepcopy` of the whole state."""
        return GameState(
            game=self.game,
            catalog=self.catalog,
            players=self.players,
            zones={z: list(c) for z, c in self.zones.items()},
            hidden_zones=set(self.hidden_zones),
            where=dict(self.where),
            owner=dict(self.owner),
            public=set(self.public),
            face_down=set(self.face_down),
            tapped=set(self.tapped),
            attached=dict(self.attached),
            backs=dict(self.backs),
            counters={k: dict(v) for k, v in self.counters.items()},
            turn=self.turn,
            active=self.active,
            first=self.first,
            phase=self.phase,
            flags=_plain_copy(self.flags),
            outcome=self.outcome,
            seed=self.seed,
            rng=cast(random.Random, _RandomFork(self.rng)),
            pending_chance=list(self.pending_chance),
        )

    # ------------------------------------------------------------------ zones
    def add_zone(self, zone: str, hidden: bool = False) -> None:
        self.zones.setdefault(zone, [])
        if hidden:
            self.hidden_zones.add(zone)

    def is_hidden(self, zone: str) -> bool:
        return zone in self.hidden_zones

    def cards_in(self, zone: str) -> list[str]:
        return self.zones.get(zone, [])

    def count(self, zone: str) -> int:
        return len(self.zones.get(zone, []))

    def count_in(self, zones: Iterable[str]) -> int:
        """Cards in all of `zones` together (a player's lanes, rows or seats)."""
        return sum(len(self.zones.get(z, [])) for z in zones)

    def top(self, zone: str) -> str | None:
        cards = self.zones.get(zone)
        return cards[-1] if cards else None

    def facts(self, uid: str) -> CardFacts:
        return self.catalog.of_uid(uid)

    def total_cards(self) -> int:
        return sum(len(z) for z in self.zones.values())

    def register(self, uid: str, zone: str, owner: str, face_down: bool = False) -> None:
        """Put a new physical card into the game (setup only)."""
        if uid in self.where:
            raise SetupError(f"card {uid} is listed twice")
        self.catalog.of_uid(uid)  # unknown cards fail here, with their id
        self.add_zone(zone, hidden=self.is_hidden(zone))
        self.zones[zone].append(uid)
        self.where[uid] = zone
        self.owner[uid] = owner
        if face_down:
            self.face_down.add(uid)

    # ------------------------------------------------------------------ movement
    def move(
        self, uid: str, to: str, face_down: bool = False, bottom: bool = False,
        reveal: bool = True,
    ) -> None:
        """Move one card; `reveal=False` when nobody saw which card it was (a pile's hidden
        middle), so its identity stays unseen in views."""
        src = self.where[uid]
        self.zones[src].remove(uid)
        self.add_zone(to)
        if bottom:
            self.zones[to].insert(0, uid)
        else:
            self.zones[to].append(uid)
        self.where[uid] = to
        if face_down:
            self.face_down.add(uid)
        else:
            self.face_down.discard(uid)
        if self.is_hidden(to):
            self.tapped.discard(uid)
            self.face_down.discard(uid)
        if not self.is_hidden(to) and not face_down and reveal:
            self.public.add(uid)
        for back, card in list(self.backs.items()):
            if card == uid and not face_down:
                del self.backs[back]

    def known(self, uid: str) -> bool:
        """True when the card's identity at its current place has been seen."""
        return uid in self.where and uid in self.public

    def unseen_in(self, zone: str) -> list[str]:
        return [c for c in self.zones.get(zone, []) if not self.known(c)]

    def can_resolve(self, uid: str, zone: str) -> bool:
        """Whether `uid` can be (believed to be) in `zone` without contradicting anything seen."""
        current = self.where.get(uid)
        if current is None:
            return False
        if current == zone:
            return True
        return not self.known(uid) and bool(self.unseen_in(zone))

    def resolve(self, uid: str, zone: str) -> bool:
        """Make the belief hold `uid` in `zone` (a hidden zone or a face-down place).

        True when `uid` is there already or could be swapped in without contradicting
        anything seen; False when the table shows a card that cannot have come from `zone`.
        """
        current = self.where.get(uid)
        if current is None:
            return False
        if current == zone:
            return True
        if self.known(uid):
            return False
        candidates = self.unseen_in(zone)
        if not candidates:
            return False
        swap = candidates[-1]
        self._swap(uid, swap)
        return True

    def resolve_back(self, back: str, uid: str) -> bool:
        """A face-down card with back serial `back` turned out to be `uid`."""
        believed = self.backs.get(back)
        if believed is None or believed == uid:
            return believed == uid
        if self.known(uid) or self.known(believed):
            return False
        self._swap(uid, believed)
        self.backs[back] = uid
        return True

    def _swap(self, a: str, b: str) -> None:
        za, zb = self.where[a], self.where[b]
        ia, ib = self.zones[za].index(a), self.zones[zb].index(b)
        self.zones[za][ia], self.zones[zb][ib] = b, a
        self.where[a], self.where[b] = zb, za
        fa, fb = a in self.face_down, b in self.face_down
        self.face_down.discard(a)
        self.face_down.discard(b)
        if fa:
            self.face_down.add(b)
        if fb:
            self.face_down.add(a)
        for back, card in list(self.backs.items()):
            if card == a:
                self.backs[back] = b
            elif card == b:
                self.backs[back] = a

    def take(self, uid: str, source: str) -> str | None:
        """The card leaving `source` (a hand, a deck): `uid`, believed there from now on,
        or for "?" (nobody saw which) an unseen card there (any card when all were seen);
        None when there is no such card."""
        if uid == UNKNOWN:
            unseen = self.unseen_in(source) or self.cards_in(source)
            return unseen[-1] if unseen else None
        if uid not in self.where:
            return None
        self.resolve(uid, source)
        return uid

    def draw(self, source: str, to: str, face_up: bool = False) -> str | None:
        """Top card of `source` to `to`; a face-up draw makes the card public."""
        uid = self.top(source)
        if uid is None:
            return None
        self.move(uid, to)
        if face_up:
            self.public.add(uid)
        else:
            self.public.discard(uid)
        return uid

    def shuffle(self, zone: str) -> None:
        """Shuffle a zone with the game's seeded random source; its cards become unseen."""
        self.rng.shuffle(self.zones[zone])
        for uid in self.zones[zone]:
            self.public.discard(uid)
        self.pending_chance.append(ChanceEvent("shuffle", (("zone", zone),)))

    # ------------------------------------------------------------------ flags
    def counter(self, scope: str, key: str) -> int:
        return self.counters.get(scope, {}).get(key, 0)

    def bump(self, scope: str, key: str, by: int = 1) -> int:
        scope_map = self.counters.setdefault(scope, {})
        scope_map[key] = scope_map.get(key, 0) + by
        return scope_map[key]

    def reset_counters(self, scope: str) -> None:
        self.counters.pop(scope, None)

    def cards_of_type(self, zones: Iterable[str], kind: str) -> list[str]:
        return [u for z in zones for u in self.cards_in(z) if self.facts(u).type == kind]
