"""The calibration view: the live camera image with overlays, as JPEG and MJPEG."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template

bp = Blueprint("calibration", __name__, url_prefix="/calibration")

MJPEG_BOUNDARY = "frame"
MJPEG_REPEAT_S = 2.0


def _frame() -> bytes | None:
    session = current_app.config["SESSION"]
    if session is None:
        abort(404, description="no camera: this server only shows recorded games")
    return session.latest_frame()


@bp.get("/")
def page() -> Any:
    session = current_app.config["SESSION"]
    if session is None:
        abort(404, description="no camera: this server only shows recorded games")
    return render_template("calibration.html", state=session.state())


@bp.get("/frame.jpg")
def frame() -> Response:
    jpeg = _frame()
    if jpeg is None:
        abort(503, description="no camera image yet")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/stream.mjpg")
def stream() -> Response:
    session = current_app.config["SESSION"]
    if session is None:
        abort(404, description="no camera")
    fps = float(current_app.config.get("MJPEG_FPS", 5.0))

    def frames() -> Iterator[bytes]:
        # every part ends with the next boundary: a browser shows a part only once the
        # boundary after it has arrived, so a still table (or a finished demo) is not black
        yield f"--{MJPEG_BOUNDARY}\r\n".encode()
        last: bytes | None = None
        sent = 0.0
        while not session.bus.closed:
            jpeg = session.latest_frame()
            now = time.monotonic()
            if jpeg is not None and (jpeg is not last or now - sent >= MJPEG_REPEAT_S):
                last, sent = jpeg, now
                yield (
                    f"Content-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n"
                ).encode() + jpeg + f"\r\n--{MJPEG_BOUNDARY}\r\n".encode()
            time.sleep(1.0 / fps)

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}")
