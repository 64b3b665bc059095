"""Error types that reach people.

Every error a user can cause (a broken file, an unknown marker, a bad request) is a subclass of
`CompanionError`, a `ValueError`, so the CLI and the web layer can show its message in one line
instead of a traceback.
"""

from __future__ import annotations


class CompanionError(ValueError):
    """A problem with the user's input or data, explained in its message.

    `de` is the same message in German, for the page when it is set to German (the terminal
    and the logs keep the English message).
    """

    def __init__(self, *args: object, de: str | None = None) -> None:
        super().__init__(*args)
        self.message_de = de


class DataFileError(CompanionError):
    """A data file (cardset, layout, table script, deck list) is broken.

    The message names the file, and where known the line, the item and the field.
    """

    def __init__(self, path: object, message: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.detail = message
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")
