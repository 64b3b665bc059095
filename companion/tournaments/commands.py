"""`companion tournament ...`: run a Challengers! tournament from the terminal.

Every command opens the game library, rebuilds the tournament from its stored steps, applies
one step through the rules and stores it. The hall (`companion hall`) records results from the
tables' games by itself; `result` is for matches entered by hand or played at a table that
records into this same library.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import click

from companion.errors import CompanionError
from companion.tournaments.book import GAME, Link, Loaded, Settings, TournamentBook

DB_OPTION = click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
                         help="Game library (default ~/.companion/games.db).")
ID_OPTION = click.option("--id", "tournament_id", type=int, default=None,
                         help="Which tournament (default: the latest).")


def _db(db: Path | None) -> Path:
    if db is not None:
        return db
    from companion.server.live_setup import default_db

    return default_db()


def _book(db: Path | None) -> TournamentBook:
    return TournamentBook(_db(db))


def _pick(book: TournamentBook, tournament_id: int | None) -> int:
    if tournament_id is not None:
        return tournament_id
    latest = book.latest()
    if latest is None:
        raise CompanionError(f"{book.path}: no tournament yet (companion tournament new ...)",
                             de=f"{book.path}: noch kein Turnier (companion tournament new ...)")
    return latest


def _card(loaded: Loaded, uid: str) -> str:
    facts = loaded.tournament.catalog.of_uid(uid)
    level = facts.get("level") or facts.type
    return f"{uid} {facts.name} ({level}, strength {facts.number('strength')})"


def describe(loaded: Loaded) -> str:
    """The tournament as text: stage, pairings at their tables, standings."""
    view = loaded.view()
    t = loaded.tournament
    lines = [f"Tournament #{loaded.id}: {loaded.name}"]
    where = "final" if view["round"] > 7 else f"round {view['round']} (level {view['level']})"
    lines.append(f"  {where}, {view['stage']} stage; sets: {', '.join(view['sets'])}")
    if t.stage == "deck":
        waiting = [n for n, ph in t.phases.items() if not ph.done]
        lines.append("  choosing cards: " + (", ".join(waiting) if waiting else "nobody "
                     "(next: companion tournament play)"))
    lines.append("  pairings:")
    for m in view["matches"]:
        result = f"winner {m['winner']}" if m["winner"] else "no result yet"
        link = m.get("link") or {}
        if link.get("game_id") is not None:
            result += f" (game #{link['game_id']})"
        lines.append(f"    {m['table']}: {m['p1']} (p1) - {m['p2']} (p2), {m['starter']} "
                     f"starts; {result}")
    if view["still_playing"] and view["stage"] == "match":
        lines.append("  still playing: " + ", ".join(view["still_playing"])
                     + " (companion tournament next pairs the next round once all are in)")
    elif view["stage"] == "match":
        lines.append("  every result is in (next: companion tournament next)")
    lines.append("  standings:")
    for s in view["standings"]:
        fans = "hidden" if s["fans"] is None else str(s["fans"])
        lines.append(f"    {s['name']:<12} fans {fans:>6}  trophies {s['trophies']}  "
                     f"fan tokens {s['fan_tokens']}  deck {view['deck_sizes'][s['name']]}")
    if view["stage"] == "over":
        winner = view["winner"] or "nobody (a tie)"
        lines.append(f"  over: {winner} wins ({view['end_reason']})")
    return "\n".join(lines)


@click.group()
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True,
              envvar="COMPANION_LANG",
              help="Language of refusals (a step the rules do not allow now); also from "
                   "COMPANION_LANG.")
def tournament(lang: str) -> None:
    """Run a Challengers! tournament: pairings, deck phases, results, fans, the final."""
    from companion.lazy_group import LANG_KEY

    click.get_current_context().meta[LANG_KEY] = lang


@tournament.command("new")
@click.argument("players", nargs=-1, required=True)
@click.option("--bot", "bot_difficulty", type=click.IntRange(1, 5), default=1,
              show_default=True, help="Bot difficulty for an odd number of players.")
@click.option("--seed", type=int, default=None, help="Seed of shuffles and lots (default: random).")
@click.option("--name", default="", help="A title for the tournament.")
@click.option("--tables", default="", help="Table names in match order, comma separated "
              "(default table-1, table-2, ...); the same names as `serve --table`.")
@click.option("--levels", default="ABBBCCC", show_default=True,
              help="Level stack of each round's deck phase.")
@DB_OPTION
def new(players: tuple[str, ...], bot_difficulty: int, seed: int | None, name: str, tables: str,
        levels: str, db: Path | None) -> None:
    """Start a tournament for 1-8 PLAYERS (names; a comma-separated list works too)."""
    import secrets

    names = [n.strip() for p in players for n in p.split(",") if n.strip()]
    settings = Settings(players=tuple(names), bot_difficulty=bot_difficulty,
                        seed=secrets.randbelow(10**6) if seed is None else seed,
                        levels=tuple(levels.strip().upper()),
                        tables=tuple(t.strip() for t in tables.split(",") if t.strip()))
    with _book(db) as book:
        tid = book.create(settings, name)
        loaded = book.load(tid)
        if loaded.tournament.has_bot and len(names) > 1 and bot_difficulty >= 4:
            click.echo("note: bot difficulty 4 and 5 are meant for solo games; the rules call "
                       "them unfair with several players")
        click.echo(describe(loaded))


@tournament.command("list")
@DB_OPTION
def list_(db: Path | None) -> None:
    """Every tournament in the library."""
    with _book(db) as book:
        for tid, name, created in book.ids():
            loaded = book.load(tid)
            t = loaded.tournament
            click.echo(f"#{tid} {created} {name}: round {min(t.round, 8)}, {t.stage}")


@tournament.command("show")
@ID_OPTION
@click.option("--json", "as_json", is_flag=True, help="The page's JSON instead of text.")
@DB_OPTION
def show(tournament_id: int | None, as_json: bool, db: Path | None) -> None:
    """Stage, pairings (with tables), standings."""
    with _book(db) as book:
        loaded = book.load(_pick(book, tournament_id))
        if as_json:
            click.echo(json.dumps(loaded.view(), indent=2, ensure_ascii=False))
        else:
            click.echo(describe(loaded))


@tournament.command("offer")
@click.argument("player")
@ID_OPTION
@DB_OPTION
def offer(player: str, tournament_id: int | None, db: Path | None) -> None:
    """PLAYER draws five cards from this round's level stack."""
    with _book(db) as book:
        loaded, cards = book.act(_pick(book, tournament_id), "draw", {"name": player})
        click.echo(f"{player} draws:")
        for uid in cards:
            click.echo(f"  {_card(loaded, uid)}")


@tournament.command("redraw")
@click.argument("player")
@click.argument("cards", nargs=-1, required=True)
@ID_OPTION
@DB_OPTION
def redraw(player: str, cards: tuple[str, ...], tournament_id: int | None,
           db: Path | None) -> None:
    """Once per deck phase: PLAYER discards offered CARDS and draws as many new ones."""
    with _book(db) as book:
        loaded, offered = book.act(_pick(book, tournament_id), "redraw",
                                   {"name": player, "cards": list(cards)})
        click.echo(f"{player}'s offer now:")
        for uid in offered:
            click.echo(f"  {_card(loaded, uid)}")


@tournament.command("choose")
@click.argument("player")
@click.option("--keep", multiple=True, required=True, help="An offered card to keep (1 or 2).")
@click.option("--remove", multiple=True, help="A deck card removed for Ausgewählt.")
@click.option("--slim", multiple=True, help="A deck card discarded to slim the deck.")
@ID_OPTION
@DB_OPTION
def choose(player: str, keep: tuple[str, ...], remove: tuple[str, ...], slim: tuple[str, ...],
           tournament_id: int | None, db: Path | None) -> None:
    """PLAYER keeps one or two offered cards, pays Ausgewählt, may slim the deck."""
    with _book(db) as book:
        tid = _pick(book, tournament_id)
        _loaded, deck = book.act(tid, "choose", {"name": player, "keep": list(keep),
                                                 "remove": list(remove), "slim": list(slim)})
        click.echo(f"{player}'s deck ({len(deck)} cards): {' '.join(deck)}")


@tournament.command("slim")
@click.argument("player")
@click.argument("cards", nargs=-1, required=True)
@ID_OPTION
@DB_OPTION
def slim(player: str, cards: tuple[str, ...], tournament_id: int | None,
         db: Path | None) -> None:
    """PLAYER discards CARDS from the deck (after choosing; finalists before the final)."""
    with _book(db) as book:
        _loaded, deck = book.act(_pick(book, tournament_id), "slim",
                                 {"name": player, "cards": list(cards)})
        click.echo(f"{player}'s deck ({len(deck)} cards): {' '.join(deck)}")


@tournament.command("play")
@click.option("--hall", default="nats://HALL:4222", show_default=True,
              help="The hall's NATS address, for the printed table commands.")
@ID_OPTION
@DB_OPTION
def play(hall: str, tournament_id: int | None, db: Path | None) -> None:
    """End the deck phase: the matches begin (prints each table's `serve` command)."""
    from companion.hall.credentials import CREDENTIALS_FILE, user_of, with_credentials

    passwords: dict[str, str] = {}
    known = _db(db).parent / "nats" / CREDENTIALS_FILE  # a hall's own broker next to the library
    if user_of(hall) is None and known.exists():
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            passwords = {str(k): str(v)
                         for k, v in dict(json.loads(known.read_text())["tables"]).items()}
    with _book(db) as book:
        loaded, _matches = book.act(_pick(book, tournament_id), "end-deck-phase")
        click.echo(describe(loaded))
        click.echo("at each table (decks: companion tournament decks --out DIR):")
        for m in loaded.view()["matches"]:
            table = m["table"]
            address = with_credentials(hall, table, passwords[table]) \
                if table in passwords else hall
            click.echo(f"  companion serve --camera 0 --game challengers "
                       f"--players '{m['p1']},{m['p2']}' --deck p1=DIR/{_slug(m['p1'])}.yaml "
                       f"--deck p2=DIR/{_slug(m['p2'])}.yaml --hall {address} --table {table}")


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name).strip("-").lower() or "player"


@tournament.command("decks")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@ID_OPTION
@DB_OPTION
def decks(out: Path, tournament_id: int | None, db: Path | None) -> None:
    """Write every seat's deck as a deck list (with its physical copies) for `serve --deck`."""
    from companion.snapshot import split_uid

    with _book(db) as book:
        loaded = book.load(_pick(book, tournament_id))
    out.mkdir(parents=True, exist_ok=True)
    for name, seat in loaded.tournament.seats.items():
        counts: Counter[str] = Counter()
        copies: dict[str, list[int]] = {}
        for uid in seat.deck:
            card_id, copy = split_uid(uid)
            counts[card_id] += 1
            copies.setdefault(card_id, []).append(copy)
        body: dict[str, Any] = {"game": GAME, "name": name, "cards": dict(counts),
                                "copies": copies}
        path = out / f"{_slug(name)}.yaml"
        import yaml

        path.write_text(yaml.safe_dump(body, sort_keys=False, allow_unicode=True))
        click.echo(f"{path}: {name}, {len(seat.deck)} cards")


@tournament.command("result")
@click.option("--table", default=None, help="The match at this table.")
@click.option("--game", "game_id", type=int, default=None,
              help="Take the result from this recorded game of the library.")
@click.option("--winner", default=None, help="Who won (entered by hand).")
@click.option("--fans", "fan_args", multiple=True, metavar="NAME=N",
              help="Fans from card effects (entered by hand; repeat).")
@click.option("--trophy", type=int, default=None,
              help="Fans on the back of the won trophy (default: drawn).")
@ID_OPTION
@DB_OPTION
def result(table: str | None, game_id: int | None, winner: str | None,
           fan_args: tuple[str, ...], trophy: int | None, tournament_id: int | None,
           db: Path | None) -> None:
    """Record a match: from a recorded game (--game) or by hand (--table and --winner)."""
    with _book(db) as book:
        tid = _pick(book, tournament_id)
        if game_id is not None:
            from companion.record.store import Store
            from companion.tournaments.results import stored_result

            with Store(book.path) as store:
                found = stored_result(store, game_id)
            loaded = book.load(tid)
            if table is None:
                match = next((m for m in loaded.tournament.matches
                              if (m.a, m.b) == found.players), None)
                if match is None:
                    seated = " - ".join(found.players)
                    raise CompanionError(f"game #{game_id} seats {seated}: no such match in "
                                         "this stage",
                                         de=f"an Partie #{game_id} sitzen {seated}: kein "
                                            "solches Match in dieser Stufe")
                table = loaded.table_of(match)
            loaded, trophy_won = book.record_result(
                tid, table, found.players, found.winner_seat or "", found.fans,
                Link(table=table, game_id=game_id, origin="library"), trophy)
        else:
            if table is None or winner is None:
                raise click.UsageError("give --game ID, or --table and --winner")
            loaded = book.load(tid)
            match = loaded.match_at(table)
            if match is None:
                raise CompanionError(f"the tournament plays no match at {table!r} now",
                                     de=f"das Turnier spielt an {table!r} gerade kein Match")
            fans: dict[str, int] = {}
            for arg in fan_args:
                who, sep, n = arg.partition("=")
                if not sep or not n.strip().lstrip("-").isdigit():
                    raise click.BadParameter(f"use NAME=N, not {arg!r}", param_hint="--fans")
                fans[who.strip()] = int(n)
            loaded, trophy_won = book.act(tid, "result", {
                "round": match.round, "a": match.a, "b": match.b, "winner": winner,
                "effect_fans": fans, "trophy_fans": trophy}, link=Link(table=table))
        if trophy_won is not None:
            click.echo(f"trophy of round {trophy_won.round}: {trophy_won.fans} fans")
        click.echo(describe(loaded))


@tournament.command("next")
@ID_OPTION
@DB_OPTION
def next_(tournament_id: int | None, db: Path | None) -> None:
    """End the match phase once every result is in: an early win, the next round's deck
    phase, or the final. Refused (naming the tables still playing) while a match of the round
    has no result."""
    with _book(db) as book:
        loaded, _ = book.act(_pick(book, tournament_id), "end-match-phase")
        click.echo(describe(loaded))
