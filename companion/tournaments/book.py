"""Tournaments in the game library: settings plus an append-only log of steps, replayed.

Why a log of steps and not a snapshot of decks and fans: the `Tournament` object is the one
place that knows the rules (deck phase, trophies, fans, the final); storing what people did
and replaying it through that object means a stored tournament can never be in a state the
rules do not allow, and the log doubles as the tournament's history. A result stores the fans
its trophy showed; the replay draws exactly as the original did (same calls, same seed) and
checks it shows the same fans again, so a changed cardset or rules version is caught, not
hidden. Tables live in the same SQLite file as the games (created here, not by the game
store), and every result links the game it came from.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.games.challengers.plan import DEFAULT_LEVELS, seats_for
from companion.games.challengers.tournament import STAGES_DE, Match, Tournament, TournamentError

GAME = "challengers"
"""The one game with a tournament mode (Challengers!, its "Turnierplan"); named here only."""
ACTIONS = ("draw", "redraw", "choose", "slim", "end-deck-phase", "result", "withdraw",
           "end-match-phase")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_steps (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    seq INTEGER NOT NULL,
    time REAL NOT NULL,
    action TEXT NOT NULL,
    args TEXT NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    p1 TEXT NOT NULL,
    p2 TEXT NOT NULL,
    table_name TEXT NOT NULL,
    game_id INTEGER REFERENCES games(id),
    origin TEXT NOT NULL,
    winner TEXT NOT NULL,
    step INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, p1, p2)
);
CREATE TRIGGER IF NOT EXISTS tournament_steps_no_update BEFORE UPDATE ON tournament_steps
BEGIN SELECT RAISE(ABORT, 'tournament steps are append-only'); END;
CREATE TRIGGER IF NOT EXISTS tournament_steps_no_delete BEFORE DELETE ON tournament_steps
BEGIN SELECT RAISE(ABORT, 'tournament steps are append-only'); END;
"""


class TournamentNotFoundError(CompanionError):
    """A tournament id that is not in the library."""


def check_table_name(name: str) -> str:
    """Table names become NATS subject tokens and URL parts: letters, digits, - and _."""
    from companion.hall.wire import check_name

    return check_name("table", name)


@dataclass(frozen=True)
class Settings:
    """What a tournament was created with; enough to rebuild it from its steps."""

    players: tuple[str, ...]
    bot_difficulty: int = 1
    seed: int = 0
    levels: tuple[str, ...] = DEFAULT_LEVELS
    sets: tuple[str, ...] | None = None
    tables: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "bot_difficulty": self.bot_difficulty,
                "seed": self.seed, "levels": list(self.levels),
                "sets": list(self.sets) if self.sets is not None else None,
                "tables": list(self.tables)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        sets = data.get("sets")
        return cls(players=tuple(data["players"]), bot_difficulty=int(data["bot_difficulty"]),
                   seed=int(data["seed"]), levels=tuple(data["levels"]),
                   sets=tuple(sets) if sets is not None else None,
                   tables=tuple(data.get("tables") or ()))

    def build(self) -> Tournament:
        return Tournament(self.players, bot_difficulty=self.bot_difficulty, seed=self.seed,
                          levels=self.levels, sets=self.sets)


@dataclass(frozen=True)
class Link:
    """Where a match result came from: a game in this library, a table's game, or by hand."""

    table: str = ""
    game_id: int | None = None
    origin: str = "hand"

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "game_id": self.game_id, "origin": self.origin}


@dataclass
class Loaded:
    """A tournament rebuilt from its steps, with its id, name, settings and links."""

    id: int
    name: str
    settings: Settings
    tournament: Tournament
    steps: int
    links: dict[tuple[int, str, str], Link] = field(default_factory=dict)

    def counted(self, link: Link) -> tuple[int, str, str] | None:
        """The match a game already counts for (by game identity: the library game it is, or
        the table recording it came from), or None. A game is one result, whatever round or
        restart brings it back."""
        for key, known in self.links.items():
            if link.game_id is not None and known.game_id == link.game_id:
                return key
            if link.origin not in ("hand", "library") and known.origin == link.origin:
                return key
        return None

    def table_of(self, match: Match) -> str:
        """The table a match is played at: the configured names in match order."""
        index = self.tournament.matches.index(match)
        return table_names(self.settings, len(self.tournament.matches))[index]

    def match_at(self, table: str) -> Match | None:
        names = table_names(self.settings, len(self.tournament.matches))
        if table not in names:
            return None
        index = names.index(table)
        return self.tournament.matches[index] if index < len(self.tournament.matches) else None

    def still_playing(self) -> list[tuple[str, Match]]:
        """(table, match) of every match of the round being played that has no result yet."""
        t = self.tournament
        if t.stage not in ("match", "final"):
            return []
        return [(self.table_of(m), m) for m in t.matches if m not in t.results]

    def round_over_or_refuse(self) -> None:
        """The next round is paired only when every result of this one is in: else a refusal
        that names the tables still playing."""
        waiting = self.still_playing()
        if not waiting or self.tournament.stage != "match":
            return
        where = ", ".join(f"{table} ({m.a} - {m.b})" for table, m in waiting)
        done = len(self.tournament.matches) - len(waiting)
        raise TournamentError(
            f"round {self.tournament.round} is not over: {done} of "
            f"{len(self.tournament.matches)} results are in; still playing: {where}. The next "
            "round is paired when every result is in (a table's finished game reaches the hall "
            "by itself; by hand: companion tournament result --table TABLE --winner NAME)",
            de=f"Runde {self.tournament.round} ist nicht vorbei: {done} von "
               f"{len(self.tournament.matches)} Ergebnissen sind da; es spielen noch: {where}. "
               "Die nächste Runde wird gepaart, wenn alle Ergebnisse da sind (die beendete "
               "Partie eines Tisches erreicht die Halle von selbst; von Hand: companion "
               "tournament result --table TISCH --winner NAME)")

    def view(self) -> dict[str, Any]:
        """The tournament's picture for pages and `show`: pairings with tables and links."""
        data = self.tournament.view()
        data["id"], data["name"], data["steps"] = self.id, self.name, self.steps
        data["still_playing"] = [table for table, _m in self.still_playing()]
        for match, row in zip(self.tournament.matches, data["matches"], strict=True):
            row["table"] = self.table_of(match)
            link = self.links.get((match.round, match.a, match.b))
            row["link"] = link.to_dict() if link else None
        return data


def table_names(settings: Settings, count: int) -> list[str]:
    """`count` table names: the configured ones first, then table-1, table-2, ..."""
    names = list(settings.tables[:count])
    n = 1
    while len(names) < count:
        candidate = f"table-{n}"
        if candidate not in names:
            names.append(candidate)
        n += 1
    return names


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TournamentBook:
    """The tournaments of one game library (SQLite file); safe to share between threads and
    between processes (every change is one IMMEDIATE transaction that replays first)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            conn = sqlite3.connect(str(self.path), check_same_thread=False,
                                   isolation_level=None, timeout=30.0)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise CompanionError(f"{self.path}: not a game library ({exc})") from None
        self._conn = conn
        self._lock = threading.RLock()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> TournamentBook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    # --- creating and reading ------------------------------------------------------------------

    def create(self, settings: Settings, name: str = "") -> int:
        """A new tournament; the rules check the players (1-8, distinct) and the plan."""
        for table in settings.tables:
            check_table_name(table)
        if len(set(settings.tables)) != len(settings.tables):
            raise CompanionError(f"table names must be distinct: {list(settings.tables)}")
        seats_for(settings.players)
        settings.build()  # the rules check bot difficulty, levels and sets
        title = name or "Challengers! " + ", ".join(settings.players)
        with self._write() as conn:
            cursor = conn.execute(
                "INSERT INTO tournaments (game, name, created, settings) VALUES (?, ?, ?, ?)",
                (GAME, title, _now_iso(), json.dumps(settings.to_dict(), sort_keys=True)))
            return int(cursor.lastrowid or 0)

    def ids(self) -> list[tuple[int, str, str]]:
        """(id, name, created) of every tournament, oldest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, name, created FROM tournaments ORDER BY id").fetchall()
        return [(int(i), str(n), str(c)) for i, n, c in rows]

    def latest(self) -> int | None:
        found = self.ids()
        return found[-1][0] if found else None

    def step_count(self, tournament_id: int) -> int:
        with self._lock:
            (count,) = self._conn.execute(
                "SELECT COUNT(*) FROM tournament_steps WHERE tournament_id = ?",
                (tournament_id,)).fetchone()
        return int(count)

    def load(self, tournament_id: int) -> Loaded:
        with self._lock:
            return self._load(self._conn, tournament_id)

    def steps(self, tournament_id: int) -> list[dict[str, Any]]:
        with self._lock:
            self._head(self._conn, tournament_id)
            rows = self._conn.execute(
                "SELECT seq, time, action, args, source FROM tournament_steps"
                " WHERE tournament_id = ? ORDER BY seq", (tournament_id,)).fetchall()
        return [{"seq": int(s), "time": float(t), "action": a, "args": json.loads(g),
                 "source": src} for s, t, a, g, src in rows]

    def _head(self, conn: sqlite3.Connection, tournament_id: int) -> tuple[str, Settings]:
        row = conn.execute("SELECT name, settings FROM tournaments WHERE id = ?",
                           (tournament_id,)).fetchone()
        if row is None:
            raise TournamentNotFoundError(f"{self.path}: no tournament with id {tournament_id}")
        return str(row[0]), Settings.from_dict(json.loads(row[1]))

    def _load(self, conn: sqlite3.Connection, tournament_id: int) -> Loaded:
        name, settings = self._head(conn, tournament_id)
        t = settings.build()
        rows = conn.execute(
            "SELECT seq, action, args FROM tournament_steps WHERE tournament_id = ?"
            " ORDER BY seq", (tournament_id,)).fetchall()
        for seq, action, args in rows:
            try:
                _apply(t, action, json.loads(args))
            except CompanionError as exc:
                raise CompanionError(f"{self.path}: tournament {tournament_id} step {seq} "
                                     f"({action}) no longer replays: {exc}") from None
        links = {
            (int(r), str(a), str(b)): Link(str(table), None if g is None else int(g), str(o))
            for r, a, b, table, g, o in conn.execute(
                "SELECT round, p1, p2, table_name, game_id, origin FROM tournament_games"
                " WHERE tournament_id = ?", (tournament_id,))
        }
        return Loaded(tournament_id, name, settings, t, len(rows), links)

    # --- changing ------------------------------------------------------------------------------

    def act(self, tournament_id: int, action: str, args: Mapping[str, Any] | None = None,
            source: str = "person", link: Link | None = None) -> tuple[Loaded, Any]:
        """Apply one step through the rules and store it; returns the new state and the
        step's result (offered cards, the deck, the trophy, ...). Refused steps change nothing.
        """
        if action not in ACTIONS:
            raise CompanionError(f"unknown tournament step {action!r}; known: {', '.join(ACTIONS)}")
        body = dict(args or {})
        with self._write() as conn:
            loaded = self._load(conn, tournament_id)
            t = loaded.tournament
            if action == "result":
                match = _match(t, body)
                table = loaded.table_of(match)
                the_link = link or Link(table=table)
                counted = loaded.counted(the_link)
                if counted is not None:
                    raise TournamentError(
                        f"that game is counted already (round {counted[0]}, {counted[1]} - "
                        f"{counted[2]}): a game is one result",
                        de=f"diese Partie ist schon gezählt (Runde {counted[0]}, {counted[1]} - "
                           f"{counted[2]}): eine Partie ist ein Ergebnis")
                result = _apply(t, action, body)
                body["trophy"] = result.fans if result is not None else None
                conn.execute(
                    "INSERT INTO tournament_games (tournament_id, round, p1, p2, table_name,"
                    " game_id, origin, winner, step) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (tournament_id, match.round, match.a, match.b, the_link.table or table,
                     the_link.game_id, the_link.origin, body["winner"], loaded.steps + 1))
                loaded.links[(match.round, match.a, match.b)] = the_link
            elif action == "withdraw":
                match = _match(t, body)
                result = _apply(t, action, body)
                conn.execute(
                    "DELETE FROM tournament_games WHERE tournament_id = ? AND round = ? AND"
                    " p1 = ? AND p2 = ?", (tournament_id, match.round, match.a, match.b))
                loaded.links.pop((match.round, match.a, match.b), None)
            else:
                if action == "end-match-phase":
                    loaded.round_over_or_refuse()
                result = _apply(t, action, body)
            conn.execute(
                "INSERT INTO tournament_steps (tournament_id, seq, time, action, args, source)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (tournament_id, loaded.steps + 1, time.time(), action,
                 json.dumps(body, sort_keys=True, ensure_ascii=False), source))
            loaded.steps += 1
            return loaded, result

    def record_result(self, tournament_id: int, table: str, players: Sequence[str],
                      winner_seat: str, fans: Mapping[str, int], link: Link,
                      trophy_fans: int | None = None) -> tuple[Loaded, Any]:
        """A match result from the game at `table`: seats p1/p2 are `players`; `fans` are the
        effect fans per seat. The game must be the match the tournament plays at that table."""
        loaded = self.load(tournament_id)
        match = loaded.match_at(table)
        if match is None:
            raise TournamentError(f"the tournament plays no match at {table!r} now",
                                  de=f"das Turnier spielt an {table!r} gerade kein Match")
        if tuple(players) != (match.a, match.b):
            raise TournamentError(
                f"the game at {table} seats {' - '.join(players)}, but the tournament's match "
                f"there is {match.a} - {match.b}, in this order",
                de=f"an {table} sitzen {' - '.join(players)}, aber das Match des Turniers dort "
                   f"ist {match.a} - {match.b}, in dieser Reihenfolge")
        if winner_seat not in ("p1", "p2"):
            raise TournamentError(f"the game at {table} has no winner",
                                  de=f"die Partie an {table} hat keinen Sieger")
        names = {"p1": match.a, "p2": match.b}
        args = {"round": match.round, "a": match.a, "b": match.b,
                "winner": names[winner_seat],
                "effect_fans": {names[s]: int(v) for s, v in fans.items() if s in names},
                "trophy_fans": trophy_fans}
        return self.act(tournament_id, "result", args, source="table", link=link)


    def withdraw_result(self, tournament_id: int, link: Link) -> tuple[Match, str, Any] | None:
        """Take back the result the game `link` counts for (its table reopened it, or it now
        ends another way): (match, the winner that was counted, the trophy it gave), or None
        when the game counts for nothing."""
        loaded = self.load(tournament_id)
        key = loaded.counted(link)
        if key is None:
            return None
        match = _match(loaded.tournament, {"round": key[0], "a": key[1], "b": key[2]})
        winner = loaded.tournament.results[match]
        _, trophy = self.act(tournament_id, "withdraw",
                             {"round": match.round, "a": match.a, "b": match.b},
                             source="table")
        return match, winner, trophy


def _match(t: Tournament, body: Mapping[str, Any]) -> Match:
    try:
        round_no, a, b = int(body["round"]), str(body["a"]), str(body["b"])
    except (KeyError, TypeError, ValueError):
        raise TournamentError("a result names the match: round, a and b",
                              de="ein Ergebnis nennt das Match: Runde, a und b") from None
    for match in t.matches:
        if (match.round, match.a, match.b) == (round_no, a, b):
            return match
    raise TournamentError(f"{a} - {b} is not a match of round {t.round} ({t.stage} stage)",
                          de=f"{a} - {b} ist kein Match der Runde {t.round} "
                             f"(Turnierstufe {STAGES_DE[t.stage]})")


def _names(body: Mapping[str, Any], key: str) -> list[str]:
    value = body.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TournamentError(f"{key} is a list of card ids",
                              de=f"{key} ist eine Liste von Karten-IDs")
    return list(value)


def _apply(t: Tournament, action: str, body: Mapping[str, Any]) -> Any:
    """One step on the rules object; the only place steps meet the `Tournament`."""
    if action == "draw":
        return t.draw_offer(str(body.get("name", "")))
    if action == "redraw":
        return t.redraw(str(body.get("name", "")), _names(body, "cards"))
    if action == "choose":
        return t.choose(str(body.get("name", "")), _names(body, "keep"), _names(body, "remove"),
                        _names(body, "slim"))
    if action == "slim":
        return t.slim(str(body.get("name", "")), _names(body, "cards"))
    if action == "end-deck-phase":
        return t.end_deck_phase()
    if action == "result":
        match = _match(t, body)
        fans = body.get("effect_fans") or {}
        given = body.get("trophy_fans")
        trophy = t.record(match, str(body.get("winner", "")),
                          {str(k): int(v) for k, v in fans.items()},
                          None if given is None else int(given))
        drawn = body.get("trophy", trophy.fans if trophy else None)
        if (trophy.fans if trophy else None) != drawn:
            raise TournamentError(f"the trophy drew {trophy.fans if trophy else None} fans, "
                                  f"the record says {drawn}",
                                  de=f"die Trophäe zeigte {trophy.fans if trophy else None} "
                                     f"Fans, die Aufzeichnung sagt {drawn}")
        return trophy
    if action == "withdraw":
        return t.withdraw(_match(t, body))
    if action == "end-match-phase":
        return t.end_match_phase()
    raise CompanionError(f"unknown tournament step {action!r}")
