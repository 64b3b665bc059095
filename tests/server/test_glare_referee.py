"""A card under the lamp's reflection, as the referee meets it: seen as a card, not read.

Fire Emblem Cipher's bundled opening lays Ada's first bond, Abel (B01-010), at step 7. Here the
eye reports it the way the overhead webcam does under a lamp: an unreadable place in Ada's
bonds (`Unreadable`) instead of the card, until the reflection moves off it and the card is
read. The yardstick is the script's own rulebook `expect`s (referee_script), not this code:
- while Abel lies unread, Caeda's deploy (which needs his bond) is "not sure", never red;
- once Abel is read, the game is read again with him there all along: nothing false remains,
  and the record says why (a `revision`);
- a rule no card under the reflection could excuse (the second Caeda, `fe.same-name`) stays
  red, and a table without the reflection reported shows the false alarm (the control).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.record.store import Store
from companion.referee.script import config_from_script, referee_script
from companion.server.bus import EventBus
from companion.server.engine_referee import EngineReferee
from companion.server.gamedata import card_lookup, layout_dict
from companion.server.glare_reading import read_late, run_start, with_card
from companion.server.live_setup import demo_script_path, header_for
from companion.server.session import LiveSession
from companion.sim.script import load_script
from companion.sim.source import script_snapshots
from companion.snapshot import SeenCard, TableSnapshot, Unreadable

GAME = "fire-emblem-cipher"
ABEL = "B01-010#1"


def _session(tmp_path: Path) -> LiveSession:
    script = load_script(demo_script_path(GAME))
    config = config_from_script(script)
    return LiveSession(EngineReferee(config), Store(tmp_path / "g.db"), EventBus(),
                       header_for(config, "t"), layout_dict(GAME), card_lookup(GAME, config.cards))


def _under_glare(table: TableSnapshot, uid: str, report: bool = True) -> TableSnapshot:
    card = table.card(uid)
    assert card is not None and card.x_mm is not None and card.y_mm is not None
    spot = Unreadable(card.zone, card.x_mm, card.y_mm) if report else None
    return replace(table, cards=tuple(c for c in table.cards if c.uid != uid),
                   unreadable=(spot,) if spot else ())


def _tables(hidden: range, report: bool = True) -> list[TableSnapshot]:
    tables = script_snapshots(load_script(demo_script_path(GAME)))
    return [(_under_glare(t, ABEL, report) if k in hidden else t).with_seq(k, float(k))
            for k, t in enumerate(tables)]


def _named(upto_step: int | None = None) -> list[str]:
    report = referee_script(str(demo_script_path(GAME)), camera_only=True)
    steps = report.steps if upto_step is None else report.steps[:upto_step]
    return sorted(v.code for s in steps for e in s.moves for v in e.violations)


def _shown(session: LiveSession) -> tuple[list[str], list[str]]:
    state = session.state()
    red = sorted(v["code"] for v in state["violations"] if not v.get("unsure"))
    unsure = sorted(v["code"] for v in state["violations"] if v.get("unsure"))
    return red, unsure


def test_a_bond_under_the_reflection_makes_the_deploy_not_sure_not_red(tmp_path: Path) -> None:
    session = _session(tmp_path)
    tables = _tables(range(6, 24))
    for table in tables[:12]:
        session.observe(table)
    red, unsure = _shown(session)
    assert red == _named(12) == []
    assert "fe.bonds-exceeded" in unsure  # Caeda's deploy: some card under the lamp pays it
    state = session.state()
    assert state["unreadable"] and "Bonds" in state["unreadable"][0]["text_en"]
    assert "lamp" in state["unreadable"][0]["text_en"]


def test_a_card_read_late_is_put_back_in_time_and_the_false_alarms_go(tmp_path: Path) -> None:
    session = _session(tmp_path)
    for table in _tables(range(6, 24)):
        session.observe(table)
    red, unsure = _shown(session)
    assert red == _named()  # exactly the rulebook's: fe.same-name and fe.bonds-exceeded
    assert unsure == []
    events = session.store.events(session.game_id)
    revisions = [e for e in events if e.kind == "revision" and "lamp" in e.payload["text_en"]]
    assert len(revisions) == 1 and "Abel" in revisions[0].payload["text_en"]
    state = session.state()
    assert state["unreadable"] == []
    assert state["table"] and any(ABEL in str(c) for c in state["table"].get("cards", []))


def test_without_the_reflection_reported_the_missing_bond_is_a_red_alarm(tmp_path: Path) -> None:
    """The control: the same tables with the card simply missing and nothing reported."""
    session = _session(tmp_path)
    for table in _tables(range(6, 12), report=False)[:12]:
        session.observe(table)
    red, unsure = _shown(session)
    assert "fe.bonds-exceeded" in red and unsure == []


def test_a_rule_no_card_under_the_lamp_could_excuse_stays_red(tmp_path: Path) -> None:
    """Abel stays unread to the end: the second Caeda (fe.same-name) is judged on cards the
    camera read, so it is red; only the bond count waits for the card it cannot read."""
    session = _session(tmp_path)
    for table in _tables(range(6, 28)):
        session.observe(table)
    red, unsure = _shown(session)
    assert "fe.same-name" in red
    assert "fe.same-name" not in unsure


def test_the_run_of_tables_under_the_reflection_starts_where_it_first_covered_the_zone(
) -> None:
    spot = Unreadable("p1.bonds", 300.0, 358.0)
    clear = TableSnapshot(game=GAME)
    covered = replace(clear, unreadable=(spot,))
    other = replace(clear, unreadable=(Unreadable("p2.bonds", 10.0, 10.0),))
    seen = [(1, covered), (2, clear), (3, covered), (4, covered)]
    assert run_start(seen, "p1.bonds") == 3
    assert run_start([*seen, (5, other)], "p1.bonds") is None
    known = replace(covered, unreadable=(replace(spot, card=ABEL),))
    assert run_start([(1, known)], "p1.bonds") is None  # a card the tracker knows is no riddle


def test_a_card_is_read_late_only_where_the_reflection_lay_in_its_zone() -> None:
    spot = Unreadable("p1.bonds", 300.0, 358.0)
    before = TableSnapshot(game=GAME, unreadable=(spot,))
    near = SeenCard(ABEL, "p1.bonds", x_mm=310.0, y_mm=350.0)
    far = SeenCard("B01-018#1", "p1.bonds", x_mm=100.0, y_mm=358.0)
    elsewhere = SeenCard("B01-005#1", "p1.back", x_mm=300.0, y_mm=358.0)
    after = TableSnapshot(game=GAME, cards=(near, far, elsewhere))
    assert [c.uid for c in read_late(before, after)] == [ABEL]
    assert read_late(replace(before, unreadable=()), after) == []
    placed = with_card(before, near)
    assert placed.card(ABEL) == near and placed.unreadable[0].card == ABEL


def test_a_game_read_again_under_the_lamp_resumes_to_the_same_record(tmp_path: Path) -> None:
    """A killed companion replays its log strictly: the late read and the "not sure" marks
    must come out of the replay exactly as recorded."""
    session = _session(tmp_path)
    for table in _tables(range(6, 24)):
        session.observe(table)
    before = _shown(session)
    game_id = session.game_id
    session.store.close()
    script = load_script(demo_script_path(GAME))
    config = config_from_script(script)
    again = LiveSession(EngineReferee(config), Store(tmp_path / "g.db"), EventBus(),
                        header_for(config, "t"), layout_dict(GAME),
                        card_lookup(GAME, config.cards), resume=game_id)
    assert _shown(again) == before
    assert again.state()["status"] == session.state()["status"]


def test_a_card_taken_out_of_the_reflection_is_read_late_as_it_lay_there() -> None:
    """Twilight lies unread in Ada's home; then she is on the problem, read, and the place in
    the reflection is gone: she lay in the home all along, at the reflection's place."""
    spot = Unreadable("p1.home", 266.0, 332.0)
    before = TableSnapshot(game=GAME, unreadable=(spot,))
    moved = SeenCard("PR4#1", "p1.problem", x_mm=420.0, y_mm=300.0)
    after = TableSnapshot(game=GAME, cards=(moved,))
    (late,) = read_late(before, after)
    assert (late.uid, late.zone, late.x_mm, late.y_mm) == ("PR4#1", "p1.home", 266.0, 332.0)
    still_there = replace(after, unreadable=(spot,))
    assert read_late(before, still_there) == []  # the place is still covered: another card
    two = replace(after, cards=(moved, SeenCard("PR5#1", "p1.problem", x_mm=480.0,
                                                y_mm=300.0)))
    assert read_late(before, two) == []  # two new cards, one place: nobody can say which
