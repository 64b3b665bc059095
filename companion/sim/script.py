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
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from companion import safeio
from companion.cardsets.kinds import canonical
from companion.errors import CompanionError, DataFileError
from companion.games import GAMES, game_info, game_spec
from companion.layouts import MatLayout, load_layout
from companion.markers.payload import MAX_COPY, TOKENS, PayloadError, die_index
from companion.sim.script_model import (
    DiceState,
    Setup,
    Step,
    TableScript,
    deck_key_zone,
)
from companion.sim.table_state import (
    PHYSICAL_VERBS,
    TableError,
    TruthTable,
    apply_verb,
    rename_card,
    starting_table,
)
from companion.snapshot import card_uid, split_uid

if TYPE_CHECKING:
    from companion.cardsets import Card, CardSet

PLAYERS = ("p1", "p2")
VERBS = (*PHYSICAL_VERBS, "phase", "pass", "declare", "expect", "note")
TOP_KEYS = ("game", "title", "description", "players", "first", "seed", "cards", "decks",
            "setup", "steps")
SETUP_KEYS = ("turn", "active", "phase", "table", "hands", "dice", "on", "score", "lords",
              "manes", "action_tokens", "round", "fans")
SETUP_ROLES = ("lords", "manes")
"""Setup keys naming one card on the table per player (a FE lord, a MLP mane character)."""

DECLARE_KEYS = ("attack", "target", "combat", "activate", "ability", "redraw", "concede",
                "move", "player", "choice")
"""What a step's `declare` may say (the referee turns it into moves; docs/table-scripts.md)."""
REDRAW_KINDS = ("show", "fresh")
MOVE_KEYS = ("kind", "player", "cards", "to", "target", "value", "options")

EXPECT_COMMON = ("legal", "phase", "active", "score", "winner", "violations", "turn", "hands",
                 "note", "refused")


def game_expect_keys(game: str) -> tuple[str, ...]:
    """The `expect` keys `game` checks besides the common ones: each ruleset declares its
    own (`Ruleset.expect_keys`), looked up only when a script is read."""
    from companion.games import get_ruleset, has_ruleset

    return get_ruleset(game).expect_keys if has_ruleset(game) else ()


_REF = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._\-]*(#[0-9]+)?$")


def bundled_scripts_dir() -> Path:
    """Where the bundled table scripts lie: `companion/sim/scripts/<game>/*.yaml`."""
    return Path(__file__).resolve().parent / "scripts"


class ScriptError(DataFileError):
    """A table script is broken; the message names file and line."""


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
        self.root: yaml.Node | None = None
        self.decks: dict[str, list[str]] = {}  # deck key -> uids, top first
        self.owners: dict[str, str] = {}
        self.unknown: set[str] = set()  # cards nobody named yet (hands beyond the decks)
        self.filler: str | None = None

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
        value = canonical(self.text(node, what), PLAYERS)
        if value not in PLAYERS:
            raise self.error(f"{what} must be p1 or p2, not {value!r}", node)
        return str(value)

    def zone(self, node: yaml.Node) -> str:
        assert self.layout is not None
        zone = str(canonical(self.text(node, "zone"), tuple(self.layout.zones)))
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
                and not _is_deck_zone(self.game, self.table.cards[u].zone)]
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
        unknown = sorted(u for u in self.unknown if table.cards[u].zone is None
                         and table.cards[u].holder in ((owner,) if owner in PLAYERS
                                                       else PLAYERS))
        if not table.copies(ref) and unknown:
            return self.reveal_from_hand(unknown, ref, node)
        for uid in self.copies_of(ref, node):
            state = table.cards[uid]
            copy = split_uid(uid)[1]
            if state.zone is None:
                rank = 0 if state.holder == owner else (1 if state.owner == owner else 2)
                ranked.append((rank, 0, copy, uid))
            elif _is_deck_zone(self.game, state.zone):
                if table.top(state.zone) == uid:  # only a deck's top card comes out unasked
                    own_deck = state.zone.startswith(f"{owner}.") or owner == "shared"
                    ranked.append((3 if own_deck else 4, 0, copy, uid))
            else:
                laid.append(uid)
        if ranked and min(ranked)[0] <= 2:  # a copy in a hand
            return min(ranked)[3]
        if unknown:  # rather an unknown card from the hand than a deck's top card
            return self.reveal_from_hand(unknown, ref, node)
        if ranked:
            return min(ranked)[3]
        if len(laid) == 1:
            return laid[0]
        raise self.error(f"ambiguous copy: every copy of {ref} is laid out ({', '.join(laid)});"
                         " write which one moves", node)

    # ----- sections ----------------------------------------------------------------------------

    def script(self, root: yaml.Node) -> TableScript:
        self.root = root
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
        self.check_setup_keys(setup_fields)
        table_refs: list[tuple[str, Any, yaml.Node]] = []
        counts: list[tuple[str, int, yaml.Node]] = []
        if "table" in setup_fields:
            self.setup_table_entries(setup_fields["table"][1], table_refs, counts)
        for key, (key_node, value_node) in setup_fields.items():
            if "." in key:  # `p1.orbs: 2` beside the setup keys: a zone of the setup table
                self.setup_zone_entry(key_node, value_node, table_refs, counts)
        self.no_card_twice(refs, table_refs)
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
        hands_node = setup_fields["hands"][1] if "hands" in setup_fields else None
        hands = self.hands(hands_node) if hands_node is not None else {}
        self.decks, self.owners = decks, owners
        draws = self.planned_draws(top.get("steps", (None, None))[1])
        self.add_unknown_cards(counts, {p: hands.get(p, 0) + draws.get(p, 0) for p in PLAYERS},
                               hands_node, {*uids})
        self.table = self.start(seed, None, setup_node)
        setup = None
        if setup_node is not None:
            setup = self.setup(setup_node, setup_fields, table_refs, setup_uids, counts, hands,
                               seed)
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

    def check_setup_keys(self, fields: dict[str, tuple[yaml.Node, yaml.Node]]) -> None:
        for key, (key_node, _) in fields.items():
            if key not in SETUP_KEYS and "." not in key:
                raise self.error(f"setup: unknown key {key!r}{_suggest(key, SETUP_KEYS)}; "
                                 f"known: {', '.join(SETUP_KEYS)}, or a zone id with its "
                                 "cards or a count (p1.orbs: 2)", key_node)

    def setup_table_entries(self, node: yaml.Node, refs: list[tuple[str, Any, yaml.Node]],
                            counts: list[tuple[str, int, yaml.Node]]) -> None:
        for _, (key_node, list_node) in self.mapping(node, "setup table").items():
            self.setup_zone_entry(key_node, list_node, refs, counts)

    def setup_zone_entry(self, key_node: yaml.Node, list_node: yaml.Node,
                         refs: list[tuple[str, Any, yaml.Node]],
                         counts: list[tuple[str, int, yaml.Node]]) -> None:
        """One zone of the setup table: its cards (top first), or how many unseen cards lie
        there (`p1.orbs: 2`: face down, from the top of the owner's draw pile)."""
        zone = self.zone(key_node)
        if isinstance(list_node, yaml.ScalarNode) and isinstance(_value(list_node), int) \
                and not isinstance(_value(list_node), bool):
            if any(z == zone for z, _, _ in counts) or any(z == zone for z, _, _ in refs):
                raise self.error(f"setup: {zone} is given twice", key_node)
            counts.append((zone, self.integer(list_node, f"setup {zone}", 0), list_node))
            return
        if any(z == zone for z, _, _ in counts):
            raise self.error(f"setup: {zone} is given twice", key_node)
        refs.extend(self.setup_table_refs(zone, list_node))

    def setup_table_refs(self, zone: str, list_node: yaml.Node
                         ) -> list[tuple[str, Any, yaml.Node]]:
        out: list[tuple[str, Any, yaml.Node]] = []
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

    def setup(self, node: yaml.Node, fields: dict[str, tuple[yaml.Node, yaml.Node]],
              table_refs: list[tuple[str, Any, yaml.Node]], uids: list[str],
              counts: list[tuple[str, int, yaml.Node]], hands: dict[str, int],
              seed: int) -> Setup:
        assert self.table is not None
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
        self.table = self.start(seed, partial, node)
        for zone, count, count_node in counts:  # face down, from the top of the draw pile
            pile = self.pile_of(zone, count_node)
            taken = list(self.table.in_zone(pile)[:count])
            table[zone] = [*table.get(zone, []), *taken]
            down += taken
            for uid in reversed(taken):
                self.apply("place_down", {uid: zone}, count_node)
        if hands:
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
        phase = self.phase_name(fields["phase"][1], turn_only=True) if "phase" in fields else None
        extra: dict[str, Any] = {}
        if "round" in fields:
            extra["round"] = self.integer(fields["round"][1], "round", 1)
        for key in ("score", "action_tokens", "fans"):  # per player: {p1: 6, p2: 2}
            if key in fields:
                extra[key] = {self.player(k_node, key): self.integer(v_node, f"{key} {k}", 0)
                              for k, (k_node, v_node) in self.mapping(fields[key][1],
                                                                      key).items()}
        return Setup(turn=turn, active=active, phase=phase, table=table, face_down=tuple(down),
                     tapped=tuple(tapped), hands=hands, dice=dice, on=on, roles=roles,
                     extra=extra)

    def hands(self, node: yaml.Node) -> dict[str, int]:
        return {self.player(k_node, "hands"): self.integer(v_node, f"hands {key}", 0)
                for key, (k_node, v_node) in self.mapping(node, "hands").items()}

    def start(self, seed: int, setup: Setup | None, node: yaml.Node | None) -> TruthTable:
        """The table before the first step (decks, then `setup`'s cards on the table)."""
        try:
            return starting_table(self.game, seed, self.decks, self.owners, setup)
        except (TableError, CompanionError) as exc:
            raise self.error(f"setup: {exc}", node) from None

    def pile_of(self, zone: str, node: yaml.Node | None) -> str:
        """The draw pile that cards for `zone` (or a player's hand) come from."""
        assert self.layout is not None
        owner = zone if zone in PLAYERS else self.layout.zones[zone].owner
        pile = game_spec(self.game).deck_zone_of(owner if owner in PLAYERS else "p1")
        if pile is None:
            raise self.error(f"{self.game} has no draw pile for {owner}", node)
        return pile

    def no_card_twice(self, refs: list[tuple[str, str, yaml.Node]],
                      table_refs: list[tuple[str, Any, yaml.Node]]) -> None:
        """A card in a deck list and on the setup table is one card written twice: an error
        (two physical copies are written with their copy numbers, X#1 and X#2)."""
        in_decks = {r.split("#")[0]: n for _, r, n in refs}
        for zone, entry, node in table_refs:
            ref = str(entry["card"])
            if "#" not in ref and ref in in_decks:
                raise self.error(
                    f"{ref} is listed in decks (line {_line(in_decks[ref])}) and lies on "
                    f"{zone} in setup: a card that starts on the table is not in a deck too. "
                    f"Remove it from decks, or write two copies as {ref}#1 and {ref}#2", node)

    def add_unknown_cards(self, counts: list[tuple[str, int, yaml.Node]],
                          hands: dict[str, int], hands_node: yaml.Node | None,
                          used: set[str]) -> None:
        """Hands and setup piles take their cards from the top of the owner's draw pile; what
        the pile lacks are unknown cards, added at its bottom. An unknown card in a hand
        becomes the card a later step places from that hand (`to_place`)."""
        assert self.layout is not None
        needs: dict[str, int] = {}
        for zone, count, node in counts:
            pile = self.pile_of(zone, node)
            needs[pile] = needs.get(pile, 0) + count
        for player, count in hands.items():
            pile = self.pile_of(player, hands_node)
            needs[pile] = needs.get(pile, 0) + count
        for pile, need in needs.items():
            keys = [k for k in self.decks if deck_key_zone(self.game, k) == pile]
            have = sum(len(self.decks[k]) for k in keys)
            if have >= need:
                continue
            key = keys[0] if keys else self.pile_key(pile)
            owner = self.key_owner(key)
            deck = self.decks.setdefault(key, [])
            for _ in range(need - have):
                uid = self.unknown_uid(used)
                used.add(uid)
                deck.append(uid)
                self.owners[uid] = owner
                self.unknown.add(uid)

    def planned_draws(self, steps_node: yaml.Node | None) -> dict[str, int]:
        """How many cards each player draws over all steps (read before the steps are
        checked, so the decks can hold them; a wrong entry is reported with its step)."""
        draws: dict[str, int] = {}
        if not isinstance(steps_node, yaml.SequenceNode):
            return draws
        for step in steps_node.value:
            if not isinstance(step, yaml.MappingNode):
                continue
            for key_node, value_node in step.value:
                if key_node.value != "draw" or not isinstance(value_node, yaml.MappingNode):
                    continue
                for k_node, v_node in value_node.value:
                    player = canonical(str(k_node.value), PLAYERS)
                    count = _value(v_node) if isinstance(v_node, yaml.ScalarNode) else None
                    if player in PLAYERS and isinstance(count, int) and count > 0:
                        draws[player] = draws.get(player, 0) + count
        return draws

    def pile_key(self, pile: str) -> str:
        """The `decks:` key of a pile no deck list names."""
        for key in (*PLAYERS, "shared"):
            try:
                if deck_key_zone(self.game, key) == pile:
                    return key
            except CompanionError:
                continue
        return pile

    def unknown_uid(self, used: set[str]) -> str:
        """A physical card standing for a card nobody has named: a card of the game's most
        common type, with a copy number counted down from the highest."""
        assert self.cardset is not None
        if self.filler is None:
            slots = {s.card_type for s in game_spec(self.game).card_schema.deck_slots.values()}
            cards = [c for c in self.cardset if c.type not in slots] or list(self.cardset)
            if not cards:
                raise self.error(f"the {self.game} cardset has no card to stand for unknown "
                                 "cards; list the cards in decks", self.root)
            types = [c.type for c in cards]
            common = max(sorted(set(types)), key=types.count)
            self.filler = min(c.id for c in cards if c.type == common)
        for copy in range(MAX_COPY, 0, -1):
            uid = card_uid(self.filler, copy)
            if uid not in used:
                return uid
        raise self.error("too many unknown cards", self.root)

    def reveal_from_hand(self, unknown: list[str], ref: str, node: yaml.Node) -> str:
        """`ref` is placed from a hand of unknown cards: one of them was that card."""
        assert self.table is not None
        holders = {self.table.cards[u].holder for u in unknown}
        if len(holders) > 1:
            raise self.error(f"{ref}: both hands hold unknown cards and {ref} is in no deck; "
                             "place it on a zone of its owner, or list it in a deck", node)
        return self.reveal_unknown(unknown[0], ref)

    def reveal_unknown(self, uid: str, ref: str) -> str:
        """Unknown card `uid` (in a hand) turns out to be a copy of card `ref`."""
        assert self.table is not None
        taken = {split_uid(u)[1] for u in self.table.copies(ref)}
        new = card_uid(ref, next(c for c in range(1, MAX_COPY + 1) if c not in taken))
        self.table = rename_card(self.table, uid, new)
        for deck in self.decks.values():
            if uid in deck:
                deck[deck.index(uid)] = new
        self.owners[new] = self.owners.pop(uid)
        self.unknown.discard(uid)
        return new

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
            phase = True if raw is True else self.phase_name(fields["phase"][1])
        pass_turn = False
        if "pass" in fields:
            raw = _value(fields["pass"][1])
            if not isinstance(raw, bool):
                raise self.error("pass must be true or false", fields["pass"][1])
            pass_turn = raw
        declare: dict[str, Any] = {}
        if "declare" in fields:
            declare = self.declare(fields["declare"][1])
        expect = self.expect(fields["expect"][1]) if "expect" in fields else {}
        note = self.text(fields["note"][1], "note") if "note" in fields else ""
        return Step(index=index, line=_line(node), phase=phase, pass_turn=pass_turn,
                    declare=declare, expect=expect, note=note, **values)

    def phases(self) -> tuple[list[str], list[str]]:
        """The game's phase ids: (setup phases, turn phases), from its rules."""
        from companion.games import get_ruleset

        spec = get_ruleset(self.game).flow.spec
        return [p.id for p in spec.setup_phases], [p.id for p in spec.turn_phases]

    def phase_name(self, node: yaml.Node, turn_only: bool = False) -> str:
        """A phase of the game, in any case (`Kampf` -> `kampf`)."""
        setup_phases, turn_phases = self.phases()
        known = turn_phases if turn_only else [*setup_phases, *turn_phases]
        name = str(canonical(self.text(node, "phase"), known))
        if name not in known:
            raise self.error(f"unknown phase {name!r}{_suggest(name, known)}; {self.game} "
                             f"phases: {', '.join(known)}", node)
        return name

    def declare(self, node: yaml.Node) -> dict[str, Any]:
        """What a person tells the page (docs/table-scripts.md, "declare"): checked here so a
        mistake points at its line instead of failing while the script is played."""
        from companion.games import get_ruleset

        fields = self.mapping(node, "declare")
        out: dict[str, Any] = {}
        for key, (k_node, v_node) in fields.items():
            if key not in DECLARE_KEYS:
                raise self.error(f"declare: unknown key {key!r}{_suggest(key, DECLARE_KEYS)}; "
                                 f"known: {', '.join(DECLARE_KEYS)}", k_node)
            value = _value(v_node)
            if key == "player":
                value = self.player(v_node, "declare player")
            elif key in ("choice", "ability"):
                value = self.integer(v_node, f"declare {key}", 0)
            elif key == "concede":
                if not isinstance(value, bool):
                    raise self.error("declare concede must be true or false", v_node)
            elif key == "redraw":
                value = canonical(value, REDRAW_KINDS)
                if value not in REDRAW_KINDS:
                    raise self.error(f"declare redraw must be {' or '.join(REDRAW_KINDS)}",
                                     v_node)
            elif key in ("activate", "target"):
                value = self.declared_ref(v_node, key)
            elif key == "attack":
                value = self.declared_attack(v_node)
            elif key == "combat":
                value = [self.text(n, "combat") for n in self.items(v_node, "combat")]
            elif key == "move":
                value = self.declared_move(v_node, get_ruleset(self.game).known_kinds)
            out[key] = value
        return out

    def declared_ref(self, node: yaml.Node, what: str) -> str:
        """A card (id or id#copy) or a player (a Creature Crush attack on p2)."""
        name = self.text(node, what)
        if canonical(name, PLAYERS) in PLAYERS:
            return str(canonical(name, PLAYERS))
        return self.ref(node, what)

    def declared_attack(self, node: yaml.Node) -> Any:
        if not isinstance(node, yaml.MappingNode):
            refs = [self.declared_ref(n, "attacker") for n in self.items(node, "attack")]
            return refs[0] if isinstance(node, yaml.ScalarNode) else refs
        out: dict[str, Any] = {}
        for key, (k_node, v_node) in self.mapping(node, "declare attack").items():
            if key not in ("attackers", "attacker", "target", "combat"):
                raise self.error(f"declare attack: unknown key {key!r}; known: attackers, "
                                 "target, combat", k_node)
            if key in ("attackers", "attacker"):
                out[key] = [self.declared_ref(n, key) for n in self.items(v_node, key)]
            elif key == "target":
                out[key] = self.declared_ref(v_node, key)
            else:
                out[key] = [self.text(n, "combat") for n in self.items(v_node, "combat")]
        return out

    def declared_move(self, node: yaml.Node, kinds: frozenset[str]) -> dict[str, Any]:
        fields = self.mapping(node, "declare move")
        out: dict[str, Any] = {}
        for key, (k_node, v_node) in fields.items():
            if key not in MOVE_KEYS:
                raise self.error(f"declare move: unknown key {key!r}; known: "
                                 f"{', '.join(MOVE_KEYS)}", k_node)
            if key == "kind":
                kind = self.text(v_node, "move kind")
                if kind not in kinds:
                    raise self.error(f"declare move: {self.game} has no move {kind!r}"
                                     f"{_suggest(kind, sorted(kinds))}; its moves: "
                                     f"{', '.join(sorted(kinds))}", v_node)
                out[key] = kind
            elif key == "player":
                out[key] = self.player(v_node, "move player")
            elif key == "cards":
                out[key] = [self.ref(n) for n in self.items(v_node, "move cards")]
            elif key == "target":
                out[key] = self.declared_ref(v_node, "move target")
            elif key == "to":
                out[key] = self.zone(v_node)
            else:
                out[key] = _value(v_node)
        if "kind" not in out:
            raise self.error("declare move: kind is missing", node)
        return out

    def verb_draw(self, node: yaml.Node) -> dict[str, int]:
        draws: dict[str, int] = {}
        for key, (k_node, v_node) in self.mapping(node, "draw").items():
            player = self.player(k_node, "draw")
            draws[player] = self.integer(v_node, f"draw {key}", 1)
            self.apply("draw", {player: draws[player]}, v_node)
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
            if key in ("active", "winner"):
                value = canonical(value, PLAYERS)
            if key in ("legal", "refused") and not isinstance(value, bool):
                raise self.error(f"expect {key} must be true or false", v_node)
            if key == "active" and value not in PLAYERS:
                raise self.error("expect active must be p1 or p2", v_node)
            if key == "winner" and value not in (*PLAYERS, None, "draw"):
                raise self.error("expect winner must be p1, p2, draw or null", v_node)
            if key == "violations" and not (
                    isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise self.error("expect violations must be a list of violation codes", v_node)
            if key == "phase":
                value = self.phase_name(v_node)
            if key in ("active", "winner"):
                value = canonical(value, PLAYERS)
            out[key] = value
        return out


def _is_deck_zone(game: str, zone: str | None) -> bool:
    """Draw piles: their cards are not yet laid out (a bare id there is not 'on the table')."""
    return zone is not None and game_spec(game).is_draw_pile(zone)


def _shown(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return repr(node.value) if node.value else "nothing"
    return "a mapping" if isinstance(node, yaml.MappingNode) else "a list"
