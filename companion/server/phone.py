"""A phone's browser as the table's camera: its page, and the route its frames arrive on.

- GET /camera/phone: the page the phone opens (over HTTPS, see companion.server.tls). It opens
  the rear camera and sends JPEG frames: a few a second while the picture is still, more while
  something moves.
- POST /camera/phone/frame: one frame, the body a JPEG (`Content-Type: image/jpeg`, at most
  `MAX_FRAME_BYTES`), behind the same PIN as every action from another device. The answer says
  what the table sees (camera status, mat found, markers), so the phone's page can help
  placing the phone. Anything but a usable JPEG is a 400 with a plain reason; frames from a
  second device while the first still sends are a 409 (one camera at a time).
- GET /camera/phone/status: the push source's counters (frames received, read, dropped).
- GET /camera/phone/qr.svg: a QR code of the phone page's address, for the table's page.

The frames go into `config["PHONE_SOURCE"]`, a `companion.vision.push_source.PushSource` that
`companion serve --phone` gives the vision pipeline as its frame source; the page's address
for other devices is `config["PHONE_URL"]`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from companion.server.security import pin_required
from companion.vision.push_source import FrameRejected, PushSource, SourceBusy

bp = Blueprint("phone", __name__)

MAX_FRAME_BYTES = 4 * 1024 * 1024
"""A 1080p JPEG at quality 0.85 is 150-600 kB; 4 MB leaves room for a noisy 4K picture."""


def _source() -> PushSource | None:
    source = current_app.config.get("PHONE_SOURCE")
    return source if isinstance(source, PushSource) else None


def _error(status: int, message: str, german: str) -> Any:
    return jsonify(error=message, error_de=german), status


@bp.get("/camera/phone")
def page() -> Any:
    return render_template("phone_camera.html", pin_required=pin_required(current_app),
                           ready=_source() is not None)


@bp.post("/camera/phone/frame")
def frame() -> Any:
    source = _source()
    if source is None:
        return _error(409, "this table was not started for a phone's camera "
                           "(start it with `companion serve --phone`)",
                      "dieser Tisch wurde nicht für eine Handykamera gestartet "
                      "(mit `companion serve --phone` starten)")
    if request.mimetype != "image/jpeg":
        return _error(415, f"a frame must be sent as image/jpeg, not "
                           f"{request.mimetype or 'without a type'}",
                      "ein Bild muss als image/jpeg gesendet werden")
    length = request.content_length
    if length is not None and length > MAX_FRAME_BYTES:
        return _error(413, f"a frame of {length} bytes is too large (at most "
                           f"{MAX_FRAME_BYTES} bytes: send a smaller picture)",
                      f"ein Bild mit {length} Bytes ist zu groß (höchstens {MAX_FRAME_BYTES})")
    request.max_content_length = MAX_FRAME_BYTES
    data = request.get_data(cache=False)
    if not data:
        return _error(400, "an empty frame (the body must be a JPEG picture)",
                      "ein leeres Bild (der Inhalt muss ein JPEG sein)")
    if length is not None and len(data) != length:
        return _error(400, "the frame arrived incomplete", "das Bild kam unvollständig an")
    try:
        image = source.push_jpeg(data, sender=request.remote_addr or "?")
    except FrameRejected as exc:
        return _error(400, str(exc), exc.message_de or f"unbrauchbares Bild: {exc}")
    except SourceBusy as exc:
        return _error(409, str(exc), exc.message_de or str(exc))
    stats = source.stats()
    answer: dict[str, Any] = {"ok": True, "received": stats.received, "dropped": stats.dropped,
                              "width": int(image.shape[1]), "height": int(image.shape[0])}
    session = current_app.config.get("SESSION")
    health = getattr(session, "health", None)
    if health is not None:
        answer.update(camera=str(getattr(health, "status", "")),
                      mat=bool(getattr(health, "calibrated", False)),
                      markers=int(getattr(health, "markers", 0) or 0))
    return jsonify(answer)


@bp.get("/camera/phone/status")
def status() -> Any:
    source = _source()
    if source is None:
        return jsonify(ready=False)
    stats = source.stats()
    return jsonify(ready=True, received=stats.received, read=stats.read, dropped=stats.dropped,
                   state=stats.state, last_frame_age_s=stats.last_frame_age_s,
                   width=stats.width, height=stats.height)


@bp.get("/camera/phone/qr.svg")
def qr() -> Any:
    import io

    import segno

    url = str(current_app.config.get("PHONE_URL") or request.host_url + "camera/phone")
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="svg", scale=4, border=2)
    return Response(out.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
