"""`cardset import` on a full disk: a clear one-line error, and the user's cardsets folder as
it was (the old file whole, or no file), never a truncated YAML that breaks every command.

The full disk is simulated below the code under test: every write to a file in the user's
cardsets folder (through `os.write` or `Path.write_text`) stores `room` bytes, then fails with
ENOSPC, as a real full disk does.
"""

from __future__ import annotations

import errno
import os
import pathlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cardsets import load_cardset
from companion.cli import cli

CSV = ("id,number,name,type,cost,attack,life\n"
       + "".join(f"M-{i},{800 + i},Karte {i},creature,3,2,4\n" for i in range(1, 40)))
OLD = ("id,number,name,type,cost,attack,life\n" "M-1,801,Alt,creature,3,2,4\n")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    from companion.cardsets.loader import clear_cache

    clear_cache()
    yield tmp_path / "home"
    clear_cache()


def full_disk(monkeypatch: pytest.MonkeyPatch, folder: Path, room: int = 64) -> None:
    """Writes into `folder` store `room` bytes in all, then raise ENOSPC."""
    left = [room]
    real_write, real_write_text = os.write, pathlib.Path.write_text

    def in_folder(fd: int) -> bool:
        try:
            return os.readlink(f"/proc/self/fd/{fd}").startswith(str(folder))
        except OSError:
            return False

    def write(fd: int, data: bytes) -> int:
        if not in_folder(fd):
            return real_write(fd, data)
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        done = real_write(fd, bytes(data[:left[0]]))
        left[0] -= done
        return done

    def write_text(self: Path, text: str, *args: object, **kwargs: object) -> int:
        if not str(self.resolve()).startswith(str(folder)):
            return real_write_text(self, text, *args, **kwargs)  # type: ignore[arg-type]
        with open(self, "w", encoding="utf-8") as handle:
            handle.write(text[:room])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(pathlib.Path, "write_text", write_text)


def import_csv(tmp_path: Path, text: str, *extra: str) -> object:
    source = tmp_path / "mine.csv"
    source.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["cardset", "import", str(source), "--game",
                                    "creature-crush", *extra])


def test_a_full_disk_leaves_no_file_and_says_so(home: Path, tmp_path: Path) -> None:
    folder = home / "cardsets" / "creature-crush"
    folder.mkdir(parents=True)
    with pytest.MonkeyPatch.context() as disk:
        full_disk(disk, folder.resolve())
        result = import_csv(tmp_path, CSV)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and "No space left" in message, message
    assert list(folder.iterdir()) == [], "a truncated or temporary file was left behind"
    assert "M-1" not in {c.id for c in load_cardset("creature-crush")}


def test_a_full_disk_keeps_the_old_file_whole(home: Path, tmp_path: Path) -> None:
    assert import_csv(tmp_path, OLD).exit_code == 0
    folder = home / "cardsets" / "creature-crush"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with pytest.MonkeyPatch.context() as disk:
        full_disk(disk, folder.resolve())
        result = import_csv(tmp_path, CSV, "--force")
    assert result.exit_code == 1 and "No space left" in result.output, result.output
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert load_cardset("creature-crush").get("M-1").name == "Alt"
    result = import_csv(tmp_path, CSV, "--force")  # space is back: the import goes through
    assert result.exit_code == 0, result.output
    assert load_cardset("creature-crush").get("M-39").name == "Karte 39"
