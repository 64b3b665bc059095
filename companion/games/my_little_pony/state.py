"""My Little Pony's part of the game state, typed: the keys of `GameState.flags` it uses.

A TypedDict over the same dict, not a dataclass: states keep copying (`GameState.clone`) and
comparing as plain data, and mypy checks every key and value the rules read or write.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from companion.engine.state import CoreFlags, GameState


class SendHome(TypedDict):
    """A lost troublemaker faceoff: `player` sends one of `cards` at `zone` home."""

    player: str
    zone: str
    cards: list[str]


class MlpFlags(CoreFlags, total=False):
    tokens: dict[str, int]
    """Action tokens each player holds."""
    points: dict[str, int]
    mane: dict[str, str]
    """Each player's mane character."""
    mane_backs: dict[str, str]
    """Back-sticker serial of a boosted (flipped) mane -> the mane's uid."""
    boosted: list[str]
    frightened: list[str]
    confronted: dict[str, list[str]]
    """Problem uid -> players who confronted it (the first gets the bonus)."""
    turn_confronted: list[str]
    """Problem zones the active player confronted this turn."""
    solved: list[str]
    problem_due: list[str]
    """Players who must bring a new problem into play."""
    faceoff: dict[str, Any] | None
    """The faceoff running now (companion.games.my_little_pony.faceoff.new_faceoff)."""
    faceoff_queue: list[dict[str, Any]]
    """Faceoffs still to run this score phase: {"kind", "zones"}."""
    faceoffs: list[dict[str, Any]]
    """Results of the faceoffs so far (faceoff.result_summary)."""
    last_faceoff: str | None
    """Who won the last faceoff (None: nobody, a tie)."""
    flips_unseen: list[str]
    """Players whose declared flips (no card named) are the last moves: each moved the top
    card of their deck to its bottom, which the camera sees as a new back on top, just as a
    draw (interpret.py reads it as the flip's)."""
    send_home: SendHome | None
    unseen_faceoff: dict[str, Any] | None
    """The last faceoff, when a flip nobody saw (no card, no power named) decided it and
    another result was possible: {"faceoff": its record, "results": the possible ones,
    "won": the one applied ("p1", "p2", "none"), "awarded": what that gave (rules.py
    `_settle`), "fresh": resolved by the move just made}. The table or a person may still
    show another result (rules.py `_revise`); the next move of the game closes it."""
    power_mods: dict[str, int]
    """Power changes declared this turn (card uid -> amount)."""
    declared_seen: int
    """How many of the engine's `declared` entries were read as point/token corrections."""
    setup_started: dict[str, bool]
    deck_faults: dict[str, list[dict[str, Any]]]
    """Deck-building faults per player, as Violation dicts, reported with the first setup
    move."""


def flags(state: GameState) -> MlpFlags:
    """The state's flags as My Little Pony types them."""
    return cast(MlpFlags, state.flags)
