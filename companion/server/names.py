"""Plain words for the page: card uids become card names, p1/p2 the players, zone ids labels.

The engine speaks in ids so that its texts are exact; people read names. The recording keeps
the engine's words; only what is shown is rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

CARD_REF = re.compile(
    r"\b([A-Z][A-Za-z0-9]*-[A-Za-z0-9-]*[A-Za-z0-9]|[A-Z][A-Za-z]*\d[A-Za-z0-9]*)(#\d+)?"
)
"""Card ids as the cardsets write them: "TOB-006", "B01-003" or "PR22", with a copy "#1"."""
ZONE_REF = re.compile(r"\b(p[12]|shared)\.([A-Za-z][\w-]*)")
PLAYER_REF = re.compile(r"\bp([12])\b(?!\.\w)")
DIE_REF = re.compile(r"\bp[12]\.([wrc])([1-6])\b(?:=(\d+))?")
DIE_WORDS = {"en": {"w": "white die", "r": "red die", "c": "counter"},
             "de": {"w": "weißer Würfel", "r": "roter Würfel", "c": "Zähler"}}


class Namer:
    def __init__(
        self,
        card_info: Callable[[str], Mapping[str, Any] | None],
        players: Sequence[str],
        layout: Mapping[str, Any] | None,
    ) -> None:
        self.card_info = card_info
        self.players = {"p1": players[0], "p2": players[1]} if len(players) > 1 else {}
        self.zones = {z["id"]: z for z in (layout or {}).get("zones", [])}

    def _card(self, match: re.Match[str]) -> str:
        info = self.card_info(match.group(1))
        return str(info["name"]) if info and info.get("name") else match.group(0)

    def text(self, text: str, lang: str = "en") -> str:
        def zone(match: re.Match[str]) -> str:
            z = self.zones.get(match.group(0))
            if z is None:
                return match.group(0)
            label = z.get(f"label_{lang}") or z.get("label_en") or match.group(0)
            owner = self.players.get(match.group(1))
            return f"{label} ({owner})" if owner else str(label)

        def die(match: re.Match[str]) -> str:
            words = DIE_WORDS["de" if lang == "de" else "en"]
            said = f"{words[match.group(1)]} {match.group(2)}"
            return f"{said} ({match.group(3)})" if match.group(3) else said

        out = DIE_REF.sub(die, text).replace("),", "), ")
        out = ZONE_REF.sub(zone, out)
        out = CARD_REF.sub(self._card, out)
        return PLAYER_REF.sub(lambda m: self.players.get(f"p{m.group(1)}", m.group(0)), out)

    def payload(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A copy with every shown text field (text_*, message_*, label_*) in plain words."""
        out = dict(payload)
        for key, value in payload.items():
            if isinstance(value, str) and key.startswith(("text_", "message_", "move_text_",
                                                          "label_", "reason_")):
                out[key] = self.text(value, key.rsplit("_", 1)[-1])
        return out
