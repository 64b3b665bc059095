"""A recorded game as steps people read: every event in order, in plain words, with the mat as
it was then and the nearest camera keyframe. Shared by the review page and the HTML export."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.record.redact import hidden_uids, mask, public_header, visible_uids
from companion.record.replay import describe, main_line
from companion.record.store import Event, GameHeader, Store, decisions_of
from companion.record.wording import CardInfo, Namer, safe_card_lookup, safe_layout, table_view


def inline_cards(header: GameHeader) -> list[Mapping[str, Any]]:
    return list(header.cardsets.get("inline_cards", []))


def namer_for(header: GameHeader, layout: Mapping[str, Any] | None = None,
              info: CardInfo | None = None) -> Namer:
    """The Namer of a recorded game: its players, its mat, its cards."""
    if info is None:
        info = safe_card_lookup(header.game, inline_cards(header))
    if layout is None:
        layout = safe_layout(header.game)
    return Namer(info, header.players, layout)


DECIDED = {"stands": ("Stands", "Bleibt"), "corrected": ("Corrected", "Korrigiert")}
TAKEN_BACK = ("Taken back", "Zurückgenommen")
REASONS = {"undo": ("undone", "rückgängig gemacht"),
           "violation corrected": ("the violation was corrected", "der Verstoß wurde korrigiert")}


def step_text(event: Event, namer: Namer, lang: str,
              earlier: Mapping[int, Event] | None = None) -> str:
    """One event in words: a violation says what rule was broken, an automatic step why, a
    decision or a correction what it was about (not an event number)."""
    i = 1 if lang == "de" else 0
    about = (earlier or {}).get(int(event.payload.get("violation") or
                                    event.payload.get("target") or -1))
    decision = str(event.payload.get("decision", ""))
    if event.kind == "decision" and decision in DECIDED and about is not None:
        return f"{DECIDED[decision][i]}: {namer.text(describe(about.payload, lang), lang)}"
    if event.kind == "correction" and about is not None and not event.payload.get("replacement"):
        reason = str(event.payload.get("reason", ""))
        why = REASONS.get(reason, (reason, reason))[i]
        return (f"{TAKEN_BACK[i]}: {namer.text(describe(about.payload, lang), lang)}"
                + (f" ({why})" if why else ""))
    said = namer.text(describe(event.payload, lang), lang)
    because = event.payload.get(f"reason_{lang}") or event.payload.get("reason_en")
    if event.source in ("automatic", "assumed") and because and event.kind in ("move", "phase"):
        said = f"{said} ({namer.text(str(because), lang)})"
    state = event.payload.get("state") or {}
    if event.kind == "phase" and state.get("phase"):
        said = f"{said} → {namer.phase(state['phase'], lang)}"
    return said


SILENT_KINDS = ("observation", "action")
"""Inputs a timeline shows through what they led to (the mat, the moves)."""


def timeline(
    store: Store,
    game_id: int,
    layout: Mapping[str, Any] | None = None,
    info: CardInfo | None = None,
    after: int = 0,
    limit: int | None = None,
    redact: bool = False,
) -> list[dict[str, Any]]:
    """The events after seq `after` (at most `limit` of them) in order, each with the mat as
    it was then and the nearest keyframe. `redact`: cards nobody had seen face up on the table
    yet (deck order, hands) read "?" (for anything shown on a web page)."""
    header = store.game(game_id)
    hidden = hidden_uids(header) if redact else frozenset()
    seen: set[str] = set()
    events = store.events(game_id)
    snapshots = store.snapshots(game_id)
    keyframes = set(store.keyframe_seqs(game_id))
    if info is None:
        info = safe_card_lookup(header.game, inline_cards(header))
    namer = namer_for(header, layout, info)
    on_line = {entry.seq for entry in main_line(events)}
    decisions = decisions_of(events)
    steps: list[dict[str, Any]] = []
    table: dict[str, Any] = table_view(None, info)
    frame: int | None = None
    earlier: dict[int, Event] = {}
    for e in events:
        if hidden:
            seen |= visible_uids(e, snapshots.get(e.seq))
            if hidden - seen:
                e = Event(e.game_id, e.seq, e.time, e.kind, e.source,
                          mask(e.payload, hidden - seen))
        earlier[e.seq] = e
        if e.seq in snapshots:
            table = table_view(snapshots[e.seq], info)
        if e.seq in keyframes:
            frame = e.seq
        if e.seq <= after or e.kind in SILENT_KINDS:
            continue
        if limit is not None and len(steps) >= limit:
            break
        steps.append(
            {
                "seq": e.seq,
                "kind": e.kind,
                "source": e.source,
                "time": e.time,
                "text_en": step_text(e, namer, "en", earlier),
                "text_de": step_text(e, namer, "de", earlier),
                "payload": namer.deep(e.payload),
                "on_main_line": e.seq in on_line if e.kind in ("move", "phase") else None,
                "decision": decisions.get(e.seq) if e.kind == "violation" else None,
                "table": table,
                "keyframe": frame,
            }
        )
    return steps


def cards_of(steps: list[dict[str, Any]], info: CardInfo) -> dict[str, Any]:
    """Full data of every card that shows in `steps` (for the card panel of an export)."""
    from companion.record.wording import card_detail

    out: dict[str, Any] = {}
    for step in steps:
        for card in step["table"]["cards"]:
            cid = card.get("id")
            if cid and cid not in out:
                detail = card_detail(cid, info)
                if detail is not None:
                    out[cid] = detail
    return out


def game_record(
    store: Store,
    game_id: int,
    layout: Mapping[str, Any] | None = None,
    info: CardInfo | None = None,
    live_id: int | None = None,
    static: bool = False,
    after: int = 0,
    limit: int | None = None,
    redact: bool = False,
) -> dict[str, Any]:
    """What the review page (and the HTML export) shows of one game: header with status,
    result and notes in plain words, the mat, every step and the cards that appear."""
    from companion.record import library
    from companion.record.wording import started_label

    header = store.game(game_id)
    if layout is None:
        layout = safe_layout(header.game)
    if info is None:
        info = safe_card_lookup(header.game, inline_cards(header))
    namer = Namer(info, header.players, layout)
    shown = public_header(header.to_dict()) if redact else header.to_dict()
    if shown.get("outcome"):
        shown["outcome"] = namer.payload(shown["outcome"])
    shown["status"] = library.status_of(header, live_id)
    shown["notes"] = [{"en": namer.text(n, "en"), "de": namer.text(n, "de")}
                      for n in library.notes_of(store, game_id)]
    shown["started_label"] = started_label(header.started)
    steps = timeline(store, game_id, layout, info, after, limit, redact)
    return {"header": shown, "layout": dict(layout) if layout else None, "steps": steps,
            "cards": cards_of(steps, info), "name": library.game_name(header.game),
            "static": static}
