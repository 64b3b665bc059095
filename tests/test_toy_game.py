"""Adding a game is one folder plus one line: a toy game registered here gets everything.

`tests/toy_game/` is a complete game (spec, rules, texts, cards, a deck, a mat layout, a table
script) that lives outside the package. The fixture's one `register` line is all it takes;
the checks below are the ones the five games get: the conformance checks, the referee on a
script, printing (stickers decoded back to the toy's cards, and its mat), the cardsets'
schema, deck rules, the simulator's true table and the server's person moves.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import games
from companion.cardsets import clear_cache, load_cardset, load_deck
from companion.cardsets.loader import card_from_mapping
from companion.cardsets.model import CardsetError
from companion.engine.game import Game
from companion.layouts import load_layout
from tests import conformance

TOY = Path(__file__).resolve().parent / "toy_game"
GAME = "toy-duel"


@pytest.fixture(autouse=True)
def toy() -> Iterator[games.GameSpec]:
    load_layout.cache_clear()
    clear_cache()
    spec = games.register("tests.toy_game.spec:SPEC")  # the one line
    yield spec
    games.unregister(GAME)
    load_layout.cache_clear()
    clear_cache()


def test_the_registry_knows_the_toy_game_everywhere(toy: games.GameSpec) -> None:
    from companion.cardsets.games import SCHEMAS
    from companion.server.offers import person_kinds

    assert GAME in games.game_ids() and GAME in games.GAMES and GAME in SCHEMAS
    assert games.game_by_code(8) is toy and games.game_info(GAME).name == "Toy Duel"
    assert type(games.get_ruleset(GAME)).__name__ == "ToyDuel"
    assert person_kinds(GAME) == {"concede", "declare"}
    layout = load_layout(GAME)
    assert set(layout.zones) == {"p1.deck", "p1.field", "p2.deck", "p2.field"}
    others = {c.marker_id for g in games.game_ids() if g != GAME
              for c in load_layout(g).corners}
    own = {c.marker_id for c in layout.corners}
    assert len(own) == 4 and not own & others  # its own corner markers, from its own code


def test_its_cards_effects_compile_when_they_load(toy: games.GameSpec) -> None:
    from companion.engine.cards import Catalog
    from companion.engine.effects import Ability, Move, Selector

    gipfel = Catalog.for_game(GAME).card("TD-6")
    assert gipfel.abilities == (
        Ability("play", Move(Selector(side="ally", zone="deck", top=True), to="box")),)
    assert Catalog.for_game(GAME).card("TD-1").abilities == ()


def test_registering_twice_or_a_taken_marker_code_is_refused(toy: games.GameSpec) -> None:
    from dataclasses import replace

    with pytest.raises(games.UnknownGameError, match="registered already"):
        games.register(toy)
    with pytest.raises(games.UnknownGameError, match="marker code 5"):
        games.register(replace(toy, id="toy-two", code=5,
                               card_schema=replace(toy.card_schema, game="toy-two")))


def test_unregistered_it_is_gone() -> None:
    games.unregister(GAME)
    with pytest.raises(games.UnknownGameError, match="toy-duel"):
        games.game_spec(GAME)
    games.register("tests.toy_game.spec:SPEC")


@pytest.mark.parametrize("check", conformance.ALL_CHECKS, ids=lambda c: c.__name__)
def test_conformance_checks_run_on_the_toy_game(check: object) -> None:
    check(GAME)  # type: ignore[operator]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_toy_games_keep_invariants(seed: int) -> None:
    conformance.check_random_game_invariants(GAME, seed)


def test_toy_rules_by_hand() -> None:
    """The toy's rulebook, independently: 3 cards in hand, one enlist per turn, 6 power wins."""
    game = Game.new(GAME, seed=4)
    hand = game.state.cards_in("p1.hand")
    assert len(hand) == 3 and game.state.count("p1.deck") == 3
    enlists = [m for m in game.legal_moves if m.kind == "enlist"]
    assert sorted(m.cards[0] for m in enlists) == sorted(hand)
    game.push(enlists[0])
    assert [m.kind for m in game.legal_moves] == ["pass"]  # once per turn
    wrong = enlists[1]
    assert [v.code for v in game.push(wrong)] == ["toy.once-per-turn"]


@pytest.mark.parametrize("camera_only", [False, True])
def test_the_referee_plays_a_toy_script(camera_only: bool) -> None:
    from companion.referee.script import referee_script

    report = referee_script(str(TOY / "scripts" / "duel.yaml"), camera_only=camera_only)
    assert report.failures == []
    legal = [s.legal for s in report.steps]
    assert legal == ([True, True, False, True, True] if camera_only  # no end-turn presses
                     else [True, True, False, True, True, True, True])
    assert report.steps[-1].winner == "p1"


def test_the_simulator_lays_the_toy_table() -> None:
    from companion.sim.script import load_script
    from companion.sim.table_state import snapshots

    shots = snapshots(load_script(TOY / "scripts" / "duel.yaml"))
    last = shots[-1]
    assert sorted(c.uid for c in last.cards if c.zone == "p1.field") == [
        "TD-3#1", "TD-5#1", "TD-6#1"]  # the second of a turn too: the table is what it is
    assert [c.uid for c in last.cards if c.zone == "p2.field"] == ["TD-1#2"]


def test_cards_and_decks_are_checked_with_the_toy_schema() -> None:
    from companion.decks.rules import check_deck

    cards = load_cardset(GAME)
    assert len(cards) == 6 and cards.get("TD-5")["power"] == 3
    deck = load_deck(GAME, "standard")
    assert check_deck(deck, cards) == []
    short = type(deck)(slug="s", name="s", game=GAME, cards={"TD-1": 1})
    assert [p.code for p in check_deck(short, cards)] == ["toy.deck-size"]
    with pytest.raises(CardsetError, match="power"):
        card_from_mapping(GAME, {"id": "TD-9", "name": "x", "type": "fighter", "power": 12},
                          "inline")


def test_printing_makes_the_toy_stickers_and_mat(tmp_path: Path) -> None:
    from companion.markers.payload import FrontPayload, decode
    from companion.printing.jobs import PrintRequestError, dice_job, mat_job, sticker_job

    job = sticker_job(GAME, ["standard"])
    fronts = [decode(m.text) for s in job.sheets for m in s.markers()]
    front = sorted((p.game_code, p.number, p.copy) for p in fronts
                   if isinstance(p, FrontPayload))
    assert front == [(8, n, 1) for n in range(1, 7)]
    job.write(tmp_path / "stickers.pdf")
    assert (tmp_path / "stickers.pdf").stat().st_size > 1000
    mat = mat_job(GAME)
    assert mat.tiles and "560 x 360 mm" in mat.summary
    with pytest.raises(PrintRequestError, match="no dice"):
        dice_job(GAME)
