"""A phone's browser as the table's camera, in headless Chromium with a fake camera.

Chromium's fake capture device plays a Y4M file (`--use-file-for-fake-video-capture`); the
file is written here from a simulator frame of the mat (Y4M is a text header and raw I420
frames). The phone page is opened over HTTPS with the companion's own certificate; frames go
through the route into the push source, the same vision pipeline and live session as
`companion serve --phone`, and the pipeline locates the mat. Every wait is a condition.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.server.live_setup import serve_in_thread
from companion.server.tls import ensure_certificate
from companion.vision.push_source import PushSource
from tests.browser.conftest import LAPTOP, PHONE, WAIT_MS, opened, shot
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

FAKE_CAMERA = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]


def write_y4m(path: Path, frames: list[np.ndarray], fps: int = 10) -> Path:
    """BGR frames (even width and height) as a Y4M video of I420 frames."""
    h, w = frames[0].shape[:2]
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for frame in frames:
            out.write(b"FRAME\n")
            out.write(cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())
    return path


def mat_frame() -> tuple[np.ndarray, Any]:
    """The first frame of Trick or Beat's opening on the simulated overhead 1080p webcam."""
    from companion.server.live_setup import demo_script_path
    from companion.sim.script import load_script
    from companion.sim.source import ScriptFrameSource

    script = load_script(demo_script_path("trick-or-beat"))
    frame = ScriptFrameSource(script, fps=10, seed=0).read()
    assert frame is not None
    return np.ascontiguousarray(frame.image), script


@contextmanager
def phone_browser(browser: Any, video: Path) -> Iterator[Any]:
    """A second Chromium whose camera plays `video` (the shared one has no fake camera)."""
    phone = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, *FAKE_CAMERA, f"--use-file-for-fake-video-capture={video}"])
    try:
        yield phone
    finally:
        phone.close()


@contextmanager
def phone_page(phone: Any, url: str) -> Iterator[Any]:
    context = phone.new_context(viewport=PHONE, ignore_https_errors=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def acked(page: Any) -> int:
    return int(page.get_attribute("body", "data-acked") or 0)


def rate(page: Any, frames: int) -> float:
    """Frames a second the server took, over the next `frames` answered frames."""
    start_n, start_t = acked(page), time.monotonic()
    page.wait_for_function("n => Number(document.body.dataset.acked) >= n",
                           arg=start_n + frames)
    return (acked(page) - start_n) / (time.monotonic() - start_t)


def test_a_phone_page_over_https_feeds_the_pipeline_and_the_mat_is_found(
        browser: Any, tmp_path: Path) -> None:
    from companion.layouts import load_layout
    from companion.referee.script import config_from_script
    from companion.server.feeds import FrameFeed
    from companion.server.live_setup import build_live
    from companion.sim.source import script_cardset
    from companion.vision.pipeline import build_pipeline

    image, script = mat_frame()
    video = write_y4m(tmp_path / "mat.y4m", [image, image])
    source = PushSource()
    pipeline = build_pipeline(load_layout(script.game), script.game, script_cardset(script))
    feed = FrameFeed(source, pipeline)
    live = build_live(config_from_script(script), feed, tmp_path / "games.db", "phone",
                      app_config={"PHONE_SOURCE": source})
    cert = ensure_certificate(("localhost", "127.0.0.1"), folder=tmp_path / "tls")
    server, _ = serve_in_thread(live.app, "127.0.0.1", 0, ssl_context=cert.ssl_context())
    plain, _ = serve_in_thread(live.app, "127.0.0.1", 0)
    live.runner.start()
    try:
        assert live.session.health.status == "reconnecting" or source.state == "retrying"
        url = f"https://127.0.0.1:{server.server_port}/camera/phone"
        live.app.config["PHONE_URL"] = url  # as start_https sets it
        with opened(browser, f"http://127.0.0.1:{plain.server_port}/",
                    LAPTOP) as table_page:  # the table's page offers the phone page
            table_page.wait_for_function(
                "document.querySelector('#phone-offer img').naturalWidth > 0")
            assert table_page.get_attribute("#phone-url", "href") == url
            table_page.locator("#phone-offer").scroll_into_view_if_needed()
            shot(table_page, "phone-offer")
        with phone_browser(browser, video) as phone, phone_page(phone, url) as page:
            assert page.evaluate("window.isSecureContext")
            assert not page.is_visible("#pin-row")  # this machine: no PIN
            page.click("#start")
            page.wait_for_function("document.body.dataset.running === 'yes'")
            page.wait_for_function("Number(document.body.dataset.acked) >= 1")
            page.wait_for_function("document.body.dataset.mat === 'yes'")
            still = rate(page, 6)
            assert page.get_attribute("body", "data-moving") == "no"
            assert "mat" in page.text_content("#status")
            shot(page, "phone-camera")
            stats = source.stats()
            assert (stats.width, stats.height) == (1920, 1080)
            assert live.session.health.calibrated and live.session.health.status == "ok"
            assert feed.frames >= 1 and live.session.health.markers >= 4
            print(f"still table: {still:.1f} frames/s answered; "
                  f"{stats.received} received, {stats.read} read, {stats.dropped} dropped")
            assert 1.0 <= still <= 4.5  # a few a second while nothing moves
            page.click("#stop")
            page.wait_for_function("document.body.dataset.running === 'no'")
        # the phone went away: the table says so like a camera that dropped out
        deadline = time.monotonic() + 30
        while live.session.health.status not in ("stalled", "reconnecting"):
            assert time.monotonic() < deadline, live.session.health.status
            time.sleep(0.05)
    finally:
        live.close()
        server.shutdown()
        plain.shutdown()


def test_the_phone_sends_faster_while_something_moves(browser: Any, tmp_path: Path) -> None:
    """A picture that keeps changing (a hand over the table) is sent faster than a still one;
    the fake referee's table, a small picture."""
    from companion.record.store import GameHeader, Store
    from companion.server.bus import EventBus
    from companion.server.session import LiveSession
    from tests.server.conftest import make_app
    from tests.server.fakes import LAYOUT, FakeReferee, card_info

    rng = np.random.default_rng(7)
    frames = [rng.integers(0, 255, (360, 640, 3), dtype=np.uint8) for _ in range(6)]
    video = write_y4m(tmp_path / "moving.y4m", frames, fps=15)

    store = Store(tmp_path / "g.db")
    session = LiveSession(FakeReferee(), store, EventBus(),
                          GameHeader(game="creature-crush", players=("Ada", "Bo"),
                                     ruleset_version="fake-1"), LAYOUT, card_info)
    app = make_app(session, bind="127.0.0.1")
    source = PushSource(wait_s=0.01)
    app.config["PHONE_SOURCE"] = source
    cert = ensure_certificate(("localhost", "127.0.0.1"), folder=tmp_path / "tls")
    server, _ = serve_in_thread(app, "127.0.0.1", 0, ssl_context=cert.ssl_context())
    try:
        url = f"https://127.0.0.1:{server.server_port}/camera/phone"
        with phone_browser(browser, video) as phone, phone_page(phone, url) as page:
            page.click("#start")
            page.wait_for_function("document.body.dataset.moving === 'yes'")
            moving = rate(page, 12)
            assert page.get_attribute("body", "data-moving") == "yes"
            print(f"moving picture: {moving:.1f} frames/s answered")
            assert moving > 4.5
            assert source.stats().width == 640
    finally:
        server.shutdown()
        session.bus.close()
        store.close()
