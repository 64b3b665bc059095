"""HTTPS for the LAN: a certificate the companion makes itself, kept and reused.

Browsers give a page the camera only on a secure origin (HTTPS, or localhost), so a phone
that wants to be the table's camera must open the companion over HTTPS. No authority can
vouch for a laptop's address in a living room, so the companion signs its own certificate
(for its LAN addresses, "localhost" and the machine's name) and keeps it in the user's
companion folder (`<COMPANION_HOME>/tls/`): the phone's browser asks once whether to trust
it, and it stays the same certificate next time. The terminal prints its SHA-256
fingerprint; the browser's certificate viewer shows the same figures.

A certificate is made again only when it is missing, unreadable, about to expire, or does not
name an address the companion now listens on (a laptop that moved to another network).
Made with the `cryptography` package (a wheel on every platform; the `openssl` command is
missing on Windows and differs between versions).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError

VALID_DAYS = 397
"""Apple's devices refuse server certificates valid for longer than 398 days."""
RENEW_BEFORE_DAYS = 30
CERT_NAME = "companion-cert.pem"
KEY_NAME = "companion-key.pem"


@dataclass(frozen=True)
class Certificate:
    cert_path: Path
    key_path: Path
    fingerprint: str  # SHA-256 of the DER certificate, "AB:CD:..."
    names: tuple[str, ...]  # the addresses and names it is valid for
    made: bool  # made just now (False: an existing one reused)

    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            context.load_cert_chain(str(self.cert_path), str(self.key_path))
        except (OSError, ssl.SSLError) as exc:
            raise CompanionError(f"cannot use the certificate {self.cert_path}: {exc}") from None
        return context


def tls_dir() -> Path:
    from companion.paths import companion_home

    return companion_home() / "tls"


def default_names(lan: str | None, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """What the certificate names: this machine's LAN address `lan`, loopback, its host
    name, and `extra` (the address it listens on)."""
    names = ["localhost", "127.0.0.1", "::1"]
    if lan:
        names.append(lan)
    host = socket.gethostname().strip().lower()
    if host and host != "localhost":
        names += [host, f"{host}.local"]
    for name in extra:
        if name and name not in ("0.0.0.0", "::") and name not in names:
            names.append(name)
    return tuple(dict.fromkeys(names))


def fingerprint_of(der: bytes) -> str:
    import hashlib

    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def _load(cert_path: Path, key_path: Path) -> tuple[object, tuple[str, ...]] | None:
    """The certificate and its names, or None when it is missing or unreadable."""
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        load_pem_private_key(key_path.read_bytes(), password=None)
        alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, TypeError, x509.ExtensionNotFound):
        return None
    names = [str(v) for v in alt.get_values_for_type(x509.DNSName)]
    names += [str(v) for v in alt.get_values_for_type(x509.IPAddress)]
    return cert, tuple(names)


def ensure_certificate(names: tuple[str, ...] | None = None, folder: Path | None = None,
                       now: dt.datetime | None = None) -> Certificate:
    """The companion's certificate in `folder` (default `tls_dir()`), made when needed."""
    from cryptography.hazmat.primitives.serialization import Encoding

    folder = folder or tls_dir()
    wanted = tuple(names) if names is not None else default_names(None)
    now = now or dt.datetime.now(dt.UTC)
    cert_path, key_path = folder / CERT_NAME, folder / KEY_NAME
    found = _load(cert_path, key_path)
    if found is not None:
        cert, have = found
        expires = cert.not_valid_after_utc  # type: ignore[attr-defined]
        wanted_norm = {_norm(n) for n in wanted}
        if wanted_norm <= {_norm(n) for n in have} and \
                expires - now > dt.timedelta(days=RENEW_BEFORE_DAYS):
            der = cert.public_bytes(Encoding.DER)  # type: ignore[attr-defined]
            return Certificate(cert_path, key_path, fingerprint_of(der), have, made=False)
        wanted = tuple(dict.fromkeys((*have, *wanted)))  # keep the old names valid too
    der = _make(cert_path, key_path, wanted, now)
    return Certificate(cert_path, key_path, fingerprint_of(der), wanted, made=True)


def _norm(name: str) -> str:
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name.lower()


def _make(cert_path: Path, key_path: Path, names: tuple[str, ...], now: dt.datetime) -> bytes:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    alt: list[x509.GeneralName] = []
    for name in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Table companion"),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME,
                                            "Table companion (made on this computer)")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_encipherment=False,
                                     content_commitment=False, data_encipherment=False,
                                     key_agreement=False, key_cert_sign=False, crl_sign=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    try:
        cert_path.parent.mkdir(parents=True, exist_ok=True)
        key_bytes = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key_bytes)
        os.chmod(key_path, 0o600)
        cert_path.write_bytes(cert.public_bytes(Encoding.PEM))
    except OSError as exc:
        raise CompanionError(f"cannot write the certificate into {cert_path.parent}: "
                             f"{exc.strerror or exc}") from None
    return cert.public_bytes(Encoding.DER)


def how_to_accept(url: str, cert: Certificate) -> str:
    """What the terminal says about the phone's page: the address, and how to trust it."""
    made = "made just now" if cert.made else "the same as last time"
    return (
        f"  a phone as the camera: open {url} on the phone (scan the QR code below)\n"
        f"  the browser warns that the connection is not private: this companion signed its\n"
        f"  own certificate ({made}, kept in {cert.cert_path.parent}). Check that the\n"
        f"  certificate's SHA-256 fingerprint is\n"
        f"    {cert.fingerprint}\n"
        f"  then tap \"Advanced\" / \"Show details\" and \"Proceed\" / \"visit this website\".\n"
    )
