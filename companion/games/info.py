"""The five supported games: stable ids, display names and numeric codes.

(Moved here from companion/games.py, which the `companion.games` package now shadows.)

The numeric code is part of every card-front marker payload (see `companion.markers`), so it
must never change once stickers are printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import CompanionError


@dataclass(frozen=True)
class GameInfo:
    id: str
    name: str
    code: int
    rules_file: str


GAMES: dict[str, GameInfo] = {
    g.id: g
    for g in (
        GameInfo("trick-or-beat", "Trick or Beat", 1, "trick-or-beat.de.txt"),
        GameInfo("fire-emblem-cipher", "Fire Emblem Cipher", 2, "fire-emblem-cipher.de.txt"),
        GameInfo("my-little-pony-ccg", "My Little Pony CCG", 3, "my-little-pony-ccg.de.txt"),
        GameInfo("challengers", "Challengers!", 4, "challengers.de.txt"),
        GameInfo("creature-crush", "Creature Crush", 5, "creature-crush.de.txt"),
    )
}


class UnknownGameError(CompanionError):
    """A game id that is not one of the five."""


def game_info(game_id: str) -> GameInfo:
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}") from None


def game_by_code(code: int) -> GameInfo:
    for g in GAMES.values():
        if g.code == code:
            return g
    raise UnknownGameError(f"no game has marker code {code}")
