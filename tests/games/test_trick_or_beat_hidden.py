"""Trick or Beat: what the camera did not see explains nothing (issue 31).

Each test plays a position on a leader `Game`, shows a follower only what a camera sees of
it, and checks the follower's reading against the German rulebook.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.api import Move, Question
from companion.engine.game import Game
from companion.engine.interpreter import Interpreter
from companion.referee.script import referee_script
from tests.engine.tob_fixtures import CARDS, DECK
from tests.games.test_trick_or_beat_interpreter import SETUP, camera

MAIN: dict[str, Any] = {**SETUP, "phase": "main"}


def pair(setup: dict[str, object]) -> tuple[Game, Game, Interpreter]:
    """A leader that plays and a follower that sees the leader's table through a camera."""
    leader = Game.new("trick-or-beat", decks={"shared": DECK}, seed=3, setup=setup, cards=CARDS)
    follower = Game.new("trick-or-beat", decks={"shared": DECK}, seed=4, setup=setup,
                        cards=CARDS)
    return leader, follower, Interpreter(follower, camera(leader.state))


def test_a_creature_on_the_discard_pile_without_a_tactic_seen_is_no_tactic() -> None:
    """"Lege die Taktikkarte auf den Ablagestapel, nachdem sie gespielt wurde": a tactic
    played lies face up on the discard pile. Bo's creature put there with no tactic seen and
    no attack that could have defeated it (Ada's creatures lie on her passive lane: "Passive
    Wesen können nicht angreifen") is no "Ada plays Trick" (a destroying tactic she may
    hold): it is recorded as seen, against the rules, and nobody wins by it."""
    last_one = {**MAIN, "table": {**MAIN["table"], "p1.active": [],
                                  "p1.passive": ["XA#1", "XC#1"], "p2.active": ["XA#2"],
                                  "p2.passive": []}}
    leader, follower, interp = pair(last_one)
    assert leader.state.resolve("XT#1", "p1.hand")
    leader.push(Move("remove", "p2", ("XA#2",), to="shared.discard"))
    seen = interp.observe(camera(leader.state), "camera")
    assert "tactic" not in [m.kind for m in seen.moves]
    assert seen.entries and not all(e.legal for e in seen.entries)
    assert follower.outcome() is None
    assert follower.state.can_resolve("XT#1", "p1.hand")


def test_the_real_tactic_played_later_is_still_in_the_hand() -> None:
    """After a creature went to the discard pile unexplained, the tactic Ada really plays
    next (face up on the pile, on a creature of Bo's) comes from her hand: no
    `tob.not-in-hand`, and its destroy counts."""
    leader, follower, interp = pair(MAIN)
    assert leader.state.resolve("XT#1", "p1.hand")
    leader.push(Move("remove", "p2", ("XD#1",), to="shared.discard"))
    interp.observe(camera(leader.state), "camera")
    assert leader.push(Move("tactic", "p1", ("XT#1",), target="XA#2")) == []
    seen = interp.observe(camera(leader.state), "camera")
    assert [(m.kind, m.cards, m.target) for m in seen.moves] == [
        ("tactic", ("XT#1",), "XA#2")]
    assert all(e.legal for e in seen.entries)
    assert follower.state.where["XA#2"] == "shared.discard"


def test_a_creature_left_after_a_weak_attack_is_not_defeated() -> None:
    """"Wenn die gesamte Angriffstärke mindestens so groß ist wie die Überlebenspunkte des
    Zieles, lege das Ziel auf den Ablagestapel. Sonst hat der Angriff keine Wirkung": a
    creature put there after an attack too weak for it, with no tactic seen, is
    `tob.not-defeated`, not a hidden tactic."""
    leader, follower, interp = pair(MAIN)
    assert leader.state.resolve("XT#1", "p1.hand")
    attack = Move("attack", "p1", ("XC#1",), target="XB#2")  # 3 against 5
    leader.push(attack)
    interp.person(attack)
    leader.push(Move("remove", "p2", ("XB#2",), to="shared.discard"))
    seen = interp.observe(camera(leader.state), "camera")
    codes = [v.code for v in seen.violations if v.blocking]
    assert codes == ["tob.not-defeated"]
    assert "tactic" not in [m.kind for m in seen.moves]
    assert follower.state.can_resolve("XT#1", "p1.hand")


def choose(interp: Interpreter, question: Question | None, kind: str) -> None:
    """A person answers: the choice whose moves include one of `kind`."""
    assert question is not None
    index = next(i for i, c in enumerate(question.choices) if kind in [m.kind for m in c.moves])
    interp.answer(index)


def test_the_top_of_a_setup_trick_pile_taken_back_is_no_seventh_card() -> None:
    """"Du kannst keine Karten vom Trickstapel zurückholen" and "7. Du gewinnst durch Trick".
    The position begins with six cards on Ada's trick pile; the camera saw only the top one.
    She takes it back in her supply phase: the back never seen that shows now may be the card
    beneath as well as a card laid, and a seventh card would win, so the follower asks
    instead of giving the win. Told "taken back", the pile holds five; the same card laid
    again in her end phase makes six, and nobody has won."""
    setup = {**SETUP, "phase": "supply", "table": {**SETUP["table"], "p1.trick": 6}}
    leader, follower, interp = pair(setup)
    leader.push(Move("draw", "p1"))
    interp.observe(camera(leader.state), "camera")
    top = leader.state.top("p1.trick")
    assert top is not None
    leader.state.move(top, "p1.hand")  # taken back: no rule does it
    seen = interp.observe(camera(leader.state), "camera")
    assert follower.outcome() is None and follower.state.count("p1.trick") == 6
    choose(interp, seen.question, "untrick")
    assert follower.state.count("p1.trick") == 5 and follower.outcome() is None
    for _ in range(2):
        leader.push(Move("next-phase", "p1"))
        interp.person(Move("next-phase", "p1"))
    leader.push(Move("next-phase", "p1"))
    interp.person(Move("next-phase", "p1"))
    leader.state.move(top, "p1.trick")  # the same card laid again in the end phase
    seen = interp.observe(camera(leader.state), "camera")
    assert [m.kind for m in seen.moves] == ["trick"] and all(e.legal for e in seen.entries)
    assert follower.state.count("p1.trick") == 6 and follower.outcome() is None


def test_the_top_of_a_setup_trick_pile_taken_back_after_end_phase_is_pressed() -> None:
    """"Du kannst keine Karten vom Trickstapel zurückholen" and "7. Du gewinnst durch Trick".
    Six cards on Ada's trick pile at the start (the camera saw only the top). Ada presses "end
    phase" (main to end: "Endphase: Du kannst eine Karte aus deiner Hand verdeckt auf deinen
    Trickstapel legen") and takes the top back. A trick card is legal there, but the change
    may as well be the take-back and a seventh card would win: the follower asks, naming both
    readings, and gives no win on its own, not even when play goes on unanswered. Told
    "taken back", it is flagged `tob.trick-final`, the pile holds five, and it is no trick
    card of this turn: the card she then lays is her one trick card (six, legal, no win)."""
    setup = {**MAIN, "table": {**MAIN["table"], "p1.trick": 6}}
    leader, follower, interp = pair(setup)
    for game in (leader, follower):
        assert game.state.count("p1.trick") == 6
    leader.push(Move("next-phase", "p1"))
    interp.person(Move("next-phase", "p1"))
    assert (leader.phase, follower.phase) == ("end", "end")
    top = leader.state.top("p1.trick")
    assert top is not None
    leader.state.move(top, "p1.hand")  # taken back: no rule does it
    seen = interp.observe(camera(leader.state), "camera")
    assert seen.question is not None and seen.entries == ()
    kinds = [[m.kind for m in c.moves] for c in seen.question.choices]
    assert ["untrick"] in kinds and ["trick"] in kinds
    assert seen.question.choices[seen.question.default].moves[0].kind == "trick"
    assert follower.outcome() is None and follower.state.count("p1.trick") == 6
    choose(interp, seen.question, "untrick")
    entry = follower.log[-1]
    assert entry.move.kind == "untrick" and not entry.legal
    assert [v.code for v in entry.violations if v.blocking] == ["tob.trick-final"]
    assert follower.state.count("p1.trick") == 5 and follower.outcome() is None
    leader.state.move(top, "p1.trick")  # the same card laid again, her one trick card
    seen = interp.observe(camera(leader.state), "camera")
    assert [m.kind for m in seen.moves] == ["trick"] and all(e.legal for e in seen.entries)
    assert follower.state.count("p1.trick") == 6 and follower.outcome() is None


def test_an_unanswered_take_back_after_a_pressed_end_phase_never_wins() -> None:
    """"Du kannst keine Karten vom Trickstapel zurückholen": the question above left open
    while play goes on (Bo draws in his supply phase) is never settled as the win its default
    names; nobody has won by trick."""
    setup = {**MAIN, "table": {**MAIN["table"], "p1.trick": 6}}
    leader, follower, interp = pair(setup)
    leader.push(Move("next-phase", "p1"))
    interp.person(Move("next-phase", "p1"))
    top = leader.state.top("p1.trick")
    assert top is not None
    leader.state.move(top, "p1.hand")
    assert interp.observe(camera(leader.state), "camera").question is not None
    leader.push(Move("pass", "p1"))
    interp.person(Move("pass", "p1"))
    leader.push(Move("draw", "p2"))
    interp.observe(camera(leader.state), "camera")
    assert follower.outcome() is None
    assert follower.state.count("p1.trick") <= 6


SCRIPTS = Path(__file__).parents[2] / "companion/sim/scripts/trick-or-beat"


@pytest.mark.parametrize("camera_only", [False, True])
def test_a_take_back_after_a_pressed_end_phase_script(camera_only: bool) -> None:
    """"Du kannst keine Karten vom Trickstapel zurückholen": the table script of the take-back
    after "end phase" is pressed (rules-trick-takeback-pressed.yaml, its `expect`s written from
    the rulebook: five cards, `tob.trick-final`, no win; the seventh card a turn later wins)."""
    report = referee_script(str(SCRIPTS / "rules-trick-takeback-pressed.yaml"),
                            camera_only=camera_only)
    assert report.failures == []


@pytest.mark.parametrize("camera_only", [False, True])
def test_draft_discards_laid_as_one_stack_count_as_cards(camera_only: bool) -> None:
    """Draft: "Wähle 8 aus deinen 15 Karten aus ... Lege die anderen 7 Karten auf den
    Ablagestapel." Seven laid as one stack (the camera sees the top) leave a hand of 8, laid
    one by one they count once, and an eighth breaks "keep 8" (rules-draft-stack.yaml, its
    `expect`s written from the rulebook)."""
    report = referee_script(str(SCRIPTS / "rules-draft-stack.yaml"), camera_only=camera_only)
    assert report.failures == []


@pytest.mark.parametrize("camera_only", [False, True])
def test_the_seventh_card_after_an_effects_trick_card_wins(camera_only: bool) -> None:
    """"Außerdem gibt es Karteneffekte, die deinen Trickstapel zusätzlich füllen" and "7. Du
    gewinnst durch Trick": after Verlorene Finte's card (six), the card Ada lays in her end
    phase is the seventh and wins, also when the camera alone follows the phases
    (rules-trick-effect-win.yaml)."""
    report = referee_script(str(SCRIPTS / "rules-trick-effect-win.yaml"),
                            camera_only=camera_only)
    assert report.failures == []


@pytest.mark.parametrize("camera_only", [False, True])
def test_the_lane_limit_in_the_lane_phase_and_a_swap_of_full_lanes(camera_only: bool) -> None:
    """"Auf jeder Lane können maximal 2 Wesen liegen" in the lane phase too: a third creature
    on a full lane is `tob.lane-full` and the turn goes on into the main phase; two full
    lanes swapping one creature each in one table change break nothing
    (rules-lane-phase.yaml)."""
    report = referee_script(str(SCRIPTS / "rules-lane-phase.yaml"), camera_only=camera_only)
    assert report.failures == []


def test_a_declared_player_outranks_the_guess_for_a_draw() -> None:
    """"Nachschubphase: Ziehe eine Karte vom Nachziehstapel" - one card, in the supply phase.
    A person says Ada drew a card in her main phase: that is her extra draw
    (`tob.extra-draw`), not Bo's supply draw after her turn ended, and nobody is asked."""
    leader, follower, interp = pair(MAIN)
    leader.push(Move("draw", "p1"))
    seen = interp.observe(camera(leader.state), "camera", {"player": "p1"})
    assert seen.question is None
    assert [(m.kind, m.player) for m in seen.moves] == [("draw", "p1")]
    assert [v.code for v in seen.violations if v.blocking] == ["tob.extra-draw"]
    assert (follower.active, follower.phase) == ("p1", "main")


def test_a_declared_player_outranks_the_guess_for_equipment() -> None:
    """"Ausrüstung kannst du dauerhaft an eines deiner Wesen anlegen": a person says Ada laid
    her equipment on Bo's creature. That is Ada's equipment on a creature not hers
    (`tob.equip-target`), not Bo equipping out of turn."""
    leader, follower, interp = pair(MAIN)
    assert leader.state.resolve("XE#1", "p1.hand")
    leader.push(Move("equip", "p1", ("XE#1",), target="XA#2"))
    seen = interp.observe(camera(leader.state), "camera", {"player": "p1"})
    assert [(m.kind, m.player, m.target) for m in seen.moves] == [("equip", "p1", "XA#2")]
    assert [v.code for v in seen.violations if v.blocking] == ["tob.equip-target"]
    assert follower.active == "p1"


@pytest.mark.parametrize("camera_only", [False, True])
def test_whose_draft_discard_the_rules_tell(camera_only: bool) -> None:
    """Nobody names the player: a fresh redraw's top on the pile is that hand's ("darfst du
    alle ablegen und 3 Karten weniger neu ziehen"), not the other's discard; a stack is the
    player's who holds cards beyond 8 ("Lege die anderen 7 Karten auf den Ablagestapel"); a
    creature known in Ada's hand is her discard, her eighth, against "Wähle 8 aus"
    (rules-draft-whose.yaml, its `expect`s written from the rulebook)."""
    report = referee_script(str(SCRIPTS / "rules-draft-whose.yaml"), camera_only=camera_only)
    assert report.failures == []


def draft_pair(seed: int) -> tuple[Game, Game, Interpreter, Any]:
    """A leader and a follower at the start of a whole game (the draft), the follower seeing
    the leader's table as the simulator's camera does (pile tops and backs only)."""
    from tests.interpretation.test_camera_property import Table

    leader = Game.new("trick-or-beat", ("A", "B"), seed=seed)
    follower = Game.new("trick-or-beat", ("A", "B"), seed=seed + 1)
    table = Table("trick-or-beat")
    return leader, follower, Interpreter(follower, table.seen(leader.state)), table


@pytest.mark.parametrize("laid", [0, 1, 3])
def test_a_card_the_draft_end_lays_is_seen_on_top_not_played(laid: int) -> None:
    """Draft: "Verteile 15 Karten an jeden Spieler", "Wähle 8 aus deinen 15 Karten aus ...
    Lege die anderen 7 Karten auf den Ablagestapel". Bo lays `laid` of his 7 one by one (the
    first counted as his whole stack), then "next phase" is pressed: the rest of both players'
    discards go to the pile as the draft ends, and the camera sees one of them on top. That
    is a draft discard nobody saw, not a card played in Ada's first turn ("Der Spieler
    beginnt in der Lanephase": no tactic there): nothing is flagged, the pile holds the 14
    discards (30 dealt, 2 x 8 kept), each hand 8, and the top is the card seen."""
    leader, follower, interp, table = draft_pair(106)
    for p in ("p1", "p2"):
        leader.push(Move("deal", p, value=15))
    interp.observe(table.seen(leader.state), "camera")
    for _ in range(laid):
        uid = leader.state.cards_in("p2.hand")[0]
        assert leader.push(Move("discard", "p2", (uid,))) == []
        interp.observe(table.seen(leader.state), "camera")
    leader.push(Move("next-phase", "p1"))
    interp.person(Move("next-phase", "p1"))
    mark = len(follower.log)
    seen = interp.observe(table.seen(leader.state), "camera")
    assert seen.question is None
    assert all(e.legal for e in follower.log[mark:]), [e.to_dict() for e in follower.log[mark:]]
    assert "tactic" not in [e.move.kind for e in follower.log[mark:]]
    assert (follower.phase, follower.active) == ("lane", "p1")
    assert leader.state.count("shared.discard") == 30 - 2 * 8
    assert follower.state.count("shared.discard") == 30 - 2 * 8
    assert [follower.state.count(f"{p}.hand") for p in ("p1", "p2")] == [8, 8]
    assert follower.state.top("shared.discard") == leader.state.top("shared.discard")


@pytest.mark.parametrize("seed", [88, 90, 125, 189])
def test_a_declared_redraw_outranks_the_guess_of_whose_discard(seed: int) -> None:
    """Redraw Rule: "Wenn dir deine Karten nicht gefallen, darfst du alle ablegen und 3 Karten
    weniger neu ziehen" - before the draft's discards. Bo is dealt his 15 and lays a discard;
    nobody names him, and Ada (holding 15 as far as the camera can tell) may as well have
    laid it, so the companion guesses it is hers. Then Ada's redraw is declared: a person's
    word outranks the guess. The redraw is legal (not `tob.redraw-late`), the card laid was
    Bo's, and Ada draws 15 - 3 = 12: her hand and Bo's read as the leader's."""
    leader, follower, interp, table = draft_pair(seed)
    leader.push(Move("deal", "p2", value=15))
    interp.observe(table.seen(leader.state), "camera")
    uid = leader.state.cards_in("p2.hand")[0]
    assert leader.push(Move("discard", "p2", (uid,))) == []
    interp.observe(table.seen(leader.state), "camera")
    leader.push(Move("deal", "p1", value=15))
    interp.observe(table.seen(leader.state), "camera")
    redraw = Move("redraw", "p1", value="fresh")
    assert leader.push(redraw) == []
    seen = interp.person(redraw)
    assert [v.code for v in seen.violations if v.blocking] == []
    interp.observe(table.seen(leader.state), "camera")
    leader.push(Move("deal", "p1", value=15 - 3))
    mark = len(follower.log)
    interp.observe(table.seen(leader.state), "camera")
    assert all(e.legal for e in follower.log[mark:])
    assert leader.state.count("p1.hand") == 12
    assert [follower.state.count(f"{p}.hand") for p in ("p1", "p2")] == [12, 8]


def test_a_redraw_after_a_discard_only_the_redrawing_player_could_have_laid_is_late() -> None:
    """Redraw Rule before the discards, "Lege die anderen 7 Karten auf den Ablagestapel": Bo
    laid his 7 one by one, each named as his, and holds his 8. The next card on the pile,
    named by nobody, can only be Ada's (Bo has no card beyond 8 left), so her redraw
    declared after it is too late (`tob.redraw-late`): a person's word moves a guessed
    discard to the other player only where that player could have laid it."""
    leader, follower, interp, table = draft_pair(5)
    for p in ("p1", "p2"):
        leader.push(Move("deal", p, value=15))
    interp.observe(table.seen(leader.state), "camera")
    for _ in range(7):
        uid = leader.state.cards_in("p2.hand")[0]
        assert leader.push(Move("discard", "p2", (uid,))) == []
        interp.observe(table.seen(leader.state), "camera", {"player": "p2"})
    assert follower.state.count("p2.hand") == 8
    uid = leader.state.cards_in("p1.hand")[0]
    assert leader.push(Move("discard", "p1", (uid,))) == []
    interp.observe(table.seen(leader.state), "camera")
    seen = interp.person(Move("redraw", "p1", value="fresh"))
    assert [v.code for v in seen.violations if v.blocking] == ["tob.redraw-late"]
    assert leader.check(Move("redraw", "p1", value="fresh"))[0].code == "tob.redraw-late"
