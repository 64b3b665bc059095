"""A hall nobody can forge: its own nats-server with one user per table (NATS accounts, users
and permissions, checked by the broker), the hall refusing what a table's credentials could
still send wrongly, and the hall page's writes behind the PIN.

Everything runs against a real nats-server on loopback, with nats-py as the attacker."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.hall.credentials import CONFIG_FILE, CREDENTIALS_FILE
from companion.hall.loop import LoopThread
from companion.hall.publisher import TablePublisher
from companion.hall.runtime import Hall
from companion.hall.wire import EVENT, FINISH, HEADER, MSG_ID_HEADER, PARTS, Place, encode
from companion.record.store import GameHeader, Store
from companion.tournaments.book import Settings, TournamentBook
from tests.hall.conftest import wait_until
from tests.hall.helpers import Table, deck_phase

PIN = "246810"
LAN = {"REMOTE_ADDR": "192.168.1.20"}
STREAM = "companion"


@pytest.fixture
def secured(tmp_path: Path) -> Iterator[Hall]:
    """`companion hall` with its own broker: two tables, a two-player tournament at north."""
    db = tmp_path / "hall.db"
    with TournamentBook(db) as book:
        tid = book.create(Settings(players=("Ada", "Bo"), seed=3, tables=("north",)), "Cup")
        deck_phase(book, tid, ("Ada", "Bo"))
    hall = Hall(db, None, nats_dir=tmp_path / "nats", nats_port=0, nats_host="127.0.0.1",
                tables=("north", "south"), pin=PIN, heartbeat_s=0.5).start("127.0.0.1", 0)
    try:
        assert hall.wait_ready()
        yield hall
    finally:
        hall.close()


def results(hall: Hall) -> list[dict[str, Any]]:
    with TournamentBook(hall.db) as book:
        tid = book.latest()
        assert tid is not None
        return [s for s in book.steps(tid) if s["action"] == "result"]


class Attacker:
    """A nats-py client with the given credentials (or none), its errors collected."""

    def __init__(self, loop: LoopThread, url: str, inbox: str = "_INBOX") -> None:
        self.loop = loop
        self.url = url
        self.inbox = inbox
        self.errors: list[str] = []
        self.nc: Any = None

    def connect(self) -> Attacker:
        import nats

        async def error(exc: Exception) -> None:
            self.errors.append(str(exc))

        async def go() -> Any:
            return await nats.connect(self.url, error_cb=error, allow_reconnect=False,
                                      connect_timeout=2, inbox_prefix=self.inbox)

        self.nc = self.loop.run(go(), 10)
        return self

    def run(self, coro: Any) -> Any:
        return self.loop.run(coro, 30)

    def close(self) -> None:
        if self.nc is not None:
            self.run(self.nc.close())

    def violations(self) -> int:
        return sum("permissions violation" in e.lower() for e in self.errors)


def forged(table: str, db: str, game: int, finish_winner: str = "p1") -> list[tuple[str, bytes]]:
    """A whole fake tournament game (header, a move, a finish) as a table would send it."""
    header = {"game": "challengers", "players": ["Ada", "Bo"], "title": "fake", "url": ""}
    move = {"seq": 1, "time": 1.0, "kind": "move", "source": "camera",
            "payload": {"text_en": "fake", "legal": True,
                        "state": {"scores": {"p1": 9, "p2": 0}}}}
    return [
        (HEADER, encode(HEADER, table, db, Place(game, 0, PARTS[HEADER]), header, 1.0)),
        (EVENT, encode(EVENT, table, db, Place(game, 1, PARTS[EVENT]), move, 1.0)),
        (FINISH, encode(FINISH, table, db, Place(game, 1, PARTS[FINISH]),
                        {"outcome": {"winner": finish_winner, "reason": "fake"}, "after": 1},
                        1.0)),
    ]


def test_credentials_are_generated_private_and_kept(secured: Hall, tmp_path: Path) -> None:
    folder = tmp_path / "nats"
    for name in (CREDENTIALS_FILE, CONFIG_FILE):
        mode = stat.S_IMODE(os.stat(folder / name).st_mode)
        assert mode == 0o600, f"{name} is {oct(mode)}"
    creds = json.loads((folder / CREDENTIALS_FILE).read_text())
    assert set(creds["tables"]) == {"north", "south"}
    passwords = [creds["hall"], *creds["tables"].values()]
    assert len(set(passwords)) == 3 and all(len(p) >= 20 for p in passwords)
    url = secured.table_url("north")
    assert url.startswith("nats://north:") and url.endswith(f"@127.0.0.1:{secured.broker.port}"
                                                            if secured.broker else "")
    # the hall's page never shows a password
    client = secured.app.test_client()
    state = client.get("/hall/api/state").get_json()
    assert creds["hall"] not in json.dumps(state) and "***" in state["status"]["url"]


def test_nobody_but_the_table_can_publish_read_or_delete_its_log(
        secured: Hall, loop: LoopThread, tmp_path: Path) -> None:
    import nats
    from nats.js.errors import NotFoundError

    north_url, south_url = secured.table_url("north"), secured.table_url("south")
    anonymous = secured.table_url("north").split("@", 1)[1]
    table = Table(tmp_path, "north", loop, north_url, players=("Ada", "Bo"))
    table.start()
    table.move(1)
    wait_until(lambda: (secured.view.table("north") or {}).get("seq") == 1, 30,
               "north's own move at the hall")
    db = table.outbox.db_id
    subject = f"{STREAM}.north.{db}"

    # an anonymous client and a wrong password are refused at the door
    for url in (f"nats://{anonymous}", f"nats://north:wrong@{anonymous}"):
        with pytest.raises(Exception) as refused:
            Attacker(loop, url).connect()
        assert "authoriz" in str(refused.value).lower() or isinstance(
            refused.value, nats.errors.NoServersError)

    south = Attacker(loop, south_url, "_INBOX_south").connect()
    received: list[bytes] = []
    try:
        async def attack() -> dict[str, bool]:
            nc = south.nc
            js = nc.jetstream(timeout=1.0)
            done: dict[str, bool] = {}

            async def got(msg: Any) -> None:
                received.append(msg.data)

            # subscribe to north's subjects, everything, and other clients' reply inboxes
            for pattern in (f"{STREAM}.north.>", ">", "_INBOX.>", "_INBOX_HALL.>",
                            "_INBOX_north.>", "$JS.>"):
                await nc.subscribe(pattern, cb=got)
            async def attempt(name: str, call: Any) -> None:
                try:
                    await call()
                    done[name] = True
                except NotFoundError:
                    done[name] = True  # answered: the request went through
                except Exception:
                    done[name] = False

            # publish a finished game on north's subject (its body is north's own);
            # read north's log by sequence, by subject, through a consumer; delete and purge
            attempts: list[tuple[str, Any]] = [
                (f"publish {type_}", lambda d=data, t=type_: js.publish(
                    subject, d, stream=STREAM, headers={MSG_ID_HEADER: f"x.{t}"}))
                for type_, data in forged("north", db, 90)]
            attempts += [
                ("msg get", lambda: js.get_msg(STREAM, 1)),
                ("last of north", lambda: js.get_last_msg(STREAM, subject)),
                ("direct last of north", lambda: js.get_last_msg(STREAM, subject, direct=True)),
                ("consumer", lambda: js.pull_subscribe(f"{STREAM}.north.>", "spy",
                                                       stream=STREAM)),
                ("delete stream", lambda: js.delete_stream(STREAM)),
                ("purge stream", lambda: js.purge_stream(STREAM)),
                ("delete message", lambda: js.delete_msg(STREAM, 1)),
                ("new stream", lambda: js.add_stream(name="spy", subjects=["spy.>"]))]
            await asyncio.gather(*(attempt(n, c) for n, c in attempts))
            await nc.publish(subject, b"plain")  # core NATS, no ack asked
            await nc.flush(2)
            return done

        done = south.run(attack())
        assert not any(done.values()), {k: v for k, v in done.items() if v}
        table.move(2)  # north goes on; south hears nothing of it
        wait_until(lambda: (secured.view.table("north") or {}).get("seq") == 2, 30,
                   "north's second move")
        south.run(south.nc.flush(2))
        assert received == []
        assert south.violations() >= 6, south.errors  # the broker said so, each time
    finally:
        south.close()

    # the stream is whole and holds only what north sent
    hall_nc = Attacker(loop, secured.nats_url or "", "_INBOX_HALL").connect()
    try:
        async def check() -> list[str]:
            js = hall_nc.nc.jetstream(timeout=5.0)
            info = await js.stream_info(STREAM)
            subjects = []
            for seq in range(1, int(info.state.last_seq) + 1):
                subjects.append((await js.get_msg(STREAM, seq)).subject)
            return subjects

        assert set(hall_nc.run(check())) == {subject}
    finally:
        hall_nc.close()
    assert results(secured) == []
    assert secured.view.counts()["refused"] == 0
    table.close()


def test_forged_replayed_and_other_table_messages_are_refused_and_shown(
        secured: Hall, loop: LoopThread, tmp_path: Path) -> None:
    """What the broker must let through (a table publishing on its own subjects) the hall
    checks: the subject says who sent it. 0 forged results counted; the judges see each."""
    north = Table(tmp_path, "north", loop, secured.table_url("north"), players=("Ada", "Bo"))
    north.start()
    north.move(1)
    wait_until(lambda: (secured.view.table("north") or {}).get("seq") == 1, 30, "north")
    south = Attacker(loop, secured.table_url("south"), "_INBOX_south").connect()
    own = f"{STREAM}.south.fake0db"
    try:
        async def send() -> None:
            js = south.nc.jetstream(timeout=5.0)
            # 1. forged: south's subject, a body claiming to be north's game (north's match)
            for type_, data in forged("north", "fake0db", 1):
                await js.publish(own, data, stream=STREAM, headers={MSG_ID_HEADER: f"f{type_}"})
            # 2. another table's recording: north's db id, sent from south
            other = f"{STREAM}.south.{north.outbox.db_id}"
            for type_, data in forged("south", north.outbox.db_id, 7):
                await js.publish(other, data, stream=STREAM, headers={MSG_ID_HEADER: f"o{type_}"})
            # 3. replayed: south's own honest game, then its finish again under a new id
            honest = forged("south", "south0db", 1, finish_winner="p2")
            for type_, data in honest:
                await js.publish(f"{STREAM}.south.south0db", data, stream=STREAM,
                                 headers={MSG_ID_HEADER: f"h{type_}"})
            await js.publish(f"{STREAM}.south.south0db", honest[-1][1], stream=STREAM,
                             headers={MSG_ID_HEADER: "again"})
            # 4. not a table message at all
            await js.publish(own, b"\x00garbage", stream=STREAM)

        south.run(send())
    finally:
        south.close()
    client = secured.app.test_client()
    wait_until(lambda: client.get("/hall/api/state").get_json()["counts"]["refused"] >= 8, 30,
               "the refusals on the hall's state")
    state = client.get("/hall/api/state").get_json()
    counts = state["refused"]["counts"]
    assert counts == {"forged": 3, "other-table": 3, "replayed": 1, "unreadable": 1}, counts
    forged_entry = next(e for e in state["refused"]["recent"] if e["reason"] == "forged")
    assert forged_entry["sender"] == "south" and forged_entry["claimed"] == "north"
    rows = {r["table"]: r for r in state["tables"]}
    assert rows["north"]["seq"] == 1 and rows["north"]["outcome"] is None
    assert secured.archive is not None and secured.archive.wait_idle(10)
    assert results(secured) == []  # 0 forged results counted (south's own game: no match)
    with Store(secured.db) as library:
        titles = sorted(g.title for g in library.games())
    assert titles == ["north: match at north", "south: fake"]
    # the hall page shows the list to the judges
    page = client.get("/hall/").get_data(as_text=True)
    assert 'id="hall-refused"' in page
    north.close()


def test_the_hall_page_refuses_writes_without_the_pin(
        secured: Hall, loop: LoopThread, tmp_path: Path) -> None:
    north = Table(tmp_path, "north", loop, secured.table_url("north"), players=("Ada", "Bo"))
    north.start()
    north.move(1)
    assert secured.archive is not None
    wait_until(lambda: secured.archive is not None
               and secured.archive.local_game(north.outbox.db_id, north.game) is not None,
               30, "north's game in the hall's library")
    game = secured.archive.local_game(north.outbox.db_id, north.game)
    client = secured.app.test_client()
    client.environ_base.update(LAN)
    writes = [(f"/api/games/{game}/title", {"title": "renamed"}),
              (f"/api/games/{game}/notes", {"text": "a judge's note"}),
              (f"/api/games/{game}/status", {"status": "finished", "winner": "p2"})]
    for path, body in writes:
        assert client.post(path, json=body).status_code == 403, path
    path, body = writes[0]  # one wrong guess (three in a row would make the next ones wait)
    assert client.post(path, json={**body, "pin": "000000"}).status_code == 403
    secured.archive.wait_idle(10)
    with Store(secured.db) as library:
        header = library.game(game)
        assert header.title == "north: match at north" and header.outcome is None
        assert not [e for e in library.events(game) if e.kind == "note"]
    for path, body in writes:
        answer = client.post(path, json=body, headers={"X-Companion-PIN": PIN})
        assert answer.status_code == 200, (path, answer.get_data(as_text=True))
    with Store(secured.db) as library:
        assert library.game(game).title == "renamed"
    north.close()


def _open_stream(port: int, source: str) -> tuple[socket.socket, int]:
    """A raw GET of the hall's live stream from loopback address `source`: (socket, status)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                    source_address=(source, 0))
    sock.sendall(b"GET /hall/api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(256)
        if not chunk:
            break
        head += chunk
    return sock, int(head.split(b" ", 2)[1])


def test_the_hall_streams_are_capped_per_client_address(secured: Hall) -> None:
    """300 live streams asked from one address: a few are served, the rest get a clear 429
    at once, and the page and the state still answer within a second for another client."""
    from companion.hall.web import STREAMS_PER_CLIENT

    port = secured.port
    socks: list[socket.socket] = []
    statuses: list[int] = []
    started = time.monotonic()
    try:
        for _ in range(300):
            sock, status = _open_stream(port, "127.0.0.1")
            statuses.append(status)
            if status == 200:
                socks.append(sock)
            else:
                sock.close()
        asked_s = time.monotonic() - started
        assert statuses.count(200) == STREAMS_PER_CLIENT
        assert statuses.count(429) == 300 - STREAMS_PER_CLIENT
        assert asked_s < 30  # each refusal is immediate
        for path in ("/hall/api/state", "/hall/"):
            t0 = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5,
                                              source_address=("127.0.0.2", 0))
            conn.request("GET", path)
            answer = conn.getresponse()
            answer.read()
            conn.close()
            assert answer.status == 200 and time.monotonic() - t0 < 1.0, path
        other, status = _open_stream(port, "127.0.0.2")  # another device's page goes live
        assert status == 200
        other.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/hall/api/stream")
        refused = conn.getresponse()
        assert refused.status == 429 and refused.getheader("Retry-After")
        assert "too many live hall pages" in json.loads(refused.read())["error"]
        conn.close()
        socks.pop().close()  # a closed page gives its slot back (once the server notices)
        wait_until(lambda: secured.state.streams.held("127.0.0.1") < STREAMS_PER_CLIENT, 10,
                   "the slot back")
        again, status = _open_stream(port, "127.0.0.1")
        assert status == 200
        again.close()
    finally:
        for sock in socks:
            sock.close()


def test_companion_hall_prints_each_tables_address(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from companion.cli import cli

    out = CliRunner().invoke(cli, ["hall", "--db", str(tmp_path / "h.db"), "--port", "0",
                                   "--nats-port", "0", "--tables", "north,south",
                                   "--duration", "0.2"])
    assert out.exit_code == 0, out.output
    creds = json.loads((tmp_path / "nats" / CREDENTIALS_FILE).read_text())
    for table in ("north", "south"):
        assert f"{table}: companion serve ... --hall nats://{table}:" \
               f"{creds['tables'][table]}@127.0.0.1:" in out.output
    assert "▀" in out.output or "█" in out.output  # the QR codes
    assert creds["hall"] not in out.output
    assert "tables on other machines cannot reach it" in out.output
    # the tournament's table commands carry each table's own address too
    db = tmp_path / "h.db"
    with TournamentBook(db) as book:
        tid = book.create(Settings(players=("Ada", "Bo"), seed=3, tables=("north",)), "Cup")
        deck_phase(book, tid, ("Ada", "Bo"), end=False)  # `play` ends it
    out = CliRunner().invoke(cli, ["tournament", "play", "--hall", "nats://192.168.1.20:4222",
                                   "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert f"--hall nats://north:{creds['tables']['north']}@192.168.1.20:4222 --table north" \
        in out.output


def test_a_hall_with_tls_takes_only_tls_clients_that_trust_it(
        loop: LoopThread, tmp_path: Path) -> None:
    """`--tls-cert/--tls-key`: the broker speaks TLS only; a table given the hall's certificate
    (`serve --hall-cert`) publishes, a client without it or without TLS gets nowhere."""
    import shutil
    import subprocess

    from companion.hall.credentials import tls_context

    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl makes the test certificate")
    cert, key = tmp_path / "hall.pem", tmp_path / "hall.key"
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:P-256", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=hall", "-addext",
                    "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True, timeout=30)
    hall = Hall(tmp_path / "hall.db", None, nats_dir=tmp_path / "nats", nats_port=0,
                tables=("north",), tls_cert=cert, tls_key=key).start("127.0.0.1", 0)
    north = None
    try:
        assert hall.wait_ready()
        url = hall.table_url("north")
        assert url.startswith("tls://north:")
        north = Table(tmp_path, "north", loop, url)
        publisher = north.start(tls=tls_context(cert))  # what `serve --hall-cert` gives
        north.move(1)
        wait_until(lambda: (hall.view.table("north") or {}).get("seq") == 1, 30,
                   f"north's move over TLS ({publisher.stats.last_error})")
        plain = url.replace("tls://", "nats://", 1)
        for attempt in (plain, url):  # no TLS; TLS without trusting the hall's certificate
            with pytest.raises(Exception):  # noqa: B017 - refused, whatever nats-py calls it
                Attacker(loop, attempt, "_INBOX_north").connect()
    finally:
        if north is not None:
            north.close()
        hall.close()


def test_a_laptop_moved_to_another_table_is_not_taken_for_a_forger(
        secured: Hall, loop: LoopThread, tmp_path: Path) -> None:
    """One library, first published as north, then (a new game) as south: each table's
    messages come under a recording id of its own, so the hall refuses nothing."""
    north = Table(tmp_path, "north", loop, secured.table_url("north"))
    north.start()
    north.move(1)
    wait_until(lambda: (secured.view.table("north") or {}).get("seq") == 1, 30, "north")
    north.stop()
    second = north.store.start_game(GameHeader(game="challengers", players=("Cy", "Di"),
                                               title="moved"))
    north.outbox.register(second, "south", "")
    moved = TablePublisher(north.outbox, "south", secured.table_url("south"), poll_s=0.1)
    assert moved.db != north.outbox.db_id

    async def make() -> asyncio.Event:
        return asyncio.Event()

    stop = loop.run(make())
    task = loop.submit(moved.run(stop))
    try:
        north.store.append(second, "move", "camera", {"text_en": "m", "legal": True,
                                                      "state": {"turn": 1}})
        wait_until(lambda: (secured.view.table("south") or {}).get("seq") == 1, 30, "south")
        assert secured.view.counts()["refused"] == 0
    finally:
        loop.call(stop.set)
        task.result(15)
        north.close()


def test_stream_slots_cap_each_address_and_the_whole_hall() -> None:
    from companion.server.streams import StreamSlots

    slots = StreamSlots(per_client=2, total=3)
    a1, a2 = slots.take("a"), slots.take("a")
    assert callable(a1) and callable(a2) and slots.take("a") == "client"
    b1 = slots.take("b")
    assert callable(b1) and slots.take("c") == "server"  # the hall's total
    a1()
    a1()  # released twice: counted once
    assert slots.held("a") == 1
    assert callable(slots.take("c")) and slots.take("a") == "server"  # full again


def test_the_hall_turns_direct_gets_on_in_an_older_stream(
        nats_server: Any, loop: LoopThread) -> None:
    """A stream made before (no direct gets): the hall allows them, tables then read their
    last message the only way their credentials allow."""
    import nats
    from nats.js.api import StreamConfig

    from companion.hall.publisher import ensure_stream

    async def go() -> tuple[bool, bool]:
        nc = await nats.connect(nats_server.url)
        try:
            js = nc.jetstream(timeout=5.0)
            await js.add_stream(StreamConfig(name="old", subjects=["old.>"]))
            before = (await ensure_stream(js, "old")).config.allow_direct
            after = (await ensure_stream(js, "old", update=True)).config.allow_direct
            return bool(before), bool(after)
        finally:
            await nc.close()

    assert loop.run(go(), 30) == (False, True)
