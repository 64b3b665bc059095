"""A phone's browser as the camera: the frame route (PIN, sizes, bad input), the table page's
offer, the self-made certificate (made once, reused, its fingerprint printed) and the HTTPS
server it runs."""

from __future__ import annotations

import datetime as dt
import json
import ssl
import urllib.error
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask

from companion.server.live_setup import serve_in_thread
from companion.server.phone import MAX_FRAME_BYTES
from companion.server.session import LiveSession
from companion.server.tls import ensure_certificate, fingerprint_of, how_to_accept
from companion.vision.push_source import PushSource
from tests.server.conftest import LAN, make_app

PIN = "424242"


def jpeg(w: int = 320, h: int = 240, value: int = 120) -> bytes:
    ok, buf = cv2.imencode(".jpg", np.full((h, w, 3), value, dtype=np.uint8))
    assert ok
    return bytes(buf)


def phone_app(session: LiveSession, pin: str | None = None) -> tuple[Flask, PushSource]:
    app = make_app(session, pin=pin)
    source = PushSource(wait_s=0.01)
    app.config["PHONE_SOURCE"] = source
    return app, source


def post_frame(client: object, data: bytes, **headers: str) -> object:
    headers.setdefault("Content-Type", "image/jpeg")
    return client.post("/camera/phone/frame", data=data, headers=headers)  # type: ignore[attr-defined]


def test_a_frame_reaches_the_source_and_the_answer_says_what_the_table_sees(
        session: LiveSession) -> None:
    app, source = phone_app(session)
    client = app.test_client()
    res = post_frame(client, jpeg(320, 240))
    assert res.status_code == 200, res.get_json()
    body = res.get_json()
    assert body["ok"] and body["received"] == 1 and (body["width"], body["height"]) == (320, 240)
    assert set(body) >= {"camera", "mat", "markers"}
    frame = source.read()
    assert frame is not None and frame.image.shape == (240, 320, 3)
    status = client.get("/camera/phone/status").get_json()
    assert status["ready"] and status["received"] == 1 and status["read"] == 1


def test_frames_from_another_device_need_the_pin(session: LiveSession) -> None:
    app, source = phone_app(session, pin=PIN)
    client = app.test_client()
    client.environ_base.update(LAN)
    page = client.get("/camera/phone")
    assert page.status_code == 200 and b'data-pin-required="yes"' in page.data
    refused = post_frame(client, jpeg())
    assert refused.status_code == 403 and "PIN" in refused.get_json()["error"]
    assert post_frame(client, jpeg(), **{"X-Companion-PIN": "111111"}).status_code == 403
    assert source.stats().received == 0
    assert post_frame(client, jpeg(), **{"X-Companion-PIN": PIN}).status_code == 200
    # the phone's page unlocks once (a cookie), then sends frames without the PIN
    fresh = app.test_client()
    fresh.environ_base.update(LAN)
    assert fresh.post("/unlock", json={"pin": PIN}).status_code == 200
    assert post_frame(fresh, jpeg()).status_code == 200
    assert source.stats().received == 2
    app.config["PHONE_SOURCE"] = PushSource(wait_s=0.01)  # (one camera at a time)
    local = app.test_client()  # this laptop itself: never a PIN
    assert post_frame(local, jpeg()).status_code == 200


@pytest.mark.parametrize("data, headers, status, said", [
    (b"", {}, 400, "empty frame"),
    (b"hello, not a picture", {}, 400, "not a JPEG"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", {}, 400, "broken JPEG"),
    (None, {"Content-Type": "image/png"}, 415, "image/jpeg"),
    (None, {"Content-Type": "application/json"}, 415, "image/jpeg"),
    (b"x" * (MAX_FRAME_BYTES + 1), {}, 413, "too large"),
])
def test_bad_frames_are_refused_with_a_plain_reason(
        session: LiveSession, data: bytes | None, headers: dict[str, str], status: int,
        said: str) -> None:
    app, source = phone_app(session)
    res = post_frame(app.test_client(), jpeg() if data is None else data, **headers)
    assert res.status_code == status
    body = res.get_json()
    assert said in body["error"] and body["error_de"]
    assert source.stats().received == 0


def test_a_frame_larger_than_the_app_limit_but_within_the_frame_limit_is_taken(
        session: LiveSession) -> None:
    """The app's own limit (64 kB for JSON) does not apply to frames."""
    app, source = phone_app(session)
    noisy = np.random.default_rng(3).integers(0, 255, (1080, 1920, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok and 64 * 1024 < len(buf) <= MAX_FRAME_BYTES
    assert post_frame(app.test_client(), bytes(buf)).status_code == 200
    assert source.stats().width == 1920


def test_without_a_phone_source_the_route_says_how_to_start_one(session: LiveSession) -> None:
    client = make_app(session).test_client()
    res = post_frame(client, jpeg())
    assert res.status_code == 409 and "--phone" in res.get_json()["error"]
    page = client.get("/camera/phone")
    assert page.status_code == 200 and b"companion serve --phone" in page.data
    assert b"phone-offer" not in client.get("/").data  # the table page offers no phone


def test_the_table_page_offers_the_phone_page_with_a_qr_code(session: LiveSession) -> None:
    app, _source = phone_app(session)
    app.config["PHONE_URL"] = "https://192.168.1.5:8766/camera/phone"
    client = app.test_client()
    page = client.get("/").data.decode()
    assert 'id="phone-offer"' in page and "https://192.168.1.5:8766/camera/phone" in page
    qr = client.get("/camera/phone/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data


# --- the certificate ------------------------------------------------------------------------

NAMES = ("localhost", "127.0.0.1", "192.168.1.5")


def test_the_certificate_is_made_once_and_reused(tmp_path: Path) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding

    first = ensure_certificate(NAMES, folder=tmp_path)
    assert first.made and first.cert_path.is_file() and first.key_path.is_file()
    assert first.key_path.stat().st_mode & 0o077 == 0  # the key is the user's alone
    cert = x509.load_pem_x509_certificate(first.cert_path.read_bytes())
    assert fingerprint_of(cert.public_bytes(Encoding.DER)) == first.fingerprint
    assert len(first.fingerprint.split(":")) == 32
    alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "192.168.1.5" in {str(ip) for ip in alt.get_values_for_type(x509.IPAddress)}
    assert (cert.not_valid_after_utc - cert.not_valid_before_utc).days <= 398
    again = ensure_certificate(NAMES[:2], folder=tmp_path)
    assert not again.made and again.fingerprint == first.fingerprint
    first.ssl_context()  # loads


def test_a_new_address_or_an_old_certificate_makes_a_new_one(tmp_path: Path) -> None:
    first = ensure_certificate(NAMES, folder=tmp_path)
    moved = ensure_certificate((*NAMES, "10.0.0.9"), folder=tmp_path)
    assert moved.made and moved.fingerprint != first.fingerprint
    assert {"192.168.1.5", "10.0.0.9"} <= set(moved.names)  # the old address still works
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=380)
    renewed = ensure_certificate(NAMES, folder=tmp_path, now=later)
    assert renewed.made and renewed.fingerprint != moved.fingerprint
    first.cert_path.write_text("broken")
    assert ensure_certificate(NAMES, folder=tmp_path).made


def test_the_terminal_says_how_to_accept_it(tmp_path: Path) -> None:
    cert = ensure_certificate(NAMES, folder=tmp_path)
    said = how_to_accept("https://192.168.1.5:8766/camera/phone", cert)
    assert "https://192.168.1.5:8766/camera/phone" in said and cert.fingerprint in said
    assert "SHA-256" in said and "Proceed" in said


def test_the_https_server_serves_the_phone_page_and_takes_frames(
        session: LiveSession, tmp_path: Path) -> None:
    cert = ensure_certificate(NAMES, folder=tmp_path)
    app, source = phone_app(session)
    server, _ = serve_in_thread(app, "127.0.0.1", 0, ssl_context=cert.ssl_context())
    try:
        url = f"https://127.0.0.1:{server.server_port}"
        trusted = ssl.create_default_context(cafile=str(cert.cert_path))
        with urllib.request.urlopen(url + "/camera/phone", context=trusted, timeout=20) as res:
            assert res.status == 200 and b"phone_camera.js" in res.read()
        seen = ssl.get_server_certificate(("127.0.0.1", server.server_port), timeout=20)
        assert fingerprint_of(ssl.PEM_cert_to_DER_cert(seen)) == cert.fingerprint
        request = urllib.request.Request(url + "/camera/phone/frame", data=jpeg(),
                                         headers={"Content-Type": "image/jpeg"})
        with urllib.request.urlopen(request, context=trusted, timeout=20) as res:
            assert json.loads(res.read())["received"] == 1
        # a client that connects and says nothing, and one speaking plain HTTP to the HTTPS
        # port, hold up nobody (the handshake happens in a worker, with a timeout)
        import socket

        silent = socket.create_connection(("127.0.0.1", server.server_port), timeout=20)
        plain = socket.create_connection(("127.0.0.1", server.server_port), timeout=20)
        plain.sendall(b"GET /camera/phone HTTP/1.0\r\n\r\n")
        try:
            with urllib.request.urlopen(url + "/camera/phone/status", context=trusted,
                                        timeout=20) as res:
                assert res.status == 200
            assert b"https://" in plain.recv(4096)  # no page over plain HTTP: a hint
        finally:
            silent.close()
            plain.close()
        # a browser that does not trust it yet breaks the handshake: the server goes on
        with pytest.raises(urllib.error.URLError):
            urllib.request.urlopen(url + "/camera/phone", timeout=20)
        with urllib.request.urlopen(url + "/camera/phone/status", context=trusted,
                                    timeout=20) as res:
            assert json.loads(res.read())["received"] == 1
        assert source.stats().received == 1
    finally:
        server.shutdown()


def test_the_phone_pages_own_origin_over_https_is_accepted_a_foreign_one_not(
        session: LiveSession) -> None:
    app, source = phone_app(session, pin=PIN)
    client = app.test_client()
    client.environ_base.update(LAN)
    here = "https://192.168.1.5:8766"
    ok = client.post("/camera/phone/frame", data=jpeg(), base_url=here,
                     headers={"Content-Type": "image/jpeg", "Origin": here,
                              "X-Companion-PIN": PIN})
    assert ok.status_code == 200, ok.get_json()
    foreign = client.post("/camera/phone/frame", data=jpeg(), base_url=here,
                          headers={"Content-Type": "image/jpeg", "X-Companion-PIN": PIN,
                                   "Origin": "https://evil.example"})
    assert foreign.status_code == 403
    assert source.stats().received == 1


def test_serve_takes_one_camera_and_says_so(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from companion.server.commands import serve

    result = CliRunner().invoke(serve, ["--phone", "--camera", "0", "--game", "trick-or-beat",
                                        "--db", str(tmp_path / "g.db")])
    assert result.exit_code == 2 and "--phone" in result.output
    helped = CliRunner().invoke(serve, ["--help"])
    assert "--phone" in helped.output and "--https" in helped.output


def test_a_second_phone_is_told_that_another_is_the_camera(session: LiveSession) -> None:
    app, source = phone_app(session)
    first, second = app.test_client(), app.test_client()
    first.environ_base.update(LAN)
    second.environ_base["REMOTE_ADDR"] = "192.168.1.21"
    assert post_frame(first, jpeg()).status_code == 200
    busy = post_frame(second, jpeg())
    assert busy.status_code == 409 and "another device" in busy.get_json()["error"]
    assert source.stats().received == 1
