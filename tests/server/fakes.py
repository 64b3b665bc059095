"""A small referee for testing the session and the web layer without a game's rules.

Rules of this toy game: placing a card is a move "play"; a card placed in a zone ending in
".forbidden" breaks rule T-1; a card placed in "shared.unsure" raises a question with two
choices. "next-phase"/"pass" switch the phase/active player. A card placed in a zone ending in
".win" wins the game for the player who placed it.
"""

from __future__ import annotations

from typing import Any

from companion.engine.api import Choice, Move, Question, Violation
from companion.server.offers import Offers, offers
from companion.server.referee import Applied, Reaction
from companion.snapshot import SeenCard, SeenDie, TableSnapshot

LAYOUT: dict[str, Any] = {
    "game": "creature-crush",
    "width_mm": 560.0,
    "height_mm": 360.0,
    "zones": [
        {"id": zid, "owner": zid.split(".")[0], "x_mm": 10.0 + 110 * (i % 5),
         "y_mm": 10.0 + 120 * (i // 5), "w_mm": 100.0, "h_mm": 110.0, "kind": "row",
         "label_en": zid, "label_de": zid.upper()}
        for i, zid in enumerate(
            ["p1.A1", "p1.A2", "p1.forbidden", "p1.dice", "shared.unsure",
             "p2.A1", "p2.A2", "p2.forbidden", "p2.dice", "p2.lager"]
        )
    ],
}

NAMES = {"T1": "Testling", "T2": "Zweiling", "T3": "Dreiling"}


def card_info(card_id: str) -> dict[str, Any] | None:
    return {"name": NAMES[card_id], "type": "creature"} if card_id in NAMES else None


class FakeReferee:
    game = "creature-crush"
    ruleset_version = "fake-1"

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self.phase = "play"
        self.active = "p1"
        self.turn = 1

    def _push(self, move: Move) -> Applied:
        self.moves.append(move)
        if move.kind == "next-phase":
            self.phase = "attack" if self.phase == "play" else "play"
        elif move.kind == "pass":
            self.active = "p2" if self.active == "p1" else "p1"
            self.turn += 1
            self.phase = "play"
        violations: tuple[Violation, ...] = ()
        if move.to and move.to.endswith((".forbidden", ".cheat-win")):
            violations = (
                Violation("T-1", "Not here", "Nicht hier", "Test rules 1.1", move.cards,
                          (move.to,)),
            )
        return Applied(move, violations, {"turn": self.turn, "active": self.active,
                                          "phase": self.phase})

    def observe(self, before: TableSnapshot | None, after: TableSnapshot) -> Reaction:
        old = {c.uid: c.zone for c in (before.cards if before else ())}
        applied = []
        for card in after.cards:
            if old.get(card.uid) == card.zone:
                continue
            if card.zone == "shared.unsure":
                return Reaction(question=Question(
                    "Attack or block?", "Angriff oder Block?",
                    (Choice("Attack", "Angriff", (Move("attack", self.active, (card.uid,)),)),
                     Choice("Block", "Block", (Move("block", self.active, (card.uid,)),))),
                ))
            applied.append(self._push(Move("play", self.active, (card.uid,), to=card.zone)))
        return Reaction(applied=tuple(applied))

    def apply(self, moves: tuple[Move, ...], source: str) -> Reaction:
        return Reaction(applied=tuple(self._push(m) for m in moves))

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]

    def rebuild(self, moves: list[Move]) -> None:
        self.__init__()  # type: ignore[misc]
        for m in moves:
            self._push(m)

    def checkpoint(self) -> object:
        return (list(self.moves), self.phase, self.active, self.turn)

    def restore(self, saved: object) -> None:
        moves, self.phase, self.active, self.turn = saved  # type: ignore[misc]
        self.moves = list(moves)

    def status(self, lang: str, visible: frozenset[str] | None = None) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "phase_name": {"play": "Play", "attack": "Attack"}[self.phase]
            + (" (de)" if lang == "de" else ""),
            "prompt": {"must": [], "may": [f"{self.phase} cards"], "ends": "", "automatic": []},
            "scores": [{"player": "p1", "value": len(self.moves), "label": "moves"},
                       {"player": "p2", "value": 0, "label": "moves"}],
            "legal": ["play a card"],
            "outcome": None,
        }

    def offers(self, visible: frozenset[str] | None = None) -> Offers:
        """An attack between any two visible cards (a person kind), a "play" of each visible
        card to shared.unsure (a camera kind), and one move from a hidden hand."""
        seen = sorted(visible or ())
        legal = [Move("attack", self.active, (a,), target=b) for a in seen for b in seen if a != b]
        legal += [Move("play", self.active, (c,), to="p1.A2") for c in seen]
        legal.append(Move("play", self.active, ("?",), to="p1.A2"))
        return offers("creature-crush", legal, visible)

    def finished(self) -> dict[str, Any] | None:
        for m in self.moves:
            if m.to and m.to.endswith((".win", ".cheat-win")):
                return {"winner": m.player, "reason": "win", "reason_en": "reached the goal",
                        "reason_de": "Ziel erreicht"}
        return None


def table(*placed: tuple[str, str], dice: dict[str, int] | None = None) -> TableSnapshot:
    """A snapshot with cards (uid, zone) and p1's dice."""
    return TableSnapshot(
        game="creature-crush",
        cards=tuple(SeenCard(uid, zone) for uid, zone in placed),
        dice=tuple(SeenDie(d, v, "p1.dice") for d, v in (dice or {}).items()),
    )
