"""Records people can read and share: names and language, statuses, notes, search, HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cardsets import load_cardset
from companion.engine.api import Move
from companion.record import library
from companion.record.export import export_text
from companion.record.html import export_html
from companion.record.store import GameHeader, Store
from tests.live_tables import scripted

GAMES = ["trick-or-beat", "fire-emblem-cipher", "my-little-pony-ccg", "challengers",
         "creature-crush"]


def played(game: str, db: Path) -> int:
    """A recorded game from the opening script, with a broken rule and a concession."""
    with scripted(game, db) as table:
        table.play()
        move = table.illegal()
        if move is not None:
            table.session.person_moves((move,))
        table.session.note("Bo asked about the bench")
        table.session.person_moves((Move("concede", "p2"),))
        return table.session.game_id


@pytest.mark.parametrize("game", GAMES)
def test_text_export_names_everything_in_both_languages(game: str, tmp_path: Path) -> None:
    gid = played(game, tmp_path / "g.db")
    ids = sorted((c.id for c in load_cardset(game)), key=len, reverse=True)
    internal = re.compile(
        r"\b(p[12]|shared)\.[a-z]|\bp[12]\b|#\d|\b[a-z]+\.[a-z]+-[a-z-]+\b|\b("
        + "|".join(map(re.escape, ids)) + r")\b")
    with Store(tmp_path / "g.db") as store:
        english, german = export_text(store, gid, "en"), export_text(store, gid, "de")
        winner = {"p1": "Ada", "p2": "Bo"}[store.game(gid).outcome["winner"]]
        broken = any(e.kind == "violation" for e in store.events(gid))
    for text in (english, german):
        found = [line for line in text.splitlines() if internal.search(line)]
        assert found == [], found
    assert f"Result: {winner} wins" in english and f"Ergebnis: {winner} gewinnt" in german
    assert "Players: Ada vs Bo" in english and "Spieler: Ada gegen Bo" in german
    # (a game the script itself ends, Challengers!, takes no illegal move after its end)
    assert not broken or ("Rule broken:" in english and "Regelverstoß:" in german)
    assert broken or game == "challengers"
    assert "Notes:" in english and "  - Bo asked about the bench" in english


def test_statuses_names_notes_and_search(tmp_path: Path) -> None:
    db = tmp_path / "lib.db"
    first = played("trick-or-beat", db)
    with Store(db) as store:
        killed = store.start_game(GameHeader(game="challengers", players=("Cleo", "Dan")))
        store.append(killed, "move", "camera", {"text_en": "Cleo reveals a card"})
        live = store.start_game(GameHeader(game="creature-crush", players=("Eve", "Finn")))
        by_id = {r["id"]: r for r in library.rows(store, live_id=live)}
        assert (by_id[first]["status"], by_id[killed]["status"], by_id[live]["status"]) == (
            "finished", "interrupted", "live")
        assert by_id[first]["violations"] >= 1 and by_id[killed]["violations"] == 0

        library.rename(store, killed, "  Friday   final ")
        library.add_note(store, killed, "power cut during round 2")
        with pytest.raises(library.LibraryError):
            library.add_note(store, killed, "   ")
        with pytest.raises(library.LibraryError, match="being played now"):
            library.set_status(store, live, "abandoned", live_id=live)
        with pytest.raises(library.LibraryError, match="winner"):
            library.set_status(store, killed, "finished", "p3")
        library.set_status(store, killed, "abandoned")
        with pytest.raises(library.LibraryError, match="already abandoned"):
            library.set_status(store, killed, "finished", "p1")

        def ids(**query: str) -> list[int]:
            return [r["id"] for r in library.rows(store, library.Query(**query), live)]

        assert ids(game="challengers") == [killed]
        assert ids(player="EVE") == [live]
        assert ids(violations="with") == [first]
        assert sorted(ids(violations="without")) == sorted([killed, live])
        assert ids(status="abandoned") == [killed]
        assert ids(text="friday power") == [killed]  # the name and the note
        assert ids(text="friday bench") == []
        assert ids() == [live, killed, first]  # newest first
        assert store.game(killed).title == "Friday final"
        assert library.notes_of(store, killed) == ["power cut during round 2"]
        assert export_text(store, killed).count("Result: abandoned") == 1


def test_html_export_is_one_self_contained_file(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    db = tmp_path / "g.db"
    gid = played("creature-crush", db)
    with Store(db) as store:
        image = np.full((540, 960, 3), 90, np.uint8)
        ok, jpeg = cv2.imencode(".jpg", image)
        assert ok
        seq = next(e.seq for e in store.events(gid) if e.kind == "move")
        store.save_keyframe(gid, seq, jpeg.tobytes())
        html = export_html(store, gid, "de")
    assert html.startswith("<!doctype html>") and 'data-lang="de"' in html
    assert "data:image/jpeg;base64," in html
    for outside in ('src="/', 'href="/', 'src="http', 'href="http', "/static/", "url("):
        assert outside not in html, outside
    assert "Regelverstoß" not in html or "Verstoß" in html  # German texts are inside
    assert "Ada" in html and "Bo" in html


def test_export_command_writes_html_and_replay_lists_in_german(tmp_path: Path) -> None:
    from companion.cli import cli

    db = tmp_path / "g.db"
    gid = played("trick-or-beat", db)
    out = tmp_path / "game.html"
    result = CliRunner().invoke(cli, ["export", str(db), str(gid), "--format", "html",
                                      "--lang", "de", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    listing = CliRunner().invoke(cli, ["replay", str(db), "--lang", "de"])
    assert "Trick or Beat" in listing.output and "Ada gegen Bo" in listing.output
    assert "Ada gewinnt" in listing.output


def test_a_timeline_can_be_read_in_pages(tmp_path: Path) -> None:
    from companion.record.timeline import timeline

    gid = played("creature-crush", tmp_path / "g.db")
    with Store(tmp_path / "g.db") as store:
        whole = timeline(store, gid)
        first = timeline(store, gid, limit=10)
        rest = timeline(store, gid, after=first[-1]["seq"])
    assert [s["seq"] for s in first + rest] == [s["seq"] for s in whole]
    assert rest[0]["table"] == whole[10]["table"]  # the mat carried over the page break
