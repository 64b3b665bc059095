"""`companion deck check|list|register` through the CLI."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import yaml
from click.testing import CliRunner

from companion.cardsets import load_cardset
from companion.cli import cli
from companion.markers.payload import encode_front
from companion.markers.render import card_front_image, qr_image


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_check_legal_and_illegal_decks(tmp_path: Path, repo_root: Path) -> None:
    legal = repo_root / "cardsets" / "creature-crush" / "decks" / "glutlager.yaml"
    code, stdout, _ = run("deck", "check", str(legal))
    assert code == 0 and "legal creature-crush deck" in stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("game: creature-crush\n2 CC-001\n1 CC-006\n", encoding="utf-8")
    code, stdout, _ = run("deck", "check", str(bad), "--lang", "de")
    assert code == 1
    assert "cc.deck-size: das Lager hat 3 Karten" in stdout
    assert f"{bad}:2: cc.card-twice" in stdout


def test_check_broken_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("3 CC-001\n", encoding="utf-8")
    code, _, stderr = run("deck", "check", str(bad))
    assert code == 1 and "names no game" in stderr and "Traceback" not in stderr
    code, stdout, _ = run("deck", "check", str(bad), "--game", "creature-crush")
    assert code == 1 and "cc.card-twice" in stdout


def test_list_sample_decks() -> None:
    code, stdout, _ = run("deck", "list", "--game", "fire-emblem-cipher")
    assert code == 0 and "marth-red" in stdout and "legal" in stdout


def sticker_photo(payload_image: np.ndarray) -> np.ndarray:
    """A close-up photo of one sticker: no mat in view."""
    return np.pad(payload_image, 60, constant_values=255)


def test_register_from_a_folder_of_photos(tmp_path: Path) -> None:
    cards = load_cardset("creature-crush")
    photos = tmp_path / "photos"
    photos.mkdir()
    sequence = ["CC-001", "CC-006", "CC-006", "CC-011"]  # CC-006 photographed twice
    for i, card_id in enumerate(sequence):
        payload = encode_front(5, cards.get(card_id).number, 1)
        cv2.imwrite(str(photos / f"{i:02d}.png"), sticker_photo(card_front_image(payload, 8)))
    stray = qr_image("12345678", 8, quiet_modules=2, symbology="microqr")  # bad check digit
    cv2.imwrite(str(photos / "99.png"), sticker_photo(stray))
    out = tmp_path / "mine.yaml"
    code, stdout, stderr = run(
        "deck",
        "register",
        "--game",
        "creature-crush",
        "--out",
        str(out),
        "--from-images",
        str(photos),
    )
    assert code == 0, stderr
    assert "wrote" in stdout and "3 cards from 5 frames, 1 unknown markers" in stdout
    assert "unknown marker '12345678'" in stderr
    assert "cc.deck-size" in stdout  # 3 cards are not a camp yet
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert data["cards"] == {"CC-001": 1, "CC-006": 1, "CC-011": 1}
    assert data["copies"] == {"CC-001": [1], "CC-006": [1], "CC-011": [1]}
    code, stdout, _ = run("deck", "check", str(out))
    assert code == 1 and "cc.deck-size" in stdout


def test_register_needs_one_source(tmp_path: Path) -> None:
    code, _, stderr = run(
        "deck", "register", "--game", "creature-crush", "--out", str(tmp_path / "x.yaml")
    )
    assert code == 1 and "exactly one of" in stderr


def test_register_never_overwrites_a_deck_silently(tmp_path: Path) -> None:
    out = tmp_path / "mine.yaml"
    out.write_text("precious", encoding="utf-8")
    photos = tmp_path / "photos"
    photos.mkdir()
    code, _, stderr = run(
        "deck",
        "register",
        "--game",
        "creature-crush",
        "--out",
        str(out),
        "--from-images",
        str(photos),
    )
    assert code == 1 and "exists" in stderr
    assert out.read_text(encoding="utf-8") == "precious"
