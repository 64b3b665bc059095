"""The parts every game shares through the core: violation catalogues, move texts, the end
of the game, unknown move kinds, the setup handing over the first turn, token diffs, expect
keys and script configs."""

from __future__ import annotations

import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.api import GameOverError, Move, MoveFormatError, Violation, blocking
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter, SnapshotDiff, diff_snapshots
from companion.engine.ruleset import NO_EXPECT_KEY
from companion.engine.setup import CopyNumbers, card_ref
from companion.engine.state import GameState
from companion.engine.texts import ViolationCatalog
from companion.games import RULESETS, get_ruleset
from companion.referee.script import StepReport, check_expect, config_from_script
from companion.snapshot import SeenCard, SeenToken, TableSnapshot
from tests.engine.tob_fixtures import position

GAMES = sorted(RULESETS)
TEXTS = {
    "trick-or-beat": "companion.games.trick_or_beat.texts",
    "fire-emblem-cipher": "companion.games.fire_emblem_cipher.texts",
    "my-little-pony-ccg": "companion.games.my_little_pony.texts",
    "challengers": "companion.games.challengers.texts",
    "creature-crush": "companion.games.creature_crush.texts",
}
FIELDS = {"player", "cards", "to", "target", "value"}
PREFIX = {"trick-or-beat": "tob.", "fire-emblem-cipher": "fe.", "my-little-pony-ccg": "mlp.",
          "challengers": "ch.", "creature-crush": "cc."}


# ----------------------------------------------------------------------------- catalogue


def test_catalog_fills_templates_and_names_the_rule() -> None:
    catalog = ViolationCatalog("Book", {
        "x.full": ("Lanes", "{zone} holds {count} ({card})", "{zone} hat {count} ({card})"),
        "x.official": ("official rules, turn", "late {what}", "spät {what}"),
    }, standalone=("official rules",))
    v = catalog.violation("x.full", cards=("A#1", "B#1"), zones=("p1.active",), count=2)
    assert v.message_en == "p1.active holds 2 (A#1, B#1)"
    assert v.message_de == "p1.active hat 2 (A#1, B#1)"
    assert v.rule == "Book, Lanes" and v.blocking
    lifted = catalog.violation("x.official", lifted_by="C#1")
    assert lifted.message_en == "late -" and lifted.rule == "official rules, turn"
    assert not lifted.blocking
    assert catalog.problems("x.") == []


def test_catalog_derives_values_and_reports_broken_entries() -> None:
    def derive(fill: Any) -> None:
        fill.setdefault("unit_de", " Würfel" if fill.get("unit") else "")

    catalog = ViolationCatalog("Book", {"x.cost": ("Kosten", "{cost}{unit}", "{cost}{unit_de}")},
                               derive=derive)
    assert catalog.violation("x.cost", cost=3, unit=" dice").message_de == "3 Würfel"
    broken = ViolationCatalog("Book", {"x.a": ("", "text", " "), "y.b": ("S", "e", "d")})
    assert broken.problems("x.") == ["x.a: no section", "x.a: no German text",
                                     "y.b: code does not start with 'x.'"]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_catalog_is_complete(game_id: str) -> None:
    import importlib

    texts = importlib.import_module(TEXTS[game_id])
    catalog: ViolationCatalog = texts.CATALOG
    assert catalog.problems(PREFIX[game_id]) == []
    for code in catalog.codes():
        v: Violation = texts.violation(code, cards=("Z#1",), zones=("p1.x",))
        assert v.code == code and v.message_en and v.message_de and v.rule


@pytest.mark.parametrize("game_id", GAMES)
def test_every_move_kind_has_its_own_text(game_id: str) -> None:
    ruleset = get_ruleset(game_id)
    texts = {kind for kind, _, _ in ruleset.move_texts}
    assert set(ruleset.move_kinds) <= texts
    for kind, en, de in ruleset.move_texts:
        keys = {f[1] for t in (en, de) for f in string.Formatter().parse(t) if f[1]}
        options = tuple(sorted((k, "w") for k in keys - FIELDS))
        move = Move(kind, "p1", ("Z#1",), to="p2.x", target="Y#1", value=1, options=options)
        for lang in ("en", "de"):
            said = ruleset.describe(move, lang)
            assert said and "{" not in said and said != f"p1: {kind}"


def test_games_describe_shared_kinds_in_their_own_words() -> None:
    move = Move("move", "p1", ("Z#1",), to="p1.bench1")
    challengers = get_ruleset("challengers").describe(move)
    emblem = get_ruleset("fire-emblem-cipher").describe(move)
    assert challengers == "Z#1 moved to p1.bench1"
    assert emblem == "p1 moves Z#1 to p1.bench1"
    # the bug of one shared registry: a Trick or Beat summon read "p1 summons X#1 to -"
    summon = Move("summon", "p1", ("X#1",), to="p1.passive")
    for game in GAMES:  # every game imported, in any order
        get_ruleset(game)
    assert get_ruleset("trick-or-beat").describe(summon) == "p1 summons X#1"
    assert get_ruleset("creature-crush").describe(summon).startswith("p1 summons X#1")


def test_the_live_page_names_moves_in_their_game_words() -> None:
    from companion.engine.api import GameConfig
    from companion.server.engine_referee import EngineReferee

    for game in GAMES:
        get_ruleset(game)
    referee = EngineReferee(GameConfig("trick-or-beat"))
    summon = Move("summon", "p1", ("X#1",), to="p1.passive")
    assert referee.describe(summon, "en") == "p1 summons X#1"
    assert referee.describe(summon, "de") == "p1 beschwört X#1"


# ----------------------------------------------------------------------------- moves


@pytest.mark.parametrize("game_id", GAMES)
def test_after_the_end_presses_are_refused_and_table_changes_recorded(game_id: str) -> None:
    game = Game.new(game_id, seed=3)
    game.push(Move("concede", "p2"))
    assert game.outcome() is not None and game.outcome().winner == "p1"  # type: ignore[union-attr]
    before = game.view("referee")
    for move in (Move("next-phase", game.active), Move("pass", game.active)):
        with pytest.raises(GameOverError, match="the game is over"):
            game.push(move, "person")
    assert len(game.log) == 1 and game.view("referee") == before
    late = game.push(Move("concede", "p1"), "person")  # recorded, changes nothing
    assert [v.code for v in late] == ["game.over"] and game.outcome().winner == "p1"  # type: ignore[union-attr]
    game.undo()
    seen = next(m for m in game.ruleset.candidate_moves(game.state)
                if m.kind not in ("next-phase", "pass", "concede", "declare"))
    violations = game.push(seen, "camera")  # the table still changes: recorded, no effect
    assert [v.code for v in violations] == ["game.over"]
    assert game.view("referee") == before
    assert len(game.log) == 2 and game.legal_moves == []
    replayed = Game.replay(game.record())
    assert [e.to_dict() for e in replayed.log] == [e.to_dict() for e in game.log]


@pytest.mark.parametrize("game_id", GAMES)
def test_unknown_move_kinds_are_refused_not_applied(game_id: str) -> None:
    game = Game.new(game_id, seed=4)
    assert [v.code for v in game.check(Move("teleport", "p1"))] == ["game.unknown-move"]
    with pytest.raises(MoveFormatError, match="has no move 'teleport'"):
        game.push(Move("teleport", "p1"))
    with pytest.raises(MoveFormatError):
        game.ruleset.apply(game.state, Move("teleport", "p1"))
    assert game.log == []


def test_a_camera_change_explained_only_by_unknown_kinds_is_unexplained() -> None:
    game = position(p1_active=["XB#1"])
    ruleset = game.ruleset

    class Odd(type(ruleset)):  # type: ignore[misc]
        def explain(self, state: GameState, diff: SnapshotDiff,
                    hints: Mapping[str, Any]) -> list[list[Move]]:
            return [[Move("teleport", "p1", ("XB#1",))]]

    game.ruleset = Odd()
    table = TableSnapshot(game="trick-or-beat", cards=(SeenCard("XB#1", "p1.active"),))
    interp = Interpreter(game, table)
    seen = interp.observe(TableSnapshot(game="trick-or-beat",
                                        cards=(SeenCard("XB#1", "p1.passive"),)))
    # no move of the game says what happened: nothing of the odd reading is applied, and the
    # card the camera sees elsewhere is named as lying where no move puts it
    assert seen.unexplained
    assert [(e.move.kind, e.move.cards, [v.code for v in e.violations]) for e in game.log] == [
        ("misplace", ("XB#1",), ["game.misplaced"])]
    assert game.state.where["XB#1"] == "p1.active"


def test_end_setup_hands_the_first_turn_to_the_chosen_player() -> None:
    game = Game.new("challengers", seed=5, first="p1")
    assert game.phase == "open"
    game.push(Move("reveal", "p1", ("?",)))
    assert (game.phase, game.active, game.state.turn) == ("attack", "p2", 1)
    ruleset = game.ruleset
    state = Game.new("challengers", seed=5, first="p2").state
    ruleset.flow.end_setup(state, "p2")
    assert (state.phase, state.active, state.turn) == ("attack", "p2", 1)


# ----------------------------------------------------------------------------- tokens


def test_diff_reports_tokens_laid_elsewhere_seen_or_gone() -> None:
    card = SeenCard("A#1", "p1.play")
    on_a = SeenToken("flag", "p1.play", on="A#1")
    on_b = SeenToken("flag", "p2.play", on="B#1")
    moved_only = SeenToken("flag", "p1.play", on="A#1", x_mm=5.0)

    def snap(*tokens: SeenToken) -> TableSnapshot:
        return TableSnapshot(game="challengers", cards=(card,), tokens=tokens)

    assert diff_snapshots(snap(on_a), snap(on_b)).tokens == ((on_a, on_b),)
    assert diff_snapshots(snap(), snap(on_a)).tokens == ((None, on_a),)
    assert diff_snapshots(snap(on_a), snap()).tokens == ((on_a, None),)
    assert diff_snapshots(snap(on_a), snap(moved_only)).empty


# ----------------------------------------------------------------------------- expect


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_expect_key_has_a_value(game_id: str) -> None:
    game = Game.new(game_id, seed=6)
    ruleset = game.ruleset
    assert ruleset.expect_keys
    for key in ruleset.expect_keys:
        assert ruleset.expect_value(game.state, key) is not NO_EXPECT_KEY, key
    assert ruleset.expect_value(game.state, "no-such-key") is NO_EXPECT_KEY


def test_expect_tells_unknown_keys_from_nothing() -> None:
    game = Game.new("challengers", seed=7)
    report = StepReport(index=1, line=3)
    assert game.ruleset.expect_value(game.state, "match_winner") is None
    assert check_expect(game, report, {"match_winner": "none"}) == []
    assert check_expect(game, report, {"match_winner": None}) == []
    assert check_expect(game, report, {"match_winner": "p1"}) == [
        "expected match_winner 'p1', got none"]
    assert check_expect(game, report, {"colour": "red"}) == [
        "expect key 'colour' is not known to the challengers rules"]


def test_script_validator_asks_the_ruleset_for_expect_keys(tmp_path: Path) -> None:
    from companion.sim.script import ScriptError, load_script

    body = ("game: my-little-pony-ccg\nplayers: [A, B]\nsteps:\n"
            "  - expect: {{{key}: {value}}}\n")
    path = tmp_path / "s.yaml"
    path.write_text(body.format(key="frightened", value="[]"))
    assert load_script(path).steps[0].expect == {"frightened": []}
    path.write_text(body.format(key="home_limit", value="{p1: 3}"))
    assert load_script(path).steps[0].expect == {"home_limit": {"p1": 3}}
    path.write_text(body.format(key="lane_limit", value="{p1: 3}"))
    with pytest.raises(ScriptError, match="unknown expect key 'lane_limit'"):
        load_script(path)


# ----------------------------------------------------------------------------- setup


@given(st.lists(st.sampled_from(["A", "B", "A#2", "B#1"]), max_size=12))
def test_copy_numbers_never_hand_out_a_uid_twice(refs: list[str]) -> None:
    numbers = CopyNumbers(refs)
    uids = [numbers.uid(r) for r in refs]
    bare = [u for r, u in zip(refs, uids, strict=True) if "#" not in r]
    assert len(set(bare)) == len(bare)
    assert not set(bare) & {r for r in refs if "#" in r}
    assert all(u.partition("#")[0] == r.partition("#")[0] for r, u in zip(refs, uids,
                                                                          strict=True))


def test_card_ref_means_copy_one() -> None:
    assert card_ref("TOB-006") == "TOB-006#1" and card_ref("TOB-006#3") == "TOB-006#3"


def test_config_from_script_passes_dice_and_owners() -> None:
    from companion.sim.script import DiceState, Setup

    class Script:
        game = "creature-crush"
        players = ("A", "B")
        first = "p1"
        seed = 1
        cards = ()
        decks: ClassVar[dict[str, list[str]]] = {"p1": ["CC-013#1"]}
        owners: ClassVar[dict[str, str]] = {"CC-013#1": "p1", "CC-046#1": "p2"}
        setup = Setup(table={"p1.B1": ["CC-013#1"], "p2.B1": ["CC-046#1"]},
                      dice={"p1.w1": DiceState(4, "p1.dice"), "p2.r1": DiceState(2, "p2.B1")},
                      on={"p2.r1": "CC-046#1"}, active="p1", phase="kampf")

    config = config_from_script(Script())
    assert config.owners == Script.owners
    assert config.setup is not None
    assert config.setup["dice"] == {"p1.w1": {"value": 4, "zone": "p1.dice"},
                                    "p2.r1": {"value": 2, "zone": "p2.B1"}}
    assert Game.replay({"config": config.to_dict(), "log": []}).config.owners == Script.owners


def test_creature_crush_starts_with_the_setup_dice() -> None:
    setup = {"table": {"p1.B1": ["CC-013#1"], "p2.B1": ["CC-046#1"]},
             "dice": {"p1.w1": {"value": 4, "zone": "p1.dice"},
                      "p1.w2": {"value": 2, "zone": "p1.dice"},
                      "p2.r1": {"value": 2, "zone": "p2.B1"}},
             "on": {"p2.r1": "CC-046#1"}, "active": "p1", "phase": "kampf"}
    game = Game.new("creature-crush", seed=1, setup=setup)
    assert game.ruleset.expect_value(game.state, "damage") == {"CC-046#1": 2}
    assert game.ruleset.expect_value(game.state, "start_dice") == 2
    assert game.view("table")["extra"]["start_dice"]["p1"] == {"p1.w1": 4, "p1.w2": 2}
    summon_cost = [m for m in game.legal_moves if m.kind in ("attack", "summon")]
    assert all(not blocking(game.check(m)) for m in summon_cost)


@pytest.mark.parametrize(("game_id", "phase"), [("trick-or-beat", "draft"),
                                                ("fire-emblem-cipher", "setup"),
                                                ("creature-crush", "opening"),
                                                ("trick-or-beat", "lunch")])
def test_a_midgame_start_names_a_turn_phase(game_id: str, phase: str) -> None:
    from companion.engine.api import SetupError

    turn_phases = [p.id for p in get_ruleset(game_id).flow.spec.turn_phases]
    with pytest.raises(SetupError, match=f"unknown phase '{phase}'; use {turn_phases[0]}"):
        Game.new(game_id, seed=1, setup={"phase": phase})
    game = Game.new(game_id, seed=1, setup={"phase": turn_phases[-1], "turn": 4,
                                            "active": "p2"})
    assert (game.phase, game.active, game.state.turn) == (turn_phases[-1], "p2", 4)
    with pytest.raises(SetupError, match="active must be p1 or p2"):
        Game.new(game_id, seed=1, setup={"active": "p3"})
    with pytest.raises(SetupError, match="first player must be p1 or p2"):
        Game.new(game_id, seed=1, first="p9")
