"""Per-game data the page draws (see `companion.record.wording`, shared with the records)."""

from __future__ import annotations

from companion.record.wording import (
    STAT_FIELDS,
    TYPE_DE,
    card_lookup,
    card_stats,
    card_words,
    layout_dict,
    phase_list,
)

__all__ = ["STAT_FIELDS", "TYPE_DE", "card_lookup", "card_stats", "card_words", "layout_dict",
           "phase_list"]
