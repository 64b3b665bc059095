"""One process records a game: a lock per game, held while a live session records it.

Why: two `--resume` runs could attach to the same game and interleave one log without a word.
The lock is the operating system's (`flock` on a small file beside the library), so a process
that dies, even by kill -9, lets go of it by itself: a resume after a crash is never refused.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
from pathlib import Path

from companion.errors import CompanionError

log = logging.getLogger("companion.record")

try:
    import fcntl
except ImportError:  # Windows: no flock; the lock is then not enforced
    fcntl = None  # type: ignore[assignment]


class GameHeldError(CompanionError):
    """Another live process records this game (a second `--resume`, a companion still
    running in another terminal)."""


def lock_path(library: Path, game_id: int) -> Path:
    """Hidden, beside the library: `.games.db.locks/game-7.lock`."""
    return library.parent / f".{library.name}.locks" / f"game-{game_id}.lock"


class GameLock:
    """Held from `acquire()` until `release()` or the end of the process."""

    def __init__(self, library: Path, game_id: int) -> None:
        self.library = Path(library)
        self.game_id = int(game_id)
        self.path = lock_path(self.library, self.game_id)
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or refuse with who holds it. A file system that cannot lock (some
        network shares) is logged and let through: the game is then unguarded, not lost."""
        if fcntl is None or self._fd is not None:
            return
        try:
            self.path.parent.mkdir(exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            log.warning("cannot guard game #%d against a second recorder: %s", self.game_id, exc)
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _read_holder(fd)
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                who = f" (process {holder})" if holder else ""
                raise GameHeldError(
                    f"game #{self.game_id} in {self.library} is being recorded by another"
                    f" companion{who}: stop that one first, or start a new game",
                    de=f"Partie #{self.game_id} wird schon von einem anderen Begleiter"
                       f" aufgezeichnet{who}: den zuerst beenden oder eine neue Partie"
                       " beginnen") from None
            log.warning("cannot guard game #%d against a second recorder: %s", self.game_id, exc)
            return
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the file lets go of the lock
            self._fd = None


def _read_holder(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, 32, 0).decode("ascii").strip()
        if text.isdigit():
            return text
    return ""
