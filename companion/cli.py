"""The `companion` command: one verb per job, each defined beside the code it drives."""

from __future__ import annotations

import click

import companion.games  # noqa: F401  (the game registry: fills the engine's and cardsets' hooks)
from companion import __version__
from companion.lazy_group import LazyGroup

VERBS: dict[str, tuple[str, str]] = {
    "cardset": ("companion.cardsets.commands:cardset", "List, check, import and export cardsets."),
    "script": ("companion.sim.script_commands:script", "Check and show table scripts."),
    "scan": ("companion.vision.commands:scan", "Find every marker in a photo."),
    "calibrate": ("companion.vision.commands:calibrate", "Check camera placement from one frame."),
    "watch": ("companion.vision.watch:watch", "Run the camera pipeline headless, print tables."),
    "join": ("companion.vision.join:join",
             "Add this device's camera to a table served elsewhere."),
    "bench": ("companion.bench:bench", "Measure speed and accuracy targets."),
    "referee": ("companion.referee.commands:referee", "Referee a table script step by step."),
    "demo": ("companion.server.commands:demo", "Play a built-in demo game and open the page."),
    "serve": ("companion.server.commands:serve",
              "Watch a real table with a camera (or a phone: --phone)."),
    "review": ("companion.server.commands:review", "Browse the recorded games on a page."),
    "replay": ("companion.record.commands:replay", "Replay a recorded game."),
    "export": ("companion.record.commands:export",
               "Export a recorded game (JSON, text or one HTML page)."),
    "print": ("companion.printing.commands:print_group", "Print stickers, dice faces and mats."),
    "deck": ("companion.decks.commands:deck", "Register and check players' decks."),
    "tournament": ("companion.tournaments.commands:tournament",
                   "Run a Challengers! tournament across tables."),
    "hall": ("companion.hall.commands:hall", "Referees' hall: every table of an event on NATS."),
}


@click.group(cls=LazyGroup, lazy_subcommands=VERBS)
@click.version_option(__version__, prog_name="companion")
def cli() -> None:
    """Table companion: track, referee, score and record physical card games."""


def main() -> None:
    cli(prog_name="companion")


if __name__ == "__main__":
    main()
