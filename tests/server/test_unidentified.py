"""A card the camera sees but has not identified (too far from one laptop), as the referee and
the page meet it: no move, no violation, never a guessed card; "not sure" the way a card under
the lamp's reflection is (tests/server/test_glare_referee.py plays that on Fire Emblem's
opening); the page names the zone and the remedy in the issue's own sentence, written by hand
below.
"""

from __future__ import annotations

from pathlib import Path

from companion.engine.api import GameConfig
from companion.record.store import Store
from companion.server.bus import EventBus
from companion.server.engine_referee import EngineReferee
from companion.server.gamedata import card_lookup, layout_dict
from companion.server.glare_reading import read_late, unknown_spots
from companion.server.live_setup import header_for
from companion.server.names import Namer
from companion.server.session import LiveSession
from companion.server.unidentified import still_unread, view, zone_text
from companion.snapshot import SeenCard, TableSnapshot, Unreadable


def test_cards_too_far_to_read_are_named_per_zone_and_break_no_rule(tmp_path: Path) -> None:
    """Creature Crush from its start, Bo's two creatures seen from Ada's laptop, unread."""
    config = GameConfig("creature-crush", players=("Ada", "Bo"))
    session = LiveSession(EngineReferee(config), Store(tmp_path / "g.db"), EventBus(),
                          header_for(config, "t"), layout_dict("creature-crush"),
                          card_lookup("creature-crush", ()))
    far = (Unreadable("p2.A1", 370.0, 235.0, cause="far"),
           Unreadable("p2.B2", 300.0, 103.0, cause="far"))
    session.observe(TableSnapshot("creature-crush", seq=1, unreadable=far))
    state = session.state()
    assert state["violations"] == []  # a card nobody identified is no move and no violation
    assert state["table"]["cards"] == []
    assert [z["text_en"] for z in state["unidentified"]["zones"]] == [
        "Bo's A zone 1: 1 card not yet identified, too far from this camera: a second camera "
        "at Bo's side reads it (run `companion join` with this table's address on a laptop there)",
        "Bo's B zone 2: 1 card not yet identified, too far from this camera: a second camera "
        "at Bo's side reads it (run `companion join` with this table's address on a laptop there)"]
    assert sorted(p["zone"] for p in state["unidentified"]["places"]) == ["p2.A1", "p2.B2"]
    assert state["unreadable"] == []


def test_the_referee_weighs_an_unidentified_card_as_it_weighs_one_under_the_reflection() -> None:
    """"Not sure" and "read late" start from `unknown_spots`: a card seen too far to read is
    one of them, as a card under the reflection is, and a card the tracker named is not."""
    far = Unreadable("p2.A1", 370.0, 235.0, cause="far")
    hidden = Unreadable("p1.B1", 230.0, 296.0, cause="unidentified")
    named = Unreadable("p1.B2", 300.0, 296.0, card="S3#1")
    table = TableSnapshot("creature-crush", unreadable=(far, hidden, named))
    assert unknown_spots(table) == [far, hidden]
    later = TableSnapshot("creature-crush", cards=(
        SeenCard("S7#1", "p2.A1", x_mm=368.0, y_mm=240.0),))
    assert [c.uid for c in read_late(table, later)] == ["S7#1"]  # read where it lay unread


def test_the_issue_sentence_for_two_cards_in_bos_lanes() -> None:
    namer = Namer(lambda _uid: None, ["Ada", "Bo"],
                  {"zones": [{"id": "p2.lanes", "label_en": "Lanes", "label_de": "Bahnen"}]})
    assert zone_text(namer, "p2.lanes", 2, "far")["text_en"] == (
        "Bo's lanes: 2 cards not yet identified, too far from this camera: a second camera at "
        "Bo's side reads them (run `companion join` with this table's address on a laptop there)")


def test_a_card_a_joined_camera_read_is_no_longer_unidentified() -> None:
    far = Unreadable("p2.A1", 370.0, 235.0, cause="far")
    glare = Unreadable("p1.B1", 230.0, 296.0)
    fused = TableSnapshot("creature-crush", cards=(
        SeenCard("S1#1", "p2.A1", x_mm=372.0, y_mm=231.0),))
    assert still_unread((far, glare), fused) == (glare,)
    assert still_unread((far,), TableSnapshot("creature-crush")) == (far,)


def test_the_card_is_inferred_only_when_the_deck_leaves_one() -> None:
    namer = Namer(lambda _uid: None, ["Ada", "Bo"], {"zones": []})
    table = TableSnapshot("creature-crush", cards=(SeenCard("S1#1", "p1.A1"),),
                          unreadable=(Unreadable("p2.A1", 370.0, 235.0, cause="far"),))
    one_left = view(namer, table, None, {"p2": ["S1#1", "S2#1"]})
    assert one_left["zones"][0]["inferred"] == "S2#1"
    assert "inferred" in one_left["zones"][0]["text_en"]
    several = view(namer, table, None, {"p2": ["S1#1", "S2#1", "S3#1"]})
    assert "inferred" not in several["zones"][0]
