"""Rulebook oracles: what every legal move must satisfy, written from the rulebooks alone.

Each oracle reads only what lies on the table and in the hands (zones, cards, their printed
facts, phase, whose turn), never the rules code, and returns the rulebook sentences a move
breaks. They are necessary conditions, not the whole rules: a move the game lists as legal
must break none of them (tests/rulebook/test_legal_moves.py), and a move that breaks one must
be flagged by the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.engine.api import Move, other
from companion.engine.state import GameState, hand_zone

Oracle = Callable[[GameState, Move], list[str]]
UNSEEN = "?"
BUTTONS = ("next-phase", "pass")


def _in_hand(state: GameState, player: str, uid: str) -> bool:
    return uid == UNSEEN or state.where.get(uid) == hand_zone(player)


def _owner(zone: str | None) -> str:
    return (zone or "").split(".")[0]


def _turn(state: GameState, move: Move, setup_phases: tuple[str, ...], out: list[str],
          either: tuple[str, ...] = ()) -> None:
    """Outside the setup phases only the active player acts, except the `either` kinds."""
    if state.phase in setup_phases or move.kind in either:
        return
    if move.player != state.active:
        out.append("a player acts only in their own turn")


def _phase(state: GameState, move: Move, timing: Mapping[str, tuple[str, ...]],
           out: list[str]) -> None:
    allowed = timing.get(move.kind)
    if allowed is not None and state.phase not in allowed:
        out.append(f"{move.kind} belongs to the {' or '.join(allowed)} phase")


# ----- Trick or Beat -----------------------------------------------------------------------------

TOB_TIMING = {
    # "1. Nachschubphase: Ziehe eine Karte vom Nachziehstapel."
    "draw": ("supply",),
    # "2. Lanephase: Ordne deine liegenden Wesen beliebig auf deinen Lanes an."
    "shift": ("lane",),
    # "3. Hauptphase: Spiele Taktikkarten, greife an, beschwöre Wesen und aktiviere Fähigkeiten"
    "summon": ("main",), "attack": ("main",), "tactic": ("main",), "equip": ("main",),
    "activate": ("main",), "supply-draw": ("main",),
    # "4. Endphase: Du kannst eine Karte aus deiner Hand verdeckt auf deinen Trickstapel legen."
    "trick": ("end",),
    # Draft: "Wähle 8 aus deinen 15 Karten ... Lege Wesen verdeckt auf deine Lanes."
    "deal": ("draft",), "discard": ("draft", "main"), "place-down": ("draft",),
    "reveal": ("draft",), "redraw": ("draft",),
}


def tob_lane_limit(state: GameState, player: str) -> int:
    """"Auf jeder Lane können maximal 2 Wesen liegen", 3/4/5 with 1/2/3 trick cards."""
    return 2 + min(len(state.cards_in(f"{player}.trick")), 3)


def tob_creatures(state: GameState, zone: str) -> list[str]:
    return [u for u in state.cards_in(zone) if state.facts(u).type == "creature"]


def trick_or_beat(state: GameState, move: Move) -> list[str]:
    out: list[str] = []
    p = move.player
    _turn(state, move, ("draft",), out)
    _phase(state, move, TOB_TIMING, out)
    lanes = (f"{p}.active", f"{p}.passive")
    enemy = other(p)
    if move.kind == "summon":
        uid = move.cards[0]
        if not _in_hand(state, p, uid):
            out.append("a creature is summoned from the hand")
        if uid != UNSEEN and state.facts(uid).type != "creature":
            out.append("only creatures are summoned")
        if move.to != f"{p}.passive":
            out.append("Es ist nicht möglich, Wesen auf die aktive Lane zu beschwören")
        elif len(tob_creatures(state, move.to)) >= tob_lane_limit(state, p):
            out.append("lane limit (2, raised by the trick pile up to 5)")
    elif move.kind == "shift":
        if any(state.where.get(u) not in lanes for u in move.cards) or move.to not in lanes:
            out.append("a player arranges their own creatures on their own lanes")
    elif move.kind == "attack":
        if not move.cards or any(state.where.get(u) != f"{p}.active" for u in move.cards):
            out.append("Nur Wesen auf der aktiven Lane können ... angreifen")
        target_zone = state.where.get(move.target or "")
        if target_zone not in (f"{enemy}.active", f"{enemy}.passive"):
            out.append("Wähle ein Wesen deines Gegners als Ziel")
        elif target_zone == f"{enemy}.passive" and tob_creatures(state, f"{enemy}.active"):
            out.append("Wenn sich Wesen auf der aktiven Lane deines Gegners befinden, kannst du "
                       "kein passives Wesen angreifen")
    elif move.kind == "equip":
        uid = move.cards[0]
        if not _in_hand(state, p, uid):
            out.append("equipment comes from the hand")
        if state.where.get(move.target or "") not in lanes:
            out.append("Ausrüstung kannst du ... an eines deiner Wesen anlegen")
        elif any(h == move.target for h in state.attached.values()):
            out.append("Jedes Wesen kann maximal einen Ausrüstungsgegenstand tragen")
    elif move.kind in ("tactic", "trick") and not all(_in_hand(state, p, u) for u in move.cards):
        out.append(f"a {move.kind} card comes from the hand")
    return out


# ----- Fire Emblem Cipher --------------------------------------------------------------------

FE_TIMING = {
    # "Ziehe die oberste Karte deines Decks auf die Hand" (start); a class change draws a bonus
    "draw": ("start", "deploy"),
    "bond": ("bond",),  # "Du kannst eine Karte aus deiner Hand in den Bindungsbereich legen"
    "deploy": ("deploy",), "level-up": ("deploy",), "class-change": ("deploy",),
    "attack": ("action",), "move": ("action",), "support": ("action",),
    "end-combat": ("action",), "critical": ("action",), "evade": ("action",),
    "choose-lord": ("setup",), "deal": ("setup",), "mulligan": ("setup",), "orbs": ("setup",),
    "reveal-lord": ("setup",),
}
FE_ROWS = ("p1.back", "p1.front", "p2.front", "p2.back")
"""The rows from p1's side to p2's: "Reichweite ... Gegner 1, 2 oder 3 Reihen vor sich"."""


def _fe_units(state: GameState, player: str) -> list[str]:
    under = set(state.attached.values())
    return [u for z in (f"{player}.front", f"{player}.back") for u in state.cards_in(z)
            if u not in under]


def fire_emblem_cipher(state: GameState, move: Move) -> list[str]:
    out: list[str] = []
    p = move.player
    # "Beide Spieler ziehen die oberste Karte ihres Decks" (support); "Der verteidigende
    # Spieler kann sich dazu entscheiden auszuweichen" (evade); "6. Ende des Kampfes: Beide
    # Spieler schicken ihre Unterstützerkarten zum jeweiligen Rückzugsbereich" (end-combat)
    _turn(state, move, ("setup",), out, either=("support", "evade", "end-combat"))
    _phase(state, move, FE_TIMING, out)
    field = (f"{p}.front", f"{p}.back")
    bonds = len(state.cards_in(f"{p}.bonds"))
    if move.kind == "draw" and state.phase == "start" and state.turn == 1 and p == state.first:
        out.append("In der ersten Runde darf der erste Spieler keine Karte ziehen")
    if move.kind in ("bond", "deploy", "level-up", "class-change") and not all(
            _in_hand(state, p, u) for u in move.cards):
        out.append(f"{move.kind}: a card from the hand")
    if move.kind == "deploy":
        uid = move.cards[0]
        if move.to not in field:
            out.append("in die Vorder- oder Hinterreihe gelegt")
        if uid != UNSEEN:
            facts = state.facts(uid)
            if any(state.facts(u).name == facts.name for u in _fe_units(state, p)):
                out.append("nur eine Karte mit dem selben Charakternamen auf dem Schlachtfeld")
            if int(facts.get("cost") or 0) > bonds:
                out.append("Bindungskosten: no more than the bonds")
    if move.kind in ("level-up", "class-change") and move.cards[0] != UNSEEN:
        target = move.target or ""
        if target not in _fe_units(state, p):
            out.append("a level-up is laid on one of your units")
        elif state.facts(target).name != state.facts(move.cards[0]).name:
            out.append("Die Karte in deiner Hand und die auf dem Spielfeld müssen den selben "
                       "Namen tragen")
        key = "cost" if move.kind == "level-up" else "cc_cost"
        if int(state.facts(move.cards[0]).get(key) or 0) > bonds:
            out.append(f"{move.kind}: no more than the bonds")
    if move.kind == "attack":
        attacker, target = move.cards[0], move.target or ""
        if attacker not in _fe_units(state, p) or attacker in state.tapped:
            out.append("an untapped unit of yours attacks (it is tapped to attack)")
        elif target not in _fe_units(state, other(p)):
            out.append("Wähle einen Gegner")
        else:
            rows = abs(FE_ROWS.index(state.where[target]) - FE_ROWS.index(state.where[attacker]))
            reach = [int(r) for r in state.facts(attacker).get("range") or []]
            if rows not in reach:
                out.append("Wähle einen Gegner in Reichweite")
        if state.turn == 1 and p == state.first:
            out.append("In der ersten Runde darf der erste Spieler keinen Angriff einleiten")
    if move.kind == "move":
        uid = move.cards[0]
        if uid not in _fe_units(state, p) or uid in state.tapped:
            out.append("an untapped unit of yours moves (it is tapped to move)")
        elif move.to not in field or move.to == state.where[uid]:
            out.append("von der Vorder- zur Hinterreihe und anders herum")
    return out


# ----- My Little Pony CCG -----------------------------------------------------------------------

MLP_TIMING = {
    "play": ("main",), "move": ("main",), "play-troublemaker": ("main",),
    "challenge": ("troublemaker",), "send-home": ("troublemaker",),
    "starting-problem": ("setup",), "retire": ("end",), "new-problem": ("score",),
}


def my_little_pony(state: GameState, move: Move) -> list[str]:
    out: list[str] = []
    p = move.player
    if move.kind in ("play", "move", "play-troublemaker", "retire"):
        _turn(state, move, ("setup",), out)
    _phase(state, move, MLP_TIMING, out)
    if move.kind in ("play", "play-troublemaker"):
        uid = move.cards[0]
        if not _in_hand(state, p, uid):
            out.append("a card is played from the hand")
        if uid != UNSEEN and state.facts(uid).type in ("mane", "problem"):
            out.append("mane characters and problems are never played from the hand")
        if move.kind == "play-troublemaker" and uid != UNSEEN and \
                state.facts(uid).type != "troublemaker":
            out.append("only troublemakers are played face down onto a problem")
    if move.kind == "move":
        uid = move.cards[0]
        if state.owner.get(uid) != p or state.where.get(uid, "").endswith(".hand"):
            out.append("a player moves their own characters in play")
    # "Hat man mehr als 8 Handkarten, muss man so viele Karten ... abwerfen, bis ... 8"
    if move.kind == "discard" and state.phase == "end" and state.count(hand_zone(p)) <= 8:
        out.append("at the end of the turn only a hand of more than 8 cards is discarded")
    return out


# ----- Challengers! ----------------------------------------------------------------------------

def challengers(state: GameState, move: Move) -> list[str]:
    out: list[str] = []
    p = move.player
    if move.kind == "bench":
        # "Jeder Sitz kann beliebig viele Karten mit gleichem Namen aufnehmen, aber niemals
        # zwei Karten mit verschiedenen Namen."
        seat = move.to or ""
        if not seat.startswith(f"{p}.bench"):
            out.append("the defender lays the beaten card on a seat of their own bench")
        else:
            names = {state.facts(u).name for u in state.cards_in(seat)}
            if any(u != UNSEEN and names and state.facts(u).name not in names
                   for u in move.cards):
                out.append("niemals zwei Karten mit verschiedenen Namen auf einem Sitz")
    if move.kind == "reveal" and move.cards and move.cards[0] != UNSEEN and \
            state.where.get(move.cards[0]) not in (f"{p}.deck", None):
        out.append("the attacker reveals the top card of their own deck")
    return out


# ----- Creature Crush -------------------------------------------------------------------------

CC_TIMING = {
    "roll": ("start",), "summon": ("kampf",), "attack": ("kampf",), "set-crush": ("kampf",),
    "move": ("taktik",), "swap": ("taktik",),
}


def payable(values: list[int]) -> set[int]:
    """Costs the dice pay exactly, one die or several added ("einzeln oder addiert")."""
    reach = {0}
    for v in values:
        reach |= {r + v for r in reach}
    return reach - {0}


def _cc_dice(state: GameState, player: str) -> list[int]:
    return [int(v) for v in (state.flags.get("dice", {}).get(player) or {}).values()]


def _cc_free(state: GameState, place: str) -> bool:
    return not any(state.facts(u).type == "creature" for u in state.cards_in(place))


def creature_crush(state: GameState, move: Move) -> list[str]:
    out: list[str] = []
    p = move.player
    # "Während dein Gegner am Zug ist, können nur verdeckte Crushkarten mit Voraussetzungen
    # aktiviert werden."
    _turn(state, move, ("opening",), out, either=("flip",))
    _phase(state, move, CC_TIMING, out)
    if move.kind == "flip" and p != state.active and move.cards[0] != UNSEEN and \
            not state.facts(move.cards[0]).get("flip_condition"):
        out.append("in the opponent's turn only crush cards with a condition are flipped")
    if move.kind == "summon":
        uid, place = move.cards[0], move.to or ""
        if not _in_hand(state, p, uid):
            out.append("a creature is summoned from the hand")
        row, col = place.split(".")[-1][:1], place[-1:]
        if _owner(place) != p or row not in ("A", "B"):
            out.append("auf einen freien Platz in deine B-Zone (or the A-Zone)")
        elif not _cc_free(state, place):
            out.append("auf einen freien Platz")
        elif row == "A" and _cc_free(state, f"{p}.B{col}"):
            out.append("A-Zone only where the bordering B place is occupied")
        if uid != UNSEEN and move.option("dice") is None and \
                int(state.facts(uid).get("cost") or 0) not in payable(_cc_dice(state, p)):
            out.append("die Augenzahlen ... genau den Kosten der Handkarte entsprechen")
    if move.kind == "attack":
        attacker = move.cards[0]
        if _owner(state.where.get(attacker)) != p:
            out.append("a player attacks with their own creatures")
        elif int(state.facts(attacker).get("attack") or 0) <= 0:
            out.append("Creatures mit 0 Angriff können nicht angreifen")
        row = (state.where.get(attacker) or "").split(".")[-1][:1]
        if move.target in ("p1", "p2") and row != "A":
            out.append("Ein direkter Angriff ist nur aus der A-Zone möglich")
    if move.kind in ("move", "swap"):
        need = 1 if move.kind == "move" else 2
        if len(_cc_dice(state, p)) < need:
            out.append("Verbrenne für jede Creature, die du verschieben möchtest, einen Würfel; "
                       "Tauschen: 2 Würfel")
    return out


ORACLES: dict[str, Oracle] = {
    "trick-or-beat": trick_or_beat,
    "fire-emblem-cipher": fire_emblem_cipher,
    "my-little-pony-ccg": my_little_pony,
    "challengers": challengers,
    "creature-crush": creature_crush,
}


def oracle_for(game: str) -> Oracle:
    return ORACLES[game]
