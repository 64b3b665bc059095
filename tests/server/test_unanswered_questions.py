"""Questions never lose anything: play going on records the question's legal default as
"assumed, unanswered", the question stays answerable, and a later answer stands in its place.

The position (Trick or Beat, Ada's supply phase, a shared face-down deck): Ada draws her one
supply card; a second card leaves the deck. The rulebook allows one supply draw, so the second
is either Ada's (against the rules) or Bo's own supply draw once Ada's turn is over: the
companion cannot see who took it and asks. A third card leaves while nobody answered.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.record.export import export_dict, export_text
from companion.record.replay import main_line
from companion.record.store import GameHeader, Store
from companion.server.bus import EventBus
from companion.server.engine_referee import EngineReferee
from companion.server.gamedata import card_lookup, layout_dict
from companion.server.session import ActionError, LiveSession
from companion.snapshot import SeenCard, TableSnapshot
from tests.engine.tob_fixtures import position

GAME = "trick-or-beat"
CREATURES = (SeenCard("XB#1", "p1.active"), SeenCard("XA#1", "p2.active"))


def deck_top(n: int) -> TableSnapshot:
    """The table with the shared deck's top showing back serial `n` (a new top: one taken)."""
    return TableSnapshot(game=GAME, cards=(*CREATURES, SeenCard(f"back:{n}", "shared.deck",
                                                                 face_up=False)))


def make_session(db: Path, resume: int | None = None) -> LiveSession:
    config = position(phase="supply", p1_active=["XB#1"], p2_active=["XA#1"]).config
    return LiveSession(EngineReferee(config), Store(db), EventBus(),
                       GameHeader(game=GAME, players=("Ada", "Bo"), ruleset_version="1"),
                       layout_dict(GAME), card_lookup(GAME, config.cards), resume=resume)


@pytest.fixture
def played(tmp_path: Path) -> LiveSession:
    """Ada's draw, the ambiguous second card (asked), the third card with nobody answering."""
    session = make_session(tmp_path / "games.db")
    for n in (5, 6, 7):
        session.observe(deck_top(n))
    assert session.state()["question"] is not None
    session.observe(deck_top(8))
    return session


def line(session: LiveSession) -> list[tuple[str, str, str]]:
    """(kind, player, source) of the main line's moves as the file holds them."""
    return [(e.move["move"]["kind"], e.move["move"]["player"], e.event.source)
            for e in main_line(session.store.events(session.game_id))
            if e.move["move"]["kind"] != "next-phase"]


def test_the_default_of_a_question_is_the_legal_reading() -> None:
    """Ada's second supply card is against the rules; the default is Bo's draw."""
    session = make_session(Path(":memory:"))
    for n in (5, 6, 7):
        session.observe(deck_top(n))
    question = session.state()["question"]
    default = question["choices"][question["default"]]
    assert [(m["kind"], m["player"]) for m in default["moves"]][-1] == ("draw", "p2")


def test_play_going_on_records_the_default_as_assumed_and_keeps_the_question(
    played: LiveSession,
) -> None:
    # Ada's own draw by the camera, then Bo's draw assumed: the change asked about is kept
    assert line(played)[:2] == [("draw", "p1", "camera"), ("draw", "p2", "assumed")]
    events = played.store.events(played.game_id)
    assumed = next(e for e in events if e.source == "assumed")
    assert "nobody answered" in assumed.payload["reason_en"]
    state = played.state()
    [unanswered] = state["unanswered"]
    assert unanswered["assumed"] == unanswered["default"]
    ends = [e.seq for e in events if e.kind == "phase" and e.payload.get("input") ==
            assumed.payload["input"]]
    assert unanswered["steps"] == [*ends, assumed.seq]  # Ada's turn ending belongs to it
    assert state["status"]["en"]["active"] == "p2"  # the game went on from Bo's turn
    assert state["question"] is not None and state["question"]["seq"] != unanswered["seq"]
    assert "(nobody answered the question yet" in export_text(played.store, played.game_id)
    exported = export_dict(played.store, played.game_id)
    assert any(e["source"] == "assumed" for e in exported["main_line"])


def test_a_late_answer_stands_in_place_of_the_assumed_reading(
    played: LiveSession, tmp_path: Path
) -> None:
    [unanswered] = played.state()["unanswered"]
    ada = next(i for i, c in enumerate(unanswered["choices"])
               if [m["player"] for m in c["moves"]] == ["p1"])
    played.answer(unanswered["seq"], ada)
    moves = line(played)
    # Ada drew twice (the second against the rules), in the place Bo's draw stood, and her
    # turn did not end for it
    assert moves[:2] == [("draw", "p1", "camera"), ("draw", "p1", "person")]
    assert ("draw", "p2", "assumed") not in moves
    state = played.state()
    assert (state["status"]["en"]["active"], state["status"]["en"]["turn"]) == ("p1", 3)
    assert state["unanswered"] == []
    assert [v["code"] for v in state["violations"]] and all(
        v["decision"] is None for v in state["violations"])
    # the record keeps the assumed step and the answer, and rebuilds to the same game
    events = played.store.events(played.game_id)
    assert any(e.source == "assumed" for e in events)
    again = make_session(tmp_path / "games.db", resume=played.game_id)
    assert again.state()["status"] == state["status"]
    assert line(again) == moves


def test_confirming_the_assumed_reading_changes_nothing(played: LiveSession) -> None:
    before = line(played)
    status = played.state()["status"]
    [unanswered] = played.state()["unanswered"]
    played.answer(unanswered["seq"], unanswered["assumed"])
    assert line(played) == before
    assert played.state()["status"] == status
    assert played.state()["unanswered"] == []
    with pytest.raises(ActionError, match="not open"):
        played.answer(unanswered["seq"], 0)


def test_undo_of_a_late_answer_brings_the_assumed_reading_back(played: LiveSession) -> None:
    before = line(played)
    [unanswered] = played.state()["unanswered"]
    other = 1 - unanswered["assumed"]
    played.answer(unanswered["seq"], other)
    assert line(played) != before
    played.undo()
    assert line(played) == before
    assert [q["seq"] for q in played.state()["unanswered"]] == [unanswered["seq"]]


def test_hindsight_takes_the_reading_the_later_steps_agree_with(tmp_path: Path) -> None:
    """My Little Pony's opening with nobody at the page: Ada's draw in her first ready phase
    is either the draw the rules forbid the first player or a draw paid with her only action
    token in the main phase (the question's legal default). Her next play costs that token:
    under the default it breaks the cost rule, under the other reading it is legal. The
    companion takes the reading the table agrees with, keeps the question open, and shows
    exactly the violations the rulebook names (the script's own `expect`s)."""
    from companion.referee.script import config_from_script
    from companion.server.live_setup import demo_script_path, header_for
    from companion.server.video_check import expected_violations
    from companion.sim.script import load_script
    from companion.sim.source import script_snapshots

    game = "my-little-pony-ccg"
    path = demo_script_path(game)
    script = load_script(path)
    config = config_from_script(script)

    def fresh(resume: int | None = None) -> LiveSession:
        return LiveSession(EngineReferee(config), Store(tmp_path / "h.db"), EventBus(),
                           header_for(config, "t"), layout_dict(game),
                           card_lookup(game, config.cards), resume=resume)

    session = fresh()
    for k, snap in enumerate(script_snapshots(script)):
        session.observe(snap.with_seq(k, float(k)))
    state = session.state()
    assert sorted(v["code"] for v in state["violations"]) == sorted(expected_violations(path))
    events = session.store.events(session.game_id)
    revision = next(e for e in events if e.kind == "revision" and "off" in e.payload)
    assert revision.source == "automatic" and "fewer rules" in revision.payload["text_en"]
    [unanswered] = state["unanswered"]  # a person may still settle it
    assert unanswered["assumed"] == revision.payload["choice"]
    again = fresh(resume=session.game_id)
    assert again.state()["violations"] == state["violations"]
    assert again.state()["status"] == state["status"]
    # a person says the draw was the paid one after all: the changes seen since are read
    # again from that answer, so Comet Tail and Twilight's move both lack the token
    paid = 1 - unanswered["assumed"]
    again.answer(unanswered["seq"], paid)
    after = again.state()
    assert sorted(v["code"] for v in after["violations"]) == [
        "mlp.cost", "mlp.cost", "mlp.requirement"]
    assert after["unanswered"] == [] and after["status"] == state["status"]
    answered = [e for e in again.store.events(again.game_id) if e.kind == "answer"]
    assert answered[-1].source == "person"


def test_a_question_names_its_readings_in_the_players_words() -> None:
    """"Which was it: Ada draws a card, or Bo draws a card?": the readings in words with the
    players' names, in both languages, not a generic sentence."""
    session = make_session(Path(":memory:"))
    for n in (5, 6, 7):
        session.observe(deck_top(n))
    question = session.state()["question"]
    labels = [c["label_en"] for c in question["choices"]]
    assert question["text_en"].startswith("Which was it: ")
    assert all(label in question["text_en"] for label in labels)
    assert "Ada" in question["text_en"] and "Bo" in question["text_en"]
    assert question["text_de"].startswith("Was war es: ")
    assert all(c["label_de"] in question["text_de"] for c in question["choices"])
