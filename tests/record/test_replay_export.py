"""Main line with corrections, and replay/export from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from companion.record.commands import export, replay
from companion.record.export import export_dict, export_text
from companion.record.replay import main_line
from companion.record.store import GameHeader, Store


def record_game(path: Path) -> int:
    with Store(path) as store:
        gid = store.start_game(GameHeader(game="creature-crush", players=("Ada", "Bo"), seed=3))
        m1 = store.append(gid, "move", "camera",
                          {"text_en": "Ada plays Testling", "text_de": "Ada spielt Testling"})
        m2 = store.append(gid, "move", "camera", {"text_en": "Ada plays Zweiling"})
        v = store.append(gid, "violation", "automatic", {
            "code": "CC-COST", "message_en": "Not enough dice", "message_de": "Zu wenig Würfel",
            "rule": "Creature Crush 4.2", "move_seq": m2.seq})
        store.append(gid, "decision", "person", {"violation": v.seq, "decision": "corrected"})
        store.append(gid, "correction", "person",
                     {"target": m2.seq, "replacement": {"text_en": "Ada plays Dreiling"}})
        store.append(gid, "phase", "person", {"text_en": "Ada ends the turn"})
        store.append(gid, "move", "camera", {"text_en": "Bo plays Testling"})
        store.append(gid, "correction", "person",
                     {"target": 7, "replacement": None, "reason": "undo"})
        assert m1.seq == 1
        store.finish(gid, {"winner": "p1", "reason_en": "Bo has no creatures left"})
        return gid


def test_main_line_follows_corrections(tmp_path: Path) -> None:
    gid = record_game(tmp_path / "g.db")
    with Store(tmp_path / "g.db") as store:
        line = main_line(store.events(gid))
    assert [e.move["text_en"] for e in line] == [
        "Ada plays Testling", "Ada plays Dreiling", "Ada ends the turn"]
    assert line[1].corrected_from is not None and line[1].corrected_from.seq == 2


def test_export_json_has_full_log_and_decisions(tmp_path: Path) -> None:
    gid = record_game(tmp_path / "g.db")
    result = CliRunner().invoke(export, [str(tmp_path / "g.db"), str(gid), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert len(data["events"]) == 8
    assert data["decisions"] == {"3": "corrected"}
    assert data["header"]["outcome"]["winner"] == "p1"
    with Store(tmp_path / "g.db") as store:
        assert data == json.loads(json.dumps(export_dict(store, gid)))


def test_export_text_reads_like_a_record(tmp_path: Path) -> None:
    gid = record_game(tmp_path / "g.db")
    with Store(tmp_path / "g.db") as store:
        text = export_text(store, gid)
        german = export_text(store, gid, "de")
    assert "Players: Ada vs Bo" in text
    assert "Ada plays Dreiling (corrects an earlier step)" in text
    assert "Bo plays Testling" not in text
    assert "Result: Ada wins: Bo has no creatures left" in text
    assert "Spieler: Ada gegen Bo" in german
    assert "Ada spielt Testling" in german


def test_a_violation_speaks_the_records_language(tmp_path: Path) -> None:
    with Store(tmp_path / "v.db") as store:
        gid = store.start_game(GameHeader(game="creature-crush", players=("Ada", "Bo")))
        m = store.append(gid, "move", "camera", {"text_en": "Ada plays", "text_de": "Ada spielt"})
        store.append(gid, "violation", "automatic", {
            "code": "cc.cost", "message_en": "Not enough dice", "message_de": "Zu wenig Würfel",
            "rule": "Creature Crush Schlachtplan, Phase 2", "move_seq": m.seq})
        text, german = export_text(store, gid), export_text(store, gid, "de")
    assert "Rule broken: Not enough dice (rulebook: Phase 2) – open decision" in text
    assert "Regelverstoß: Zu wenig Würfel (Regelheft: Phase 2)" in german
    assert "Not enough dice" not in german and "cc.cost" not in german + text


def test_replay_lists_games_and_prints_one(tmp_path: Path) -> None:
    gid = record_game(tmp_path / "g.db")
    runner = CliRunner()
    listing = runner.invoke(replay, [str(tmp_path / "g.db")])
    assert listing.exit_code == 0
    assert "Creature Crush" in listing.output and "Ada vs Bo" in listing.output
    assert "Ada wins" in listing.output
    one = runner.invoke(replay, [str(tmp_path / "g.db"), str(gid)])
    assert one.exit_code == 0 and "Ada plays Testling" in one.output


def test_replay_errors_are_one_line(tmp_path: Path) -> None:
    from companion.cli import cli

    runner = CliRunner()
    missing = runner.invoke(cli, ["replay", str(tmp_path / "none.db")])
    assert missing.exit_code != 0 and "no such game library" in missing.output
    gid = record_game(tmp_path / "g.db")
    wrong = runner.invoke(cli, ["export", str(tmp_path / "g.db"), str(gid + 9)])
    assert wrong.exit_code != 0 and "no game with id" in wrong.output
    assert "Traceback" not in wrong.output


def test_export_json_texts_speak_in_names_and_its_fields_keep_the_ids(tmp_path: Path) -> None:
    """A program reads the moves' ids; a person reading the JSON reads names."""
    with Store(tmp_path / "g.db") as store:
        gid = store.start_game(GameHeader(game="creature-crush", players=("Ada", "Bo"), seed=3))
        store.append(gid, "violation", "automatic", {
            "code": "cc.dice-target", "cards": ["CC-031#1"], "zones": ["p1.B2"],
            "message_en": "The red dice on CC-031#1 in p1.B2 do not allow p2's target",
            "message_de": "Die roten Würfel auf CC-031#1 in p1.B2 erlauben p2s Ziel nicht",
            "move": {"kind": "attack", "player": "p1", "cards": ["CC-031#1"]}})
        data = json.loads(json.dumps(export_dict(store, gid)))
    (event,) = data["events"]
    payload = event["payload"]
    assert payload["cards"] == ["CC-031#1"] and payload["move"]["cards"] == ["CC-031#1"]
    for key in ("message_en", "message_de"):
        assert "CC-031#1" not in payload[key] and "p1.B2" not in payload[key], payload[key]
    assert "Bo" in payload["message_en"]


def test_a_record_split_by_an_older_undo_reads_as_the_game_was(tmp_path: Path) -> None:
    """Issue 34: an older companion wrote corrected -> stands -> undo -> undo with the last
    undo toggling nothing, so its main line lost the move the game kept. The line counts an
    undone input as never made (and undo itself toggles nothing): the move is back."""
    with Store(tmp_path / "g.db") as store:
        gid = store.start_game(GameHeader(game="creature-crush", players=("Ada", "Bo")))
        seen = store.append(gid, "observation", "camera", {"snapshot": {}})
        move = store.append(gid, "move", "camera", {"move": {"kind": "play"}, "input": seen.seq})
        v = store.append(gid, "violation", "automatic", {"code": "T-1", "move_seq": move.seq,
                                                         "input": seen.seq})
        d1 = store.append(gid, "decision", "person", {
            "violation": v.seq, "decision": "corrected", "move_seq": move.seq,
            "off": [move.seq], "on": []})
        d2 = store.append(gid, "decision", "person", {
            "violation": v.seq, "decision": "stands", "move_seq": move.seq,
            "off": [], "on": [move.seq]})
        store.append(gid, "undo", "person", {"inputs": [d2.seq], "off": [move.seq], "on": []})
        store.append(gid, "undo", "person", {"inputs": [d1.seq], "off": [], "on": []})
        assert [e.seq for e in main_line(store.events(gid))] == [move.seq]
