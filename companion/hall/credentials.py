"""The event's NATS credentials: one user per table, one for the hall, in one NATS account.

Nothing here is home-made security: nats-server checks every connection's user and password
and every publish and subscribe against the user's permissions. The hall only writes the
server's configuration:

- an account (`EVENT`) with JetStream, holding every user; no anonymous user (a client without
  a user and password is refused at CONNECT);
- the hall's user may do everything in that account;
- a table's user may publish only to its own subjects (`<stream>.<table>.*`), ask the stream's
  config (`$JS.API.STREAM.INFO.<stream>`) and the last message of its own subjects (a direct
  get whose subject names the table's subject: `$JS.API.DIRECT.GET.<stream>.<stream>.<table>.*`),
  and subscribe only to its own reply inbox (`_INBOX_<table>.>`). Everything else is refused by
  the server: other tables' subjects, reading the stream (consumers, message gets by number),
  deleting or purging it, subscribing to anybody else's replies (the hall's consumer delivers
  to the hall's own inbox prefix).

Passwords come from `secrets` (128 bits each), are kept in the store dir's `credentials.json`
(mode 0600, reused when the hall starts again, so tables keep their `--hall` addresses) and in
the generated `nats-server.conf` (0600). Passwords travel in the clear unless TLS is on: keep
the broker on the event's own network or give the hall a certificate.
"""

from __future__ import annotations

import json
import os
import secrets
import ssl
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from companion.errors import CompanionError
from companion.hall.wire import DEFAULT_STREAM, check_name

ACCOUNT = "EVENT"
HALL_USER = "hall"
HALL_INBOX = "_INBOX_HALL"
CREDENTIALS_FILE = "credentials.json"
CONFIG_FILE = "nats-server.conf"


def table_inbox(table: str) -> str:
    """The reply-inbox prefix a table's connection uses (its user may subscribe only there)."""
    return f"_INBOX_{check_name('table', table)}"


def new_password() -> str:
    return secrets.token_urlsafe(16)


def _write_private(path: Path, text: str) -> None:
    """Write `text` to `path` readable by this user only (0600 from the first byte)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, text.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _quote(value: str) -> str:
    return json.dumps(value)  # NATS config strings accept JSON's double-quoted form


def table_permissions(stream: str, table: str) -> dict[str, dict[str, list[str]]]:
    own = f"{stream}.{table}.*"
    return {
        "publish": {"allow": [own, f"$JS.API.STREAM.INFO.{stream}",
                              f"$JS.API.DIRECT.GET.{stream}.{own}"]},
        "subscribe": {"allow": [f"{table_inbox(table)}.>"]},
    }


def with_credentials(url: str, user: str, password: str) -> str:
    """`url` (one server) with user and password in it."""
    parts = urlsplit(url)
    netloc = f"{user}:{password}@{parts.hostname}"
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def without_password(url: str) -> str:
    """A NATS address fit to show (logs, pages): any password replaced by `***`."""
    shown = []
    for part in url.split(","):
        parts = urlsplit(part.strip())
        if parts.password is None:
            shown.append(part.strip())
            continue
        netloc = f"{parts.username}:***@{parts.hostname}"
        if parts.port:
            netloc += f":{parts.port}"
        shown.append(urlunsplit((parts.scheme, netloc, parts.path, "", "")))
    return ",".join(shown)


def tls_context(trust: Path | None, check_hostname: bool = True) -> ssl.SSLContext:
    """A TLS client context trusting the system's CAs plus `trust` (a CA or the hall's own
    certificate: trusted as it is, even when it is not a root)."""
    context = ssl.create_default_context()
    if trust is not None:
        context.load_verify_locations(cafile=str(trust))
        context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN
    context.check_hostname = check_hostname
    return context


def user_of(url: str) -> str | None:
    """The user name in a NATS address (the first server's), if any."""
    return urlsplit(url.split(",")[0].strip()).username


@dataclass
class EventCredentials:
    """Users and passwords of one event's broker, kept in `folder`."""

    folder: Path
    stream: str = DEFAULT_STREAM
    hall: str = ""
    tables: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: Path, stream: str = DEFAULT_STREAM,
             tables: tuple[str, ...] = ()) -> EventCredentials:
        """The event's credentials from `folder` (created on first use); tables not known yet
        get a new password, known ones keep theirs."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)  # the broker's data and these files: the hall's user only
        path = folder / CREDENTIALS_FILE
        creds = cls(folder, check_name("stream", stream))
        if path.exists():
            try:
                data = json.loads(path.read_text())
                creds.hall = str(data["hall"])
                creds.tables = {check_name("table", str(k)): str(v)
                                for k, v in dict(data["tables"]).items()}
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise CompanionError(f"{path}: unreadable credentials ({exc}); move it away "
                                     "to make new ones (every table then needs its new "
                                     "--hall address)") from None
        changed = not creds.hall
        creds.hall = creds.hall or new_password()
        for table in tables:
            if check_name("table", table) not in creds.tables:
                creds.tables[table] = new_password()
                changed = True
        if changed or not path.exists():
            creds.save()
        return creds

    def save(self) -> None:
        data = {"hall": self.hall, "tables": dict(sorted(self.tables.items()))}
        _write_private(self.folder / CREDENTIALS_FILE, json.dumps(data, indent=2) + "\n")

    def table_url(self, table: str, address: str) -> str:
        """What table `table` passes with `--hall`: `nats://table:PASSWORD@HOST:PORT`."""
        return with_credentials(address, table, self.tables[table])

    def hall_url(self, address: str) -> str:
        return with_credentials(address, HALL_USER, self.hall)

    def config_text(self, tls_cert: Path | None = None, tls_key: Path | None = None) -> str:
        users = [f"      {{user: {_quote(HALL_USER)}, password: {_quote(self.hall)}, "
                 'permissions: {publish: ">", subscribe: ">"}}']
        for table, password in sorted(self.tables.items()):
            perms = table_permissions(self.stream, table)
            pub = ", ".join(_quote(s) for s in perms["publish"]["allow"])
            sub = ", ".join(_quote(s) for s in perms["subscribe"]["allow"])
            users.append(f"      {{user: {_quote(table)}, password: {_quote(password)}, "
                         f"permissions: {{publish: {{allow: [{pub}]}}, "
                         f"subscribe: {{allow: [{sub}]}}}}}}")
        lines = ["# written by `companion hall`; regenerated at every start", "accounts {",
                 f"  {ACCOUNT} {{", "    jetstream: enabled", "    users: [",
                 ",\n".join(users), "    ]", "  }", "}"]
        if tls_cert is not None and tls_key is not None:
            lines += ["tls {", f"  cert_file: {_quote(str(Path(tls_cert).resolve()))}",
                      f"  key_file: {_quote(str(Path(tls_key).resolve()))}", "}"]
        return "\n".join(lines) + "\n"

    def write_config(self, tls_cert: Path | None = None, tls_key: Path | None = None) -> Path:
        path = self.folder / CONFIG_FILE
        _write_private(path, self.config_text(tls_cert, tls_key))
        return path
