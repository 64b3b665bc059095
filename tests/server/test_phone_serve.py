"""`companion serve --phone` as a user runs it: the terminal gives the phone's HTTPS address,
a QR code and the certificate's fingerprint; the table waits for the phone; a frame sent to
that address reaches the table; a second start reuses the certificate."""

from __future__ import annotations

import json
import os
import re
import signal
import ssl
import subprocess
import sys
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.server.tls import CERT_NAME, fingerprint_of

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]


def start(home: Path, *args: str) -> tuple[subprocess.Popen[str], list[str]]:
    """The command in its own process; its terminal lines up to the phone's instructions."""
    env = {**os.environ, "COMPANION_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from companion.cli import main; main()", "serve", "--phone",
         "--game", "trick-or-beat", "--host", "127.0.0.1", "--port", "0", "--no-browser",
         "--db", str(home / "games.db"), *args],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:  # ends when the process does: then the assert below says why
        lines.append(line.rstrip("\n"))
        if "recording to" in line:
            break
    assert any("recording to" in x for x in lines), "\n".join(lines)
    return proc, lines


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def test_serve_phone_prints_how_to_join_and_takes_the_phones_frames(tmp_path: Path) -> None:
    proc, lines = start(tmp_path)
    try:
        text = "\n".join(lines)
        url = re.search(r"open (https://127\.0\.0\.1:\d+/camera/phone)", text)
        assert url, text
        cert_path = tmp_path / "tls" / CERT_NAME
        der = ssl.PEM_cert_to_DER_cert(cert_path.read_text())
        assert fingerprint_of(der) in text and "SHA-256" in text
        assert "▀" in text or "█" in text  # the QR code
        assert "waits for the phone" in text
        trusted = ssl.create_default_context(cafile=str(cert_path))
        _ok, buf = cv2.imencode(".jpg", np.full((480, 640, 3), 128, dtype=np.uint8))
        request = urllib.request.Request(url.group(1) + "/frame", data=bytes(buf),
                                         headers={"Content-Type": "image/jpeg"})
        with urllib.request.urlopen(request, context=trusted, timeout=30) as res:
            assert json.loads(res.read())["received"] == 1
        plain = re.search(r"Table companion: (http://127\.0\.0\.1:\d+/)", text)
        assert plain, text
        with urllib.request.urlopen(plain.group(1), timeout=30) as res:  # the table's page
            assert "phone-offer" in res.read().decode()
    finally:
        stop(proc)
    again, lines = start(tmp_path)
    stop(again)
    assert "the same as last time" in "\n".join(lines)
    assert fingerprint_of(der) in "\n".join(lines)
