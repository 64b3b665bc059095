"""The demo's extras and the terminal's words: any bundled script by name, the LAN address with
a QR code a tablet can read, `companion review` serving only recorded games."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import cli
from companion.server import commands
from companion.server.demo_tools import ScriptNotFoundError, bundled_scripts, find_script
from companion.server.live_setup import scripts_dir


def test_every_bundled_script_is_listed_and_found_by_name() -> None:
    on_disk = sorted(f"{p.parent.name}/{p.stem}" for p in scripts_dir().glob("*/*.yaml"))
    assert bundled_scripts() == on_disk and len(on_disk) > 40
    listed = CliRunner().invoke(cli, ["demo", "--list-scripts"])
    assert listed.exit_code == 0 and listed.output.split() == on_disk
    assert find_script("creature-crush/rules-attack") == scripts_dir() / \
        "creature-crush/rules-attack.yaml"
    unique = next(n for n in on_disk
                  if sum(m.endswith("/" + n.split("/")[1]) for m in on_disk) == 1)
    assert find_script(unique.split("/")[1]) == scripts_dir() / f"{unique}.yaml"
    with pytest.raises(ScriptNotFoundError, match="several games"):
        find_script("opening")
    with pytest.raises(ScriptNotFoundError, match="--list-scripts"):
        find_script("no-such-script")


def test_demo_script_and_game_must_agree(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["demo", "--script", "creature-crush/opening", "--game",
                                      "challengers", "--no-browser", "--db",
                                      str(tmp_path / "x.db")])
    assert result.exit_code != 0 and "creature-crush game, not challengers" in result.output
    assert not (tmp_path / "x.db").exists()


def decode_terminal_qr(text: str) -> list[str]:
    """Read the QR code drawn with half blocks back as an image and decode it."""
    import cv2
    import numpy as np
    import zxingcpp

    rows = text.rstrip("\n").split("\n")
    image = np.zeros((2 * len(rows), max(map(len, rows))), np.uint8)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            image[2 * y, x] = 255 if ch in "█▀" else 0
            image[2 * y + 1, x] = 255 if ch in "█▄" else 0
    big = cv2.resize(image, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    big = cv2.copyMakeBorder(big, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    return [r.text for r in zxingcpp.read_barcodes(big)]


def test_the_terminal_shows_the_lan_address_and_its_qr_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(commands, "lan_address", lambda: "192.168.1.20")
    local = commands.print_addresses("0.0.0.0", 8765, "123456")
    out = capsys.readouterr().out
    assert local == "http://127.0.0.1:8765/"
    assert "http://192.168.1.20:8765/" in out and "123456" in out
    assert decode_terminal_qr(commands.qr_text("http://192.168.1.20:8765/")) == [
        "http://192.168.1.20:8765/"]
    commands.print_addresses("127.0.0.1", 8765, None)
    only_here = capsys.readouterr().out
    assert "--host 0.0.0.0" in only_here and "192.168" not in only_here
    assert commands.addresses("10.0.0.5", 9000) == ("http://10.0.0.5:9000/",
                                                    "http://10.0.0.5:9000/")


def test_review_needs_an_existing_library(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["review", str(tmp_path / "none.db"), "--no-browser"])
    assert result.exit_code != 0 and "no such game library" in result.output
    assert not (tmp_path / "none.db").exists()
    assert "Traceback" not in result.output


def test_review_only_app_has_no_live_game(tmp_path: Path) -> None:
    from companion.record.store import GameHeader, Store
    from companion.server.app import create_app

    with Store(tmp_path / "g.db") as store:
        gid = store.start_game(GameHeader(game="challengers", players=("Ada", "Bo")))
    app = create_app({"DATABASE": tmp_path / "g.db", "SESSION": None})
    client = app.test_client()
    assert client.get("/").status_code == 302
    assert client.get("/api/state").status_code == 404
    assert client.post("/api/demo/again", json={}).status_code == 404
    page = client.get("/review/")
    assert page.status_code == 200 and b"Ada" in page.data
    assert b'href="/calibration/"' not in page.data
    assert client.get("/api/cards/CH-001").status_code == 404
    sent = client.get(f"/review/{gid}/export.html?lang=de")
    assert sent.status_code == 200 and b'data-lang="de"' in sent.data
    assert sent.headers["Content-Disposition"] == f'attachment; filename="game-{gid}.html"'
