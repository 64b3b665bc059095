"""Plain words for the page (see `companion.record.wording`, shared with replay and export)."""

from __future__ import annotations

from companion.record.wording import CARD_REF, DIE_REF, PLAYER_REF, ZONE_REF, Namer, plain_error

__all__ = ["CARD_REF", "DIE_REF", "PLAYER_REF", "ZONE_REF", "Namer", "plain_error"]
