"""Ground truth of a scripted table: where every physical card, die and token really is.

A `TruthTable` knows more than a camera: the order of face-down piles, which card each player
drew, the identity behind every back sticker. `visible_snapshot` reduces it to what a camera
above the table sees (a `TableSnapshot`), with deterministic positions in mat millimetres so the
simulator can render it and the referee can feed it to the interpreter.

Tables are immutable in style: `apply_step` and `apply_verb` return a new table. No OpenCV, no
Flask here: the engine's tests use this module directly.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import CompanionError
from companion.games import game_spec
from companion.layouts import MatLayout, load_layout
from companion.markers.payload import MAX_SERIAL
from companion.sim.script_model import Setup, Step, TableScript, deck_key_zone
from companion.snapshot import SeenCard, SeenDie, SeenToken, TableSnapshot, back_uid, split_uid

PHYSICAL_VERBS = ("draw", "remove", "place", "place_down", "flip", "on", "tap", "untap", "dice",
                  "burn", "roll")
"""The verbs that change the table, in the order they apply within one step."""


def covering(game: str) -> bool:
    """Cards of `game` lie squarely on each other (a FE level-up, a Challengers! attack pushed
    together into one stack: only the top card shows); in the others a card on a card
    (equipment, a resource on a character) is laid beside it, overlapping its side edge, so
    both stickers stay in view. From the game's spec (`SimHints.covering`)."""
    return game_spec(game).sim.covering


COVER_OFFSET_MM = 4.0
"""A covering card lies this much right of the card beneath it (a pile that is not squared);
not lower, since rows of those games overlap up to 1 mm short of a neighbour's sticker."""
SIDE_OFFSET_MM = 50.0
"""A card laid on a card in the other games: its centre this far to the right (then the left) of
the lower card's centre. The 63 mm cards overlap by 13 mm, and the upper card's edge stays 2 mm
clear of the lower card's 25 mm sticker with its quiet zone (25 x 17/13 = 32.7 mm): both read.
A lane's rows lie a card's length apart, so a vertical offset would cover the next row's cards."""
SIDE_SHIFT_MM = 10.0
"""...and this far towards the mat's middle line, which tells it from a neighbour in a row whose
cards touch or overlap side by side (`companion.vision.tracker` reads "on" so)."""
FAN_STICKER_CLEAR_MM = 1.5
"""A squeezed row keeps each card's edge this far off its neighbour's sticker quiet zone."""
FAN_GAP_MM = 5.0
_ON_CARD_SPOTS = ((22.0, 24.0), (-22.0, 24.0), (22.0, -24.0), (-22.0, -24.0))
"""Where dice lie on a card, from its centre: a 16 mm die there misses the 25 mm sticker."""
DIE_PITCH_MM = 20.0


class TableError(CompanionError):
    """A physical change that cannot happen on this table (drawing from an empty deck ...)."""


@dataclass(frozen=True)
class CardState:
    """One physical card. `zone` None means off the table: in the hand of `holder`."""

    uid: str
    owner: str  # registered owner: p1, p2 or shared (trick-or-beat's common pile)
    serial: int  # the anonymous number on its back sticker
    zone: str | None = None
    holder: str | None = None
    face_up: bool = False
    tapped: bool = False
    on: str | None = None  # uid of the card it lies on


@dataclass(frozen=True)
class DieState:
    die: str
    value: int
    zone: str
    on: str | None = None
    rolls: int = 0
    """How often the die was picked up and settled again (every `dice` value given, every
    `roll`): a re-roll to the same value shows as a new count (SeenDie.rolls)."""


@dataclass(frozen=True)
class TokenState:
    token: str
    zone: str
    on: str | None = None


@dataclass(frozen=True)
class TruthTable:
    """Everything on (and beside) the table. `zones` lists each zone's cards, top card first."""

    game: str
    cards: Mapping[str, CardState]
    zones: Mapping[str, tuple[str, ...]]
    dice: Mapping[str, DieState]
    tokens: Mapping[str, TokenState]

    @property
    def layout(self) -> MatLayout:
        return load_layout(self.game)

    def card(self, uid: str) -> CardState:
        try:
            return self.cards[uid]
        except KeyError:
            raise TableError(f"no card {uid} in this game") from None

    def in_zone(self, zone: str) -> tuple[str, ...]:
        return self.zones.get(zone, ())

    def top(self, zone: str) -> str | None:
        cards = self.in_zone(zone)
        return cards[0] if cards else None

    def hand(self, player: str) -> tuple[str, ...]:
        return tuple(u for u, c in self.cards.items() if c.zone is None and c.holder == player)

    def copies(self, card_id: str) -> tuple[str, ...]:
        """Every physical copy of `card_id`, by copy number."""
        found = [u for u in self.cards if split_uid(u)[0] == card_id]
        return tuple(sorted(found, key=lambda u: split_uid(u)[1]))

    def on_table(self, uid: str) -> bool:
        return self.cards[uid].zone is not None

    def beneath(self, uid: str) -> tuple[str, ...]:
        """Cards, dice and tokens lying directly on card `uid`."""
        items = [u for u, c in self.cards.items() if c.on == uid]
        items += [d for d, s in self.dice.items() if s.on == uid]
        items += [t for t, s in self.tokens.items() if s.on == uid]
        return tuple(items)

    def deck_zone(self, owner: str) -> str:
        """Where `owner` draws from: their own deck pile, or the shared one (trick-or-beat)."""
        return deck_zone(self.game, owner)


def deck_zone(game: str, owner: str) -> str:
    """`owner`'s draw pile (the game's spec): their own, or the shared one."""
    zone = game_spec(game).deck_zone_of(owner)
    if zone is None:
        raise TableError(f"{game} has no deck zone for {owner}")
    return zone


def assign_serials(uids: Iterable[str], seed: int, game: str | None = None
                   ) -> dict[str, int]:
    """Back-sticker serials: deterministic from the seed, unique on the table. For a game,
    from the serials `companion print stickers` gives that game's backs by default (its code
    x 5000 + 1 on, all within the big-cell code, skipping the few whose symbol reads two ways
    up: a real table's backs carry big-cell stickers, as its fronts do); without a game,
    anywhere in the payload's range."""
    ordered = sorted(set(uids))
    rng = random.Random(f"back-serials:{seed}")
    if game is None:
        pool: Sequence[int] = range(1, MAX_SERIAL + 1)
    else:
        from companion.printing.jobs import SERIALS_PER_GAME, default_first_serial
        from companion.printing.stickers import back_serials

        first = default_first_serial(game)
        pool = back_serials(first, SERIALS_PER_GAME)  # (the few that read two ways up skipped)
    serials = rng.sample(pool, len(ordered))
    return dict(zip(ordered, serials, strict=True))


def empty_table(game: str) -> TruthTable:
    load_layout(game)
    return TruthTable(game, {}, {}, {}, {})


def with_decks(table: TruthTable, decks: Mapping[str, tuple[str, Sequence[str]]],
               owners: Mapping[str, str], seed: int) -> TruthTable:
    """Put each deck face down in its zone: {key: (zone, uids top first)}."""
    serials = assign_serials(owners, seed, table.game)
    cards = dict(table.cards)
    zones = dict(table.zones)
    for zone, uids in decks.values():
        for uid in uids:
            cards[uid] = CardState(uid, owners[uid], serials[uid], zone=zone, face_up=False)
        zones[zone] = (*zones.get(zone, ()), *uids)
    for uid, owner in owners.items():
        if uid not in cards:  # registered but not in a deck (a setup card): off the table
            cards[uid] = CardState(uid, owner, serials[uid], holder=owner)
    return replace(table, cards=cards, zones=zones)


def initial_table(script: TableScript) -> TruthTable:
    """The table before the first step: decks face down, then the `setup` position if any."""
    return starting_table(script.game, script.seed, script.decks, script.owners, script.setup)


def starting_table(game: str, seed: int, decks: Mapping[str, list[str]],
                   owners: Mapping[str, str], setup: Setup | None) -> TruthTable:
    """Decks face down in their piles (`decks:` keys), then the setup position if any."""
    placed = {key: (deck_key_zone(game, key), uids) for key, uids in decks.items()}
    table = with_decks(empty_table(game), placed, owners, seed)
    if setup is None:
        return table
    layout = load_layout(game)
    for zone, uids in setup.table.items():
        ordered = uids if layout.zones[zone].kind == "area" else list(reversed(uids))
        for uid in ordered:
            verb = "place_down" if uid in setup.face_down else "place"
            table = apply_verb(table, verb, {uid: zone})
    if setup.tapped:
        table = apply_verb(table, "tap", list(setup.tapped))
    if setup.hands:
        table = apply_verb(table, "draw", setup.hands)
    if setup.dice:
        table = apply_verb(table, "dice", setup.dice)
    if setup.on:
        table = apply_verb(table, "on", setup.on)
    return table


def rename_card(table: TruthTable, old: str, new: str) -> TruthTable:
    """The same table with card `old` called `new` (an unknown card in a hand turns out to be
    `new` when it is played); its back serial, place and state stay."""
    if new in table.cards:
        raise TableError(f"{new} is on the table already")

    def name(uid: str | None) -> str | None:
        return new if uid == old else uid

    cards = {name(u) or u: replace(c, uid=new, on=name(c.on)) if u == old
             else replace(c, on=name(c.on)) for u, c in table.cards.items()}
    zones = {z: tuple(name(u) or u for u in us) for z, us in table.zones.items()}
    dice = {d: replace(s, on=name(s.on)) for d, s in table.dice.items()}
    tokens = {t: replace(s, on=name(s.on)) for t, s in table.tokens.items()}
    return TruthTable(table.game, cards, zones, dice, tokens)


def apply_step(table: TruthTable, step: Step) -> TruthTable:
    """The table after one (already resolved) step; pure."""
    for verb in PHYSICAL_VERBS:
        value = getattr(step, verb)
        if value:
            table = apply_verb(table, verb, value)
    return table


# ----- the physical verbs ---------------------------------------------------------------------

class _Work:
    """A mutable copy of a table, used inside one verb and frozen again."""

    def __init__(self, table: TruthTable) -> None:
        self.game = table.game
        self.layout = table.layout
        self.cards = dict(table.cards)
        self.zones = {z: list(u) for z, u in table.zones.items()}
        self.dice = dict(table.dice)
        self.tokens = dict(table.tokens)

    def freeze(self) -> TruthTable:
        zones = {z: tuple(u) for z, u in self.zones.items() if u}
        return TruthTable(self.game, self.cards, zones, self.dice, self.tokens)

    def card(self, uid: str) -> CardState:
        if uid not in self.cards:
            raise TableError(f"no card {uid} in this game")
        return self.cards[uid]

    def need_zone(self, zone: str) -> None:
        if zone not in self.layout.zones:
            raise TableError(f"no zone {zone} on the {self.game} mat")

    def lift(self, uid: str) -> None:
        """Take a card out of its zone's order (it keeps its state otherwise)."""
        zone = self.cards[uid].zone
        if zone is not None and uid in self.zones.get(zone, []):
            self.zones[zone].remove(uid)

    def put(self, uid: str, zone: str) -> None:
        """Lay a card into `zone`: on top of a pile or slot, at the end of an area."""
        self.lift(uid)
        order = self.zones.setdefault(zone, [])
        if self.layout.zones[zone].kind == "area":
            order.append(uid)
        else:
            order.insert(0, uid)

    def carry(self, uid: str, zone: str | None) -> None:
        """Everything lying on card `uid` follows it to `zone` (None: it left the table)."""
        for other, state in list(self.cards.items()):
            if state.on == uid:
                if zone is None:
                    self.lift(other)
                    self.cards[other] = replace(state, zone=None, on=None, holder=state.owner,
                                                tapped=False)
                else:
                    self.put(other, zone)
                    self.cards[other] = replace(state, zone=zone)
                self.carry(other, zone)
        for die, ds in list(self.dice.items()):
            if ds.on == uid:
                if zone is None:
                    del self.dice[die]
                else:
                    self.dice[die] = replace(ds, zone=zone)
        for token, ts in list(self.tokens.items()):
            if ts.on == uid:
                if zone is None:
                    del self.tokens[token]
                else:
                    self.tokens[token] = replace(ts, zone=zone)

    def place(self, uid: str, zone: str, face_up: bool) -> None:
        self.need_zone(zone)
        state = self.card(uid)
        self.put(uid, zone)
        self.cards[uid] = replace(state, zone=zone, face_up=face_up, on=None, holder=None,
                                  tapped=state.tapped if state.zone is not None else False)
        self.carry(uid, zone)

    def remove(self, item: str) -> None:
        if item in self.dice:
            del self.dice[item]
            return
        if item in self.tokens:
            del self.tokens[item]
            return
        state = self.card(item)
        if state.zone is None:
            raise TableError(f"{item} is not on the table")
        self.lift(item)
        self.cards[item] = replace(state, zone=None, on=None, holder=state.owner, tapped=False)
        self.carry(item, None)

    def draw(self, player: str, count: int) -> None:
        source = deck_zone(self.game, player)
        for _ in range(count):
            pile = self.zones.get(source, [])
            if not pile:
                raise TableError(f"{player} cannot draw: {source} is empty")
            uid = pile[0]
            self.lift(uid)
            self.cards[uid] = replace(self.cards[uid], zone=None, holder=player, on=None,
                                      tapped=False)
            self.carry(uid, None)

    def on_table_card(self, uid: str) -> CardState:
        state = self.card(uid)
        if state.zone is None:
            raise TableError(f"{uid} is not on the table")
        return state

    def lay_on(self, item: str, beneath: str) -> None:
        base = self.on_table_card(beneath)
        assert base.zone is not None
        if item == beneath:
            raise TableError(f"{item} cannot lie on itself")
        if item in self.cards:
            state = self.on_table_card(item)
            probe: str | None = beneath
            while probe is not None:  # no cycles: the beneath card must not lie on `item`
                if probe == item:
                    raise TableError(f"{item} cannot lie on {beneath}, which lies on it")
                probe = self.cards[probe].on
            if state.zone != base.zone:
                self.put(item, base.zone)
            self.cards[item] = replace(state, zone=base.zone, on=beneath)
            self.carry(item, base.zone)
        elif _is_die(item):
            current = self.dice.get(item)
            value = current.value if current else 1
            self.dice[item] = DieState(item, value, base.zone, beneath)
        else:
            self.tokens[item] = TokenState(item, base.zone, beneath)


def _is_die(name: str) -> bool:
    from companion.markers.payload import PayloadError, die_index

    try:
        die_index(name)
    except PayloadError:
        return False
    return True


def apply_verb(table: TruthTable, verb: str, value: Any) -> TruthTable:
    """Apply one physical verb with resolved arguments (card uids, not bare ids)."""
    work = _Work(table)
    if verb == "draw":
        for player, count in value.items():
            work.draw(player, int(count))
    elif verb == "remove":
        for item in value:
            work.remove(item)
    elif verb in ("place", "place_down"):
        for uid, zone in value.items():
            work.place(uid, zone, face_up=verb == "place")
    elif verb == "flip":
        for uid in value:
            state = work.on_table_card(uid)
            if state.face_up:
                raise TableError(f"{uid} is already face up")
            work.cards[uid] = replace(state, face_up=True)
    elif verb == "on":
        for item, beneath in value.items():
            work.lay_on(item, beneath)
    elif verb in ("tap", "untap"):
        for uid in value:
            state = work.on_table_card(uid)
            work.cards[uid] = replace(state, tapped=verb == "tap")
    elif verb == "dice":
        for die, ds in value.items():
            work.need_zone(ds.zone)
            current = work.dice.get(die)
            on = current.on if current is not None and current.zone == ds.zone else None
            rolls = current.rolls + 1 if current is not None else 0
            work.dice[die] = DieState(die, int(ds.value), ds.zone, on, rolls)
    elif verb == "roll":
        for die in value:
            current = work.dice.get(die)
            if current is None:
                raise TableError(f"die {die} is not on the table")
            work.dice[die] = replace(current, rolls=current.rolls + 1)
    elif verb == "burn":
        for die in value:
            current = work.dice.get(die)
            if current is None:
                raise TableError(f"die {die} is not on the table")
            burned = f"{die.split('.')[0]}.burned"
            work.need_zone(burned)
            work.dice[die] = replace(current, zone=burned, on=None)
    else:
        raise TableError(f"{verb!r} is not a physical verb")
    return work.freeze()


# ----- what the camera sees --------------------------------------------------------------------

def visible_uid(state: CardState) -> str:
    return state.uid if state.face_up else back_uid(state.serial)


def visible_cards(table: TruthTable) -> list[str]:
    """Uids of the cards a camera sees: tops of piles and slots, every uncovered area card."""
    layout = table.layout
    covered = {c.on for c in table.cards.values() if c.on is not None and c.zone is not None}
    if not covering(table.game):
        covered = set()
    seen: list[str] = []
    for zone_id in layout.zones:
        order = table.in_zone(zone_id)
        if not order:
            continue
        if layout.zones[zone_id].kind == "area":
            seen.extend(u for u in order if u not in covered)
        else:
            seen.append(order[0])
    return seen


def _attached(table: TruthTable, base: str) -> list[str]:
    """Cards lying directly on `base`, in the order they were laid (zone order, top first)."""
    zone = table.cards[base].zone or ""
    order = table.in_zone(zone)
    later = 1 if zone and table.layout.zones[zone].kind == "area" else -1  # areas append
    on_base = [u for u, c in table.cards.items() if c.on == base and c.zone is not None]
    return sorted(on_base, key=lambda u: later * order.index(u) if u in order else 0)


def _side_offsets(count: int) -> list[float]:
    """Sideways offsets of the cards laid on one card: right, left, further right, ..."""
    return [SIDE_OFFSET_MM * (k // 2 + 1) * (1 if k % 2 == 0 else -1) for k in range(count)]


def _extent(table: TruthTable, base: str) -> tuple[float, float]:
    """How far a card and the cards beside it on it reach left and right of its centre (mm);
    a tapped card lies sideways, its length across the row."""
    layout = table.layout
    half = (layout.card_h_mm if table.cards[base].tapped else layout.card_w_mm) / 2
    if covering(table.game):
        return half, half + (COVER_OFFSET_MM if _attached(table, base) else 0.0)
    offsets = _side_offsets(len(_attached(table, base)))
    return half - min([0.0, *offsets]), half + max([0.0, *offsets])


def card_positions(table: TruthTable) -> dict[str, tuple[float, float]]:
    """Centre (= front-sticker centre) of every card on the table, in mat millimetres.

    Piles and slots put their cards at the zone centre; an area fans its cards in one row (or
    column when taller than wide) 5 mm apart, squeezed to fit without covering a sticker; a card
    lying on another card sits on it 4 mm to the right (covering it, see `covering`) or
    beside it, overlapping its side edge (`SIDE_OFFSET_MM`, `SIDE_SHIFT_MM`: both stickers in
    view), and a row leaves room for those.
    """
    layout = table.layout
    pos: dict[str, tuple[float, float]] = {}
    for zone_id, order in table.zones.items():
        zone = layout.zones[zone_id]
        cx, cy = zone.centre
        bases = [u for u in order if table.cards[u].on is None]
        if zone.kind != "area" or len(bases) <= 1:
            for uid in bases:
                pos[uid] = (cx, cy)
            continue
        horizontal = zone.w_mm >= zone.h_mm
        if horizontal:
            reach = [_extent(table, u) for u in bases]
            length = zone.w_mm
        else:
            half = layout.card_h_mm / 2
            reach = [(half, half)] * len(bases)
            length = zone.h_mm
        widths = sum(left + right for left, right in reach)
        gap = min(FAN_GAP_MM, (length - widths) / (len(bases) - 1))
        # squeezed to fit the zone, but never onto a neighbour's sticker: the row then reaches
        # beyond the zone (an overfull row)
        quiet = layout.sticker_mm * 17 / 13  # Micro QR M2: 13 modules and 2 quiet each side
        clear = quiet / 2 + FAN_STICKER_CLEAR_MM
        offsets = [0.0]
        for (_, right), (left, _) in itertools.pairwise(reach):
            offsets.append(offsets[-1] + max(right + gap + left, max(left, right) + clear))
        shift = (offsets[0] - reach[0][0] + offsets[-1] + reach[-1][1]) / 2
        for uid, offset in zip(bases, offsets, strict=True):
            at = offset - shift
            pos[uid] = (cx + at, cy) if horizontal else (cx, cy + at)
    pending = [u for u, c in table.cards.items() if c.zone is not None and u not in pos]
    while pending:
        progressed = False
        for base in {table.cards[u].on for u in pending}:
            if base not in pos:
                continue
            bx, by = pos[base]
            for k, uid in enumerate(_attached(table, base)):
                if covering(table.game):
                    pos[uid] = (bx + COVER_OFFSET_MM, by)
                else:
                    inward = 1.0 if by < layout.height_mm / 2 else -1.0
                    pos[uid] = (bx + _side_offsets(k + 1)[k], by + inward * SIDE_SHIFT_MM)
                pending.remove(uid)
                progressed = True
        if not progressed:  # a card on a card that is off the table: zone centre
            for uid in pending:
                where = table.cards[uid].zone
                assert where is not None
                pos[uid] = layout.zones[where].centre
            break
    return pos


def lying_on_visible(table: TruthTable, uid: str, shown: set[str]) -> str | None:
    """The card a die on card `uid` is seen lying on: `uid` itself, or, when another card
    covers it (a destroyed creature laid on the hell pile with its die), the card on top: the
    die was on the covered card and now lies on the pile's top card. None off the table."""
    state = table.cards.get(uid)
    if state is None or state.zone is None:
        return None
    if uid in shown:
        return uid
    if table.layout.zones[state.zone].kind != "area":
        top = table.top(state.zone)
        return top if top in shown else None
    covering = [u for u, c in table.cards.items() if c.on == uid and c.zone is not None]
    for upper in covering:
        found = lying_on_visible(table, upper, shown)
        if found is not None:
            return found
    return None


def _die_positions(table: TruthTable, cards: Mapping[str, tuple[float, float]],
                   shown: set[str]) -> dict[str, tuple[float, float]]:
    layout = table.layout
    pos: dict[str, tuple[float, float]] = {}
    by_zone: dict[str, list[str]] = {}
    by_card: dict[str, list[str]] = {}
    for die in sorted(table.dice):
        state = table.dice[die]
        base = lying_on_visible(table, state.on, shown) if state.on is not None else None
        if base is not None and base in cards:
            by_card.setdefault(base, []).append(die)
        else:
            by_zone.setdefault(state.zone, []).append(die)
    for card, dice in by_card.items():
        x, y = cards[card]
        tapped = table.cards[card].tapped
        for k, die in enumerate(dice):
            # the card's four corners, clear of its centre sticker and inside its zone
            dx, dy = _ON_CARD_SPOTS[k % len(_ON_CARD_SPOTS)]
            pos[die] = (x + dy, y + dx) if tapped else (x + dx, y + dy)
    for zone_id, dice in by_zone.items():
        zone = layout.zones[zone_id]
        per_row = max(1, int((zone.w_mm - 4) // DIE_PITCH_MM))
        rows = (len(dice) + per_row - 1) // per_row
        cx, cy = zone.centre
        for k, die in enumerate(dice):
            row, col = divmod(k, per_row)
            in_row = min(per_row, len(dice) - row * per_row)
            x = cx + (col - (in_row - 1) / 2) * DIE_PITCH_MM
            y = cy + (row - (rows - 1) / 2) * DIE_PITCH_MM
            pos[die] = (x, y)
    return pos


def _token_positions(table: TruthTable, cards: Mapping[str, tuple[float, float]]
                     ) -> dict[str, tuple[float, float]]:
    pos: dict[str, tuple[float, float]] = {}
    for token, state in sorted(table.tokens.items()):
        if state.on is not None and state.on in cards:
            x, y = cards[state.on]
            pos[token] = (x - 30.0, y) if table.cards[state.on].tapped else (x, y - 30.0)
        else:
            pos[token] = table.layout.zones[state.zone].centre
    return pos


def visible_snapshot(table: TruthTable, seq: int = 0, time_s: float = 0.0) -> TableSnapshot:
    """What a camera above the table sees: a `TableSnapshot` with positions in mat mm."""
    positions = card_positions(table)
    visible = visible_cards(table)
    shown = set(visible)

    def seen_as(uid: str | None) -> str | None:
        """What lies beneath, as the camera names it (None when it is covered from view)."""
        return visible_uid(table.cards[uid]) if uid is not None and uid in shown else None

    cards = []
    for uid in visible:
        state = table.cards[uid]
        assert state.zone is not None
        x, y = positions[uid]
        cards.append(SeenCard(
            uid=visible_uid(state), zone=state.zone, face_up=state.face_up, tapped=state.tapped,
            on=seen_as(state.on), x_mm=round(x, 2), y_mm=round(y, 2),
            angle_deg=90.0 if state.tapped else 0.0,
        ))
    die_pos = _die_positions(table, positions, shown)

    def die_on(uid: str | None) -> str | None:
        return seen_as(lying_on_visible(table, uid, shown)) if uid is not None else None

    dice = [
        SeenDie(die=d, value=s.value, zone=s.zone, on=die_on(s.on),
                x_mm=round(die_pos[d][0], 2), y_mm=round(die_pos[d][1], 2), rolls=s.rolls)
        for d, s in sorted(table.dice.items())
    ]
    token_pos = _token_positions(table, positions)
    tokens = [
        SeenToken(token=t, zone=s.zone, on=seen_as(s.on), x_mm=round(token_pos[t][0], 2),
                  y_mm=round(token_pos[t][1], 2))
        for t, s in sorted(table.tokens.items())
    ]
    return TableSnapshot(game=table.game, seq=seq, time_s=time_s, cards=tuple(cards),
                         dice=tuple(dice), tokens=tuple(tokens))


def snapshots(script: TableScript, interval_s: float = 1.0) -> list[TableSnapshot]:
    """The visible table before the first step (seq 0) and after every step (seq = step)."""
    table = initial_table(script)
    shots = [visible_snapshot(table, 0, 0.0)]
    for step in script.steps:
        table = apply_step(table, step)
        shots.append(visible_snapshot(table, step.index, step.index * interval_s))
    return shots


def truth_tables(script: TableScript) -> list[TruthTable]:
    """The true table before the first step and after every step."""
    table = initial_table(script)
    tables = [table]
    for step in script.steps:
        table = apply_step(table, step)
        tables.append(table)
    return tables
