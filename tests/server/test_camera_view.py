"""The page's camera view (`GET /api/cameras` on a table with its own camera): each camera, what
it reads and which half of the mat it sees, and the half no live camera watches once one drops
out. Which half a camera sees is set by construction: a fake mat fit sharp at one long edge
(player 1's edge is y = 400 on the Creature Crush mat, player 2's y = 0)."""

from __future__ import annotations

from companion.layouts import load_layout
from companion.server.session import LiveSession
from companion.server.table_cameras import THIS_CAMERA
from companion.vision.multicam import clarity_grid
from tests.camera_fakes import near, page_with_cameras, table

GAME = "creature-crush"




def test_each_camera_says_what_it_covers_and_a_dropped_one_leaves_its_half(
        session: LiveSession) -> None:
    app, cameras, now = page_with_cameras(session)
    layout = load_layout(GAME)
    client = app.test_client()

    cameras.see([], near(0))  # the laptop at player 2's edge
    cameras.own(table(3, 2))
    view = client.get("/api/cameras").get_json()
    assert view["players"] == ["Ada", "Bo"]
    assert view["cameras"] == [{"camera": THIS_CAMERA, "own": True, "live": True, "cards": 3,
                                "dice": 2, "halves": ["player 2's half"]}]
    assert view["unwatched"] == ["player 1's half"]

    grid = clarity_grid(near(400).px_per_mm, float(layout.width_mm), float(layout.height_mm))
    cameras.hub.receive("Ada's laptop", table(1, 0), grid, None)
    cameras.remote()
    view = client.get("/api/cameras").get_json()
    assert [(c["camera"], c["live"], c["cards"], c["halves"]) for c in view["cameras"]] == [
        (THIS_CAMERA, True, 3, ["player 2's half"]), ("Ada's laptop", True, 1,
                                                       ["player 1's half"])]
    assert view["unwatched"] == []

    now[0] += 10  # Ada's laptop is not heard from again; the table's own camera goes on
    cameras.see([], near(0))
    view = client.get("/api/cameras").get_json()
    assert [(c["camera"], c["live"]) for c in view["cameras"]] == [
        (THIS_CAMERA, True), ("Ada's laptop", False)]
    assert view["unwatched"] == ["player 1's half"]
