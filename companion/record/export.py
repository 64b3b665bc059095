"""A recorded game as a JSON document, as a readable text record, or as one HTML file.

The text and HTML records speak in names (players, cards, zones) and in the chosen language;
the JSON document keeps the engine's exact ids for programs in its structured fields (moves,
cards, zones, codes), while every text in it meant for people (`text_*`, `message_*`,
`label_*`, `reason_*`) speaks in names, as the page does.
"""

from __future__ import annotations

import json
from typing import Any

from companion.record.library import STATUS_WORDS, game_name, notes_of, status_of
from companion.record.replay import describe, main_line
from companion.record.store import Store, decisions_of
from companion.record.wording import Namer, rule_words, started_label

FORMATS = ("json", "text", "html")

WORDS = {
    "en": {"game": "Game", "players": "Players", "started": "Started", "finished": "finished",
           "seed": "Seed", "ruleset": "ruleset", "result": "Result", "not_finished":
           "not finished", "vs": "vs", "wins": "wins", "draw": "Draw", "broken": "Rule broken",
           "replaces": "corrects an earlier step", "notes": "Notes", "status": "Status",
           "camera": "camera", "person": "person", "automatic": "automatic",
           "assumed": "assumed, unanswered",
           "stands": "stands", "corrected": "corrected", "open": "open decision"},
    "de": {"game": "Partie", "players": "Spieler", "started": "Begonnen", "finished": "beendet",
           "seed": "Zufallszahl", "ruleset": "Regelwerk", "result": "Ergebnis",
           "not_finished": "nicht beendet", "vs": "gegen", "wins": "gewinnt",
           "draw": "Unentschieden", "broken": "Regelverstoß",
           "replaces": "korrigiert einen früheren Schritt", "notes": "Notizen",
           "status": "Stand", "camera": "Kamera", "person": "Person",
           "automatic": "automatisch", "assumed": "angenommen, unbeantwortet",
           "stands": "bleibt", "corrected": "korrigiert",
           "open": "noch nicht entschieden"},
}


def export_dict(store: Store, game_id: int) -> dict[str, Any]:
    """Everything recorded about one game: header, full log and the main line."""
    from companion.record.timeline import namer_for

    header = store.game(game_id)
    events = store.events(game_id)
    namer = namer_for(header)
    return {
        "header": namer.deep(header.to_dict()),
        "events": [namer.deep(e.to_dict()) for e in events],
        "main_line": [namer.deep(entry.to_dict()) for entry in main_line(events)],
        "decisions": {str(k): v for k, v in decisions_of(events).items()},
    }


def export_json(store: Store, game_id: int) -> str:
    return json.dumps(export_dict(store, game_id), indent=2, ensure_ascii=False, sort_keys=True)


def export_text(store: Store, game_id: int, lang: str = "en", namer: Namer | None = None) -> str:
    """The game move by move, as a referee would read it aloud, in names and in `lang`."""
    from companion.record.timeline import namer_for, step_text

    w = WORDS["de" if lang == "de" else "en"]
    header = store.game(game_id)
    events = store.events(game_id)
    namer = namer or namer_for(header)
    name = game_name(header.game)
    lines = [
        f"{w['game']} {header.id}: {name}" + (f" – {header.title}" if header.title else ""),
        f"{w['players']}: " + f" {w['vs']} ".join(header.players),
        f"{w['started']}: {started_label(header.started)}"
        + (f"   {w['finished']}: {started_label(header.finished)}" if header.finished else ""),
    ]
    if header.seed is not None:
        lines.append(f"{w['seed']}: {header.seed}   {w['ruleset']}: "
                     f"{header.ruleset_version or '-'}")
    lines.append("")
    start = events[0].time if events else 0.0
    for number, entry in enumerate(main_line(events), 1):
        clock = _clock(entry.event.time - start)
        said = step_text(entry.event, namer, lang) if not entry.corrected_from else \
            namer.text(describe(entry.move, lang), lang)
        mark = f" ({w['replaces']})" if entry.corrected_from else ""
        source = w.get(entry.event.source, entry.event.source)
        lines.append(f"{number:3d}. [{clock}] {source:11s} {said}{mark}")
        for v in entry.violations:
            decision = entry.decisions.get(v.seq) or "open"
            message = namer.text(describe(v.payload, lang), lang)
            rule = rule_words(str(v.payload.get("rule", "")), header.game, lang)
            lines.append(f"       ! {w['broken']}: {message}" + (f" ({rule})" if rule else "")
                         + f" – {w[decision]}")
    lines.append("")
    outcome = header.outcome
    if outcome is not None:
        lines.append(f"{w['result']}: {outcome_text(outcome, header.players, lang, namer)}")
    else:
        lines.append(f"{w['result']}: {w['not_finished']}")
    notes = notes_of(store, game_id)
    if notes:
        lines.append("")
        lines.append(f"{w['notes']}:")
        lines.extend(f"  - {namer.text(n, lang)}" for n in notes)
    return "\n".join(lines) + "\n"


def outcome_text(outcome: Any, players: tuple[str, ...], lang: str = "en",
                 namer: Namer | None = None) -> str:
    """"Ada wins: Bo has no creatures left" from an engine outcome dict."""
    if not isinstance(outcome, dict):
        return str(outcome)
    w = WORDS["de" if lang == "de" else "en"]
    if outcome.get("abandoned"):
        return STATUS_WORDS["abandoned"][1 if lang == "de" else 0]
    winner = outcome.get("winner")
    names = {"p1": players[0] if players else "p1", "p2": players[1] if len(players) > 1 else "p2"}
    head = f"{names[winner]} {w['wins']}" if winner in names else w["draw"]
    reason = outcome.get(f"reason_{lang}") or outcome.get("reason_en") or outcome.get("reason")
    if reason and namer is not None:
        reason = namer.text(str(reason), lang)
    return f"{head}: {reason}" if reason else head


def status_words(header: Any, lang: str = "en", live_id: int | None = None) -> str:
    return STATUS_WORDS[status_of(header, live_id)][1 if lang == "de" else 0]


def _clock(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60:02d}:{s % 60:02d}"


