"""Building a live table: referee, session, feed and web app, for `demo` and `serve`.

Kept apart from the CLI so that tests and the page benchmark build the same thing the
commands do.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from flask import Flask

from companion.errors import CompanionError
from companion.record.store import GameHeader, Store
from companion.server.app import create_app
from companion.server.bus import EventBus
from companion.server.feeds import Feed, FeedRunner
from companion.server.session import LiveSession
from companion.snapshot import TableSnapshot

DEFAULT_DEMO_GAME = "trick-or-beat"
DEMO_FPS = 10.0


class DemoError(CompanionError):
    """A demo that cannot start (no bundled script for the game, ...)."""


def default_db() -> Path:
    """The game library used when none is given: one file per user."""
    from companion.paths import companion_home

    base = companion_home()
    base.mkdir(parents=True, exist_ok=True)
    return base / "games.db"


def scripts_dir() -> Path:
    from companion.sim.script import bundled_scripts_dir

    return bundled_scripts_dir()


def demo_script_path(game: str) -> Path:
    """The bundled demo script of `game`: demo.yaml, else opening.yaml, else the first."""
    folder = scripts_dir() / game
    candidates = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    if not candidates:
        raise DemoError(f"no bundled demo script for {game!r} (looked in {folder})")
    for stem in ("demo", "opening"):
        for p in candidates:
            if p.stem == stem:
                return p
    return candidates[0]


@dataclass
class Live:
    """Everything that makes one watched table; `close()` stops it in order."""

    session: LiveSession
    app: Flask
    runner: FeedRunner
    store: Store
    extra: dict[str, Any] = field(default_factory=dict)

    def close(self) -> None:
        self.runner.stop()
        self.session.close()
        self.session.bus.close()
        self.store.close()


def header_for(config: Any, title: str) -> GameHeader:
    """The recording header: what is needed to replay the game with the same cards and rules."""
    from companion.cardsets import load_cardset
    from companion.engine.game import Game
    from companion.record.provenance import cardset_hash, ruleset_version

    cardset = load_cardset(config.game)
    cardsets = {
        config.game: {
            "version": str(getattr(cardset, "version", "") or ""),
            "hash": cardset_hash(config.game, config.cards),
            "files": [Path(f).name for f in getattr(cardset, "files", ())],
        },
        "inline_cards": [dict(c) for c in config.cards],
        "decks": {k: list(v) for k, v in config.decks.items()},
    }
    return GameHeader(
        game=config.game,
        players=tuple(config.players),
        cardsets=cardsets,
        ruleset_version=ruleset_version(config.game, Game(config).ruleset),
        seed=config.seed,
        title=title,
        config=config.to_dict(),
    )


def build_live(
    config: Any,
    feed: Feed,
    db: Path,
    title: str,
    pin: str | None = None,
    app_config: Mapping[str, Any] | None = None,
    resume: bool = False,
    title_prefix: str | None = None,
) -> Live:
    """Session on the real engine, recording to `db`, fed by `feed`, served by a Flask app.

    `resume`: continue the latest unfinished game of this kind in `db` (with its recorded
    config: same decks, same order), replayed from its log; `title_prefix` narrows which."""
    from companion.server.engine_referee import EngineReferee
    from companion.server.gamedata import card_lookup, layout_dict

    store = Store(db)
    resumed: int | None = None
    header = header_for(config, title)
    if resume:
        try:
            config, header, resumed = _resumable(store, config, title_prefix)
            store.hold(resumed)  # never two recorders on one game
        except BaseException:
            store.close()
            raise
    try:
        session = LiveSession(
            EngineReferee(config),
            store,
            EventBus(),
            header,
            layout_dict(config.game),
            card_lookup(config.game, config.cards),
            resume=resumed,
        )
    except CompanionError as exc:
        store.close()
        if resumed is None:
            raise
        raise CompanionError(f"cannot resume game #{resumed}: {exc}") from None
    if resumed is None:
        try:
            store.hold(session.game_id)  # a `--resume` elsewhere must not join this new game
        except BaseException:
            session.close()
            session.bus.close()
            store.close()
            raise
    app = create_app({"DATABASE": db, "SESSION": session, "PIN": pin, **(app_config or {})})
    if hasattr(feed, "cameras"):  # a camera feed: other devices' cameras may join it
        from companion.layouts import load_layout
        from companion.server.table_cameras import TableCameras

        cameras = TableCameras(config.game, load_layout(config.game), session.observe)
        feed.cameras = cameras
        app.extensions["companion.cameras"] = cameras.hub
        app.extensions["companion.table_cameras"] = cameras  # the page's camera view
        app.config["CAMERA_FUSED"] = cameras.remote
    runner = FeedRunner(feed, session)
    return Live(session, app, runner, store)


def _resumable(store: Store, config: Any, title_prefix: str | None) -> tuple[Any, GameHeader, int]:
    """The latest unfinished game of `config.game` (whose title starts with `title_prefix`)
    with the config it was recorded with."""
    from companion.engine.api import GameConfig

    for header in reversed(store.games()):
        if header.finished or header.game != config.game or header.id is None:
            continue
        if title_prefix is not None and not header.title.startswith(title_prefix):
            continue
        if header.config is None:
            raise CompanionError(
                f"game #{header.id} in {store.path} was recorded by an older companion:"
                " it can be reviewed, not resumed")
        return GameConfig.from_dict(header.config), header, header.id
    raise CompanionError(f"no unfinished {config.game} game in {store.path} to resume"
                         " (start without --resume)")


class ScriptDirector:
    """The demo's person at the page: tells it what the script says a person told it.

    A camera cannot see declarations (an attack's target, a chosen effect); in a real game a
    person gives them on the page, and answers the page's questions when the camera cannot
    tell two readings apart. The demo gives them from the script, through the same session
    calls as the page, at the moment the simulated table reaches each step: declarations
    before the step's change is seen, the step's `choice` (else the first) when the change
    raised a question. Nobody presses "next phase" or "end turn": the engine sees from the
    table when a phase or turn ended (a script's `phase` and `pass` are left out).
    """

    def __init__(self, script: Any, session: LiveSession) -> None:
        from companion.sim.table_state import truth_tables

        self.script = script
        self.steps = list(script.steps)
        self.truth = truth_tables(script)
        self.session = session
        self.last = -1
        self.done_after: set[int] = set()
        self.declared: list[Any] = []
        """Declarations recorded after the last table a resumed game saw: the step they were
        made for began before the stop (they are not made again)."""

    def on_frame(self, frame: Any) -> None:
        target = int(getattr(frame, "step", -1))
        while self.last < target:
            self.last += 1
            if self.last > 0:
                self._after(self.last - 1)
            self._before(self.last)

    def on_end(self) -> None:
        if self.last >= 0:
            self._after(self.last)
            self.last = len(self.steps)

    def _engine(self) -> Any:
        return getattr(self.session.referee, "engine", None)

    def _before(self, i: int) -> None:
        from companion.referee.script import declared_moves, resolve_refs

        step = self.steps[i]
        game = self._engine()
        if game is None:
            return
        declare = dict(step.declare)
        player = str(declare.get("player", game.active))
        hand = list(self.truth[i].hand(player)) if i < len(self.truth) else []
        moves = tuple(resolve_refs(game, m) for m in declared_moves(game, declare, hand))
        if moves and self.declared and self.declared[0] == [m.to_dict() for m in moves]:
            self.declared.pop(0)  # made before a resumed demo stopped
        elif moves:
            with contextlib.suppress(CompanionError):  # refused (the game is over): a
                self.session.person_moves(moves)  # person at the page would read why
        hints = getattr(self.session.referee, "hints", None)
        if isinstance(hints, dict):
            hints.clear()
            hints.update(declare)

    def _after(self, i: int) -> None:
        """Answer a question the step's change raised, as the script's person would."""
        if i in self.done_after:
            return  # answered before the demo stopped (a resumed demo)
        question = self.session.state().get("question")
        if question:
            choices = question.get("choices") or []
            choice = int(dict(self.steps[i].declare).get("choice", 0))
            self.session.answer(int(question["seq"]), min(choice, max(len(choices) - 1, 0)))


class PacedSource:
    """Plays simulator frames at `speed` times real time (frame.time_s is the script clock)."""

    def __init__(self, source: Any, speed: float) -> None:
        self.source = source
        self.speed = speed
        self._t0: float | None = None
        self.state = "connected"

    def read(self) -> Any:
        frame = self.source.read()
        if frame is None:
            return None
        if self._t0 is None:
            self._t0 = time.monotonic() - frame.time_s / self.speed
        delay = self._t0 + frame.time_s / self.speed - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        return frame

    def close(self) -> None:
        self.source.close()


def build_demo(
    game: str,
    speed: float,
    db: Path,
    fps: float = DEMO_FPS,
    app_config: Mapping[str, Any] | None = None,
    script_path: Path | None = None,
    resume: bool = False,
) -> Live:
    """A bundled script (the game's demo, or `script_path`) played as simulator frames
    through the whole real pipeline (`resume`: go on with the last unfinished run of this
    demo from where it stopped)."""
    from companion.games import game_info
    from companion.layouts import load_layout
    from companion.referee.script import config_from_script
    from companion.server.feeds import FrameFeed
    from companion.sim.script import load_script
    from companion.sim.source import ScriptFrameSource, script_cardset
    from companion.vision.pipeline import build_pipeline

    if speed <= 0:
        raise DemoError(f"--speed must be above 0, not {speed}")
    game_info(game)
    path = script_path or demo_script_path(game)
    script = load_script(path)
    layout = load_layout(game)
    source = ScriptFrameSource(script, fps=fps, layout=layout, seed=int(script.seed or 0))
    pipeline = build_pipeline(layout, game, script_cardset(script))
    skipping = SkipFrames(source)
    feed = FrameFeed(PacedSource(skipping, speed), pipeline, end_status="finished")
    live = build_live(config_from_script(script), feed, db, f"demo: {path.stem}",
                      app_config=app_config, resume=resume, title_prefix=f"demo: {path.stem}")
    director = ScriptDirector(script, live.session)
    if resume:
        _continue_demo(live.session, director, skipping)
    feed.on_frame, feed.on_end = director.on_frame, director.on_end
    live.extra.update(script=path, feed=feed, director=director)
    return live


class SkipFrames:
    """Drops frames of script steps before `first_step` (a resumed demo goes on from there)."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.first_step = -1

    def step_at(self, time_s: float) -> int | None:
        """The script step the simulated camera showed at `time_s` (None: not known)."""
        find = getattr(self.source, "step_at", None)
        return find(time_s) if find is not None else None

    def read(self) -> Any:
        skip = getattr(self.source, "skip_to_step", None)
        if skip is not None and self.first_step > 0:
            skip(self.first_step)  # without rendering what nobody looks at
            self.first_step = -1
        while True:
            frame = self.source.read()
            if frame is None or int(getattr(frame, "step", 0)) >= self.first_step:
                return frame

    def close(self) -> None:
        self.source.close()


def _continue_demo(session: LiveSession, director: ScriptDirector, source: SkipFrames) -> None:
    """Find the script step the resumed game had reached and start the simulated camera and
    the director there.

    The camera's clock says it exactly: the last table recorded was seen at its frame's time,
    and the script's frame plan knows which step that frame showed (when that step's table is
    the one recorded). Otherwise (a feed of tables, other times) the recorded tables are
    matched to the script's in order, each at the first
    script table from the one before on: scripts repeat tables (an empty table after every
    trick), and the latest repeat would skip the game far ahead, or to its end."""
    if session.model_table is None:
        return
    events = session.store.events(session.game_id)
    observations = [e for e in events if e.kind == "observation"]
    if not observations:
        return
    seen = [TableSnapshot.from_dict(e.payload["snapshot"]) for e in observations]
    truth = truth_snapshots_of(director)
    step = source.step_at(seen[-1].time_s)
    if step is None or not _as_seen(seen[-1], truth[step + 1]):  # not this camera's clock
        step = _step_of_tables(seen, truth)
    source.first_step = step
    director.last = step
    last_seen = observations[-1].seq
    if any(e.kind == "action" and e.seq > last_seen for e in events):
        director.done_after.add(step)  # its answers after that table came before the stop
    director.declared = [e.payload.get("moves") for e in events if e.seq > last_seen
                         and e.kind == "action" and e.payload.get("action") == "moves"]


def _step_of_tables(seen: list[TableSnapshot], truth: list[TableSnapshot]) -> int:
    """The script step of the last of the camera's tables `seen`, matched in order."""
    at = 0
    matched = False
    for table in seen:
        found = next((i for i in range(at, len(truth)) if _as_seen(table, truth[i])), None)
        if found is not None:
            at, matched = found, True
    if not matched or not _as_seen(seen[-1], truth[at]):
        raise DemoError("cannot tell where the resumed demo stopped (its last table is not one"
                        " of the script's); start a new demo without --resume")
    return at - 1


def _as_seen(seen: TableSnapshot, truth: TableSnapshot) -> bool:
    """Whether the camera's `seen` table is the script's `truth` as far as the camera could
    read it: where the lamp's reflection hides a card (an unreadable spot), whatever lies in
    that zone is left out of both (a demo whose camera sees glare never shows its truth)."""
    if seen.same_table(truth):
        return True
    hidden = {u.zone for u in seen.unreadable}
    if not hidden:
        return False

    def readable(s: TableSnapshot) -> TableSnapshot:
        return replace(s, cards=tuple(c for c in s.cards if c.zone not in hidden),
                       dice=tuple(d for d in s.dice if d.zone not in hidden),
                       tokens=tuple(t for t in s.tokens if t.zone not in hidden),
                       unreadable=())

    return readable(seen).same_table(readable(truth))


def truth_snapshots_of(director: ScriptDirector) -> list[TableSnapshot]:
    from companion.sim.source import script_snapshots

    return script_snapshots(director.script)


def check_port(host: str, port: int) -> None:
    """Fail before anything is recorded when the address is taken (werkzeug would exit)."""
    import socket

    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CompanionError(
                f"cannot listen on {host}:{port}: {exc.strerror or exc} "
                "(is another companion running? --port 0 picks a free port)"
            ) from None


def serve_in_thread(app: Flask, host: str, port: int, ssl_context: Any = None
                    ) -> tuple[Any, threading.Thread]:
    """The bounded web server (companion.server.httpd) in a thread; returns (server, thread).
    Host and Origin headers are checked against `host` from now on; `ssl_context`: HTTPS."""
    from companion.server.httpd import BoundedWSGIServer

    check_port(host, port)
    app.config["BIND_HOST"] = host
    try:
        server = BoundedWSGIServer(host, port, app, ssl_context=ssl_context)
    except SystemExit:  # werkzeug prints and exits when the port was taken meanwhile
        raise OSError(f"cannot listen on {host}:{port}") from None
    thread = threading.Thread(target=server.serve_forever, name="companion-http", daemon=True)
    thread.start()
    return server, thread
