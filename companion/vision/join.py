"""`companion join http://HOST:PORT --camera N --pin PIN`: this device's camera on a served table.

A second laptop (or any device with a camera) at a table that another laptop serves: this
device runs its own eye on its own camera (its own mat fit and mirror detection, as
`companion watch`) and sends the table's companion its settled readings in mat coordinates,
never a picture: the table as read, how clearly the camera sees each part of the mat (pixels
per mm on a 50 mm grid) and the corner markers its mat fit stands on. It sends each new settled
table at once and the latest again every `HEARTBEAT_S`, so the table knows it is still there;
the table fuses the readings of every joined camera (companion/server/cameras.py).
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import click

from companion.snapshot import TableSnapshot
from companion.vision.multicam import CornerAnchors, clarity_grid

HEARTBEAT_S = 2.0
PIN_HEADER = "X-Companion-PIN"

Transport = Callable[[str, str, dict[str, Any] | None, dict[str, str]], tuple[int, Any]]
"""(method, path, JSON body or None, headers) -> (HTTP status, JSON answer)."""


def http_transport(base_url: str, timeout_s: float = 3.0) -> Transport:
    """Requests to the served table over HTTP (the standard library's client)."""
    base = base_url.rstrip("/")

    def send(method: str, path: str, body: dict[str, Any] | None, headers: dict[str, str]
             ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            base + path, data=data, method=method,
            headers={**headers, **({"Content-Type": "application/json"} if data else {})})
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as exc:
            try:
                return exc.code, json.loads(exc.read() or b"null")
            except ValueError:
                return exc.code, None

    return send


class JoinRefused(click.ClickException):
    """The table will not take this camera's readings (wrong PIN, another game)."""


class Sender:
    """Sends one camera's settled readings to a served table."""

    def __init__(self, transport: Transport, pin: str | None, name: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.transport = transport
        self.headers = {PIN_HEADER: pin} if pin else {}
        self.name = name
        self.clock = clock
        self.sent = 0
        self._last_sent: float | None = None
        self._said: str | None = None

    def game(self) -> str:
        """The game the table plays (asked once, before the eye starts)."""
        status, answer = self.transport("GET", "/api/cameras", None, self.headers)
        if status != 200 or not isinstance(answer, dict) or "game" not in answer:
            raise JoinRefused(_error(answer) or f"the table did not answer ({status})")
        return str(answer["game"])

    def due(self, new_table: bool) -> bool:
        return (new_table or self._last_sent is None
                or self.clock() - self._last_sent >= HEARTBEAT_S)

    def send(self, snapshot: TableSnapshot | None, geometry: Any, anchors: CornerAnchors,
             layout: Any, echo: Callable[..., Any] = click.echo) -> bool:
        """POST the reading; False (and said once on stderr) when the table could not be
        reached: the eye goes on and the next heartbeat tries again."""
        payload = reading_payload(self.name, snapshot, geometry, anchors, layout)
        self._last_sent = self.clock()
        try:
            status, answer = self.transport("POST", "/api/cameras/readings", payload,
                                            self.headers)
        except (OSError, ValueError) as exc:
            self._say(f"the table cannot be reached ({exc}); trying again", echo)
            return False
        if status in (403, 409):
            raise JoinRefused(_error(answer) or f"the table refused this camera ({status})")
        if status != 200:
            self._say(f"the table answered {status}: {_error(answer)}; trying again", echo)
            return False
        self.sent += 1
        self._say(f"sending to the table: it sees with {len(answer.get('live', []))} "
                  f"camera(s)" + (f", {' and '.join(answer['unwatched'])} not watched"
                                  if answer.get("unwatched") else ""), echo)
        return True

    def _say(self, text: str, echo: Callable[..., Any]) -> None:
        if text != self._said:
            self._said = text
            echo(f"[{self.name}] {text}", err=True)


def _error(answer: Any) -> str:
    return str(answer.get("error", "")) if isinstance(answer, dict) else ""


def reading_payload(name: str, snapshot: TableSnapshot | None, geometry: Any,
                    anchors: CornerAnchors, layout: Any) -> dict[str, Any]:
    """What a joined camera sends: no picture, only the settled table and how it sees."""
    located = geometry is not None
    return {
        "camera": name,
        "snapshot": snapshot.to_dict() if snapshot is not None and located else None,
        "clarity": clarity_grid(geometry.px_per_mm, float(layout.width_mm),
                                float(layout.height_mm)) if located else None,
        "anchors": [list(p) for p in anchors.points()] if located else None,
    }


def run_join(source: Any, pipeline: Any, layout: Any, sender: Sender,
             seconds: float | None = None, echo: Callable[..., Any] = click.echo) -> int:
    """The eye over `source` until it ends (or `seconds` pass), sending as it settles;
    returns the frames read."""
    anchors = CornerAnchors(layout)
    latest: TableSnapshot | None = None
    frames = 0
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        while deadline is None or time.monotonic() < deadline:
            frame = source.read()
            if frame is None:
                if getattr(source, "state", None) == "retrying":
                    time.sleep(0.2)
                    continue
                break
            frames += 1
            update = pipeline.process(frame)
            anchors.see(update.detections)
            if update.snapshot is not None:
                latest = update.snapshot
            if sender.due(update.snapshot is not None):
                sender.send(latest, pipeline.geometry, anchors, layout, echo)
    finally:
        source.close()
    return frames


@click.command()
@click.argument("url")
@click.option("--camera", "camera", default="0", show_default=True,
              help="This device's camera: an index, a video file, an image folder or a "
                   "stream URL.")
@click.option("--pin", default=None, help="The table's PIN (shown where it is served).")
@click.option("--name", default=None, help="How the table names this camera "
                                          "[default: this device's name].")
@click.option("--mirror/--no-mirror", default=None,
              help="The picture is (not) mirrored, e.g. by a mirror clip [default: found "
                   "from the mat's corner markers].")
@click.option("--seconds", type=float, default=None, help="Stop after this long.")
@click.option("--motion-gate/--every-frame", "motion_gate", default=True, show_default=True,
              help="Skip reading frames in which nothing moved (a still table is re-read "
                   "anyway), to spare the laptop's battery; --every-frame reads them all.")
def join(url: str, camera: str, pin: str | None, name: str | None, mirror: bool | None,
         seconds: float | None, motion_gate: bool = True) -> None:
    """Join the table served at URL with this device's camera: read the table here and send
    the settled readings (never video) to it."""
    from companion.cardsets import load_cardset
    from companion.games import game_dice
    from companion.layouts import load_layout
    from companion.vision.pipeline import build_pipeline
    from companion.vision.watch import open_frames

    if not url.startswith(("http://", "https://")):
        raise click.BadParameter("give the table's address, e.g. http://192.168.1.20:8765",
                                 param_hint="URL")
    sender = Sender(http_transport(url), pin, name or f"{socket.gethostname()[:30]} camera")
    try:
        game = sender.game()
    except OSError as exc:
        raise click.ClickException(f"cannot reach the table at {url}: {exc}") from exc
    layout = load_layout(game)
    from companion.vision.motion_gate import EVERY_FRAME, GateSettings

    pipeline = build_pipeline(layout, game, load_cardset(game), mirror=mirror,
                              dice=game_dice(game),
                              gate=GateSettings() if motion_gate else EVERY_FRAME)
    frames = open_frames(camera, None, encoded=motion_gate)
    click.echo(f"[{sender.name}] reading {game} for the table at {url}", err=True)
    try:
        count = run_join(frames, pipeline, layout, sender, seconds)
    except KeyboardInterrupt:
        return
    click.echo(f"{count} frames, {sender.sent} reading(s) sent", err=True)
