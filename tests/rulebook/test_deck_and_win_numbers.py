"""Deck-building, hand, win and combat numbers of Fire Emblem Cipher, My Little Pony CCG and
Creature Crush, below, at and above each threshold (numbers read from the rulebooks):

- My Little Pony: "Spieldeck ... mindestens 45 Karten"; "Ein und dieselbe Karte darf bis zu 3x"
  in the deck; "Problemdeck und umfasst 10 Karten"; "jede Karte maximal 2x" in the problem deck;
  "Erreicht ein Spieler 15 Punkte, gewinnt er das Spiel"; "Hat man mehr als 8 Handkarten, muss
  man ... abwerfen".
- Creature Crush: "Das Lager enthält zu Spielbeginn alle 20 Spielkarten"; "Jede Karte darf nur
  einmal im Lager enthalten sein" (Liga).
- Fire Emblem Cipher: "Wenn der Angreifer mehr oder genauso viel Angriffskraft hat, dann wird
  der Verteidiger besiegt." (Deck numbers are not in this rulebook: the official Cipher rules,
  at least 50 cards and at most 4 copies, see companion/games/fire_emblem_cipher/deck_rules.py.)
"""

from __future__ import annotations

import pytest

from companion.cardsets import DeckList, load_cardset
from companion.decks.rules import check_deck
from companion.engine.api import Move
from tests.games import test_fire_emblem_cipher_rules as fe
from tests.games import test_my_little_pony_rules as mlp


def codes_of(game: str, cards: dict[str, int], **extra: object) -> list[str]:
    deck = DeckList(slug="t", name="t", game=game, cards=cards, **extra)  # type: ignore[arg-type]
    return [p.code for p in check_deck(deck, load_cardset(game))]


def _ids(game: str, kind: str, n: int, exclude: tuple[str, ...] = ()) -> list[str]:
    cards = [c.id for c in load_cardset(game) if c.type == kind and c.id not in exclude
             and not c.has_keyword("Unique")]
    assert len(cards) >= n
    return cards[:n]


def _mlp_problems(count: int, copies: int = 1) -> dict[str, int]:
    ids = _ids("my-little-pony-ccg", "problem", 10)
    out: dict[str, int] = {}
    while sum(out.values()) < count:
        card = ids[len(out)]
        out[card] = min(copies, count - sum(out.values()))
    return out


@pytest.mark.parametrize(("size", "ok"), [(44, False), (45, True), (46, True)])
def test_mlp_draw_deck_at_least_45(size: int, ok: bool) -> None:
    friends = _ids("my-little-pony-ccg", "friend", 16)
    cards: dict[str, int] = {}
    for card in friends:
        take = min(3, size - sum(cards.values()))
        if take <= 0:
            break
        cards[card] = take
    mane = _ids("my-little-pony-ccg", "mane", 1)[0]
    found = codes_of("my-little-pony-ccg", cards, mane=mane, problems=_mlp_problems(10))
    assert ("mlp.deck-too-small" not in found) == ok, found


@pytest.mark.parametrize(("copies", "ok"), [(3, True), (4, False)])
def test_mlp_at_most_three_copies(copies: int, ok: bool) -> None:
    friends = _ids("my-little-pony-ccg", "friend", 16)
    cards = {friends[0]: copies, **{c: 3 for c in friends[1:16]}}
    mane = _ids("my-little-pony-ccg", "mane", 1)[0]
    found = codes_of("my-little-pony-ccg", cards, mane=mane, problems=_mlp_problems(10))
    assert ("mlp.too-many-copies" not in found) == ok, found


@pytest.mark.parametrize(("size", "copies", "ok"),
                         [(9, 1, False), (10, 1, True), (11, 2, False), (10, 2, True),
                          (10, 3, False)])
def test_mlp_problem_deck_of_ten_at_most_two_each(size: int, copies: int, ok: bool) -> None:
    friends = _ids("my-little-pony-ccg", "friend", 16)
    cards = {c: 3 for c in friends[:15]}
    mane = _ids("my-little-pony-ccg", "mane", 1)[0]
    found = codes_of("my-little-pony-ccg", cards, mane=mane,
                     problems=_mlp_problems(size, copies))
    problem_codes = [c for c in found if "problem" in c]
    assert (problem_codes == []) == ok, found


@pytest.mark.parametrize(("points", "wins"), [(14, False), (15, True), (16, True)])
def test_mlp_fifteen_points_win(points: int, wins: bool) -> None:
    g = mlp.position({})
    g.push(Move("declare", "p1", value=f"points={points}"))
    outcome = g.outcome()
    assert (outcome is not None and outcome.winner == "p1") == wins


@pytest.mark.parametrize(("hand", "ok"), [(8, True), (9, False)])
def test_mlp_hand_of_more_than_eight_at_the_end_of_the_turn(hand: int, ok: bool) -> None:
    decks = {**mlp.DECKS, "p1": [*mlp.DECKS["p1"], *_ids("my-little-pony-ccg", "event", 4)]}
    g = mlp.position({}, phase="end", hands={"p1": hand}, decks=decks)
    found = mlp.codes(g.check(Move("pass", "p1")))
    assert ("mlp.hand-limit" not in found) == ok, found


@pytest.mark.parametrize(("size", "ok"), [(19, False), (20, True), (21, False)])
def test_creature_crush_camp_of_exactly_twenty(size: int, ok: bool) -> None:
    cards = {c: 1 for c in _ids("creature-crush", "creature", size)}
    assert ("cc.deck-size" not in codes_of("creature-crush", cards)) == ok


@pytest.mark.parametrize(("copies", "ok"), [(1, True), (2, False)])
def test_creature_crush_each_card_once(copies: int, ok: bool) -> None:
    ids = _ids("creature-crush", "creature", 20)
    cards = {ids[0]: copies, **{c: 1 for c in ids[1:21 - copies]}}
    assert ("cc.card-twice" not in codes_of("creature-crush", cards)) == ok


@pytest.mark.parametrize(("attack", "defeated"), [(60, False), (70, True), (80, True)])
def test_fire_emblem_attacker_wins_at_equal_power(attack: int, defeated: bool) -> None:
    unit = {"type": "unit", "title": "t", "cost": 1, "support": 0, "range": [1],
            "symbols": []}
    cards = [*fe.CARDS,
             {**unit, "id": "FX-A", "name": "Angreifer", "attack": attack},
             {**unit, "id": "FX-D", "name": "Verteidiger", "attack": 70},
             {**unit, "id": "FX-S1", "name": "Helfer Eins", "attack": 10},
             {**unit, "id": "FX-S2", "name": "Helfer Zwei", "attack": 10}]
    g = fe.position({"p1.front": [fe.uid(fe.MARTH), fe.uid("FX-A")],
                     "p2.front": [fe.uid(fe.CHROM), fe.uid("FX-D")]}, phase="action",
                    decks={"p1": [fe.uid("FX-S1")], "p2": [fe.uid("FX-S2")]}, cards=cards,
                    hands={"p1": 0, "p2": 0})
    g.push(Move("attack", "p1", (fe.uid("FX-A"),), target=fe.uid("FX-D")))
    g.push(Move("support", "p1", (fe.uid("FX-S1"),)))
    g.push(Move("support", "p2", (fe.uid("FX-S2"),)))
    g.push(Move("end-combat", "p1"))
    assert (g.state.where[fe.uid("FX-D")] == "p2.retreat") == defeated
