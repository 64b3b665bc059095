"""A recorded game as a JSON document or as a readable text record."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from companion.games import GAMES
from companion.record.replay import describe, main_line
from companion.record.store import Store, decisions_of

FORMATS = ("json", "text")


def export_dict(store: Store, game_id: int) -> dict[str, Any]:
    """Everything recorded about one game: header, full log and the main line."""
    header = store.game(game_id)
    events = store.events(game_id)
    return {
        "header": header.to_dict(),
        "events": [e.to_dict() for e in events],
        "main_line": [entry.to_dict() for entry in main_line(events)],
        "decisions": {str(k): v for k, v in decisions_of(events).items()},
    }


def export_json(store: Store, game_id: int) -> str:
    return json.dumps(export_dict(store, game_id), indent=2, ensure_ascii=False, sort_keys=True)


def export_text(store: Store, game_id: int, lang: str = "en") -> str:
    """The game move by move, as a referee would read it aloud."""
    header = store.game(game_id)
    events = store.events(game_id)
    name = GAMES[header.game].name if header.game in GAMES else header.game
    lines = [
        f"Game {header.id}: {name}" + (f" ({header.title})" if header.title else ""),
        f"Players: {' vs '.join(header.players)}",
        f"Started: {header.started}"
        + (f"   finished: {header.finished}" if header.finished else ""),
    ]
    if header.seed is not None:
        lines.append(f"Seed: {header.seed}   ruleset: {header.ruleset_version or '-'}")
    lines.append("")
    start = events[0].time if events else 0.0
    for number, entry in enumerate(main_line(events), 1):
        clock = _clock(entry.event.time - start)
        mark = f" (correction of #{entry.corrected_from.seq})" if entry.corrected_from else ""
        lines.append(
            f"{number:3d}. [{clock}] #{entry.seq} {entry.event.source:9s} "
            f"{describe(entry.move, lang)}{mark}"
        )
        for v in entry.violations:
            decision = entry.decisions.get(v.seq, "open")
            rule = v.payload.get("rule", "")
            lines.append(
                f"       ! {v.payload.get('code', '?')}: {describe(v.payload, lang)}"
                f" [{rule}] -> {decision}"
            )
    lines.append("")
    outcome = header.outcome
    if outcome is not None:
        lines.append(f"Outcome: {outcome_text(outcome, header.players, lang)}")
    else:
        lines.append("Outcome: not finished")
    return "\n".join(lines) + "\n"


def outcome_text(outcome: Any, players: tuple[str, ...], lang: str = "en") -> str:
    """"Ada wins: Bo has no creatures left" from an engine outcome dict."""
    if not isinstance(outcome, dict):
        return str(outcome)
    winner = outcome.get("winner")
    names = {"p1": players[0] if players else "p1", "p2": players[1] if len(players) > 1 else "p2"}
    if winner in names:
        head = f"{names[winner]} {'gewinnt' if lang == 'de' else 'wins'}"
    else:
        head = "Unentschieden" if lang == "de" else "Draw"
    reason = outcome.get(f"reason_{lang}") or outcome.get("reason_en") or outcome.get("reason")
    return f"{head}: {reason}" if reason else head


def _clock(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60:02d}:{s % 60:02d}"


def started_label(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso
