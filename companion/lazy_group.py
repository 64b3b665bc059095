"""A click group whose subcommands are imported only when used.

`companion --help` must answer at once and must not import OpenCV or Flask; each verb lives
in the module of the part it belongs to and is named here by import path.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from companion.errors import CompanionError

LANG_KEY = "companion.lang"
"""Where a command puts the language its user reads (`--lang de`): `ctx.meta[LANG_KEY]`."""


class GermanError(click.ClickException):
    """A user's error said in German, behind "Fehler:" instead of click's "Error:"."""

    def show(self, file: Any = None) -> None:
        click.echo(f"Fehler: {self.format_message()}", err=file is None, file=file)


class LazyGroup(click.Group):
    """Subcommands given as {"name": ("package.module:attribute", "one-line help")}.

    The help line is given here so that `--help` lists every verb without importing any of
    them. A user's error (CompanionError) becomes a one-line message with exit status 1.
    """

    def __init__(
        self, *args: Any, lazy_subcommands: dict[str, tuple[str, str]] | None = None, **kw: Any
    ):
        super().__init__(*args, **kw)
        self.lazy_subcommands: dict[str, tuple[str, str]] = dict(lazy_subcommands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_subcommands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            module_name, attr = self.lazy_subcommands[cmd_name][0].split(":")
            command = getattr(importlib.import_module(module_name), attr)
            if not isinstance(command, click.Command):
                raise TypeError(f"{module_name}:{attr} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, help_line) for name, (_, help_line) in self.lazy_subcommands.items()]
        for name in super().list_commands(ctx):
            command = super().get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str()))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(sorted(rows))

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CompanionError as exc:
            if ctx.meta.get(LANG_KEY) == "de" and exc.message_de:
                raise GermanError(exc.message_de) from exc
            raise click.ClickException(str(exc)) from exc
