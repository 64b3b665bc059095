"""A match result read from a recorded game: who sat where, who won, fans from card effects."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError
from companion.record.replay import main_line
from companion.record.store import Event, Store
from companion.tournaments.book import GAME


@dataclass(frozen=True)
class GameResult:
    players: tuple[str, ...]
    winner_seat: str | None
    fans: dict[str, int]


def result_of(players: Sequence[str], outcome: Mapping[str, Any] | None,
              events: Sequence[Event]) -> GameResult:
    """The winner from the outcome; effect fans are the scores of the last move on the main
    line (a corrected move's state does not count)."""
    if not outcome:
        raise CompanionError("the game is not finished: no outcome recorded")
    fans: dict[str, int] = {}
    for entry in reversed(main_line(list(events))):
        scores = (entry.event.payload.get("state") or {}).get("scores")
        if isinstance(scores, Mapping):
            fans = {str(k): int(v) for k, v in scores.items()}
            break
    winner = outcome.get("winner")
    return GameResult(tuple(players), None if winner is None else str(winner), fans)


def stored_result(store: Store, game_id: int) -> GameResult:
    """The result of game `game_id` of this library."""
    header = store.game(game_id)
    if header.game != GAME:
        raise CompanionError(f"game #{game_id} is {header.game}, not a Challengers! match")
    return result_of(header.players, header.outcome, store.events(game_id))
