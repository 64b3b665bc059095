"""What a recording may show on a web page: no more than the table showed.

Registered deck lists are in draw order, and an engine that knows them may name a card before
anybody saw it. Pages therefore get the header without deck lists (only their sizes) and
every event with the ids of cards not yet seen face up on the table replaced by "?". The
export command, run by the library's owner, still writes everything.

`game_index` is one streaming pass over a game's log (memory stays small for 300,000 events)
that pages, the main line and the masking need; it is cached until the game grows.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.record.replay import LINE_KINDS, TOGGLE_KINDS, main_line
from companion.record.store import Event, Store, decisions_of, undone_inputs
from companion.snapshot import TableSnapshot, is_back

UID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*#\d+")
PAGE = 500
SILENT_KINDS = ("observation", "action")
_KEEP = ("target", "off", "on", "move_seq", "violation", "decision", "inputs", "input",
         "in_place_of", "cleared")
_CACHE: OrderedDict[tuple[str, int], tuple[tuple[int, int], GameIndex]] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHED = 8


def public_header(header: Mapping[str, Any]) -> dict[str, Any]:
    """The header without the deck lists (their sizes stay) and without the engine config."""
    out = dict(header)
    out.pop("config", None)
    cardsets = dict(out.get("cardsets") or {})
    decks = cardsets.pop("decks", None)
    if isinstance(decks, dict):
        cardsets["deck_sizes"] = {str(k): len(v) for k, v in decks.items()
                                  if isinstance(v, list | tuple)}
    out["cardsets"] = cardsets
    return out


def _uids(value: Any, found: set[str]) -> None:
    if isinstance(value, str):
        found.update(UID.findall(value))
    elif isinstance(value, Mapping):
        for item in value.values():
            _uids(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _uids(item, found)


def hidden_uids(header: Any) -> frozenset[str]:
    """Card uids the recording knows from outside the table (deck lists, setup hands)."""
    found: set[str] = set()
    _uids((header.cardsets or {}).get("decks"), found)
    config = header.config or {}
    _uids(config.get("decks"), found)
    _uids(config.get("setup"), found)
    return frozenset(u for u in found if not is_back(u))


def visible_uids(event: Event, snapshot: TableSnapshot | None = None) -> set[str]:
    """Cards face up on the table in an observation (or the snapshot saved with an event)."""
    seen: set[str] = set()
    if event.kind == "observation":
        cards = (event.payload.get("snapshot") or {}).get("cards") or ()
        seen.update(str(c["uid"]) for c in cards
                    if isinstance(c, dict) and c.get("face_up", True) and isinstance(
                        c.get("uid"), str))
    if snapshot is not None:
        seen.update(c.uid for c in snapshot.cards if c.face_up)
    return seen


def mask(value: Any, secret: Iterable[str]) -> Any:
    """`value` with every uid in `secret` replaced by "?" (in lists and inside texts)."""
    hidden = secret if isinstance(secret, set | frozenset) else set(secret)
    if not hidden:
        return value

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return UID.sub(lambda m: "?" if m.group(0) in hidden else m.group(0), item)
        if isinstance(item, Mapping):
            return {k: walk(v) for k, v in item.items()}
        if isinstance(item, list | tuple):
            return [walk(v) for v in item]
        return item

    return walk(value)


@dataclass
class GameIndex:
    """What the pages of one recorded game need, from one pass over its log."""

    hidden: frozenset[str]
    on_line: set[int] = field(default_factory=set)
    decisions: dict[int, str | None] = field(default_factory=dict)
    page_starts: list[int] = field(default_factory=list)
    checkpoints: list[tuple[int, frozenset[str]]] = field(default_factory=list)

    def seen_before(self, store: Store, game_id: int, seq: int) -> set[str]:
        """Cards seen face up in events before `seq`."""
        start, seen = 0, set()
        for at, uids in self.checkpoints:
            if at < seq:
                start, seen = at, set(uids)
        if start + 1 >= seq:
            return seen
        saved = set(store.snapshot_seqs(game_id))
        for e in store.iter_events(game_id, start):
            if e.seq >= seq:
                break
            snap = store.snapshot_at(game_id, e.seq) if e.seq in saved else None
            seen |= visible_uids(e, snap)
        return seen


LIGHT_KINDS = (*LINE_KINDS, *TOGGLE_KINDS, "correction", "violation", "undo", "redo")


def light_event(e: Event) -> Event | None:
    """`e` with only what the main line and the decisions need (None: not needed)."""
    if e.kind not in LIGHT_KINDS:
        return None
    payload = {k: e.payload[k] for k in _KEEP if k in e.payload}
    if e.kind == "correction":
        replacement = e.payload.get("replacement")
        payload["replacement"] = {"move": True} if replacement else None
    return Event(e.game_id, e.seq, e.time, e.kind, e.source, payload)


def shown_decisions(light: Sequence[Event], on_line: set[int] | None = None
                    ) -> dict[int, str | None]:
    """Every violation's decision as the table's pages show it: "corrected" (its move is off
    the line), "stands", or None (open, or its input was undone)."""
    if on_line is None:
        on_line = {entry.seq for entry in main_line(light)}
    latest = decisions_of(light)
    undone = undone_inputs(light)
    decisions: dict[int, str | None] = {}
    for e in light:
        if e.kind != "violation":
            continue
        owner = e.payload.get("input")
        move_seq = e.payload.get("move_seq")
        if isinstance(owner, int) and owner in undone:
            decisions[e.seq] = None
        elif move_seq not in on_line and (
                latest.get(e.seq) == "corrected" or "input" in e.payload):
            decisions[e.seq] = "corrected"
        elif latest.get(e.seq) is not None:
            decisions[e.seq] = "stands" if "input" in e.payload else latest[e.seq]
        else:
            decisions[e.seq] = None
    return decisions


def game_index(store: Store, game_id: int) -> GameIndex:
    header = store.game(game_id)
    key = (str(store.path), game_id)
    stamp = store.log_stamp(game_id)
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
        if cached is not None and cached[0] == stamp:
            _CACHE.move_to_end(key)
            return cached[1]
    index = GameIndex(hidden=hidden_uids(header))
    light: list[Event] = []
    seen: set[str] = set()
    shown = 0
    last = 0
    snapshot_seqs = set(store.snapshot_seqs(game_id))
    for n, e in enumerate(store.iter_events(game_id)):
        if e.seq in snapshot_seqs or e.kind == "observation":
            snap = store.snapshot_at(game_id, e.seq) if e.seq in snapshot_seqs else None
            seen |= visible_uids(e, snap)
        if n and n % PAGE == 0:
            index.checkpoints.append((last, frozenset(seen)))
        if e.kind not in SILENT_KINDS:
            if shown % PAGE == 0:
                index.page_starts.append(last)
            shown += 1
        small = light_event(e)
        if small is not None:
            light.append(small)
        last = e.seq
    index.on_line = {entry.seq for entry in main_line(light)}
    index.decisions = shown_decisions(light, index.on_line)
    with _CACHE_LOCK:
        _CACHE[key] = (stamp, index)
        while len(_CACHE) > _CACHED:
            _CACHE.popitem(last=False)
    return index
