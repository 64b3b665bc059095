"""Table scripts: a game written as physical changes to the table, one settled step at a time.

The format is DESIGN.md "Table scripts". Loading validates everything and reports each problem
as a `ScriptError` with the line of the offending YAML node. Validation walks the steps over the
true table (`companion.sim.table_state`), because a bare card id in a step names a physical copy
only in the light of where the copies are:

- `place` / `place_down`: a copy not yet laid out, preferring the hand of the zone's owner,
  then other hands, then the top card of the owner's draw pile, then of another draw pile,
  lowest copy number first (cards deeper in a pile come out only by uid); if no such copy
  exists and exactly one copy is laid out on the table, that one moves. To move one copy while
  another is in a hand or on top of a deck, write its uid (`T1#2`).
- every other verb: the single copy laid out on the table (draw piles do not count); several
  there is an error (write the uid).

Within a step the physical verbs apply in the order draw, remove, place, place_down, flip, on,
tap, untap, dice, burn, roll (a die rolled again to the value it showed); `phase`, `pass`,
`declare`, `expect` and `note` do not move anything.
Deck lists are top card first. Copies are numbered across the whole table in file order
(`{p1: [T1, T1], p2: [T1]}` gives p1 T1#1, T1#2 and p2 T1#3); `setup` cards follow the decks.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from companion import safeio
from companion.errors import CompanionError, DataFileError
from companion.games import GAMES, game_info
from companion.layouts import MatLayout, load_layout
from companion.markers.payload import TOKENS, PayloadError, die_index
from companion.sim.table_state import (
    DECK_ZONE_NAMES,
    PHYSICAL_VERBS,
    TableError,
    TruthTable,
    apply_verb,
    empty_table,
    with_decks,
)
from companion.snapshot import card_uid, split_uid

if TYPE_CHECKING:
    from companion.cardsets import Card, CardSet

PLAYERS = ("p1", "p2")
DECK_PILE_NAMES = ("deck", "lager", "problem-deck")
VERBS = (*PHYSICAL_VERBS, "phase", "pass", "declare", "expect", "note")
TOP_KEYS = ("game", "title", "description", "players", "first", "seed", "cards", "decks",
            "setup", "steps")
SETUP_KEYS = ("turn", "active", "phase", "table", "hands", "dice", "on", "score", "lords",
              "manes", "action_tokens", "round", "fans")
SETUP_ROLES = ("lords", "manes")
"""Setup keys naming one card on the table per player (a FE lord, a MLP mane character)."""

EXPECT_COMMON = ("legal", "phase", "active", "score", "winner", "violations", "turn", "hands",
                 "note", "refused")


def game_expect_keys(game: str) -> tuple[str, ...]:
    """The `expect` keys `game` checks besides the common ones: each ruleset declares its
    own (`Ruleset.expect_keys`), looked up only when a script is read."""
    from companion.games import get_ruleset, has_ruleset

    return get_ruleset(game).expect_keys if has_ruleset(game) else ()


_REF = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._\-]*(#[0-9]+)?$")


class ScriptError(DataFileError):
    """A table script is broken; the message names file and line."""


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
    zone = f"{key}.{DECK_ZONE_NAMES.get(game, 'deck')}"
    if zone not in layout.zones:
        raise CompanionError(f"{game} has no deck zone {zone}")
    return zone


def initial_from_script(script: TableScript) -> TruthTable:
    """Decks face down in their piles, then the setup position."""
    return _initial(script.game, script.seed, script.decks, script.owners, script.setup)


def _initial(game: str, seed: int, decks: dict[str, list[str]], owners: dict[str, str],
             setup: Setup | None) -> TruthTable:
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


# ----- loading -----------------------------------------------------------------------------------

def load_script(path: str | Path) -> TableScript:
    path = Path(path)
    try:
        text = safeio.read_text(path, max_bytes=safeio.MAX_SCRIPT_BYTES)
    except safeio.UnsafeInputError as exc:
        raise ScriptError(path, str(exc).removeprefix(f"{path}: ")) from None
    return parse_script(text, str(path))


def parse_script(text: str, source: str = "<script>") -> TableScript:
    """Parse and validate a table script; every problem is a ScriptError with its line."""
    root = _compose(text, source)
    return _Parser(source).script(root)


def _compose(text: str, source: str) -> yaml.Node:
    loader = yaml.SafeLoader(text)
    try:
        safeio.check_yaml(text)
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise ScriptError(source, f"not valid YAML: {problem}", line) from exc
    finally:
        loader.dispose()
    if not isinstance(node, yaml.MappingNode):
        line = node.start_mark.line + 1 if node is not None else 1
        raise ScriptError(source, "a table script is a mapping with game, decks and steps", line)
    return node


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _value(node: yaml.Node) -> Any:
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def _suggest(word: str, options: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class _Parser:
    """One pass over the YAML nodes, walking the true table to resolve card copies."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.game = ""
        self.layout: MatLayout | None = None
        self.inline: dict[str, Card] = {}
        self.cardset: CardSet | None = None
        self.table: TruthTable | None = None

    # ----- small helpers ---------------------------------------------------------------------

    def error(self, message: str, node: yaml.Node | None) -> ScriptError:
        return ScriptError(self.source, message, _line(node) if node is not None else None)

    def mapping(self, node: yaml.Node, what: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            raise self.error(f"{what} must be a mapping", node)
        result: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.error(f"{what}: keys must be plain names", key_node)
            key = str(key_node.value)
            if key in result:
                raise self.error(f"{what}: {key!r} given twice", key_node)
            result[key] = (key_node, value_node)
        return result

    def items(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        """A list, or a single scalar standing for a list of one."""
        if isinstance(node, yaml.SequenceNode):
            return list(node.value)
        if isinstance(node, yaml.ScalarNode) and node.value not in ("", "~", "null"):
            return [node]
        raise self.error(f"{what} must be a list", node)

    def text(self, node: yaml.Node, what: str) -> str:
        value = _value(node) if isinstance(node, yaml.ScalarNode) else None
        if isinstance(value, bool) or value is None or isinstance(value, dict | list):
            raise self.error(f"{what} must be text, not {_shown(node)}", node)
        return str(value)

    def integer(self, node: yaml.Node, what: str, low: int, high: int | None = None) -> int:
        value = _value(node) if isinstance(node, yaml.ScalarNode) else None
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (
                high is not None and value > high):
            bound = f"{low}-{high}" if high is not None else f">= {low}"
            raise self.error(f"{what} must be a whole number {bound}, not {_shown(node)}", node)
        return value

    def player(self, node: yaml.Node, what: str) -> str:
        value = self.text(node, what)
        if value not in PLAYERS:
            raise self.error(f"{what} must be p1 or p2, not {value!r}", node)
        return value

    def zone(self, node: yaml.Node) -> str:
        assert self.layout is not None
        zone = self.text(node, "zone")
        if zone not in self.layout.zones:
            zones = sorted(self.layout.zones)
            raise self.error(
                f"unknown zone {zone!r} for {self.game}{_suggest(zone, zones)}; zones: "
                f"{', '.join(zones)}", node)
        return zone

    def die(self, node: yaml.Node) -> str:
        name = self.text(node, "die")
        try:
            die_index(name)
        except PayloadError as exc:
            raise self.error(f"unknown die {name!r}: {exc}", node) from None
        return name

    def known_card(self, card_id: str, node: yaml.Node) -> None:
        if card_id in self.inline:
            return
        assert self.cardset is not None
        if card_id not in self.cardset.cards:
            known = [*self.cardset.cards, *self.inline]
            raise self.error(
                f"unknown card {card_id!r}: not in the {self.game} cardset nor among the "
                f"script's cards{_suggest(card_id, known)}", node)

    def ref(self, node: yaml.Node, what: str = "card") -> str:
        ref = self.text(node, what)
        if not _REF.match(ref):
            raise self.error(f"bad card reference {ref!r}: write a card id or id#copy", node)
        self.known_card(ref.split("#")[0], node)
        return ref

    # ----- the table walk --------------------------------------------------------------------

    def apply(self, verb: str, value: Any, node: yaml.Node) -> None:
        assert self.table is not None
        try:
            self.table = apply_verb(self.table, verb, value)
        except TableError as exc:
            raise self.error(str(exc), node) from None

    def explicit(self, ref: str, node: yaml.Node) -> str:
        assert self.table is not None
        if ref not in self.table.cards:
            card_id = ref.split("#")[0]
            copies = ", ".join(self.table.copies(card_id)) or "none"
            raise self.error(f"no physical card {ref} in this script (copies of {card_id}: "
                             f"{copies})", node)
        return ref

    def copies_of(self, card_id: str, node: yaml.Node) -> tuple[str, ...]:
        assert self.table is not None
        copies = self.table.copies(card_id)
        if not copies:
            raise self.error(f"card {card_id} is in no deck of this script (add it to decks "
                             "or setup)", node)
        return copies

    def on_table(self, ref: str, node: yaml.Node) -> str:
        """A card ref of any verb but place: the single copy lying on the table."""
        assert self.table is not None
        if "#" in ref:
            uid = self.explicit(ref, node)
            if not self.table.on_table(uid):
                raise self.error(f"{uid} is not on the table", node)
            return uid
        laid = [u for u in self.copies_of(ref, node) if self.table.on_table(u)
                and not _is_deck_zone(self.table.cards[u].zone)]
        if not laid:
            raise self.error(f"no copy of {ref} is on the table", node)
        if len(laid) > 1:
            raise self.error(f"ambiguous copy: {', '.join(laid)} are on the table; write "
                             "which one", node)
        return laid[0]

    def to_place(self, ref: str, zone: str, node: yaml.Node) -> str:
        """A card ref of place/place_down: a copy not yet laid out (see the module doc)."""
        assert self.table is not None and self.layout is not None
        if "#" in ref:
            return self.explicit(ref, node)
        table = self.table
        owner = self.layout.zones[zone].owner
        ranked: list[tuple[int, int, int, str]] = []
        laid: list[str] = []
        for uid in self.copies_of(ref, node):
            state = table.cards[uid]
            copy = split_uid(uid)[1]
            if state.zone is None:
                rank = 0 if state.holder == owner else (1 if state.owner == owner else 2)
                ranked.append((rank, 0, copy, uid))
            elif _is_deck_zone(state.zone):
                if table.top(state.zone) == uid:  # only a deck's top card comes out unasked
                    own_deck = state.zone.startswith(f"{owner}.") or owner == "shared"
                    ranked.append((3 if own_deck else 4, 0, copy, uid))
            else:
                laid.append(uid)
        if ranked:
            return min(ranked)[3]
        if len(laid) == 1:
            return laid[0]
        raise self.error(f"ambiguous copy: every copy of {ref} is laid out ({', '.join(laid)});"
                         " write which one moves", node)

    # ----- sections ----------------------------------------------------------------------------

    def script(self, root: yaml.Node) -> TableScript:
        top = self.mapping(root, "table script")
        for key, (key_node, _) in top.items():
            if key not in TOP_KEYS:
                raise self.error(f"unknown key {key!r}{_suggest(key, TOP_KEYS)}; known: "
                                 f"{', '.join(TOP_KEYS)}", key_node)
        if "game" not in top:
            raise self.error("game is missing", root)
        game_node = top["game"][1]
        self.game = self.text(game_node, "game")
        if self.game not in GAMES:
            raise self.error(f"unknown game {self.game!r}{_suggest(self.game, tuple(GAMES))}; "
                             f"known: {', '.join(GAMES)}", game_node)
        game_info(self.game)
        self.layout = load_layout(self.game)
        from companion.cardsets import load_cardset

        self.cardset = load_cardset(self.game)
        players = self.players(top["players"][1]) if "players" in top else ("Player 1",
                                                                             "Player 2")
        first = self.player(top["first"][1], "first") if "first" in top else "p1"
        seed = self.integer(top["seed"][1], "seed", 0) if "seed" in top else 0
        description = self.text(top["description"][1], "description") if (
            "description" in top) else ""
        title = self.text(top["title"][1], "title") if "title" in top else ""
        if "cards" in top:
            self.inline_cards(top["cards"][1])
        refs: list[tuple[str, str, yaml.Node]] = []  # (deck key or zone, ref, node)
        deck_keys: list[str] = []
        if "decks" in top:
            deck_keys = self.deck_refs(top["decks"][1], refs)
        setup_node = top["setup"][1] if "setup" in top else None
        setup_fields = self.mapping(setup_node, "setup") if setup_node is not None else {}
        table_refs: list[tuple[str, Any, yaml.Node]] = []
        if "table" in setup_fields:
            table_refs = self.setup_table_refs(setup_fields["table"][1])
        uids = self.number_copies([(k, r, n) for k, r, n in refs]
                                  + [(z, e["card"], n) for z, e, n in table_refs])
        owners: dict[str, str] = {}
        decks: dict[str, list[str]] = {k: [] for k in deck_keys}
        for (key, _, _), uid in zip(refs, uids[:len(refs)], strict=True):
            decks[key].append(uid)
            owners[uid] = self.key_owner(key)
        setup_uids = uids[len(refs):]
        for (zone, _, _), uid in zip(table_refs, setup_uids, strict=True):
            owner = self.layout.zones[zone].owner
            owners[uid] = owner
        self.table = _initial(self.game, seed, decks, owners, None)
        setup = None
        if setup_node is not None:
            setup = self.setup(setup_fields, table_refs, setup_uids, decks, owners, seed)
        if "steps" not in top:
            raise self.error("steps are missing", root)
        steps_node = top["steps"][1]
        if not isinstance(steps_node, yaml.SequenceNode):
            raise self.error("steps must be a list of steps", steps_node)
        steps = tuple(self.step(i, node) for i, node in enumerate(steps_node.value, start=1))
        return TableScript(
            path=self.source, game=self.game, players=players, first=first, seed=seed,
            cards=tuple(self.inline.values()), decks=decks, owners=owners, setup=setup,
            steps=steps, description=description, title=title,
        )

    def players(self, node: yaml.Node) -> tuple[str, str]:
        names = self.items(node, "players")
        if len(names) != 2:
            raise self.error("players must name two players: [p1, p2]", node)
        return (self.text(names[0], "player name"), self.text(names[1], "player name"))

    def inline_cards(self, node: yaml.Node) -> None:
        from companion.cardsets import card_from_mapping

        assert self.cardset is not None
        if not isinstance(node, yaml.SequenceNode):
            raise self.error("cards must be a list of card mappings", node)
        for card_node in node.value:
            mapping = _value(card_node)
            if not isinstance(mapping, dict):
                raise self.error("each inline card is a mapping with id, name, type ...",
                                 card_node)
            try:
                card = card_from_mapping(self.game, mapping, self.source, _line(card_node))
            except DataFileError as exc:
                raise ScriptError(self.source, exc.detail, exc.line or _line(card_node)) from None
            except CompanionError as exc:
                raise self.error(str(exc), card_node) from None
            if card.id in self.inline:
                raise self.error(f"inline card {card.id} is defined twice", card_node)
            if card.id in self.cardset.cards:
                raise self.error(f"inline card {card.id} is already in the {self.game} cardset;"
                                 " use that one or choose another id", card_node)
            self.inline[card.id] = card

    def key_owner(self, key: str) -> str:
        assert self.layout is not None
        return self.layout.zones[key].owner if key in self.layout.zones else key

    def deck_refs(self, node: yaml.Node, out: list[tuple[str, str, yaml.Node]]) -> list[str]:
        assert self.layout is not None
        keys: list[str] = []
        for key, (key_node, list_node) in self.mapping(node, "decks").items():
            if key in self.layout.zones:
                if self.layout.zones[key].kind != "pile":
                    raise self.error(f"decks: {key} is not a pile zone", key_node)
            elif key in (*PLAYERS, "shared"):
                try:
                    deck_key_zone(self.game, key)
                except CompanionError as exc:
                    raise self.error(f"decks: {exc}", key_node) from None
            else:
                raise self.error(f"decks: key {key!r} must be p1, p2, shared or a pile zone",
                                 key_node)
            keys.append(key)
            if isinstance(list_node, yaml.ScalarNode) and list_node.value in ("", "~", "null"):
                continue
            if not isinstance(list_node, yaml.SequenceNode):
                raise self.error(f"decks: {key} must be a list of card ids", list_node)
            for item in list_node.value:
                out.append((key, self.ref(item), item))
        return keys

    def number_copies(self, refs: list[tuple[str, str, yaml.Node]]) -> list[str]:
        """Uids for every physical card: explicit copies kept, the others numbered in order."""
        used: dict[str, set[int]] = {}
        for _, ref, node in refs:
            if "#" in ref:
                card_id, copy = split_uid(ref)
                if copy < 1:
                    raise self.error(f"copy numbers start at 1: {ref}", node)
                if copy in used.setdefault(card_id, set()):
                    raise self.error(f"{ref} appears twice: every physical copy is one card",
                                     node)
                used[card_id].add(copy)
        result: list[str] = []
        counters: dict[str, int] = {}
        for _, ref, _ in refs:
            if "#" in ref:
                result.append(ref)
                continue
            taken = used.setdefault(ref, set())
            copy = counters.get(ref, 0) + 1
            while copy in taken:
                copy += 1
            counters[ref] = copy
            taken.add(copy)
            result.append(card_uid(ref, copy))
        return result

    def setup_table_refs(self, node: yaml.Node) -> list[tuple[str, Any, yaml.Node]]:
        out: list[tuple[str, Any, yaml.Node]] = []
        for _, (key_node, list_node) in self.mapping(node, "setup table").items():
            zone = self.zone(key_node)
            for item in self.items(list_node, f"setup table {zone}"):
                if isinstance(item, yaml.MappingNode):
                    fields = self.mapping(item, "setup card")
                    for key, (k_node, _) in fields.items():
                        if key not in ("card", "down", "tapped"):
                            raise self.error(f"setup card: unknown key {key!r}; known: card, "
                                             "down, tapped", k_node)
                    if "card" not in fields:
                        raise self.error("setup card: card is missing", item)
                    entry = {
                        "card": self.ref(fields["card"][1]),
                        "down": bool(_value(fields["down"][1])) if "down" in fields else False,
                        "tapped": bool(_value(fields["tapped"][1])) if "tapped" in fields
                        else False,
                    }
                else:
                    entry = {"card": self.ref(item), "down": False, "tapped": False}
                out.append((zone, entry, item))
        return out

    def setup(self, fields: dict[str, tuple[yaml.Node, yaml.Node]],
              table_refs: list[tuple[str, Any, yaml.Node]], uids: list[str],
              decks: dict[str, list[str]], owners: dict[str, str], seed: int) -> Setup:
        for key, (key_node, _) in fields.items():
            if key not in SETUP_KEYS:
                raise self.error(f"setup: unknown key {key!r}{_suggest(key, SETUP_KEYS)}; "
                                 f"known: {', '.join(SETUP_KEYS)}", key_node)
        table: dict[str, list[str]] = {}
        down: list[str] = []
        tapped: list[str] = []
        for (zone, entry, _), uid in zip(table_refs, uids, strict=True):
            table.setdefault(zone, []).append(uid)
            if entry["down"]:
                down.append(uid)
            if entry["tapped"]:
                tapped.append(uid)
        partial = Setup(table=table, face_down=tuple(down), tapped=tuple(tapped))
        self.table = _initial(self.game, seed, decks, owners, partial)
        hands: dict[str, int] = {}
        if "hands" in fields:
            for key, (k_node, v_node) in self.mapping(fields["hands"][1], "hands").items():
                hands[self.player(k_node, "hands")] = self.integer(v_node, f"hands {key}", 0)
            self.apply("draw", hands, fields["hands"][1])
        dice = self.dice_map(fields["dice"][1]) if "dice" in fields else {}
        on = self.on_map(fields["on"][1]) if "on" in fields else {}
        roles: dict[str, dict[str, str]] = {}
        for role in SETUP_ROLES:
            if role in fields:
                roles[role] = {
                    self.player(k_node, role): self.on_table(self.ref(v_node), v_node)
                    for _, (k_node, v_node) in self.mapping(fields[role][1], role).items()
                }
        turn = self.integer(fields["turn"][1], "turn", 1) if "turn" in fields else None
        active = self.player(fields["active"][1], "active") if "active" in fields else None
        phase = self.text(fields["phase"][1], "phase") if "phase" in fields else None
        extra: dict[str, Any] = {
            k: _value(fields[k][1]) for k in ("score", "action_tokens", "round", "fans")
            if k in fields
        }
        return Setup(turn=turn, active=active, phase=phase, table=table, face_down=tuple(down),
                     tapped=tuple(tapped), hands=hands, dice=dice, on=on, roles=roles,
                     extra=extra)

    # ----- steps -------------------------------------------------------------------------------

    def step(self, index: int, node: yaml.Node) -> Step:
        fields = self.mapping(node, f"step {index}")
        for key, (key_node, _) in fields.items():
            if key not in VERBS:
                raise self.error(f"unknown verb {key!r}{_suggest(key, VERBS)}; verbs: "
                                 f"{', '.join(VERBS)}", key_node)
        values: dict[str, Any] = {}
        for verb in PHYSICAL_VERBS:
            if verb in fields:
                values[verb] = getattr(self, f"verb_{verb}")(fields[verb][1])
        phase: bool | str = False
        if "phase" in fields:
            raw = _value(fields["phase"][1])
            if not (raw is True or (isinstance(raw, str) and raw.strip())):
                raise self.error("phase must be true (next phase) or a phase name",
                                 fields["phase"][1])
            phase = raw
        pass_turn = False
        if "pass" in fields:
            raw = _value(fields["pass"][1])
            if not isinstance(raw, bool):
                raise self.error("pass must be true or false", fields["pass"][1])
            pass_turn = raw
        declare: dict[str, Any] = {}
        if "declare" in fields:
            self.mapping(fields["declare"][1], "declare")
            declare = dict(_value(fields["declare"][1]))
        expect = self.expect(fields["expect"][1]) if "expect" in fields else {}
        note = self.text(fields["note"][1], "note") if "note" in fields else ""
        return Step(index=index, line=_line(node), phase=phase, pass_turn=pass_turn,
                    declare=declare, expect=expect, note=note, **values)

    def verb_draw(self, node: yaml.Node) -> dict[str, int]:
        draws: dict[str, int] = {}
        for key, (k_node, v_node) in self.mapping(node, "draw").items():
            draws[self.player(k_node, "draw")] = self.integer(v_node, f"draw {key}", 1)
            self.apply("draw", {key: draws[key]}, v_node)
        return draws

    def verb_remove(self, node: yaml.Node) -> list[str]:
        assert self.table is not None
        out: list[str] = []
        for item in self.items(node, "remove"):
            name = self.text(item, "remove")
            if name in TOKENS:
                if name not in self.table.tokens:
                    raise self.error(f"token {name} is not on the table", item)
                uid = name
            elif name.startswith(PLAYERS) and "." in name:
                uid = self.die(item)
                if uid not in self.table.dice:
                    raise self.error(f"die {uid} is not on the table", item)
            else:
                uid = self.on_table(self.ref(item), item)
            self.apply("remove", [uid], item)
            out.append(uid)
        return out

    def _placing(self, node: yaml.Node, verb: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for _, (k_node, v_node) in self.mapping(node, verb).items():
            ref = self.ref(k_node)
            zone = self.zone(v_node)
            uid = self.to_place(ref, zone, k_node)
            if uid in out:
                raise self.error(f"{uid} is placed twice in one step", k_node)
            self.apply(verb, {uid: zone}, k_node)
            out[uid] = zone
        return out

    def verb_place(self, node: yaml.Node) -> dict[str, str]:
        return self._placing(node, "place")

    def verb_place_down(self, node: yaml.Node) -> dict[str, str]:
        return self._placing(node, "place_down")

    def _card_list(self, node: yaml.Node, verb: str) -> list[str]:
        out: list[str] = []
        for item in self.items(node, verb):
            uid = self.on_table(self.ref(item), item)
            self.apply(verb, [uid], item)
            out.append(uid)
        return out

    def verb_flip(self, node: yaml.Node) -> list[str]:
        return self._card_list(node, "flip")

    def verb_tap(self, node: yaml.Node) -> list[str]:
        return self._card_list(node, "tap")

    def verb_untap(self, node: yaml.Node) -> list[str]:
        return self._card_list(node, "untap")

    def on_map(self, node: yaml.Node) -> dict[str, str]:
        out: dict[str, str] = {}
        for _, (k_node, v_node) in self.mapping(node, "on").items():
            name = self.text(k_node, "on")
            if name in TOKENS:
                item = name
            elif name.startswith(PLAYERS) and "." in name:
                item = self.die(k_node)
            else:
                item = self.on_table(self.ref(k_node), k_node)
            beneath = self.on_table(self.ref(v_node), v_node)
            self.apply("on", {item: beneath}, k_node)
            out[item] = beneath
        return out

    def verb_on(self, node: yaml.Node) -> dict[str, str]:
        return self.on_map(node)

    def dice_map(self, node: yaml.Node) -> dict[str, DiceState]:
        assert self.table is not None and self.layout is not None
        out: dict[str, DiceState] = {}
        for _, (k_node, v_node) in self.mapping(node, "dice").items():
            die = self.die(k_node)
            current = self.table.dice.get(die)
            if isinstance(v_node, yaml.MappingNode):
                fields = self.mapping(v_node, f"dice {die}")
                for key, (f_node, _) in fields.items():
                    if key not in ("value", "zone"):
                        raise self.error(f"dice {die}: unknown key {key!r}; known: value, zone",
                                         f_node)
                if "value" not in fields:
                    raise self.error(f"dice {die}: value is missing", v_node)
                value = self.integer(fields["value"][1], f"die {die} value", 1, 6)
                zone = self.zone(fields["zone"][1]) if "zone" in fields else None
            else:
                value = self.integer(v_node, f"die {die} value", 1, 6)
                zone = None
            if zone is None:
                home = f"{die.split('.')[0]}.dice"
                if current is not None and current.on is not None:
                    zone = current.zone  # a damage die on a creature changes its value only
                elif home in self.layout.zones:
                    zone = home
                elif current is not None:
                    zone = current.zone
                else:
                    raise self.error(f"die {die}: {self.game} has no dice zone; write "
                                     f"{{value: {value}, zone: ...}}", v_node)
            out[die] = DiceState(value, zone)
            self.apply("dice", {die: out[die]}, k_node)
        return out

    def verb_dice(self, node: yaml.Node) -> dict[str, DiceState]:
        return self.dice_map(node)

    def verb_roll(self, node: yaml.Node) -> list[str]:
        """Dice picked up and rolled again, showing the same value (a new value: `dice`)."""
        assert self.table is not None
        out: list[str] = []
        for item in self.items(node, "roll"):
            die = self.die(item)
            if die not in self.table.dice:
                raise self.error(f"die {die} is not on the table", item)
            self.apply("roll", [die], item)
            out.append(die)
        return out

    def verb_burn(self, node: yaml.Node) -> list[str]:
        out: list[str] = []
        for item in self.items(node, "burn"):
            die = self.die(item)
            self.apply("burn", [die], item)
            out.append(die)
        return out

    def expect(self, node: yaml.Node) -> dict[str, Any]:
        allowed = (*EXPECT_COMMON, *game_expect_keys(self.game))
        fields = self.mapping(node, "expect")
        out: dict[str, Any] = {}
        for key, (k_node, v_node) in fields.items():
            if key not in allowed:
                raise self.error(f"unknown expect key {key!r}{_suggest(key, allowed)}; "
                                 f"{self.game} checks: {', '.join(allowed)}", k_node)
            value = _value(v_node)
            if key in ("legal", "refused") and not isinstance(value, bool):
                raise self.error(f"expect {key} must be true or false", v_node)
            if key == "active" and value not in PLAYERS:
                raise self.error("expect active must be p1 or p2", v_node)
            if key == "winner" and value not in (*PLAYERS, None, "draw"):
                raise self.error("expect winner must be p1, p2, draw or null", v_node)
            if key == "violations" and not (
                    isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise self.error("expect violations must be a list of violation codes", v_node)
            if key == "phase" and not isinstance(value, str):
                raise self.error("expect phase must be a phase name", v_node)
            out[key] = value
        return out


def _is_deck_zone(zone: str | None) -> bool:
    """Draw piles: their cards are not yet laid out (a bare id there is not 'on the table')."""
    return zone is not None and zone.split(".", 1)[1] in DECK_PILE_NAMES


def _shown(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return repr(node.value) if node.value else "nothing"
    return "a mapping" if isinstance(node, yaml.MappingNode) else "a list"
